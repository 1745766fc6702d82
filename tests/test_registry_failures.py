"""a tool's unexpected failure is said in words, never as a bare KeyError."""

from __future__ import annotations

import pytest
from geoclerk.errors import ToolError
from geoclerk.function_lib.context import RunContext
from geoclerk.function_lib.registry import Registry, failure_text, run_tool
from geoclerk.function_lib.spec import ToolSpec


def test_key_error_is_named():
    assert failure_text(KeyError("layer")) == "a value it needs ('layer') was not given or not found"
    assert failure_text(ValueError("")) == "ValueError"


def test_tool_crash_gives_problem_and_fix(tmp_path):
    registry = Registry()

    def broken(ctx):
        return {}["layer"]

    spec = ToolSpec(name="broken", half="geojson", category="other", purpose="x", params=(), returns="x")
    registry.register(spec, broken)
    with pytest.raises(ToolError) as err:
        run_tool(registry, "broken", {}, RunContext(tmp_path))
    assert err.value.message == "broken failed: a value it needs ('layer') was not given or not found"
    assert err.value.fix
