"""'The three biggest wineries': a size adjective ranks by an area field, or by a capacity where that is the only
size a layer records; with both, it is asked ('biggest (area_ha, or capacity?)'), not read as the area (blind10
en093 ranked by vineyard hectares where the cellar capacity fits as well). English, German, Chinese."""

from __future__ import annotations

import geopandas as gpd
import pytest
from geoclerk.function_lib.describe import describe_path
from shapely.geometry import Point


def _layer(tmp_path, columns):
    path = tmp_path / "hotels.gpkg"
    gpd.GeoDataFrame(columns, geometry=[Point(i, i) for i in range(3)], crs=3857).to_file(path)
    return [describe_path(str(path))]


NAMES = {"name": ["a", "b", "c"]}
BOTH = {**NAMES, "area_ha": [1.0, 2.0, 3.0], "capacity": [300, 100, 200]}
SIZE_WORDS = ["the three biggest hotels", "die drei größten hotels", "最大的三个hotels"]


@pytest.mark.parametrize("text", SIZE_WORDS)
def test_a_size_word_with_an_area_and_a_capacity_is_asked(router, tmp_path, text):
    plan = router.route(text, _layer(tmp_path, BOTH)).plan
    assert not plan.complete, plan


@pytest.mark.parametrize("text", SIZE_WORDS[:2])
@pytest.mark.parametrize("columns, field", [({**NAMES, "area_ha": [1.0, 2.0, 3.0]}, "area_ha"),
                                            ({**NAMES, "capacity": [300, 100, 200]}, "capacity")])  # fmt: skip
def test_a_size_word_ranks_by_the_one_size_a_layer_records(router, tmp_path, text, columns, field):
    plan = router.route(text, _layer(tmp_path, columns)).plan
    assert plan.complete and plan.params["field"] == field and plan.params["top_n"] == 3, plan


@pytest.mark.parametrize(
    "text, field",
    [("the three hotels with the largest capacity", "capacity"), ("die 3 größten hotels nach area_ha", "area_ha")],
)
def test_the_field_said_outright_decides(router, tmp_path, text, field):
    plan = router.route(text, _layer(tmp_path, BOTH)).plan
    assert plan.complete and plan.params["field"] == field, plan
