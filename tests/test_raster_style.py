"""Result rasters are styled by what they hold: an index red-to-green around 0 (at most -1..1), a signed change
diverging around no change, a change magnitude light to dark, a multiband image in natural colours from the bands
named red, green and blue; a class raster keeps its colour table."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import rasterio
from rasterio.transform import from_origin

SAMPLE = Path(__file__).resolve().parent.parent / "data" / "sample"


def _write(path: Path, data: np.ndarray, description: str, colormap: dict | None = None) -> str:
    profile = dict(driver="GTiff", width=data.shape[1], height=data.shape[0], count=1, dtype=data.dtype.name,
                   crs="EPSG:32633", transform=from_origin(500000, 5600000, 10, 10))  # fmt: skip
    with rasterio.open(path, "w", **profile) as dst:
        dst.write(data, 1)
        dst.set_band_description(1, description)
        if colormap:
            dst.write_colormap(1, colormap)
    return str(path)


def _layer(path: str, name: str):
    from qgis.core import QgsRasterLayer

    layer = QgsRasterLayer(path, name)
    assert layer.isValid()
    return layer


@pytest.fixture()
def style(qgis_app):
    from geoclerk.geoclerk_plugin.raster_style import style_raster

    return style_raster


def test_an_index_gets_a_ramp_centred_on_zero(style, tmp_path):
    ndvi = np.linspace(-0.4, 0.8, 100, dtype="float32").reshape(10, 10)
    layer = _layer(_write(tmp_path / "image_2025_ndvi.tif", ndvi, "NDVI"), "image_2025_ndvi")
    assert style(layer) == "index"
    renderer = layer.renderer()
    assert type(renderer).__name__ == "QgsSingleBandPseudoColorRenderer"
    assert (renderer.classificationMin(), renderer.classificationMax()) == pytest.approx((-0.8, 0.8))
    items = renderer.shader().rasterShaderFunction().colorRampItemList()
    low, high = items[0].color, items[-1].color
    assert low.red() > low.green() and high.green() > high.red()  # red for bare or water, green for vegetation


def test_a_signed_change_diverges_and_a_magnitude_does_not(style, tmp_path):
    diff = np.linspace(-300, 100, 100, dtype="float32").reshape(10, 10)
    signed = _layer(_write(tmp_path / "ndvi_difference.tif", diff, "NDVI difference"), "ndvi_difference")
    assert style(signed) == "change"
    assert (signed.renderer().classificationMin(), signed.renderer().classificationMax()) == pytest.approx((-300, 300))
    size = np.abs(diff)
    magnitude = _layer(_write(tmp_path / "change.tif", size, "change magnitude"), "change")
    assert style(magnitude) == "change"
    assert (magnitude.renderer().classificationMin(), magnitude.renderer().classificationMax()) == pytest.approx(
        (float(size.min()), float(size.max()))
    )


def test_a_multiband_image_shows_natural_colours_from_its_band_names(style):
    layer = _layer(str(SAMPLE / "image_2025.tif"), "image_2025")  # bands: blue, green, red, nir
    assert style(layer) == "natural colours"
    renderer = layer.renderer()
    assert (renderer.redBand(), renderer.greenBand(), renderer.blueBand()) == (3, 2, 1)


def test_classes_keep_their_colour_table_and_a_dem_its_default(style, tmp_path):
    classes = np.arange(1, 5, dtype="uint8").repeat(25).reshape(10, 10)
    table = {1: (255, 0, 0, 255), 2: (0, 255, 0, 255), 3: (0, 0, 255, 255), 4: (9, 9, 9, 255)}
    layer = _layer(_write(tmp_path / "classes.tif", classes, "class", table), "classes")
    assert style(layer) == "classes" and type(layer.renderer()).__name__ == "QgsPalettedRasterRenderer"
    assert [c.value for c in layer.renderer().classes()] == [1, 2, 3, 4]  # not the GeoTIFF's 256 palette rows
    assert layer.renderer().classes()[0].color.red() == 255
    assert style(_layer(str(SAMPLE / "dem.tif"), "dem")) == "default"
