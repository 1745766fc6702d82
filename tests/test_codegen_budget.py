"""The code worker's context budget on a replayed repair run shaped like the local model's (five failing attempts,
verbose replies): every round fits the server's context, the prefix stays the same, older attempts become lines."""

from __future__ import annotations

import pytest
from geoclerk.agent.llm import LLMClient
from geoclerk.agent.providers import LLMSettings
from geoclerk.bench.codegen_context import replay
from geoclerk.codegen.budget import DEFAULT_CONTEXT, RepairContext, prompt_budget, summary_line
from geoclerk.model_text.tokens import count_messages
from geoclerk.tests.scripted_server import ScriptedServer


def test_prompt_budget_leaves_room_for_the_reply():
    assert prompt_budget(8192, 2048) == int((8192 - 2048) * 0.9) == 5529
    assert prompt_budget(None, None) == prompt_budget(DEFAULT_CONTEXT, 2048)
    assert prompt_budget(32768, 2048) == int((32768 - 2048) * 0.9)
    assert prompt_budget(3000, 4096) == int((3000 - 1000) * 0.9)  # a reply cap bigger than the context


def test_summary_line_keeps_the_first_line_of_the_error():
    error = "KeyError: 'pupils' (line 3: `x = s['pupils']`)\nTraceback ...\n" + "x" * 400
    assert summary_line(2, error) == "- Attempt 2: KeyError: 'pupils' (line 3: `x = s['pupils']`)"
    assert len(summary_line(1, "E" * 500)) < 180


@pytest.fixture(scope="module")
def replayed(tmp_path_factory):
    return replay(tmp_path_factory.mktemp("context"))


def test_replayed_repair_run_fits_the_context_and_costs_less(replayed):
    budget = prompt_budget(8192, 2048)
    assert len(replayed["sent"]) == 5 and replayed["report"].status == "error"
    assert max(replayed["sent"]) <= budget
    # the whole history grew every round; sent now, the later rounds stay flat
    assert replayed["whole"] == sorted(replayed["whole"]) and replayed["whole"][-1] > 2.5 * replayed["whole"][0]
    assert replayed["sent"][-1] < 0.45 * replayed["whole"][-1]
    assert sum(replayed["sent"]) < 0.6 * sum(replayed["whole"])
    assert replayed["report"].usage.prompt_tokens == sum(replayed["sent"])  # the scripted server counts the same


def test_every_round_starts_with_the_same_prefix(replayed):
    first = replayed["requests"][0]["messages"]
    assert [m["role"] for m in first] == ["system", "user"]
    for request in replayed["requests"][1:]:
        assert request["messages"][:2] == first  # the server's prompt cache reuses it
        assert [m["role"] for m in request["messages"]] == ["system", "user", "assistant", "user"]


def test_older_attempts_are_one_line_each_and_the_latest_is_whole(replayed):
    last = replayed["requests"][-1]["messages"]
    feedback = last[-1]["content"]
    assert feedback.startswith("Earlier attempts, which failed (do not repeat them):\n- Attempt 1: KeyError: 'pupils'")
    # attempt 2 (GeoSeries.nearest_distance, invented by the local model) was caught by the API check, unrun
    assert "- Attempt 2: The script was checked against the installed libraries before running" in feedback
    assert "- Attempt 3: " in feedback
    assert "Attempt 4 of 5 failed." in feedback and "_UFuncNoLoopError: ufunc 'multiply'" in feedback
    assert "weights['size'] * schools['size_score']" in last[2]["content"]  # attempt 4's code, whole
    assert "centres = gpd.GeoDataFrame" not in str(last)  # attempt 2's code is gone, its error is a line


def test_a_small_context_shrinks_the_round_until_it_fits(tmp_path):
    data = replay(tmp_path, n_ctx=2300)
    budget = prompt_budget(2300, 2048)
    assert max(data["sent"]) <= budget < max(data["whole"])
    last = data["requests"][-1]["messages"]
    assert last[:2] == data["requests"][0]["messages"]  # the prefix is never cut
    assert "Output before the error" not in last[-1]["content"]  # the output goes first
    assert "characters cut to fit the model's context" in last[2]["content"]  # the code's middle last


def test_repair_context_without_history_is_the_base():
    base = [{"role": "system", "content": "s"}, {"role": "user", "content": "u"}]
    convo = RepairContext(base, 1000, 5)
    assert convo.messages() == base
    convo.add("```python\nprint(x)\n```", "NameError: x", "", [], 1)
    convo.add("```python\nprint(y)\n```", "NameError: y", "out", ["note"], 2)
    sent = convo.messages()
    assert sent[:2] == base and sent[2]["content"] == "```python\nprint(y)\n```"
    assert sent[3]["content"].splitlines()[:3] == [
        "Earlier attempts, which failed (do not repeat them):",
        "- Attempt 1: NameError: x",
        "Attempt 2 of 5 failed.",
    ]
    assert count_messages(sent) <= 1000


def test_the_client_reads_the_context_from_llama_server_props():
    with ScriptedServer() as server:
        server.n_ctx = 4096
        client = LLMClient(LLMSettings(base_url=server.url, model="local"))
        assert client.context_window() == 4096
        server.n_ctx = None  # asked once: the answer is kept
        assert client.context_window() == 4096
        other = LLMClient(LLMSettings(base_url=server.url, model="local"))
        assert other.context_window() is None  # no /props: unknown, the worker uses its default
        cloud = LLMClient(LLMSettings(base_url=server.url, model="m", provider="openai"))
        assert cloud.context_window() is None and not server.requests
