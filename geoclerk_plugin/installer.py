"""The Install button's work: GeoClerk's packages for QGIS's own Python, never replacing or shadowing what it has.

Only the standard library here, so the same code also runs from a terminal with QGIS's Python:
`python3 installer.py --target DIR` (the command the missing-packages bar offers to copy).

1. Probe: a child of QGIS's Python lists the distributions it can import (without GeoClerk's folder) and which of
   them carry compiled code (NumPy, GDAL, pandas, shapely, pyproj, SciPy, Matplotlib, PyQt…).
2. Resolve: `pip install --dry-run --report` in that Python, with the compiled ones pinned to their present version
   (`numpy==1.24.2`) and the pure-Python ones never older (`attrs>=22.2.0`); what it already has that satisfies a
   requirement is not asked for. No `--upgrade`, no source builds (`--only-binary=:all:`).
3. Install exactly the resolved new distributions (`--no-deps`) into a staging folder next to the target.
4. Check: a child with the staging folder first on its path imports GDAL (as QGIS has it loaded) and every module
   the tiers need; a kept distribution must still come from QGIS's Python.
5. Swap: the staging folder becomes the target; on any failure the staging folder goes and the target is untouched.

Pure-Python distributions QGIS's Python has in a version too old for a requirement (typing-extensions, say) get a
newer copy in the folder, which is reported as such; a compiled one that is too old stops the install with the
package named, since a second copy would shadow QGIS's own.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

# import name, pip name, minimum version: what the router and the three tiers import (router: scikit-learn, PyYAML;
# tier 0: GeoPandas, shapely, pandas, NumPy, pyproj, pyogrio, rasterio for imagery; tier 1: openai, jsonschema;
# tier 2's sandbox preloads Matplotlib and SciPy-based scikit-learn).
REQUIREMENTS = (
    ("numpy", "numpy", "1.22"),
    ("pandas", "pandas", "1.4"),
    ("geopandas", "geopandas", "0.12"),
    ("shapely", "shapely", "2.0"),
    ("pyproj", "pyproj", "3.3"),
    ("pyogrio", "pyogrio", "0.5"),
    ("rasterio", "rasterio", "1.3"),
    ("sklearn", "scikit-learn", "1.1"),
    ("scipy", "scipy", "1.8"),
    ("matplotlib", "matplotlib", "3.5"),
    ("openai", "openai", "1.0"),
    ("yaml", "pyyaml", "5.4"),
    ("jsonschema", "jsonschema", "4.0"),
)
MANIFEST = "geoclerk-install.json"
PIP_FLAGS = ("--disable-pip-version-check", "--no-input", "--only-binary=:all:")

# Run in the target Python: every importable distribution, the first on sys.path winning (as imports do), and
# whether it ships compiled modules (its RECORD, else its top-level packages' files; unknown counts as compiled).
PROBE = r"""
import importlib.machinery, importlib.metadata as md, json, os, re, sys
SUFFIXES = tuple(importlib.machinery.EXTENSION_SUFFIXES) + (".so", ".pyd")
def compiled(dist):
    files = dist.files
    if files:
        return any(str(f).endswith(SUFFIXES) for f in files)
    tops = (dist.read_text("top_level.txt") or "").split()
    if not tops:
        return True
    for top in tops:
        for base in sys.path:
            folder = os.path.join(base or ".", top)
            if os.path.isdir(folder):
                for _root, _dirs, names in os.walk(folder):
                    if any(n.endswith(SUFFIXES) for n in names):
                        return True
            elif any(os.path.isfile(os.path.join(base or ".", top + s)) for s in SUFFIXES):
                return True
    return False
present = {}
for dist in md.distributions():
    name = dist.metadata["Name"]
    key = re.sub(r"[-_.]+", "-", name or "").lower()
    if key and key not in present:
        present[key] = {"name": name, "version": dist.version, "compiled": compiled(dist)}
try:
    import pip
    pip_version = pip.__version__
except Exception:
    pip_version = None
print("GEOCLERK-JSON", json.dumps({"python": sys.version.split()[0], "executable": sys.executable, "pip": pip_version,
                  "present": present}))
