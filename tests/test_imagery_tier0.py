"""Imagery at tier 0 on the two-date sample image: a request in, a raster, a table or an answer out, checked against
NumPy on the same files (en, de, zh). The sample's design (data/sample/README.md) is the ground truth."""

from __future__ import annotations

import importlib.util
import re
import shutil
from pathlib import Path

import geopandas as gpd
import numpy as np
import pandas as pd
import pytest
import rasterio  # pinned in requirements.txt: a missing rasterio fails these tests, never skips them
from geoclerk.agent.pipeline import AgentConfig, run_request
from geoclerk.errors import ValidationError
from geoclerk.function_lib.context import RunContext
from geoclerk.function_lib.geojson.imagery import band_index, otsu_threshold
from geoclerk.function_lib.registry import run_tool

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "data" / "sample"
OFFLINE = AgentConfig(offline=True)


def _generator():
    spec = importlib.util.spec_from_file_location("make_sample_data", ROOT / "scripts" / "make_sample_data.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _copy(tmp_path, *names) -> list[str]:
    (tmp_path / "in").mkdir(exist_ok=True)
    return [str(shutil.copy(SAMPLE / n, tmp_path / "in" / n)) for n in names]


def _bands(path) -> np.ma.MaskedArray:
    with rasterio.open(path) as src:
        return src.read(masked=True).astype("float64")


def _raster(path):
    with rasterio.open(path) as src:
        return src.read(1, masked=True), src.nodata, src.transform


def _run(request, tmp_path, *names, **kw):
    return run_request(request, _copy(tmp_path, *names), tmp_path / "out", OFFLINE, **kw)


def test_the_sample_image_is_two_dates_on_one_grid_with_named_bands():
    with rasterio.open(SAMPLE / "image_2024.tif") as a, rasterio.open(SAMPLE / "image_2025.tif") as b:
        assert a.descriptions == b.descriptions == ("blue", "green", "red", "nir")
        assert (a.crs.to_epsg(), a.res, a.shape) == (32633, (10.0, 10.0), (160, 200))
        assert a.transform == b.transform and a.nodata == b.nodata == 0
        assert a.tags()["TIFFTAG_DATETIME"].startswith("2024") and b.tags()["TIFFTAG_DATETIME"].startswith("2025")
    parcels = gpd.read_file(SAMPLE / "parcels.gpkg")
    assert len(parcels) == 20 and parcels.crs.to_epsg() == 32633
    assert parcels["landcover"].value_counts().to_dict() == {"crop": 9, "forest": 5, "built-up": 4, "water": 2}


@pytest.mark.parametrize("request_text", ["calculate NDVI from the satellite image", "NDVI berechnen", "计算NDVI"])
def test_ndvi_at_tier_0_equals_numpy(request_text, tmp_path, registry, router):
    report = _run(request_text, tmp_path, "image_2024.tif", registry=registry, router=router)
    assert report.status == "ok" and report.tier == 0, report.error
    assert report.steps == [{"tool": "normalized_difference", "params": {"raster": "image_2024", "index": "ndvi"}}]
    (out,) = report.outputs
    assert out["kind"] == "raster"
    ndvi, nodata, _ = _raster(out["path"])
    b = _bands(SAMPLE / "image_2024.tif")
    want = (b[3] - b[2]) / (b[3] + b[2])
    assert np.array_equal(ndvi.mask, np.ma.getmaskarray(want))  # the no-data corner stays no data
    assert np.allclose(ndvi.compressed(), want.compressed(), atol=1e-6)
    assert nodata == -9999.0
    assert want[5, 5] > 0.75 and want[70, 90] < -0.3  # forest parcel 1, water parcel 8: the bands were found by name


def test_an_index_of_bands_that_sum_to_zero_is_no_data(tmp_path, registry):
    path = tmp_path / "two.tif"
    profile = {"driver": "GTiff", "width": 3, "height": 1, "count": 2, "dtype": "float32", "crs": "EPSG:32633",
               "transform": rasterio.transform.from_origin(0, 10, 10, 10)}  # fmt: skip
    with rasterio.open(path, "w", **profile) as dst:
        dst.write(np.array([[[0.5, 0.0, 0.2]], [[0.1, 0.0, -0.2]]], dtype="float32"))
    ctx = RunContext(tmp_path / "out")
    ctx.layers.add_path(path)
    res = run_tool(registry, "normalized_difference", {"raster": "two", "band_a": "1", "band_b": "2"}, ctx)
    out, nodata, _ = _raster(res.outputs[0].path)
    assert out.mask.tolist() == [[False, True, True]]  # 0 + 0 and 0.2 + -0.2: the denominator is 0
    assert out[0, 0] == pytest.approx(0.4 / 0.6)


def test_bands_are_found_by_number_description_and_colour_in_three_languages():
    with rasterio.open(SAMPLE / "image_2024.tif") as src:
        assert [band_index(src, b, "img") for b in ("4", "NIR", "Nahinfrarot", "近红外", "rot", "红", "blue")] == [
            4, 4, 4, 4, 3, 3, 1,
        ]  # fmt: skip
        with pytest.raises(ValidationError, match="no single band 'swir'"):
            band_index(src, "swir", "img")


def _truth(year: int):
    """The land cover of every pixel as the generator made it, and the pixels outside the scene."""
    gen = _generator()
    cover = gen.parcel_cover(year)
    return cover, gen.image_nodata_mask(cover.shape)


@pytest.mark.parametrize(
    "request_text", ["classify the image into 4 classes", "Bild in 4 Klassen klassifizieren", "将影像分成4类"]
)
def test_kmeans_classes_are_the_land_covers(request_text, tmp_path, registry, router):
    report = _run(request_text, tmp_path, "image_2024.tif", registry=registry, router=router)
    assert report.status == "ok" and report.tier == 0, report.error
    assert report.steps == [{"tool": "classify_image", "params": {"raster": "image_2024", "classes": 4}}]
    raster, table = report.outputs
    classes, nodata, _ = _raster(raster["path"])
    cover, outside = _truth(2024)
    assert np.array_equal(classes.mask, outside) and nodata == 0
    for name in np.unique(cover):  # every land cover is one class, and every class one land cover
        assert len(np.unique(classes[(cover == name) & ~outside])) == 1
    assert len(np.unique(classes.compressed())) == 4
    centres = pd.read_csv(table["path"])
    b = _bands(SAMPLE / "image_2024.tif")
    for row in centres.itertuples():
        inside = (classes == row._1).filled(False)
        assert row.pixels == inside.sum()
        assert row.centre_nir == pytest.approx(b[3][inside].mean(), rel=1e-6)
        assert row.area_m2 == row.pixels * 100.0
    assert list(centres["pixels"]) == sorted(centres["pixels"], key=lambda n: list(centres["pixels"]).index(n))
    brightness = centres.filter(like="centre_").sum(axis=1)
    assert brightness.is_monotonic_increasing  # classes numbered by brightness: the same numbers every run


def test_kmeans_is_deterministic(tmp_path, registry):
    ctx = RunContext(tmp_path / "out")
    ctx.layers.add_path(SAMPLE / "image_2024.tif")
    first = run_tool(registry, "classify_image", {"raster": "image_2024", "classes": 6}, ctx)
    again = run_tool(registry, "classify_image", {"raster": "image_2024", "classes": 6}, ctx)
    assert np.array_equal(_raster(first.outputs[0].path)[0], _raster(again.outputs[0].path)[0])


def _ndvi_layer(tmp_path, registry) -> str:
    ctx = RunContext(tmp_path / "ndvi")
    ctx.layers.add_path(SAMPLE / "image_2024.tif")
    return run_tool(registry, "normalized_difference", {"raster": "image_2024", "index": "ndvi"}, ctx).outputs[0].path


@pytest.mark.parametrize(
    "request_text",
    ["zonal statistics of the ndvi for the parcels", "Zonenstatistik von image_2024_ndvi für parcels",
     "统计每个地块的NDVI均值"],
)  # fmt: skip
def test_zonal_mean_of_ndvi_per_parcel(request_text, tmp_path, registry, router):
    ndvi = _ndvi_layer(tmp_path, registry)
    inputs = _copy(tmp_path, "parcels.gpkg") + [ndvi]
    report = run_request(request_text, inputs, tmp_path / "out", OFFLINE, registry, router)
    assert report.status == "ok" and report.tier == 0, report.error
    assert report.steps[0]["tool"] == "qgis_zonal_statistics"
    assert report.steps[0]["params"] == {"layer": "parcels", "raster": "image_2024_ndvi"}
    zones = gpd.read_file(report.outputs[0]["path"])
    values, _, transform = _raster(ndvi)
    for _, parcel in zones.iterrows():  # the parcels are whole 40 x 40 pixel blocks of the grid
        left, top = parcel.geometry.bounds[0], parcel.geometry.bounds[3]
        col, row = round((left - transform.c) / 10), round((transform.f - top) / 10)
        block = values[row : row + 40, col : col + 40].astype("float64")
        assert parcel["_count"] == block.count()
        assert parcel["_mean"] == pytest.approx(block.mean(), abs=1e-9)
        assert (parcel["_min"], parcel["_max"]) == pytest.approx((block.min(), block.max()))
    means = zones.groupby("landcover")["_mean"].mean()
    assert means["forest"] > means["crop"] > means["built-up"] > 0 > means["water"]


def test_processing_zonal_statistics_gives_the_same_means(tmp_path, registry, reg):
    ndvi = _ndvi_layer(tmp_path, registry)
    answers = []
    for name, tools in (("zonal_statistics", registry), ("qgis_zonal_statistics", reg)):
        ctx = RunContext(tmp_path / name)
        ctx.layers.add_path(SAMPLE / "parcels.gpkg")
        ctx.layers.add_path(ndvi)
        out = run_tool(tools, name, {"layer": "parcels", "raster": "image_2024_ndvi"}, ctx).outputs[0].path
        answers.append(gpd.read_file(out)[["_count", "_sum", "_mean", "_min", "_max"]])
    pd.testing.assert_frame_equal(answers[0], answers[1], check_dtype=False, rtol=1e-6)


@pytest.mark.parametrize(
    "request_text",
    ["detect changes between the two images", "Veränderungen zwischen den beiden Bildern erkennen",
     "检测两期影像之间的变化"],
)  # fmt: skip
def test_change_between_two_dates(request_text, tmp_path, registry, router):
    report = _run(request_text, tmp_path, "image_2025.tif", "image_2024.tif", registry=registry, router=router)
    assert report.status == "ok" and report.tier == 0, report.error
    # loaded 2025 first: the earlier image is read from the names' dates, never from the order of loading
    assert report.steps == [{"tool": "raster_change", "params": {"before": "image_2024", "after": "image_2025"}}]
    diff_out, mask_out = report.outputs
    a, b = _bands(SAMPLE / "image_2024.tif"), _bands(SAMPLE / "image_2025.tif")
    magnitude = np.sqrt(((b - a) ** 2).sum(axis=0))
    diff, _, _ = _raster(diff_out["path"])
    assert np.allclose(diff.compressed(), magnitude.compressed(), rtol=1e-6)
    threshold = float(re.search(r"changed by more than ([\d.]+)", report.answer).group(1))
    assert threshold == pytest.approx(otsu_threshold(magnitude.compressed()), rel=1e-3)
    changed, nodata, _ = _raster(mask_out["path"])
    assert np.array_equal(changed.filled(0) == 1, (magnitude > otsu_threshold(magnitude.compressed())).filled(False))
    before, outside = _truth(2024)
    after, _ = _truth(2025)
    truth = (before != after) & ~outside  # the cleared forest parcel and the new pond
    assert np.array_equal(changed.filled(0) == 1, truth)
    area = truth.sum() * 100.0
    assert area == 200_000.0 and f"{area:,.0f} m²" in report.answer


def test_change_of_one_band_above_a_given_threshold(tmp_path, registry):
    ctx = RunContext(tmp_path / "out")
    for name in ("image_2024.tif", "image_2025.tif"):
        ctx.layers.add_path(SAMPLE / name)
    args = {"before": "image_2024", "after": "image_2025", "band": "nir", "threshold": 2000}
    res = run_tool(registry, "raster_change", args, ctx)
    a, b = _bands(SAMPLE / "image_2024.tif"), _bands(SAMPLE / "image_2025.tif")
    diff = b[3] - a[3]
    assert np.allclose(_raster(res.outputs[0].path)[0].compressed(), diff.compressed())
    assert res.values["changed_pixels"] == int((np.abs(diff) > 2000).sum())  # the pond: nir 3500 -> 200
    assert res.values["changed_pixels"] == 400


def test_change_refuses_rasters_on_different_grids(tmp_path, registry):
    ctx = RunContext(tmp_path / "out")
    for name in ("image_2024.tif", "dem.tif"):
        ctx.layers.add_path(SAMPLE / name)
    with pytest.raises(ValidationError, match="not on the same grid: their sizes differ"):
        run_tool(registry, "raster_change", {"before": "dem", "after": "image_2024"}, ctx)
    assert ctx.outputs == []


def test_a_vector_layer_or_too_many_classes_are_refused_with_the_reason(tmp_path, registry):
    ctx = RunContext(tmp_path / "out")
    ctx.layers.add_path(SAMPLE / "parcels.gpkg")
    with pytest.raises(ValidationError, match=r"'parcels' is not a raster \(parcels.gpkg\)"):
        run_tool(registry, "normalized_difference", {"raster": "parcels", "index": "ndvi"}, ctx)
    path = tmp_path / "flat.tif"
    profile = {"driver": "GTiff", "width": 4, "height": 4, "count": 2, "dtype": "uint8", "crs": "EPSG:32633",
               "transform": rasterio.transform.from_origin(0, 40, 10, 10)}  # fmt: skip
    with rasterio.open(path, "w", **profile) as dst:
        dst.write(np.stack([np.tile([1, 1, 2, 2], (4, 1))] * 2).astype("uint8"))
    ctx.layers.add_path(path)
    with pytest.raises(ValidationError, match="fewer distinct pixel values than the 3 classes"):
        run_tool(registry, "classify_image", {"raster": "flat", "classes": 3}, ctx)
    assert ctx.outputs == []


@pytest.mark.parametrize(
    "tool, params, lang, said",
    [
        ("normalized_difference", {"raster": "image_2025", "index": "ndvi"}, "en",
         "Ran normalized_difference on image_2025 (index=ndvi)"),
        ("raster_change", {"before": "image_2024", "after": "image_2025"}, "de",
         "raster_change auf image_2024 ausgeführt (after=image_2025)"),
    ],
)  # fmt: skip
def test_the_plan_sentence_names_the_raster(tool, params, lang, said):
    """The plan said in plain words names a raster tool's input (it said 'Ran normalized_difference on  (...)')."""
    from types import SimpleNamespace

    from geoclerk.planning.say import say_plan

    assert say_plan(SimpleNamespace(tool=tool, params=params), lang).startswith(said)
