"""Two layers named alike (image_2024 and image_2025, both 'the image'): tier 0 takes the one the request's own number
picks, asks when nothing picks one, and never reads a whole number as another close to it (2025 is not the 2024 of
'image_2024'). English, German and Chinese."""

from __future__ import annotations

from pathlib import Path

import pytest
from geoclerk.function_lib.describe import describe_path

SAMPLE = Path(__file__).resolve().parent.parent / "data" / "sample"


@pytest.fixture(scope="module")
def images():
    return [describe_path(str(SAMPLE / f"image_{year}.tif")) for year in (2024, 2025)]


def _plan(router, layers, text):
    return router.route(text, layers).plan


@pytest.mark.parametrize(
    "text", ["NDVI from the 2025 image", "NDVI für das Bild von 2025", "计算2025影像的NDVI"]
)  # fmt: skip
def test_the_year_said_picks_the_layer_named_with_it(router, images, text):
    plan = _plan(router, images, text)
    assert plan.params.get("raster") == "image_2025", plan


@pytest.mark.parametrize("text", ["NDVI from the 2026 image", "NDVI für das Bild von 2026", "计算2026影像的NDVI"])
def test_a_year_no_layer_carries_is_not_read_as_a_close_one(router, images, text):
    plan = _plan(router, images, text)
    assert not plan.complete and "2026" in " ".join(map(str, plan.missing)), plan


@pytest.mark.parametrize("text", ["NDVI of the image", "NDVI des Bildes berechnen", "计算影像的NDVI"])
def test_layers_named_alike_are_a_question_not_the_first_loaded(router, images, text):
    plan = _plan(router, images, text)
    assert not plan.complete and "raster" not in plan.params, plan


@pytest.mark.parametrize(
    "text", ["detect changes between the two images", "Veränderungen zwischen den beiden Bildern erkennen"]
)  # fmt: skip
def test_a_tool_that_takes_both_takes_both(router, images, text):
    plan = _plan(router, images, text)
    assert plan.complete and {plan.params["before"], plan.params["after"]} == {"image_2024", "image_2025"}, plan


@pytest.mark.parametrize(
    "text",
    ["Classify the 2025 image into 4 classes", "das Bild von 2025 in 4 Klassen klassifizieren", "把2025影像分成4类"],
)
def test_a_count_word_takes_its_own_number_not_the_year_before_it(router, images, text):
    """'the 2025 image into 4 classes': the year names the layer; 4 is the count (it read 2025 classes)."""
    plan = _plan(router, images, text)
    assert plan.complete and plan.params.get("classes") == 4 and plan.params.get("raster") == "image_2025", plan