"""

# Run in the target Python with the new folder first on its path: GDAL first (QGIS has it loaded before any plugin),
# then each module; where each came from.
CHECK = r"""
import importlib, importlib.metadata as md, importlib.util, json, sys, warnings
warnings.simplefilter("ignore")
sys.path.insert(0, sys.argv[1])
owners = md.packages_distributions() if hasattr(md, "packages_distributions") else {}
seen = {}
for name in ["osgeo.gdal_array"] + sys.argv[2:]:
    if name.startswith("osgeo") and importlib.util.find_spec("osgeo") is None:
        continue
    try:
        module = importlib.import_module(name)
        top = name.split(".")[0]
        try:
            version = md.version(owners[top][0])
        except Exception:
            version = str(getattr(sys.modules[top], "__version__", ""))
        seen[name] = {"version": version, "file": getattr(module, "__file__", "") or ""}
    except Exception as exc:
        seen[name] = {"error": f"{type(exc).__name__}: {exc}"}
print("GEOCLERK-JSON", json.dumps(seen))
"""


def _json_line(out: str):
    """The JSON a child script printed after its marker (warnings and other output around it are ignored)."""
    for line in reversed(out.splitlines()):
        if line.startswith("GEOCLERK-JSON "):
            return json.loads(line.split(" ", 1)[1])
    raise ValueError("no report")


def key_of(name: str) -> str:
    """A distribution's normalised name (PEP 503): 'PyYAML' and 'pyyaml', 'typing_extensions' and '-extensions'."""
    return re.sub(r"[-_.]+", "-", name).lower()


def version_tuple(text: str) -> tuple:
    parts = []
    for piece in str(text).split(".")[:3]:
        digits = re.match(r"\d*", piece).group()
        if not digits:
            break
        parts.append(int(digits))
    return tuple(parts)


@dataclass
class InstallReport:
    """What the installer did: ok, the distributions it put in the folder, those of QGIS's Python it kept, pure-Python
    ones it had to put newer copies of, the import check, and the error (None when ok)."""

    ok: bool = False
    python: str = ""
    target: str = ""
    installed: dict = field(default_factory=dict)  # name -> version, now in the folder
    kept: dict = field(default_factory=dict)  # name -> version, QGIS's own, used as it is
    newer: dict = field(default_factory=dict)  # name -> [QGIS's version, the folder's]: pure Python only
    checks: dict = field(default_factory=dict)  # module -> {"version", "file"} or {"error"}
    error: str | None = None
    error_kind: str | None = None  # the step that failed: start, no_pip, blocked, resolve, replace, pip, imports, ...
    error_detail: str = ""  # its names or pip's lines (not prose: the plugin words the kind in the user's language)
    blocked: dict = field(default_factory=dict)  # name -> [QGIS's version, the minimum]: compiled and too old
    log: str = ""

    def to_json(self) -> dict:
        return dict(self.__dict__)


class InstallError(Exception):
    """A step failed; the folder is left as it was. `kind` names the step (the plugin words each kind in the user's
    language), `detail` is what is not prose: package names, pip's own lines."""

    def __init__(self, kind: str, text: str, detail: str = ""):
        super().__init__(text)
        self.kind = kind
        self.detail = detail


def run_command(command: list[str], env: dict | None = None, timeout: float = 1800) -> tuple[int, str]:
    """Run a command; its exit code and its whole output (stdout, then stderr)."""
    proc = subprocess.run(command, capture_output=True, text=True, timeout=timeout, env=env)
    return proc.returncode, proc.stdout + "\n" + proc.stderr


def child_env(exclude: list[Path]) -> dict:
    """The environment for the children of QGIS's Python: GeoClerk's folders off PYTHONPATH, pip non-interactive."""
    env = dict(os.environ)
    drop = {os.path.normcase(os.path.abspath(p)) for p in exclude}
    paths = [
        p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p and os.path.normcase(os.path.abspath(p)) not in drop
    ]
    if paths:
        env["PYTHONPATH"] = os.pathsep.join(paths)
    else:
        env.pop("PYTHONPATH", None)
    env.update(PIP_NO_INPUT="1", PIP_DISABLE_PIP_VERSION_CHECK="1")
    return env


