"""`make package` builds an installable ZIP; installed into a fresh profile, qgis_process runs geoclerk:ask from it."""

from __future__ import annotations

import importlib.util
import json
import os
import site
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from geoclerk.tests.test_gui_support import ROOT, make_town

QGIS_PROCESS = "/usr/bin/qgis_process.bin"  # the /usr/bin/qgis_process wrapper passes a flag 3.22 rejects

spec = importlib.util.spec_from_file_location("ga_package", ROOT / "scripts" / "package.py")
package = importlib.util.module_from_spec(spec)
spec.loader.exec_module(package)


@pytest.fixture(scope="module")
def plugin_zip(tmp_path_factory):
    return package.build(tmp_path_factory.mktemp("dist") / "geoclerk.zip")


def test_zip_holds_the_plugin_and_nothing_else(plugin_zip):
    names = zipfile.ZipFile(plugin_zip).namelist()
    assert all(n.startswith("geoclerk/") for n in names)
    for needed in (
        "metadata.txt",
        "__init__.py",
        "errors.py",
        "lang.py",
        "i18n/core_de.json",
        "i18n/core_zh_CN.json",
        "geoclerk_plugin/plugin.py",
        "geoclerk_plugin/dock.py",
        "i18n/geoclerk_zh_CN.qm",
        "i18n/geoclerk_de.qm",
        "router/__init__.py",
        "reading/text.py",
        "planning/plan.py",
        "languages/de/lexicon.py",
        "model_text/tokens.py",
        "function_lib/registry.py",
    ):
        assert f"geoclerk/{needed}" in names, needed
    for name in names:
        parts = name.split("/")
        dev_parts = {"tests", "bench", "scripts", "data", "dev", ".venv", ".git", "__pycache__", ".ci"}
        assert not dev_parts & set(parts), name
        assert not name.endswith((".pyc", ".ts")) and parts[1] not in ("Makefile", "pytest.ini", "ruff.toml"), name
        assert "corpus" not in parts, name  # the corpus and its generator are dev tools (dev/corpus/)
    assert any(n.startswith("geoclerk/router/model/") for n in names)  # the trained model is what runs


def test_the_icons_the_plugin_names_are_in_the_zip(plugin_zip):
    # The rename left the file as geoagent.svg: the installed plugin showed text where its icon belongs.
    import configparser

    from geoclerk.geoclerk_plugin import plugin, provider

    names = set(zipfile.ZipFile(plugin_zip).namelist())
    meta = configparser.ConfigParser()
    meta.read(ROOT / "metadata.txt")
    wanted = {meta["general"]["icon"]} | {p.ICON.relative_to(ROOT).as_posix() for p in (plugin, provider)}
    assert {f"geoclerk/{path}" for path in wanted} <= names


def _qgis_process(args, profile, env_extra=None, timeout=600):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", QGIS_CUSTOM_CONFIG_PATH=str(profile))
    for var in ("PYTHONPATH", "GEOCLERK_BASE_URL", "GEOCLERK_MODEL"):
        env.pop(var, None)
    env.update(env_extra or {})
    return subprocess.run([QGIS_PROCESS, *args], capture_output=True, text=True, timeout=timeout, env=env)


@pytest.fixture
def profile(plugin_zip, tmp_path):
    """A fresh QGIS profile with the plugin unpacked from the ZIP and enabled."""
    if not os.path.exists(QGIS_PROCESS):
        pytest.skip("qgis_process is not installed")
    plugins = tmp_path / "profile" / "profiles" / "default" / "python" / "plugins"
    plugins.mkdir(parents=True)
    zipfile.ZipFile(plugin_zip).extractall(plugins)
    enabled = _qgis_process(["plugins", "enable", "geoclerk"], tmp_path / "profile")
    assert enabled.returncode == 0, enabled.stderr[-2000:]
    return tmp_path / "profile"


