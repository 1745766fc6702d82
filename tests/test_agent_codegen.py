"""Tier 2 through run_request, the scripted server and the real sandbox: escalation and the repair loop."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

import geopandas as gpd
import pytest
from geoclerk.agent.pipeline import run_request
from geoclerk.tests import agent_toolkit
from geoclerk.tests.agent_toolkit import TinyRouter, config_for, run, tiny_registry

server, layers = agent_toolkit.server, agent_toolkit.layers  # fixtures

CODEGEN = TinyRouter(route="codegen", confidence=0.9)


def _code(body: str) -> dict:
    return {"content": f"```python\n{body.strip()}\n```"}


GOOD = _code(
    """
import geopandas as gpd
schools = gpd.read_file('schools.gpkg')
big = schools[schools['pupils'] > 250].copy()
big['share'] = big['pupils'] / schools['pupils'].sum()
big.to_file('big_schools.gpkg', driver='GPKG')
print(f"{len(big)} schools have more than 250 pupils; they teach {big['share'].sum():.0%} of all pupils.")
"""
)


def test_escalation_to_code_is_recorded_and_outputs_copied(server, layers, tmp_path):
    report = run(server, "escalate", layers, tmp_path, request="score every school by its size")
    assert report.status == "ok", report.error
    assert report.tier == 2 and report.route == "codegen"
    assert report.escalations == [
        "tier 0 → 1: the router has no tool plan for this request",
        "tier 1 → 2: A weighted score per school needs custom code.",
    ]
    assert report.steps == [{"code": report.steps[0]["code"], "ok": True}]
    assert "schools['pupils'].max()" in report.steps[0]["code"]
    (out,) = report.outputs
    assert out["path"].startswith(str(tmp_path / "out")) and out["kind"] == "vector"
    scores = gpd.read_file(out["path"]).set_index("name")["score"]
    assert scores["School C"] == pytest.approx(0.6) and scores.max() == pytest.approx(1.0)
    assert report.answer == "max score 1.0"
    assert report.usage.llm_calls == 2


def test_name_error_fixed_on_attempt_two(server, layers, tmp_path):
    broken = _code(
        """
import geopandas as gpd
schools = gpd.read_file('schools.gpkg')
print(len(big_schools))
"""
    )
    report = run(server, [broken, GOOD], layers, tmp_path, router=CODEGEN)
    assert report.status == "ok", report.error
    assert [s["ok"] for s in report.steps] == [False, True]
    feedback = server.requests[1]["messages"][-1]["content"]
    assert "was not run: line 3: name 'big_schools' is not defined. Did you mean: schools?" in feedback
    assert report.answer == "3 schools have more than 250 pupils; they teach 80% of all pupils."
    big = gpd.read_file(report.outputs[0]["path"])
    assert sorted(big["pupils"]) == [300, 400, 500]


def test_wrong_column_fixed_after_schema_lookup(server, layers, tmp_path):
    wrong = _code(
        """
import geopandas as gpd
schools = gpd.read_file('schools.gpkg')
print(schools['students'].mean())
"""
    )
    report = run(server, [wrong, GOOD], layers, tmp_path, router=CODEGEN)
    assert report.status == "ok", report.error
    feedback = server.requests[1]["messages"][-1]["content"]
    assert "'students' is not a field of the input layers" in feedback
    assert "pupils" in feedback
    assert len(gpd.read_file(report.outputs[0]["path"])) == 3


def test_five_failures_end_with_a_clear_report(server, layers, tmp_path):
    failures = [_code(f"import geopandas as gpd\nprint(1 / {0})\nx{i} = 1") for i in range(5)]
    report = run(server, failures, layers, tmp_path, router=CODEGEN)
    assert report.status == "error"
    assert [s["ok"] for s in report.steps] == [False] * 5
    assert "5" in report.error and "ZeroDivisionError" in report.error
    assert report.outputs == []
    assert not (tmp_path / "out").exists() or list((tmp_path / "out").iterdir()) == []
    assert len(server.requests) == 5
    assert report.usage.llm_calls == 5


def test_codegen_prompt_holds_the_schema_not_the_tools(server, layers, tmp_path):
    run(server, [GOOD], layers, tmp_path, router=CODEGEN)
    body = server.requests[0]
    assert "tools" not in body
    user = body["messages"][1]["content"]
    assert "pupils (integer): 100, 200, 300" in user and "file schools.gpkg" in user
    assert json.dumps(body).count("unused_tool") == 0


def test_escalation_after_a_tool_ran_discards_the_partial_output(server, layers, tmp_path):
    replies = [
        {"tool_calls": [{"name": "buffer", "arguments": {"layer": "schools", "distance": 100}}]},
        {"tool_calls": [{"name": "escalate_to_code", "arguments": {"reason": "the score needs custom code"}}]},
        GOOD,
    ]
    report = run(server, replies, layers, tmp_path)
    assert report.status == "ok", report.error
    assert report.steps[0] == {"tool": "buffer", "params": {"layer": "schools", "distance": 100}}
    assert report.steps[1]["ok"] is True
    assert [Path(o["path"]).name for o in report.outputs] == ["big_schools.gpkg"]
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["big_schools.gpkg"]  # the buffer is gone


def test_cancel_during_generated_code_leaves_nothing(server, layers, tmp_path):
    cancel = threading.Event()
    slow = _code("import time\nopen('partial.csv', 'w').write('a,b\\n')\ntime.sleep(60)\n")

    def reply_then_cancel_soon(body):
        threading.Timer(2.0, cancel.set).start()
        return slow

    server.add(reply_then_cancel_soon)
    t0 = time.perf_counter()
    report = run_request("score the schools", [layers["schools"]], tmp_path / "out", config_for(server),
                         registry=tiny_registry(), router=CODEGEN, cancel_event=cancel)  # fmt: skip
    assert time.perf_counter() - t0 < 45  # the 60 s script was killed
    assert report.status == "error" and "cancelled" in report.error
    assert report.outputs == []
    assert list((tmp_path / "out").iterdir()) == []


def test_repeated_tool_failures_escalate_to_code(server, layers, tmp_path):
    bad = {"tool_calls": [{"name": "buffer", "arguments": {"layer": "schools", "distance": -5}}]}
    report = run(server, [bad, bad, bad, GOOD], layers, tmp_path)
    assert report.status == "ok", report.error
    assert report.escalations[1].startswith("tier 1 → 2: 3 tool calls in a row failed; last: Invalid distance")
    assert report.tier == 2 and [s.get("ok") for s in report.steps] == [True]
    assert len(gpd.read_file(report.outputs[0]["path"])) == 3


def test_code_not_approved_is_not_run(server, layers, tmp_path):
    seen = []

    def reviewer(code):
        seen.append(code)
        return False

    report = run(server, [GOOD], layers, tmp_path, router=CODEGEN, review_code=True, review=reviewer)
    assert report.status == "rejected"
    assert "not approved" in report.error
    assert len(seen) == 1 and "big_schools.gpkg" in seen[0]
    assert report.steps == [{"code": seen[0], "ok": False}]
    assert report.outputs == [] and list((tmp_path / "out").iterdir()) == []