def probe(python: str, env: dict, runner=run_command) -> dict:
    code, out = runner([python, "-c", PROBE], env=env, timeout=300)
    if code != 0:
        raise InstallError("start", f"{python} did not run: {out.strip()[-500:]}", out.strip()[-500:])
    try:
        return _json_line(out)
    except ValueError:
        detail = out.strip()[-500:]
        raise InstallError("start", f"{python} did not report its packages: {detail}", detail) from None


def plan_requests(present: dict, requirements=REQUIREMENTS) -> tuple[list[str], dict, dict]:
    """What to ask pip for: (requirement specs, kept {name: version}, blocked {name: [have, need]}). A requirement
    QGIS's Python satisfies is kept and not asked for; a pure-Python one too old is asked for (a newer copy)."""
    specs, kept, blocked = [], {}, {}
    for _module, pip_name, minimum in requirements:
        have = present.get(key_of(pip_name))
        if have is None:
            specs.append(f"{pip_name}>={minimum}")
        elif version_tuple(have["version"]) >= version_tuple(minimum):
            kept[have["name"]] = have["version"]
        elif have["compiled"]:
            blocked[have["name"]] = [have["version"], minimum]
        else:
            specs.append(f"{pip_name}>={minimum}")
    return specs, kept, blocked


def constraints_for(present: dict) -> list[str]:
    """Compiled distributions stay at their version; pure-Python ones never go older. Versions pip cannot read (some
    system packages say '0.0.0+dfsg' or worse) get no line: the plan check below refuses to replace them anyway."""
    lines = []
    for key, have in sorted(present.items()):
        version = have["version"]
        if not re.fullmatch(r"\d+(\.\d+)*([abc]|rc|\.post|\.dev)?\d*", version or ""):
            continue
        lines.append(f"{key}=={version}" if have["compiled"] else f"{key}>={version}")
    return lines


def resolve(python: str, specs: list[str], constraints: list[str], env: dict, work: Path, runner=run_command) -> list:
    """pip's resolution in QGIS's Python, against what it has: [(name, version)] to install."""
    cfile, report = work / "constraints.txt", work / "report.json"
    cfile.write_text("\n".join(constraints) + "\n", encoding="utf-8")
    command = [python, "-m", "pip", "install", *PIP_FLAGS, "--dry-run", "--quiet", "--report", str(report),
               "-c", str(cfile), *specs]  # fmt: skip
    code, out = runner(command, env=env)
    if code != 0 or not report.exists():
        detail = f"{' '.join(specs)}: {_pip_error(out)}"
        raise InstallError("resolve", f"pip could not resolve {detail} against QGIS's Python", detail)
    plan = json.loads(report.read_text(encoding="utf-8"))
    return [(item["metadata"]["name"], item["metadata"]["version"]) for item in plan.get("install", [])]


def _pip_error(out: str) -> str:
    lines = [line for line in out.splitlines() if line.strip() and not line.startswith("WARNING: Location")]
    errors = [line for line in lines if "ERROR" in line or "conflict" in line.lower() or "requires" in line.lower()]
    return " ".join((errors or lines)[-6:]).strip()[-900:]


def check_imports(python: str, folder: Path, modules: list[str], env: dict, runner=run_command) -> dict:
    code, out = runner([python, "-c", CHECK, str(folder), *modules], env=env, timeout=600)
    try:
        return _json_line(out)
    except ValueError:
        return {"python": {"error": f"the import check ended with exit code {code}: {out.strip()[-500:]}"}}


def swap_in(staging: Path, target: Path) -> None:
    """The staging folder becomes the target; the previous target is removed only once the new one is in place."""
    old = target.with_name(f"{target.name}.previous-{int(time.time())}")
    if target.exists():
        target.rename(old)
    try:
        staging.rename(target)
    except OSError:
        if old.exists():
            old.rename(target)
        raise
    shutil.rmtree(old, ignore_errors=True)


