"""QA4 fixes in the tiers: stale codegen files, empty replies, claimed-but-not-done work, text calls end to end."""

from __future__ import annotations

import json
from pathlib import Path

from geoclerk.tests import agent_toolkit
from geoclerk.tests.agent_toolkit import TinyRouter, run

server, layers = agent_toolkit.server, agent_toolkit.layers  # fixtures

CODEGEN = TinyRouter(route="codegen", confidence=0.9)


def _code(body: str) -> dict:
    return {"content": f"```python\n{body.strip()}\n```"}


def test_files_of_a_failed_attempt_are_not_outputs(server, layers, tmp_path):
    junk = _code(
        """
import geopandas as gpd
gpd.read_file('schools.gpkg').head(2).to_file('junk_partial.geojson', driver='GeoJSON')
raise ValueError('half way')
"""
    )
    good = _code(
        """
import geopandas as gpd
s = gpd.read_file('schools.gpkg')
s.buffer(10).to_frame('geometry').to_file('good.geojson', driver='GeoJSON')
print('buffered', len(s))
"""
    )
    report = run(server, [junk, good], layers, tmp_path, router=CODEGEN)
    assert report.status == "ok", report.error
    assert [s["ok"] for s in report.steps] == [False, True]
    assert [Path(o["path"]).name for o in report.outputs] == ["good.geojson"]


def test_a_json_tool_call_in_text_runs_the_tool(server, layers, tmp_path):
    call = '{"name": "buffer", "arguments": {"layer": "schools", "distance": 100}}'
    text = f"<think>buffer it</think>\n```json\n{call}\n```"
    report = run(server, [{"content": text}, {"content": "<think>ok</think>Buffered the schools."}], layers, tmp_path)
    assert report.status == "ok", report.error
    assert report.steps == [{"tool": "buffer", "params": {"layer": "schools", "distance": 100}}]
    assert len(report.outputs) == 1 and report.answer == "Buffered the schools."
    assert "tools" in server.requests[0]


def test_an_empty_reply_is_an_error_not_ok(server, layers, tmp_path):
    report = run(server, [{"content": ""}], layers, tmp_path, route="function")  # the hybrid hands it to tier 2
    assert report.status == "error" and "empty reply" in report.error and report.outputs == []
    chat = run(server, [{"content": ""}], layers, tmp_path, router=TinyRouter(route="chat", confidence=0.9))
    assert chat.status == "error" and "empty reply" in chat.error


def test_an_empty_reply_after_a_tool_answers_with_the_tool_summary(server, layers, tmp_path):
    call = {"tool_calls": [{"name": "buffer", "arguments": {"layer": "schools", "distance": 100}}]}
    report = run(server, [call, {"content": ""}], layers, tmp_path)
    assert report.status == "ok" and len(report.outputs) == 1
    assert "schools" in report.answer and report.answer.strip() != ""


def test_a_claim_without_a_tool_call_is_nudged_then_flagged(server, layers, tmp_path):
    liar = {"content": "I have buffered the schools by 100 m; the result is in schools_buffer."}
    report = run(server, [liar, liar], layers, tmp_path)
    assert report.answer == liar["content"] and any("nothing was computed" in n for n in report.notes)
    assert report.outputs == [] and len(server.requests) == 2
    assert "No tool was called" in server.requests[1]["messages"][-1]["content"]


def test_a_nudge_that_works_ends_ok(server, layers, tmp_path):
    liar = {"content": "Done, buffered."}
    call = {"tool_calls": [{"name": "buffer", "arguments": {"layer": "schools", "distance": 100}}]}
    report = run(server, [liar, call, {"content": "Buffered 5 schools."}], layers, tmp_path)
    assert report.status == "ok" and report.answer == "Buffered 5 schools." and len(report.outputs) == 1


def test_code_that_writes_over_its_input_keeps_the_result(server, layers, tmp_path):
    import geopandas as gpd

    before = Path(layers["schools"]).read_bytes()
    code = _code(
        """
import geopandas as gpd
s = gpd.read_file('schools.gpkg')
s['geometry'] = s.buffer(10)
s.to_file('schools.gpkg', driver='GPKG')
print('Overwrote schools.gpkg with buffers.')
"""
    )
    report = run(server, [code], layers, tmp_path, router=CODEGEN)
    assert report.status == "ok", report.error
    (out,) = report.outputs
    assert Path(out["path"]).name == "schools_result.gpkg"
    assert set(gpd.read_file(out["path"]).geom_type) == {"Polygon"}
    assert any("over its copy of the input 'schools.gpkg'" in n for n in report.notes)
    assert Path(layers["schools"]).read_bytes() == before


def test_failing_parallel_calls_of_one_reply_count_as_one_try(server, layers, tmp_path):
    bad = {"tool_calls": [{"name": "nope", "arguments": {}}, {"name": "nada", "arguments": {}},
                          {"name": "zip", "arguments": {}}]}  # fmt: skip
    good = {"tool_calls": [{"name": "buffer", "arguments": {"layer": "schools", "distance": 100}}]}
    report = run(server, [bad, good, {"content": "Buffered."}], layers, tmp_path)
    assert report.status == "ok", report.error
    assert [s["tool"] for s in report.steps] == ["buffer"] and report.answer == "Buffered."
    assert "There is no tool 'nope' here." in json.dumps(server.requests[1]["messages"])


def test_a_library_tool_that_was_not_offered_still_runs(server, layers, tmp_path):
    """The router's top-k missed the tool, the model knows it: it is validated against its schema and run."""
    only_count = TinyRouter(tools=["count_features"])
    call = {"tool_calls": [{"name": "buffer", "arguments": {"layer": "schools", "distance": 100}}]}
    report = run(server, [call, {"content": "Buffered."}], layers, tmp_path, router=only_count)
    assert report.status == "ok", report.error
    assert [s["tool"] for s in report.steps] == ["buffer"] and len(report.outputs) == 1
    offered = [t["function"]["name"] for t in server.requests[0]["tools"]]
    assert "buffer" not in offered
