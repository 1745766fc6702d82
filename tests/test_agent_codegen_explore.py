"""The code worker's protocol: a REFUSE: line ends the request refused, # INSPECT cells look at the data first."""

from __future__ import annotations

import geopandas as gpd
import pytest
from geoclerk.codegen.explore import INSPECT_OUTPUT, MAX_INSPECTIONS
from geoclerk.codegen.replies import read_reply
from geoclerk.tests import agent_toolkit
from geoclerk.tests.agent_toolkit import TinyRouter, run

server, layers = agent_toolkit.server, agent_toolkit.layers  # fixtures

CODEGEN = TinyRouter(route="codegen", confidence=0.9)


def _code(body: str, text: str = "") -> dict:
    return {"content": f"{text}```python\n{body.strip()}\n```"}


INSPECT = _code(
    """
# INSPECT
import geopandas as gpd
schools = gpd.read_file('schools.gpkg')
print(schools.dtypes.to_string())
print(sorted(schools['pupils']))
"""
)
USES_INSPECTED = _code(  # `schools` comes from the inspection cell: the final script builds on what it loaded
    """
big = schools[schools['pupils'] >= 400]
big.to_file('big_schools.gpkg', driver='GPKG')
print(f"{len(big)} schools have at least 400 pupils.")
"""
)


@pytest.mark.parametrize(
    "reason",
    [
        "The layers have no population field, so residents per cafe cannot be computed.",
        "Die Layer haben kein Einwohnerfeld.",
        "图层中没有人口字段，无法计算。",
    ],
)
def test_a_refuse_line_ends_rejected_with_its_reason(server, layers, tmp_path, reason):
    report = run(server, [{"content": f"REFUSE: {reason}"}], layers, tmp_path, router=CODEGEN,
                 request="residents per cafe")  # fmt: skip
    assert report.status == "rejected" and report.tier == 2
    assert report.answer == reason
    assert report.error == f"The request was refused: {reason}"  # the function tier's reject_task wording
    assert report.outputs == [] and len(server.requests) == 1


def test_a_refusal_after_an_inspection_uses_what_it_saw(server, layers, tmp_path):
    look = _code("# INSPECT\nimport geopandas as gpd\nprint(list(gpd.read_file('schools.gpkg').columns))")
    refuse = {"content": "REFUSE: schools.gpkg has only name, pupils and geometry: no opening hours."}
    report = run(server, [look, refuse], layers, tmp_path, router=CODEGEN, request="schools open after 6 pm")
    assert report.status == "rejected"
    assert report.answer == "schools.gpkg has only name, pupils and geometry: no opening hours."
    assert "['name', 'pupils', 'geometry']" in server.requests[1]["messages"][-1]["content"]
    assert report.steps == [{"code": report.steps[0]["code"], "ok": True, "inspect": True}]


def test_an_inspection_feeds_the_final_script(server, layers, tmp_path):
    report = run(server, [INSPECT, USES_INSPECTED], layers, tmp_path, router=CODEGEN,
                 request="schools with at least 400 pupils")  # fmt: skip
    assert report.status == "ok", report.error
    seen = server.requests[1]["messages"][-1]["content"]
    assert seen.startswith("Inspection 1 printed:") and "pupils" in seen and "[100, 200, 300, 400, 500]" in seen
    assert f"at most {MAX_INSPECTIONS - 1} more" in seen
    (out,) = report.outputs
    assert sorted(gpd.read_file(out["path"])["pupils"]) == [400, 500]
    assert report.answer == "2 schools have at least 400 pupils."
    assert [s.get("inspect", False) for s in report.steps] == [True, False]
    assert report.codegen == {"inspections": 1, "attempts": 1}
    assert report.usage.llm_calls == 2


def test_inspection_cells_make_no_outputs_and_leave_the_inputs(server, layers, tmp_path):
    writer = _code(
        """
# INSPECT
import geopandas as gpd
s = gpd.read_file('schools.gpkg')
s.head(1).to_file('peek.gpkg', driver='GPKG')
s.head(2).to_file('schools.gpkg', driver='GPKG')
print(len(s))
"""
    )
    count = _code("import geopandas as gpd\nprint(len(gpd.read_file('schools.gpkg')), 'schools')")
    report = run(server, [writer, count], layers, tmp_path, router=CODEGEN, request="how many schools")
    assert report.status == "ok" and report.answer == "5 schools"  # the copy the inspection overwrote is back
    assert report.outputs == []
    assert "removed: peek.gpkg, schools.gpkg" in server.requests[1]["messages"][-1]["content"]


