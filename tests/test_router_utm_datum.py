"""'UTM 32N' said without a datum: for data in Europe, WGS 84's (EPSG:32632) and ETRS89's (EPSG:25832) zone are both
usual (blind10's author expected 25832 for a German layer, blind9's 32632 for a Swiss one), so tier 0 asks, unless
the layer is already in one of the two; elsewhere, or with the datum said, no question. English, German, Chinese."""

from __future__ import annotations

import geopandas as gpd
import pytest
from geoclerk.agent.pipeline import AgentConfig, run_request
from geoclerk.reading.crs import etrs_twin, utm_datum
from shapely.geometry import LineString


def _paths(tmp_path, crs, origin):
    x, y = origin
    lines = [LineString([(x, y), (x + 0.01, y)]), LineString([(x, y), (x, y + 0.01)])]
    gdf = gpd.GeoDataFrame({"path_id": [1, 2]}, crs=4326, geometry=lines)
    path = tmp_path / "cycle_paths.gpkg"
    gdf.to_crs(crs).to_file(path)
    return str(path)


GERMANY, TEXAS = (7.05, 49.9), (-97.7, 30.3)
REQUESTS = ["reproject the cycle paths to UTM 32N", "Radwege nach UTM 32N umprojizieren", "把cycle paths投影到UTM 32N"]


def _crs_of(report) -> str:
    return gpd.read_file(report.outputs[-1]["path"]).crs.to_string()


@pytest.mark.parametrize("text", REQUESTS)
def test_a_bare_utm_zone_over_european_data_asks_the_datum(tmp_path, text):
    report = run_request(text, [_paths(tmp_path, 31466, GERMANY)], tmp_path / "out", AgentConfig(offline=True))
    assert report.status == "needs_llm" and not report.outputs, (report.status, report.answer)
    assert "WGS 84 (EPSG:32632) or ETRS89 (EPSG:25832)" in report.error


@pytest.mark.parametrize("text", REQUESTS)
def test_a_bare_utm_zone_elsewhere_is_wgs84s(tmp_path, text):
    texas = _paths(tmp_path, 4326, TEXAS)
    report = run_request(text.replace("32N", "14N"), [texas], tmp_path / "out", AgentConfig(offline=True))
    assert report.status == "ok" and _crs_of(report) == "EPSG:32614", (report.status, report.error)


@pytest.mark.parametrize(
    "text, code",
    [
        ("reproject the cycle paths to WGS 84 / UTM 32N", "EPSG:32632"),
        ("Radwege nach EPSG:32632 umprojizieren", "EPSG:32632"),
        ("把cycle paths投影到ETRS89 / UTM 32N", "EPSG:25832"),
    ],
)
def test_a_datum_said_is_kept(tmp_path, text, code):
    report = run_request(text, [_paths(tmp_path, 31466, GERMANY)], tmp_path / "out", AgentConfig(offline=True))
    assert report.status == "ok" and _crs_of(report) == code, (report.status, report.error)


def test_a_layer_in_the_zone_keeps_its_own_datum():
    class Layer:
        crs, bounds = "EPSG:32632", [360000.0, 5530000.0, 361000.0, 5531000.0]

    assert utm_datum("EPSG:32632", "to utm 32n", Layer()) == ("EPSG:32632", None)
    Layer.crs = "EPSG:25832"
    assert utm_datum("EPSG:32632", "to utm 32n", Layer()) == ("EPSG:25832", None)
    assert etrs_twin("EPSG:32632", "EPSG:25832") and not etrs_twin("EPSG:32632", "EPSG:25833")
