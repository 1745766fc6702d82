"""The os, shutil, tempfile and rasterio escape rows hold with Landlock off (macOS, Windows, old kernels)."""

from __future__ import annotations

import pytest
from geoclerk.codegen.policy import Limits
from geoclerk.tests.test_sandbox_escape import AUTH, RUNTIME, SECRET, build_arena

NEW_ROWS = [row for row in RUNTIME if row[0].startswith(("rt_os_", "rt_shutil_", "rt_rasterio_", "rt_vrt_named",
                                                          "rt_private_", "rt_tempfile_"))]  # fmt: skip


@pytest.fixture(scope="module")
def bare(tmp_path_factory):
    """The escape arena of test_sandbox_escape, with a sandbox whose only walls are the Python guards."""
    for arena in build_arena(tmp_path_factory.mktemp("bare"), Limits(landlock=False)):
        assert arena["info"]["landlock"] == 0
        yield arena


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
