"""Planner–Worker for code: each planned subtask becomes a cell in one sandbox state; the report shows the plan."""

from __future__ import annotations

import geopandas as gpd
import pytest
from geoclerk.codegen.code_planner import MAX_SUBTASKS, parse_plan
from geoclerk.tests import agent_toolkit
from geoclerk.tests.agent_toolkit import TinyRouter, run

server, layers = agent_toolkit.server, agent_toolkit.layers  # fixtures

CODEGEN = TinyRouter(route="codegen", confidence=0.9)
PLAN = {
    "content": "1. Read schools.gpkg.\n2. Keep schools with at least 300 pupils.\n3. Save them and print the count."
}


def _code(body: str) -> dict:
    return {"content": f"```python\n{body.strip()}\n```"}


READ = _code("import geopandas as gpd\nschools = gpd.read_file('schools.gpkg')\nprint(len(schools))")
KEEP = _code("big = schools[schools['pupils'] >= 300]\nprint(len(big))")
SAVE = _code("big.to_file('big_schools.gpkg', driver='GPKG')\nprint(f'{len(big)} schools have at least 300 pupils.')")


def test_a_plan_of_three_subtasks_runs_a_cell_each_in_one_state(server, layers, tmp_path):
    report = run(server, [PLAN, READ, KEEP, SAVE], layers, tmp_path, router=CODEGEN, codegen_mode="planner",
                 request="save the schools with at least 300 pupils")  # fmt: skip
    assert report.status == "ok", report.error
    assert report.codegen["plan"] == [
        "Read schools.gpkg.",
        "Keep schools with at least 300 pupils.",
        "Save them and print the count.",
    ]
    assert "Plan: 1. Read schools.gpkg. 2. Keep" in " ".join(report.notes)
    (out,) = report.outputs
    assert sorted(gpd.read_file(out["path"])["pupils"]) == [300, 400, 500]
    assert report.answer == "3 schools have at least 300 pupils."
    assert [s["ok"] for s in report.steps] == [True, True, True]
    assert report.usage.llm_calls == 4
    second = server.requests[2]["messages"][-1]["content"]
    assert "Now write the code for subtask 2 only: Keep schools" in second and "Subtasks 1-1 are done" in second
    assert server.requests[0]["messages"][0]["content"].startswith("You plan a GIS analysis")


def test_a_failing_subtask_is_repaired_in_place(server, layers, tmp_path):
    wrong = _code("big = schools[schools['students'] >= 300]")
    report = run(server, [PLAN, READ, wrong, KEEP, SAVE], layers, tmp_path, router=CODEGEN, codegen_mode="planner",
                 request="save the schools with at least 300 pupils")  # fmt: skip
    assert report.status == "ok", report.error
    assert [s["ok"] for s in report.steps] == [True, False, True, True]
    assert "'students' is not a field" in server.requests[3]["messages"][-1]["content"]
    assert len(gpd.read_file(report.outputs[0]["path"])) == 3


def test_the_planner_can_refuse(server, layers, tmp_path):
    report = run(server, [{"content": "REFUSE: there is no opening-hours field."}], layers, tmp_path, router=CODEGEN,
                 codegen_mode="planner", request="schools open late")  # fmt: skip
    assert report.status == "rejected" and report.answer == "there is no opening-hours field."
    assert len(server.requests) == 1


@pytest.mark.parametrize(
    ("text", "steps"),
    [
        ("1. read\n2) buffer\nStep 3: save", ["read", "buffer", "save"]),
        ("Plan:\n- read\n- save", []),
        ("\n".join(f"{i}. s{i}" for i in range(1, 8)), ["s1", "s2", "s3", "s4", "s5; then s6; then s7"]),
    ],
)
def test_parse_plan(text, steps):
    assert parse_plan(text) == steps
    assert len(parse_plan(text)) <= MAX_SUBTASKS


def test_the_model_bench_has_a_code_planner_mode_next_to_tier2():
    from geoclerk.agent.pipeline import AgentConfig
    from geoclerk.bench.model_suite import MODES

    planner, single = AgentConfig(**MODES["tier2-planner"]), AgentConfig(**MODES["tier2"])
    assert (planner.route, planner.tier0, planner.codegen_mode) == ("codegen", False, "planner")
    assert (single.route, single.codegen_mode) == ("codegen", "react")


def test_the_planners_worker_has_its_own_system_prompt_the_same_for_every_subtask(server, layers, tmp_path):
    report = run(server, [PLAN, READ, KEEP, SAVE], layers, tmp_path, router=CODEGEN, codegen_mode="planner",
                 request="save the schools with at least 300 pupils")  # fmt: skip
    assert report.status == "ok", report.error
    systems = [r["messages"][0]["content"] for r in server.requests[1:]]
    assert len(set(systems)) == 1  # one stable prefix for the three subtasks
    assert systems[0].startswith("You are a GIS analyst who writes Python cells, one per subtask of a plan,")
    assert "Write only the code of\n  the subtask asked for" in systems[0]
    assert "write a complete script each time" not in systems[0] and "send the\ncode of the subtask." in systems[0]
    single = run(server, [READ], layers, tmp_path / "single", router=CODEGEN, request="count the schools")
    system = server.requests[-1]["messages"][0]["content"]
    assert single.status == "ok" and "write a complete script each time" in system and "subtask" not in system
