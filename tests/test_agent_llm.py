"""The model client on its own: presets, retries and backoff, streaming, text-JSON fallback, plain errors."""

from __future__ import annotations

import time

import pytest
from geoclerk.agent.llm import LLMClient
from geoclerk.agent.pipeline import AgentConfig
from geoclerk.agent.providers import PRESETS, LLMSettings, guess_provider, resolve_base_url, settings_from_config
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
                "required": ["layer", "distance"],
            },
        },
    }
]
MESSAGES = [{"role": "system", "content": "You are a GIS worker."}, {"role": "user", "content": "buffer roads 50 m"}]
CALL = {"tool_calls": [{"name": "buffer", "arguments": {"layer": "roads", "distance": 50}}]}


@pytest.fixture
def server():
    srv = ScriptedServer().start()
    yield srv
    srv.stop()


def client_for(server, **kw) -> LLMClient:
    settings = LLMSettings(base_url=server.url, model="scripted", api_key="k", backoff_s=0.01, timeout_s=5)
    for key, value in kw.items():
        setattr(settings, key, value)
    return LLMClient(settings)


def test_presets_and_provider_guess():
    assert {"openai", "azure", "ollama", "lmstudio", "llamacpp", "vllm", "deepseek", "qwen", "glm", "custom"} <= set(
        PRESETS
    )
    assert resolve_base_url("ollama", None) == "http://localhost:11434/v1"
    assert resolve_base_url("azure", None, "myres") == "https://myres.openai.azure.com/openai/v1"
    assert resolve_base_url("deepseek", "https://proxy.example/v1/") == "https://proxy.example/v1"
    assert guess_provider("http://localhost:11434/v1") == "ollama"
    assert guess_provider("http://127.0.0.1:5000/v1") == "custom"
    with pytest.raises(LLMError, match="needs a base URL"):
        resolve_base_url("custom", None)
    with pytest.raises(LLMError, match="Unknown provider"):
        resolve_base_url("nonsense", None)


def test_settings_from_config_uses_env_key_and_openai_default(monkeypatch):
    monkeypatch.setenv("GEOCLERK_API_KEY", "sk-env-key")
    settings = settings_from_config(AgentConfig(model="gpt-4o-mini", timeout_s=12))
    assert settings.base_url == "https://api.openai.com/v1" and settings.provider == "openai"
    assert settings.api_key == "sk-env-key" and settings.timeout_s == 12
    assert "sk-env-key" not in repr(settings)


def test_tool_call_and_usage(server):
    server.add(CALL)
    reply = client_for(server).chat(MESSAGES, TOOLS)
    (call,) = reply.tool_calls
    assert call.name == "buffer" and call.args == {"layer": "roads", "distance": 50}
    assert reply.usage_from_api and reply.prompt_tokens > 50 and reply.completion_tokens > 5
    assert server.requests[0]["tools"] == TOOLS and server.requests[0]["model"] == "scripted"


def test_streamed_tool_call_is_assembled(server):
    server.add(dict(CALL, content="Let me buffer."))
    reply = client_for(server, stream=True).chat(MESSAGES, TOOLS)
    assert server.requests[0]["stream"] is True
    assert reply.content == "Let me buffer."
    assert reply.tool_calls[0].args == {"layer": "roads", "distance": 50}
    assert reply.usage_from_api and reply.prompt_tokens > 50


def test_retry_after_is_honoured_then_success(server):
    server.add({"status": 429, "headers": {"retry-after": "0.5"}}, {"status": 503}, {"content": "fine"})
    t0 = time.perf_counter()
    reply = client_for(server, max_retries=2).chat(MESSAGES)
    assert reply.content == "fine" and len(server.requests) == 3
    assert time.perf_counter() - t0 >= 0.5


def test_retries_are_bounded(server):
    server.add(*[{"status": 429}] * 5)
    with pytest.raises(LLMError, match="rate-limiting"):
        client_for(server, max_retries=2).chat(MESSAGES)
    assert len(server.requests) == 3


def test_client_errors_are_not_retried(server):
    server.add({"status": 404, "message": "The model `gpt-9` does not exist"}, {"content": "never"})
    with pytest.raises(LLMError) as info:
        client_for(server, max_retries=3).chat(MESSAGES)
    assert "does not know model scripted" in info.value.message and "/v1" in info.value.fix
    assert len(server.requests) == 1


