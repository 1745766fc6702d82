"""Layers (b) and (c) inside the sandbox child: OS limits, an audit hook, restricted builtins and I/O path checks."""

from __future__ import annotations

import builtins
import os
import signal
import sys
import threading

_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND
_PROCESS_EVENTS = {
    "os.system", "os.exec", "os.spawn", "os.posix_spawn", "os.fork", "os.forkpty", "subprocess.Popen",
    "pty.spawn", "os.startfile", "os.killpg", "signal.pthread_kill", "ctypes.dlopen", "ctypes.dlsym",
    "ctypes.dlsym/handle", "resource.setrlimit", "resource.prlimit", "sys.addaudithook", "sys.settrace",
    "sys.setprofile", "sys._current_frames", "urllib.Request", "http.client.connect", "ftplib.connect",
    "smtplib.connect", "webbrowser.open", "sqlite3.connect", "os.add_dll_directory", "winreg.OpenKey",
    "os.setxattr", "os.removexattr", "os.chflags", "os.lchflags", "os.chown", "shutil.chown", "syslog.openlog",
}  # fmt: skip
_PATH_WRITE_EVENTS = {  # event -> indexes of path arguments that are written
    "os.remove": (0,), "os.rmdir": (0,), "os.mkdir": (0,), "os.rename": (0, 1), "os.link": (0, 1),
    "os.symlink": (0, 1), "os.truncate": (0,), "os.chmod": (0,), "os.utime": (0,), "os.mkfifo": (0,),
    "os.mknod": (0,), "shutil.rmtree": (0,), "shutil.copyfile": (1,), "shutil.copymode": (1,),
    "shutil.copystat": (1,), "shutil.copytree": (1,), "shutil.move": (0, 1), "shutil.make_archive": (0,),
    "shutil.unpack_archive": (1,), "os.chdir": (0,),
}  # fmt: skip
_PATH_READ_EVENTS = {"os.listdir": 0, "os.scandir": 0, "glob.glob": 0, "pathlib.Path.glob": 0, "os.walk": 0}
_FFI_MODULES = {"ctypes", "_ctypes", "cffi", "_posixsubprocess", "pty", "_winapi", "mmap"}
# threading starts its threads with _thread.start_new_thread up to Python 3.12, start_joinable_thread from 3.13
_THREAD_START_EVENTS = {"_thread.start_new_thread", "_thread.start_joinable_thread"}
_ENV_EVENTS = {"os.putenv", "os.unsetenv"}
# os functions that raise no audit event but change privileges, namespaces or process groups: wrapped by name.
_OS_UNAUDITED = (
    "chroot", "setuid", "seteuid", "setgid", "setegid", "setreuid", "setregid", "setresuid", "setresgid", "setgroups",
    "initgroups", "setsid", "setpgid", "setpgrp", "tcsetpgrp", "memfd_create", "pidfd_open", "openpty", "login_tty",
    "unshare", "setns", "nice", "sched_setscheduler", "sched_setparam", "setpriority", "plock",
)  # fmt: skip


class SandboxViolation(PermissionError):  # noqa: N818 - the name users see in error messages
    """An operation the sandbox does not allow."""


SandboxViolation.__module__ = "builtins"  # tracebacks then say "SandboxViolation: ...", not "guards.SandboxViolation"


def apply_limits(limits: dict) -> list[str]:
    """RLIMIT_* for this process (nothing on platforms without `resource`); returns what was applied."""
    try:
        import resource
    except ImportError:
        return []
    applied = []
    wanted = [
        ("RLIMIT_CORE", 0),
        ("RLIMIT_AS", limits.get("address_space")),
        ("RLIMIT_FSIZE", limits.get("file_size")),
        ("RLIMIT_NOFILE", limits.get("open_files")),
    ]
    for name, value in wanted:
        kind = getattr(resource, name, None)
        if kind is None or value is None:
            continue
        soft, hard = resource.getrlimit(kind)
        value = value if hard == resource.RLIM_INFINITY else min(value, hard)
        try:
            resource.setrlimit(kind, (value, value))
            applied.append(name)
        except (ValueError, OSError):
            pass
    if hasattr(signal, "SIGXFSZ"):
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a too-big write raises OSError(EFBIG) instead of killing us
    if hasattr(signal, "SIGXCPU"):
        signal.signal(signal.SIGXCPU, _cpu_exceeded)
    return applied


