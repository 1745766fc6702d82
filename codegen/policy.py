"""The sandbox policy in one place: allowed imports, forbidden names, sensitive paths and OS limits."""

from __future__ import annotations

import os
from dataclasses import asdict, dataclass, field
from pathlib import Path

# Top-level modules generated code may import (the child refuses the rest at run time too). `os` and `shutil` are
# allowed for paths and files in the work dir: their process, signal and privilege functions are refused by name here
# and by the child's audit hook at run time (OS_FORBIDDEN), and Landlock confines the rest.
ALLOWED_IMPORTS = frozenset(
    {
        "geopandas", "shapely", "pandas", "numpy", "matplotlib", "mpl_toolkits", "sklearn", "scipy", "pyproj",
        "pyogrio", "json", "math", "cmath", "statistics", "collections", "itertools", "functools", "operator",
        "datetime", "time", "calendar", "zoneinfo", "re", "string", "textwrap", "difflib", "unicodedata",
        "pathlib", "csv", "io", "decimal", "fractions", "random", "heapq", "bisect", "array", "copy",
        "dataclasses", "enum", "typing", "numbers", "warnings", "pprint", "html", "base64", "hashlib",
        "uuid", "struct", "abc", "contextlib", "traceback", "zipfile", "gzip", "locale", "glob", "fnmatch",
        "os", "shutil", "tempfile", "rasterio", "affine",
        "skimage", "networkx", "xarray", "rioxarray", "rasterstats", "libpysal", "esda",
    }
)  # fmt: skip

# Modules that give a way out (processes, network, FFI, interpreter internals); named in errors and hooks.
FORBIDDEN_MODULES = frozenset(
    {
        "sys", "subprocess", "socket", "ssl", "ctypes", "cffi", "importlib", "imp", "requests", "urllib",
        "urllib3", "http", "httpx", "ftplib", "smtplib", "telnetlib", "xmlrpc", "socketserver", "asyncio",
        "pickle", "cPickle", "dill", "marshal", "shelve", "multiprocessing", "concurrent", "threading",
        "_thread", "signal", "builtins", "__builtin__", "pty", "fcntl", "resource", "posix", "nt", "gc",
        "inspect", "code", "codeop", "runpy", "pkgutil", "sysconfig", "site", "webbrowser",
        "mmap", "sqlite3", "dbm", "winreg", "_winapi", "msvcrt", "platform", "pdb", "faulthandler", "tracemalloc",
        "ast", "dis", "types", "weakref", "atexit", "select", "selectors", "pwd", "grp", "spwd", "crypt",
        "osgeo", "qgis", "PyQt5", "PyQt6", "sip", "geoclerk", "openai", "fiona", "tarfile",
    }
)  # fmt: skip

# Submodules of allowed packages whose names clash with forbidden modules (scipy.signal is signal processing).
SUBMODULE_EXCEPTIONS = {"scipy": frozenset({"signal"})}

# Functions of `os` that start or signal processes, change privileges or leave the file system's rules.
OS_FORBIDDEN = frozenset(
    {"system", "popen", "fork", "forkpty", "kill", "killpg", "abort", "chroot", "setuid", "seteuid", "setgid",
     "setegid", "setreuid", "setregid", "setresuid", "setresgid", "setgroups", "initgroups", "setsid", "setpgid",
     "setpgrp", "tcsetpgrp", "putenv", "unsetenv", "register_at_fork", "memfd_create", "pidfd_open", "openpty",
     "login_tty", "plock", "posix_spawn", "posix_spawnp", "startfile", "add_dll_directory", "unshare", "setns",
     "execl", "execle", "execlp", "execlpe", "execv", "execve", "execvp", "execvpe", "spawnl", "spawnle", "spawnlp",
     "spawnlpe", "spawnv", "spawnve", "spawnvp", "spawnvpe", "wait", "waitpid", "wait3", "wait4", "waitid", "nice",
     "sched_setscheduler", "sched_setparam", "setpriority", "pidfd_send_signal"}
)  # fmt: skip

# Environment variables generated code may not set: they reopen the network or load code (GDAL, PROJ, loader).
ENV_FORBIDDEN_MARKERS = ("CURL", "HTTP", "PROXY", "NETWORK", "AWS_", "GS_", "GOOGLE", "AZURE", "OSS_", "SWIFT",
                         "WEBHDFS", "VSI", "LD_", "DYLD_", "PYTHON", "SSL", "_CA_", "DRIVER_PATH", "PLUGIN", "SQLITE",
                         "PATH", "HOME", "PROJ_")  # fmt: skip

# Builtins generated code may not call (the child's restricted builtins drop them as well).
FORBIDDEN_CALLS = frozenset(
    {"eval", "exec", "compile", "__import__", "globals", "locals", "vars", "breakpoint", "input", "help",
     "exit", "quit", "memoryview", "setattr", "delattr"}
)  # fmt: skip

