"""Reads in the sandbox: the work dir and the GIS stack's libraries and data only, by the audit hook and Landlock."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest
from geoclerk.codegen.policy import ChildPolicy, sensitive_paths
from geoclerk.codegen.sandbox import Sandbox

WORKER_DIR = Path(__file__).resolve().parent.parent / "codegen" / "child"

GIS_CELL = """
import geopandas as gpd
import matplotlib.pyplot as plt
import pandas as pd
from shapely.geometry import Point
from sklearn.cluster import KMeans

g = gpd.GeoDataFrame({"v": [1, 2, 3]}, geometry=[Point(10, 50), Point(11, 50), Point(10, 51)], crs=4326)
g.to_file("pts.gpkg", layer="pts")
back = gpd.read_file("pts.gpkg")
m = back.to_crs(3857)
print("x", round(m.geometry.x.iloc[0], 2))
print("utm", back.estimate_utm_crs().to_epsg())
back.to_file("pts.shp")
print("shp_crs", gpd.read_file("pts.shp").crs.to_epsg())
fig, ax = plt.subplots()
back.plot(ax=ax)
ax.set_title("Hospitals")
fig.savefig("map.png")
print("png", open("map.png", "rb").read()[:4] == b"\\x89PNG")
labels = KMeans(n_clusters=2, n_init=3, random_state=0).fit_predict([[0, 0], [0, 1], [50, 50], [51, 50]])
print("kmeans", labels[0] == labels[1], labels[2] == labels[3], labels[0] != labels[2])
print("tz", pd.Timestamp("2024-07-01 12:00", tz="UTC").tz_convert("Europe/Berlin").hour)
"""

REFUSED_READS = [
    ("etc_passwd", "import pandas as pd\nprint(pd.read_csv('/etc/' + 'passwd', sep=':', header=None).iloc[0, 0])"),
    ("etc_hosts", "print(open('/etc/' + 'hosts').read())"),
    ("etc_listing", "import pathlib\nprint(sorted(pathlib.Path('/etc').iterdir()))"),
    ("home_listing", "import glob\nprint(glob.glob('/home/' + '*'))"),
    ("root_home", "import pathlib\nprint(list(pathlib.Path('/root').iterdir()))"),
    ("var_log", "import pathlib\nprint(list(pathlib.Path('/var/log').iterdir()))"),
    ("original_input_open", "print(open('{original}').read())"),
    ("original_input_gdal", "import geopandas as gpd\nprint(gpd.read_file('{original}'))"),
    ("sibling_outside", "print(open('{outside}/other.txt').read())"),
]


@pytest.fixture(scope="module")
def arena(tmp_path_factory):
    base = tmp_path_factory.mktemp("reads")
    originals = base / "originals"
    originals.mkdir()
    original = originals / "hospitals.geojson"
    original.write_text(json.dumps({"type": "FeatureCollection", "features": []}))
    (originals / "other.txt").write_text("ORIGINAL-DO-NOT-READ")
    box = Sandbox(root=base / "sandbox", timeout=60)
    box.start()
    yield {"sandbox": box, "original": original, "outside": originals}
    box.close()


def _md5(folder: Path) -> dict:
    return {p.name: hashlib.md5(p.read_bytes()).hexdigest() for p in folder.iterdir()}


def test_gis_stack_works_under_the_read_rules(arena):
    box = arena["sandbox"]
    work = box.new_work_dir()
    result = box.run(GIS_CELL, work, timeout=120)
    assert result.ok, result.error
    lines = dict(line.split(" ", 1) for line in result.stdout.splitlines())
    assert lines == {"x": "1113194.91", "utm": "32632", "shp_crs": "4326", "png": "True",
                     "kmeans": "True True True", "tz": "14"}  # fmt: skip
    assert {o["path"].rsplit("/", 1)[1] for o in result.outputs} == {"pts.gpkg", "pts.shp", "map.png"}


@pytest.mark.parametrize("check", [True, False], ids=["static+runtime", "runtime"])
@pytest.mark.parametrize(("name", "code"), REFUSED_READS, ids=[r[0] for r in REFUSED_READS])
def test_reads_outside_the_work_dir_are_refused(arena, name, code, check):
    box = arena["sandbox"]
    before = _md5(arena["outside"])
    result = box.run(code.format(original=arena["original"], outside=arena["outside"]), box.new_work_dir(), check=check)
    assert not result.ok, result.stdout
    assert "not allowed" in result.error or "outside the work dir" in result.error, result.error
    assert "root:" not in result.stdout and "ORIGINAL-DO-NOT-READ" not in result.stdout + result.error
    assert _md5(arena["outside"]) == before


def test_the_work_root_and_its_copies_stay_readable(arena):
    box = arena["sandbox"]
    first, second = box.new_work_dir(), box.new_work_dir()
    (first / "a.csv").write_text("v\n7\n")
    result = box.run(f"import pandas as pd\nprint(pd.read_csv({str(first / 'a.csv')!r}).v.sum())", second,
                     check=False)  # fmt: skip
    assert result.ok and result.stdout == "7\n", result.error


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Landlock is Linux-only")
def test_landlock_ruleset_alone_refuses_the_same_reads(tmp_path):
    """The kernel layer with the child's own read roots, no audit hook: system files and other folders are denied."""
    work, outside = tmp_path / "work", tmp_path / "outside"
    work.mkdir()
    outside.mkdir()
    (outside / "secret.txt").write_text("s")
    policy = ChildPolicy(root=str(work), tmp_dir=str(work), sensitive_paths=sensitive_paths())
    code = f"""
import json, sys
sys.path.insert(0, {str(WORKER_DIR)!r})
import matplotlib, numpy, pyproj
import landlock, worker
roots = worker._read_roots(json.loads({json.dumps(json.dumps(policy.to_json()))}))
abi = landlock.restrict([{str(work)!r}], roots, worker._device_files())
if abi == 0:
    print('NOLANDLOCK'); sys.exit(0)
def attempt(path):
    try:
        open(path, 'rb').read(1); return 'allowed'
    except PermissionError:
        return 'denied'
print(attempt('/etc/passwd'), attempt('/etc/hosts'), attempt({str(outside / "secret.txt")!r}),
      attempt(numpy.__file__), attempt(pyproj.datadir.get_data_dir() + '/proj.db'), attempt('/etc/localtime'),
      attempt('/dev/null'))
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    if "NOLANDLOCK" in out.stdout:
        pytest.skip("this kernel has no Landlock")
    assert out.stdout.split() == ["denied", "denied", "denied", "allowed", "allowed", "allowed", "allowed"], out.stderr


def test_a_kernel_refusal_is_explained(arena):
    """A read the hook did not see but Landlock refused (a C library opening a path) gets the same hint."""
    box = arena["sandbox"]
    code = "raise PermissionError(13, 'Permission denied', '/etc/hosts')"
    result = box.run(code, box.new_work_dir(), check=False)
    assert not result.ok
    assert "Permission denied" in result.error and "read only the work dir and the Python/GIS libraries" in result.error


def test_the_plugin_folder_in_a_qgis_profile_is_readable_and_the_rest_is_not(tmp_path, monkeypatch):
    # issue 13: QGIS installs the plugin in the profile, and the sandbox child imports its guards from there
    from geoclerk.codegen.policy import qgis_private

    profile = tmp_path / "QGIS" / "QGIS3" / "profiles" / "default"
    (profile / "python" / "plugins" / "geoclerk").mkdir(parents=True)
    (profile / "qgis-auth.db").write_text("secret")
    (profile / "QGIS").mkdir()
    (tmp_path / "QGIS" / "QGIS3" / "profiles.ini").write_text("[core]")
    private = {p.relative_to(tmp_path).as_posix() for p in qgis_private(tmp_path / "QGIS")}
    assert private == {"QGIS/QGIS3/profiles/default/qgis-auth.db", "QGIS/QGIS3/profiles/default/QGIS",
                       "QGIS/QGIS3/profiles.ini"}  # fmt: skip
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setattr("pathlib.Path.home", lambda: tmp_path / "home")
    (tmp_path / "home" / ".local" / "share").mkdir(parents=True)
    (tmp_path / "home" / ".local" / "share" / "QGIS").symlink_to(tmp_path / "QGIS")
    blocked = sensitive_paths()
    plugin = str(tmp_path / "home/.local/share/QGIS/QGIS3/profiles/default/python/plugins/geoclerk")
    assert not any(plugin == b or plugin.startswith(b + "/") for b in blocked)
    authdb = str(tmp_path / "home/.local/share/QGIS/QGIS3/profiles/default/qgis-auth.db")
    assert authdb in blocked
