"""Escape attempts against the code sandbox, one per row: refused or contained, it recovers, nothing else changes."""

# STATIC rows go through the ast check; RUNTIME rows skip it (check=False) to prove the child's guards hold alone.

from __future__ import annotations

import socket
from pathlib import Path

import pytest
from geoclerk.codegen.policy import Limits
from geoclerk.codegen.sandbox import Sandbox

SECRET = "SECRET-KEY-DO-NOT-LEAK"
AUTH = "AUTHDB-DO-NOT-LEAK"
API_KEY = "sk-test-leak-me-not"

STATIC = [
    ("delete_outside", "import os\nos.remove('{sentinel}')", "outside the work dir"),
    ("write_outside_open", "open('{sentinel}', 'w').write('pwned')", "outside the work dir"),
    ("write_outside_pathlib", "from pathlib import Path\nPath('{sentinel}').write_text('pwned')", "outside the work"),
    ("read_ssh_key", "print(open('{home}/.ssh/id_rsa').read())", "outside the work dir"),
    ("read_auth_db", "import geopandas as gpd\nprint(gpd.read_file('{authdb}'))", "outside the work dir"),
    ("read_home_document", "import pandas as pd\npd.read_csv('{home}/Documents/private.csv')", "outside the work"),
    ("socket", "import socket\nsocket.create_connection(('127.0.0.1', {port}))", "import of 'socket'"),
    ("requests", "import requests\nrequests.get('http://127.0.0.1:{port}')", "import of 'requests'"),
    ("urllib", "import urllib.request\nurllib.request.urlopen('http://127.0.0.1:{port}')", "import of 'urllib"),
    ("url_via_gdal", "import geopandas as gpd\ngpd.read_file('https://example.com/a.geojson')", "url"),
    ("subprocess", "import subprocess\nsubprocess.run(['touch', '{outside}/pwned'])", "import of 'subprocess'"),
    ("os_system", "import os\nos.system('touch {outside}/pwned')", "os.system is not allowed"),
    ("fork_bomb", "import os\nwhile True:\n    os.fork()", "os.fork is not allowed"),
    ("ctypes", "import ctypes\nctypes.CDLL(None).system(b'touch {outside}/pwned')", "import of 'ctypes'"),
    ("importlib", "import importlib\nimportlib.import_module('os').system('id')", "import of 'importlib'"),
    ("dunder_import", "__import__('os').system('touch {outside}/pwned')", "'__import__'"),
    ("builtins_dict", "__builtins__['__import__']('os').system('id')", "'__builtins__'"),
    ("subclasses", "[c for c in ().__class__.__base__.__subclasses__() if 'wrap' in c.__name__]", "private attribute"),
    ("getattr_dunder", "getattr(getattr((), '__cl' + 'ass__'), '__subclasses__')()", "getattr()"),
    ("sys_modules", "import sys\nsys.modules['json'] = sys.modules['os']", "import of 'sys'"),
    ("signal", "import signal\nsignal.signal(signal.SIGTERM, signal.SIG_IGN)", "import of 'signal'"),
    ("eval", "eval(\"__imp\" + \"ort__('os').system('id')\")", "'eval'"),
    ("exec", "exec('import os')", "'exec'"),
    ("attribute_chain", "import zipfile\nzipfile.os.system('touch {outside}/pwned')", "'.system'"),
    ("threading", "import threading\nthreading.Thread(target=lambda: None).start()", "import of 'threading'"),
    ("pickle", "import pickle\npickle.loads(b'cos\\nsystem\\n(S\"id\"\\ntR.')", "import of 'pickle'"),
    ("shutil_rmtree", "import shutil\nshutil.rmtree('{outside}')", "outside the work dir"),
    ("frame_walk", "import warnings\nf = warnings.sys.exc_info()\nprint(f[2].tb_frame.f_back.f_locals)", "'sys'"),
    # `import os` and `shutil` are allowed: their dangerous functions and outside paths are refused by name.
    ("os_popen", "import os\nos.popen('id').read()", "os.popen is not allowed"),
    ("os_execv", "import os\nos.execv('/bin/sh', ['sh'])", "os.execv is not allowed"),
    ("os_kill", "import os\nos.kill(os.getppid(), 9)", "os.kill is not allowed"),
    ("os_chroot", "import os\nos.chroot('.')", "os.chroot is not allowed"),
    ("from_os_import_system", "from os import system\nsystem('id')", "os.system is not allowed"),
    ("os_chmod_outside", "import os\nos.chmod('{sentinel}', 0o777)", "outside the work dir"),
    ("os_symlink_etc", "import os\nos.symlink('/etc', 'etc')", "outside the work dir"),
    ("os_open_passwd", "import os\nos.open('/etc/passwd', os.O_RDONLY)", "outside the work dir"),
    ("os_listdir_root", "import os\nprint(os.listdir('/root'))", "outside the work dir"),
    ("os_environ_proxy", "import os\nos.environ['GDAL_HTTP_PROXY'] = '127.0.0.1:{port}'", "environment variable"),
    ("private_submodule", "import pyogrio._io as raw\nraw.ogr_read('{authdb}')", "private module"),
    ("rasterio_url", "import rasterio\nrasterio.open('http://127.0.0.1:{port}/a.tif')", "url or virtual path"),
]  # fmt: skip

