"""Candidates: after two failed attempts the model writes k alternatives, tried on a sample; the best runs in full."""

from __future__ import annotations

import geopandas as gpd
import pandas as pd
import pytest
from geoclerk.agent.pipeline import run_request
from geoclerk.codegen.candidates import candidate_request, sample_inputs
from geoclerk.codegen.extract import code_blocks
from geoclerk.codegen.sandbox import Sandbox
from geoclerk.tests import agent_toolkit
from geoclerk.tests.agent_toolkit import TinyRouter, config_for, tiny_registry
from shapely.geometry import Point

server = agent_toolkit.server  # fixture

CODEGEN = TinyRouter(route="codegen", confidence=0.9)
REQUEST = "save the wells deeper than 100 m"
WRONG_FIELD = "import geopandas as gpd\nw = gpd.read_file('wells.gpkg')\nw[w['depth_m'] > 100].to_file('deep.gpkg')"
INVENTED = "import geopandas as gpd\nw = gpd.read_file('wells.gpkg')\nw.deep_only(100).to_file('deep.gpkg')"
REFUSED = "import os\nos.system('ls')"
RIGHT = (
    "import geopandas as gpd\nw = gpd.read_file('wells.gpkg')\ndeep = w[w['depth'] > 100]\n"
    "deep.to_file('deep_wells.gpkg', driver='GPKG')\nprint(f'{len(deep)} of {len(w)} wells are deeper than 100 m.')"
)


def _fence(*codes: str) -> dict:
    return {"content": "\n".join(f"Script {i}:\n```python\n{c}\n```" for i, c in enumerate(codes, 1))}


@pytest.fixture
def wells(tmp_path):
    """450 wells, EPSG:32633; depth 10..1800 m in steps of 4 (so 427 are deeper than 100 m, only 200 in a sample)."""
    path = tmp_path / "data" / "wells.gpkg"
    path.parent.mkdir()
    depth = [10 + 4 * i for i in range(450)]
    gpd.GeoDataFrame({"depth": depth}, geometry=[Point(500000 + i, 5000000) for i in range(450)],
                     crs="EPSG:32633").to_file(path, driver="GPKG")  # fmt: skip
    return str(path)


def _run(server, replies, wells, tmp_path, **extra):
    server.add(*replies)
    config = config_for(server, **extra)
    return run_request(REQUEST, [wells], tmp_path / "out", config, registry=tiny_registry(), router=CODEGEN)


def test_the_one_candidate_that_runs_on_the_sample_is_kept_and_run_on_all_the_data(server, wells, tmp_path):
    first, second = _fence(WRONG_FIELD), _fence(INVENTED)
    report = _run(server, [first, second, _fence(INVENTED.replace("100", "50"), REFUSED, RIGHT)], wells, tmp_path,
                  max_repairs=4)  # fmt: skip
    assert report.status == "ok", report.error
    (out,) = report.outputs  # only the full run's file: the dry runs' files were discarded
    deep = gpd.read_file(out["path"])
    assert len(deep) == 427 and deep["depth"].min() == 102  # all 450 wells, not the 200 of the sample
    assert report.answer == "427 of 450 wells are deeper than 100 m."
    (search,) = report.codegen["candidates"]
    assert (search["asked"], search["received"], search["winner"]) == (3, 3, 3)
    assert search["why"].startswith("candidate 3 ran on the sample")
    assert "3 alternative scripts were tried on a sample of the data; number 3 ran there" in " ".join(report.notes)
    verdicts = {c["index"]: c["verdict"] for c in search["candidates"]}
    assert "deep_only" in verdicts[1] and "os.system is not allowed" in verdicts[2]
    assert search["tokens"] > 0
    asked = server.requests[2]["messages"][-1]["content"]
    assert "write 3 different versions" in asked and "Attempt 2 of 4 failed" in asked
    assert report.usage.llm_calls == 3  # one request for the three alternatives
    assert [s["ok"] for s in report.steps] == [False, False, True]


