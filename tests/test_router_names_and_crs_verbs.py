"""Three reading rules, each in en, de and zh:
- a proper name ('Alder Run') is never read as a typo of an allowed word ('alter');
- a reprojection verb is claimed only by a tool whose output is in the CRS (add_xy's CRS is its coordinates');
- farms, catchments, sampling stations, river segments and protected areas are named as layers in each language.
"""

from __future__ import annotations

import geopandas as gpd
import pytest
from geoclerk.function_lib.describe import describe_path
from shapely.geometry import LineString, Point, box


@pytest.fixture(scope="module")
def water(tmp_path_factory):
    folder = tmp_path_factory.mktemp("water")
    crs = "EPSG:32618"
    layers = {
        "streams": gpd.GeoDataFrame({"name": ["Otter Kill", "Mill Creek"]},
                                    geometry=[LineString([(0, 0), (900, 900)]), LineString([(0, 900), (900, 0)])],
                                    crs=crs),
        "subcatchments": gpd.GeoDataFrame({"name": ["Otter Kill", "Mill Creek"]},
                                          geometry=[box(0, 0, 450, 900), box(450, 0, 900, 900)], crs=crs),
        "farms": gpd.GeoDataFrame({"farm_id": [1, 2]}, geometry=[Point(100, 100), Point(700, 700)], crs=crs),
        "sampling_stations": gpd.GeoDataFrame({"station_id": [1, 2]}, geometry=[Point(10, 10), Point(800, 80)],
                                              crs=crs),
        "protected_areas": gpd.GeoDataFrame({"pa_id": [1]}, geometry=[box(0, 0, 300, 300)], crs=crs),
    }  # fmt: skip
    out = []
    for name, gdf in layers.items():
        path = folder / f"{name}.gpkg"
        gdf.to_file(path)
        out.append(describe_path(str(path), name))
    return out


def _plan(router, text, layers):
    return router.route(text, layers).plan


@pytest.mark.parametrize(
    "text",
    ["clip the streams to the subcatchment Alder Run", "Gewässer auf das Teileinzugsgebiet Alder Run zuschneiden",
     "把河流裁剪到Alder Run子流域"],
)  # fmt: skip
def test_a_proper_name_is_not_a_typo(router, water, text):
    plan = _plan(router, text, water)
    assert not plan.complete and "alder" in " ".join(map(str, plan.missing)).lower(), plan.missing


@pytest.mark.parametrize(
    "text",
    ["reproject the sampling stations to EPSG:4326 and add X/Y fields",
     "projiziere die Messstellen nach EPSG:4326 und füge X/Y-Felder hinzu",
     "将采样站重投影到EPSG:4326并添加XY字段"],
)  # fmt: skip
def test_reprojecting_is_not_adding_coordinates_in_a_crs(router, water, text):
    plan = _plan(router, text, water)
    assert not (plan.complete and plan.tool in ("add_xy", "qgis_add_xy_fields")), (plan.tool, plan.params)


@pytest.mark.parametrize(
    "text", ["add X/Y fields in EPSG:4326 to the sampling stations", "reproject the sampling stations to EPSG:4326"]
)
def test_coordinates_in_a_crs_and_reprojection_alone_still_read(router, water, text):
    plan = _plan(router, text, water)
    assert plan.complete and plan.params.get("crs") == "EPSG:4326", plan.missing


@pytest.mark.parametrize(
    ("text", "layer"),
    [("buffer the farms by 200 m", "farms"), ("puffere die Höfe um 200 m", "farms"), ("将农场缓冲200米", "farms"),
     ("buffer the sampling stations by 50 m", "sampling_stations"),
     ("puffere die Messstellen um 50 m", "sampling_stations"),
     ("将采样站缓冲50米", "sampling_stations"), ("dissolve the catchments", "subcatchments"),
     ("löse die Teileinzugsgebiete auf", "subcatchments"), ("融合子流域", "subcatchments"),
     ("buffer the protected areas by 100 m", "protected_areas"),
     ("puffere die Schutzgebiete um 100 m", "protected_areas"),
     ("将保护区缓冲100米", "protected_areas")],
)  # fmt: skip
def test_common_layer_kinds_are_named_in_each_language(router, water, text, layer):
    plan = _plan(router, text, water)
    assert plan.params.get("layer") == layer, (plan.tool, plan.params, plan.missing)


@pytest.mark.parametrize("text", ["Bufer the farms by 200 m", "Pufer Höfe 200m", "Pufer die Höfe um 200 m"])
def test_a_typo_opening_the_request_is_still_read(router, water, text):
    # a sentence's first word is capitalised anyway, and German capitalises every noun: no name there
    plan = _plan(router, text, water)
    assert plan.complete and plan.tool == "buffer" and plan.params.get("layer") == "farms", plan.missing
