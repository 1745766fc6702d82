"""A local GGUF model served by llama-server on 127.0.0.1, as a managed subprocess (started, health-checked, stopped).

`make model` puts the runtime and the default model in ~/.cache/geoclerk (scripts/model.py); any other GGUF file
works the same way. The server speaks the OpenAI-compatible API the rest of the product already uses.
"""

from __future__ import annotations

import atexit
import os
import shutil
import socket
import subprocess
import threading
import time
import urllib.request
from pathlib import Path

from ..errors import LLMError

DEFAULT_CONTEXT = 8192
START_TIMEOUT_S = 120.0


def cache_dir() -> Path:
    return Path(os.environ.get("GEOCLERK_CACHE") or Path.home() / ".cache" / "geoclerk")


def default_model() -> Path:
    return cache_dir() / "models" / "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf"


def default_server() -> Path:
    """The llama-server `make model` built, else one on PATH (Homebrew, a llama.cpp release), else the cache path."""
    built = cache_dir() / "bin" / "llama-server"
    if built.exists():
        return built
    found = shutil.which("llama-server")
    return Path(found) if found else built


def default_threads(cores: int | None = None) -> int:
    """Half the machine's cores, at least one: QGIS and the code sandbox keep the rest. On 2 busy cores two
    generation threads collapsed below 1 token/s, so a 2-core machine gets one; an 8-core laptop gets four."""
    return max(1, (cores or os.cpu_count() or 2) // 2)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LocalModelServer:
    """llama-server for one GGUF file on a free loopback port; `base_url` once started."""

    def __init__(self, model: str | Path | None = None, server: str | Path | None = None, port: int | None = None,
                 context: int = DEFAULT_CONTEXT, threads: int | None = None):  # fmt: skip
        self.model = Path(model or default_model())
        self.server = Path(server or default_server())
        self.port = port or free_port()
        self.context = context
        self.threads = threads or default_threads()
        self.process: subprocess.Popen | None = None
        self.log = cache_dir() / "llama-server.log"

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def start(self, timeout: float = START_TIMEOUT_S) -> LocalModelServer:
        for path, what in ((self.model, "model file"), (self.server, "llama-server")):
            if not path.exists():
                raise LLMError(
                    f"The local {what} {path} is missing.",
                    fix="Choose an existing GGUF file in the settings; install llama.cpp's llama-server (or run "
                    "`make model` once in a checkout) so GeoClerk can start it.",
                )
        self.log.parent.mkdir(parents=True, exist_ok=True)
        cmd = [str(self.server), "-m", str(self.model), "--host", "127.0.0.1", "--port", str(self.port),
               "-c", str(self.context), "-t", str(self.threads), "--jinja", "--no-webui", "-np", "1"]  # fmt: skip
        env = dict(os.environ)  # a shared-library build keeps its libggml*.so beside the binary
        env["LD_LIBRARY_PATH"] = os.pathsep.join(p for p in (str(self.server.parent), env.get("LD_LIBRARY_PATH")) if p)
        with open(self.log, "ab") as log:
            self.process = subprocess.Popen(
                cmd, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=env
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise LLMError(f"llama-server stopped at start (exit {self.process.returncode}).",
                               fix=f"See {self.log}.")  # fmt: skip
            if self.healthy():
                return self
            time.sleep(0.5)
        self.stop()
        raise LLMError(f"llama-server did not become ready within {timeout:g} s.", fix=f"See {self.log}.")

    def healthy(self) -> bool:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/health", timeout=2) as reply:
                return reply.status == 200
        except OSError:
            return False

    def stop(self) -> None:
        if self.process is None:
            return
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        self.process = None

    def __enter__(self) -> LocalModelServer:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


# -- one managed server per model file, shared by every request of the process (plugin, CLI, bench) ----------
_SHARED: dict[tuple[str, str], LocalModelServer] = {}
_LOCK = threading.Lock()


def shared_server(model: str | Path | None = None, server: str | Path | None = None, progress=None) -> LocalModelServer:
    """The running server for `model` (started now, on a free loopback port, when none runs); a server for another
    model file is stopped first, so one model holds the memory at a time. Stopped at exit or by stop_shared()."""
    key = (str(Path(model or default_model())), str(Path(server or default_server())))
    with _LOCK:
        running = _SHARED.get(key)
        if running is not None and running.process is not None and running.process.poll() is None:
            return running
        for other in list(_SHARED):
            _SHARED.pop(other).stop()
        if progress is not None:
            progress(f"starting the local model {Path(key[0]).name} (a few seconds, once)")
        started = LocalModelServer(model=key[0], server=key[1]).start()
        _SHARED[key] = started
        return started


def stop_shared() -> None:
    """Stop every managed server (plugin unload, process exit)."""
    with _LOCK:
        for key in list(_SHARED):
            _SHARED.pop(key).stop()


atexit.register(stop_shared)
