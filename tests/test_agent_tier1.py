"""Tier 1 end to end through run_request, the real openai client and the scripted server: values, usage, tools."""

from __future__ import annotations

import json

import geopandas as gpd
import pytest
from geoclerk.model_text.tokens import count_messages
from geoclerk.tests import agent_toolkit
from geoclerk.tests.agent_toolkit import KEY, Plan, TinyRouter, config_for, run
from geoclerk.tests.scripted_server import load_script
from shapely.geometry import Point

CIRCLE_100M = Point(0, 0).buffer(100).area  # the same GEOS approximation the tool uses

server, layers = agent_toolkit.server, agent_toolkit.layers  # fixtures


def _areas(path):
    return gpd.read_file(path).geometry.area


@pytest.mark.parametrize("stream", [False, True])
def test_correct_chain_outputs_by_value(server, layers, tmp_path, stream):
    report = run(server, "correct_chain", layers, tmp_path, stream=stream)
    assert report.status == "ok", report.error
    assert report.tier == 1
    assert [s["tool"] for s in report.steps] == ["filter_rows", "buffer"]
    assert report.steps[1]["params"] == {"layer": "schools_filtered", "distance": 100}
    paths = [o["path"] for o in report.outputs]
    assert len(paths) == 2
    filtered = gpd.read_file(paths[0])
    assert sorted(filtered["pupils"]) == [300, 400, 500]
    areas = _areas(paths[1])
    assert len(areas) == 3
    assert areas.sum() == pytest.approx(3 * CIRCLE_100M, rel=1e-3)
    assert "schools_filtered_buffer" in report.answer
    assert report.escalations == ["tier 0 → 1: the router has no tool plan for this request"]
    assert server.requests[0].get("stream", False) is stream


def test_only_top_k_tools_are_shown(server, layers, tmp_path):
    report = run(server, "correct_chain", layers, tmp_path)
    assert report.status == "ok"
    for index in range(len(server.requests)):
        assert server.tools_seen(index) == [
            "buffer",
            "filter_rows",
            "count_features",
            "reject_task",
            "escalate_to_code",
        ]


def test_plan_tool_comes_first_and_counts_as_escalation(server, layers, tmp_path):
    router = TinyRouter(plan=Plan("total_area", {"layer": "districts"}, complete=False, missing=["layer"]))
    report = run(server, "correct_chain", layers, tmp_path, router=router)
    assert server.tools_seen(0)[:3] == ["total_area", "buffer", "filter_rows"]
    assert report.escalations == ["tier 0 → 1: total_area needs layer, which the request does not state clearly"]
    assert "Router's guess: total_area" in server.requests[0]["messages"][1]["content"]


def test_layer_context_is_in_the_prompt(server, layers, tmp_path):
    run(server, "correct_chain", layers, tmp_path)
    prompt = server.requests[0]["messages"][1]["content"]
    assert "schools: vector, Point, 5 features, EPSG:32633" in prompt
    assert "pupils (integer): 100, 200, 300" in prompt


def test_usage_matches_what_was_sent(server, layers, tmp_path):
    report = run(server, "correct_chain", layers, tmp_path)
    assert report.usage.llm_calls == 3 == len(server.requests)
    expected = sum(count_messages(r["messages"], r.get("tools")) for r in server.requests)
    assert report.usage.prompt_tokens == expected
    assert 0 < report.usage.completion_tokens < 200
    assert report.timings_ms["llm"] > 0


def test_usage_counted_locally_when_the_api_gives_none(server, layers, tmp_path):
    replies = [dict(r, usage=None) for r in load_script("correct_chain")]
    report = run(server, replies, layers, tmp_path)
    expected = sum(count_messages(r["messages"], r.get("tools")) for r in server.requests)
    assert report.usage.prompt_tokens == expected
    assert report.usage.completion_tokens > 10


