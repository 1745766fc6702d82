"""The Install button's installer (geoclerk_plugin/installer.py) against two stand-ins for QGIS's Python: Debian's
/usr/bin/python3 with Debian's own NumPy and GDAL bindings built against it (NumPy 1.24 on Debian 12, 2.2 on
Debian 13) and a venv with NumPy 2. Real pip, real
wheels from PyPI (pip's cache makes a second run cheap); checked by value in a child process of that Python."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from geoclerk.geoclerk_plugin import installer

pytestmark = pytest.mark.pypi
SYSTEM_PYTHON = "/usr/bin/python3"


def _run(python, code: str, *args) -> dict:
    proc = subprocess.run([python, "-c", code, *args], capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


def numpy_of(python) -> str:
    return _run(python, "import json, numpy; print(json.dumps({'v': numpy.__version__}))")["v"]


# What a user's request imports, in a fresh child of that Python with the installed folder first on its path (as
# the plugin puts it): versions, and where NumPy came from.
USE = r"""
import json, sys
sys.path.insert(0, sys.argv[1])
import numpy, geopandas, sklearn, openai, rasterio, pyogrio, shapely, pandas
from shapely.geometry import Point
zones = geopandas.GeoSeries([Point(0, 0), Point(5, 0)], crs=32633).buffer(10)
print(json.dumps({"numpy": numpy.__version__, "numpy_file": numpy.__file__, "geopandas": geopandas.__version__,
                  "sklearn": sklearn.__version__, "openai": openai.__version__, "rasterio": rasterio.__version__,
                  "pandas": pandas.__version__, "area": float(zones.area.sum())}))
