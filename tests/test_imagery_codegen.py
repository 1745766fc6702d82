"""The same four imagery jobs through the code worker (scripted model, real HTTP, real sandbox), written with the
sandbox's imagery packages (rasterio, scikit-learn, rasterstats, scikit-image, libpysal/esda), checked by value."""

from __future__ import annotations

import shutil
from pathlib import Path

import geopandas as gpd
import numpy as np
import pytest
import rasterio  # pinned in requirements.txt: a missing rasterio fails these tests, never skips them
from geoclerk.agent.pipeline import AgentConfig, run_request
from geoclerk.codegen.policy import ALLOWED_IMPORTS
from geoclerk.tests import agent_toolkit
from geoclerk.tests.agent_toolkit import KEY

server = agent_toolkit.server  # fixture
SAMPLE = Path(__file__).resolve().parents[1] / "data" / "sample"
PACKAGES = ("skimage", "networkx", "xarray", "rioxarray", "rasterstats", "libpysal", "esda")


def _script(body: str) -> dict:
    return {"content": f"```python\n{body.strip()}\n```"}


def _run(server, registry, router, tmp_path, request, files, body):
    (tmp_path / "data").mkdir(exist_ok=True)
    inputs = [str(shutil.copy(SAMPLE / name, tmp_path / "data")) for name in files]
    server.add(_script(body))
    config = AgentConfig(base_url=server.url, model="scripted", api_key=KEY, route="codegen", tier0=False)
    report = run_request(request, inputs, tmp_path / "out", config, registry, router)
    assert report.status == "ok" and report.tier == 2, report.error
    return report


def _bands(name):
    with rasterio.open(SAMPLE / name) as src:
        return src.read(masked=True).astype("float64")


def _read(path):
    with rasterio.open(path) as src:
        return src.read(1, masked=True)


NDVI = """
import numpy as np
import rasterio
with rasterio.open('image_2024.tif') as src:
    names = list(src.descriptions)
    nir = src.read(names.index('nir') + 1, masked=True).astype('float64')
    red = src.read(names.index('red') + 1, masked=True).astype('float64')
    profile = src.profile
ndvi = (nir - red) / (nir + red)
profile.update(dtype='float32', count=1, nodata=-9999.0)
with rasterio.open('ndvi.tif', 'w', **profile) as dst:
    dst.write(ndvi.filled(-9999.0).astype('float32'), 1)
print(f'mean NDVI {ndvi.mean():.4f}')
"""


def test_ndvi_by_code(server, registry, router, tmp_path):
    report = _run(server, registry, router, tmp_path, "NDVI-Karte des Satellitenbilds", ["image_2024.tif"], NDVI)
    (out,) = report.outputs
    b = _bands("image_2024.tif")
    want = (b[3] - b[2]) / (b[3] + b[2])
    got = _read(out["path"])
    assert np.array_equal(got.mask, np.ma.getmaskarray(want))
    assert np.allclose(got.compressed(), want.compressed(), atol=1e-6)
    assert report.answer == f"mean NDVI {want.mean():.4f}"


KMEANS = """
import numpy as np
import pandas as pd
import rasterio
from sklearn.cluster import KMeans
with rasterio.open('image_2024.tif') as src:
    data = src.read(masked=True).astype('float64')
    profile = src.profile
valid = ~np.ma.getmaskarray(data).any(axis=0)
pixels = data.data[:, valid].T
labels = KMeans(n_clusters=4, n_init=10, random_state=0).fit_predict(pixels) + 1
classes = np.zeros(valid.shape, dtype='uint8')
classes[valid] = labels
profile.update(dtype='uint8', count=1, nodata=0)
with rasterio.open('classes.tif', 'w', **profile) as dst:
    dst.write(classes, 1)
print('pixels per class:', sorted(np.bincount(labels)[1:].tolist()))
"""


def test_kmeans_by_code(server, registry, router, tmp_path):
    report = _run(server, registry, router, tmp_path, "把卫星影像用k均值分成4类", ["image_2024.tif"], KMEANS)
    classes = _read(report.outputs[0]["path"])
    parcels = gpd.read_file(SAMPLE / "parcels.gpkg")
    outside = np.ma.getmaskarray(_bands("image_2024.tif")).any(axis=0)
    assert np.array_equal(classes.mask, outside)
    # each class is one land cover: its pixel count is that cover's parcels (16 ha, 1,600 pixels) within the scene
    per_cover = {c: 1600 * n for c, n in parcels["landcover"].value_counts().items()}
    per_cover["built-up"] -= int(outside.sum())  # the no-data corner lies in a built-up parcel
    assert sorted(np.bincount(classes.compressed())[1:].tolist()) == sorted(per_cover.values())
    assert report.answer == f"pixels per class: {sorted(per_cover.values())}"


