"""The sandbox child: preloads the GIS stack, confines itself, then runs cells sent as JSON lines."""

from __future__ import annotations

import atexit
import io
import json
import os
import runpy
import shutil
import sys
import tempfile
import threading
import time
import traceback


def main() -> int:
    started = time.perf_counter()
    # The protocol gets private copies of fd 0/1; the code's own (and C libraries') stdout goes to stderr's file.
    proto_in = os.fdopen(os.dup(0), "r", encoding="utf-8")
    proto_out = os.fdopen(os.dup(1), "w", encoding="utf-8")
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.dup2(2, 1)
    policy = json.loads(proto_in.readline())

    # The parent's package folders: those it searches before its standard library (the plugin-managed folder, whose
    # newer packages must win over the system's) come first here too, after this script's own dir; the rest last.
    sys.path[1:1] = [p for p in policy.get("first_sys_path", []) if p not in sys.path[1:]]
    sys.path += [p for p in policy.get("extra_sys_path", []) if p not in sys.path]
    import guards
    import landlock
    from liveout import Channel, Flusher
    from names import describe_names

    channel = Channel(proto_out)

    limits = guards.apply_limits(policy.get("limits", {}))
    preloaded, preload_errors = _preload(policy.get("preload", []))
    guard = guards.Guard(policy)
    guard.read_roots = _read_roots(policy) + [os.path.realpath(policy["root"])]
    guard.read_files = set(_device_files())
    abi = 0
    if policy.get("limits", {}).get("landlock", True):
        try:
            abi = landlock.restrict([policy["root"], policy["tmp_dir"]], guard.read_roots, _device_files())
        except OSError as exc:
            preload_errors.append(f"landlock: {exc}")
    safe_builtins = guards.restricted_builtins(policy, after_import=lambda name: _guard_late_imports(guard, name))
    flusher = Flusher()  # started before the hooks: its thread is part of the baseline, not the code's
    guards.install(guard)
    hello = {
        "ready": True, "pid": os.getpid(), "python": sys.version.split()[0], "preloaded": preloaded,
        "errors": preload_errors, "limits": limits, "landlock": abi,
        "startup_ms": round((time.perf_counter() - started) * 1000, 1),
    }  # fmt: skip
    channel.send(hello)

    namespace = _fresh_namespace(safe_builtins)
    baseline = _Baseline()
    cell = 0
    for line in proto_in:
        try:
            request = json.loads(line)
        except ValueError:
            channel.send({"ok": False, "error": "The sandbox received a malformed message."})
            continue
        op = request.get("op")
        if op == "shutdown":
            break
        if op == "reset":
            namespace = _fresh_namespace(safe_builtins)
            _close_figures()
            channel.send({"id": request.get("id"), "ok": True})
        elif op == "names":  # the variables earlier cells left, described under the guard
            guard.enter(request.get("work_dir") or policy["root"])
            try:
                names = describe_names(namespace)
            except Exception as exc:  # noqa: BLE001 - a value that cannot be described must not stop the sandbox
                names = [f"(the variables could not be listed: {type(exc).__name__})"]
            finally:
                guard.leave()
            channel.send({"id": request.get("id"), "ok": True, "names": names})
        elif op == "ping":
            channel.send({"id": request.get("id"), "ok": True, "pid": os.getpid()})
        elif op == "run":
            cell += 1
            reply = _run_cell(request, namespace, guard, policy, cell, channel, flusher)
            reply["restored"] = baseline.restore()
            channel.send(reply)
        else:
            channel.send({"id": request.get("id"), "ok": False, "error": f"Unknown operation {op!r}."})
    return 0


