"""The `geoclerk` command line against SPEC.md's contract, run as a user runs it (a subprocess)."""

from __future__ import annotations

import json
import math
import subprocess
from pathlib import Path

import geopandas as gpd
import pytest

ROOT = Path(__file__).resolve().parent.parent
GEOCLERK = str(ROOT / ".venv" / "bin" / "geoclerk")


def cli(*args, timeout=180):
    proc = subprocess.run([GEOCLERK, *args], capture_output=True, text=True, timeout=timeout)
    return proc


def cli_json(*args):
    proc = cli(*args)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


@pytest.mark.parametrize(
    "args",
    [
        [],
        ["frobnicate"],
        ["route"],
        ["run", "buffer roads by 100 m"],  # --out-dir missing
        ["run", "buffer", "--out-dir", "x", "--route", "magic"],
        ["run", "buffer", "--out-dir", "x", "--input", "/no/such/file.gpkg"],
        ["exec", "/no/such/script.py", "--work-dir", "w"],
        ["route", "--batch", "/no/such/batch.jsonl", "--json"],
    ],
    ids=lambda a: " ".join(a) or "no-args",
)
def test_usage_errors_are_one_line_and_non_zero(args):
    proc = cli(*args)
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in proc.stderr
    assert lines[0].startswith("geoclerk")


def test_tools_lists_both_halves():
    rows = cli_json("tools", "--json")
    halves = {r["half"] for r in rows}
    assert halves == {"geojson", "processing"}
    assert all(set(r) >= {"name", "half", "purpose"} and r["purpose"] for r in rows)
    assert len([r for r in rows if r["half"] == "geojson"]) >= 40
    assert len([r for r in rows if r["half"] == "processing"]) >= 40
    assert len({r["name"] for r in rows}) == len(rows)


def _check_route_shape(data):
    assert set(data) >= {"route", "confidence", "tools", "plan"}
    assert data["route"] in ("function", "codegen", "chat")
    assert 0.0 <= data["confidence"] <= 1.0
    scores = [t["score"] for t in data["tools"]]
    assert scores == sorted(scores, reverse=True)
    assert all(isinstance(t["name"], str) for t in data["tools"])
    if data["plan"] is not None:
        assert set(data["plan"]) >= {"tool", "params", "complete", "missing"}
        assert isinstance(data["plan"]["complete"], bool) and isinstance(data["plan"]["missing"], list)


def test_route_buffer_request():
    data = cli_json("route", "buffer roads by 100 m", "--input", str(ROOT / "data/sample/roads.gpkg"), "--json")
    _check_route_shape(data)
    assert data["route"] == "function"
    plan = data["plan"]
    assert plan["complete"] is True
    assert plan["params"]["distance"] == pytest.approx(100)


def test_route_batch_keeps_order(tmp_path):
    sample = ROOT / "data" / "sample"
    lines = [
        {"request": "buffer the schools by 2 km", "inputs": [str(sample / "schools.gpkg")]},
        {"request": "what is a map projection?", "inputs": []},
        {"request": "reproject the districts to EPSG:4326", "inputs": [str(sample / "districts.gpkg")]},
    ]
    batch = tmp_path / "batch.jsonl"
    batch.write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    proc = cli("route", "--batch", str(batch), "--json")
    assert proc.returncode == 0, proc.stderr
    results = [json.loads(x) for x in proc.stdout.strip().splitlines()]
    assert len(results) == 3
    for r in results:
        _check_route_shape(r)
    assert results[0]["plan"]["params"]["distance"] == pytest.approx(2000)
    assert results[1]["route"] == "chat"
    assert results[2]["plan"]["params"]["crs"] == "EPSG:4326"


def _check_run_shape(data):
    assert set(data) >= {"status", "route", "tier", "steps", "outputs", "answer", "error", "usage", "timings_ms"}
    assert data["status"] in ("ok", "error", "needs_llm", "rejected")
    assert data["tier"] in (0, 1, 2)
    assert set(data["usage"]) == {"llm_calls", "prompt_tokens", "completion_tokens"}
    assert {"route", "total"} <= set(data["timings_ms"])


