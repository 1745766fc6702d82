"""The bundled sample data: documented fields, sizes, CRSs, and a deterministic generator."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import geopandas as gpd
import pytest

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "data" / "sample"
TOWN = ["districts", "roads", "schools", "cafes", "bus_stops", "houses", "parcels"]


def _documented_fields(stem: str) -> list[str]:
    text = (SAMPLE / "README.md").read_text(encoding="utf-8")
    row = next(line for line in text.splitlines() if line.startswith(f"| {stem}."))
    return re.findall(r"`(\w+)`", row.split("|")[4])


@pytest.mark.parametrize("stem", TOWN)
def test_town_layer_matches_its_documentation(stem):
    gdf = gpd.read_file(SAMPLE / f"{stem}.gpkg")
    assert gdf.crs.to_epsg() == 32633
    assert len(gdf) > 0 and gdf.geometry.is_valid.all()
    assert [c for c in gdf.columns if c != "geometry"] == _documented_fields(stem)


def test_countries_are_natural_earth_in_wgs84():
    gdf = gpd.read_file(SAMPLE / "countries.geojson")
    assert gdf.crs.to_epsg() == 4326
    assert len(gdf) == 177
    assert [c for c in gdf.columns if c != "geometry"] == _documented_fields("countries")
    france = gdf[gdf["name"] == "France"]
    assert len(france) == 1 and france["iso_a3"].iloc[0] == "FRA"


def test_sample_data_is_small():
    total = sum(p.stat().st_size for p in SAMPLE.iterdir())
    assert total < 5 * 1024 * 1024


def test_dem_is_a_projected_raster():
    from osgeo import gdal

    ds = gdal.Open(str(SAMPLE / "dem.tif"))
    band = ds.GetRasterBand(1).ReadAsArray()
    assert ds.GetGeoTransform()[1] == 50.0
    assert "32633" in ds.GetProjection() or "UTM zone 33N" in ds.GetProjection()
    assert 100 < band.min() < band.max() < 400


def test_generator_is_deterministic(tmp_path):
    subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "make_sample_data.py"), "--out", str(tmp_path)],
        check=True,
        capture_output=True,
        timeout=120,
    )
    for stem in TOWN:
        ours = gpd.read_file(SAMPLE / f"{stem}.gpkg")
        again = gpd.read_file(tmp_path / f"{stem}.gpkg")
        assert ours.drop(columns="geometry").equals(again.drop(columns="geometry"))
        assert ours.geometry.geom_equals_exact(again.geometry, tolerance=1e-6).all()


def test_generator_rewrites_the_same_two_date_image(tmp_path):
    import rasterio

    subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "make_sample_data.py"), "--out", str(tmp_path)],
        check=True,
        capture_output=True,
        timeout=120,
    )
    for name in ("image_2024.tif", "image_2025.tif"):
        with rasterio.open(SAMPLE / name) as ours, rasterio.open(tmp_path / name) as again:
            assert (ours.read() == again.read()).all() and ours.profile == again.profile
