"""A command-line run writes nothing beside its inputs: QGIS's zonal statistics on a DEM left 'dem.tif.aux.xml' (GDAL's
statistics) next to the user's raster."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

SAMPLE = Path(__file__).resolve().parent.parent / "data" / "sample"


def test_zonal_statistics_leave_no_file_beside_the_raster(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    for name in ("dem.tif", "districts.gpkg"):
        shutil.copy(SAMPLE / name, data / name)
    before = sorted(p.name for p in data.iterdir())
    env = {k: v for k, v in os.environ.items() if k != "GDAL_PAM_ENABLED"}  # as a user's shell has it
    proc = subprocess.run(
        [sys.executable, "-m", "geoclerk.cli.main", "run", "mean elevation per district", "--input",
         str(data / "dem.tif"), "--input", str(data / "districts.gpkg"), "--out-dir", str(tmp_path / "out"),
         "--offline", "--json"],
        capture_output=True, text=True, timeout=600, env=env,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert '"status": "ok"' in proc.stdout, proc.stdout[-2000:]
    assert sorted(p.name for p in data.iterdir()) == before