RUNTIME = [
    ("rt_write_outside", "open('{sentinel}', 'w').write('pwned')", "outside the work dir"),
    ("rt_delete_outside", "import pathlib\npathlib.Path('{sentinel}').unlink()", "outside the work dir"),
    ("rt_rename_outside", "import pathlib\npathlib.Path('{sentinel}').rename('stolen.txt')", "outside the work dir"),
    ("rt_mkdir_outside", "import pathlib\npathlib.Path('{outside}/newdir').mkdir()", "outside the work dir"),
    ("rt_read_ssh_key", "print(open('{home}/.ssh/id_rsa').read())", "not allowed"),
    ("rt_read_home_document", "import pandas as pd\npd.read_csv('{home}/Documents/private.csv')", "not allowed"),
    ("rt_vrt_pointing_outside", "open('x.vrt', 'w').write('<OGRVRTDataSource><OGRVRTLayer name=\"k\"><SrcDataSource>"
     "{home}/Documents/private.csv</SrcDataSource></OGRVRTLayer></OGRVRTDataSource>')\n"
     "import geopandas as gpd\nprint(gpd.read_file('x.vrt'))", "VRT"),
    ("rt_read_auth_db_gdal", "import geopandas as gpd\nprint(gpd.read_file('{authdb}'))", "not allowed"),
    ("rt_read_parent_environ", "import zipfile\nprint(open('/proc/%d/environ' % zipfile.os.getppid()).read())",
     "not allowed"),
    ("rt_write_outside_gdal", "import geopandas as gpd\nfrom shapely.geometry import Point\n"
     "gpd.GeoDataFrame(geometry=[Point(0, 0)], crs=3857).to_file('{outside}/evil.gpkg')", "outside the work dir"),
    ("rt_import_sys", "import sys", "import of 'sys' is not allowed"),
    ("rt_dunder_import", "__import__('subprocess')", "import of 'subprocess' is not allowed"),
    ("rt_from_import", "from pathlib import sys", "importing 'sys' from 'pathlib'"),
    ("rt_eval_removed", "eval('1 + 1')", "name 'eval' is not defined"),
    ("rt_getattr_private", "import zipfile\ngetattr(zipfile.os, '_exit')(0)", "private attribute"),
    ("rt_os_system", "import zipfile\nzipfile.os.system('touch {outside}/pwned')", "os.system"),
    ("rt_posix_spawn", "import zipfile\nzipfile.os.posix_spawn('/bin/touch', ['touch', '{outside}/pwned'], {{}})",
     "os.posix_spawn"),
    ("rt_subprocess", "import matplotlib\nmatplotlib.subprocess.run(['touch', '{outside}/pwned'])", "subprocess.Popen"),
    ("rt_fork_bomb", "import zipfile\nwhile True:\n    zipfile.os.fork()", "os.fork"),
    ("rt_kill_parent", "import zipfile\nzipfile.os.kill(zipfile.os.getppid(), 9)", "another process"),
    ("rt_socket", "import warnings\nsk = warnings.sys.modules['importlib'].import_module('socket')\n"
     "sk.create_connection(('127.0.0.1', {port}))", "socket"),
    ("rt_ctypes", "import warnings\nct = warnings.sys.modules['ctypes']\nct.CDLL(None).system(b'touch {outside}/p')",
     "ctypes"),
    ("rt_ctypes_pythonapi", "import warnings\nwarnings.sys.modules['ctypes'].pythonapi.system(b'id')", "ctypes.dlsym"),
    ("rt_rlimit_raise", "import warnings\nr = warnings.sys.modules['resource']\nr.setrlimit(r.RLIMIT_AS, (-1, -1))",
     "resource.setrlimit"),
    ("rt_chdir_then_write", "import zipfile\nzipfile.os.chdir('/')\nopen('pwned.txt', 'w')", "outside the work dir"),
    ("rt_symlink_escape", "import pathlib\npathlib.Path('link').symlink_to('{outside}')\n"
     "open('link/sentinel.txt', 'w').write('pwned')", "outside the work dir"),
    ("rt_sys_modules_patch", "import warnings\nwarnings.sys.modules['json'] = warnings.sys.modules['os']\n"
     "import json\njson.system('touch {outside}/pwned')", "os.system"),
    ("rt_infinite_loop", "while True:\n    pass", "longer than"),
    ("rt_signal_tamper_then_loop", "import warnings\nsg = warnings.sys.modules['signal']\n"
     "sg.signal(sg.SIGTERM, sg.SIG_IGN)\nsg.signal(sg.SIGINT, sg.SIG_IGN)\nwhile True:\n    pass", "longer than"),
    ("rt_exit_process", "import zipfile\ngetattr(zipfile.os, 'abort')()", "died"),
    ("rt_memory_bomb", "x = bytearray(8 * 1024 ** 3)", "MemoryError"),
    ("rt_memory_bomb_list", "x = [0] * (10 ** 10)", "MemoryError"),
    ("rt_10gb_file", "f = open('big.bin', 'wb')\nf.seek(10 * 1024 ** 3)\nf.write(b'x')\nf.close()", "too large"),
    ("rt_runaway_thread", "import zipfile\nzipfile.threading.Thread(target=lambda: any(False for _ in iter(int, 1)), "
     "daemon=True).start()", "thread"),
    ("rt_thread_flood", "import zipfile\nev = zipfile.threading.Event()\n"
     "[zipfile.threading.Thread(target=ev.wait, daemon=True).start() for _ in range(200)]", "more than 16 threads"),
    ("rt_system_exit", "raise SystemExit(3)", "exit()"),
    ("rt_os_popen", "import os\nos.popen('touch {outside}/pwned').read()", "subprocess.Popen"),
    ("rt_os_execv", "import os\nos.execv('/bin/touch', ['touch', '{outside}/pwned'])", "os.exec is not allowed"),
    ("rt_os_spawnv", "import os\nos.spawnv(os.P_WAIT, '/bin/touch', ['touch', '{outside}/pwned'])",
     "os.fork is not allowed"),
    ("rt_os_fork", "import os\nos.fork()", "os.fork is not allowed"),
    ("rt_os_kill_parent", "import os\nos.kill(os.getppid(), 15)", "another process"),
    ("rt_os_killpg", "import os\nos.killpg(os.getpgid(os.getppid()), 9)", "os.killpg is not allowed"),
    ("rt_os_chmod_outside", "import os\nos.chmod('{sentinel}', 0o777)", "outside the work dir"),
    ("rt_os_symlink_etc", "import os\nos.symlink('/etc', 'etc')\nprint(open('etc/passwd').read())", "outside the work"),
    ("rt_os_open_passwd", "import os\nfd = os.open('/etc/passwd', os.O_RDONLY)\nprint(os.read(fd, 99))", "not all"),
    ("rt_os_listdir_root", "import os\nprint(os.listdir('/root'))", "not allowed"),
    ("rt_os_scandir_ssh", "import os\nprint([e.name for e in os.scandir('{home}/.ssh')])", "not allowed"),
    ("rt_os_walk_home", "import os\nprint(list(os.walk('{home}')))", "not allowed"),
    ("rt_os_chdir_out", "import os\nos.chdir('{outside}')\nopen('pwned.txt', 'w')", "outside the work dir"),
    ("rt_os_remove_out", "import os\nos.remove('{sentinel}')", "outside the work dir"),
    ("rt_os_replace_out", "import os\nos.replace('{sentinel}', 'stolen.txt')", "outside the work dir"),
    ("rt_os_makedirs_out", "import os\nos.makedirs('{outside}/a/b')", "outside the work dir"),
    ("rt_os_putenv_curl", "import os\nos.environ['CPL_VSIL_CURL_ALLOWED_EXTENSIONS'] = '.tif'", "environment variable"),
    ("rt_os_unsetenv_proj", "import os\ndel os.environ['PROJ_NETWORK']", "environment variable"),
    ("rt_os_chroot", "import os\nos.chroot('.')", "os.chroot is not allowed"),
    ("rt_os_setsid", "import os\nos.setsid()", "os.setsid is not allowed"),
    ("rt_vrt_named_txt_vector", "open('x.txt', 'w').write('<OGRVRTDataSource><OGRVRTLayer name=\"k\"><SrcDataSource>"
     "{home}/Documents/private.csv</SrcDataSource></OGRVRTLayer></OGRVRTDataSource>')\n"
     "import geopandas as gpd\nprint(gpd.read_file('x.txt'))", "point GDAL at other files"),
    ("rt_vrt_named_dat_raster", "open('x.dat', 'w').write('<VRTDataset rasterXSize=\"1\" rasterYSize=\"1\">"
     "<VRTRasterBand dataType=\"Byte\" band=\"1\"><SimpleSource><SourceFilename>{authdb}</SourceFilename>"
     "</SimpleSource></VRTRasterBand></VRTDataset>')\nimport rasterio\nprint(rasterio.open('x.dat').read())",
     "point GDAL at other"),
    ("rt_tempfile_outside", "import tempfile\ntempfile.mkdtemp(dir='{outside}')", "outside the work dir"),
    ("rt_private_submodule", "import pyogrio._io as raw\nraw.ogr_read('{authdb}')", "import of 'pyogrio._io' is not"),
    ("rt_private_from_import", "from rasterio._io import DatasetWriterBase as W\nW('{outside}/x.tif', 'w')",
     "import of 'rasterio._io' is not"),
    ("rt_os_close_protocol", "import os\nfor fd in range(3, 64):\n    try:\n        os.close(fd)\n"
     "    except OSError:\n        pass\nprint('closed')", "died"),
    ("rt_shutil_rmtree_out", "import shutil\nshutil.rmtree('{outside}')", "outside the work dir"),
    ("rt_shutil_copy_secret", "import shutil\nshutil.copy('{home}/.ssh/id_rsa', 'k.txt')", "not allowed"),
    ("rt_shutil_move_out", "import shutil\nopen('x.txt', 'w').write('a')\nshutil.move('x.txt', '{outside}/x.txt')",
     "outside the work dir"),
    ("rt_rasterio_read_auth_db", "import rasterio\nrasterio.open('{authdb}')", "not allowed"),
    ("rt_rasterio_vsicurl", "import rasterio\nrasterio.open('/vsicurl/http://127.0.0.1:{port}/a.tif')", "not allowed"),
    ("rt_rasterio_write_outside", "import rasterio\nimport numpy as np\nwith rasterio.open('{outside}/e.tif', 'w', "
     "driver='GTiff', width=2, height=2, count=1, dtype='uint8') as d:\n    d.write(np.zeros((1, 2, 2), 'uint8'))",
     "outside the work dir"),
    ("rt_rasterio_inline_vrt", "import rasterio\nrasterio.open('<VRTDataset rasterXSize=\"1\" rasterYSize=\"1\">"
     "</VRTDataset>')", "inline"),
    ("rt_rasterio_vrt_file", "open('x.vrt', 'w').write('<VRTDataset rasterXSize=\"1\" rasterYSize=\"1\"/>')\n"
     "import rasterio\nrasterio.open('x.vrt')", "VRT files are not allowed"),
    ("rt_rasterio_env_curl", "import rasterio\nwith rasterio.Env(CPL_VSIL_CURL_ALLOWED_EXTENSIONS='.tif'):\n    pass",
     "GDAL option"),
    ("rt_rasterio_reader_direct", "import rasterio.io\nrasterio.io.DatasetReader('{authdb}')", "not allowed"),
    ("rt_rasterio_mem_driver", "import rasterio\nrasterio.open('MEM:::DATAPOINTER=0,PIXELS=1,LINES=1')", "driver-pre"),
    ("rt_rasterio_shutil_copy", "import rasterio.shutil\nrasterio.shutil.copy('{authdb}', 'a.tif')", "not allowed"),
    ("rt_rasterio_shutil_delete", "import rasterio.shutil\nrasterio.shutil.delete('{sentinel}')", "outside the work"),
]  # fmt: skip