def test_qgis_process_without_packages_names_them_and_the_fix(profile, tmp_path):
    paths = make_town(tmp_path / "data")
    run = _qgis_process(["run", "geoclerk:ask", "--", "REQUEST=buffer schools by 100 m", f"INPUTS={paths['schools']}",
                         f"OUTPUT_FOLDER={tmp_path / 'files'}"], profile)  # fmt: skip
    assert run.returncode != 0
    text = run.stdout + run.stderr
    assert "GeoClerk needs Python packages" in text and "installer.py --target" in text and "--upgrade" not in text
    assert "geoclerk_libs" in text and "Traceback" not in text
    # QGIS's own Python (Debian 12: 3.11, Debian 13: 3.13; .venv is made from it), not whatever is first on PATH
    assert f"/usr/bin/python{sys.version_info[0]}.{sys.version_info[1]} " in text


def test_qgis_process_runs_ask_from_the_installed_zip(profile, tmp_path):
    # The packages live in the plugin-managed folder, exactly where the installer would put them.
    libs = profile / "profiles" / "default" / "python" / "geoclerk_libs"
    libs.symlink_to(site.getsitepackages()[0], target_is_directory=True)
    paths = make_town(tmp_path / "data")
    out = tmp_path / "buffered.gpkg"
    args = ["--json", "run", "geoclerk:ask", "--", "REQUEST=buffer schools by 100 m", f"INPUTS={paths['schools']}",
            "ROUTE=0", f"OUTPUT={out}", f"OUTPUT_FOLDER={tmp_path / 'files'}"]  # fmt: skip
    run = _qgis_process(args, profile)
    assert run.returncode == 0, run.stderr[-3000:]
    results = json.loads(run.stdout)["results"]
    assert results["STATUS"] == "ok" and results["OUTPUT"] == str(out)
    report = json.loads(results["REPORT"])
    assert report["tier"] == 0 and "buffer" in report["steps"][0]["tool"]
    import geopandas as gpd

    buffered = gpd.read_file(out)
    assert len(buffered) == 6 and buffered.area.sum() == pytest.approx(6 * 3.14159 * 100**2, rel=0.02)


def _ask_with_model(profile, tmp_path, replies, request, *params):
    """qgis_process run geoclerk:ask from the installed ZIP, its packages in the profile's geoclerk_libs, with the
    scripted model server; (report, the town's paths)."""
    from geoclerk.tests.scripted_server import ScriptedServer

    libs = profile / "profiles" / "default" / "python" / "geoclerk_libs"
    libs.symlink_to(site.getsitepackages()[0], target_is_directory=True)
    paths = make_town(tmp_path / "data")
    with ScriptedServer(replies) as server:
        env = {"GEOCLERK_BASE_URL": server.url, "GEOCLERK_MODEL": "scripted", "GEOCLERK_API_KEY": "k"}
        args = ["--json", "run", "geoclerk:ask", "--", f"REQUEST={request}", f"INPUTS={paths['schools']}", *params]
        run = _qgis_process(args, profile, env)
    assert run.returncode == 0, run.stderr[-3000:]
    return json.loads(json.loads(run.stdout)["results"]["REPORT"]), paths


def test_qgis_process_runs_generated_code_from_the_installed_zip(profile, tmp_path):
    # Tier 2 from the ZIP: the sandbox child must start from the profile's plugin folder and run the model's code.
    code = (
        "```python\nimport geopandas as gpd\ns = gpd.read_file('schools.gpkg')\n"
        "s['pupils_x2'] = s['pupils'] * 2\ns.to_file('schools_x2.gpkg', driver='GPKG')\nprint(len(s), 'schools')\n```"
    )
    report, paths = _ask_with_model(
        profile, tmp_path, [{"content": code}], "double the pupils of every school in a new column", "ROUTE=2",
        f"OUTPUT_FOLDER={tmp_path / 'files'}",
    )  # fmt: skip
    assert report["status"] == "ok" and report["tier"] == 2, report.get("error")
    import geopandas as gpd

    out = gpd.read_file(next(o["path"] for o in report["outputs"] if o["kind"] == "vector"))
    schools = gpd.read_file(paths["schools"])
    assert sorted(out["pupils_x2"]) == sorted(schools["pupils"] * 2)