class _Baseline:
    """sys.modules and signal handlers as they were at start, put back after every cell."""

    def __init__(self):
        import signal

        self.modules = dict(sys.modules)
        self.signal = signal
        self.handlers = {}
        for sig in signal.valid_signals():
            try:
                self.handlers[sig] = signal.getsignal(sig)
            except (OSError, ValueError):
                continue

    def restore(self) -> list[str]:
        changed = [name for name, module in self.modules.items() if sys.modules.get(name) is not module]
        for name in changed:
            sys.modules[name] = self.modules[name]
        signal = self.signal
        if hasattr(signal, "setitimer"):
            for timer in (signal.ITIMER_REAL, signal.ITIMER_VIRTUAL, signal.ITIMER_PROF):
                if signal.getitimer(timer) != (0.0, 0.0):
                    signal.setitimer(timer, 0)
                    changed.append(f"timer {timer}")
        for sig, handler in self.handlers.items():
            if handler is not None and signal.getsignal(sig) is not handler:
                try:
                    signal.signal(sig, handler)
                    changed.append(f"signal {sig}")
                except (OSError, ValueError, TypeError):
                    continue
        return changed


def _guard_late_imports(guard, name: str) -> None:
    """A library the code imports after start (rasterio is not always preloaded) gets its path checks now."""
    if name.partition(".")[0] in ("rasterio", "affine"):
        import raster_guard

        raster_guard.install_if_loaded(guard)


def _preload(names: list[str]) -> tuple[list[str], list[str]]:
    import warnings

    os.environ.setdefault("MPLBACKEND", "Agg")
    warnings.filterwarnings("ignore", message="Unable to import Axes3D")
    loaded, errors = [], []
    for name in names:
        try:
            __import__(name)
            loaded.append(name)
        except Exception as exc:  # a missing optional package must not stop the sandbox
            errors.append(f"{name}: {type(exc).__name__}: {exc}")
    if "sklearn" in loaded:
        try:  # threadpoolctl loads the BLAS libraries with ctypes: do it now, before dlopen is refused
            from sklearn.utils.fixes import threadpool_info

            threadpool_info()
        except Exception:  # noqa: BLE001 - sklearn missing or too old: nothing to warm up
            pass
        try:  # loky counts physical cores with a subprocess once, then caches the answer
            from joblib.externals.loky import cpu_count

            cpu_count(only_physical_cores=True)
        except Exception:  # noqa: BLE001 - joblib is optional
            pass
    return loaded, errors


# The few /etc files the GIS stack reads at run time (time zone, dynamic loader, fonts, matplotlib and MIME tables).
_ETC_READABLE = ("localtime", "timezone", "ld.so.cache", "ld.so.conf", "ld.so.conf.d", "fonts", "matplotlibrc",
                 "mime.types", "gdal", "proj", "alternatives")  # fmt: skip


# System font and time zone folders outside /usr (macOS keeps them under /System, /Library and /private/var/db).
_FONT_DIRS = ["/System/Library/Fonts", "/Library/Fonts", "/private/var/db/timezone", "/usr/share/zoneinfo"]


def _read_roots(policy: dict) -> list[str]:
    """The only places the child may read besides its work root: Python, system libraries and GIS data dirs.

    Not /etc as a whole (passwd, hosts), /home, /root, /var, /tmp or other users' files: only what numpy, pandas,
    GeoPandas, pyproj/PROJ, GDAL, matplotlib and scikit-learn need, minus secrets.
    """
    home = os.path.realpath(os.path.expanduser("~"))
    blocked = [os.path.realpath(os.path.expanduser(p)) for p in policy.get("sensitive_paths", [])]
    candidates = [sys.prefix, sys.base_prefix, sys.exec_prefix, os.path.dirname(sys.executable)]
    candidates += [p for p in sys.path if p] + list(policy.get("read_roots", []))
    candidates += ["/usr", "/lib", "/lib64", "/lib32", "/proc/self", "/proc/cpuinfo", "/proc/meminfo", "/proc/stat",
                   "/sys/devices/system/cpu", "/sys/fs/cgroup"]  # fmt: skip
    candidates += [os.path.join("/etc", name) for name in _ETC_READABLE]
    for env in ("GDAL_DATA", "PROJ_DATA", "PROJ_LIB"):
        if os.environ.get(env):
            candidates.append(os.environ[env])
    candidates += _library_data_dirs()
    roots = []
    for path in candidates:
        real = os.path.realpath(path)
        too_wide = real in ("/", home, "/etc", "/tmp", "/var", "/home", "/proc") or home.startswith(real + os.sep)
        secret = any(real == b or real.startswith(b + os.sep) or b.startswith(real + os.sep) for b in blocked)
        if os.path.exists(real) and not too_wide and not secret and real not in roots:
            roots.append(real)
    return roots