def build_arena(base, limits):
    """A fake home with secrets, an outside folder with a sentinel, a listening socket, and one sandbox with
    these limits (a generator: yields the arena, then closes it)."""
    home = base / "home"
    (home / ".ssh").mkdir(parents=True)
    (home / ".ssh" / "id_rsa").write_text(SECRET)
    authdb = home / ".local/share/QGIS/QGIS3/profiles/default/qgis-auth.db"
    authdb.parent.mkdir(parents=True)
    authdb.write_text(AUTH)
    (home / "Documents").mkdir()
    (home / "Documents" / "private.csv").write_text(f"secret\n{SECRET}\n")
    outside = base / "outside"
    outside.mkdir()
    sentinel = outside / "sentinel.txt"
    sentinel.write_text("untouched")
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(4)
    listener.settimeout(0.01)
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("HOME", str(home))
        mp.setenv("OPENAI_API_KEY", API_KEY)
        sandbox = Sandbox(root=base / "sandbox", timeout=30, limits=limits)
        info = sandbox.start()
        yield {"sandbox": sandbox, "info": info, "home": home, "authdb": authdb, "outside": outside,
               "sentinel": sentinel, "listener": listener, "port": listener.getsockname()[1]}  # fmt: skip
        sandbox.close()
    listener.close()


