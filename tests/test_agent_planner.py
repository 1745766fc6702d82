"""Planner–Worker through run_request and the scripted server: inspection, one subtask at a time, END."""

from __future__ import annotations

import json

import geopandas as gpd
import pytest
from geoclerk.tests import agent_toolkit
from geoclerk.tests.agent_toolkit import run
from shapely.geometry import Point

CIRCLE_100M = Point(0, 0).buffer(100).area
PLANNER_TOOLS = ["list_layers", "layer_metadata", "assign_subtask", "reject_task", "escalate_to_code"]
REQUEST = "buffer the big schools by 100 m"

server, layers = agent_toolkit.server, agent_toolkit.layers  # fixtures


def test_planner_worker_chain(server, layers, tmp_path):
    report = run(server, "planner_chain", layers, tmp_path, architecture="planner", request=REQUEST)
    assert report.status == "ok", report.error
    assert report.tier == 1
    assert [s["tool"] for s in report.steps] == ["filter_rows", "buffer"]
    assert report.answer.startswith("The 3 schools with more than 250 pupils")
    buffered = gpd.read_file(report.outputs[-1]["path"])
    assert buffered.geometry.area.sum() == pytest.approx(3 * CIRCLE_100M, rel=1e-3)
    planner_calls = [0, 1, 2, 5, 8]
    worker_calls = [3, 4, 6, 7]
    for i in planner_calls:
        assert server.tools_seen(i) == PLANNER_TOOLS
    for i in worker_calls:
        assert server.tools_seen(i) == ["buffer", "filter_rows", "count_features", "reject_task", "escalate_to_code"]
        # the Worker never sees the user's words, only its subtask
        assert REQUEST not in json.dumps(server.requests[i]["messages"])
    listing = json.loads(server.requests[1]["messages"][-1]["content"])
    assert listing["layers"] == ["schools", "districts"]
    metadata = server.requests[2]["messages"][-1]["content"]
    assert "pupils (integer)" in metadata
    review = json.loads(server.requests[5]["messages"][-1]["content"])
    assert review["worker_report"] == "Kept 3 schools in layer schools_filtered."
    assert report.usage.llm_calls == 9


def test_planner_metadata_of_a_result_layer(server, layers, tmp_path):
    replies = [
        {"tool_calls": [{"name": "assign_subtask", "arguments": {"subtask": "Buffer schools by 100 m."}}]},
        {"tool_calls": [{"name": "buffer", "arguments": {"layer": "schools", "distance": 100}}]},
        {"content": "Done: schools_buffer."},
        {"tool_calls": [{"name": "layer_metadata", "arguments": {"layer": "schools_buffer"}}]},
        {"content": "END: buffered."},
    ]
    report = run(server, replies, layers, tmp_path, architecture="planner")
    assert report.status == "ok"
    metadata = server.requests[4]["messages"][-1]["content"]
    assert "schools_buffer: vector, Polygon, 5 features, EPSG:32633" in metadata


def test_planner_refusal(server, layers, tmp_path):
    replies = [
        {"tool_calls": [{"name": "layer_metadata", "arguments": {"layer": "districts"}}]},
        {"tool_calls": [{"name": "reject_task", "arguments": {"reason": "districts has no population field"}}]},
    ]
    report = run(server, replies, layers, tmp_path, architecture="planner", request="population density per district")
    assert report.status == "rejected"
    assert "no population field" in report.answer
    assert report.outputs == []


def test_worker_failure_is_reported_to_the_planner(server, layers, tmp_path):
    replies = [
        {"tool_calls": [{"name": "assign_subtask", "arguments": {"subtask": "Compute the slope."}}]},
        {"tool_calls": [{"name": "reject_task", "arguments": {"reason": "no slope tool"}}]},
        {"tool_calls": [{"name": "escalate_to_code", "arguments": {"reason": "needs a DEM analysis"}}]},
    ]
    report = run(server, replies, layers, tmp_path, architecture="planner", route="function")
    review = json.loads(server.requests[2]["messages"][-1]["content"])
    assert review["worker_report"] == "could not finish (rejected): no slope tool"
    assert report.status == "error"
    assert "needs a DEM analysis" in report.error
