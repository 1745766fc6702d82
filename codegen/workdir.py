"""Layer (e) of the sandbox: a fresh work dir with copies of the inputs, and the outputs found there afterwards."""

from __future__ import annotations

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


def copy_inputs(inputs, work_dir: str | Path) -> dict[str, str]:
    """Copy every input (and its sidecar files) into the work dir; returns {original path: copy path}."""
    work_dir = Path(work_dir)
    work_dir.mkdir(parents=True, exist_ok=True)
    copies: dict[str, str] = {}
    for item in inputs or ():
        source = Path(str(item).split("|", 1)[0]).expanduser()
        if not source.exists():
            raise SandboxError(f"The input '{source}' does not exist.", fix="Check the path of the input file.")
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