@pytest.fixture(scope="module")
def arena(tmp_path_factory):
    yield from build_arena(tmp_path_factory.mktemp("escape"), Limits(max_threads=16))


def _state(arena) -> tuple:
    sentinel = arena["sentinel"]
    files = sorted(str(p.relative_to(arena["outside"])) for p in arena["outside"].rglob("*"))
    home = sorted((str(p), p.stat().st_mtime_ns) for p in arena["home"].rglob("*") if p.is_file())
    return sentinel.read_text(), sentinel.stat().st_mtime_ns, files, home


def _attack(arena, code: str, check: bool, timeout: float = 5.0):
    sandbox = arena["sandbox"]
    work = sandbox.new_work_dir("attack")
    fmt = {k: arena[k] for k in ("home", "authdb", "outside", "sentinel", "port")}
    before = _state(arena)
    result = sandbox.run(code.format(**fmt), work, timeout=timeout, check=check)
    return work, before, result


def _accepted_connection(listener) -> bool:
    try:
        conn, _ = listener.accept()
    except (TimeoutError, OSError):
        return False
    conn.close()
    return True


def _assert_contained(arena, work: Path, before: tuple, result, expected: str) -> None:
    assert not result.ok, f"the attack was not stopped: {result.stdout!r}"
    assert expected.lower() in (result.error or "").lower(), result.error
    text = (result.error or "") + result.stdout
    assert SECRET not in text and AUTH not in text and API_KEY not in text
    assert _state(arena) == before, "something outside the work dir changed"
    assert not _accepted_connection(arena["listener"]), "the code reached the network"
    after = arena["sandbox"].run("print(6 * 7)", work, timeout=30)
    assert after.ok and after.stdout == "42\n", after.error


