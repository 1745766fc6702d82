"""`geoclerk exec` with rasters and plain os/shutil: slope of the sample DEM, IDW to a GeoTIFF, files in subfolders."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import numpy as np
import pytest
import rasterio  # pinned in requirements.txt: a missing rasterio fails these tests, never skips them
from geoclerk.codegen import prompt
from geoclerk.codegen.static_check import check_code

ROOT = Path(__file__).resolve().parent.parent
GEOCLERK = str(ROOT / ".venv" / "bin" / "geoclerk")
DEM = ROOT / "data" / "sample" / "dem.tif"

SLOPE = """
import os
import numpy as np
import rasterio

os.makedirs(os.path.join("derived", "terrain"), exist_ok=True)
with rasterio.open("dem.tif") as src:
    dem = src.read(1, masked=True).astype("float64")
    profile = src.profile
    xres, yres = src.res
dy, dx = np.gradient(dem.filled(np.nan), yres, xres)
slope = np.degrees(np.arctan(np.hypot(dx, dy)))
profile.update(dtype="float32", nodata=-9999.0, count=1, compress="deflate")
out = os.path.join("derived", "terrain", "slope.tif")
with rasterio.open(out, "w", **profile) as dst:
    dst.write(np.where(np.isnan(slope), -9999.0, slope).astype("float32"), 1)
print(f"max slope {np.nanmax(slope):.2f} degrees; files: {sorted(os.listdir(os.path.dirname(out)))}")
"""

IDW = """
import json
import numpy as np
import rasterio
from rasterio.transform import from_origin

points = json.load(open("wells.geojson"))["features"]
xy = np.array([f["geometry"]["coordinates"] for f in points], dtype=float)
values = np.array([f["properties"]["level"] for f in points], dtype=float)
transform = from_origin(500000, 5801000, 100, 100)  # 10 x 10 cells of 100 m
rows, cols = np.mgrid[0:10, 0:10]
xs, ys = rasterio.transform.xy(transform, rows.ravel(), cols.ravel())
grid = np.column_stack([xs, ys])
dist = np.hypot(grid[:, None, 0] - xy[None, :, 0], grid[:, None, 1] - xy[None, :, 1])
weights = 1.0 / np.maximum(dist, 1e-9) ** 2
surface = ((weights * values).sum(axis=1) / weights.sum(axis=1)).reshape(10, 10)
with rasterio.open("idw.tif", "w", driver="GTiff", width=10, height=10, count=1, dtype="float32",
                   crs="EPSG:32633", transform=transform) as dst:
    dst.write(surface.astype("float32"), 1)
