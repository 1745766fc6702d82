"""The os, shutil, tempfile and rasterio escape rows hold with Landlock off (macOS, Windows, old kernels)."""

from __future__ import annotations

import socket

import pytest
from geoagent.codegen.policy import Limits
from geoagent.codegen.sandbox import Sandbox
from geoagent.tests.test_sandbox_escape import API_KEY, AUTH, RUNTIME, SECRET

NEW_ROWS = [row for row in RUNTIME if row[0].startswith(("rt_os_", "rt_shutil_", "rt_rasterio_", "rt_vrt_named",
                                                          "rt_private_", "rt_tempfile_"))]  # fmt: skip


@pytest.fixture(scope="module")
def bare(tmp_path_factory):
    """The escape arena of test_sandbox_escape, with a sandbox whose only walls are the Python guards."""
    base = tmp_path_factory.mktemp("bare")
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
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("HOME", str(home))
        mp.setenv("OPENAI_API_KEY", API_KEY)
        sandbox = Sandbox(root=base / "sandbox", timeout=30, limits=Limits(landlock=False))
        info = sandbox.start()
        assert info["landlock"] == 0
        yield {"sandbox": sandbox, "home": home, "authdb": authdb, "outside": outside, "sentinel": sentinel,
               "port": listener.getsockname()[1]}  # fmt: skip
        sandbox.close()
    listener.close()


def test_the_rows_are_there():
    assert len(NEW_ROWS) >= 35


@pytest.mark.parametrize(("name", "code", "expected"), NEW_ROWS, ids=[r[0] for r in NEW_ROWS])
def test_python_guards_alone_contain(bare, name, code, expected):
    sandbox = bare["sandbox"]
    work = sandbox.new_work_dir("bare")
    before = sorted(p.name for p in bare["outside"].iterdir()), bare["sentinel"].stat().st_mtime_ns
    fmt = {k: bare[k] for k in ("home", "authdb", "outside", "sentinel", "port")}
    result = sandbox.run(code.format(**fmt), work, timeout=3.0, check=False)
    assert not result.ok, f"not stopped without Landlock: {result.stdout!r}"
    assert expected.lower() in (result.error or "").lower(), result.error
    assert SECRET not in result.stdout + (result.error or "") and AUTH not in result.stdout + (result.error or "")
    assert (sorted(p.name for p in bare["outside"].iterdir()), bare["sentinel"].stat().st_mtime_ns) == before
    assert bare["sentinel"].read_text() == "untouched"
