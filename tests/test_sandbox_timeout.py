"""Timeouts and crashes keep what the code printed, count only the code's own run, and say how long it ran."""

from __future__ import annotations

import re
import time

import pytest
from geoclerk.codegen.api import exec_script
from geoclerk.codegen.sandbox import Sandbox


@pytest.fixture(scope="module")
def sandbox(tmp_path_factory):
    box = Sandbox(root=tmp_path_factory.mktemp("timeouts"), timeout=30)
    box.start()
    yield box
    box.close()


def _ran_for(error: str) -> float:
    found = re.search(r"stopped after ([0-9.]+) s", error)
    assert found, error
    return float(found.group(1))


def test_timeout_keeps_flushed_and_unflushed_output(sandbox):
    work = sandbox.new_work_dir()
    code = "import time\nprint('start', flush=True)\nprint('step 1')\nwhile True:\n    time.sleep(0.05)"
    started = time.monotonic()
    result = sandbox.run(code, work, timeout=1.5)
    wall = time.monotonic() - started
    assert result.stage == "timeout" and not result.ok
    assert result.stdout == "start\nstep 1\n"
    assert 1.4 <= _ran_for(result.error) <= 1.5 + 1.0 and "1.5 s limit" in result.error
    assert wall < 1.5 + 3
    assert sandbox.run("print('next')", work).stdout == "next\n"


def test_timeout_in_a_busy_loop_keeps_output_too(sandbox):
    result = sandbox.run("print('before the loop')\nwhile True:\n    pass", sandbox.new_work_dir(), timeout=1.0)
    assert result.stage == "timeout" and result.stdout == "before the loop\n"


def test_a_crash_keeps_the_output_printed_before_it(sandbox):
    code = "import zipfile\nprint('about to crash', flush=True)\ngetattr(zipfile.os, 'abort')()"
    result = sandbox.run(code, sandbox.new_work_dir(), check=False)
    assert result.stage == "crash" and result.stdout == "about to crash\n", result.error


def test_long_output_before_a_timeout_keeps_its_tail(sandbox):
    code = "for i in range(150000):\n    print(f'{i:09d}', flush=True)\nwhile True:\n    pass"
    result = sandbox.run(code, sandbox.new_work_dir(), timeout=8.0)
    assert result.stage == "timeout"
    assert result.stdout.endswith("000149998\n000149999\n") and len(result.stdout) == 1_000_000


def test_printing_with_flush_in_a_loop_stays_fast(sandbox):
    """Every flush=True does not become a message: shipments are at least 50 ms apart."""
    code = "for i in range(150000):\n    print(f'{i:09d}', flush=True)"
    started = time.monotonic()
    result = sandbox.run(code, sandbox.new_work_dir(), timeout=30)
    assert result.ok and result.stdout.endswith("000149999\n") and len(result.stdout) == 1_000_000
    assert time.monotonic() - started < 10


def test_normal_cells_get_their_whole_output_once(sandbox):
    code = "import time\nfor i in range(4):\n    print(i, flush=True)\n    time.sleep(0.2)"
    result = sandbox.run(code, sandbox.new_work_dir())
    assert result.ok and result.stdout == "0\n1\n2\n3\n"
    assert sandbox.run("print('after')", sandbox.new_work_dir()).stdout == "after\n"  # no stray chunk is taken


def test_exec_timeout_counts_the_script_not_the_cold_start(tmp_path):
    script = tmp_path / "forever.py"
    script.write_text("import time\nprint('start', flush=True)\nwhile True:\n    time.sleep(0.1)\n")
    started = time.monotonic()
    report = exec_script(script, tmp_path / "work", timeout=2)
    wall = time.monotonic() - started
    assert not report["ok"] and report["stdout"] == "start\n"
    assert 1.9 <= _ran_for(report["error"]) < 3.0
    assert "2 s limit" in report["error"] and "sandbox process was stopped" in report["error"]
    assert wall < 2 + 20  # the cold start (no scikit-learn preload here) is outside the limit but stays short
