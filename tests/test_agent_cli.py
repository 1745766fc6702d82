"""`geoclerk run` end to end: the real CLI process, the real openai client, the scripted server on 127.0.0.1."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import geopandas as gpd
import pytest
from geoclerk.model_text.tokens import count_messages
from geoclerk.tests import agent_toolkit
from geoclerk.tests.agent_toolkit import KEY
from shapely.geometry import Point

server, layers = agent_toolkit.server, agent_toolkit.layers  # fixtures

GEOCLERK = Path(__file__).resolve().parent.parent / ".venv" / "bin" / "geoclerk"
pytestmark = pytest.mark.skipif(not GEOCLERK.exists(), reason="the geoclerk command is not installed (make setup)")


def geoclerk(server, layers, tmp_path, request, *extra, key=KEY, base_url=None, inputs=None) -> dict:
    env = dict(os.environ, GEOCLERK_API_KEY=key, QT_QPA_PLATFORM="offscreen")
    env.pop("OPENAI_API_KEY", None)
    inputs = [layers["schools"], layers["districts"]] if inputs is None else inputs
    cmd = [str(GEOCLERK), "run", request, *[a for p in inputs for a in ("--input", p)],
           "--out-dir", str(tmp_path / "out"), "--base-url", base_url or server.url, "--model", "scripted",
           "--engine", "geopandas", "--json", *extra]  # fmt: skip
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=240, env=env)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert KEY not in proc.stdout and KEY not in proc.stderr
    return json.loads(proc.stdout)


def offered(body) -> list[str]:
    return [t["function"]["name"] for t in body.get("tools") or []]


def test_cli_tier1_buffer_by_value(server, layers, tmp_path):
    def first(body):
        if "buffer" not in offered(body):
            return {"tool_calls": [{"name": "reject_task", "arguments": {"reason": "buffer was not offered"}}]}
        return {"tool_calls": [{"name": "buffer", "arguments": {"layer": "schools", "distance": 400}}]}

    server.add(first, {"content": "Buffered the 5 schools by 400 m, a five-minute walk."})
    request = "buffer the schools by a sensible catchment distance"  # no number: tier 0 cannot fill it
    report = geoclerk(server, layers, tmp_path, request, "--route", "function")
    assert report["status"] == "ok", report
    assert report["tier"] == 1
    assert report["steps"][0]["tool"] == "buffer" and report["steps"][0]["params"]["distance"] == 400
    (out,) = report["outputs"]
    area = gpd.read_file(out["path"]).geometry.area.sum()
    assert area == pytest.approx(5 * Point(0, 0).buffer(400).area, rel=1e-3)
    # only the router's top-k tools (k=5) plus the two control tools were shown
    tools = offered(server.requests[0])
    assert len(tools) <= 7 and tools[-2:] == ["reject_task", "escalate_to_code"]
    usage = report["usage"]
    assert usage["llm_calls"] == 2
    assert usage["prompt_tokens"] == sum(count_messages(r["messages"], r.get("tools")) for r in server.requests)
    assert usage["completion_tokens"] > 0
    assert server.headers[0]["authorization"] == f"Bearer {KEY}"


def test_cli_codegen_route(server, layers, tmp_path):
    code = (
        "import geopandas as gpd\n"
        "d = gpd.read_file('districts.gpkg')\n"
        "d['area_km2'] = d.geometry.area / 1e6\n"
        "d.to_file('district_areas.gpkg', driver='GPKG')\n"
        "print(f\"Total {d['area_km2'].sum():.1f} km2\")\n"
    )
    server.add({"content": f"```python\n{code}```"})
    report = geoclerk(server, layers, tmp_path, "area of each district in km2 as a new layer", "--route", "codegen")
    assert report["status"] == "ok", report
    assert report["tier"] == 2 and report["route"] == "codegen"
    assert report["steps"] == [{"code": code.rstrip() + "\n", "ok": True}]
    assert report["answer"] == "Total 2.0 km2"
    (out,) = report["outputs"]
    assert Path(out["path"]).parent == tmp_path / "out"
    assert gpd.read_file(out["path"])["area_km2"].tolist() == pytest.approx([1.0, 1.0])


def test_cli_refusal(server, layers, tmp_path):
    refuse = {"tool_calls": [{"name": "reject_task", "arguments": {"reason": "No layer holds crime data."}}]}
    server.add(refuse, refuse)
    # no input layers: no tier-0 plan can be complete, so the model must decide (and refuses)
    report = geoclerk(server, layers, tmp_path, "what is the crime rate per district?", "--route", "function",
                      inputs=[])  # fmt: skip
    assert report["status"] == "rejected", report
    assert report["answer"] == "No layer holds crime data."
    assert report["tier"] == 1 and report["steps"] == []
    assert report["outputs"] == []


def test_cli_refused_key_in_plain_words(server, layers, tmp_path):
    server.add({"status": 401, "message": "Incorrect API key provided: sk-tes***"})
    report = geoclerk(server, layers, tmp_path, "buffer the schools", "--route", "function", inputs=[])
    assert report["status"] == "error"
    assert "refused the key" in report["error"] and "GEOCLERK_API_KEY" in report["error"]


def test_cli_dead_endpoint_in_plain_words(server, layers, tmp_path):
    dead = server.url  # a port that was just free: stop the server so nothing answers there
    server.stop()
    report = geoclerk(server, layers, tmp_path, "buffer the schools", "--route", "function", base_url=dead, inputs=[])
    assert report["status"] == "error"
    assert f"The server at {dead} is not answering" in report["error"]


def test_cli_planner_architecture(server, layers, tmp_path):
    server.add(
        {"tool_calls": [{"name": "layer_metadata", "arguments": {"layer": "districts"}}]},
        {"tool_calls": [{"name": "assign_subtask", "arguments": {"subtask": "Buffer districts by 50 m."}}]},
        {"tool_calls": [{"name": "buffer", "arguments": {"layer": "districts", "distance": 50}}]},
        {"content": "Buffered districts."},
        {"content": "END: The districts are buffered by 50 m."},
    )
    request = "buffer the districts by a sensible margin"  # no number: tier 0 cannot fill it
    report = geoclerk(server, layers, tmp_path, request, "--route", "function", "--architecture", "planner")
    assert report["status"] == "ok", report
    assert report["answer"] == "The districts are buffered by 50 m."
    assert offered(server.requests[0])[:3] == ["list_layers", "layer_metadata", "assign_subtask"]
    assert "district (string): 'North', 'South'" in server.requests[1]["messages"][-1]["content"]
    (out,) = report["outputs"]
    # a 1 km square grown by 50 m: 1100² minus the four rounded corners
    expected = [1100**2 - (4 - 3.14159) * 50**2] * 2
    assert gpd.read_file(out["path"]).geometry.area.tolist() == pytest.approx(expected, rel=2e-3)
    assert report["usage"]["llm_calls"] == 5
