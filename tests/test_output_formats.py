"""Output formats asked inside a request ('… as GeoJSON', '导出为shp') are written at tier 0 and tier 1, by value."""

from __future__ import annotations

import geopandas as gpd
import pandas as pd
import pytest
from geoclerk.agent.pipeline import AgentConfig, run_request
from geoclerk.function_lib import load_registry
from geoclerk.function_lib.describe import describe_gdf
from geoclerk.function_lib.geojson.conversion import FORMATS
from geoclerk.reading.quantities import WRITABLE_FORMATS, output_format
from geoclerk.reading.text import fold
from geoclerk.tests import agent_toolkit
from geoclerk.tests.agent_toolkit import TinyRouter, config_for, tiny_registry
from shapely.geometry import Point

server = agent_toolkit.server  # fixture


@pytest.fixture
def hospitals(tmp_path):
    path = tmp_path / "data" / "hospitals.gpkg"
    path.parent.mkdir()
    gpd.GeoDataFrame(
        {"name": [f"H{i}" for i in range(5)], "beds": [50, 120, 80, 300, 10]},
        geometry=[Point(500000 + 1000 * i, 5000000) for i in range(5)],
        crs="EPSG:32633",
    ).to_file(path)
    return str(path)


def _run(text, path, tmp_path, registry, router, **config):
    return run_request(
        text, [path], tmp_path / "out", AgentConfig(offline=True, **config), registry=registry, router=router
    )


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("buffer the hospitals by 500 m and give me the result as GeoJSON", "geojson"),
        ("hospitals with beds > 100 as CSV", "csv"),
        ("reproject the roads to EPSG:4326 and save it as a shapefile", "shp"),
        ("write hospitals to KML", "kml"),
        ("clip roads to districts in GeoJSON format", "geojson"),
        ("dissolve districts, output as geopackage", "gpkg"),
        ("Puffere die Schulen um 500 m als GeoJSON", "geojson"),
        ("将学校缓冲500米并导出为GeoJSON", "geojson"),
        ("缓冲500米，导出为shp", "shp"),
        ("export the result to Excel", "xlsx"),
    ],
)
def test_output_format_read(text, code):
    assert output_format(fold(text)).code == code


@pytest.mark.parametrize(
    "text",
    ["buffer the points in csv by 5 m", "buffer stations.csv by 500 m", "read the csv of stations and buffer 500 m",
     "join table.csv to districts", "count points per district as a table", "clip roads to the shapefile boundary"],
)  # fmt: skip
def test_source_files_are_not_output_formats(text):
    assert output_format(fold(text)) is None


def test_writable_formats_match_the_writer():
    assert WRITABLE_FORMATS == FORMATS


@pytest.mark.parametrize(
    ("text", "tool", "fmt"),
    [
        ("buffer the hospitals by 500 m and give me the result as GeoJSON", "buffer", "geojson"),
        ("hospitals with beds > 100 as CSV", "filter_by_expression", "csv"),
        ("buffer the hospitals by 1/4 mile and export as shapefile", "buffer", "shp"),
        ("Puffere die hospitals um 500 m als GeoJSON", "buffer", "geojson"),
    ],
)
def test_plan_records_the_format(router, hospitals, text, tool, fmt):
    plan = router.route(text, [describe_gdf(gpd.read_file(hospitals), "hospitals", hospitals)]).plan
    assert plan.tool == tool and plan.complete, plan.missing
    assert plan.output_format == fmt
    assert plan.to_json()["output_format"] == fmt


def test_unwritable_format_is_said_not_silent(router, hospitals, tmp_path, registry):
    report = _run("buffer the hospitals by 500 m and export it to Excel", hospitals, tmp_path, registry, router)
    assert report.status == "needs_llm"
    assert "cannot write" in report.error and "excel" in report.error
    assert report.outputs == []


def test_buffer_as_geojson_tier0(hospitals, tmp_path, registry, router):
    report = _run("buffer the hospitals by 500 m and give me the result as GeoJSON", hospitals, tmp_path, registry,
                  router)  # fmt: skip
    assert report.status == "ok" and report.tier == 0, report.error
    assert [s["tool"] for s in report.steps] == ["buffer", "save_result"]
    assert [o["path"][-8:] for o in report.outputs] == [".geojson"]
    out = gpd.read_file(report.outputs[0]["path"])
    assert len(out) == 5
    assert out.geometry.area.tolist() == pytest.approx([Point(0, 0).buffer(500).area] * 5, rel=1e-3)
    assert not list((tmp_path / "out").glob("*.gpkg"))  # the default GeoPackage was replaced