def _cpu_exceeded(signum, frame):
    raise TimeoutError("The code used more CPU time than the sandbox allows for one run.")


def set_cpu_budget(seconds: int) -> None:
    """Soft RLIMIT_CPU = CPU used so far + the budget of one cell (the persistent child accumulates CPU time)."""
    try:
        import resource
    except ImportError:
        return
    used = resource.getrusage(resource.RUSAGE_SELF)
    total = int(used.ru_utime + used.ru_stime) + int(seconds) + 1
    _, hard = resource.getrlimit(resource.RLIMIT_CPU)
    if hard != resource.RLIM_INFINITY:
        total = min(total, hard)
    resource.setrlimit(resource.RLIMIT_CPU, (total, hard))


def _exists(module: str) -> bool:
    """Can `module` be imported here (built in, or found on the path), without importing it?"""
    import importlib.util

    if module in sys.builtin_module_names:
        return True
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return True  # unknown: keep it refused


class Guard:
    """The audit hook's state. Only the worker's main() holds a reference; generated code gets none."""

    def __init__(self, policy: dict):
        self.active = False
        self.write_roots: list[str] = [os.path.realpath(policy["tmp_dir"])]
        self.sensitive_paths = [os.path.realpath(os.path.expanduser(p)) for p in policy.get("sensitive_paths", [])]
        self.sensitive_names = set(policy.get("sensitive_names", []))
        self.sensitive_dirs = set(policy.get("sensitive_dirs", []))
        self.max_threads = int(policy.get("limits", {}).get("max_threads", 16))
        self.violations: list[str] = []
        self.pid = os.getpid()
        self._base_roots = list(self.write_roots)
        self.read_roots: list[str] = []  # package and data dirs and the work root: the only readable places
        self.read_files: set[str] = set()  # device files such as /dev/null
        self.env_markers = tuple(m.upper() for m in policy.get("env_forbidden_markers", ()))
        # Only the FFI modules that exist here: a library probing for another platform's module ('try: import
        # _winapi except ImportError', as mimetypes does under libpysal) gets its ImportError, and nothing loads.
        self.ffi_modules = {m for m in _FFI_MODULES if _exists(m)}

    # -- called by the worker only ---------------------------------------------------------
    def enter(self, work_dir: str) -> None:
        self.write_roots = [os.path.realpath(work_dir)] + self._base_roots
        self.violations = []
        self.active = True

    def leave(self) -> list[str]:
        self.active = False
        return list(self.violations)

    # -- checks ----------------------------------------------------------------------------
    def deny(self, what: str):
        self.violations.append(what)
        raise SandboxViolation(f"Blocked by the sandbox: {what}.")

    def _resolve(self, path) -> str | None:
        if isinstance(path, int) or path is None:
            return None
        if isinstance(path, bytes):
            path = os.fsdecode(path)
        try:
            return os.path.realpath(os.path.join(os.getcwd(), os.path.expanduser(os.fspath(path))))
        except (TypeError, ValueError, OSError):
            return None

    def writable(self, real: str) -> bool:
        return any(real == root or real.startswith(root + os.sep) for root in self.write_roots)

    def sensitive(self, real: str) -> bool:
        parts = real.split(os.sep)
        if parts[-1] in self.sensitive_names or any(p in self.sensitive_dirs for p in parts):
            return True
        if real.startswith("/proc/") and len(parts) > 2 and parts[2].isdigit() and int(parts[2]) != self.pid:
            return True
        return any(real == s or real.startswith(s + os.sep) for s in self.sensitive_paths)

    def readable(self, real: str) -> bool:
        if self.writable(real) or real in self.read_files:
            return True
        return any(real == r or real.startswith(r + os.sep) for r in self.read_roots)

    def check_write(self, path, verb: str = "writing") -> None:
        real = self._resolve(path)
        if real is not None and not self.writable(real):
            self.deny(f"{verb} '{real}' is outside the work dir")

    def check_read(self, path) -> None:
        real = self._resolve(path)
        if real is None:
            return
        if self.sensitive(real):
            self.deny(f"reading '{real}' is not allowed (private file; use the input copies in the work dir)")
        if not self.readable(real):
            self.deny(f"reading '{real}' is not allowed (outside the work dir; use the input copies in the work dir)")

    def hook(self, event: str, args: tuple) -> None:
        if not self.active:
            return
        if event == "open":
            path, mode, flags = (tuple(args) + (None, None, None))[:3]
            writing = any(c in mode for c in "wax+") if isinstance(mode, str) else bool((flags or 0) & _WRITE_FLAGS)
            if writing:
                self.check_write(path)
            self.check_read(path)
        elif event in _PATH_WRITE_EVENTS:
            verb = "changing directory to" if event == "os.chdir" else f"{event}() on"
            for i in _PATH_WRITE_EVENTS[event]:
                if i < len(args):
                    self.check_write(args[i], verb)
            if event == "os.symlink":
                self.check_write(args[0], "linking to")
        elif event in _ENV_EVENTS and args:
            key = os.fsdecode(args[0]) if isinstance(args[0], (bytes, str)) else str(args[0])
            if any(marker in key.upper() for marker in self.env_markers):
                self.deny(f"changing the environment variable '{key}' is not allowed (network, loader or paths)")
        elif event in _PATH_READ_EVENTS and args:
            self.check_read(args[_PATH_READ_EVENTS[event]])
        elif event in _PROCESS_EVENTS or event.startswith("socket.") or event.startswith("winreg."):
            self.deny(f"{event} is not allowed (no processes, network, FFI or interpreter hooks)")
        elif event == "os.kill":
            if args and args[0] not in (self.pid, 0):
                self.deny("signalling another process is not allowed")
        elif event == "import" and args and str(args[0]).split(".")[0] in self.ffi_modules:
            self.deny(f"loading the module '{args[0]}' is not allowed")
        elif event in _THREAD_START_EVENTS and threading.active_count() >= self.max_threads:
            self.deny(f"more than {self.max_threads} threads are not allowed")


