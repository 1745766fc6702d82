"""The repair loop with a fake chat and the real sandbox: fixes, schema hints, error memory, limits, review, cancel."""

from __future__ import annotations

import threading

import geopandas as gpd
import pytest
from geoclerk.codegen.prompt import SYSTEM_PROMPT, build_messages, system_prompt
from geoclerk.codegen.repair import CodegenWorker, error_signature, truncate_error, truncate_tail
from geoclerk.codegen.sandbox import Sandbox
from geoclerk.errors import CancelledError, LLMError
from geoclerk.function_lib.describe import describe_path
from shapely.geometry import Point


class FakeChat:
    """Replies from a script, one per call; records what the model was shown."""

    def __init__(self, *replies):
        self.replies = list(replies)
        self.calls: list[list[dict]] = []

    def __call__(self, messages):
        self.calls.append([dict(m) for m in messages])
        reply = self.replies[min(len(self.calls), len(self.replies)) - 1]
        if isinstance(reply, Exception):
            raise reply
        return reply, {"prompt_tokens": 100, "completion_tokens": 20}

    def last_feedback(self) -> str:
        return self.calls[-1][-1]["content"]


def fence(code: str) -> str:
    return f"Here you go:\n```python\n{code}\n```"


@pytest.fixture(scope="module")
def sandbox(tmp_path_factory):
    box = Sandbox(root=tmp_path_factory.mktemp("repair"), timeout=30)
    box.start()
    yield box
    box.close()


@pytest.fixture
def towns(tmp_path):
    path = tmp_path / "towns.gpkg"
    gpd.GeoDataFrame({"name": ["a", "b", "c"], "pop": [10, 20, 30]},
                     geometry=[Point(0, 0), Point(1, 0), Point(0, 1)], crs="EPSG:4326").to_file(path)  # fmt: skip
    return path


def _solve(sandbox, chat, request, inputs, **kwargs):
    worker = CodegenWorker(chat, sandbox, **kwargs)
    infos = [describe_path(p) for p in inputs]
    return worker.solve(request, infos, sandbox.new_work_dir(), inputs)


def test_name_error_fixed_on_attempt_two(sandbox, towns):
    chat = FakeChat(fence("print(totl)"), fence("total = 5\nprint(total)"))
    outcome = _solve(sandbox, chat, "How many?", [towns], api_check=False)  # the run's own error (apicheck: below)
    assert outcome.ok and outcome.answer == "5" and outcome.code == "total = 5\nprint(total)\n"
    assert [a.ok for a in outcome.attempts] == [False, True]
    assert outcome.attempts[0].error == "NameError: name 'totl' is not defined (line 1: `print(totl)`)"
    feedback = chat.calls[1][-1]["content"]
    assert "Attempt 1 of 5 failed." in feedback and "name 'totl' is not defined" in feedback
    assert outcome.usage == {"llm_calls": 2, "prompt_tokens": 200, "completion_tokens": 40}
    assert outcome.steps() == [{"code": "print(totl)\n", "ok": False}, {"code": outcome.code, "ok": True}]


def test_wrong_column_fixed_after_schema_lookup(sandbox, towns):
    bad = "import geopandas as gpd\ng = gpd.read_file('towns.gpkg')\nprint(int(g['population'].sum()))"
    chat = FakeChat(fence(bad), fence(bad.replace("population", "pop")))
    outcome = _solve(sandbox, chat, "Total population?", [towns])
    assert outcome.ok and outcome.answer == "60"
    feedback = chat.calls[1][-1]["content"]
    assert "'population' is not a field of the input layers. Did you mean 'pop'?" in feedback
    assert "towns: name, pop" in feedback


def test_five_failures_end_with_a_clear_report_and_error_memory(sandbox, towns):
    chat = FakeChat(*[fence(f"x{i} = 1\nprint(1 / 0)") for i in range(5)])
    outcome = _solve(sandbox, chat, "Divide", [towns])
    assert not outcome.ok and len(outcome.attempts) == 5 and len(chat.calls) == 5
    assert outcome.error.startswith("The generated code still failed after 5 attempt(s) (1 different error(s)).")
    assert "ZeroDivisionError: division by zero" in outcome.error
    assert "Attempt 1 failed with the same error" in chat.last_feedback()
    assert "Attempt 1 failed with the same error" not in chat.calls[1][-1]["content"]


def test_repeated_code_is_not_run_again(sandbox, towns):
    chat = FakeChat(fence("print(1 / 0)"), fence("print(1 / 0)"), fence("print('fine')"))
    outcome = _solve(sandbox, chat, "x", [towns])
    assert outcome.ok and outcome.answer == "fine"
    assert outcome.attempts[1].error == "This is the same code as attempt 1, which failed."
    assert "change the approach" in chat.calls[2][-1]["content"]


def test_reply_without_code_asks_for_a_block(sandbox, towns):
    chat = FakeChat("I would buffer the layer.", fence("print('ok')"))
    outcome = _solve(sandbox, chat, "x", [towns])
    assert outcome.ok and outcome.attempts[0].error == "The reply contained no Python code."
    assert "```python block" in chat.calls[1][-1]["content"]