def test_run_offline_buffer_by_value(sample_data, tmp_path):
    out = tmp_path / "out"
    data = cli_json(
        "run",
        "buffer the schools by 500 m",
        "--input",
        str(sample_data / "schools.gpkg"),
        "--out-dir",
        str(out),
        "--offline",
        "--json",
    )
    _check_run_shape(data)
    assert data["status"] == "ok" and data["tier"] == 0 and data["usage"]["llm_calls"] == 0
    vectors = [o for o in data["outputs"] if o["kind"] == "vector"]
    assert len(vectors) == 1 and Path(vectors[0]["path"]).exists()
    result = gpd.read_file(vectors[0]["path"])
    assert len(result) == 12
    assert result.area.mean() == pytest.approx(math.pi * 500**2, rel=0.02)
    assert result.crs.to_epsg() == 32633


def test_run_offline_open_ended_needs_llm(sample_data, tmp_path):
    data = cli_json(
        "run",
        "find the best place for a new school weighing population against distance to schools",
        "--input",
        str(sample_data / "districts.gpkg"),
        "--input",
        str(sample_data / "schools.gpkg"),
        "--out-dir",
        str(tmp_path / "o"),
        "--offline",
        "--json",
    )
    _check_run_shape(data)
    assert data["status"] == "needs_llm"
    assert data["error"] and "model" in data["error"]
    assert data["outputs"] == [] and data["usage"]["llm_calls"] == 0


def test_exec_contract(tmp_path, sample_data):
    script = tmp_path / "s.py"
    script.write_text(
        "import geopandas as gpd\n"
        "g = gpd.read_file('houses.gpkg')\n"
        "g[g.residents > 10].to_file('big.gpkg')\n"
        "print(len(g))\n"
    )
    data = cli_json(
        "exec", str(script), "--work-dir", str(tmp_path / "w"), "--input", str(sample_data / "houses.gpkg"), "--json"
    )
    assert set(data) >= {"ok", "error", "stdout", "outputs"}
    assert data["ok"] is True and data["error"] is None
    assert data["stdout"].strip() == "1500"
    kinds = {Path(o["path"]).name: o["kind"] for o in data["outputs"]}
    assert kinds == {"big.gpkg": "vector"}


def test_route_batch_survives_bad_lines(tmp_path):
    roads = str(ROOT / "data/sample/roads.gpkg")
    lines = [
        '{"request": 42}',
        json.dumps({"request": "buffer roads by 100 m", "inputs": roads}),
        "",
        "not json",
        '{"request": "buffer roads by 1 km", "inputs": ["/no/such.gpkg"]}',
        '{"request": "hello"}',
    ]
    batch = tmp_path / "b.jsonl"
    batch.write_text("\n".join(lines) + "\n\n")
    proc = cli("route", "--batch", str(batch), "--json")
    assert proc.returncode == 0, proc.stderr
    results = [json.loads(x) for x in proc.stdout.strip().splitlines()]
    assert len(results) == 6
    assert [("error" in r) for r in results] == [True, False, True, True, True, False]
    assert results[1]["plan"]["params"]["distance"] == pytest.approx(100)
    assert "line 5" in results[4]["error"] and "not found" in results[4]["error"]


def test_empty_request_is_a_usage_error():
    proc = cli("route", "   ", "--json")
    assert proc.returncode == 2 and "empty" in proc.stderr


def test_run_with_an_unreadable_input_keeps_the_report_shape(tmp_path):
    """A file GDAL cannot read stops the request before routing: still one contract-shaped JSON error report."""
    bad = tmp_path / "bad.geojson"
    bad.write_text("garbage\n")
    out = str(tmp_path / "o")
    data = cli_json("run", "buffer by 1 km", "--input", str(bad), "--out-dir", out, "--offline", "--json")
    _check_run_shape(data)
    assert data["status"] == "error" and "bad.geojson" in data["error"]
    assert data["timings_ms"]["route"] == 0.0 and data["outputs"] == []


def test_tier0_report_says_how_a_word_was_read_as_a_field(tmp_path):
    """'population' taken as the field POP2020 is said in the run report's notes, not only in the route plan."""
    import geopandas as gpd
    from shapely.geometry import box

    tracts = gpd.GeoDataFrame({"POP2020": [3000, 5000], "NAME": ["a", "b"]},
                              geometry=[box(0, 0, 1, 1), box(1, 0, 2, 1)], crs="EPSG:32633")
    tracts.to_file(tmp_path / "tracts.gpkg")
    data = cli_json("run", "select tracts where population > 4000", "--input", str(tmp_path / "tracts.gpkg"),
                    "--out-dir", str(tmp_path / "o"), "--offline", "--json")
    _check_run_shape(data)
    assert data["status"] == "ok" and '"POP2020" > 4000' in data["steps"][0]["params"]["expression"]
    assert any("POP2020" in n and "population" in n for n in data["notes"])
