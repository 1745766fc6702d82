"""`geoclerk run` QA4 fixes: SIGTERM cleans up the sandbox like Ctrl-C; bad --timeout/--base-url are usage errors."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

import pytest
from geoclerk.tests import agent_toolkit
from geoclerk.tests.agent_toolkit import KEY

server, layers = agent_toolkit.server, agent_toolkit.layers  # fixtures

GEOCLERK = Path(__file__).resolve().parent.parent / ".venv" / "bin" / "geoclerk"
pytestmark = pytest.mark.skipif(not GEOCLERK.exists(), reason="the geoclerk command is not installed (make setup)")


def _env(tmp: Path) -> dict:
    env = dict(os.environ, GEOCLERK_API_KEY=KEY, QT_QPA_PLATFORM="offscreen", TMPDIR=str(tmp))
    env.pop("OPENAI_API_KEY", None)
    return env


def _descendants(pid: int) -> set[int]:
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(entry.name))
    found, todo = set(), [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.add(child)
            todo.append(child)
    return found


def _alive(pid: int) -> bool:
    try:
        state = (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_sigterm_during_tier2_kills_the_sandbox_and_removes_its_work_dir(server, layers, tmp_path):
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    server.add({"content": "```python\nimport time\nwhile True:\n    time.sleep(0.2)\n```"})
    cmd = [str(GEOCLERK), "run", "buffer schools by 500 m", "--input", layers["schools"], "--out-dir",
           str(tmp_path / "out"), "--base-url", server.url, "--model", "scripted", "--route", "codegen",
           "--engine", "geopandas", "--json"]  # fmt: skip
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=_env(tmp))
    try:
        deadline = time.monotonic() + 120
        while not server.requests and time.monotonic() < deadline:
            time.sleep(0.2)
        assert server.requests, "the CLI never asked the model"
        time.sleep(3)  # the script is running in the sandbox now
        children = _descendants(proc.pid)
        assert children and list(tmp.glob("geoclerk-code-*"))
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 143 and "terminated" in err
    time.sleep(0.5)
    assert [p for p in children if _alive(p)] == []
    assert list(tmp.glob("geoclerk-code-*")) == []


@pytest.mark.parametrize(
    "extra, words",
    [
        (["--timeout", "0"], "--timeout must be positive"),
        (["--timeout", "-1"], "--timeout must be positive"),
        (["--base-url", "notaurl"], "--base-url notaurl is not a URL"),
        (["--base-url", "ftp://u:sk-9@host/v1"], "--base-url ftp://host/v1 is not a URL"),
    ],
)
def test_bad_timeout_and_base_url_are_usage_errors(layers, tmp_path, extra, words):
    cmd = [str(GEOCLERK), "run", "buffer schools by 500 m", "--input", layers["schools"], "--out-dir",
           str(tmp_path / "out"), "--model", "m", *extra]  # fmt: skip
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120, env=_env(tmp_path))
    assert proc.returncode == 2 and words in proc.stderr and "sk-9" not in proc.stderr