def test_inspections_are_bounded_and_cut(server, layers, tmp_path):
    loud = _code("# INSPECT\nprint('x' * 10000)")
    count = _code("import geopandas as gpd\nprint(len(gpd.read_file('schools.gpkg')), 'schools')")
    report = run(server, [loud] * (MAX_INSPECTIONS + 1) + [count], layers, tmp_path, router=CODEGEN,
                 request="how many schools")  # fmt: skip
    assert report.status == "ok" and report.answer == "5 schools"
    first = server.requests[1]["messages"][-1]["content"]
    assert "characters cut" in first and len(first) < INSPECT_OUTPUT + 400
    assert "No inspections left" in server.requests[MAX_INSPECTIONS]["messages"][-1]["content"]
    over = server.requests[MAX_INSPECTIONS + 1]["messages"][-1]["content"]
    assert "No inspection cells are left" in over
    assert report.codegen == {"inspections": MAX_INSPECTIONS, "attempts": 2}
    assert report.usage.llm_calls == MAX_INSPECTIONS + 2


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("REFUSE: no such field", "refuse"),
        ("**REFUSE:** no such field", "refuse"),
        ("INSPECT\n```python\nprint(1)\n```", "inspect"),
        ("```python\n# inspect the data\nprint(1)\n```", "inspect"),
        ("```python\nprint('REFUSE: not a refusal, a string')\n```", "final"),
        ("```python\nprint('inspect')\n```", "final"),
        ("Here it is.", "none"),
        ("```python\nimport geopandas as gpd\nimport numpy as np\n\n# INSPECT\nprint(1)\n```", "inspect"),
        ("```python\nimport geopandas as gpd\nd = gpd.read_file('d.gpkg')\n# INSPECT\nprint(d)\n```", "final"),
        ("```python\n# Attempt 1: AttributeError: no attribute 'area_km2'\n# Fix the cause.\n```", "empty"),
        ("```python\n# Versuch 1 schlug fehl\n\n# 尝试 1 失败\n```", "empty"),
        ("```python\nAttempt 3 of 5 failed.\n```", "final"),  # not Python: the sandbox's syntax check says so
    ],
)
def test_reply_kinds(text, kind):
    assert read_reply(text).kind == kind


ECHOED_FEEDBACK = _code(  # the 1.5B model's third reply to 'which district has the most cafes per 1000 inhabitants?'
    """
# Attempt 1: AttributeError: 'Series' object has no attribute 'area_km2' (line 31)
# Attempt 2 of 5 failed.
# Fix the cause and reply with the complete corrected script in a single ```python block.
"""
)
ANSWERS = _code(
    """
import geopandas as gpd
schools = gpd.read_file('schools.gpkg')
print(f"{len(schools)} schools, {int(schools['pupils'].sum())} pupils")
"""
)


def test_a_block_of_comments_is_not_run_and_the_model_is_told(server, layers, tmp_path):
    """Before, the echoed feedback ran 'successfully' with no output, and the request ended ok with no answer."""
    report = run(server, [ECHOED_FEEDBACK, ANSWERS], layers, tmp_path, router=CODEGEN,
                 request="how many pupils do the schools have in total?")  # fmt: skip
    assert report.status == "ok", report.error
    assert "The code block held only comments, so nothing was run." in server.requests[1]["messages"][-1]["content"]
    schools = gpd.read_file(layers["schools"])
    assert report.answer == f"{len(schools)} schools, {int(schools['pupils'].sum())} pupils"
    assert [s["ok"] for s in report.steps] == [False, True]


def test_without_exploring_the_prompt_offers_no_inspection_and_a_marked_reply_is_the_script(server, layers, tmp_path):
    """codegen_explore=False (the model bench's tier2-plain): one script per reply, so a '# INSPECT' line the model
    copies anyway is a comment of the script that runs."""
    count = _code("# INSPECT\nimport geopandas as gpd\nprint(len(gpd.read_file('schools.gpkg')), 'schools')")
    report = run(server, [count], layers, tmp_path, router=CODEGEN, request="how many schools",
                 codegen_explore=False)  # fmt: skip
    assert report.status == "ok" and report.answer == "5 schools", report.error
    system = server.requests[0]["messages"][0]["content"]
    assert "INSPECT" not in system and "REFUSE: <reason>" in system
    assert report.codegen == {"inspections": 0, "attempts": 1}
    with_exploring = run(server, [INSPECT, USES_INSPECTED], layers, tmp_path / "again", router=CODEGEN,
                         request="keep the schools with at least 400 pupils")  # fmt: skip
    assert "# INSPECT" in server.requests[1]["messages"][0]["content"]
    assert with_exploring.codegen == {"inspections": 1, "attempts": 1}


def test_the_local_gguf_model_does_not_explore_by_default():
    """The 1.5B local model sent '# INSPECT' cells again after the last one (bench/report.md, tier2 at 6075444):
    exploring is off for a local GGUF model unless set, on for other models."""
    from geoclerk.agent.pipeline import AgentConfig
    from geoclerk.agent.tiers import explores

    assert explores(AgentConfig(base_url="http://x/v1", model="m"))
    assert not explores(AgentConfig(model="local", local_model=""))
    assert explores(AgentConfig(model="local", local_model="", codegen_explore=True))
    assert not explores(AgentConfig(base_url="http://x/v1", model="m", codegen_explore=False))
