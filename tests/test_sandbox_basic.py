"""The persistent sandbox: state between cells, outputs, input copies, errors, timeouts, cancel and `geoclerk exec`."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from pathlib import Path

import geopandas as gpd
import pytest
from geoclerk.codegen.api import exec_script
from geoclerk.codegen.sandbox import Sandbox, find_python
from geoclerk.codegen.workdir import copy_inputs
from shapely.geometry import Point

WORKER_DIR = Path(__file__).resolve().parent.parent / "codegen" / "child"


@pytest.fixture(scope="module")
def sandbox(tmp_path_factory):
    box = Sandbox(root=tmp_path_factory.mktemp("sandbox"), timeout=30)
    box.start()
    yield box
    box.close()


@pytest.fixture
def points_shp(tmp_path) -> Path:
    src = tmp_path / "data"
    src.mkdir()
    gdf = gpd.GeoDataFrame({"name": ["a", "b", "c"], "pop": [10, 20, 30]},
                           geometry=[Point(0, 0), Point(100, 0), Point(0, 100)], crs="EPSG:32633")  # fmt: skip
    gdf.to_file(src / "towns.shp")
    return src / "towns.shp"


def test_child_is_another_process_with_the_gis_stack(sandbox):
    info = sandbox.info
    assert info["pid"] != __import__("os").getpid()
    assert {"numpy", "pandas", "shapely", "geopandas", "matplotlib.pyplot", "sklearn"} <= set(info["preloaded"])
    assert info["errors"] == []


def test_variables_survive_between_cells_until_reset(sandbox):
    work = sandbox.new_work_dir()
    assert sandbox.run("total = 40", work).ok
    assert sandbox.run("total += 2\nprint(total)", work).stdout == "42\n"
    sandbox.reset()
    after = sandbox.run("print(total)", work)
    assert not after.ok and "name 'total' is not defined" in after.error


def test_outputs_are_classified_and_input_copies_left_out(sandbox, points_shp):
    work = sandbox.new_work_dir()
    copies = sandbox.prepare(work, [points_shp])
    code = (
        "import geopandas as gpd\nimport matplotlib.pyplot as plt\n"
        "g = gpd.read_file('towns.shp')\ng['pop'] = g['pop'] * 2\ng.to_file('towns.shp')\n"
        "g.buffer(10).to_file('buffers.shp')\ng.drop(columns='geometry').to_csv('table.csv', index=False)\n"
        "g.plot()\nplt.savefig('map.png')\nopen('page.html', 'w').write('<p>hi</p>')\n"
        "open('notes.txt', 'w').write('n')\nprint(int(g['pop'].sum()))"
    )
    result = sandbox.run(code, work, exclude=copies.values())
    assert result.ok, result.error
    assert result.stdout == "120\n"
    kinds = {Path(o["path"]).name: o["kind"] for o in result.outputs}
    assert kinds == {"buffers.shp": "vector", "table.csv": "table", "map.png": "image", "page.html": "html",
                     "notes.txt": "text"}  # fmt: skip
    assert gpd.read_file(points_shp)["pop"].tolist() == [10, 20, 30], "the user's file must never change"


def test_inputs_are_copied_with_sidecars(points_shp, tmp_path):
    work = tmp_path / "work"
    copies = copy_inputs([points_shp, points_shp], work)
    names = sorted(p.name for p in work.iterdir())
    assert names == ["towns.cpg", "towns.dbf", "towns.prj", "towns.shp", "towns.shx",
                     "towns_2.cpg", "towns_2.dbf", "towns_2.prj", "towns_2.shp", "towns_2.shx"]  # fmt: skip
    assert Path(copies[str(points_shp)]).name == "towns_2.shp"  # the same input twice keeps both copies
    assert len(gpd.read_file(work / "towns_2.shp")) == 3


def test_errors_give_the_root_cause_and_the_failing_line(sandbox):
    work = sandbox.new_work_dir()
    result = sandbox.run("x = 1\ny = x + undefined_name\n", work)
    assert result.error == "NameError: name 'undefined_name' is not defined (line 2: `y = x + undefined_name`)"
    deep = sandbox.run("import pandas as pd\ndf = pd.DataFrame({'a': [1]})\nprint(df['population'])", work)
    assert deep.error.startswith("KeyError: 'population' (line 3: `print(df['population'])`)")
    assert "raised in pandas/" in deep.error and "Traceback" not in deep.error


def test_clashing_submodule_names_of_allowed_packages_work(sandbox):
    work = sandbox.new_work_dir()
    result = sandbox.run("from scipy import signal\nprint(len(signal.find_peaks([0, 2, 0, 3, 0])[0]))", work)
    assert result.ok and result.stdout == "2\n", result.error


def test_warnings_stay_out_of_the_answer(sandbox):
    work = sandbox.new_work_dir()
    result = sandbox.run("import warnings\nwarnings.warn('careful')\nprint('after')", work)
    assert result.ok and result.stdout == "after\n" and "UserWarning: careful" in result.stderr


def test_static_refusal_never_reaches_the_child(sandbox):
    work = sandbox.new_work_dir()
    result = sandbox.run("import sys\nprint(sys.path)", work)
    assert result.stage == "static" and not result.ok
    assert "line 1: import of 'sys' is not allowed" in result.error


def test_timeout_kills_and_the_next_cell_runs_in_a_fresh_child(sandbox):
    work = sandbox.new_work_dir()
    sandbox.run("kept = 1", work)
    pid = sandbox.info["pid"]
    started = time.monotonic()
    result = sandbox.run("while True:\n    pass", work, timeout=1.5)
    assert result.stage == "timeout" and result.restarted
    assert time.monotonic() - started < 10
    after = sandbox.run("print('alive')", work)
    assert after.ok and after.stdout == "alive\n" and sandbox.info["pid"] != pid
    assert "not defined" in sandbox.run("print(kept)", work).error


def test_cancel_stops_a_running_cell(sandbox):
    work = sandbox.new_work_dir()
    cancel = threading.Event()
    threading.Timer(0.5, cancel.set).start()
    started = time.monotonic()
    result = sandbox.run("while True:\n    pass", work, timeout=60, cancel_event=cancel)
    assert result.stage == "cancelled" and time.monotonic() - started < 10
    assert sandbox.run("print(1)", work).stdout == "1\n"


def test_work_dir_outside_the_root_restarts_the_child_there(tmp_path):
    with Sandbox(root=tmp_path / "first", timeout=30, preload=[]) as box:
        (tmp_path / "first").mkdir(exist_ok=True)
        assert box.run("print('a')", tmp_path / "first").ok
        other = tmp_path / "second"
        other.mkdir()
        result = box.run("open('x.txt', 'w').write('x')\nprint('b')", other)
        assert result.ok and result.restarted and box.starts == 2
        assert (other / "x.txt").read_text() == "x"


def test_exec_script_contract(tmp_path, points_shp):
    script = tmp_path / "job.py"
    script.write_text("import geopandas as gpd\ng = gpd.read_file('towns.shp')\ng.to_file('out.gpkg')\nprint(len(g))\n")
    report = exec_script(script, tmp_path / "work", inputs=[points_shp], timeout=60)
    assert set(report) == {"ok", "error", "stdout", "outputs"}
    assert report["ok"] and report["error"] is None and report["stdout"] == "3\n"
    assert report["outputs"] == [{"path": str((tmp_path / "work" / "out.gpkg").resolve()), "kind": "vector"}]
    json.dumps(report)


def test_work_dir_must_not_be_home_or_a_system_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    (tmp_path / "home" / ".ssh").mkdir(parents=True)
    script = tmp_path / "s.py"
    script.write_text("print(1)")
    for folder in (tmp_path / "home", tmp_path / "home" / ".ssh", tmp_path, Path("/tmp")):
        report = exec_script(script, folder)
        assert not report["ok"] and "too broad (or too private)" in report["error"], folder


def test_exec_script_errors_are_reported_not_raised(tmp_path):
    missing = exec_script(tmp_path / "nope.py", tmp_path / "w")
    assert not missing["ok"] and "cannot be read" in missing["error"]
    script = tmp_path / "s.py"
    script.write_text("print(1)")
    no_input = exec_script(script, tmp_path / "w", inputs=[tmp_path / "absent.gpkg"])
    assert not no_input["ok"] and "does not exist" in no_input["error"]


def test_find_python_prefers_the_setting_then_a_real_interpreter(tmp_path):
    assert find_python(sys.executable) == sys.executable
    assert Path(find_python()).name.startswith("python")


def test_find_python_inside_qgis_looks_next_to_it(tmp_path, monkeypatch):
    """In QGIS on Windows/macOS sys.executable is QGIS itself: never return it, find the bundled python."""
    prefix = tmp_path / "apps" / "Python311"
    (prefix / "bin").mkdir(parents=True)
    bundled = prefix / "bin" / "python3"
    bundled.symlink_to(sys.executable)
    monkeypatch.setattr(sys, "executable", str(tmp_path / "qgis-bin"))
    monkeypatch.setattr(sys, "_base_executable", str(tmp_path / "qgis-bin"), raising=False)
    monkeypatch.setattr(sys, "exec_prefix", str(prefix))
    monkeypatch.delenv("GEOCLERK_PYTHON", raising=False)
    assert find_python() == str(bundled)
    custom = tmp_path / "custom-python"
    custom.symlink_to(bundled)
    monkeypatch.setenv("GEOCLERK_PYTHON", str(custom))
    assert find_python() == str(custom)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Landlock is Linux-only")
def test_landlock_layer_alone_confines_files_and_network(tmp_path):
    """Layer (c) without any Python hook: the kernel refuses writes, secret reads and TCP connects."""
    import socket

    work, secret = tmp_path / "work", tmp_path / "secret.txt"
    work.mkdir()
    secret.write_text("s")
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    code = f"""
import sys, os, socket
sys.path.insert(0, {str(WORKER_DIR)!r})
import landlock
abi = landlock.restrict([{str(work)!r}], [sys.prefix, sys.base_prefix, '/usr', '/lib'])
if abi == 0:
    print('NOLANDLOCK'); sys.exit(0)
def attempt(fn):
    try:
        fn(); return 'allowed'
    except PermissionError:
        return 'denied'
print(attempt(lambda: open({str(work / "ok.txt")!r}, 'w').write('x')),
      attempt(lambda: open({str(tmp_path / "evil.txt")!r}, 'w')),
      attempt(lambda: open({str(secret)!r}).read()),
      attempt(lambda: socket.create_connection(('127.0.0.1', {listener.getsockname()[1]}), timeout=2)))
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    listener.close()
    if "NOLANDLOCK" in out.stdout:
        pytest.skip("this kernel has no Landlock")
    assert out.stdout.split() == ["allowed", "denied", "denied", "denied"], out.stderr
    assert not (tmp_path / "evil.txt").exists()