def test_when_every_candidate_fails_the_error_says_so(server, wells, tmp_path):
    replies = [_fence(WRONG_FIELD), _fence(INVENTED), _fence(INVENTED.replace("100", "50"), REFUSED)]
    report = _run(server, replies, wells, tmp_path, max_repairs=3)
    assert report.status == "error" and report.outputs == []
    assert "still failed after 3 attempt(s)" in report.error
    assert "None of 2 alternative script(s) ran on a sample of the data" in report.error
    assert "deep_only" in report.error and "os.system" in report.error
    (search,) = report.codegen["candidates"]
    assert search["winner"] is None and search["received"] == 2
    assert not any("alternative scripts were tried" in note for note in report.notes)
    assert report.usage.llm_calls == 3


def test_switched_off_the_third_attempt_is_a_plain_repair(server, wells, tmp_path):
    replies = [_fence(WRONG_FIELD), _fence(INVENTED), _fence(RIGHT)]
    report = _run(server, replies, wells, tmp_path, codegen_candidates=0)
    assert report.status == "ok" and report.answer == "427 of 450 wells are deeper than 100 m."
    assert "different versions" not in server.requests[2]["messages"][-1]["content"]
    assert "candidates" not in report.codegen
    assert len(server.requests) == 3


def test_a_search_over_its_token_budget_is_a_plain_repair(server, wells, tmp_path):
    replies = [_fence(WRONG_FIELD), _fence(INVENTED), _fence(RIGHT)]
    report = _run(server, replies, wells, tmp_path, candidate_tokens=500)
    assert report.status == "ok", report.error
    assert "different versions" not in server.requests[2]["messages"][-1]["content"]
    assert report.codegen["candidates"] == [{"asked": 0, "skipped": "over the token budget"}]


def test_samples_are_the_first_rows_and_small_files_are_copied_whole(wells, tmp_path):
    table = tmp_path / "t.csv"
    pd.DataFrame({"a": range(500)}).to_csv(table, index=False)
    small = tmp_path / "small.geojson"
    gpd.GeoDataFrame({"v": [1, 2]}, geometry=[Point(0, 0), Point(1, 1)], crs="EPSG:4326").to_file(small)
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    copies = {"w": wells, "t": str(table), "s": str(small)}
    samples = sample_inputs(copies, scratch, rows=200)
    assert {p: samples[p].split("/")[-1] for p in samples} == {wells: "wells.gpkg", str(table): "t.csv",
                                                                str(small): "small.geojson"}  # fmt: skip
    assert list(gpd.read_file(samples[wells])["depth"]) == [10 + 4 * i for i in range(200)]
    assert list(pd.read_csv(samples[str(table)])["a"]) == list(range(200))
    assert len(gpd.read_file(samples[str(small)])) == 2


def test_a_trial_run_leaves_no_variables(tmp_path):
    with Sandbox(root=tmp_path / "box", timeout=30) as box:
        work = box.new_work_dir()
        assert box.run("kept = 1", work).ok
        trial = box.run("kept = 2\nscratch_only = 3\nprint(kept)", work, keep=False)
        assert trial.ok and trial.stdout == "2\n"
        after = box.run("print(kept)\ntry:\n    print(scratch_only)\nexcept NameError:\n    print('gone')", work)
        assert after.stdout == "1\ngone\n"


def test_the_request_for_alternatives_keeps_the_prefix_and_blocks_are_read_apart():
    messages = [{"role": "system", "content": "S"}, {"role": "user", "content": "R"}]
    asked = candidate_request(messages, 2)
    assert asked[0] == messages[0] and asked[1]["content"].startswith("R\n\nTwo attempts have failed")
    assert messages[1]["content"] == "R"  # the conversation itself is unchanged
    assert code_blocks(_fence("a = 1", "b = 2")["content"]) == ["a = 1\n", "b = 2\n"]
