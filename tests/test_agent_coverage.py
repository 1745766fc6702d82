"""A chain is ok only when every step the router read was served (agent/coverage.py). The local 1.5B model ran the
first step of a chain and stopped ('reproject the countries … and keep only Europe' → 177 countries, reported ok);
these tests replay that habit over real HTTP: the model is told what is left, and a model that still stops leaves
the request partial, never ok. The same rule in English, German and Chinese."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import geopandas as gpd
import pytest
from geoclerk.agent.coverage import pending_steps
from geoclerk.agent.pipeline import AgentConfig, run_request
from geoclerk.tests import agent_toolkit
from geoclerk.tests.agent_toolkit import KEY

server = agent_toolkit.server  # fixture
SAMPLE = Path(__file__).resolve().parents[1] / "data" / "sample"
REQUESTS = [
    "reproject the countries to web mercator and keep only Europe",
    "projiziere die Länder nach Web Mercator und behalte nur Europa",
    "把国家投影到Web墨卡托，然后只保留欧洲",
]


@pytest.fixture
def countries(tmp_path):
    target = tmp_path / "countries.geojson"
    shutil.copy(SAMPLE / "countries.geojson", target)
    return str(target)


def _last_layer(body: dict) -> str:
    for m in reversed(body["messages"]):
        if m.get("role") == "tool":
            return json.loads(m["content"])["new_layers"][0]["name"]
    raise AssertionError("no tool result yet")


REPROJECT = {"tool_calls": [{"name": "reproject", "arguments": {"layer": "countries", "crs": "EPSG:3857"}}]}
DONE = {"content": "Done: the countries are reprojected."}


def _filter(body: dict) -> dict:
    args = {"layer": _last_layer(body), "expression": "\"continent\" = 'Europe'"}
    return {"tool_calls": [{"name": "filter_by_expression", "arguments": args}]}


def _run(server, registry, router, countries, tmp_path, request):
    config = AgentConfig(base_url=server.url, model="scripted", api_key=KEY, route="function")
    return run_request(request, [countries], tmp_path / "out", config, registry, router)


@pytest.mark.parametrize("request_text", REQUESTS)
def test_a_model_that_stops_after_the_first_step_is_given_the_rest(server, registry, router, countries, tmp_path,
                                                                   request_text):  # fmt: skip
    server.add(REPROJECT, DONE, _filter, {"content": "Done: Europe, in web mercator."})
    report = _run(server, registry, router, countries, tmp_path, request_text)
    assert report.status == "ok", report.error
    assert [s["tool"] for s in report.steps] == ["reproject", "filter_by_expression"]
    out = gpd.read_file(report.outputs[-1]["path"])
    assert len(out) == 39 and out.crs.to_epsg() == 3857  # Europe only, in the target CRS
    told = server.requests[2]["messages"][-1]["content"]
    assert told.startswith("Not done yet") and report.steps[0]["tool"] not in told


@pytest.mark.parametrize("request_text", REQUESTS)
def test_a_model_that_still_stops_leaves_the_request_partial_not_ok(server, registry, router, countries, tmp_path,
                                                                    request_text):  # fmt: skip
    server.add(REPROJECT, DONE, DONE)
    report = _run(server, registry, router, countries, tmp_path, request_text)
    assert report.status == "error"
    assert "not done" in report.error and "reproject" in report.error
    assert report.usage.llm_calls == 3  # one reminder, then it is reported, not looped


class _Decision:
    def __init__(self, *clauses):
        self.steps = [(text, [(t, 0.5) for t in tools]) for text, tools in clauses]


def test_each_step_serves_one_clause():
    chain = _Decision(("buffer the schools", ["buffer"]), ("count the houses in each", ["buffer", "count_features"]))
    assert pending_steps(chain, [{"tool": "buffer", "params": {}}]) == ["count the houses in each"]
    both = [{"tool": "buffer", "params": {}}, {"tool": "count_points_in_polygons", "params": {}}]
    assert pending_steps(chain, both) == []  # a step the ranking missed still serves the clause left over


def test_a_flag_of_the_step_can_serve_a_clause_and_qgis_twins_count_as_one():
    chain = _Decision(("buffer the schools", ["buffer"]), ("dissolve them", ["dissolve", "qgis_fix_geometries"]))
    assert pending_steps(chain, [{"tool": "qgis_buffer", "params": {"dissolve": True}}]) == []
    assert pending_steps(chain, [{"tool": "qgis_buffer", "params": {"dissolve": False}}]) == ["dissolve them"]
    assert pending_steps(_Decision(("one step", ["buffer"])), []) == []  # one clause: nothing to cover


def test_a_partial_tier1_result_on_the_auto_route_is_handed_to_the_code_worker(server, registry, router, countries,
                                                                               tmp_path):  # fmt: skip
    code = (
        "```python\nimport geopandas as gpd\nc = gpd.read_file('countries.geojson')\n"
        "c = c[c['continent'] == 'Europe'].to_crs(3857)\nc.to_file('europe.gpkg', driver='GPKG')\n"
        "print(len(c), 'countries')\n```"
    )
    server.add(REPROJECT, DONE, DONE, {"content": code})
    config = AgentConfig(base_url=server.url, model="scripted", api_key=KEY, route="auto", tier0=False)
    report = run_request(REQUESTS[0], [countries], tmp_path / "out", config, registry, router)
    assert report.status == "ok", report.error
    assert report.tier == 2 and report.error is None  # tier 1's partial ending stays in the escalations only
    assert any("not done" in e for e in report.escalations)
    out = gpd.read_file(report.outputs[-1]["path"])
    assert len(out) == 39 and out.crs.to_epsg() == 3857
    assert all("reproject" not in Path(o["path"]).name for o in report.outputs)  # the partial layer was discarded


ROADS_DISTRICTS = ("roads.gpkg", "districts.gpkg")


def test_a_named_value_no_call_used_is_given_back_then_partial(server, registry, router, tmp_path):
    # the local model clipped the roads to every district for 'the Lindenau district' (4.6x the length), reported ok
    paths = []
    for name in ROADS_DISTRICTS:
        shutil.copy(SAMPLE / name, tmp_path / name)
        paths.append(str(tmp_path / name))
    clip_all = {"tool_calls": [{"name": "clip", "arguments": {"layer": "roads", "overlay": "districts"}}]}
    server.add(clip_all, DONE, DONE)
    config = AgentConfig(base_url=server.url, model="scripted", api_key=KEY, route="function")
    report = run_request("clip the roads to the Lindenau district", paths, tmp_path / "out", config, registry, router)
    assert report.status == "error" and "Lindenau" in report.error  # never ok with every district's roads
    assert "use 'Lindenau'" in server.requests[2]["messages"][-1]["content"]  # the reminder after its 'done'


def test_a_named_value_a_call_used_is_served():
    from geoclerk.agent.coverage import unused_values
    from geoclerk.planning.result import Gap, Plan

    class Decision:
        plan = Plan("clip", {}, missing=[Gap("selection", "selection: Lindenau", "Lindenau")])
        steps = []

    used = [{"tool": "filter_by_expression", "params": {"expression": "\"name\" = 'Lindenau'"}}]
    assert unused_values(Decision, used) == []
    assert unused_values(Decision, [{"tool": "clip", "params": {"layer": "roads"}}]) == [
        "use 'Lindenau' (the request names it; no call used it)"
    ]


ASSIGN_REPROJECT = {"tool_calls": [{"name": "assign_subtask", "arguments": {"subtask": "Reproject countries to 3857"}}]}
ASSIGN_FILTER = {"tool_calls": [{"name": "assign_subtask", "arguments": {"subtask": "Keep only Europe"}}]}


def _worker_filter(body: dict) -> dict:
    """The Worker filters the newest layer its subtask lists ('Layers: countries, countries_reprojected')."""
    listing = body["messages"][1]["content"].split("Layers: ")[1]
    args = {"layer": listing.split(", ")[-1].strip(), "expression": "\"continent\" = 'Europe'"}
    return {"tool_calls": [{"name": "filter_by_expression", "arguments": args}]}


def _planner(server, registry, router, countries, tmp_path, request):
    config = AgentConfig(base_url=server.url, model="scripted", api_key=KEY, route="function", architecture="planner")
    return run_request(request, [countries], tmp_path / "out", config, registry, router)


@pytest.mark.parametrize("request_text", REQUESTS)
def test_the_planner_saying_end_first_is_told_nothing_was_done_then_given_the_rest(
    server, registry, router, countries, tmp_path, request_text
):
    # the local model's Planner answered 'END' before any subtask on all five chains of the sample
    server.add({"content": "END"}, ASSIGN_REPROJECT, REPROJECT, DONE, {"content": "END: reprojected."},
               ASSIGN_FILTER, _worker_filter, DONE, {"content": "END: Europe in web mercator."})  # fmt: skip
    report = _planner(server, registry, router, countries, tmp_path, request_text)
    assert report.status == "ok", report.error
    assert server.requests[1]["messages"][-1]["content"].startswith("Nothing has been done yet")
    told = server.requests[5]["messages"][-1]["content"]
    assert told.startswith("Not done yet") and "assign_subtask" in told
    out = gpd.read_file(report.outputs[-1]["path"])
    assert len(out) == 39 and out.crs.to_epsg() == 3857


def test_the_planner_that_still_stops_is_partial_and_one_that_never_starts_is_not_ok(
    server, registry, router, countries, tmp_path
):
    server.add(ASSIGN_REPROJECT, REPROJECT, DONE, {"content": "END: done."}, {"content": "END: done."})
    report = _planner(server, registry, router, countries, tmp_path, REQUESTS[0])
    assert report.status == "error" and "not done" in report.error and "keep only Europe" in report.error
    assert report.usage.llm_calls == 5
    server.add({"content": "END"}, {"content": "END"})
    report = _planner(server, registry, router, countries, tmp_path / "again", REQUESTS[0])
    assert report.status == "error" and report.steps == [] and report.usage.llm_calls == 2


def test_a_map_is_served_by_a_picture_or_a_raster_not_by_a_vector_file():
    """'map it' outside QGIS wants a picture; an 'NDVI map' / 'NDVI-Karte' / 'NDVI地图' is the index's raster itself."""
    from geoclerk.agent.coverage import asked_outputs, missing_outputs

    for request in ("make a map of the NDVI", "NDVI-Karte des Satellitenbilds", "生成NDVI地图"):
        asked = asked_outputs(None, request)
        assert [k for k, _ in asked] == ["map"], (request, asked)
        assert missing_outputs(asked, [{"kind": "raster", "path": "ndvi.tif"}], "") == []
        assert missing_outputs(asked, [{"kind": "image", "path": "ndvi.png"}], "") == []
        assert missing_outputs(asked, [{"kind": "vector", "path": "ndvi.gpkg"}], "")