def _library_data_dirs() -> list[str]:
    """Data folders of preloaded libraries that may live outside the Python prefix (fonts cache, PROJ, GDAL)."""
    home = os.path.expanduser("~")
    dirs = [os.environ.get("MPLCONFIGDIR", ""),  # matplotlib's font cache and rc, even when it is imported later
            os.path.join(os.environ.get("XDG_CONFIG_HOME") or os.path.join(home, ".config"), "matplotlib"),
            os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.join(home, ".cache"), "matplotlib")]  # fmt: skip
    dirs += _FONT_DIRS + [os.path.join(home, d) for d in (".fonts", ".local/share/fonts", "Library/Fonts")]
    dirs += [os.path.join(os.environ.get(v, ""), "Fonts") for v in ("WINDIR", "SystemRoot") if os.environ.get(v)]
    if os.environ.get("LOCALAPPDATA"):
        dirs.append(os.path.join(os.environ["LOCALAPPDATA"], "Microsoft", "Windows", "Fonts"))
    matplotlib = sys.modules.get("matplotlib")
    if matplotlib is not None:
        dirs += [matplotlib.get_cachedir(), matplotlib.get_configdir(), matplotlib.get_data_path()]
    font_manager = sys.modules.get("matplotlib.font_manager")
    if font_manager is not None:  # wherever the font cache found fonts: savefig opens them
        try:
            dirs += sorted({os.path.dirname(f.fname) for f in font_manager.fontManager.ttflist})
        except Exception:  # noqa: BLE001 - an odd font cache must not stop the sandbox
            pass
    pyproj = sys.modules.get("pyproj")
    if pyproj is not None:
        try:
            dirs.append(pyproj.datadir.get_data_dir())
        except Exception:  # noqa: BLE001 - pyproj without data dir: PROJ_DATA or /usr/share/proj then
            pass
    pyogrio = sys.modules.get("pyogrio")
    if pyogrio is not None:
        try:
            dirs.append(pyogrio.get_gdal_data_path() or "")
        except Exception:  # noqa: BLE001 - optional
            pass
    return [d for d in dirs if d]


def _device_files() -> list[str]:
    return [p for p in ("/dev/null", "/dev/zero", "/dev/urandom", "/dev/random") if os.path.exists(p)]


_CELLS: list[str] = []


def _cells_dir() -> str:
    """The worker's private folder for cell files (made once, removed with the worker's temp files)."""
    if not _CELLS:
        _CELLS.append(tempfile.mkdtemp(prefix="geoclerk-cells-"))
        atexit.register(shutil.rmtree, _CELLS[0], True)
    return _CELLS[0]


def _remove(path: str) -> None:
    try:
        os.remove(path)
    except OSError:
        pass


def _fresh_namespace(safe_builtins: dict) -> dict:
    return {"__name__": "__main__", "__builtins__": safe_builtins}


def _close_figures() -> None:
    plt = sys.modules.get("matplotlib.pyplot")
    if plt is not None:
        plt.close("all")


