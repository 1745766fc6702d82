"""A conversation keeps one warm sandbox: the second code request reuses the process and the variables the first
left (the prompt names them); a reset clears them; without a shared sandbox (CLI, Processing) each request starts
clean."""

from __future__ import annotations

import geopandas as gpd
from geoclerk.codegen.sandbox import Sandbox
from geoclerk.tests import agent_toolkit
from geoclerk.tests.agent_toolkit import TinyRouter, run

server, layers = agent_toolkit.server, agent_toolkit.layers  # fixtures

CODEGEN = TinyRouter(route="codegen", confidence=0.9)
LOAD = "import geopandas as gpd\nbig = gpd.read_file('schools.gpkg').query('pupils >= 300')\nprint(len(big), 'big')"
USE = (
    "try:\n    big\nexcept NameError:\n    print('clean')\nelse:\n"
    "    big.to_file('big.gpkg', driver='GPKG')\n    print(int(big['pupils'].sum()), 'pupils')"
)


def _code(body: str) -> dict:
    return {"content": f"```python\n{body.strip()}\n```"}


def _state_line(server, index: int) -> str:
    user = server.requests[index]["messages"][1]["content"]
    return next((line for line in user.splitlines() if "big:" in line), "")


def test_a_later_request_uses_what_an_earlier_one_loaded(server, layers, tmp_path):
    with Sandbox(timeout=60) as sandbox:
        one = run(server, [_code(LOAD)], layers, tmp_path / "a", router=CODEGEN, request="load", sandbox=sandbox)
        pid_one = sandbox._proc.pid
        two = run(server, [_code(USE)], layers, tmp_path / "b", router=CODEGEN, request="save", sandbox=sandbox)
        assert (one.status, two.status) == ("ok", "ok"), (one.error, two.error)
        assert sandbox._proc.pid == pid_one  # same process: no cold start for the second request
    assert one.answer == "3 big"
    assert two.answer == "1200 pupils"  # 300 + 400 + 500, from the first request's `big`
    assert sorted(gpd.read_file(two.outputs[0]["path"])["pupils"]) == [300, 400, 500]
    assert _state_line(server, 0) == ""
    assert (
        _state_line(server, 1).strip() == "big: GeoDataFrame (3 rows; columns name, pupils, geometry; CRS EPSG:32633)"
    )


def test_a_reset_clears_the_conversations_variables(server, layers, tmp_path):
    with Sandbox(timeout=60) as sandbox:
        run(server, [_code(LOAD)], layers, tmp_path / "a", router=CODEGEN, request="load", sandbox=sandbox)
        sandbox.reset()
        two = run(server, [_code(USE)], layers, tmp_path / "b", router=CODEGEN, request="save", sandbox=sandbox)
    assert two.answer == "clean" and two.outputs == []
    assert _state_line(server, 1) == ""


def test_without_a_shared_sandbox_each_request_starts_clean(server, layers, tmp_path):
    one = run(server, [_code(LOAD)], layers, tmp_path / "a", router=CODEGEN, request="load")
    two = run(server, [_code(USE)], layers, tmp_path / "b", router=CODEGEN, request="save")
    assert (one.answer, two.answer) == ("3 big", "clean")
    assert _state_line(server, 1) == ""
