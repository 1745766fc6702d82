"""Which Python runs generated code: the user's setting first (an error naming it when it is not a program), then
GEOCLERK_PYTHON, then one found next to the running Python."""

from __future__ import annotations

import sys

import pytest
from geoclerk.agent.pipeline import AgentConfig, run_request
from geoclerk.codegen.sandbox import find_python
from geoclerk.errors import SandboxError
from geoclerk.lang import set_language


def test_the_setting_wins_and_a_wrong_one_is_named(tmp_path, monkeypatch):
    monkeypatch.setenv("GEOCLERK_PYTHON", sys.executable)
    assert find_python(sys.executable) == sys.executable
    not_a_program = tmp_path / "python3"
    not_a_program.write_text("")
    for bad in (tmp_path / "missing" / "python3", not_a_program, tmp_path):
        with pytest.raises(SandboxError) as caught:
            find_python(str(bad))
        assert str(bad) in caught.value.user_text() and "Python for generated code" in caught.value.user_text()
    assert find_python(None) == sys.executable  # no setting: GEOCLERK_PYTHON


@pytest.mark.parametrize("lang, words", [("de", "Python für generierten Code"), ("zh_CN", "生成代码的 Python")])
def test_the_fix_is_said_in_the_users_language(tmp_path, lang, words):
    set_language(lang)
    try:
        with pytest.raises(SandboxError) as caught:
            find_python(str(tmp_path / "missing"))
    finally:
        set_language("en")
    assert words in caught.value.user_text()


def test_a_request_with_a_wrong_python_ends_in_an_error_naming_it(tmp_path):
    config = AgentConfig(base_url="http://127.0.0.1:9/v1", model="m", api_key="k", route="codegen", tier0=False,
                         sandbox_python=str(tmp_path / "missing" / "python3"))  # fmt: skip
    report = run_request("score the schools", [], tmp_path / "out", config)
    assert report.status == "error" and "missing" in report.error and "Python for generated code" in report.error
