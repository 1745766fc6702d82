"""Tier 2 gives what the request asks for (a layer, a file format, a chart, a number) or is not `ok`. The local 1.5B
model answered 'clip the roads to the district and measure their length' with a script that only printed, and tier 2
called it ok. Replayed here over real HTTP with the real router and sandbox: the missing output goes back to the model
once, by name; a script that still lacks it ends partial (error), what it gave kept. English, German, Chinese."""

from __future__ import annotations

import shutil
from pathlib import Path

import geopandas as gpd
import pytest
from geoclerk.agent.coverage import asked_outputs, missing_outputs
from geoclerk.agent.pipeline import AgentConfig, run_request
from geoclerk.router.result import Plan, RouteResult
from geoclerk.tests import agent_toolkit
from geoclerk.tests.agent_toolkit import KEY

server = agent_toolkit.server  # fixture
SAMPLE = Path(__file__).resolve().parents[1] / "data" / "sample"
CLIP = "clip the roads to the Lindenau district and measure their length"

PRINT_ONLY = """Here is the script:
```python
import geopandas as gpd
roads = gpd.read_file('roads.gpkg')
districts = gpd.read_file('districts.gpkg')
lindenau = districts[districts['name'] == 'Lindenau']
clipped = gpd.clip(roads, lindenau)
print(f"The roads in Lindenau are {clipped.length.sum():.1f} m long.")
```
This script clips the roads and prints their total length."""
WRITES = PRINT_ONLY.replace(
    "print(f", "clipped['length_m'] = clipped.length\nclipped.to_file('roads_lindenau.gpkg')\nprint(f"
)


def _copy(tmp_path, *names) -> list[str]:
    (tmp_path / "data").mkdir(exist_ok=True)
    return [str(shutil.copy(SAMPLE / name, tmp_path / "data")) for name in names]


def _run(server, registry, router, tmp_path, request, files, replies):
    server.add(*({"content": r} for r in replies))
    config = AgentConfig(base_url=server.url, model="scripted", api_key=KEY, route="codegen", tier0=False)
    return run_request(request, _copy(tmp_path, *files), tmp_path / "out", config, registry, router)


def test_a_script_that_only_prints_is_told_the_layer_is_missing_then_ok(server, registry, router, tmp_path):
    report = _run(server, registry, router, tmp_path, CLIP, ["roads.gpkg", "districts.gpkg"], [PRINT_ONLY, WRITES])
    assert report.status == "ok", report.error
    assert [s["ok"] for s in report.steps] == [False, True]
    feedback = server.requests[1]["messages"][-1]["content"]
    assert "The script ran, but the request also asks for a layer file" in feedback
    assert "'clip the roads to the Lindenau district'" in feedback and "to_file" in feedback
    (out,) = report.outputs
    clipped = gpd.read_file(out["path"])
    assert len(clipped) == 12 and clipped["length_m"].sum() == pytest.approx(24174.0, abs=1)
    assert report.answer == "The roads in Lindenau are 24174.0 m long."


def test_a_script_that_still_only_prints_ends_partial_never_ok(server, registry, router, tmp_path):
    again = PRINT_ONLY.replace(":.1f} m long", ":.0f} m long")
    report = _run(server, registry, router, tmp_path, CLIP, ["roads.gpkg", "districts.gpkg"], [PRINT_ONLY, again])
    assert report.status == "error" and report.tier == 2
    assert report.error.startswith("Only part of the request was done: the code ran but did not give a layer file")
    assert report.answer == "The roads in Lindenau are 24174 m long."  # what it gave is kept
    assert report.outputs == [] and [s["ok"] for s in report.steps] == [False, False]
    assert len(server.requests) == 2  # told once, not again


def test_the_same_script_sent_back_ends_partial_with_its_answer(server, registry, router, tmp_path):
    files = ["roads.gpkg", "districts.gpkg"]
    report = _run(server, registry, router, tmp_path, CLIP, files, [PRINT_ONLY, PRINT_ONLY, PRINT_ONLY])
    assert report.status == "error" and "did not give a layer file" in report.error
    assert report.answer == "The roads in Lindenau are 24174.0 m long."
    assert len(server.requests) == 3


