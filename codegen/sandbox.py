"""The persistent sandbox process of a conversation: spawn, run cells over JSON lines, time out, kill, restart."""

from __future__ import annotations

import json
import os
import queue
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from ..compat import OLD_LIBS
from ..errors import CancelledError, SandboxError
from ..lang import tr
from . import static_check
from .policy import ChildPolicy, Limits, clean_env, sensitive_paths
from .workdir import copy_inputs, find_outputs, snapshot

WORKER = Path(__file__).resolve().parent / "child" / "worker.py"
START_TIMEOUT = 120.0
MAX_STDOUT = 1_000_000  # the child keeps the same tail
_EOF = {"eof": True}


@dataclass
class CellResult:
    """What one run of generated code produced."""

    ok: bool
    error: str | None = None
    stdout: str = ""
    outputs: list[dict] = field(default_factory=list)
    elapsed_ms: float = 0.0
    restarted: bool = False
    stage: str = "run"  # static | run | timeout | crash | cancelled
    blocked: list[str] = field(default_factory=list)  # operations the guards refused, even if the code went on
    stderr: str = ""  # warnings and the like: shown to the model when repairing, never part of the answer

    def to_json(self) -> dict:
        return {"ok": self.ok, "error": self.error, "stdout": self.stdout, "outputs": self.outputs}


def python_fix() -> str:
    """What to do when no Python can run generated code (the settings field, in the user's language)."""
    return tr("Set 'Python for generated code' in GeoClerk's settings (or the GEOCLERK_PYTHON environment variable) "
              "to a Python 3 executable that has geopandas.")  # fmt: skip


def find_python(setting: str | None = None) -> str:
    """A Python interpreter for the child: the user's setting, else GEOCLERK_PYTHON, else one found next to the running
    Python (inside QGIS sys.executable is QGIS itself, so look around it). A setting that is no executable file is an
    error, not skipped: the user chose it."""
    if setting:
        if os.path.isfile(setting) and os.access(setting, os.X_OK):
            return setting
        message = tr("The Python for generated code, '{path}', is not an executable file.").format(path=setting)
        raise SandboxError(message, fix=python_fix())
    candidates = [os.environ.get("GEOCLERK_PYTHON")]
    if _looks_like_python(sys.executable):
        candidates.append(sys.executable)
    base = getattr(sys, "_base_executable", None)
    if base and _looks_like_python(base):
        candidates.append(base)
    version = f"{sys.version_info.major}.{sys.version_info.minor}"
    for prefix in dict.fromkeys([sys.exec_prefix, sys.base_exec_prefix, os.path.dirname(sys.executable)]):
        for rel in ("bin/python3", f"bin/python{version}", "python.exe", "python3.exe", "bin/python", "python3"):
            candidates.append(os.path.join(prefix, rel))
    candidates += [shutil.which("python3"), shutil.which("python")]
    for candidate in candidates:
        if candidate and os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    raise SandboxError(tr("No Python interpreter was found to run generated code in a separate process."),
                       fix=python_fix())  # fmt: skip


def _looks_like_python(path: str | None) -> bool:
    return bool(path) and Path(path).name.lower().startswith("python")