def test_filter_as_csv_tier0(hospitals, tmp_path, registry, router):
    report = _run("hospitals with beds > 100 as CSV", hospitals, tmp_path, registry, router)
    assert report.status == "ok" and report.tier == 0, report.error
    assert report.outputs[0]["kind"] == "table" and report.outputs[0]["path"].endswith(".csv")
    table = pd.read_csv(report.outputs[0]["path"])
    assert sorted(table["beds"]) == [120, 300]
    assert len(report.outputs) == 1


@pytest.mark.parametrize(("text", "suffix"), [("write the hospitals to KML", ".kml"),
                                              ("将医院导出为shp", ".shp")])  # fmt: skip
def test_save_in_named_format(hospitals, tmp_path, registry, router, text, suffix):
    report = _run(text, hospitals, tmp_path, registry, router)
    assert report.status == "ok", report.error
    path = report.outputs[-1]["path"]
    assert path.endswith(suffix)
    out = gpd.read_file(path)
    assert len(out) == 5


def test_area_in_square_feet_as_shapefile(tmp_path, registry, router):
    from shapely.geometry import box

    path = tmp_path / "parcels.gpkg"
    gpd.GeoDataFrame({"pid": [1]}, geometry=[box(985000, 200000, 985100, 201200)], crs="EPSG:2263").to_file(path)
    report = _run("area of each parcel in square feet as a shapefile", str(path), tmp_path, registry, router)
    assert report.status == "ok" and report.tier == 0, report.error
    assert report.outputs[-1]["path"].endswith(".shp")
    assert gpd.read_file(report.outputs[-1]["path"])["area_ft2"].iloc[0] == pytest.approx(120000, rel=1e-4)


def test_tier1_result_written_in_asked_format(server, tmp_path):
    layers = agent_toolkit.make_layers(tmp_path / "data")
    server.add(
        {"tool_calls": [{"name": "buffer", "arguments": {"layer": "schools", "distance": 100}}]},
        {"content": "Buffered the schools by 100 m."},
    )
    report = run_request(
        "buffer the schools by 100 m as GeoJSON",
        [layers["schools"], layers["districts"]],
        tmp_path / "out",
        config_for(server),
        registry=tiny_registry(),
        router=TinyRouter(),
    )
    assert report.status == "ok" and report.tier == 1, report.error
    assert [o["path"].rsplit(".", 1)[1] for o in report.outputs] == ["geojson"]
    out = gpd.read_file(report.outputs[0]["path"])
    assert len(out) == 5 and out.geometry.area.sum() == pytest.approx(5 * Point(0, 0).buffer(100).area, rel=1e-3)


def test_tier1_unwritable_format_is_an_error(server, tmp_path):
    layers = agent_toolkit.make_layers(tmp_path / "data")
    server.add(
        {"tool_calls": [{"name": "buffer", "arguments": {"layer": "schools", "distance": 100}}]},
        {"content": "Buffered the schools by 100 m."},
    )
    report = run_request(
        "buffer the schools by 100 m and export it to Excel",
        [layers["schools"]],
        tmp_path / "out",
        config_for(server),
        registry=tiny_registry(),
        router=TinyRouter(),
    )
    assert report.status == "error"
    assert "cannot write XLSX" in report.error


def test_processing_buffer_as_geojson(hospitals, tmp_path, router):
    from geoclerk.geoclerk_plugin.qgis_env import ensure_qgis

    status = ensure_qgis()
    if not status:
        pytest.skip(status.reason)
    from geoclerk.geoclerk_plugin.processing_tools import bind

    registry = load_registry()
    bind(registry)
    report = run_request("buffer the hospitals by 200 m as GeoJSON", [hospitals], tmp_path / "out",
                         AgentConfig(offline=True), registry=registry, router=router)  # fmt: skip
    assert report.status == "ok" and report.tier == 0, report.error
    assert report.outputs[-1]["path"].endswith(".geojson") and len(report.outputs) == 1
    out = gpd.read_file(report.outputs[-1]["path"])
    assert len(out) == 5
    assert out.to_crs(32633).geometry.area.sum() == pytest.approx(5 * 3.14159 * 200**2, rel=2e-2)