def test_invalid_arguments_go_back_with_the_fix(server, layers, tmp_path):
    report = run(server, "invalid_then_fix", layers, tmp_path)
    assert report.status == "ok"
    assert [s["tool"] for s in report.steps] == ["buffer"]  # the invalid call never ran
    feedback = json.loads(server.requests[1]["messages"][-1]["content"])
    assert feedback["ok"] is False
    assert "distance" in feedback["error"] and "Parameters:" in feedback["fix"]
    assert _areas(report.outputs[0]["path"]).sum() == pytest.approx(5 * CIRCLE_100M, rel=1e-3)


def test_unknown_tool_is_answered_with_the_allowed_list(server, layers, tmp_path):
    report = run(server, "unknown_tool", layers, tmp_path)
    assert report.status == "ok"
    feedback = json.loads(server.requests[1]["messages"][-1]["content"])
    assert "make_buffer_zone" in feedback["error"]
    assert "buffer, filter_rows, count_features, reject_task, escalate_to_code" in feedback["fix"]
    assert len(report.outputs) == 1


def test_malformed_json_arguments_are_explained(server, layers, tmp_path):
    report = run(server, "malformed_json", layers, tmp_path)
    assert report.status == "ok"
    feedback = json.loads(server.requests[1]["messages"][-1]["content"])
    assert "not valid JSON" in feedback["error"]
    assert len(report.outputs) == 1


def test_unknown_field_gets_did_you_mean(server, layers, tmp_path):
    replies = [
        {
            "tool_calls": [
                {"name": "filter_rows", "arguments": {"layer": "schools", "field": "pupil", "op": ">", "value": 250}}
            ]
        },
        {
            "tool_calls": [
                {"name": "filter_rows", "arguments": {"layer": "schools", "field": "pupils", "op": ">", "value": 250}}
            ]
        },
        {"content": "3 schools kept."},
    ]
    report = run(server, replies, layers, tmp_path)
    feedback = json.loads(server.requests[1]["messages"][-1]["content"])
    assert "no field 'pupil'" in feedback["error"] and "'pupils'" in feedback["fix"]
    assert len(gpd.read_file(report.outputs[0]["path"])) == 3


def test_refusal_is_rejected_with_reason_and_no_output(server, layers, tmp_path):
    report = run(server, "refusal", layers, tmp_path, request="population density per district")
    assert report.status == "rejected"
    assert "population field" in report.answer
    assert report.outputs == [] and report.steps == []
    assert not list((tmp_path / "out").iterdir())


def test_repeated_failures_escalate_but_forced_function_route_stops(server, layers, tmp_path):
    bad = {"tool_calls": [{"name": "buffer", "arguments": {"layer": "schools", "distance": -5}}]}
    report = run(server, [bad, bad, bad], layers, tmp_path, route="function")
    assert report.status == "error"
    assert "3 tool calls in a row failed" in report.error
    assert "minimum" in report.error
    assert len(server.requests) == 3


def test_round_limit_is_respected(server, layers, tmp_path):
    # distinct calls: a call sent again with the same arguments is not run again (test_agent_empty_and_handoff.py)
    calls = [{"tool_calls": [{"name": "buffer", "arguments": {"layer": "schools", "distance": 10 * i}}]}
             for i in range(1, 11)]  # fmt: skip
    report = run(server, calls, layers, tmp_path, max_rounds=4)
    assert len(server.requests) == 4
    assert report.status == "ok" and [s["params"]["distance"] for s in report.steps] == [10, 20, 30, 40]


def test_rate_limit_then_success(server, layers, tmp_path):
    report = run(server, "rate_limit", layers, tmp_path)
    assert report.status == "ok", report.error
    assert len(server.requests) == 3  # the 429 was retried
    assert report.usage.llm_calls == 2  # only answered calls count
    assert _areas(report.outputs[0]["path"]).sum() == pytest.approx(5 * CIRCLE_100M, rel=1e-3)


def test_timeout_is_a_plain_error(server, layers, tmp_path):
    report = run(server, "timeout", layers, tmp_path, timeout_s=1, max_retries=0)
    assert report.status == "error"
    assert "is not answering" in report.error and "1 s" in report.error
    assert "Traceback" not in report.error


