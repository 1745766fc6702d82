"""A chain step that is itself a composition (issue 24): 'select the roads longer than 5 km, then buffer them' — the
step a question implies (the measure, then a filter on it; planning/questions.py) serves a clause of a chain, and a
clause that names no layer measures the previous step's result. Checked by value on the sample town in en, de and
zh, with the negatives: a chain with one step not understood, a measure of a layer the chain did not make, a polygon's
'longer' — all stay needs_llm and leave no file behind.
"""

from __future__ import annotations

from pathlib import Path

import geopandas as gpd
import pytest
from geoclerk.agent.pipeline import AgentConfig, run_request

SAMPLE = Path(__file__).resolve().parent.parent / "data" / "sample"
LAYERS = ("schools", "houses", "districts", "cafes", "roads")


def _run(text, tmp_path, registry, router, layers=LAYERS):
    paths = [str(SAMPLE / f"{n}.gpkg") for n in layers]
    return run_request(text, paths, tmp_path, AgentConfig(offline=True), registry, router).to_json()


def _roads():
    return gpd.read_file(SAMPLE / "roads.gpkg")


@pytest.mark.parametrize(
    "text",
    [
        "select the roads longer than 5 km, then buffer them by 50 m",
        "Wähle die Straßen, die länger als 5 km sind, dann puffere sie um 50 m",
        "筛选长度超过5公里的道路，然后将它们缓冲50米",
    ],
)
def test_a_filter_on_a_measure_is_a_step_of_a_chain(tmp_path, registry, router, text):
    report = _run(text, tmp_path, registry, router)
    assert report["status"] == "ok" and report["tier"] == 0, (report["error"], report["escalations"])
    assert [s["tool"] for s in report["steps"]] == ["geometry_length", "filter_by_expression", "buffer"]
    measured, kept, buffered = report["steps"]
    assert kept["params"]["expression"] == '"length_m" > 5000'
    assert buffered["params"] == {"layer": Path(kept["output"]).stem, "distance": 50}
    roads = _roads()
    longer = roads[roads.length > 5000]
    assert 0 < len(longer) < len(roads)
    out = gpd.read_file(report["outputs"][-1]["path"])
    assert len(out) == len(longer)
    assert out.to_crs(roads.crs).area.sum() == pytest.approx(longer.buffer(50).area.sum(), rel=0.01)


@pytest.mark.parametrize(
    "text",
    [
        "buffer the roads by 50 m, then keep the ones longer than 5 km",  # a buffer has no length: declined
        "compute the length of each road in km and then keep the ones shorter than 5 km",
        "Berechne die Länge jeder Straße in km und behalte dann die, die kürzer als 5 km sind",
        "计算每条道路的长度（公里），然后筛选长度小于5公里的",
    ],
)
def test_a_clause_naming_no_layer_measures_the_previous_result(tmp_path, registry, router, text):
    report = _run(text, tmp_path, registry, router)
    if text.startswith("buffer"):
        assert report["status"] == "needs_llm", (report["steps"], report["answer"])
        return
    assert report["status"] == "ok" and report["tier"] == 0, (report["error"], report["escalations"])
    tools = [s["tool"] for s in report["steps"]]
    assert tools[0] == "geometry_length" and tools[-1] == "filter_by_expression"
    assert report["steps"][-1]["params"]["expression"] == '"length_m" < 5000'
    roads = _roads()
    out = gpd.read_file(report["outputs"][-1]["path"])
    assert len(out) == int((roads.length < 5000).sum()) > 0


@pytest.mark.parametrize(
    "text",
    [
        "select the roads longer than 5 km, then frobnicate them",  # one step not understood
        "Wähle die Straßen, die länger als 5 km sind, dann frobniziere sie",
        "筛选长度超过5公里的道路，然后对它们进行魔法处理",
        "buffer the schools by 500 m, then select the roads longer than 5 km",  # the buffers are never read
        "puffere die Schulen um 500 m und wähle dann die Straßen, die länger als 5 km sind",
        "把学校缓冲500米，然后筛选长度超过5公里的道路",
    ],
)
def test_a_chain_with_a_measure_step_it_cannot_join_stays_needs_llm(tmp_path, registry, router, text):
    report = _run(text, tmp_path / "out", registry, router)
    assert report["status"] == "needs_llm", (report["steps"], report["answer"])
    assert report["outputs"] == [] and not list((tmp_path / "out").glob("*.gpkg"))


def _cafes_per_district():
    districts, cafes = gpd.read_file(SAMPLE / "districts.gpkg"), gpd.read_file(SAMPLE / "cafes.gpkg")
    return [int(cafes.within(g).sum()) for g in districts.geometry]


@pytest.mark.parametrize(
    "text",
    [
        "count the cafes per district and then keep only the districts with more than 3",
        "Zähle die Cafés pro Bezirk und behalte dann nur die Bezirke mit mehr als 3",
        "统计每个行政区的咖啡馆数量，然后只保留大于3的行政区",
    ],
)
def test_a_comparison_naming_no_field_compares_the_field_the_previous_step_wrote(tmp_path, registry, router, text):
    report = _run(text, tmp_path, registry, router)
    assert report["status"] == "ok" and report["tier"] == 0, (report["error"], report["escalations"])
    assert [s["tool"] for s in report["steps"]] == ["count_points_in_polygons", "filter_by_expression"]
    counted, kept = report["steps"]
    assert kept["params"] == {"layer": Path(counted["output"]).stem, "expression": '"count" > 3'}
    out = gpd.read_file(report["outputs"][-1]["path"])
    expected = sorted(n for n in _cafes_per_district() if n > 3)
    assert 0 < len(expected) < len(_cafes_per_district())
    assert sorted(out["count"]) == expected


@pytest.mark.parametrize(
    "text",
    [
        "count the cafes per district and then keep only the districts with more than 3 km",  # a unit: not guessed
        "buffer the schools by 500 m, then keep only the ones with more than 3",  # the buffer wrote no number field
        "count the cafes per district and then keep only the districts with more than 3 or less than 1",  # two
        "Zähle die Cafés pro Bezirk und behalte dann nur die Bezirke mit mehr als 3 km",
        "统计每个行政区的咖啡馆数量，然后只保留大于3公里的行政区",
    ],
)
def test_a_comparison_on_no_one_written_field_stays_needs_llm(tmp_path, registry, router, text):
    report = _run(text, tmp_path / "out", registry, router)
    assert report["status"] == "needs_llm", (report["steps"], report["answer"])
    assert report["outputs"] == [] and not list((tmp_path / "out").glob("*.gpkg"))
