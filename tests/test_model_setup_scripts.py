"""`make model` and `make demo-model` on a fresh Debian: safe unpacking with or without tarfile's filter, and a slow
demo request that ends with a message instead of a TimeoutExpired traceback."""

from __future__ import annotations

import importlib.util
import io
import sys
import tarfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _load(name: str):
    spec = importlib.util.spec_from_file_location(f"gc_{name}", ROOT / "scripts" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


model = _load("model")
demo = _load("demo")


def _tar(path: Path, members: list[tuple[str, bytes | None, str | None]]) -> Path:
    """A .tar.gz with (name, file bytes or None, symlink target or None) members."""
    with tarfile.open(path, "w:gz") as archive:
        for name, data, link in members:
            info = tarfile.TarInfo(name)
            if link is not None:
                info.type, info.linkname = tarfile.SYMTYPE, link
                archive.addfile(info)
            else:
                info.size = len(data)
                archive.addfile(info, io.BytesIO(data))
    return path


@pytest.fixture(params=["with filter", "without filter (Python < 3.11.4)"])
def filter_mode(request, monkeypatch):
    if request.param.startswith("without"):
        monkeypatch.delattr(tarfile, "data_filter", raising=False)  # what Debian 12's Python 3.11.2 lacks
    elif not hasattr(tarfile, "data_filter"):  # Debian 12's own Python: only the path without the filter exists here
        pytest.skip(f"Python {sys.version.split()[0]} has no tarfile filter (needs >= 3.11.4)")
    return request.param


def test_a_clean_archive_is_unpacked(tmp_path, filter_mode):
    members = [("pkg-1.0/setup.py", b"print('hi')\n", None), ("pkg-1.0/ln", None, "setup.py")]
    sdist = _tar(tmp_path / "pkg.tar.gz", members)
    dest = tmp_path / "build"
    dest.mkdir()
    model.extract_safely(sdist, dest)
    assert (dest / "pkg-1.0" / "setup.py").read_bytes() == b"print('hi')\n"
    assert (dest / "pkg-1.0" / "ln").resolve() == (dest / "pkg-1.0" / "setup.py").resolve()


@pytest.mark.parametrize(
    "member",
    [
        ("../escaped.txt", b"x", None),
        ("/tmp/absolute-geoclerk-test.txt", b"x", None),
        ("pkg-1.0/../../escaped.txt", b"x", None),
        ("pkg-1.0/link", None, "../../outside"),
        ("pkg-1.0/abslink", None, "/etc/passwd"),
    ],
    ids=["dotdot", "absolute", "nested-dotdot", "symlink-out", "symlink-absolute"],
)
def test_a_member_leaving_the_folder_is_refused(tmp_path, filter_mode, member):
    sdist = _tar(tmp_path / "evil.tar.gz", [("pkg-1.0/ok.txt", b"ok", None), member])
    dest = tmp_path / "a" / "build"
    dest.mkdir(parents=True)
    with pytest.raises(SystemExit) as err:
        model.extract_safely(sdist, dest)
    assert "refusing to unpack" in str(err.value)
    assert not (tmp_path / "a" / "escaped.txt").exists() and not (tmp_path / "escaped.txt").exists()
    if filter_mode.startswith("without"):  # checked before anything is written
        assert not (dest / "pkg-1.0" / "ok.txt").exists()


def test_a_slow_demo_request_ends_with_a_message(tmp_path, monkeypatch):
    slow = tmp_path / "slow-geoclerk"
    slow.write_text(f"#!{sys.executable}\nimport time\ntime.sleep(30)\n")
    slow.chmod(0o755)
    monkeypatch.setattr(demo, "GEOCLERK", slow)
    report, elapsed = demo.run_cli("Find the best place for a new school", [], tmp_path / "out", timeout_s=0.5)
    assert report["status"] == "error"
    assert report["error"].startswith("stopped after 0.5 s")
    assert "geoclerk run" in report["error"]
    assert elapsed < 30  # the child was stopped, not waited for