def restricted_builtins(policy: dict, after_import=None) -> dict:
    """A builtins dict for generated code: no eval/exec/compile/open-ended import, guarded getattr.

    `after_import(name)` runs after every import the code makes (the worker guards rasterio once it is loaded).
    """
    allowed = set(policy["allowed_imports"])
    forbidden = set(policy["forbidden_modules"])
    exceptions = {k: set(v) for k, v in policy.get("submodule_exceptions", {}).items()}
    real_import, real_getattr = builtins.__import__, builtins.getattr

    def guarded_import(name, globals=None, locals=None, fromlist=(), level=0):  # noqa: A002 - builtin signature
        top = name.partition(".")[0]
        # An import statement passes None or a tuple; C code (PyImport_Import) passes a list, and may import its
        # private submodules (numpy.core._dtype) from inside the code's frame: only statements are held to the rule.
        statement = fromlist is None or isinstance(fromlist, tuple)
        if level or top not in allowed or (statement and any(p.startswith("_") for p in name.split("."))):
            raise ImportError(f"Blocked by the sandbox: import of '{name}' is not allowed.", name=name)
        for item in fromlist or ():
            if item in exceptions.get(top, ()):
                continue
            if item in forbidden or (item.startswith("_") and item != "*"):
                raise ImportError(f"Blocked by the sandbox: importing '{item}' from '{name}' is not allowed.")
        module = real_import(name, globals, locals, fromlist, level)
        if after_import is not None:
            after_import(name)
        return module

    def guarded_getattr(obj, name, *default):
        if isinstance(name, str) and name.startswith("_"):
            raise SandboxViolation(f"Blocked by the sandbox: getattr of the private attribute '{name}'.")
        return real_getattr(obj, name, *default)

    safe = {k: v for k, v in vars(builtins).items() if k not in set(policy["forbidden_calls"])}
    safe.update(__import__=guarded_import, getattr=guarded_getattr)
    return safe


def guard_geo_io(guard: Guard) -> None:
    """pyogrio reads and writes through GDAL in C, out of the audit hook's sight: check its paths in Python."""
    try:
        import pyogrio.core as core
        import pyogrio.raw as raw
    except ImportError:
        return
    for module in (raw, core):
        for name in [n for n in dir(module) if n.startswith("ogr_")]:
            func = getattr(module, name)
            if callable(func) and not name.startswith(("ogr_list_drivers", "ogr_driver_supports")):
                setattr(
                    module, name, _path_checked(func, guard, "write" in name or "unlink" in name or "rmtree" in name)
                )


