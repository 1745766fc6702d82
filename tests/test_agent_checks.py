"""Results checked against the request (agent/checks.py): each post-condition passes the right result and catches the
wrong one, and the pipeline discards a tier-0 result that fails one."""

from __future__ import annotations

from pathlib import Path

import geopandas as gpd
import pytest
from geoclerk.agent.checks import result_problems
from geoclerk.agent.pipeline import AgentConfig, run_request
from geoclerk.function_lib.context import Output
from geoclerk.function_lib.describe import LayerInfo
from geoclerk.planning.result import Plan
from shapely.geometry import Point

SAMPLE = Path(__file__).resolve().parent.parent / "data" / "sample"


def _points(n: int, crs: str = "EPSG:32633") -> gpd.GeoDataFrame:
    return gpd.GeoDataFrame({"name": [f"p{i}" for i in range(n)], "v": list(range(n))},
                            geometry=[Point(500000 + 10 * i, 5800000) for i in range(n)], crs=crs)  # fmt: skip


def _out(tmp_path, gdf, name="out.gpkg") -> list[Output]:
    path = tmp_path / name
    gdf.to_file(path)
    return [Output(str(path), "vector", Path(name).stem)]


INFOS = [LayerInfo(name="cafes", crs="EPSG:32633", feature_count=5)]


def test_a_reprojection_ends_in_the_asked_crs(tmp_path):
    text = "convert the cafes from EPSG:32633 to EPSG:4326"
    plan = Plan("reproject", {"layer": "cafes", "crs": "EPSG:4326"}, complete=True)
    assert result_problems(text, _out(tmp_path, _points(5).to_crs(4326)), INFOS, plan) == []
    wrong = result_problems(text, _out(tmp_path, _points(5), "same.gpkg"), INFOS, plan)
    assert wrong and "EPSG:4326" in wrong[0]


@pytest.mark.parametrize("text", ["one centroid per cafe", "ein Schwerpunkt pro Café", "每个咖啡馆一个质心"])
def test_each_keeps_one_output_per_input(tmp_path, text):
    plan = Plan("centroids", {"layer": "cafes"}, complete=True)
    assert result_problems(text, _out(tmp_path, _points(5)), INFOS, plan) == []
    assert result_problems(text, _out(tmp_path, _points(1), "one.gpkg"), INFOS, plan)


def test_an_asked_format_and_image_exist(tmp_path):
    plan = Plan("buffer", {"layer": "cafes", "distance": 10}, complete=True)
    outs = _out(tmp_path, _points(5))
    assert result_problems("buffer the cafes by 10 m as geojson", outs, INFOS, plan, "geojson")
    assert result_problems("buffer the cafes by 10 m", outs, INFOS, plan, "gpkg") == []
    assert result_problems("buffer the cafes by 10 m and save a png", outs, INFOS, plan)


def test_top_n_gives_n_rows(tmp_path):
    plan = Plan("select_rows", {"layer": "cafes", "field": "v", "top_n": 3}, complete=True)
    assert result_problems("the 3 best cafes", _out(tmp_path, _points(3)), INFOS, plan) == []
    assert result_problems("the 3 best cafes", _out(tmp_path, _points(5), "all.gpkg"), INFOS, plan)


def test_an_empty_strict_predicate_is_not_an_answer(tmp_path):
    plan = Plan("qgis_extract_by_location", {"layer": "cafes", "reference": "x", "predicate": "touches"}, complete=True)
    assert result_problems("cafes that touch x", _out(tmp_path, _points(0)), INFOS, plan)
    assert result_problems("cafes that touch x", _out(tmp_path, _points(2), "two.gpkg"), INFOS, plan) == []


@pytest.fixture(scope="module")
def qgis_registry():
    """The command line's registry: Processing tools bound to QGIS, GeoPandas where they are not."""
    from geoclerk.cli.main import _registry_for

    return _registry_for("auto")


def test_the_pipeline_discards_a_result_that_fails(tmp_path, qgis_registry, router):
    report = run_request(
        "select the districts that touch a road",
        [str(SAMPLE / "districts.gpkg"), str(SAMPLE / "roads.gpkg")],
        tmp_path,
        AgentConfig(offline=True),
        qgis_registry,
        router,
    ).to_json()
    # the districts share edges with no road in the strict DE-9IM sense: the empty result is discarded, not shown
    assert report["status"] == "needs_llm" and report["outputs"] == [] and report["steps"] == []
    assert "intersects" in report["error"] and not list(tmp_path.glob("*.gpkg"))