"""


@pytest.fixture(scope="module")
def system_python(tmp_path_factory):
    """Debian's Python as QGIS embeds it: a venv that sees its packages (Debian's NumPy, GDAL, and what else QGIS's
    packages brought: pyproj, SciPy, Matplotlib). NumPy 1 on Debian 12, NumPy 2 on Debian 13: either way it stays."""
    venv = tmp_path_factory.mktemp("qgis-python-system") / "venv"
    subprocess.run([SYSTEM_PYTHON, "-m", "venv", "--system-site-packages", str(venv)], check=True, timeout=300)
    # Debian 13's pyproj looks for PROJ's data under sys.prefix, which is the venv's here and /usr in QGIS: tell it
    # where Debian keeps it, as QGIS's own environment does (Debian 12's pyproj finds it either way).
    found = _run(SYSTEM_PYTHON, "import json, pyproj; print(json.dumps({'d': pyproj.datadir.get_data_dir()}))")["d"]
    saved = os.environ.get("PROJ_DATA")
    os.environ["PROJ_DATA"] = saved or found
    yield str(venv / "bin" / "python")
    if saved is None:
        os.environ.pop("PROJ_DATA", None)


COMPILED = ("pyproj", "scipy", "matplotlib")
FOUND = "import importlib.util as u, json, sys; print(json.dumps({n: bool(u.find_spec(n)) for n in sys.argv[1:]}))"


@pytest.fixture(scope="module")
def numpy2_python(tmp_path_factory):
    """A Python whose NumPy is 2 (QGIS 3.40+ on Debian 13, recent OSGeo4W and macOS builds)."""
    venv = tmp_path_factory.mktemp("qgis-python-numpy2") / "venv"
    subprocess.run([SYSTEM_PYTHON, "-m", "venv", str(venv)], check=True, timeout=300)
    python = str(venv / "bin" / "python")
    subprocess.run([python, "-m", "pip", "install", "-q", "numpy>=2,<2.3"], check=True, timeout=900)
    return python


def _installed_and_used(python, target: Path) -> tuple[installer.InstallReport, dict, str]:
    before = numpy_of(python)
    report = installer.install(python, target)
    assert report.ok, report.error
    used = _run(python, USE, str(target))
    return report, used, before


def _check_the_folder(report, used, before, target: Path) -> None:
    assert used["numpy"] == before == report.kept["numpy"]  # QGIS's NumPy, unchanged
    assert not Path(used["numpy_file"]).is_relative_to(target)  # ... and imported from QGIS's Python, not the folder
    assert not list(target.glob("numpy-*.dist-info")) and not (target / "numpy").exists()
    assert used["area"] == pytest.approx(2 * 314.0, rel=0.01)
    for name in ("geopandas", "scikit-learn", "openai", "rasterio"):
        assert name in report.installed or name in report.kept, name
    assert report.checks["rasterio"]["version"] == used["rasterio"]
    assert installer.read_manifest(target)["kept"]["numpy"] == before
    assert not target.with_name(target.name + ".staging").exists()
    print(json.dumps({"kept": report.kept, "installed": report.installed, "newer": report.newer, "used": used}))


def test_the_system_python_keeps_its_numpy_gdal_and_gets_the_rest(system_python, tmp_path):
    target = tmp_path / "geoclerk_libs"
    present = {name for name, there in _run(system_python, FOUND, *COMPILED).items() if there}
    report, used, before = _installed_and_used(system_python, target)
    _check_the_folder(report, used, before, target)
    # Debian's compiled packages stay Debian's (pyproj is built on QGIS's PROJ); GDAL still loads from Debian.
    assert present <= set(report.kept), (present, report.kept)
    assert "gdal" in report.checks["osgeo.gdal_array"]["file"]
    assert not Path(report.checks["osgeo.gdal_array"]["file"]).is_relative_to(target)
    major, minor = (int(x) for x in before.split(".")[:2])
    if (major, minor) < (1, 26):  # pandas 3 needs NumPy >= 1.26: a pandas for this NumPy was chosen
        assert int(used["pandas"].split(".")[0]) < 3


def test_numpy2_python_keeps_its_numpy(numpy2_python, tmp_path):
    target = tmp_path / "geoclerk_libs"
    report, used, before = _installed_and_used(numpy2_python, target)
    _check_the_folder(report, used, before, target)
    assert before.startswith("2.") and {"pandas", "scipy", "pyproj"} <= set(report.installed)


def _previous_folder(tmp_path) -> Path:
    target = tmp_path / "geoclerk_libs"
    (target / "old_package").mkdir(parents=True)
    (target / "old_package" / "__init__.py").write_text("VALUE = 42\n")
    return target


def test_an_impossible_install_leaves_the_previous_folder_as_it_was(numpy2_python, tmp_path):
    target = _previous_folder(tmp_path)
    report = installer.install(numpy2_python, target, requirements=[("six", "six", "999")])
    assert not report.ok and "six>=999" in report.error
    assert (target / "old_package" / "__init__.py").read_text() == "VALUE = 42\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["geoclerk_libs"]  # no staging folder left behind


def test_a_package_that_installs_but_does_not_import_is_rolled_back(numpy2_python, tmp_path):
    target = _previous_folder(tmp_path)
    report = installer.install(numpy2_python, target, requirements=[("no_such_module", "six", "1.0")])
    assert not report.ok and report.installed == {"six": report.installed["six"]}  # pip did install it...
    assert "import no_such_module" in report.error  # ...the check refused it, and the swap never happened
    assert not list(target.glob("six*")) and (target / "old_package").is_dir()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["geoclerk_libs"]


def test_a_success_replaces_an_older_installers_folder(numpy2_python, tmp_path):
    target = _previous_folder(tmp_path)
    report = installer.install(numpy2_python, target, requirements=[("six", "six", "1.0")])
    assert report.ok, report.error
    assert (target / "six.py").exists() and not (target / "old_package").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["geoclerk_libs"]  # the previous folder went after the swap


def test_the_terminal_command_reports_as_json(tmp_path):
    target = _previous_folder(tmp_path)
    missing = str(tmp_path / "no-python")
    proc = subprocess.run([sys.executable, installer.__file__, "--python", missing, "--target", str(target)],
                          capture_output=True, text=True, timeout=60)  # fmt: skip
    report = json.loads(proc.stdout)
    assert proc.returncode == 1 and not report["ok"] and report["python"] == missing and "no-python" in report["error"]
    assert (target / "old_package").is_dir()


# -- the plan, without pip -------------------------------------------------------------------------------------------
PRESENT = {
    "numpy": {"name": "numpy", "version": "1.24.2", "compiled": True},
    "shapely": {"name": "Shapely", "version": "1.8.5", "compiled": True},
    "jsonschema": {"name": "jsonschema", "version": "3.2.0", "compiled": False},
    "kiwisolver": {"name": "kiwisolver", "version": "0.0.0+dfsg", "compiled": True},
}
REQS = [("numpy", "numpy", "1.22"), ("shapely", "shapely", "2.0"), ("jsonschema", "jsonschema", "4.0"),
        ("openai", "openai", "1.0")]  # fmt: skip


def test_the_plan_keeps_what_qgis_has_and_refuses_to_shadow_a_compiled_package():
    specs, kept, blocked = installer.plan_requests(PRESENT, REQS)
    assert kept == {"numpy": "1.24.2"}
    assert blocked == {"Shapely": ["1.8.5", "2.0"]}  # compiled and too old: a second copy would shadow QGIS's
    assert specs == ["jsonschema>=4.0", "openai>=1.0"]  # pure Python and too old: a newer copy, reported as such
    assert installer.constraints_for(PRESENT) == ["jsonschema>=3.2.0", "numpy==1.24.2", "shapely==1.8.5"]


def test_a_compiled_package_too_old_stops_before_pip(tmp_path):
    calls = []

    def runner(command, env=None, timeout=None):
        calls.append(command)
        present = {k: v for k, v in PRESENT.items()}
        return 0, "GEOCLERK-JSON " + json.dumps({"python": "3.11", "pip": "23.0", "present": present})

    report = installer.install("python3", tmp_path / "libs", requirements=REQS, runner=runner)
    assert not report.ok and "Shapely 1.8.5 (needs >= 2.0)" in report.error
    assert len(calls) == 1 and not (tmp_path / "libs").exists()
