"""The token benchmark's replay: '$last' follows the real result names, and the numbers are what was sent."""

from __future__ import annotations

import json

import pytest
from geoagent.bench import tokens as bench
from geoagent.tests.agent_toolkit import TinyRouter, tiny_registry


def test_suite_is_large_enough_and_well_formed():
    suite = json.loads(bench.SUITE.read_text())
    assert len(suite["function"]) + len(suite["codegen"]) >= 30
    assert all(t["chain"] and t["answer"] for t in suite["function"])
    assert all("```" not in t["code"] for t in suite["codegen"])
    assert sum(1 for t in suite["codegen"] if t.get("first")) >= 3  # some requests need a repair round


def test_last_layer_is_read_from_tool_results():
    body = {"messages": [
        {"role": "tool", "content": json.dumps({"ok": True, "new_layers": [{"name": "districts_filtered"}]})},
        {"role": "tool", "content": json.dumps({"ok": False, "error": "x"})},
    ]}  # fmt: skip
    assert bench._last_layer(body) == "districts_filtered"
    step = bench._call("clip", {"layer": "roads", "overlay": "$last"})(body)
    assert step == {"tool_calls": [{"name": "clip", "arguments": {"layer": "roads", "overlay": "districts_filtered"}}]}


@pytest.mark.skipif(not (bench.SAMPLE / "schools.gpkg").exists(), reason="sample data not generated")
def test_replay_counts_what_was_sent(tmp_path):
    task = {"id": "t1", "request": "buffer the schools by 500 m", "inputs": ["schools.gpkg"],
            "chain": [["buffer", {"layer": "schools", "distance": 500}], ["count_features", {"layer": "$last"}]],
            "answer": "12 buffers."}  # fmt: skip
    row = bench.run_task(task, "function", "react", tiny_registry(), TinyRouter(), tmp_path)
    assert row["status"] == "ok" and row["llm_calls"] == 3 and row["steps_ok"] == 2
    assert row["sent"] == row["reported_prompt"] > 1000  # the client's usage equals the tokens the server received
    assert row["tools_offered"] is True
    summary = bench.summarise([row, dict(row, total=row["total"] + 100)])
    assert summary["function/react"]["median_total"] == row["total"] + 50
    assert summary["function/react"]["meets_target"] is True