def test_qgis_process_runs_function_calling_from_the_installed_zip(profile, tmp_path):
    replies = [
        {"tool_calls": [{"name": "buffer", "arguments": {"layer": "schools", "distance": 100}}]},
        {"content": "Buffered the schools by 100 m."},
    ]
    out_path = tmp_path / "zones.gpkg"  # no OUTPUT_FOLDER: the profile's results folder
    report, _ = _ask_with_model(
        profile, tmp_path, replies, "put a 100 m zone around the schools", "ROUTE=1", f"OUTPUT={out_path}"
    )
    assert report["status"] == "ok", report.get("error")
    assert report["usage"]["llm_calls"] >= 1  # the model was asked: confirmed the no-model plan, or ran tier 1
    import geopandas as gpd

    out = gpd.read_file(out_path)
    assert len(out) == 6 and out.area.sum() == pytest.approx(6 * 3.14159 * 100**2, rel=0.02)


def test_qgis_process_with_no_inputs_or_folder_reads_the_project_at_tier_0_and_keeps_the_files(profile, tmp_path):
    # issue 27: without OUTPUT_FOLDER the result went to Processing's temporary folder, gone when qgis_process exited;
    # with no input layers the request went to the model instead of the project's layers at tier 0.
    import shutil

    import geopandas as gpd
    from qgis.core import QgsProject, QgsVectorLayer

    libs = profile / "profiles" / "default" / "python" / "geoclerk_libs"
    libs.symlink_to(site.getsitepackages()[0], target_is_directory=True)
    data = tmp_path / "town"
    data.mkdir()
    project = QgsProject()
    for name in ("districts", "houses"):
        shutil.copy(ROOT / "data" / "sample" / f"{name}.gpkg", data / f"{name}.gpkg")
        project.addMapLayer(QgsVectorLayer(str(data / f"{name}.gpkg"), name, "ogr"))
    assert project.write(str(data / "town.qgz"))
    args = ["--json", "run", "geoclerk:ask", f"--project_path={data / 'town.qgz'}", "--",
            "REQUEST=Count the houses in each district"]  # fmt: skip
    run = _qgis_process(args, profile)  # no model configured: only tier 0 can serve it
    assert run.returncode == 0, (run.stdout + run.stderr)[-3000:]
    results = json.loads(run.stdout)["results"]
    report = json.loads(results["REPORT"])
    assert (report["status"], report["tier"], report["usage"]["llm_calls"]) == ("ok", 0, 0), report
    folder = Path(results["OUTPUT_FOLDER"])
    assert folder.parent == data / "geoclerk_results" and folder.is_dir()  # next to the saved project, still there
    [vector] = [o["path"] for o in report["outputs"] if o["kind"] == "vector"]
    assert Path(vector).is_relative_to(folder)
    counted = gpd.read_file(vector)
    houses, districts = gpd.read_file(data / "houses.gpkg"), gpd.read_file(data / "districts.gpkg")
    want = sorted(gpd.sjoin(houses, districts, predicate="within").groupby("index_right").size())
    numbers = [c for c in counted.columns if c not in districts.columns and c != "geometry"]
    assert len(counted) == 8 and sorted(counted[numbers[0]]) == want, counted.columns
    info = json.loads(run.stdout)["log"]["info"]  # the log says what it used and where the files are
    [used] = [line for line in info if line.startswith("No input layers were given")]
    assert sorted(used.split(": ", 1)[1].split(", ")) == ["districts", "houses"]
    assert f"Result files: {folder}" in info