def test_sandbox_refusal_goes_back_to_the_model(sandbox, towns):
    fixed = "from pathlib import Path\nprint(len(list(Path('.').iterdir())))"
    chat = FakeChat(fence("import sys\nprint(sys.argv)"), fence(fixed))
    outcome = _solve(sandbox, chat, "count files", [towns])
    assert outcome.ok and outcome.answer == "1"  # only the copy of towns.gpkg
    assert "import of 'sys' is not allowed" in chat.calls[1][-1]["content"]
    assert "do not try to work around the sandbox" in chat.calls[1][-1]["content"]


def test_outputs_and_answer(sandbox, towns):
    code = (
        "import geopandas as gpd\ng = gpd.read_file('towns.gpkg')\nm = g.to_crs(g.estimate_utm_crs())\n"
        "m.buffer(100).to_file('buffers.gpkg')\nprint(f'{len(m)} buffers of 100 m')"
    )
    outcome = _solve(sandbox, FakeChat(fence(code)), "buffer 100 m", [towns])
    assert outcome.ok and outcome.answer == "3 buffers of 100 m"
    assert [(o["kind"], o["path"].rsplit("/", 1)[-1]) for o in outcome.outputs] == [("vector", "buffers.gpkg")]


def test_review_hook_can_refuse(sandbox, towns):
    seen = []
    chat = FakeChat(fence("open('x.txt', 'w').write('x')"))
    worker = CodegenWorker(chat, sandbox, review=lambda code: seen.append(code) or False)
    work = sandbox.new_work_dir()
    outcome = worker.solve("x", [], work, [towns])
    assert outcome.rejected and not outcome.ok and seen == ["open('x.txt', 'w').write('x')\n"]
    assert not (work / "x.txt").exists()


def test_review_hook_can_approve(sandbox, towns):
    worker = CodegenWorker(FakeChat(fence("print('approved')")), sandbox, review=lambda code: True)
    assert worker.solve("x", [], sandbox.new_work_dir(), []).answer == "approved"


def test_cancel_before_start_raises(sandbox):
    cancel = threading.Event()
    cancel.set()
    with pytest.raises(CancelledError):
        CodegenWorker(FakeChat(fence("print(1)")), sandbox).solve("x", [], sandbox.new_work_dir(), [], cancel)


def test_model_errors_end_the_loop_with_their_message(sandbox):
    chat = FakeChat(LLMError("The model server did not answer.", fix="Check the base URL."))
    outcome = CodegenWorker(chat, sandbox).solve("x", [], sandbox.new_work_dir(), [])
    assert not outcome.ok and outcome.error == "The model server did not answer. Check the base URL."


def test_max_attempts_is_configurable(sandbox):
    chat = FakeChat(fence("print(1 / 0)"), fence("print(2 / 0)"))
    outcome = CodegenWorker(chat, sandbox, max_attempts=2).solve("x", [], sandbox.new_work_dir(), [])
    assert len(outcome.attempts) == 2 and "after 2 attempt(s)" in outcome.error


def test_prompt_has_schema_first_and_the_rules(towns, tmp_path):
    info = describe_path(towns)
    messages = build_messages("Buffer towns by 1 km", [info], {str(towns): str(tmp_path / "towns_2.gpkg")})
    user = messages[1]["content"]
    assert messages[0]["content"] == system_prompt(rasters=False)  # vectors only: no raster rules to copy
    assert "griddata" not in messages[0]["content"] and "rasterio" not in messages[0]["content"].split("Rules:")[1]
    assert "griddata" in build_messages("Slope", [info], None, ["dem.tif"])[0]["content"]
    assert "file towns_2.gpkg" in user and "pop (integer): 10, 20, 30" in user and "EPSG:4326" in user
    assert "CRS in degrees: reproject before measuring in metres" in user
    for rule in ("savefig", "never call show()", "current folder", "print()", "geopandas", "metres"):
        assert rule in SYSTEM_PROMPT


def test_truncation_is_asymmetric():
    out = "".join(f"line {i}\n" for i in range(1000))
    kept = truncate_tail(out, 100)
    assert kept.endswith("line 999\n") and "characters cut" in kept and "line 0\n" not in kept
    err = "KeyError: 'root cause' " + "x" * 5000 + " innermost frame"
    short = truncate_error(err, 300)
    assert short.startswith("KeyError: 'root cause'") and short.endswith("innermost frame") and len(short) < 400


def test_error_signature_ignores_line_numbers_and_values():
    a = error_signature("ZeroDivisionError: division by zero (line 3: `print(1 / 0)`)")
    b = error_signature("ZeroDivisionError: division by zero (line 7: `y = 2 / 0`)")
    assert a == b == "zerodivisionerror: division by zero"
    assert error_signature("IndexError: index 5 is out of bounds") == error_signature(
        "IndexError: index 9 is out of bounds"
    )


def test_a_model_that_keeps_repeating_failed_code_is_stopped_early(sandbox, towns):
    # the local 1.5B model re-sent one failing script until every attempt was used (about a minute each)
    stages = []
    chat = FakeChat(*[fence("print(1 / 0)")] * 5)
    worker = CodegenWorker(chat, sandbox, max_attempts=5, progress=stages.append)
    outcome = worker.solve("x", [], sandbox.new_work_dir(), [towns])
    assert not outcome.ok and len(outcome.attempts) == 3 and len(chat.calls) == 3  # ran once, two repeats, stop
    assert "same code again" in outcome.error and "ZeroDivisionError" in outcome.error
    assert stages[:3] == ["writing the script (attempt 1/5)", "running the script (attempt 1/5)",
                          "repairing the script (attempt 2/5)"]  # fmt: skip
