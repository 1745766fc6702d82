"""Dependency check at plugin load: what is missing, too old or shadowing QGIS's own, the exact fix, and the task the
Install button starts (installer.py does the work)."""

from __future__ import annotations

import importlib
import importlib.metadata
import importlib.util
import os
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

from qgis.core import QgsApplication, QgsTask

from ..compat import OLD_LIBS
from . import installer
from .i18n import tr
from .installer import REQUIREMENTS, key_of, version_tuple

# The packages other compiled modules of QGIS's Python are built against: an older installer's folder holding another
# major version of one shadows QGIS's own and breaks those modules (NumPy 2 over the NumPy 1 Debian 12's GDAL bindings,
# SciPy and Matplotlib are built against: GDAL failed after a restart). Copies of leaf packages (Pillow, pandas) break
# nothing else and are not flagged.
ABI_BOUND = ("numpy", "gdal", "pyqt5", "pyqt6", "pyqt5-sip", "sip")


@dataclass
class Problem:
    """One package that is missing or too old."""

    pip_name: str
    minimum: str
    found: str | None  # None when missing
    shadows: str | None = None  # QGIS's own version that GeoClerk's folder shadows with `found`

    def describe(self) -> str:
        if self.shadows is not None:
            return tr("{name} {found} in GeoClerk's folder shadows QGIS's {name} {own}").format(
                name=self.pip_name, found=self.found, own=self.shadows
            )
        if self.found is None:
            return tr("{name} (missing, need >= {minimum})").format(name=self.pip_name, minimum=self.minimum)
        return tr("{name} {found} (too old, need >= {minimum})").format(
            name=self.pip_name, found=self.found, minimum=self.minimum
        )


def libs_dir() -> Path:
    """The plugin-managed folder packages are installed into (in the QGIS profile, survives upgrades)."""
    base = Path(QgsApplication.qgisSettingsDirPath() or Path.home() / ".geoclerk")
    return base / "python" / "geoclerk_libs"  # codegen/sandbox.py PLUGIN_LIBS: the sandbox child imports from it too


def add_libs_to_path() -> None:
    """Put the plugin-managed folder on sys.path (first, so its newer versions win); the folder installed
    under the product's old name (geoagent_libs) too, when it exists, so nobody has to install again."""
    old = libs_dir().with_name(OLD_LIBS)
    use_old = old.is_dir() and installer.read_manifest(libs_dir()) is None  # the new installer's folder has it all
    for folder in ([str(old)] if use_old else []) + [str(libs_dir())]:
        if folder not in sys.path:
            sys.path.insert(0, folder)