@pytest.mark.parametrize(
    "text",
    ["dissolve the hospitals and save the result as GeoJSON", "将医院缓冲500米，导出为GeoJSON",
     "Puffere die hospitals um 500 m und speichere sie als GeoJSON", "save the selected hospitals as GeoJSON"],
)  # fmt: skip
def test_save_after_an_operation_never_saves_the_input(router, hospitals, text):
    plan = router.route(text, [describe_gdf(gpd.read_file(hospitals), "hospitals", hospitals)]).plan
    assert not (plan.tool in ("save_result", "convert_format") and plan.complete), plan.to_json()


@pytest.mark.parametrize(
    ("text", "tool", "fmt"),
    [
        ("将hospitals缓冲500米并导出为GeoJSON", "buffer", "geojson"),
        ("把hospitals缓冲500米，结果保存为shp", "buffer", "shp"),
        ("Puffere die hospitals um 500 m und speichere sie als GeoJSON", "buffer", "geojson"),
        ("dissolve the hospitals and save the result as GeoJSON", "dissolve", "geojson"),
    ],
)
def test_operation_then_save_is_the_operation_in_that_format(router, hospitals, text, tool, fmt):
    plan = router.route(text, [describe_gdf(gpd.read_file(hospitals), "hospitals", hospitals)]).plan
    assert plan.tool == tool and plan.complete, plan.to_json()
    assert plan.output_format == fmt


def test_chinese_buffer_then_export_end_to_end(hospitals, tmp_path, registry, router):
    report = _run("将hospitals缓冲500米并导出为GeoJSON", hospitals, tmp_path, registry, router)
    assert report.status == "ok" and report.tier == 0, report.error
    assert [s["tool"] for s in report.steps] == ["buffer", "save_result"]
    out = gpd.read_file(report.outputs[-1]["path"])
    assert report.outputs[-1]["path"].endswith(".geojson") and len(out) == 5
    assert out.geometry.area.sum() == pytest.approx(5 * Point(0, 0).buffer(500).area, rel=1e-3)


def test_plain_save_stays_tier0(router, hospitals):
    plan = router.route("save the hospitals as a shapefile", [describe_gdf(gpd.read_file(hospitals), "hospitals",
                                                                           hospitals)]).plan  # fmt: skip
    assert plan.to_json() == {"tool": "save_result", "params": {"layer": "hospitals", "format": "shp"},
                              "complete": True, "missing": []}  # fmt: skip


# -- a file named for the result is honoured by every tool, the save tools too ------------------------------------
@pytest.mark.parametrize(
    "text, name",
    [
        ("write the roads to a file called roads_out.geojson", "roads_out.geojson"),
        ("Straßen in die Datei strassen_export.geojson schreiben", "strassen_export.geojson"),
        ("把道路导出到 roads_out.geojson 文件", "roads_out.geojson"),
    ],
)
def test_a_save_request_writes_the_file_it_names(tmp_path, registry, router, text, name):
    import shutil
    from pathlib import Path

    src = tmp_path / "roads.gpkg"
    shutil.copy(Path(__file__).resolve().parents[1] / "data" / "sample" / "roads.gpkg", src)
    report = run_request(text, [str(src)], tmp_path / "out", AgentConfig(offline=True), registry, router)
    assert report.status == "ok", report.error
    assert Path(report.outputs[-1]["path"]).name == name
    assert len(gpd.read_file(report.outputs[-1]["path"])) == len(gpd.read_file(src))


@pytest.mark.parametrize(
    "text",
    [
        "save the roads as GeoJSON to out/roads.shp",
        "speichere die Straßen als GeoJSON unter out/strassen.shp",
        "把道路保存为GeoJSON，存到 out/roads.shp",
    ],
)
def test_a_format_that_clashes_with_the_named_file_is_asked_not_guessed(router, text):
    from pathlib import Path

    from geoclerk.function_lib.describe import describe_path

    roads = describe_path(str(Path(__file__).resolve().parents[1] / "data" / "sample" / "roads.gpkg"))
    plan = router.route(text, [roads]).plan
    assert not plan.complete  # geojson asked, .shp named: never one of them silently
