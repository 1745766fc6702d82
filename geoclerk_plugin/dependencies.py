"""Dependency check at plugin load: what is missing or too old, the exact fix, and a pip install task."""

from __future__ import annotations

import importlib
import importlib.metadata
import importlib.util
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from qgis.core import QgsApplication, QgsTask

from ..compat import OLD_LIBS
from .i18n import tr

# import name, pip name, minimum version
REQUIREMENTS = (
    ("geopandas", "geopandas", "0.12"),
    ("shapely", "shapely", "2.0"),
    ("sklearn", "scikit-learn", "1.1"),
    ("openai", "openai", "1.0"),
    ("yaml", "pyyaml", "5.4"),
    ("jsonschema", "jsonschema", "4.0"),
)


@dataclass
class Problem:
    """One package that is missing or too old."""

    pip_name: str
    minimum: str
    found: str | None  # None when missing

    def describe(self) -> str:
        if self.found is None:
            return f"{self.pip_name} (missing, need >= {self.minimum})"
        return f"{self.pip_name} {self.found} (too old, need >= {self.minimum})"


def libs_dir() -> Path:
    """The plugin-managed folder packages are installed into (in the QGIS profile, survives upgrades)."""
    base = Path(QgsApplication.qgisSettingsDirPath() or Path.home() / ".geoclerk")
    return base / "python" / "geoclerk_libs"  # codegen/sandbox.py PLUGIN_LIBS: the sandbox child imports from it too


def add_libs_to_path() -> None:
    """Put the plugin-managed folder on sys.path (first, so its newer versions win); the folder installed
    under the product's old name (geoagent_libs) too, when it exists, so nobody has to install again."""
    old = libs_dir().with_name(OLD_LIBS)
    for folder in ([str(old)] if old.is_dir() else []) + [str(libs_dir())]:
        if folder not in sys.path:
            sys.path.insert(0, folder)


def version_tuple(text: str) -> tuple:
    parts = []
    for piece in str(text).split(".")[:3]:
        digits = "".join(ch for ch in piece if ch.isdigit())
        if not digits:
            break
        parts.append(int(digits))
    return tuple(parts)


def check_dependencies(requirements=REQUIREMENTS, version_of=None, find=importlib.util.find_spec) -> list[Problem]:
    """Every requirement that is missing or older than its minimum, in the order listed.

    Nothing is imported (QGIS start-up stays fast): the module must be findable and its
    distribution's installed version at least the minimum.
    """
    version_of = version_of or _installed_version
    problems = []
    for module, pip_name, minimum in requirements:
        try:
            found = find(module) is not None
        except (ImportError, ValueError):
            found = False
        version = version_of(pip_name) if found else None
        if not found or version is None:
            problems.append(Problem(pip_name, minimum, None))
        elif version_tuple(version) < version_tuple(minimum):
            problems.append(Problem(pip_name, minimum, version))
    return problems


def _installed_version(dist: str) -> str | None:
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return None


def python_interpreter() -> str:
    """The Python QGIS embeds: found under its installation prefix first, because sys.executable is the
    QGIS binary on Windows and macOS, and on Linux whatever `python3` comes first on PATH."""
    version = f"{sys.version_info[0]}.{sys.version_info[1]}"
    names = ("python.exe", "python3.exe") if os.name == "nt" else (f"python{version}", "python3")
    for prefix in dict.fromkeys((sys.base_prefix, sys.prefix, sys.exec_prefix)):
        for folder in (Path(prefix), Path(prefix) / "bin"):
            for name in names:
                if (folder / name).is_file():
                    return str(folder / name)
    exe = Path(sys.executable or "")
    if exe.name.lower().startswith("python") and exe.exists():
        return str(exe)
    return shutil.which(f"python{version}") or shutil.which("python3") or "python3"


def pip_command(problems: list[Problem], target: Path | None = None) -> list[str]:
    """The pip command that fixes the problems, installing into the plugin-managed folder."""
    specs = [f"{p.pip_name}>={p.minimum}" for p in problems]
    target = target or libs_dir()
    return [python_interpreter(), "-m", "pip", "install", "--upgrade", "--target", str(target), *specs]


def fix_text(problems: list[Problem]) -> str:
    """The exact command a user can paste into a terminal."""
    return " ".join(f'"{c}"' if " " in c or ">" in c else c for c in pip_command(problems))


def dependency_message(problems) -> str:
    """The same message the plugin shows at start-up: what is missing and the exact command that fixes it."""
    names = "; ".join(p.describe() for p in problems)
    text = tr(
        "GeoClerk needs Python packages that QGIS's Python lacks: {names}. "
        "Use the Install button in QGIS, or run: {command}"
    )
    return text.format(names=names, command=fix_text(problems))


def run_pip(command: list[str]) -> tuple[int, str]:
    """Run pip; returns the exit code and the tail of its output (tests replace this)."""
    proc = subprocess.run(command, capture_output=True, text=True, timeout=900)
    return proc.returncode, (proc.stdout + proc.stderr)[-4000:]


class InstallTask(QgsTask):
    """Installs the missing packages with pip in the background, then re-checks them."""

    def __init__(self, problems: list[Problem], on_done=None, runner=None):
        super().__init__("GeoClerk: installing Python packages", QgsTask.Flag.CanCancel)
        self.problems = problems
        self.on_done = on_done
        self.runner = runner or run_pip
        self.returncode: int | None = None
        self.output = ""
        self.error: str | None = None

    def run(self) -> bool:
        try:
            libs_dir().mkdir(parents=True, exist_ok=True)
            self.returncode, self.output = self.runner(pip_command(self.problems))
        except Exception as exc:  # noqa: BLE001 - reported in finished() on the main thread
            self.error = str(exc)
            return False
        return self.returncode == 0

    def finished(self, result: bool) -> None:  # noqa: FBT001 - QgsTask's signature
        if result:
            add_libs_to_path()
            importlib.invalidate_caches()
        if self.on_done is not None:
            self.on_done(result, self)
