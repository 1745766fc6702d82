"""A real OpenAI-compatible HTTP server on 127.0.0.1 that plays a script of replies and records requests."""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

SCRIPTS_DIR = Path(__file__).parent / "scripts"

# One reply ("step") of a script is a dict:
#   {"content": "text"}                                   assistant text
#   {"tool_calls": [{"name": n, "arguments": {...}|"raw"}]}  tool calls (raw strings are sent verbatim)
#   {"stream": true}                                      force SSE even if the client did not ask
#   {"usage": {"prompt_tokens": p, "completion_tokens": c}} | {"usage": null}  (default: counted)
#   {"status": 429, "message": "...", "headers": {...}}   an error status with an OpenAI error body
#   {"delay": seconds}                                    wait before answering
#   {"close": "before"|"mid"}                             drop the connection (before or mid-reply)
#   {"raw_body": "not json"}                              a 200 with a body that is not JSON
# or a callable taking the request body (dict) and returning such a dict.


def load_script(name: str) -> list:
    """The replies of tests/scripts/NAME.json."""
    data = json.loads((SCRIPTS_DIR / f"{name}.json").read_text())
    return data["replies"] if isinstance(data, dict) else data


def _count(body: dict) -> int:
    from geoclerk.model_text.tokens import count_messages

    return count_messages(body.get("messages", []), body.get("tools"))


def _reply_tokens(step: dict) -> int:
    from geoclerk.model_text.tokens import count_text

    total = count_text(step.get("content") or "")
    for call in step.get("tool_calls") or []:
        total += count_text(call["name"]) + count_text(_raw_args(call))
    return total


def _raw_args(call: dict) -> str:
    args = call.get("arguments", {})
    return args if isinstance(args, str) else json.dumps(args)