def _path_checked(func, guard: Guard, writes: bool):
    def wrapper(*args, **kwargs):
        path = args[0] if args else next(iter(kwargs.values()), None)
        if guard.active and isinstance(path, (str, os.PathLike)):
            text = os.fspath(path)
            if "://" in text or text.startswith(("/vsicurl", "/vsis3", "/vsigs", "/vsiaz", "/vsiadls", "/vsihttp")):
                guard.deny(f"reading '{text}' (network) is not allowed")
            for prefix in ("/vsizip/", "/vsigzip/", "/vsitar/", "/vsi7z/", "/vsirar/"):
                text = (text[len(prefix) :] or ".") if text.startswith(prefix) else text  # /vsizip/a.zip: ./a.zip
            if text.lower().endswith((".vrt", ".ovf")) and not writes:
                guard.deny("reading VRT files is not allowed (they can point at any file)")
            guard.check_write(text) if writes else guard.check_read(text)
            if not writes:
                refuse_pointer_files(guard, text)
            sql = str(kwargs.get("sql") or "").lower()
            if "attach" in sql or "load_extension" in sql:
                guard.deny("SQL that attaches databases or loads extensions is not allowed")
        return func(*args, **kwargs)

    wrapper.__name__ = getattr(func, "__name__", "ogr_call")
    return wrapper


# Files whose content makes GDAL open other files or URLs, whatever their name: VRTs, web service descriptions,
# PDS/ISIS labels with data pointers.
_POINTER_MARKERS = (b"<vrtdataset", b"<ogrvrtdatasource", b"<gdal_wms", b"<gdal_wcs", b"<gdal_wmts", b"<wfs_",
                    b"<ogrwfsdatasource", b"<wms_capabilities", b"<capabilities", b"pds_version_id", b"^image",
                    b"^qube", b"<gdal_wms>")  # fmt: skip


def refuse_pointer_files(guard: Guard, path) -> None:
    """Refuse to hand GDAL a file that points at other files (a VRT saved as .txt is still a VRT)."""
    try:
        real = guard._resolve(path)
        with open(real, "rb") as handle:
            head = handle.read(8192).lower()
    except (OSError, TypeError, ValueError):
        return  # a folder (shapefile dir, .gdb), a part of an archive or a file that does not exist yet
    if any(marker in head for marker in _POINTER_MARKERS):
        guard.deny("files that point GDAL at other files or URLs (VRT, WMS/WFS descriptions, PDS labels) are not "
                   "allowed; read the data files themselves")  # fmt: skip


def guard_threads(guard: Guard) -> None:
    """Cap thread creation where threading's start raises no audit event (before 3.13): wrap the primitive it uses."""
    import _thread

    real_start = _thread.start_new_thread

    def start_new_thread(function, args, kwargs=None):
        if guard.active and threading.active_count() >= guard.max_threads:
            guard.deny(f"more than {guard.max_threads} threads are not allowed")
        return real_start(function, args, *([kwargs] if kwargs is not None else []))

    _thread.start_new_thread = start_new_thread
    threading._start_new_thread = start_new_thread


def guard_os(guard: Guard) -> None:
    """Refuse the os functions that raise no audit event (privileges, namespaces, process groups) while code runs."""
    for name in _OS_UNAUDITED:
        func = getattr(os, name, None)
        if callable(func):
            setattr(os, name, _refused_while_active(func, guard, name))
    if callable(getattr(os, "register_at_fork", None)):
        os.register_at_fork = _ignored_while_active(os.register_at_fork, guard)


def _ignored_while_active(register, guard: Guard):
    """os.register_at_fork while code runs: accepted and not registered. Forking is refused here, so such a callback
    could never run; libraries register one at import (importlib_metadata, which `import rioxarray` pulls in once dask
    is installed), and refusing it failed those imports."""

    def wrapper(*args, **kwargs):
        if guard.active:
            return None
        return register(*args, **kwargs)

    wrapper.__name__ = "register_at_fork"
    return wrapper


def _refused_while_active(func, guard: Guard, name: str):
    def wrapper(*args, **kwargs):
        if guard.active:
            guard.deny(f"os.{name} is not allowed (no privilege, process group or namespace changes)")
        return func(*args, **kwargs)

    wrapper.__name__ = name
    return wrapper


def install(guard: Guard) -> None:
    """Install the audit hook (for the life of the process), the thread cap and the I/O path checks."""
    import raster_guard

    guard_geo_io(guard)
    raster_guard.install_if_loaded(guard)
    guard_os(guard)
    guard_threads(guard)
    sys.addaudithook(guard.hook)