def _run_cell(request: dict, namespace: dict, guard, policy: dict, cell: int, channel, flusher) -> dict:
    import guards
    import raster_guard
    from liveout import LiveOut

    work_dir = request["work_dir"]
    # The cell runs from a file with runpy (the plugin repository's scan refuses exec in plugin code). The file lives
    # in the worker's own folder, not in the work dir the code sees; the guard lets the runner read that one file.
    filename = os.path.join(_cells_dir(), f"cell-{cell}.py")
    out, err = LiveOut(channel, request.get("id")), io.StringIO()
    threads_before = set(threading.enumerate())
    old_out, old_err = sys.stdout, sys.stderr
    ok, error, violations = True, None, []
    started = time.perf_counter()
    try:
        os.chdir(work_dir)
        guards.set_cpu_budget(int(request.get("cpu_seconds") or policy["limits"].get("cpu_seconds", 600)))
        compile(request["code"], filename, "exec")  # a syntax error is reported before anything runs
        with open(filename, "w", encoding="utf-8") as handle:
            handle.write(request["code"])
    except SyntaxError as exc:
        ok, error = False, f"SyntaxError: {exc.msg} (line {exc.lineno}: `{(exc.text or '').strip()}`)"
    except OSError as exc:
        ok, error = False, f"The work dir cannot be used: {exc}"
    if ok:
        raster_guard.install_if_loaded(guard)  # rasterio imported by an earlier cell or another library
        sys.stdout, sys.stderr = out, err
        flusher.current = out
        guard.read_files.add(os.path.realpath(filename))
        guard.enter(work_dir)
        failure = None
        try:
            names = runpy.run_path(filename, init_globals=namespace, run_name="__main__")
            if request.get("keep", True):  # a trial run (a candidate on a sample) leaves no variables
                namespace.update(names)
        except BaseException as exc:  # noqa: BLE001 - SystemExit and KeyboardInterrupt from the code too
            failure = exc
        finally:
            violations = guard.leave()
            guard.read_files.discard(os.path.realpath(filename))
            _remove(filename)
            flusher.current = None
            sys.stdout, sys.stderr = old_out, old_err
        if failure is not None:
            ok, error = False, _explain(failure, request["code"], filename)
            failure = None
    leftover = [t for t in threading.enumerate() if t not in threads_before and t.is_alive()]
    restart = bool(leftover)
    if leftover:
        ok = False
        error = (error + " " if error else "") + (
            f"The code left {len(leftover)} thread(s) running; the sandbox was restarted and its variables were lost."
        )
    text, truncated = out.finish()
    return {
        "id": request.get("id"), "ok": ok, "error": error, "stdout": text,
        "stdout_truncated": truncated, "restart": restart, "blocked": violations,
        "stderr": err.getvalue()[-20_000:],
        "elapsed_ms": round((time.perf_counter() - started) * 1000, 2),
    }  # fmt: skip


def _explain(exc: BaseException, code: str, filename: str) -> str:
    """The root cause in one or two lines: exception, the failing line of the user's code, where it was raised."""
    if isinstance(exc, SystemExit):
        return "The code called exit(); print the answer instead of exiting."
    if isinstance(exc, KeyboardInterrupt):
        return "The code was interrupted."
    frames = traceback.extract_tb(exc.__traceback__)
    head = "".join(traceback.format_exception_only(type(exc), exc)).strip().splitlines()
    message = head[-1] if head else type(exc).__name__
    if len(head) > 1 and isinstance(exc, SyntaxError):
        message = " ".join(h.strip() for h in head)
    if "Permission denied" in message and "Blocked by the sandbox" not in message:  # the kernel's rules (Landlock)
        message += (" (the sandbox lets code read only the work dir and the Python/GIS libraries, and write only in"
                    " the work dir)")  # fmt: skip
    here = os.path.dirname(os.path.abspath(__file__))
    frames = [f for f in frames if os.path.dirname(os.path.abspath(f.filename)) != here]
    user = [f for f in frames if f.filename == filename]
    lines = code.splitlines()
    parts = [message]
    if user:
        lineno = user[-1].lineno or 0
        source = lines[lineno - 1].strip() if 0 < lineno <= len(lines) else ""
        parts.append(f"(line {lineno}: `{source}`)")
    if frames and frames[-1].filename != filename:
        inner = frames[-1]
        parts.append(f"[raised in {_short_path(inner.filename)}, {inner.name}()]")
    return " ".join(parts)


def _short_path(path: str) -> str:
    for marker in ("site-packages" + os.sep, "dist-packages" + os.sep):
        if marker in path:
            return path.split(marker, 1)[1]
    return os.path.basename(path)


if __name__ == "__main__":
    sys.exit(main())