# Attribute names that reach interpreter internals (frames, code objects) without a leading underscore.
FORBIDDEN_ATTRIBUTES = frozenset(
    {"f_back", "f_locals", "f_globals", "f_builtins", "f_code", "tb_frame", "tb_next", "gi_frame", "gi_code",
     "cr_frame", "cr_code", "ag_frame", "ag_code", "co_code", "func_globals", "mro", "modules", "system",
     "popen", "spawn", "fork", "execv", "execve", "dlopen", "addaudithook", "settrace", "setprofile"}
)  # fmt: skip

# File names never readable from the sandbox, wherever they are.
SENSITIVE_NAMES = frozenset(
    {"qgis-auth.db", "id_rsa", "id_dsa", "id_ecdsa", "id_ed25519", "shadow", "gshadow", "sudoers",
     ".netrc", ".pgpass", "credentials", "known_hosts", "authorized_keys", ".git-credentials", "environ"}
)  # fmt: skip

# Directory names whose whole content is off limits.
SENSITIVE_DIRS = frozenset({".ssh", ".gnupg", ".aws", ".azure", ".kube", ".docker", "keyrings", ".password-store"})

# Environment variables never passed to the child (API keys and the like).
SECRET_ENV_MARKERS = ("KEY", "TOKEN", "SECRET", "PASSWORD", "PASSWD", "CREDENTIAL", "AUTH", "COOKIE", "SESSION")

GIB = 1024**3
MIB = 1024**2


@dataclass
class Limits:
    """OS limits applied inside the child (where `resource` exists) and the thread cap of the audit hook."""

    address_space: int = 4 * GIB
    file_size: int = 512 * MIB
    open_files: int = 256
    cpu_seconds: int = 600  # per cell, on top of the wall-clock timeout kept by the parent
    max_threads: int = 16
    landlock: bool = True

    def to_json(self) -> dict:
        return asdict(self)


@dataclass
class ChildPolicy:
    """What the parent tells the worker at start: the JSON handshake of the protocol."""

    root: str
    tmp_dir: str
    allowed_imports: list = field(default_factory=lambda: sorted(ALLOWED_IMPORTS))
    forbidden_modules: list = field(default_factory=lambda: sorted(FORBIDDEN_MODULES))
    forbidden_calls: list = field(default_factory=lambda: sorted(FORBIDDEN_CALLS))
    submodule_exceptions: dict = field(default_factory=lambda: {k: sorted(v) for k, v in SUBMODULE_EXCEPTIONS.items()})
    sensitive_names: list = field(default_factory=lambda: sorted(SENSITIVE_NAMES))
    sensitive_dirs: list = field(default_factory=lambda: sorted(SENSITIVE_DIRS))
    sensitive_paths: list = field(default_factory=list)
    env_forbidden_markers: list = field(default_factory=lambda: list(ENV_FORBIDDEN_MARKERS))
    read_roots: list = field(default_factory=list)
    preload: list = field(
        default_factory=lambda: ["numpy", "pandas", "shapely", "geopandas", "matplotlib.pyplot", "sklearn", "pyproj"]
    )
    extra_sys_path: list = field(default_factory=list)
    first_sys_path: list = field(default_factory=list)  # of those, the ones the parent searches before its stdlib
    limits: dict = field(default_factory=lambda: Limits().to_json())

    def to_json(self) -> dict:
        return asdict(self)


def sensitive_paths() -> list[str]:
    """Absolute paths the child must never read: SSH keys, QGIS profiles' auth db, shadow files."""
    home = Path.home()
    paths = [home / d for d in SENSITIVE_DIRS]
    paths += [Path("/etc/shadow"), Path("/etc/gshadow"), Path("/etc/sudoers"), Path("/etc/ssh")]
    for qgis_dir in (
        home / ".local/share/QGIS",
        Path(os.environ.get("APPDATA", str(home / "AppData/Roaming"))) / "QGIS",
        home / "Library/Application Support/QGIS",
    ):
        paths += qgis_private(qgis_dir)
    return [str(p) for p in paths]


def qgis_private(qgis_dir: Path) -> list[Path]:
    """A QGIS settings folder, less its profiles' python folders: the plugin is installed there (and its
    libraries next to it), and the sandbox child imports its own guard modules from it. The rest (the auth
    database, settings, project history) stays unreadable; qgis-auth.db is also blocked by name anywhere."""
    if not qgis_dir.is_dir():
        return [qgis_dir]
    private = []
    for version in qgis_dir.iterdir():  # QGIS3, QGIS4
        profiles = version / "profiles"
        if not version.is_dir() or not profiles.is_dir():
            private.append(version)
            continue
        private += [entry for entry in version.iterdir() if entry != profiles]
        for profile in profiles.iterdir():
            if not profile.is_dir():
                private.append(profile)
                continue
            private += [item for item in profile.iterdir() if item.name != "python"]
    return private


def clean_env(env: dict[str, str]) -> dict[str, str]:
    """The parent's environment minus anything that looks like a secret."""
    return {k: v for k, v in env.items() if not any(m in k.upper() for m in SECRET_ENV_MARKERS)}
