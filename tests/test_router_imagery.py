"""Imagery requests (en/de/zh) reach the imagery tools, complete only when every word is understood; never an
unrelated tool ('classify the image' is no reclassification by table, 'changes between two images' no closest pair)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from geoclerk.function_lib.describe import describe_path
from geoclerk.planning.roles import layer_date

SAMPLE = Path(__file__).resolve().parent.parent / "data" / "sample"


def _layers(*names):
    return [describe_path(SAMPLE / n) for n in names]


IMAGE = ("image_2024.tif", "parcels.gpkg")
BOTH = ("image_2025.tif", "image_2024.tif")

COMPLETE = [
    ("calculate NDVI from the satellite image", IMAGE, "normalized_difference", {"index": "ndvi"}),
    ("NDVI berechnen", IMAGE, "normalized_difference", {"index": "ndvi"}),
    ("计算NDVI", IMAGE, "normalized_difference", {"index": "ndvi"}),
    ("compute the NDWI of the image", IMAGE, "normalized_difference", {"index": "ndwi"}),
    ("Wasserindex NDWI aus dem Satellitenbild berechnen", IMAGE, "normalized_difference", {"index": "ndwi"}),
    ("计算影像的归一化植被指数", IMAGE, "normalized_difference", {"index": "ndvi"}),
    ("classify the image into 5 classes", IMAGE, "classify_image", {"classes": 5}),
    ("Bild klassifizieren", IMAGE, "classify_image", {}),
    ("Satellitenbild in 6 Klassen klassifizieren", IMAGE, "classify_image", {"classes": 6}),
    ("将卫星影像分成4类", IMAGE, "classify_image", {"classes": 4}),
    ("unsupervised classification of the image with k-means", IMAGE, "classify_image", {}),
    ("detect changes between the two images", BOTH, "raster_change", {"before": "image_2024", "after": "image_2025"}),
    ("Veränderungen zwischen den beiden Bildern erkennen", BOTH, "raster_change",
     {"before": "image_2024", "after": "image_2025"}),
    ("检测两期影像之间的变化", BOTH, "raster_change", {"before": "image_2024", "after": "image_2025"}),
]  # fmt: skip


@pytest.mark.parametrize(("text", "files", "tool", "params"), COMPLETE, ids=[c[0] for c in COMPLETE])
def test_imagery_requests_get_a_complete_plan_of_their_tool(router, text, files, tool, params):
    result = router.route(text, _layers(*files))
    assert result.route == "function" and result.plan.tool == tool
    assert result.plan.complete, result.plan.missing
    raster = {"raster": "image_2024"} if "raster" in {p.name for p in router.registry.get(tool).spec.params} else {}
    assert result.plan.params == {**raster, **params}
    assert result.confidence >= 0.7  # tier 0 would run it


INCOMPLETE = [
    ("compute NDVI and NDWI", IMAGE, "normalized_difference", "words not understood: ndwi"),
    ("NDVI und NDWI berechnen", IMAGE, "normalized_difference", "words not understood: ndwi"),
    ("计算NDVI和NDWI", IMAGE, "normalized_difference", "words not understood: ndwi"),
    ("calculate a vegetation index", IMAGE, "normalized_difference", "index"),  # which one is not said
    ("calculate the EVI of the image", IMAGE, "normalized_difference", "index"),
    ("NDVI berechnen", BOTH, "normalized_difference", "raster"),  # two images: which one?
    ("classify the image with a random forest", IMAGE, "classify_image", "words not understood: random, forest"),
]


@pytest.mark.parametrize(("text", "files", "tool", "gap"), INCOMPLETE, ids=[c[0] for c in INCOMPLETE])
def test_what_tier_0_cannot_fully_read_stays_incomplete(router, text, files, tool, gap):
    result = router.route(text, _layers(*files))
    assert result.plan.tool == tool and not result.plan.complete
    assert gap in [str(m) for m in result.plan.missing]


@pytest.mark.parametrize(
    "text",
    ["classify the satellite image", "Bild klassifizieren", "影像分类", "detect changes between the two images",
     "Änderungsdetektion zwischen den Bildern", "两期影像变化检测"],
)  # fmt: skip
def test_imagery_never_goes_to_an_unrelated_tool(router, text):
    result = router.route(text, _layers(*BOTH))
    assert result.plan.tool in ("classify_image", "raster_change")
    names = [t["name"] for t in result.to_json()["tools"][:2]]
    assert not {"qgis_reclassify_by_table", "connect_closest_pair"} & set(names)


def test_open_imagery_work_goes_to_code(router):
    for text in ("supervised classification of the image with training polygons from parcels",
                 "NDVI-Zeitreihe und Trend je Pixel über fünf Jahre", "用随机森林对影像分类"):  # fmt: skip
        result = router.route(text, _layers(*IMAGE))
        assert result.route == "codegen" or not result.plan.complete, text


def test_the_order_of_two_dates_comes_from_names_or_words_never_from_loading(router, tmp_path):
    for name in ("scene_a.tif", "scene_b.tif"):
        shutil.copy(SAMPLE / "image_2024.tif", tmp_path / name)
    undated = [describe_path(tmp_path / "scene_b.tif"), describe_path(tmp_path / "scene_a.tif")]
    plan = router.route("detect changes between the two images", undated).plan
    assert plan.tool == "raster_change" and not plan.complete
    assert "which of 'scene_b' and 'scene_a' is the earlier is not said" in str(plan.missing)
    for text in ("what changed from scene_a to scene_b?", "Veränderungen zwischen scene_a und scene_b erkennen",
                 "检测scene_a和scene_b之间的变化"):  # fmt: skip
        plan = router.route(text, undated).plan
        assert plan.complete and plan.params == {"before": "scene_a", "after": "scene_b"}, text
    plan = router.route("detect changes between image_2025 and image_2024", _layers(*BOTH)).plan
    assert plan.params == {"before": "image_2024", "after": "image_2025"}  # the years decide
    assert "'image_2024' read as the earlier" in plan.notes[0]


@pytest.mark.parametrize(
    ("name", "date"),
    [("s2_20240615", (2024, 6, 15)), ("image_2019", (2019,)), ("ortho-2021-06", (2021, 6)), ("dem", None),
     ("from_2019_to_2024", None), ("zone_12345", None)],
)  # fmt: skip
def test_layer_dates(name, date):
    assert layer_date(name) == date
