"""Layers in a projected feet CRS are measured in their own projection (feet converted exactly), by value."""

from __future__ import annotations

import geopandas as gpd
import numpy as np
import pytest
import shapely
from geoclerk.function_lib.io import read_vector
from geoclerk.function_lib.metric import foot_in_metres, in_metres, measures_honestly, metric_crs, to_metric
from geoclerk.tests.geo_helpers import make_ctx
from geoclerk.tests.geo_helpers import run_result as run
from pyproj import CRS
from shapely.geometry import LineString, Point, box

US_FT = 1200 / 3937  # metres in one US survey foot
FT = 0.3048  # metres in one international foot
X0, Y0 = 990_000.0, 200_000.0  # midtown Manhattan in EPSG:2263 (NAD83 / New York Long Island, US feet)


def _streets():
    lines = [LineString([(X0, Y0), (X0 + 2700, Y0)]), LineString([(X0, Y0), (X0, Y0 + 300), (X0 + 400, Y0 + 300)])]
    return gpd.GeoDataFrame({"name": ["long", "bent"]}, geometry=lines, crs="EPSG:2263")


def test_a_2700_ft_street_measures_2700_us_feet_in_its_own_projection(tmp_path):
    ctx = make_ctx(tmp_path, streets=_streets())
    res = run(ctx, "geometry_length", layer="streets")
    out = read_vector(res.outputs[0].path)
    metres = out["length_m"].to_numpy()
    assert metres == pytest.approx([2700 * US_FT, 700 * US_FT], rel=1e-12)  # 822.9616 m, not UTM's 822.71 m
    assert (metres / foot_in_metres(out.crs)).tolist() == pytest.approx([2700.0, 700.0], abs=1e-6)
    assert out.crs.to_epsg() == 2263 and out.geometry.iloc[0].equals(_streets().geometry.iloc[0])
    assert any("own projection" in note and "its US survey feet were converted" in note for note in ctx.notes)
    assert "UTM" not in res.summary


def test_area_of_a_100_by_1200_ft_parcel(tmp_path):
    parcel = gpd.GeoDataFrame({"id": [7]}, geometry=[box(X0, Y0, X0 + 100, Y0 + 1200)], crs="EPSG:2263")
    ctx = make_ctx(tmp_path, parcels=parcel)
    res = run(ctx, "geometry_area", layer="parcels")
    square_metres = read_vector(res.outputs[0].path)["area_m2"].iloc[0]
    assert square_metres == pytest.approx(120_000 * US_FT**2, rel=1e-12)
    assert square_metres / foot_in_metres("EPSG:2263") ** 2 == pytest.approx(120_000.0, abs=1e-6)


def test_buffer_of_100_m_is_328_us_feet_in_the_layers_crs(tmp_path):
    hydrant = gpd.GeoDataFrame({"id": [1]}, geometry=[Point(X0, Y0)], crs="EPSG:2263")
    ctx = make_ctx(tmp_path, hydrants=hydrant)
    res = run(ctx, "buffer", layer="hydrants", distance=100)
    disc = read_vector(res.outputs[0].path)
    assert disc.crs.to_epsg() == 2263
    ring = shapely.get_coordinates(disc.geometry.iloc[0].exterior)
    radii = np.hypot(ring[:, 0] - X0, ring[:, 1] - Y0)
    assert radii == pytest.approx(np.full(len(radii), 100 / US_FT), rel=1e-9)  # 328.0833 ftUS, every vertex


def test_within_distance_counts_by_feet_converted_exactly(tmp_path):
    # Houses 820, 822, 823 and 825 US feet east of a school. 250.5 m = 821.85 ftUS; UTM measured the 822 ft house
    # at 250.47 m (its scale error) and so took it in; 250.6 m = 822.18 ftUS.
    houses = gpd.GeoDataFrame({"d": [820, 822, 823, 825]},
                              geometry=[Point(X0 + d, Y0) for d in (820, 822, 823, 825)], crs="EPSG:2263")  # fmt: skip
    school = gpd.GeoDataFrame({"id": [1]}, geometry=[Point(X0, Y0)], crs="EPSG:2263")
    ctx = make_ctx(tmp_path, houses=houses, schools=school)
    res = run(ctx, "within_distance", layer="houses", reference="schools", distance=250.5)
    assert read_vector(res.outputs[0].path)["d"].tolist() == [820]
    res = run(ctx, "within_distance", layer="houses", reference="schools", distance=250.6)
    assert read_vector(res.outputs[0].path)["d"].tolist() == [820, 822]