def test_closed_connection_is_a_plain_error(server, layers, tmp_path):
    report = run(server, "connection_closed", layers, tmp_path, max_retries=0)
    assert report.status == "error"
    assert "closed the connection" in report.error


def test_closed_connection_is_retried(server, layers, tmp_path):
    script = load_script("connection_closed") + load_script("invalid_then_fix")[1:]
    report = run(server, script, layers, tmp_path, max_retries=1)
    assert report.status == "ok", report.error
    assert len(report.outputs) == 1


@pytest.mark.parametrize(
    "status,message,expected",
    [
        (401, "Incorrect API key provided", "refused the key"),
        (404, 'model "llama3" not found, try pulling it first', "is not pulled in Ollama"),
        (500, "boom", "failed (HTTP 500)"),
    ],
)
def test_error_statuses_in_plain_words(server, layers, tmp_path, status, message, expected):
    report = run(server, [{"status": status, "message": message}] * 3, layers, tmp_path, max_retries=1)
    assert report.status == "error"
    assert expected in report.error
    assert KEY not in json.dumps(report.to_json())


def test_key_is_sent_but_never_reported(server, layers, tmp_path):
    report = run(server, "correct_chain", layers, tmp_path)
    assert server.headers[0]["authorization"] == f"Bearer {KEY}"
    assert KEY not in json.dumps(report.to_json())
    from geoclerk.agent.providers import settings_from_config

    assert KEY not in repr(settings_from_config(config_for(server)))


def test_text_json_fallback_for_models_without_tools(server, layers, tmp_path):
    unsupported = {"status": 400, "message": "registry.ollama.ai/library/llama2 does not support tools"}
    replies = [
        unsupported,
        {"content": '```json\n{"tool": "buffer", "arguments": {"layer": "schools", "distance": 100}}\n```'},
        {"content": "Buffered schools by 100 m."},
    ]
    report = run(server, replies, layers, tmp_path)
    assert report.status == "ok", report.error
    assert "tools" not in server.requests[1]
    system = server.requests[1]["messages"][0]["content"]
    assert '{"tool": "<name>", "arguments": {...}}' in system and "- buffer:" in system
    assert "Result of buffer:" in server.requests[2]["messages"][-1]["content"]
    assert server.requests[2]["messages"][-2] == {"role": "assistant", "content": replies[1]["content"]}
    assert _areas(report.outputs[0]["path"]).sum() == pytest.approx(5 * CIRCLE_100M, rel=1e-3)


def test_chat_route_answers_in_text(server, layers, tmp_path):
    report = run(server, [{"content": "A buffer is the area within a distance of a feature."}], layers, tmp_path,
                 router=TinyRouter(route="chat", confidence=0.9), request="what is a buffer?")  # fmt: skip
    assert report.status == "ok" and report.route == "chat"
    assert report.answer.startswith("A buffer is")
    assert "tools" not in server.requests[0]


def test_direct_text_answer_runs_nothing(server, layers, tmp_path):
    # "Done." without any tool call is a claim, not a result: one nudge, then the text flagged as the model's own
    report = run(server, [{"content": "Done."}, {"content": "Done."}], layers, tmp_path)
    assert report.status == "ok" and report.answer == "Done."
    assert any("without running any tool" in n for n in report.notes)
    assert report.steps == [] and report.outputs == []
    assert report.timings_ms["total"] >= report.timings_ms["llm"] > 0


def test_unsure_router_escalates_a_complete_plan(server, layers, tmp_path):
    plan = Plan("buffer", {"layer": "schools", "distance": 100}, complete=True)
    report = run(server, "invalid_then_fix", layers, tmp_path, router=TinyRouter(plan=plan, confidence=0.3))
    assert report.tier == 1 and report.status == "ok"
    assert report.escalations == ["tier 0 → 1: the router is not sure enough that buffer is meant (0.30 < 0.70)"]
