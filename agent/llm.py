"""The model client: any OpenAI-compatible endpoint, retries, streaming, and a text-JSON tool fallback."""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field

from ..errors import CancelledError, LLMError
from ..model_text import tokens
from ..model_text.text_calls import find_calls, strip_think
from .llm_errors import safe_url
from .providers import PLACEHOLDER_KEY, LLMSettings

LOCAL_PROVIDERS = ("custom", "llamacpp", "lmstudio", "vllm", "ollama")  # servers that may answer llama.cpp's /props
RETRY_STATUSES = {408, 409, 429, 500, 502, 503, 504}
MAX_BACKOFF_S = 8.0


class IncompleteStreamError(Exception):
    """A streamed reply that stopped before its finish reason (the server closed the connection)."""


@dataclass
class ToolCall:
    """One tool call of a reply; `args` is None and `error` says why when the arguments are not JSON."""

    id: str
    name: str
    arguments: str
    args: dict | None = None
    error: str | None = None


@dataclass
class ChatReply:
    """A model reply: its text, its tool calls, and what it cost."""

    content: str = ""
    tool_calls: list[ToolCall] = field(default_factory=list)
    prompt_tokens: int = 0
    completion_tokens: int = 0
    usage_from_api: bool = False
    finish_reason: str | None = None
    raw: str = ""  # in text-JSON mode: the reply text a tool call was read from (kept in the history)


def parse_arguments(call: ToolCall) -> ToolCall:
    """Fill `args` from the raw argument text, or `error` with a plain explanation."""
    if not call.name:  # never echo a null name back to the server (it would refuse the whole history)
        call.name, call.error = "unnamed_tool", "The tool call had no tool name: give the name of a tool."
        call.arguments = call.arguments if isinstance(call.arguments, str) else json.dumps(call.arguments or {})
        return call
    if isinstance(call.arguments, (dict, list)):  # some servers and proxies send an object, not a string
        call.arguments = json.dumps(call.arguments)
    text = str(call.arguments or "").strip() or "{}"
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        call.error = f"The reply was not valid JSON: the arguments of {call.name} could not be read ({exc.msg})."
        return call
    if not isinstance(value, dict):
        call.error = f"The arguments of {call.name} must be a JSON object, not {type(value).__name__}."
        return call
    call.args = value
    return call


