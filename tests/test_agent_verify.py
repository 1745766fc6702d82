"""Draft and verify (agent/verify.py): with a model configured, a complete tier-0 plan is offered to the model as a
proposed call, over real HTTP to the scripted server; the model accepts it, corrects it, or refuses."""

from __future__ import annotations

import shutil
from pathlib import Path

import geopandas as gpd
import pytest
from geoclerk.agent.pipeline import AgentConfig, run_request
from geoclerk.tests import agent_toolkit
from geoclerk.tests.agent_toolkit import KEY, Plan, TinyRouter

SAMPLE = Path(__file__).resolve().parent.parent / "data" / "sample"
server = agent_toolkit.server  # fixture


@pytest.fixture
def cafes(tmp_path):
    target = tmp_path / "cafes.gpkg"
    shutil.copy(SAMPLE / "cafes.gpkg", target)
    return str(target)


def _run(server, registry, cafes, tmp_path, plan, request, **extra):
    router = TinyRouter(tools=["reproject", "buffer", "centroids"], plan=plan, confidence=0.99)
    config = AgentConfig(base_url=server.url, model="scripted", api_key=KEY, **extra)
    return run_request(request, [cafes], tmp_path / "out", config, registry, router)


def test_the_model_accepts_the_plan_in_one_round(server, registry, cafes, tmp_path):
    plan = Plan("reproject", {"layer": "cafes", "crs": "EPSG:4326"}, complete=True)
    server.add({"tool_calls": [{"name": "reproject", "arguments": {"layer": "cafes", "crs": "EPSG:4326"}}]})
    report = _run(server, registry, cafes, tmp_path, plan, "convert the cafes from EPSG:32633 to EPSG:4326")
    assert report.status == "ok", report.error
    assert report.tier == 0 and report.usage.llm_calls == 1
    assert gpd.read_file(report.outputs[-1]["path"]).crs.to_epsg() == 4326
    assert "confirmed" in " ".join(report.notes)
    assert server.tools_seen(0)[0] == "reproject" and "reject_task" in server.tools_seen(0)
    assert "Proposed call" in server.requests[0]["messages"][-1]["content"]
    assert report.answer.startswith("Reprojected cafes from EPSG:32633")


def test_the_model_corrects_a_swapped_source_and_target(server, registry, cafes, tmp_path):
    # a plan that read the source as the target: the model sends the corrected call, which runs
    plan = Plan("reproject", {"layer": "cafes", "crs": "EPSG:32633"}, complete=True)
    server.add({"tool_calls": [{"name": "reproject", "arguments": {"layer": "cafes", "crs": "EPSG:4326"}}]})
    report = _run(server, registry, cafes, tmp_path, plan, "convert the cafes from EPSG:32633 to EPSG:4326")
    assert report.status == "ok", report.error
    assert report.tier == 1 and report.usage.llm_calls == 1
    assert report.steps == [{"tool": "reproject", "params": {"layer": "cafes", "crs": "EPSG:4326"}}]
    assert gpd.read_file(report.outputs[-1]["path"]).crs.to_epsg() == 4326
    assert any("corrected" in e for e in report.escalations)


def test_a_correction_that_fails_the_requests_checks_is_not_ok(server, registry, cafes, tmp_path):
    # the model 'corrects' towards the wrong CRS: the result check (target CRS) catches it, then tier 1 runs
    plan = Plan("reproject", {"layer": "cafes", "crs": "EPSG:4326"}, complete=True)
    server.add(
        {"tool_calls": [{"name": "reproject", "arguments": {"layer": "cafes", "crs": "EPSG:3857"}}]},
        {"content": "I cannot do more."},
        {"content": "Still nothing."},
    )
    report = _run(server, registry, cafes, tmp_path, plan, "reproject the cafes from EPSG:32633 to EPSG:4326")
    assert report.status != "ok" or gpd.read_file(report.outputs[-1]["path"]).crs.to_epsg() == 4326
    assert report.outputs == [] or report.status == "ok"
    assert any("failed its checks" in e for e in report.escalations), report.escalations


def test_a_refusal_is_reported(server, registry, cafes, tmp_path):
    plan = Plan("reproject", {"layer": "cafes", "crs": "EPSG:4326"}, complete=True)
    server.add({"tool_calls": [{"name": "reject_task", "arguments": {"reason": "no hospitals layer is loaded"}}]})
    report = _run(server, registry, cafes, tmp_path, plan, "reproject the hospitals to EPSG:4326")
    assert report.status == "rejected" and "hospitals" in report.answer
    assert report.outputs == []


def test_trust_tier0_skips_the_confirmation(server, registry, cafes, tmp_path):
    plan = Plan("reproject", {"layer": "cafes", "crs": "EPSG:4326"}, complete=True)
    report = _run(server, registry, cafes, tmp_path, plan, "reproject the cafes to EPSG:4326", trust_tier0=True)
    assert report.status == "ok" and report.tier == 0
    assert report.usage.llm_calls == 0 and server.requests == []


def test_a_confirmation_is_small(server, registry, cafes, tmp_path):
    plan = Plan("reproject", {"layer": "cafes", "crs": "EPSG:4326"}, complete=True)
    server.add({"tool_calls": [{"name": "reproject", "arguments": {"layer": "cafes", "crs": "EPSG:4326"}}]})
    report = _run(server, registry, cafes, tmp_path, plan, "reproject the cafes to EPSG:4326")
    assert report.status == "ok"
    assert 0 < report.usage.prompt_tokens + report.usage.completion_tokens < 1500
