"""Layer (e) of the sandbox: a fresh work dir with copies of the inputs, and the outputs found there afterwards."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

from ..errors import SandboxError
from ..function_lib.context import output_kind

# Files that travel with a data file of the same stem (shapefile parts, world files, styles, overviews).
SIDECAR_SUFFIXES = (
    ".shx", ".dbf", ".prj", ".cpg", ".qix", ".sbn", ".sbx", ".shp.xml", ".qmd", ".qml", ".aux.xml", ".tfw",
    ".tifw", ".wld", ".pgw", ".jgw", ".ovr", ".msk", ".idx", ".dat", ".id", ".map", ".ind",
)  # fmt: skip
_SIDECAR_OF = {".shp": (".shx", ".dbf", ".prj", ".cpg", ".qix", ".sbn", ".sbx", ".shp.xml")}

Snapshot = dict[str, tuple[int, int]]

# Left by `geoclerk exec` in a work dir it filled: such a folder may be used again (its old input copies are replaced).
MARKER = ".geoclerk-run.json"


def _source(item) -> Path:
    return Path(str(item).split("|", 1)[0]).expanduser()


def check_apart(inputs, work_dir: str | Path) -> None:
    """Refuse a work dir that is, holds or sits inside an input's location: generated code may change its files."""
    work = Path(work_dir).expanduser().resolve()
    for item in inputs or ():
        source = _source(item)
        if not source.exists():
            continue  # copy_inputs says so
        for place in dict.fromkeys([Path(os.path.abspath(source)), source.resolve()]):
            if work == place or work in place.parents:
                raise SandboxError(
                    f"The work dir '{work}' holds the input '{source}' itself; use an empty folder.",
                    fix="Pass --work-dir a new or empty folder; GeoClerk copies the inputs into it.",
                )
            if place.is_dir() and place in work.parents:
                raise SandboxError(
                    f"The work dir '{work}' is inside the input folder '{place}'; use an empty folder elsewhere.",
                    fix="Pass --work-dir a new or empty folder outside the input folder.",
                )


def claim_work_dir(work_dir: str | Path) -> list[str]:
    """Use only a new or empty folder, or one an earlier `geoclerk exec` filled; returns that run's input copies."""
    work = Path(work_dir)
    marker = work / MARKER
    if marker.is_file():
        try:
            earlier = json.loads(marker.read_text(encoding="utf-8")).get("copies", [])
        except (OSError, ValueError, AttributeError):
            earlier = []
        return [name for name in earlier if isinstance(name, str) and "/" not in name and name not in ("", ".", "..")]
    if work.is_dir() and any(work.iterdir()):
        raise SandboxError(
            f"The work dir '{work}' already holds files that GeoClerk did not put there; use an empty folder.",
            fix="Pass --work-dir a new or empty folder (a folder of an earlier 'geoclerk exec' run may be reused).",
        )
    return []


def mark_work_dir(work_dir: str | Path, copies: dict[str, str]) -> None:
    """Record the input copies so a later run in this folder replaces them instead of keeping stale ones."""
    names = sorted({Path(c).name for c in copies.values()})
    (Path(work_dir) / MARKER).write_text(json.dumps({"copies": names}), encoding="utf-8")


def copy_inputs(inputs, work_dir: str | Path, replace=()) -> dict[str, str]:
    """Copy every input (and its sidecar files) into the work dir; returns {original path: copy path}.

    `replace` names earlier copies (from `claim_work_dir`) that fresh copies may overwrite; any other file keeps its
    name and the copy gets a free one.
    """
    check_apart(inputs, work_dir)
    work_dir = Path(work_dir)
    work_dir.mkdir(parents=True, exist_ok=True)
    copies: dict[str, str] = {}
    for item in inputs or ():
        source = _source(item)
        if not source.exists():
            raise SandboxError(f"The input '{source}' does not exist.", fix="Check the path of the input file.")
        stale = work_dir / source.name
        if source.name in replace and (stale.is_file() or stale.is_symlink()) and str(stale) not in copies.values():
            stale.unlink()
            for sidecar in _sidecars(source):
                (work_dir / (stale.stem + sidecar.name[len(source.stem) :])).unlink(missing_ok=True)
        target = _free_name(work_dir, source.name)
        if source.is_dir():
            shutil.copytree(source, target)
        else:
            shutil.copy2(source, target)
            for sidecar in _sidecars(source):
                shutil.copy2(sidecar, target.with_name(target.stem + sidecar.name[len(source.stem) :]))
        copies[str(item)] = str(target)
    return copies


def _sidecars(source: Path) -> list[Path]:
    found = []
    for suffix in SIDECAR_SUFFIXES:
        for candidate in (source.with_name(source.stem + suffix), source.with_name(source.name + suffix)):
            if candidate != source and candidate.is_file() and candidate not in found:
                found.append(candidate)
        upper = source.with_name(source.stem + suffix.upper())
        if upper.is_file() and upper not in found and upper != source:
            found.append(upper)
    return found


def _free_name(folder: Path, name: str) -> Path:
    target = folder / name
    n = 2
    while target.exists():
        stem, _, suffix = name.partition(".")
        target = folder / f"{stem}_{n}{'.' + suffix if suffix else ''}"
        n += 1
    return target


def snapshot(work_dir: str | Path) -> Snapshot:
    """Every file under the work dir with its modification time and size."""
    root = Path(work_dir)
    state: Snapshot = {}
    for path in root.rglob("*"):
        try:
            if path.is_file() and not path.is_symlink():
                stat = path.stat()
                state[str(path.relative_to(root))] = (stat.st_mtime_ns, stat.st_size)
        except OSError:
            continue
    return state


def find_outputs(work_dir: str | Path, before: Snapshot, exclude=()) -> list[dict]:
    """New or changed files since `before`, minus input copies and sidecars, classified by kind."""
    root = Path(work_dir)
    after = snapshot(root)
    excluded = {str(Path(p).resolve()) for p in exclude}
    changed = sorted(rel for rel, state in after.items() if before.get(rel) != state)
    mains = {Path(rel).with_suffix("") for rel in changed if Path(rel).suffix.lower() == ".shp"}
    outputs = []
    for rel in changed:
        path = root / rel
        if str(path.resolve()) in excluded or any(part.startswith((".", "__pycache__")) for part in Path(rel).parts):
            continue
        if _is_sidecar(rel, mains):
            continue
        outputs.append({"path": str(path), "kind": output_kind(path)})
    return outputs


def _is_sidecar(rel: str, shapefiles: set[Path]) -> bool:
    lower = rel.lower()
    for suffix in _SIDECAR_OF[".shp"]:
        if lower.endswith(suffix) and Path(rel[: -len(suffix)]) in shapefiles:
            return True
    return lower.endswith(".aux.xml")