class LLMClient:
    """Chat with one model through the official openai package; errors become LLMError in plain words."""

    def __init__(self, settings: LLMSettings):
        import openai

        self.settings = settings
        self.json_mode = settings.tool_mode == "json"
        self._client = openai.OpenAI(
            api_key=settings.api_key or PLACEHOLDER_KEY,
            base_url=settings.base_url,
            timeout=settings.timeout_s,
            max_retries=0,  # retries are ours, so that backoff and messages are under our control
            default_headers={"api-key": settings.api_key}
            if settings.provider == "azure" and settings.api_key
            else None,
        )
        self.calls = 0
        self._context_probed = False
        tokens.warm_up()  # needed when the endpoint reports no usage

    # -- public ----------------------------------------------------------------------------
    def chat(
        self, messages: list[dict], tools: list[dict] | None = None, cancel_event=None, response_format=None
    ) -> ChatReply:
        """One model turn. With tools the reply may carry tool calls (native, or parsed from text JSON).
        `response_format`: OpenAI's structured output (a json_schema the reply must follow), for closed questions."""
        for _ in range(3):
            try:
                return self._turn(messages, tools, cancel_event, response_format)
            except LLMError as exc:
                if tools and self.settings.tool_mode == "auto" and not self.json_mode and exc.tools_unsupported:
                    self.json_mode = True  # no tool calling in this model: describe the tools in the prompt instead
                elif self.settings.temperature is not None and exc.temperature_unsupported:
                    self.settings.temperature = None  # some reasoning models only take their default temperature
                else:
                    raise
        return self._turn(messages, tools, cancel_event, response_format)

    def assistant_message(self, reply: ChatReply) -> dict:
        """The assistant turn to append to the history after `reply`."""
        if self.json_mode or not reply.tool_calls:
            return {"role": "assistant", "content": reply.raw or reply.content or ""}
        return {
            "role": "assistant",
            "content": reply.content or None,
            "tool_calls": [
                {"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments}}
                for c in reply.tool_calls
            ],
        }

    def tool_message(self, call: ToolCall, content: str) -> dict:
        """The message that gives a tool's result (or error) back to the model."""
        if self.json_mode:
            return {"role": "user", "content": f"Result of {call.name}: {content}"}
        return {"role": "tool", "tool_call_id": call.id, "content": content}

    def context_window(self) -> int | None:
        """The model's context in tokens: from the settings, else llama.cpp's /props (n_ctx), asked once; None
        when unknown (a cloud endpoint is not asked)."""
        if self.settings.context_tokens:
            return self.settings.context_tokens
        if self._context_probed or self.settings.provider not in LOCAL_PROVIDERS:
            return None
        self._context_probed = True
        import urllib.request

        root = self.settings.base_url.rstrip("/").removesuffix("/v1")
        try:
            with urllib.request.urlopen(f"{root}/props", timeout=3) as response:  # noqa: S310 - the user's server
                props = json.loads(response.read().decode("utf-8"))
            n_ctx = int((props.get("default_generation_settings") or {}).get("n_ctx") or props.get("n_ctx") or 0)
        except (OSError, ValueError, TypeError, AttributeError):
            return None
        self.settings.context_tokens = n_ctx or None
        return self.settings.context_tokens

    def models(self) -> list[str]:
        """The model ids the endpoint offers (a connection test for the settings dialog)."""
        try:
            return [m.id for m in self._client.models.list()]
        except Exception as exc:  # noqa: BLE001 - every failure becomes one plain message
            raise self._explain(exc) from exc

    # -- one turn with retries ---------------------------------------------------------------
    def _turn(self, messages, tools, cancel_event, response_format=None) -> ChatReply:
        sent_messages = self._json_messages(messages, tools) if (tools and self.json_mode) else messages
        kwargs = {"model": self.settings.model, "messages": sent_messages}
        if response_format is not None:
            kwargs["response_format"] = response_format
        if self.settings.temperature is not None:
            kwargs["temperature"] = self.settings.temperature
        if tools and not self.json_mode:
            kwargs["tools"] = tools
        if self.settings.max_tokens and self.settings.provider not in ("openai", "azure"):
            kwargs["max_tokens"] = min(self.settings.max_tokens, 1024) if tools else self.settings.max_tokens
        attempt = 0
        while True:
            _check(cancel_event)
            try:
                reply = self._call_cancellable(kwargs, cancel_event)
                break
            except CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001 - classified below
                attempt += 1
                if not _retryable(exc) or attempt > self.settings.max_retries:
                    raise self._explain(exc) from exc
                _sleep(self._delay(exc, attempt), cancel_event)
        self.calls += 1
        if tools and (self.json_mode or not reply.tool_calls):
            _calls_from_text(reply, {t["function"]["name"] for t in tools})
        else:
            reply.content = strip_think(reply.content)
        if not reply.usage_from_api:
            reply.prompt_tokens = tokens.count_messages(sent_messages, kwargs.get("tools"))
            reply.completion_tokens = tokens.count_reply(reply.content, reply.tool_calls)
        return reply

    def _call_cancellable(self, kwargs, cancel_event) -> ChatReply:
        """Run the HTTP call in a helper thread so that a cancel is honoured while waiting on the server."""
        if cancel_event is None:
            return self._request(kwargs, None)
        box: dict = {}

        def work():
            try:
                box["reply"] = self._request(kwargs, cancel_event)
            except BaseException as exc:  # noqa: BLE001 - handed to the waiting thread
                box["error"] = exc

        worker = threading.Thread(target=work, daemon=True, name="geoclerk-llm")
        worker.start()
        while worker.is_alive():
            worker.join(0.05)
            _check(cancel_event)
        if "error" in box:
            raise box["error"]
        return box["reply"]

    def _request(self, kwargs, cancel_event) -> ChatReply:
        if self.settings.stream:
            return self._request_stream(kwargs, cancel_event)
        resp = self._client.chat.completions.create(**kwargs)
        if not getattr(resp, "choices", None):
            raise LLMError(
                f"The server at {safe_url(self.settings.base_url)} sent a reply with no choices.",
                fix="Is this an OpenAI-compatible /v1 endpoint?",
            )
        choice = resp.choices[0]
        msg = choice.message
        reply = ChatReply(content=msg.content or "", finish_reason=choice.finish_reason)
        for tc in msg.tool_calls or []:
            fn = tc.function
            reply.tool_calls.append(
                parse_arguments(ToolCall(tc.id or f"call_{len(reply.tool_calls)}", fn.name, fn.arguments or ""))
            )
        _take_usage(reply, getattr(resp, "usage", None))
        return reply

    def _request_stream(self, kwargs, cancel_event) -> ChatReply:
        """Stream a reply and assemble its text and its tool calls from the deltas."""
        stream = self._client.chat.completions.create(**kwargs, stream=True, stream_options={"include_usage": True})
        reply, parts, calls = ChatReply(), [], {}
        for chunk in stream:
            if cancel_event is not None and cancel_event.is_set():
                stream.close()
                raise CancelledError()
            _take_usage(reply, getattr(chunk, "usage", None))
            for choice in chunk.choices or []:
                delta = choice.delta
                if delta is not None and delta.content:
                    parts.append(delta.content)
                for tc in (delta.tool_calls or []) if delta is not None else []:
                    slot = calls.setdefault(tc.index, {"id": "", "name": "", "args": []})
                    if tc.id:
                        slot["id"] = tc.id
                    if tc.function is not None:
                        if tc.function.name:
                            slot["name"] += tc.function.name
                        if tc.function.arguments:
                            slot["args"].append(tc.function.arguments)
                if choice.finish_reason:
                    reply.finish_reason = choice.finish_reason
        if reply.finish_reason is None:
            raise IncompleteStreamError("the stream ended before the reply was complete")
        reply.content = "".join(parts)
        for index in sorted(calls):
            slot = calls[index]
            call = ToolCall(slot["id"] or f"call_{index}", slot["name"], "".join(slot["args"]))
            reply.tool_calls.append(parse_arguments(call))
        return reply

    # -- text-JSON fallback --------------------------------------------------------------------
    def _json_messages(self, messages, tools) -> list[dict]:
        """Describe the tools in the system prompt for a model without native tool calling."""
        lines = [
            "You can call tools. To call one, reply with ONLY a JSON object:",
            '{"tool": "<name>", "arguments": {...}}',
            "When the task is done, reply with plain text (no JSON). Tools:",
        ]
        for t in tools:
            fn = t["function"]
            params = json.dumps(fn.get("parameters", {}).get("properties", {}), separators=(",", ":"))
            required = ",".join(fn.get("parameters", {}).get("required", []))
            lines.append(f"- {fn['name']}: {fn.get('description', '')} args={params} required=[{required}]")
        guide = "\n".join(lines)
        out = [dict(m) for m in messages]
        if out and out[0].get("role") == "system":
            out[0]["content"] = f"{out[0]['content']}\n\n{guide}"
        else:
            out.insert(0, {"role": "system", "content": guide})
        return out

    # -- errors --------------------------------------------------------------------------------
    def _delay(self, exc, attempt: int) -> float:
        retry_after = _header(exc, "retry-after")
        if retry_after:
            try:
                return min(float(retry_after), MAX_BACKOFF_S)
            except ValueError:
                pass
        return min(self.settings.backoff_s * (2 ** (attempt - 1)), MAX_BACKOFF_S)

    def _explain(self, exc) -> LLMError:
        """A failure of the endpoint, in plain words, with what to do about it."""
        from .llm_errors import explain

        return explain(exc, self.settings)


def _take_usage(reply: ChatReply, usage) -> None:
    if usage is None:
        return
    prompt = getattr(usage, "prompt_tokens", None)
    completion = getattr(usage, "completion_tokens", None)
    if prompt is not None or completion is not None:
        reply.prompt_tokens = int(prompt or 0)
        reply.completion_tokens = int(completion or 0)
        reply.usage_from_api = True


def _calls_from_text(reply: ChatReply, offered: set[str]) -> None:
    """Read tool calls written as text (JSON, <tool_call> tags, fenced blocks); what is left is the answer."""
    calls, error = find_calls(reply.content, offered)
    if not calls:
        reply.content = strip_think(reply.content)
        return
    if error:
        reply.tool_calls = [ToolCall("json_0", calls[0][0], "", error=error)]
    else:
        reply.tool_calls = [parse_arguments(ToolCall(f"json_{i}", n, a)) for i, (n, a) in enumerate(calls)]
    reply.raw, reply.content = reply.content, ""


def _retryable(exc) -> bool:
    import openai

    if isinstance(exc, (openai.APITimeoutError, openai.APIConnectionError, IncompleteStreamError)):
        return True
    status = getattr(exc, "status_code", None)
    return status in RETRY_STATUSES


def _header(exc, name: str) -> str | None:
    response = getattr(exc, "response", None)
    if response is None:
        return None
    try:
        return response.headers.get(name)
    except Exception:  # noqa: BLE001
        return None


def _check(cancel_event) -> None:
    if cancel_event is not None and cancel_event.is_set():
        raise CancelledError()


def _sleep(seconds: float, cancel_event) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        _check(cancel_event)
        time.sleep(min(0.05, max(0.0, end - time.monotonic())))