def test_international_feet_layer_converts_with_0_3048(tmp_path):
    crs = CRS.from_epsg(2222)  # NAD83 / Arizona East (ft): international feet
    assert crs.axis_info[0].unit_name == "foot"
    line = gpd.GeoDataFrame({"n": [1]}, geometry=[LineString([(700_000, 1_000_000), (701_000, 1_000_000)])], crs=crs)
    metric, source = to_metric(line)
    assert metric.geometry.iloc[0].length == pytest.approx(1000 * FT, rel=1e-12)
    assert source == crs and foot_in_metres(crs) == FT


def test_the_metre_version_is_the_same_projection():
    nyc = in_metres("EPSG:2263")
    assert [a.unit_name for a in nyc.axis_info] == ["metre", "metre"]
    assert nyc.coordinate_operation.method_name == "Lambert Conic Conformal (2SP)"
    assert nyc.to_epsg() == 32118  # NAD83 / New York Long Island in metres: the same zone
    assert in_metres("EPSG:32633") == CRS.from_epsg(32633)


@pytest.mark.parametrize(
    ("crs", "distance", "area"),
    [
        ("EPSG:32633", True, True),  # UTM
        ("EPSG:2263", True, True),  # State Plane, US feet
        ("EPSG:27700", True, True),  # British National Grid
        ("EPSG:5070", True, True),  # Albers equal area (CONUS)
        ("EPSG:3857", False, False),  # Web Mercator
        ("EPSG:3395", False, False),  # World Mercator
        ("EPSG:4087", False, False),  # Plate Carrée in metres
        ("ESRI:54030", False, False),  # Robinson
        ("ESRI:54009", False, True),  # Mollweide: equal-area, not equidistant
        ("EPSG:6933", False, True),  # EASE-Grid 2.0 cylindrical equal area
        ("EPSG:4326", False, False),  # degrees
    ],
)
def test_which_crs_measures_honestly(crs, distance, area):
    assert measures_honestly(crs, "distance") is distance
    assert measures_honestly(crs, "area") is area


def test_web_mercator_and_mollweide_distances_are_still_reprojected():
    lines = gpd.GeoDataFrame(geometry=[LineString([(1_113_195, 6_800_125), (1_114_195, 6_800_125)])], crs=3857)
    target = metric_crs(lines)
    assert target.to_epsg() == 32632  # about 10° E, 52° N
    assert lines.to_crs(target).length.iloc[0] == pytest.approx(1000 * np.cos(np.radians(52.0)), rel=0.01)
    world = gpd.GeoDataFrame(geometry=[box(0, 0, 1000, 1000)], crs="ESRI:54009")
    assert metric_crs(world, purpose="area").equals(CRS.from_user_input("ESRI:54009"))
    assert not metric_crs(world, purpose="distance").equals(CRS.from_user_input("ESRI:54009"))


def test_compound_feet_crs_is_measured_in_its_horizontal_projection():
    crs = CRS.from_user_input("EPSG:2263+6360")  # State Plane US feet + NAVD88 height in US feet
    line = gpd.GeoDataFrame(geometry=[LineString([(X0, Y0, 5.0), (X0 + 2700, Y0, 5.0)])], crs=crs)
    metric, _ = to_metric(line)
    assert [a.unit_name for a in metric.crs.axis_info] == ["metre", "metre"]
    assert metric.geometry.iloc[0].length / foot_in_metres(crs) == pytest.approx(2700.0, abs=1e-6)
    assert measures_honestly(CRS.from_user_input("EPSG:32633+5703"), "area")
