"""The 'local model file (GGUF)' provider: GeoClerk starts llama-server for the file as a managed subprocess on a
free loopback port, once per process, serves requests through it and stops it. Driven end to end with a stand-in
llama-server (tests/fake_llama_server.py) that plays scripted replies; the real model has `make test-model`."""

from __future__ import annotations

import json
import shutil
import stat
import sys
from pathlib import Path

import geopandas as gpd
import pytest
from geoclerk.agent.local_model import _SHARED, shared_server, stop_shared
from geoclerk.agent.pipeline import AgentConfig, run_request

SAMPLE = Path(__file__).resolve().parents[1] / "data" / "sample"
FAKE = Path(__file__).resolve().parent / "fake_llama_server.py"


@pytest.fixture
def fake_server(tmp_path, monkeypatch):
    """A llama-server stand-in program and a model file; the replies come from FAKE_LLAMA_REPLIES."""
    program = tmp_path / "llama-server"
    program.write_text(f'#!/bin/sh\nexec "{sys.executable}" "{FAKE}" "$@"\n')
    program.chmod(program.stat().st_mode | stat.S_IEXEC)
    model = tmp_path / "tiny.gguf"
    model.write_bytes(b"GGUF")
    monkeypatch.setenv("GEOCLERK_CACHE", str(tmp_path / "cache"))  # the server log lands here
    monkeypatch.setenv("FAKE_LLAMA_LOG", str(tmp_path / "requests.json"))
    yield program, model
    stop_shared()


def _cafes(tmp_path) -> str:
    target = tmp_path / "cafes.gpkg"
    shutil.copy(SAMPLE / "cafes.gpkg", target)
    return str(target)


def test_a_gguf_config_starts_the_server_once_and_serves_requests_through_it(fake_server, tmp_path, monkeypatch):
    program, model = fake_server
    accept = {"tool_calls": [{"name": "buffer", "arguments": {"layer": "cafes", "distance": 100}}]}
    monkeypatch.setenv("FAKE_LLAMA_REPLIES", json.dumps([accept, accept]))
    cafes = _cafes(tmp_path)
    config = AgentConfig(model="local", local_model=str(model), local_server=str(program))
    assert config.has_model and config.base_url is None  # no URL: GeoClerk makes one
    report = run_request("buffer the cafes by 100 m", [cafes], tmp_path / "out1", config)
    assert report.status == "ok", report.error
    assert report.tier == 0 and report.usage.llm_calls == 1  # the model confirmed the no-model plan
    out = gpd.read_file(report.outputs[-1]["path"])
    assert len(out) == len(gpd.read_file(cafes))
    running = next(iter(_SHARED.values()))
    assert config.base_url == running.base_url and running.base_url.startswith("http://127.0.0.1:")
    pid = running.process.pid
    second = AgentConfig(model="local", local_model=str(model), local_server=str(program))
    report = run_request("buffer the cafes by 100 m", [cafes], tmp_path / "out2", second)
    assert report.status == "ok", report.error
    assert len(_SHARED) == 1 and next(iter(_SHARED.values())).process.pid == pid  # the same server, not a new one
    process = running.process
    stop_shared()
    assert process.poll() is not None and not _SHARED  # stopped, memory freed
    sent = json.loads((tmp_path / "requests.json").read_text())
    assert len(sent) == 2 and "Proposed call" in sent[0]["messages"][-1]["content"]


def test_a_missing_model_file_is_a_settings_error_not_a_crash(fake_server, tmp_path):
    program, _ = fake_server
    config = AgentConfig(model="local", local_model=str(tmp_path / "nowhere.gguf"), local_server=str(program))
    report = run_request("buffer the cafes by 100 m", [_cafes(tmp_path)], tmp_path / "out", config)
    assert report.status == "error" and report.fix_in_settings
    assert "nowhere.gguf" in report.error and "missing" in report.error
    assert not report.outputs


def test_another_model_file_replaces_the_running_server(fake_server, tmp_path):
    program, model = fake_server
    first = shared_server(model, program)
    other = tmp_path / "other.gguf"
    other.write_bytes(b"GGUF")
    second = shared_server(other, program)
    assert first.process is None and second.process.poll() is None  # one model in memory at a time
    assert shared_server(other, program) is second


def test_the_server_gets_half_the_cores_for_generation(tmp_path):
    """One thread on this 2-core machine (two collapsed below 1 token/s while QGIS and the sandbox worked), but not
    one on a user's 8-core laptop, where a single thread made every request several times slower than needed."""
    import os

    from geoclerk.agent.local_model import LocalModelServer, default_threads

    assert [default_threads(n) for n in (1, 2, 3, 8, 16)] == [1, 1, 1, 4, 8]
    server = LocalModelServer(model=tmp_path / "m.gguf", server=tmp_path / "llama-server")
    assert server.threads == max(1, (os.cpu_count() or 2) // 2)
    assert LocalModelServer(model=tmp_path / "m.gguf", server=tmp_path / "s", threads=3).threads == 3