def check_dependencies(
    requirements=REQUIREMENTS, version_of=None, find=importlib.util.find_spec, shadows=None
) -> list[Problem]:
    """Every requirement that is missing or older than its minimum, in the order listed, then every package of QGIS's
    Python an older installer's folder shadows (`shadows`: default shadowed_packages).

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
    return problems + (shadows or shadowed_packages)()


def shadowed_packages(folders=None, path=None) -> list[Problem]:
    """Compiled packages QGIS's Python has that a folder GeoClerk's older installer made holds again in another major
    version (NumPy 2 over the NumPy 1 QGIS's GDAL is built against); the Install button replaces such a folder. A
    folder this installer made has none, by construction, and is not scanned."""
    folders = [Path(f) for f in (folders if folders is not None else [libs_dir(), libs_dir().with_name(OLD_LIBS)])]
    folders = [f for f in folders if f.is_dir() and installer.read_manifest(f) is None]
    if not folders:
        return []
    mine = {os.path.normcase(os.path.abspath(f)) for f in folders}
    others = [
        p for p in (path if path is not None else sys.path) if p and os.path.normcase(os.path.abspath(p)) not in mine
    ]
    own = _distributions(others)
    problems = []
    for folder in folders:
        for key, version in _distributions([str(folder)]).items():
            if (
                key in ABI_BOUND
                and key in own
                and _major(version) != _major(own[key])
                and key not in {p.pip_name for p in problems}
            ):
                problems.append(Problem(key, "", version, shadows=own[key]))
    return problems


def _major(version: str) -> int | None:
    return (version_tuple(version) or (None,))[0]


def _distributions(folders) -> dict[str, str]:
    """{normalised name: version} of the distributions in these folders, the first folder winning (names only:
    nothing is imported)."""
    found: dict[str, str] = {}
    for dist in importlib.metadata.distributions(path=list(folders)):
        name = dist.metadata["Name"]
        if name:
            found.setdefault(key_of(name), dist.version)
    return found


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


def installer_command(target: Path | None = None) -> list[str]:
    """The command that does what the Install button does, for a terminal: GeoClerk's installer run by QGIS's Python."""
    return [python_interpreter(), str(Path(installer.__file__)), "--target", str(target or libs_dir())]


def fix_text(problems: list[Problem] | None = None) -> str:
    """The exact command a user can paste into a terminal (the same for every problem: the installer decides)."""
    return " ".join(f'"{c}"' if " " in c else c for c in installer_command())


def dependency_message(problems) -> str:
    """The same message the plugin shows at start-up: what is missing and the exact command that fixes it."""
    names = "; ".join(p.describe() for p in problems)
    text = tr(
        "GeoClerk needs Python packages that QGIS's Python lacks: {names}. "
        "Use the Install button in QGIS, or run: {command}"
    )
    return text.format(names=names, command=fix_text(problems))


class InstallTask(QgsTask):
    """Runs the installer in the background (installer.install: resolve against QGIS's Python, stage, check imports in
    a child, swap), then puts the folder on the path."""

    def __init__(self, on_done=None, target: Path | None = None, python: str | None = None):
        super().__init__(tr("GeoClerk: installing Python packages"))
        self.on_done = on_done
        self.target = Path(target or libs_dir())
        self.python = python or python_interpreter()
        self.report: installer.InstallReport | None = None
        self.error: str | None = None

    def run(self) -> bool:
        try:
            old = self.target.with_name(OLD_LIBS)
            self.report = installer.install(self.python, self.target, exclude=[old])
        except Exception as exc:  # noqa: BLE001 - reported in finished() on the main thread
            self.error = str(exc)
            return False
        self.error = self.report.error
        return self.report.ok

    def finished(self, result: bool) -> None:  # noqa: FBT001 - QgsTask's signature
        if result:
            add_libs_to_path()
            importlib.invalidate_caches()
        if self.on_done is not None:
            self.on_done(result, self)


def install_summary(report: installer.InstallReport) -> str:
    """What the installer did, in the user's language: installed X, kept QGIS's Y (and any newer pure-Python copy)."""
    main = {key_of(p) for _, p, _ in REQUIREMENTS}
    installed = ", ".join(f"{n} {v}" for n, v in report.installed.items() if key_of(n) in main)
    extra = sum(1 for n in report.installed if key_of(n) not in main)
    if installed:
        text = tr("Installed {installed} (and {extra} packages they need) into {folder}.").format(
            installed=installed, extra=extra, folder=report.target
        )
    else:
        text = tr("Nothing needed installing.")
    if report.kept:
        kept = ", ".join(f"{n} {v}" for n, v in report.kept.items())
        text += " " + tr("Kept QGIS's own {kept}.").format(kept=kept)
    if report.newer:
        newer = ", ".join(f"{n} {old} → {new}" for n, (old, new) in report.newer.items())
        text += " " + tr("Newer copies of pure-Python packages QGIS's Python has: {newer}.").format(newer=newer)
    return text


def install_failure(report: installer.InstallReport | None, error: str | None = None) -> str:
    """Why the install failed, in the user's language, with the names or pip's lines it is about."""
    if report is None or report.error_kind is None:
        return error or ""
    texts = {
        "start": tr("QGIS's Python ({python}) could not be started: {detail}"),
        "no_pip": tr(
            "QGIS's Python ({python}) has no pip. Install pip for it (Debian and Ubuntu: apt install "
            "python3-pip) and press Install again."
        ),  # fmt: skip
        "blocked": tr(
            "QGIS's Python has compiled packages too old for GeoClerk: {detail}. A second copy would shadow "
            "QGIS's own: update them with QGIS's package manager (OSGeo4W setup, apt, …) and press Install "
            "again."
        ),  # fmt: skip
        "resolve": tr("pip found no versions that work with the packages QGIS's Python has: {detail}"),
        "replace": tr("pip wanted to replace QGIS's own {detail}."),
        "pip": tr("pip failed: {detail}"),
        "imports": tr("The installed packages did not import: {detail}"),
        "shadow": tr("The new folder would shadow QGIS's own {detail}."),
        "system": tr("A file or process operation failed: {detail}"),
    }
    text = texts.get(report.error_kind, "{detail}")
    return text.format(python=report.python, detail=report.error_detail or report.error or "")
