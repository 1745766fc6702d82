"""issue 25 item 4: with a model configured, a plan that lacks one thing goes to the model as one closed question
(response_format json_schema, enum = the choices, no tool schemas); its choice resumes the plan with every tier-0
check. Played by the scripted OpenAI-compatible server: the real client, real HTTP."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import geopandas as gpd
import pytest
from geoclerk.agent.pipeline import run_request
from geoclerk.tests.agent_toolkit import config_for
from geoclerk.tests.scripted_server import ScriptedServer

SAMPLE = Path(__file__).resolve().parent.parent / "data" / "sample"


@pytest.fixture
def town(tmp_path):
    return [str(shutil.copy(SAMPLE / f"{n}.gpkg", tmp_path / f"{n}.gpkg")) for n in ("cafes", "bus_stops", "districts")]


def test_the_model_answers_the_closed_question_and_the_plan_runs(town, tmp_path):
    with ScriptedServer([{"content": json.dumps({"choice": "bus_stops"})}]) as server:
        report = run_request("Buffer the points by 100 m", town, tmp_path / "out", config_for(server))
        sent = server.requests
    assert (report.status, report.tier) == ("ok", 1), report.to_json()
    assert report.steps == [{"tool": "buffer", "params": {"layer": "bus_stops", "distance": 100}}]
    assert len(gpd.read_file(report.outputs[-1]["path"])) == 60
    assert len(sent) == 1 and "tools" not in sent[0]  # one short round, no tool schemas, no confirmation round
    schema = sent[0]["response_format"]["json_schema"]["schema"]
    assert sent[0]["response_format"]["type"] == "json_schema"
    assert schema["properties"]["choice"]["enum"] == ["cafes", "bus_stops"] and schema["required"] == ["choice"]
    assert "Which layer do you mean?" in sent[0]["messages"][-1]["content"]
    assert "The model answered 'Which layer do you mean?' with bus_stops." in report.notes
    assert report.usage.llm_calls == 1


def test_an_answer_outside_the_choices_is_not_taken(town, tmp_path):
    script = [
        {"content": json.dumps({"choice": "districts"})},  # not a choice: never run
        {"tool_calls": [{"name": "reject_task", "arguments": {"reason": "unclear which layer"}}]},
    ]
    with ScriptedServer(script) as server:
        report = run_request("Buffer the points by 100 m", town, tmp_path / "out", config_for(server))
        sent = server.requests
    assert report.status == "rejected" and not report.outputs
    assert "tools" in sent[1]  # the request went on to tier 1 as before
    assert any("is not one of ['cafes', 'bus_stops']" in e for e in report.escalations)