GERMAN = "buffere die Schulen um 500 m und zähle die Häuser in jedem Puffer"
COUNT_ONLY = """```python
import geopandas as gpd
schools = gpd.read_file('schools.gpkg')
houses = gpd.read_file('houses.gpkg')
buffers = schools.copy()
buffers['geometry'] = schools.buffer(500)
joined = gpd.sjoin(houses, buffers, predicate='within')
print(joined.groupby('name').size().to_string())
```"""
COUNT_AND_LAYER = COUNT_ONLY.replace(
    "print(", "buffers['houses'] = joined.groupby('index_right').size()\nbuffers.to_file('puffer.gpkg')\nprint("
)


def test_german_chain_gets_the_missing_layer_named(server, registry, router, tmp_path):
    files = ["schools.gpkg", "houses.gpkg"]
    report = _run(server, registry, router, tmp_path, GERMAN, files, [COUNT_ONLY, COUNT_AND_LAYER])
    assert report.status == "ok", report.error
    assert "'buffere die Schulen um 500 m'" in server.requests[1]["messages"][-1]["content"]
    assert len(gpd.read_file(report.outputs[0]["path"])) == 12


CHINESE = "将学校缓冲500米，并保存为GeoJSON"
GPKG = """```python
import geopandas as gpd
schools = gpd.read_file('schools.gpkg')
schools['geometry'] = schools.buffer(500)
schools.to_file('buffers.gpkg')
print('12 buffers')
```"""


def test_chinese_request_for_geojson_written_as_gpkg_is_partial(server, registry, router, tmp_path):
    report = _run(
        server, registry, router, tmp_path, CHINESE, ["schools.gpkg"], [GPKG, GPKG.replace("12 buffers", "Done")]
    )
    feedback = server.requests[1]["messages"][-1]["content"]
    assert "a GEOJSON file for '将学校缓冲500米，并保存为GeoJSON'" in feedback
    assert report.status == "error" and "GEOJSON file" in report.error
    assert len(report.outputs) == 1 and report.outputs[0]["path"].endswith(".gpkg")  # kept, flagged partial


def test_an_open_request_is_not_second_guessed(server, registry, router, tmp_path):
    script = """```python
import geopandas as gpd
d = gpd.read_file('districts.gpkg')
print('Seeviertel has the most cafes per 1000 inhabitants.')
```"""
    request = "which district has the most cafes per 1000 inhabitants? explain briefly"
    report = _run(server, registry, router, tmp_path, request, ["districts.gpkg", "cafes.gpkg"], [script])
    assert report.status == "ok" and len(server.requests) == 1


def _decision(route="function", steps=(), plan=None) -> RouteResult:
    return RouteResult(route, 0.9, [], plan, steps=[(t, [(tool, 0.9)]) for t, tool in steps])


def test_asked_outputs_by_the_clause_tools_traits():
    chain = _decision(steps=[("clip the roads", "clip"), ("measure their length", "geometry_length")])
    assert asked_outputs(chain, "clip the roads and measure their length") == [
        ("layer", "clip the roads"), ("number", "measure their length")]  # fmt: skip
    dissolve = _decision(steps=[("dissolve by landuse", "dissolve"), ("count them", "count_features")])
    assert [k for k, _ in asked_outputs(dissolve, "dissolve by landuse and count them")] == ["layer", "number"]
    one = _decision(plan=Plan("plot_map", {}))
    assert asked_outputs(one, "draw the districts") == [("image", "draw the districts")]
    assert asked_outputs(_decision("codegen", plan=Plan("buffer", {})), "score the schools") == []
    assert asked_outputs(_decision("codegen"), "score the schools as a PNG picture") == [
        ("image", "score the schools as a PNG picture")]  # fmt: skip


def test_missing_outputs_by_kind():
    asked = [("layer", "clip"), ("number", "measure"), ("image", "chart"), ("geojson", "as GeoJSON")]
    assert missing_outputs(asked, [], "") == [
        "a layer file (GeoPackage or GeoJSON) for 'clip'", "the number, printed for 'measure'",
        "a chart or map image (PNG) or HTML page for 'chart'", "a GEOJSON file for 'as GeoJSON'"]  # fmt: skip
    given = [{"path": "a.geojson", "kind": "vector"}, {"path": "c.html", "kind": "html"}]
    assert missing_outputs(asked, given, "Total: 12.5 km") == []
    assert missing_outputs([("number", "count")], [{"path": "t.csv", "kind": "table"}], "done") == []