def install(python: str, target: Path, requirements=REQUIREMENTS, exclude=(), runner=run_command) -> InstallReport:
    """Install what the tiers need into `target` for `python` (QGIS's); the folder changes only when all went well.
    `exclude`: other folders GeoClerk put on QGIS's path (the product's old one), left out of 'what QGIS has'."""
    target = Path(target)
    report = InstallReport(python=python, target=str(target))
    staging = target.with_name(target.name + ".staging")
    env = child_env([target, staging, *map(Path, exclude)])
    try:
        info = probe(python, env, runner)
        if not info.get("pip"):
            raise InstallError("no_pip", f"{python} has no pip (its module 'pip' is missing)")
        present = info["present"]
        specs, report.kept, report.blocked = plan_requests(present, requirements)
        if report.blocked:
            names = ", ".join(f"{n} {have} (needs >= {need})" for n, (have, need) in report.blocked.items())
            raise InstallError("blocked", f"QGIS's Python has too old compiled packages: {names}", names)
        planned = []
        if specs:
            with tempfile.TemporaryDirectory(prefix="geoclerk-pip-") as work:
                planned = resolve(python, specs, constraints_for(present), env, Path(work), runner)
        replacing = [
            f"{n} {present[key_of(n)]['version']}" for n, _ in planned if present.get(key_of(n), {}).get("compiled")
        ]
        if replacing:
            names = ", ".join(replacing)
            raise InstallError("replace", f"pip wanted to replace QGIS's own {names}", names)
        for name, version in planned:
            have = present.get(key_of(name))
            if have is not None:
                report.newer[have["name"]] = [have["version"], version]
            else:
                report.installed[name] = version
        shutil.rmtree(staging, ignore_errors=True)
        staging.mkdir(parents=True)
        if planned:
            command = [python, "-m", "pip", "install", *PIP_FLAGS, "--no-deps", "--quiet", "--target", str(staging),
                       *[f"{n}=={v}" for n, v in planned]]  # fmt: skip
            code, out = runner(command, env=env)
            report.log = out[-6000:]
            if code != 0:
                raise InstallError("pip", f"pip failed: {_pip_error(out)}", _pip_error(out))
        report.checks = check_imports(python, staging, [m for m, _, _ in requirements], env, runner)
        failed = {m: c["error"] for m, c in report.checks.items() if "error" in c}
        if failed:
            detail = "; ".join(f"import {m}: {e}" for m, e in failed.items())
            raise InstallError("imports", detail, detail)
        shadowing = [
            m for m, c in report.checks.items() if _kept_module(m, report.kept) and _inside(c["file"], staging)
        ]
        if shadowing:
            names = ", ".join(shadowing)
            raise InstallError("shadow", f"the new folder shadows QGIS's own {names}", names)
        (staging / MANIFEST).write_text(
            json.dumps({**report.to_json(), "ok": True, "log": ""}, indent=1), encoding="utf-8"
        )
        target.parent.mkdir(parents=True, exist_ok=True)
        swap_in(staging, target)
        report.ok = True
    except InstallError as exc:
        report.error, report.error_kind, report.error_detail = str(exc), exc.kind, exc.detail
        shutil.rmtree(staging, ignore_errors=True)
    except (OSError, subprocess.SubprocessError, ValueError, KeyError) as exc:
        report.error, report.error_kind, report.error_detail = str(exc), "system", f"{type(exc).__name__}: {exc}"
        shutil.rmtree(staging, ignore_errors=True)
    return report


def _kept_module(module: str, kept: dict) -> bool:
    names = {key_of(n) for n in kept}
    top = module.split(".")[0]
    return key_of(top) in names or {"sklearn": "scikit-learn", "yaml": "pyyaml"}.get(top) in names


def _inside(path: str, folder: Path) -> bool:
    try:
        return bool(path) and Path(path).resolve().is_relative_to(folder.resolve())
    except OSError:
        return False


def read_manifest(target: Path) -> dict | None:
    """What the installer recorded in a folder it made; None for a folder it did not make (an older installer's)."""
    try:
        return json.loads((Path(target) / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--target", required=True, help="the folder GeoClerk imports its packages from")
    parser.add_argument("--python", default=sys.executable, help="QGIS's Python (default: this one)")
    args = parser.parse_args(argv)
    report = install(args.python, Path(args.target))
    print(json.dumps(report.to_json(), indent=1))
    return 0 if report.ok else 1


if __name__ == "__main__":
    sys.exit(main())