@pytest.mark.parametrize(("name", "code", "expected"), STATIC, ids=[r[0] for r in STATIC])
def test_static_layer_refuses(arena, name, code, expected):
    work, before, result = _attack(arena, code, check=True)
    assert result.stage == "static"
    _assert_contained(arena, work, before, result, expected)


@pytest.mark.parametrize(("name", "code", "expected"), RUNTIME, ids=[r[0] for r in RUNTIME])
def test_runtime_layer_contains(arena, name, code, expected):
    work, before, result = _attack(arena, code, check=False, timeout=3.0)
    _assert_contained(arena, work, before, result, expected)


def test_api_key_not_in_child_environment(arena):
    work = arena["sandbox"].new_work_dir("env")
    code = "import zipfile\nenv = zipfile.os.environ\nprint(sorted(k for k in env if 'KEY' in k), env.get('HOME'))"
    result = arena["sandbox"].run(code, work, check=False)
    assert result.ok, result.error
    assert API_KEY not in result.stdout and "OPENAI_API_KEY" not in result.stdout
    assert str(arena["home"]) in result.stdout


def test_os_limits_applied(arena):
    work = arena["sandbox"].new_work_dir("limits")
    code = (
        "import warnings\nr = warnings.sys.modules['resource']\n"
        "print(r.getrlimit(r.RLIMIT_CORE)[0], r.getrlimit(r.RLIMIT_AS)[0], r.getrlimit(r.RLIMIT_FSIZE)[0], "
        "r.getrlimit(r.RLIMIT_NOFILE)[0], r.getrlimit(r.RLIMIT_CPU)[0] > 0)"
    )
    result = arena["sandbox"].run(code, work, check=False)
    assert result.ok, result.error
    assert result.stdout.split() == ["0", str(4 * 1024**3), str(512 * 1024**2), "256", "True"]


def test_attack_rows_are_distinct_per_layer():
    for rows in (STATIC, RUNTIME):
        codes = [row[1] for row in rows]
        assert len(codes) == len(set(codes))
    assert len(STATIC) >= 25 and len(RUNTIME) >= 30