def test_ollama_model_not_pulled(server):
    server.add({"status": 404, "message": 'model "llama3" not found, try pulling it first'})
    with pytest.raises(LLMError) as info:
        client_for(server, provider="ollama", model="llama3").chat(MESSAGES)
    assert info.value.message == "Model llama3 is not pulled in Ollama."
    assert info.value.fix == "Run `ollama pull llama3` and try again."


def test_reply_that_is_not_json(server):
    server.add({"raw_body": "<html>502 Bad Gateway</html>"})
    with pytest.raises(LLMError, match="was not valid JSON"):
        client_for(server, max_retries=0).chat(MESSAGES)


def test_stream_closed_midway(server):
    server.add(dict(CALL, close="mid"))
    with pytest.raises(LLMError, match="closed the connection|not answering"):
        client_for(server, stream=True, max_retries=0).chat(MESSAGES, TOOLS)


def test_json_mode_describes_tools_and_parses_answers(server):
    server.add(
        {"content": 'I will call it: {"tool": "buffer", "arguments": {"layer": "roads", "distance": 50}}'},
        {"content": '{"tool": "buffer", "arguments": {"layer": "roads", '},
        {"content": "All done."},
    )
    client = client_for(server, tool_mode="json")
    first = client.chat(MESSAGES, TOOLS)
    assert "tools" not in server.requests[0]
    assert "- buffer: Buffer features." in server.requests[0]["messages"][0]["content"]
    assert first.tool_calls[0].args == {"layer": "roads", "distance": 50}
    assert client.tool_message(first.tool_calls[0], "ok") == {"role": "user", "content": "Result of buffer: ok"}
    broken = client.chat(MESSAGES, TOOLS)
    assert broken.tool_calls[0].args is None and "not valid JSON" in broken.tool_calls[0].error
    done = client.chat(MESSAGES, TOOLS)
    assert done.tool_calls == [] and done.content == "All done."


def test_models_listing_and_dead_server(server):
    assert client_for(server).models() == ["scripted"]
    url = server.url
    server.stop()
    dead = LLMClient(LLMSettings(base_url=url, model="m", max_retries=0, timeout_s=2))
    with pytest.raises(LLMError) as info:
        dead.models()
    assert info.value.message == f"The server at {url} is not answering."


def test_temperature_refused_is_dropped_and_retried(server):
    server.add(
        {"status": 400, "message": "Unsupported value: 'temperature' does not support 0.0 with this model."},
        {"content": "ok"},
    )
    client = client_for(server)
    assert client.chat(MESSAGES).content == "ok"
    assert server.requests[0]["temperature"] == 0.0 and "temperature" not in server.requests[1]


def test_bad_request_is_explained_not_retried(server):
    server.add({"status": 400, "message": "messages: too long"}, {"content": "never"})
    with pytest.raises(LLMError) as info:
        client_for(server).chat(MESSAGES)
    assert info.value.message.endswith("rejected the request (HTTP 400): messages: too long")
    assert len(server.requests) == 1


def test_two_streamed_tool_calls_are_assembled_by_index(server):
    two = {"tool_calls": [{"name": "buffer", "arguments": {"layer": "roads", "distance": 50}},
                          {"name": "buffer", "arguments": {"layer": "rivers", "distance": 25.5}}]}  # fmt: skip
    server.add(two)
    reply = client_for(server, stream=True).chat(MESSAGES, TOOLS)
    assert [(c.id, c.args) for c in reply.tool_calls] == [
        ("call_0", {"layer": "roads", "distance": 50}),
        ("call_1", {"layer": "rivers", "distance": 25.5}),
    ]


def test_replies_are_capped_except_for_openai_whose_reasoning_models_reject_the_cap(server):
    tool = {"type": "function", "function": {"name": "buffer", "parameters": {"type": "object", "properties": {}}}}
    server.add({"content": "ok"}, {"content": "ok"}, {"content": "ok"})
    client = client_for(server)  # a local server ('custom'): a small model must not write until its context is full
    client.chat([{"role": "user", "content": "hi"}], [tool])
    client.chat([{"role": "user", "content": "write code"}])
    assert server.requests[0]["max_tokens"] == 1024 and server.requests[1]["max_tokens"] == 2048
    client_for(server, provider="openai").chat([{"role": "user", "content": "hi"}])
    assert "max_tokens" not in server.requests[2]
