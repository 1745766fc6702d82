"""Spatial join roles: which layer keeps its rows and which adds its attributes, in GeoPandas and Processing."""

from __future__ import annotations

import geopandas as gpd
import pytest
from geoclerk.agent.pipeline import AgentConfig, run_request
from geoclerk.function_lib import load_registry
from geoclerk.function_lib.describe import describe_gdf
from geoclerk.planning.roles import assign_layers
from shapely.geometry import Point, box


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    """4 hospitals (3 in tract A, 1 in tract B) and 3 tracts (C has none), EPSG:32633."""
    folder = tmp_path_factory.mktemp("h1joins")
    hospitals = gpd.GeoDataFrame(
        {"hname": ["H1", "H2", "H3", "H4"], "beds": [10, 20, 30, 40]},
        geometry=[Point(100, 100), Point(200, 500), Point(900, 900), Point(1500, 500)],
        crs="EPSG:32633",
    )
    tracts = gpd.GeoDataFrame(
        {"tract": ["A", "B", "C"], "pop": [1000, 2000, 3000]},
        geometry=[box(0, 0, 1000, 1000), box(1000, 0, 2000, 1000), box(2000, 0, 3000, 1000)],
        crs="EPSG:32633",
    )
    paths = {"hospitals": str(folder / "hospitals.gpkg"), "tracts": str(folder / "tracts.gpkg")}
    hospitals.to_file(paths["hospitals"])
    tracts.to_file(paths["tracts"])
    return paths


def _infos(data):
    return [describe_gdf(gpd.read_file(p), n, p) for n, p in data.items()]


HOSPITALS_KEEP = [
    "spatial join hospitals to tracts",
    "spatial join tracts to hospitals",
    "join the tracts' attributes to the hospitals",
    "join tract attributes onto hospitals by location",
    "for each hospital, add the tract it is in",
    "spatial join the tracts with the hospitals",
    "join hospitals and tracts by location",
    "给每个医院关联所在普查区的属性",
]


@pytest.mark.parametrize("text", HOSPITALS_KEEP)
def test_plan_keeps_the_points(router, data, text):
    plan = router.route(text, _infos(data)).plan
    assert plan.tool in ("spatial_join", "qgis_join_by_location")
    assert (plan.params["layer"], plan.params["join"]) == ("hospitals", "tracts")


def test_named_attribute_source_wins(router, data):
    plan = router.route("add the hospital attributes to the tracts", _infos(data)).plan
    assert (plan.params["layer"], plan.params["join"]) == ("tracts", "hospitals")


@pytest.mark.parametrize(
    ("text", "layer", "join"),
    [
        ("attach district names to each school", "schools", "districts"),
        ("for each school, add the district it is in", "schools", "districts"),
        ("join the schools to the districts by location", "schools", "districts"),
        ("add the school fields to the districts", "districts", "schools"),
    ],
)
def test_roles_on_sample_layers(registry, text, layer, join):
    from pathlib import Path

    sample = Path(__file__).resolve().parent.parent / "data" / "sample"
    infos = [describe_gdf(gpd.read_file(sample / f"{n}.gpkg"), n, str(sample / f"{n}.gpkg"))
             for n in ("schools", "districts")]  # fmt: skip
    for name in ("spatial_join", "qgis_join_by_location"):
        params, missing = assign_layers(registry.get(name).spec, text, infos)
        assert (params.get("layer"), params.get("join")) == (layer, join), name
        assert not missing


def _check_hospital_rows(report):
    assert report.status == "ok" and report.tier == 0, report.error
    out = gpd.read_file(report.outputs[-1]["path"])
    assert len(out) == 4  # one row per hospital
    rows = dict(zip(out["hname"], out["tract"]))
    assert rows == {"H1": "A", "H2": "A", "H3": "A", "H4": "B"}
    assert sorted(out["pop"]) == [1000, 1000, 1000, 2000]


@pytest.mark.parametrize("text", ["spatial join hospitals to tracts", "for each hospital, add the tract it is in"])
def test_geopandas_join_keeps_hospital_rows(data, tmp_path, registry, router, text):
    report = run_request(text, list(data.values()), tmp_path / "out", AgentConfig(offline=True), registry=registry,
                         router=router)  # fmt: skip
    assert report.steps[0]["tool"] == "spatial_join"
    _check_hospital_rows(report)


def test_processing_join_keeps_hospital_rows(data, tmp_path, router):
    from geoclerk.geoclerk_plugin.qgis_env import ensure_qgis

    status = ensure_qgis()
    if not status:
        pytest.skip(status.reason)
    from geoclerk.geoclerk_plugin.processing_tools import bind

    registry = load_registry()
    bind(registry)
    assert registry.preferred("spatial_join").spec.name == "qgis_join_by_location"
    report = run_request("spatial join hospitals to tracts", list(data.values()), tmp_path / "out",
                         AgentConfig(offline=True), registry=registry, router=router)  # fmt: skip
    _check_hospital_rows(report)


@pytest.mark.parametrize("text", ["只保留tracts内的hospitals", "tracts范围内的hospitals裁出来"])
def test_chinese_inside_names_the_overlay(registry, data, text):
    params, missing = assign_layers(registry.get("clip").spec, text, _infos(data))
    assert (params.get("layer"), params.get("overlay")) == ("hospitals", "tracts") and not missing
