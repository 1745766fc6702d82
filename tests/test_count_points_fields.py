"""count_points_in_polygons and its Processing twin: a user's field is never overwritten, the max is numeric."""

from __future__ import annotations

import geopandas as gpd
import pytest
from geoclerk.errors import ValidationError
from geoclerk.function_lib.io import read_vector
from geoclerk.tests.geo_helpers import make_ctx
from geoclerk.tests.geo_helpers import run_result as run_geo
from shapely.geometry import Point, box

# Twelve points in one polygon and nine in another: a text max would say '9'.
POLYS = gpd.GeoDataFrame(
    {"name": ["Altstadt", "Nordend"]}, geometry=[box(0, 0, 100, 100), box(200, 0, 300, 100)], crs="EPSG:32633"
)
PTS = gpd.GeoDataFrame(
    {"v": range(21)},
    geometry=[Point(5 + i * 7, 50) for i in range(12)] + [Point(205 + i * 9, 50) for i in range(9)],
    crs="EPSG:32633",
)


def test_geojson_count_keeps_the_users_field(tmp_path):
    ctx = make_ctx(tmp_path, polys=POLYS, pts=PTS)
    res = run_geo(ctx, "count_points_in_polygons", polygons="polys", points="pts", field_name="name")
    out = read_vector(res.outputs[0].path)
    assert out["name"].tolist() == ["Altstadt", "Nordend"] and out["name_1"].tolist() == [12, 9]
    assert "new field 'name_1'" in res.summary + " ".join(ctx.notes)


def test_processing_count_keeps_the_field_and_gives_a_numeric_max(reg, tmp_path):
    pytest.importorskip("qgis.core")
    from geoclerk.tests.processing_helpers import run

    args = {"polygons": "polys", "points": "pts", "field_name": "name"}
    res, out = run(reg, tmp_path, "qgis_count_points_in_polygon", args, pts=PTS, polys=POLYS)
    assert out["name"].tolist() == ["Altstadt", "Nordend"] and out["name_1"].tolist() == [12, 9]
    assert res.answer == "21 points in 2 polygons (at most 12 in one)."
    with pytest.raises(ValidationError, match="polygons must be a polygon layer; 'pts' has Point geometry"):
        run(reg, tmp_path, "qgis_count_points_in_polygon", {"polygons": "pts", "points": "pts"}, pts=PTS)
    with pytest.raises(ValidationError, match="points must be a point layer; 'polys' has Polygon"):
        run(reg, tmp_path, "qgis_count_points_in_polygon", {"polygons": "polys", "points": "polys"}, polys=POLYS)
