"""QA4 fixes in the model client: tools-unsupported fallback, text tool calls, <think>, object arguments, redaction."""

from __future__ import annotations

import json

import pytest
from geoclerk.agent.llm import ChatReply, LLMClient
from geoclerk.agent.llm_errors import redact, safe_url
from geoclerk.agent.providers import LLMSettings
from geoclerk.errors import LLMError
from geoclerk.tests.scripted_server import ScriptedServer

TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "buffer",
            "description": "Buffer features.",
            "parameters": {
                "type": "object",
                "properties": {"layer": {"type": "string"}, "distance": {"type": "number"}},
            },
        },
    }
]
MESSAGES = [{"role": "system", "content": "You are a GIS worker."}, {"role": "user", "content": "buffer roads 50 m"}]
ARGS = {"layer": "roads", "distance": 50}


@pytest.fixture
def server():
    srv = ScriptedServer().start()
    yield srv
    srv.stop()


def client_for(server, key="k", **kw) -> LLMClient:
    settings = LLMSettings(base_url=server.url, model="scripted", api_key=key, backoff_s=0.01, timeout_s=5)
    for name, value in kw.items():
        setattr(settings, name, value)
    return LLMClient(settings)


@pytest.mark.parametrize(
    "text",
    [
        "tools is not supported by this model",
        '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set',
        "tools param requires --jinja flag",
        "Extra inputs are not permitted: tools",
        "Function calling is not enabled for this model",
        "registry.ollama.ai/library/gemma:2b does not support tools",
    ],
)
def test_any_400_about_tools_falls_back_to_text_json(server, text):
    server.add({"status": 400, "message": text}, {"content": json.dumps({"tool": "buffer", "arguments": ARGS})})
    reply = client_for(server).chat(MESSAGES, TOOLS)
    assert "tools" in server.requests[0] and "tools" not in server.requests[1]
    assert reply.tool_calls[0].name == "buffer" and reply.tool_calls[0].args == ARGS


@pytest.mark.parametrize(
    "content",
    [
        '{"tool": "buffer", "arguments": {"layer": "roads", "distance": 50}}',
        '```json\n{"name": "buffer", "arguments": {"layer": "roads", "distance": 50}}\n```',
        '<tool_call>{"name": "buffer", "arguments": {"layer": "roads", "distance": 50}}</tool_call>',
        '{"function": {"name": "buffer", "arguments": "{\\"layer\\": \\"roads\\", \\"distance\\": 50}"}}',
        '{"tool": "buffer", "parameters": {"layer": "roads", "distance": 50}}',
        '<think>use {"layer": "x"} maybe</think>\nSure: {"tool": "buffer", "arguments": '
        '{"layer": "roads", "distance": 50}}',
    ],
)
@pytest.mark.parametrize("mode", ["auto", "json"])
def test_text_tool_calls_are_calls_in_both_modes(server, content, mode):
    server.add({"content": content})
    reply = client_for(server, tool_mode=mode).chat(MESSAGES, TOOLS)
    assert [(c.name, c.args) for c in reply.tool_calls] == [("buffer", ARGS)]
    assert reply.content == ""


def test_two_text_calls_and_a_plain_json_answer(server):
    two = '{"tool": "buffer", "arguments": {"layer": "a"}}\n{"tool": "buffer", "arguments": {"layer": "b"}}'
    server.add({"content": two}, {"content": 'The result is {"name": "Altstadt", "count": 3}.'})
    client = client_for(server)
    assert [c.args["layer"] for c in client.chat(MESSAGES, TOOLS).tool_calls] == ["a", "b"]
    answer = client.chat(MESSAGES, TOOLS)
    assert answer.tool_calls == [] and answer.content.startswith("The result is")


def test_think_blocks_never_reach_the_answer(server):
    server.add({"content": "<think>the user wants roads</think>\nBuffered the roads."}, {"content": "<think>hm"})
    client = client_for(server)
    assert client.chat(MESSAGES, TOOLS).content == "Buffered the roads."
    assert client.chat(MESSAGES).content == ""


def test_broken_json_call_gets_the_parse_error_not_unknown_tool(server):
    server.add({"content": '<think>x</think>{"tool": "buffer", "arguments": {"layer": "roads", '})
    call = client_for(server, tool_mode="json").chat(MESSAGES, TOOLS).tool_calls[0]
    assert call.name == "buffer" and call.args is None and "not valid JSON" in call.error


def test_arguments_sent_as_an_object(server):
    body = {
        "id": "x",
        "object": "chat.completion",
        "model": "scripted",
        "choices": [
            {
                "index": 0,
                "finish_reason": "tool_calls",
                "message": {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "buffer", "arguments": ARGS}}],
                },
            }
        ],
    }
    server.add({"raw_body": json.dumps(body)})
    reply = client_for(server).chat(MESSAGES, TOOLS)
    assert reply.tool_calls[0].args == ARGS and json.loads(reply.tool_calls[0].arguments) == ARGS


def test_key_echoed_by_the_server_is_redacted(server):
    server.add({"status": 400, "message": "Invalid header Authorization: Bearer sk-secret-123 (malformed)"})
    with pytest.raises(LLMError) as info:
        client_for(server, key="sk-secret-123").chat(MESSAGES)
    assert "sk-secret-123" not in info.value.user_text() and "Bearer ***" in info.value.message
    assert server.headers[0]["authorization"] == "Bearer sk-secret-123"


def test_credentials_in_the_base_url_are_never_printed():
    assert safe_url("http://u:sk-secret-123@127.0.0.1:9/v1?key=sk-secret-123") == "http://127.0.0.1:9/v1"
    dead = LLMClient(LLMSettings(base_url="http://u:pw-77@127.0.0.1:9/v1?key=sk-9", model="m", max_retries=0))
    with pytest.raises(LLMError) as info:
        dead.chat(MESSAGES)
    assert "pw-77" not in info.value.user_text() and "sk-9" not in info.value.user_text()
    assert "127.0.0.1:9/v1" in info.value.message
    assert "sk-1" not in redact("see https://x/v1?api_key=sk-1 now")


def test_redaction_leaves_plain_words_alone():
    fix = (
        "Check the API key: in QGIS, GeoClerk's settings (Open settings); on the command line, "
        "GEOCLERK_API_KEY or OPENAI_API_KEY."
    )
    assert redact(fix) == fix
    assert redact("bad api_key=sk-1 and api-key: sk-2 and Bearer abc.def") == (
        "bad api_key=*** and api-key: *** and Bearer ***"
    )


def test_a_tool_call_without_a_name_is_an_error_and_never_null_in_history(server):
    server.add({"tool_calls": [{"name": None, "arguments": ARGS}]})
    client = client_for(server)
    call = client.chat(MESSAGES, TOOLS).tool_calls[0]
    assert call.args is None and "no tool name" in call.error
    history = client.assistant_message(ChatReply(tool_calls=[call]))
    assert history["tool_calls"][0]["function"]["name"] == "unnamed_tool"
