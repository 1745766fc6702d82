"""A layer's word in the German genitive ('des Bildes', 'jedes Bezirkes') names the layer as 'Bild', 'Bezirk' do:
'NDVI des Bildes von 2025' declined ('raster, number: 2025 could not be read') where 'NDVI of the 2025 image' and
'2025影像的NDVI' ran, and 'Zähle die Häuser jedes Bezirkes' counted all houses' words as not understood."""

from __future__ import annotations

from pathlib import Path

import pytest
from geoclerk.function_lib.describe import describe_path

SAMPLE = Path(__file__).resolve().parent.parent / "data" / "sample"


def _layers(*names):
    return [describe_path(str(SAMPLE / (f"{n}.tif" if n.startswith("image") else f"{n}.gpkg")), n) for n in names]


@pytest.mark.parametrize(
    ("text", "tool", "params"),
    [
        ("NDVI des Bildes von 2025", "normalized_difference", {"raster": "image_2025"}),
        ("Berechne den NDVI des Bildes von 2025", "normalized_difference", {"raster": "image_2025"}),
        ("NDVI of the 2025 image", "normalized_difference", {"raster": "image_2025"}),
        ("计算2025影像的NDVI", "normalized_difference", {"raster": "image_2025"}),
    ],
)
def test_the_image_named_in_the_genitive_is_the_image(router, text, tool, params):
    plan = router.route(text, _layers("image_2024", "image_2025")).plan
    assert plan.complete and plan.tool == tool, (plan.tool, plan.missing)
    assert {k: plan.params.get(k) for k in params} == params


COUNT = {"polygons": "districts", "points": "houses"}


@pytest.mark.parametrize(
    ("text", "tool", "params"),
    [
        ("Berechne die Fläche jedes Bezirkes", "geometry_area", {"layer": "districts"}),
        ("Zähle die Häuser jedes Bezirkes", "count_points_in_polygons", COUNT),
        ("count the houses of each district", "count_points_in_polygons", COUNT),
        ("统计每个区的房屋数量", "count_points_in_polygons", COUNT),
    ],
)
def test_each_district_in_the_genitive_is_the_districts(router, text, tool, params):
    plan = router.route(text, _layers("districts", "houses")).plan
    assert plan.complete and plan.tool == tool, (plan.tool, plan.missing)
    assert {k: plan.params.get(k) for k in params} == params