class Sandbox:
    """One child process; variables survive between cells until `reset()`, a timeout or a crash."""

    def __init__(self, root=None, python: str | None = None, timeout: float = 60.0, limits: Limits | None = None,
                 preload: list[str] | None = None, respawn: bool = True):  # fmt: skip
        self._own_root = root is None
        self.root = Path(root or tempfile.mkdtemp(prefix="geoclerk-sandbox-")).resolve()
        self.python = python or find_python()
        self.timeout = timeout
        self.limits = limits or Limits()
        self.preload = preload
        self.respawn = respawn  # after a kill, start the next child at once (it warms up while the model thinks)
        self.info: dict = {}
        self._ready = False
        self._spawned_at = 0.0
        self.starts = 0
        self._proc: subprocess.Popen | None = None
        self._lines: queue.Queue = queue.Queue()
        self._tmp: str | None = None
        self._log = None
        self._ids = 0
        self._runs = 0
        self.history: list[str] = []  # the cells run since the last reset, whose names may still exist (apicheck)

    # -- lifecycle -------------------------------------------------------------------------
    @property
    def alive(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    def start(self) -> dict:
        """Start the child (imports the GIS stack, confines itself) and wait for its ready message."""
        if self.alive and self._ready:
            return self.info
        if not self.alive:
            self.close()
            self._spawn()
        hello = self._read(time.monotonic() + START_TIMEOUT, None)
        if not hello or not hello.get("ready"):
            tail = self._log_tail()
            self.close()
            raise SandboxError(tr("The sandbox process could not start."), fix=python_fix(), details=tail)
        self.info = dict(hello, cold_start_ms=round((time.perf_counter() - self._spawned_at) * 1000, 1))
        self._ready = True
        self.starts += 1
        return self.info

    def _spawn(self) -> None:
        """Launch the child and send it the policy; `start()` waits for its ready message."""
        check_root(self.root)
        self.root.mkdir(parents=True, exist_ok=True)
        self._tmp = tempfile.mkdtemp(prefix="geoclerk-sandbox-tmp-")
        policy = ChildPolicy(root=str(self.root), tmp_dir=self._tmp, sensitive_paths=sensitive_paths(),
                             limits=self.limits.to_json(), extra_sys_path=_site_dirs(),
                             first_sys_path=_leading_site_dirs(_site_dirs()))  # fmt: skip
        if self.preload is not None:
            policy.preload = list(self.preload)
        env = clean_env(dict(os.environ))
        env.update(MPLBACKEND="Agg", TMPDIR=self._tmp, TEMP=self._tmp, TMP=self._tmp, PYTHONDONTWRITEBYTECODE="1",
                   PYTHONIOENCODING="utf-8", PYTHONUNBUFFERED="1",
                   LOKY_MAX_CPU_COUNT=str(os.cpu_count() or 1), PROJ_NETWORK="OFF", JOBLIB_MULTIPROCESSING="0",
                   GDAL_HTTP_TIMEOUT="1", CPL_VSIL_CURL_ALLOWED_EXTENSIONS=".none")  # fmt: skip
        env.pop("PYTHONSTARTUP", None)
        self._log = tempfile.TemporaryFile(prefix="geoclerk-sandbox-log-")
        kwargs = {"start_new_session": True} if os.name == "posix" else {"creationflags": 0x00000200}
        self._spawned_at = time.perf_counter()
        self._ready = False
        self._proc = subprocess.Popen(
            [self.python, "-u", str(WORKER)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._log,
            cwd=str(self.root), env=env, text=True, encoding="utf-8", bufsize=1, **kwargs,
        )  # fmt: skip
        self._lines = queue.Queue()
        threading.Thread(target=_pump, args=(self._proc.stdout, self._lines), daemon=True).start()
        self._write(policy.to_json())

    def close(self) -> None:
        """Kill the child's whole process group and remove its private temp dir."""
        self.history = []
        proc, self._proc, self._ready = self._proc, None, False
        if proc is not None:
            _kill_tree(proc)
            for stream in (proc.stdin, proc.stdout):
                try:
                    stream.close()
                except OSError:
                    pass
        if self._tmp:
            shutil.rmtree(self._tmp, ignore_errors=True)
            self._tmp = None
        if self._log is not None:
            self._log.close()
            self._log = None

    def __enter__(self) -> Sandbox:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
        if self._own_root:
            shutil.rmtree(self.root, ignore_errors=True)

    # -- work dirs -------------------------------------------------------------------------
    def new_work_dir(self, name: str = "run") -> Path:
        """A fresh, empty work dir under this sandbox's root (no restart needed to use it)."""
        self._runs += 1
        path = self.root / f"{name}-{self._runs:03d}"
        while path.exists():
            self._runs += 1
            path = self.root / f"{name}-{self._runs:03d}"
        path.mkdir(parents=True)
        return path

    def prepare(self, work_dir, inputs=(), replace=()) -> dict[str, str]:
        """Copy the inputs (with sidecars) into the work dir; returns {original: copy}. Refuses their own folder."""
        check_root(Path(work_dir).resolve())
        return copy_inputs(inputs, work_dir, replace)

    # -- cells -----------------------------------------------------------------------------
    def reset(self) -> None:
        """Forget every variable of earlier cells (a new request starts clean; a fresh child already is)."""
        self.history.clear()
        if self.alive and self._ready:
            request_id = self._next_id()
            self._write({"op": "reset", "id": request_id})
            if self._read(time.monotonic() + 10, None, request_id) in (None, _EOF):
                self.close()

    def names(self) -> list[str]:
        """The variables earlier cells left ('gdf: GeoDataFrame (5 rows; ...)'); none when no child runs."""
        if not (self.alive and self._ready):
            return []
        request_id = self._next_id()
        self._write({"op": "names", "id": request_id, "work_dir": str(self.root)})
        reply = self._read(time.monotonic() + 10, None, request_id)
        if reply in (None, _EOF):
            self.close()
            return []
        return [str(line) for line in reply.get("names") or []]

    def run(self, code: str, work_dir, timeout: float | None = None, check: bool = True, cancel_event=None,
            exclude=(), keep: bool = True) -> CellResult:  # fmt: skip
        """Run one cell in `work_dir` (under the root, else the child restarts there); never raises for code errors.
        `keep=False`: the variables the cell binds are dropped (a trial run must not replace the conversation's)."""
        work_dir = Path(work_dir).resolve()
        if check:
            findings = static_check.check_code(code, work_dir)
            if findings:
                return CellResult(False, static_check.describe(findings), stage="static")
        restarted = self._ensure_root(work_dir)
        before = snapshot(work_dir)
        timeout = self.timeout if timeout is None else timeout
        request_id = self._next_id()
        self._write({"op": "run", "id": request_id, "code": code, "work_dir": str(work_dir), "keep": keep,
                     "cpu_seconds": int(max(timeout, 1) * 2 + 5)})  # fmt: skip
        started = time.perf_counter()
        printed = _Tail()  # what the code printed so far, shipped while it runs
        reply = self._read(time.monotonic() + timeout, cancel_event, request_id, printed)
        elapsed = (time.perf_counter() - started) * 1000
        if reply is None or reply is _EOF:
            result = self._lost(timeout, cancel_event, eof=reply is _EOF, ran=elapsed / 1000)
            result.stdout = printed.text()
            result.elapsed_ms = elapsed
        else:
            result = CellResult(bool(reply.get("ok")), reply.get("error"), reply.get("stdout", ""),
                                elapsed_ms=reply.get("elapsed_ms", elapsed), restarted=restarted,
                                blocked=list(reply.get("blocked") or []), stderr=reply.get("stderr", ""))  # fmt: skip
            if reply.get("restart"):
                self._restart_later()
                result.restarted = True
        result.outputs = find_outputs(work_dir, before, exclude)
        if keep:
            self.history = ([] if result.restarted else self.history) + [code]
        return result

    def _ensure_root(self, work_dir: Path) -> bool:
        """Landlock fixed the child's writable root at start: a work dir elsewhere needs a new child."""
        inside = work_dir == self.root or self.root in work_dir.parents
        if not inside:
            self.close()
            self.root = work_dir
            self._own_root = False
        if not (self.alive and self._ready):
            was_started = self.starts > 0
            self.start()
            return was_started
        return False

    def _restart_later(self) -> None:
        """Kill this child; with `respawn`, launch the next one now so it is warm by the next cell."""
        self.close()
        if self.respawn:
            self._spawn()

    def _lost(self, timeout: float, cancel_event, eof: bool = False, ran: float = 0.0) -> CellResult:
        """No reply: the code timed out, was cancelled, or killed the child. Kill the tree; next run restarts."""
        cancelled = cancel_event is not None and cancel_event.is_set()
        code = None
        if eof and self._proc is not None:
            try:
                code = self._proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                code = None
        died = eof
        tail = self._log_tail()
        self._restart_later()
        if cancelled:
            return CellResult(False, "The run was cancelled; the sandbox was stopped.", stage="cancelled",
                              restarted=True)  # fmt: skip
        if not died:
            after = ("the sandbox was restarted (variables of earlier cells are lost)" if self.respawn
                     else "the sandbox process was stopped")  # fmt: skip
            return CellResult(False, f"The code ran longer than the {timeout:g} s limit and was stopped after "
                              f"{ran:.1f} s (its output until then is kept); {after}. Make the code faster or work "
                              "on less data.", stage="timeout", restarted=True)  # fmt: skip
        how = _signal_name(code)
        detail = f" Last output: {tail.strip().splitlines()[-1]}" if tail.strip() else ""
        return CellResult(False, f"The sandbox process died ({how}) while running the code; it was restarted "
                          f"(variables of earlier cells are lost).{detail}", stage="crash", restarted=True)  # fmt: skip

    # -- protocol --------------------------------------------------------------------------
    def _next_id(self) -> int:
        self._ids += 1
        return self._ids

    def _write(self, message: dict) -> None:
        try:
            self._proc.stdin.write(json.dumps(message) + "\n")
            self._proc.stdin.flush()
        except (OSError, ValueError, AttributeError):
            pass  # a dead child shows up as a missing reply

    def _read(self, deadline: float, cancel_event, want_id: int | None = None, printed: _Tail | None = None):
        """The next message (with `want_id`, the reply to that request), None on timeout or cancel, _EOF on exit.

        Output chunks of that request go to `printed` (kept to about MAX_STDOUT characters).
        """
        while True:
            if cancel_event is not None and cancel_event.is_set():
                return None
            wait = min(0.05, deadline - time.monotonic()) if cancel_event is not None else deadline - time.monotonic()
            if wait <= 0:
                return None
            try:
                line = self._lines.get(timeout=wait)
            except queue.Empty:
                continue
            if line is None:
                return _EOF
            try:
                message = json.loads(line)
            except ValueError:
                continue
            if "chunk" in message:
                if printed is not None and message.get("id") == want_id:
                    printed.add(str(message["chunk"]))
                continue
            if want_id is None or message.get("id") == want_id:
                return message

    def _log_tail(self, limit: int = 2000) -> str:
        if self._log is None:
            return ""
        try:
            self._log.flush()
            self._log.seek(0, os.SEEK_END)
            size = self._log.tell()
            self._log.seek(max(0, size - limit))
            return self._log.read().decode("utf-8", "replace")
        except (OSError, ValueError):
            return ""


def check_root(root: Path) -> None:
    """The child may write anywhere under its root: never the home folder, a system folder or a secret's parent."""
    home = Path.home().resolve()
    secrets = [Path(p).resolve() for p in sensitive_paths()]
    top_level = len(root.parts) < 3 if os.name == "posix" else root == Path(root.anchor)
    too_wide = root == home or root in home.parents or top_level
    if too_wide or any(root == s or root in s.parents or s in root.parents for s in secrets):
        raise SandboxError(
            f"The folder '{root}' is too broad (or too private) to let generated code write in it.",
            fix="Choose a dedicated, empty output folder, for example a new folder inside your project.",
        )


class _Tail:
    """The last MAX_STDOUT characters of a stream of chunks, in amortised linear time."""

    def __init__(self):
        self.parts: list[str] = []
        self.size = 0

    def add(self, text: str) -> None:
        self.parts.append(text)
        self.size += len(text)
        if self.size > 2 * MAX_STDOUT:
            self.parts = ["".join(self.parts)[-MAX_STDOUT:]]
            self.size = MAX_STDOUT

    def text(self) -> str:
        return "".join(self.parts)[-MAX_STDOUT:]


def _pump(stream, lines: queue.Queue) -> None:
    try:
        for line in stream:
            lines.put(line)
    except (OSError, ValueError):
        pass
    lines.put(None)


def _kill_tree(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        try:
            if os.name == "posix":
                os.killpg(proc.pid, signal.SIGKILL)
            else:
                proc.kill()
        except (ProcessLookupError, PermissionError, OSError):
            proc.kill()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        pass


def _signal_name(code: int | None) -> str:
    if code is not None and code < 0:
        try:
            return f"signal {signal.Signals(-code).name}"
        except ValueError:
            return f"signal {-code}"
    return f"exit code {code}"


# The folder the plugin installs missing packages into (geoclerk_plugin/dependencies.py), in the QGIS profile.
PLUGIN_LIBS = "geoclerk_libs"
PLUGIN_LIBS_NAMES = (PLUGIN_LIBS, OLD_LIBS)  # and the folder of the product's old name


def _site_dirs() -> list[str]:
    """The parent's package folders (QGIS may add its own, the plugin its geoclerk_libs), so the child finds the
    same GeoPandas: an installed plugin's packages live only in the profile's geoclerk_libs."""
    return [
        p
        for p in sys.path
        if p
        and ("site-packages" in p or "dist-packages" in p or os.path.basename(p.rstrip(os.sep)) in PLUGIN_LIBS_NAMES)
        and os.path.isdir(p)
    ]


def _leading_site_dirs(dirs: list[str]) -> list[str]:
    """Those of `dirs` the parent searches before its standard library (the plugin puts its geoclerk_libs first, so
    its newer packages win). The child must search them first too: appended after the system's dist-packages, a
    Debian QGIS's child imported NumPy 1.24 from /usr/lib/python3 under the plugin's pandas and failed."""
    stdlib = os.path.dirname(os.__file__)
    if stdlib in sys.path:
        ahead = set(sys.path[: sys.path.index(stdlib)])
        return [p for p in dirs if p in ahead]
    return [p for p in dirs if os.path.basename(p.rstrip(os.sep)) in PLUGIN_LIBS_NAMES]


def ensure_not_cancelled(cancel_event) -> None:
    if cancel_event is not None and cancel_event.is_set():
        raise CancelledError()