print(f"IDW surface from {len(values)} wells, range {surface.min():.1f} to {surface.max():.1f}")
"""

WELLS = [((500050.0, 5800950.0), 10.0), ((500950.0, 5800950.0), 20.0), ((500050.0, 5800050.0), 30.0),
         ((500950.0, 5800050.0), 40.0)]  # fmt: skip


def _exec(tmp_path: Path, code: str, *inputs: Path) -> dict:
    script = tmp_path / "script.py"
    script.write_text(code, encoding="utf-8")
    args = [GEOCLERK, "exec", str(script), "--work-dir", str(tmp_path / "work"), "--json"]
    for item in inputs:
        args += ["--input", str(item)]
    proc = subprocess.run(args, capture_output=True, text=True, timeout=180)
    assert proc.returncode in (0, 1), proc.stderr
    return json.loads(proc.stdout)


def test_slope_of_the_sample_dem_is_written_as_a_raster(tmp_path):
    data = _exec(tmp_path, SLOPE, DEM)
    assert data["ok"] is True, data["error"]
    out = tmp_path / "work" / "derived" / "terrain" / "slope.tif"
    assert data["outputs"] == [{"path": str(out), "kind": "raster"}]
    with rasterio.open(DEM) as src:
        dem = src.read(1, masked=True).astype("float64").filled(np.nan)
        xres, yres = src.res
        crs, transform = src.crs, src.transform
    dy, dx = np.gradient(dem, yres, xres)
    expected = np.degrees(np.arctan(np.hypot(dx, dy)))
    with rasterio.open(out) as written:
        assert written.crs == crs and written.transform == transform and written.nodata == -9999.0
        slope = written.read(1, masked=True)
    valid = ~np.isnan(expected)
    assert slope.count() == int(valid.sum()) > 1000
    assert np.allclose(slope.filled(np.nan)[valid], expected[valid], atol=1e-4)
    assert f"max slope {np.nanmax(expected):.2f} degrees" in data["stdout"]
    assert "files: ['slope.tif']" in data["stdout"]


def test_idw_of_points_to_a_geotiff(tmp_path):
    wells = tmp_path / "wells.geojson"
    features = [{"type": "Feature", "properties": {"level": v}, "geometry": {"type": "Point", "coordinates": list(p)}}
                for p, v in WELLS]  # fmt: skip
    wells.write_text(json.dumps({"type": "FeatureCollection", "features": features}), encoding="utf-8")
    data = _exec(tmp_path, IDW, wells)
    assert data["ok"] is True, data["error"]
    assert [(Path(o["path"]).name, o["kind"]) for o in data["outputs"]] == [("idw.tif", "raster")]
    with rasterio.open(tmp_path / "work" / "idw.tif") as src:
        surface = src.read(1)
        assert src.crs.to_epsg() == 32633 and src.res == (100.0, 100.0)
    # Every well sits on a cell centre: IDW returns its value there exactly.
    assert surface[0, 0] == pytest.approx(10.0) and surface[0, 9] == pytest.approx(20.0)
    assert surface[9, 0] == pytest.approx(30.0) and surface[9, 9] == pytest.approx(40.0)
    # The grid's centre cells are equidistant-ish; by symmetry the four central cells average to the mean level.
    assert surface[4:6, 4:6].mean() == pytest.approx(25.0, abs=1e-4)
    assert surface.min() == pytest.approx(10.0) and surface.max() == pytest.approx(40.0)
    assert "from 4 wells, range 10.0 to 40.0" in data["stdout"]


def test_plain_os_and_shutil_work_inside_the_work_dir(tmp_path):
    code = (
        "import os\nimport shutil\n"
        "os.makedirs('a/b', exist_ok=True)\n"
        "with open(os.path.join('a', 'b', 'n.txt'), 'w') as f:\n    f.write('x')\n"
        "shutil.copy(os.path.join('a', 'b', 'n.txt'), 'copy.txt')\n"
        "os.rename('copy.txt', 'moved.txt')\n"
        "os.environ['SHAPE_RESTORE_SHX'] = 'YES'\n"
        "os.remove(os.path.join('a', 'b', 'n.txt'))\nos.rmdir(os.path.join('a', 'b'))\n"
        "import tempfile\nwith tempfile.TemporaryDirectory() as scratch:\n"
        "    open(os.path.join(scratch, 's.txt'), 'w').write('scratch')\n"
        "print(sorted(os.listdir('.')), os.path.basename(os.getcwd()), os.environ['SHAPE_RESTORE_SHX'])\n"
    )
    data = _exec(tmp_path, code)
    assert data["ok"] is True, data["error"]
    assert data["stdout"].strip() == "['.geoclerk-run.json', 'a', 'moved.txt'] work YES"
    assert [(Path(o["path"]).name, o["kind"]) for o in data["outputs"]] == [("moved.txt", "text")]


def test_rasterio_memory_files_and_exec_refusals(tmp_path):
    code = (
        "import numpy as np\nfrom rasterio.io import MemoryFile\n"
        "with MemoryFile() as mem:\n"
        "    with mem.open(driver='GTiff', width=3, height=2, count=1, dtype='uint8') as ds:\n"
        "        ds.write(np.arange(6, dtype='uint8').reshape(1, 2, 3))\n"
        "    with mem.open() as ds:\n        print(int(ds.read(1).sum()))\n"
        "import rasterio\nrasterio.open('/etc/' + 'hostname')\n"  # not a constant: the run-time guard refuses it
    )
    data = _exec(tmp_path, code)
    assert data["ok"] is False and data["stdout"].strip() == "15"
    assert "Blocked by the sandbox: reading '/etc/hostname' is not allowed" in data["error"]


def test_prompt_tells_the_model_what_runs():
    text = prompt.system_prompt(rasterio=True)
    assert "rasterio (with affine)" in text and "os.makedirs" in text and "GeoTIFF" in text
    assert "no sys, subprocess" in text and "Not osgeo/gdal" in text
    without = prompt.system_prompt(rasterio=False)
    assert "rasterio (with affine)" not in without and "Raster I/O (rasterio, osgeo) is not available" in without
    assert prompt.SYSTEM_PROMPT == prompt.system_prompt(prompt.raster_io_available())


def test_the_scripts_a_model_writes_pass_the_static_check(tmp_path):
    assert check_code(SLOPE, tmp_path) == []
    assert check_code(IDW, tmp_path) == []
    refused = check_code("import os\nos.system('ls')\nfrom osgeo import gdal\n", tmp_path)
    assert [f.line for f in refused] == [2, 3]


def test_a_refused_osgeo_import_gets_the_rasterio_hint():
    from geoclerk.codegen.hints import raster_hints

    hints = raster_hints("The sandbox refused the code before running it: line 1: import of 'osgeo' is not allowed")
    assert len(hints) == 1 and "rasterio.open('in.tif')" in hints[0]
    assert raster_hints("NameError: name 'x' is not defined") == []


COMMON_RASTER_OPS = """
import geopandas as gpd
import numpy as np
import rasterio
import rasterio.features
import rasterio.mask
import rasterio.warp
from rasterio.vrt import WarpedVRT
from rasterio.windows import Window

d = gpd.read_file("districts.gpkg")
with rasterio.open("dem.tif") as src:
    masked, _ = rasterio.mask.mask(src, d.geometry[:1], crop=True)
    edge = src.read(1, window=Window(-5, -5, 20, 20), boundless=True, fill_value=0)
    with WarpedVRT(src, crs="EPSG:4326") as vrt:
        warped = vrt.read(1)
    burnt = rasterio.features.rasterize(d.geometry, out_shape=src.shape, transform=src.transform)
    first = next(src.sample([(src.bounds.left + 25, src.bounds.top - 25)]))[0]
    corner = float(src.read(1)[0, 0])
print(masked.ndim, edge.shape, int((edge[:5, :] == 0).all()), warped.ndim, int(burnt.max()), first == corner)
"""


def test_common_rasterio_operations_run_under_the_guards(tmp_path):
    from geoclerk.codegen.sandbox import Sandbox

    with Sandbox(root=tmp_path / "sandbox", timeout=60) as sandbox:
        work = sandbox.new_work_dir()
        sandbox.prepare(work, [DEM, ROOT / "data" / "sample" / "districts.gpkg"])
        result = sandbox.run(COMMON_RASTER_OPS, work)
    assert result.ok, result.error
    assert result.stdout.split() == ["3", "(20,", "20)", "1", "2", "1", "True"]
