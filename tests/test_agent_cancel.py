"""Cancellation at any point of a model-served request leaves no outputs behind and answers promptly."""

from __future__ import annotations

import threading
import time

from geoclerk.agent.pipeline import run_request
from geoclerk.tests import agent_toolkit
from geoclerk.tests.agent_toolkit import TinyRouter, config_for, tiny_registry

server, layers = agent_toolkit.server, agent_toolkit.layers  # fixtures

BUFFER = {"tool_calls": [{"name": "buffer", "arguments": {"layer": "schools", "distance": 100}}]}


def _run(server, layers, tmp_path, cancel, **extra):
    return run_request(
        "buffer schools by 100 m then count them",
        [layers["schools"]],
        tmp_path / "out",
        config_for(server, **extra),
        registry=tiny_registry(),
        router=TinyRouter(),
        cancel_event=cancel,
    )


def test_cancel_while_waiting_for_the_model(server, layers, tmp_path):
    cancel = threading.Event()
    server.add({"delay": 4, "content": "late"})
    threading.Timer(0.3, cancel.set).start()
    t0 = time.perf_counter()
    report = _run(server, layers, tmp_path, cancel)
    assert time.perf_counter() - t0 < 2.5  # did not wait for the 4 s reply
    assert report.status == "error" and "cancelled" in report.error
    assert report.outputs == []


def test_cancel_after_a_tool_ran_removes_its_output(server, layers, tmp_path):
    cancel = threading.Event()

    def cancel_then_answer(body):
        cancel.set()  # the user presses Stop while the model thinks about round two
        time.sleep(0.3)
        return {"content": "done"}

    server.add(BUFFER, cancel_then_answer)
    report = _run(server, layers, tmp_path, cancel)
    assert report.status == "error" and "cancelled" in report.error
    assert report.outputs == [] and report.steps[0]["tool"] == "buffer"
    assert list((tmp_path / "out").iterdir()) == []  # the buffer written in round one is gone


def test_cancel_mid_stream(server, layers, tmp_path):
    cancel = threading.Event()

    def slow_stream(body):
        threading.Timer(0.2, cancel.set).start()
        return {"delay": 1, "stream": True, "content": "a long answer " * 50}

    server.add(BUFFER, slow_stream)
    report = _run(server, layers, tmp_path, cancel, stream=True)
    assert report.status == "error" and "cancelled" in report.error
    assert list((tmp_path / "out").iterdir()) == []


def test_cancel_before_start_runs_nothing(server, layers, tmp_path):
    cancel = threading.Event()
    cancel.set()
    server.add(BUFFER)
    report = _run(server, layers, tmp_path, cancel)
    assert report.status == "error" and "cancelled" in report.error
    assert server.requests == []
