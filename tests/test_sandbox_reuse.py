"""A conversation keeps one warm sandbox: the second code request reuses the process and starts clean."""

from __future__ import annotations

from geoclerk.codegen.sandbox import Sandbox
from geoclerk.tests import agent_toolkit
from geoclerk.tests.agent_toolkit import TinyRouter, run

server, layers = agent_toolkit.server, agent_toolkit.layers  # fixtures


def _code(body: str) -> dict:
    return {"content": f"```python\n{body.strip()}\n```"}


def test_second_request_reuses_the_warm_sandbox(server, layers, tmp_path):
    codegen = TinyRouter(route="codegen", confidence=0.9)
    first = _code("left_over = 41\nprint(left_over + 1)")
    second = _code("try:\n    print(left_over)\nexcept NameError:\n    print('clean')")
    with Sandbox(timeout=60) as sandbox:
        one = run(server, [first], layers, tmp_path / "a", router=codegen, request="answer please", sandbox=sandbox)
        pid_one = sandbox._proc.pid
        two = run(server, [second], layers, tmp_path / "b", router=codegen, request="again", sandbox=sandbox)
        assert (one.status, two.status) == ("ok", "ok"), (one.error, two.error)
        assert one.answer == "42"
        assert sandbox._proc.pid == pid_one  # same process: no cold start for the second request
        assert two.answer == "clean"  # but the earlier request's variables are gone