ZONAL = """
import geopandas as gpd
from rasterstats import zonal_stats
parcels = gpd.read_file('parcels.gpkg')
stats = zonal_stats(parcels, 'image_2024.tif', band=4, stats=['mean', 'count'])
parcels['nir_mean'] = [s['mean'] for s in stats]
parcels['nir_count'] = [s['count'] for s in stats]
parcels.to_file('parcels_nir.gpkg')
print(f"highest mean NIR: parcel {int(parcels.loc[parcels['nir_mean'].idxmax(), 'parcel_id'])}")
"""


def test_zonal_statistics_by_code(server, registry, router, tmp_path):
    files = ["image_2024.tif", "parcels.gpkg"]
    report = _run(server, registry, router, tmp_path, "mean near infrared per parcel as a layer", files, ZONAL)
    zones = gpd.read_file(report.outputs[0]["path"])
    nir = _bands("image_2024.tif")[3]
    with rasterio.open(SAMPLE / "image_2024.tif") as src:
        transform = src.transform
    for _, parcel in zones.iterrows():
        col = round((parcel.geometry.bounds[0] - transform.c) / 10)
        row = round((transform.f - parcel.geometry.bounds[3]) / 10)
        block = nir[row : row + 40, col : col + 40]
        assert parcel["nir_count"] == block.count()
        assert parcel["nir_mean"] == pytest.approx(block.mean(), rel=1e-9)
    best = zones.loc[zones["nir_mean"].idxmax(), "parcel_id"]
    assert zones.loc[zones["parcel_id"] == best, "landcover"].item() == "forest"
    assert report.answer == f"highest mean NIR: parcel {best}"


CHANGE = """
import numpy as np
import rasterio
from skimage.filters import threshold_otsu
with rasterio.open('image_2024.tif') as a, rasterio.open('image_2025.tif') as b:
    assert a.transform == b.transform and a.shape == b.shape
    before = a.read(masked=True).astype('float64')
    after = b.read(masked=True).astype('float64')
    profile = a.profile
    area = abs(a.transform.a * a.transform.e)
magnitude = np.sqrt(((after - before) ** 2).sum(axis=0))
t = threshold_otsu(magnitude.compressed())
changed = (magnitude > t).filled(False)
profile.update(dtype='uint8', count=1, nodata=255)
with rasterio.open('changed.tif', 'w', **profile) as dst:
    dst.write(np.where(np.ma.getmaskarray(magnitude), 255, changed).astype('uint8'), 1)
print(f'{changed.sum() * area / 10000:.1f} ha changed')
"""


def test_change_by_code(server, registry, router, tmp_path):
    files = ["image_2024.tif", "image_2025.tif"]
    report = _run(server, registry, router, tmp_path, "Veränderungsflächen zwischen 2024 und 2025 als Raster",
                  files, CHANGE)  # fmt: skip
    changed = _read(report.outputs[0]["path"])
    a, b = _bands("image_2024.tif"), _bands("image_2025.tif")
    truth = (np.sqrt(((b - a) ** 2).sum(axis=0)) > 2000).filled(False)  # the cleared forest and the new pond
    assert np.array_equal(changed.filled(0) == 1, truth)
    assert report.answer == "20.0 ha changed"


MORAN = """
import geopandas as gpd
import networkx as nx
import xarray
import rioxarray
from esda.moran import Moran
from libpysal.weights import Queen
parcels = gpd.read_file('parcels.gpkg')
w = Queen.from_dataframe(parcels, use_index=True)
forest = (parcels['landcover'] == 'forest').astype(float).values
graph = nx.Graph([(i, j) for i, nbrs in w.neighbors.items() for j in nbrs])
image = rioxarray.open_rasterio('image_2024.tif', masked=True)
print(f"I={Moran(forest, w, permutations=0).I:.4f} edges={graph.number_of_edges()} bands={image.sizes['band']}")
"""


def test_spatial_statistics_packages_import_and_work_in_the_sandbox(server, registry, router, tmp_path):
    assert set(PACKAGES) <= ALLOWED_IMPORTS
    files = ["image_2024.tif", "parcels.gpkg"]
    report = _run(server, registry, router, tmp_path, "Moran's I of the forest parcels", files, MORAN)
    parcels = gpd.read_file(SAMPLE / "parcels.gpkg")
    x = (parcels["landcover"] == "forest").astype(float).to_numpy()
    # queen contiguity on the 4 x 5 grid of parcels, by hand: neighbours share an edge or a corner
    rows, cols = divmod(np.arange(20), 5)
    w = (np.abs(rows[:, None] - rows) <= 1) & (np.abs(cols[:, None] - cols) <= 1) & ~np.eye(20, dtype=bool)
    w = w / w.sum(axis=1, keepdims=True)  # row-standardised, as esda's default
    z = x - x.mean()
    moran = len(x) / w.sum() * (z @ w @ z) / (z @ z)
    assert report.answer == f"I={moran:.4f} edges={int(np.triu(w > 0).sum())} bands=4"
