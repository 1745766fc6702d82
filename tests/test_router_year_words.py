"""The word of a calendar year said with its number is claimed with it, in every language: '2025年影像' declined on
'年' (words not understood) where '2025影像' and 'the 2025 image' ran; 'the year 2025' and 'im Jahr 2025' likewise."""

from __future__ import annotations

from pathlib import Path

import pytest
from geoclerk.function_lib.describe import describe_path
from geoclerk.planning.explain import _year_word
from geoclerk.reading.text import find_numbers, fold

SAMPLE = Path(__file__).resolve().parent.parent / "data" / "sample"


@pytest.fixture(scope="module")
def images():
    return [describe_path(str(SAMPLE / f"{n}.tif"), n) for n in ("image_2024", "image_2025")]


@pytest.mark.parametrize(
    "text",
    ["NDVI of the image from the year 2025", "NDVI des Bildes aus dem Jahr 2025", "计算2025年影像的NDVI",
     "计算2025年的影像的NDVI", "计算2025年度影像的NDVI"],
)  # fmt: skip
def test_the_image_of_a_year_said_with_its_word(router, images, text):
    plan = router.route(text, images).plan
    assert plan.complete and plan.tool == "normalized_difference", plan.missing
    assert plan.params["raster"] == "image_2025"


@pytest.mark.parametrize(
    ("text", "lang", "word"),
    [("the year 2025", "en", "year"), ("im jahr 2025", "de", "jahr"), ("2025年影像", "zh", "年"),
     ("5年内", "zh", ""), ("the years 5", "en", ""), ("5 year", "en", ""), ("jahr 12345", "de", "")],
)  # fmt: skip
def test_only_a_calendar_years_own_word_is_claimed(text, lang, word):
    folded = fold(text)
    [n] = find_numbers(folded, lang)[:1]
    start, end = _year_word(folded, n, lang)
    assert folded[start:end] == word