class ScriptedServer:
    """Serve `/v1/chat/completions` and `/v1/models` from a list of replies, in order."""

    def __init__(self, script=None, model: str = "scripted", port: int = 0):
        self.script = list(script or [])
        self.port = port  # 0: a free one
        self.model = model
        self.n_ctx: int | None = None  # set: GET /props answers like llama-server with this context size
        self.requests: list[dict] = []  # every chat request body received, in order
        self.headers: list[dict] = []  # their headers (tests check the key is sent, and nothing else)
        self._lock = threading.Lock()
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # -- lifecycle --------------------------------------------------------------------------
    def start(self) -> ScriptedServer:
        from geoclerk.model_text.tokens import count_text

        count_text("warm up")  # load the tokenizer now, not inside the first reply (it can take seconds)
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):  # keep test output clean
                pass

            def do_GET(self):  # noqa: N802 - http.server API
                if self.path.rstrip("/") == "/health":  # llama-server's readiness probe
                    server._send_json(self, 200, {"status": "ok"})
                elif self.path.rstrip("/") == "/props" and server.n_ctx:  # llama-server's settings
                    server._send_json(self, 200, {"default_generation_settings": {"n_ctx": server.n_ctx}})
                elif self.path.rstrip("/").endswith("/models"):
                    server._send_json(self, 200, {"object": "list", "data": [{"id": server.model, "object": "model"}]})
                else:
                    server._send_json(self, 404, {"error": {"message": f"no route {self.path}"}})

            def do_POST(self):  # noqa: N802 - http.server API
                length = int(self.headers.get("Content-Length", 0))
                raw = self.rfile.read(length)
                if not self.path.rstrip("/").endswith("/chat/completions"):
                    server._send_json(self, 404, {"error": {"message": f"no route {self.path}"}})
                    return
                body = json.loads(raw or b"{}")
                with server._lock:
                    server.requests.append(body)
                    server.headers.append({k.lower(): v for k, v in self.headers.items()})
                    step = server.script.pop(0) if server.script else None
                if step is None:
                    server._send_json(self, 500, {"error": {"message": "scripted server: script exhausted"}})
                    return
                if callable(step):
                    step = step(body)
                server._play(self, body, step)

        self._httpd = ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True, name="scripted-llm")
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._httpd = None

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._httpd.server_address[1]}/v1"

    def add(self, *steps) -> None:
        with self._lock:
            self.script.extend(steps)

    def tools_seen(self, index: int = 0) -> list[str]:
        """Names of the tools shown to the model in request `index`."""
        return [t["function"]["name"] for t in self.requests[index].get("tools") or []]

    # -- replies ----------------------------------------------------------------------------
    def _play(self, handler, body: dict, step: dict) -> None:
        if step.get("delay"):
            time.sleep(step["delay"])
        if step.get("close") == "before":
            handler.close_connection = True
            handler.connection.shutdown(2)
            return
        if "status" in step and step["status"] != 200:
            err = {"error": {"message": step.get("message", "scripted error"), "type": "error", "code": step["status"]}}
            self._send_json(handler, step["status"], err, step.get("headers"))
            return
        if "raw_body" in step:
            data = step["raw_body"].encode()
            handler.send_response(200)
            handler.send_header("Content-Type", "application/json")
            handler.send_header("Content-Length", str(len(data)))
            handler.end_headers()
            handler.wfile.write(data)
            return
        usage = step.get("usage", "count")
        if usage == "count":
            usage = {"prompt_tokens": _count(body), "completion_tokens": _reply_tokens(step)}
        if usage is not None:
            usage = {**usage, "total_tokens": usage["prompt_tokens"] + usage["completion_tokens"]}
        if body.get("stream") or step.get("stream"):
            self._send_stream(handler, body, step, usage)
        else:
            self._send_completion(handler, step, usage)

    def _message(self, step: dict) -> tuple[dict, str]:
        msg = {"role": "assistant", "content": step.get("content")}
        calls = step.get("tool_calls") or []
        if calls:
            msg["tool_calls"] = [
                {"id": f"call_{i}", "type": "function", "function": {"name": c["name"], "arguments": _raw_args(c)}}
                for i, c in enumerate(calls)
            ]
        return msg, "tool_calls" if calls else "stop"

    def _send_completion(self, handler, step: dict, usage) -> None:
        msg, finish = self._message(step)
        payload = {
            "id": "chatcmpl-scripted",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": self.model,
            "choices": [{"index": 0, "message": msg, "finish_reason": finish}],
        }
        if usage is not None:
            payload["usage"] = usage
        if step.get("close") == "mid":
            data = json.dumps(payload).encode()
            handler.send_response(200)
            handler.send_header("Content-Type", "application/json")
            handler.send_header("Content-Length", str(len(data)))
            handler.end_headers()
            handler.wfile.write(data[: len(data) // 2])
            handler.wfile.flush()
            handler.close_connection = True
            handler.connection.shutdown(2)
            return
        self._send_json(handler, 200, payload)

    def _send_stream(self, handler, body: dict, step: dict, usage) -> None:
        handler.send_response(200)
        handler.send_header("Content-Type", "text/event-stream")
        handler.send_header("Cache-Control", "no-cache")
        handler.send_header("Connection", "close")
        handler.end_headers()
        handler.close_connection = True
        base = {
            "id": "chatcmpl-scripted",
            "object": "chat.completion.chunk",
            "created": int(time.time()),
            "model": self.model,
        }

        def emit(delta: dict | None, finish=None, extra=None):
            chunk = dict(base, choices=[] if delta is None else [{"index": 0, "delta": delta, "finish_reason": finish}])
            if extra:
                chunk.update(extra)
            handler.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
            handler.wfile.flush()

        emit({"role": "assistant", "content": ""})
        text = step.get("content") or ""
        for i in range(0, len(text), 12):
            emit({"content": text[i : i + 12]})
        chunks_sent = 0
        for index, call in enumerate(step.get("tool_calls") or []):
            args = _raw_args(call)
            head = {
                "index": index,
                "id": f"call_{index}",
                "type": "function",
                "function": {"name": call["name"], "arguments": ""},
            }
            emit({"tool_calls": [head]})
            for i in range(0, len(args), 7):
                emit({"tool_calls": [{"index": index, "function": {"arguments": args[i : i + 7]}}]})
                chunks_sent += 1
                if step.get("close") == "mid" and chunks_sent == 2:
                    handler.connection.shutdown(2)
                    return
        if step.get("close") == "mid":
            handler.connection.shutdown(2)
            return
        emit({}, finish="tool_calls" if step.get("tool_calls") else "stop")
        if usage is not None and (body.get("stream_options") or {}).get("include_usage"):
            emit(None, extra={"usage": usage})
        handler.wfile.write(b"data: [DONE]\n\n")
        handler.wfile.flush()

    @staticmethod
    def _send_json(handler, status: int, payload: dict, headers: dict | None = None) -> None:
        data = json.dumps(payload).encode()
        handler.send_response(status)
        handler.send_header("Content-Type", "application/json")
        handler.send_header("Content-Length", str(len(data)))
        for key, value in (headers or {}).items():
            handler.send_header(key, str(value))
        handler.end_headers()
        handler.wfile.write(data)


@pytest.fixture
def scripted():
    """A started ScriptedServer with an empty script; the test adds replies with `.add(...)`."""
    server = ScriptedServer().start()
    yield server
    server.stop()
