"""The end-to-end task suite: tier 0 never gives a wrong answer, and replayed references pass their checkers."""

from __future__ import annotations

import pytest
from geoclerk.bench import suite
from geoclerk.bench.checkers import CheckResult, check_task


def test_tasks_file_is_well_formed():
    tasks = suite.load_tasks()
    assert len(tasks) >= 60
    assert {t["level"] for t in tasks} == {1, 2, 3}
    assert {t["category"] for t in tasks} >= {"conversion", "interaction", "relation", "query", "mapping"}
    for t in tasks:
        assert t["route"] in ("function", "codegen")
        assert ("chain" in t) == (t["route"] == "function") and ("code" in t) == (t["route"] == "codegen")
        assert t["checks"], t["id"]


def test_checker_rejects_a_wrong_result(tmp_path):
    """A checker that cannot fail is no checker: a wrong count and a missing output both fail."""
    import geopandas as gpd
    from shapely.geometry import Point

    task = {"checks": [{"output": "vector", "expect": "len(out)", "equals": "len(pts)"}]}
    pts = gpd.GeoDataFrame(geometry=[Point(0, 0), Point(1, 1)], crs=32633)
    wrong = tmp_path / "wrong.gpkg"
    pts.iloc[:1].to_file(wrong)
    report = {"status": "ok", "outputs": [{"path": str(wrong), "kind": "vector"}], "answer": ""}
    assert check_task(task, report, {"pts": pts}) == CheckResult(False, ["len(out) = 1, expected 2"])
    assert not check_task(task, {"status": "ok", "outputs": []}, {"pts": pts}).passed
    right = tmp_path / "right.gpkg"
    pts.to_file(right)
    assert check_task(task, {"status": "ok", "outputs": [{"path": str(right), "kind": "vector"}]}, {"pts": pts}).passed


@pytest.fixture(scope="module")
def tier0_results(tmp_path_factory):
    return suite.run_suite(["tier0"], tmp_path_factory.mktemp("suite"), progress=lambda *_: None)


def test_tier0_is_never_wrong_and_solves_enough(tier0_results):
    summary = tier0_results["summaries"]["tier0"]
    wrong = [
        f"{r['id']}: {r['failures']}"
        for r in tier0_results["results"]["tier0"]
        if r["status"] != "needs_llm" and not r["passed"]
    ]
    assert not wrong, "tier 0 answered wrongly:\n" + "\n".join(wrong)
    assert summary["tier0_precision"] == 1.0
    assert summary["share_solved_without_model"] >= 0.40


def test_replay_of_references_passes(tmp_path):
    """A few tasks of each kind end to end through the scripted model server (the full run is `make bench`)."""
    data = suite.run_suite(
        ["replay"],
        tmp_path,
        only="^(rel-buffer-schools|query-sjoin|chain-buffer-count|open-income-correlation)$",
        progress=lambda *_: None,
    )
    rows = data["results"]["replay"]
    assert len(rows) == 4
    failed = [f"{r['id']}: {r['status']} {r['error']} {r['failures']}" for r in rows if not r["passed"]]
    assert not failed, "\n".join(failed)
    assert all(r["tier"] in (1, 2) and r["usage"]["llm_calls"] >= 1 for r in rows)


def test_make_bench_keeps_the_real_model_section(tmp_path):
    from geoclerk.bench.model_suite import BEGIN, END
    from geoclerk.bench.report import _kept_model_section

    report = tmp_path / "report.md"
    report.write_text(f"# old\n\nstale table\n\n{BEGIN}\n## Real local model\n| mode | 3/5 |\n{END}\n")
    kept = _kept_model_section(report)
    assert kept[-1].startswith(BEGIN) and "| mode | 3/5 |" in kept[-1] and "stale table" not in kept[-1]
    report.write_text("# no model section yet\n")
    assert _kept_model_section(report) == []


def test_a_model_run_keeps_earlier_rows_and_replaces_its_own_code_and_mode():
    from geoclerk.bench.model_suite import merge_section

    old = (
        "| code | mode | tasks | passed | ok but wrong | by level | median tokens | median s | tiers used |\n"
        "| aaa1111 | tier2 | 3 | 2 | 0 | L1 2/3 | 874 | 27.7 | 2: 3 |\n"
        "| bbb2222 | tier2 | 12 | 1 | 0 | L1 1/5 | 900 | 30.0 | 2: 12 |\n"
        "| aaa1111 | tier1 | 12 | 8 | 2 | L1 5/5 | 3980 | 36.3 | 1: 12 |\n"
        "- aaa1111 tier2 rel-buffer-schools: error (tier 2): HTTP 400\n"
        "- bbb2222 tier2 map-visualize: error (tier 2): no image\n"
    )
    row = {"id": "chain-clip-length", "passed": False, "failures": ["no vector output"], "status": "error", "tier": 2}
    summary = {"n": 1, "passed": 0, "ok_but_wrong": 0, "by_level": {"2": "0/1"}, "median_tokens": 2000,
               "median_seconds": 60.0, "tiers": {"2": 1}, "median_calls": 3.5}  # fmt: skip
    data = {"code": "bbb2222", "summaries": {"tier2": summary}, "results": {"tier2": [row]}}
    lines = merge_section(old, data)
    rows = [line for line in lines if line.startswith("| ") and not line.startswith("| code")]
    assert [r.split("|")[1:3] for r in rows] == [[" bbb2222 ", " tier2 "], [" aaa1111 ", " tier2 "],
                                                 [" aaa1111 ", " tier1 "]]  # fmt: skip
    assert "| bbb2222 | tier2 | 1 | 0 | 0 | L2 0/1 | 3.5 | 2000 | 60.0 | 2: 1 |" in rows
    assert "| aaa1111 | tier1 | 12 | 8 | 2 | L1 5/5 | – | 3980 | 36.3 | 1: 12 |" in rows  # before the calls column
    fails = [line for line in lines if line.startswith("- ")]
    assert fails == ["- bbb2222 tier2 chain-clip-length: error (tier 2): no vector output",
                     "- aaa1111 tier2 rel-buffer-schools: error (tier 2): HTTP 400"]  # fmt: skip
