"""Prompts of the code worker: schema analysis first, then the packages and rules, then the request."""

from __future__ import annotations

from pathlib import Path

from ..function_lib.describe import LayerInfo
from .explore import INSPECT_OUTPUT, MAX_INSPECTIONS, state_text

PACKAGES = "geopandas, shapely, pandas, numpy, matplotlib, scikit-learn (sklearn), scipy, pyproj"
RASTER_PACKAGE = "rasterio (with affine)"
# Spatial-statistics and imagery packages (requirements.txt), named to the model only where installed, by the name
# it imports (named 'scikit-image', the local model wrote `from scikit-image import exposure`); the imagery group only
# when a raster is in play and rasterio is there (offered for a vector chain, the model imported it there).
OPTIONAL_PACKAGES = (("networkx", "networkx"), ("libpysal", "libpysal"), ("esda", "esda"))
RASTER_OPTIONAL_PACKAGES = (("skimage", "skimage (scikit-image)"), ("xarray", "xarray"), ("rioxarray", "rioxarray"),
                            ("rasterstats", "rasterstats"))  # fmt: skip


def installed(module: str) -> bool:
    """True when `module` can be imported here (the sandbox child uses the same packages)."""
    import importlib.util

    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def raster_io_available() -> bool:
    """True when rasterio can be imported here (the sandbox child uses the same packages)."""
    return installed("rasterio")


def optional_packages(rasterio: bool) -> list[str]:
    """The imagery and spatial-statistics packages installed here, as the prompt names them."""
    wanted = OPTIONAL_PACKAGES + (RASTER_OPTIONAL_PACKAGES if rasterio else ())
    return [label for module, label in wanted if installed(module)]


def system_prompt(rasterio: bool | None = None, rasters: bool = True, planner: bool = False,
                  explore: bool = True) -> str:  # fmt: skip
    """The rules for the model: packages, files, what the sandbox refuses; rasterio only where it is installed, and
    the raster rules only when a raster is in play (`rasters`): shown them for vector requests, the local 1.5B model
    interpolated with griddata to buffer schools and to keep only Europe. `planner`: the code planner's variant, one
    cell per subtask building on the earlier cells' variables (the same for every subtask: a stable prefix).
    `explore`: offer inspection cells (# INSPECT); without, the protocol is one script or a refusal."""
    rasterio = raster_io_available() if rasterio is None else rasterio
    packages = ", ".join([PACKAGES] + ([RASTER_PACKAGE] if rasterio else []) + optional_packages(rasterio and rasters))
    rasters = (
        "- Rasters (GeoTIFF .tif): read and write them with rasterio (rasterio.open, src.read(1, masked=True),\n"
        "  src.profile, src.transform; write with rasterio.open('out.tif', 'w', **profile)). Compute with numpy and\n"
        "  scipy (slope with numpy.gradient on the cell size, IDW or griddata onto a grid built from a transform).\n"
        "  Not osgeo/gdal, no VRT files, no URLs or /vsi paths.\n"
        "  Imagery: a band's name is in src.descriptions; nodata pixels are masked (read(masked=True)).\n"
        if rasterio
        else "- Raster I/O (rasterio, osgeo) is not available here: work with vector data and tables.\n"
    ) if rasters else ""
    task, session, protocol = PLANNER_WORDING if planner else SCRIPT_WORDING
    if not explore:
        protocol = PLAIN_PROTOCOL.format(final="code of the subtask" if planner else "final script")
    return f"""You are a GIS analyst who writes {task} to answer a request.
The script runs in a sandbox: a separate Python process with only these packages: {packages},
plus the standard modules os, os.path, shutil, json, math, statistics, collections, itertools, functools,
datetime, re, csv, io, pathlib, glob, zipfile, tempfile.
No other imports (no sys, subprocess, socket, requests, urllib, ctypes, osgeo), no network, no eval/exec,
no private or dunder attributes. os and shutil work on files in the current folder (os.makedirs,
os.path.join, os.listdir, os.remove, shutil.copy); starting programs (os.system, os.popen, subprocess),
signalling processes and setting network or path environment variables are refused.

Rules:
- The input files are in the current folder; read them by the file names given below. Files outside the
  current folder (system files, the originals, other folders) can be neither read nor written.
- Write every output file (GeoPackage/GeoJSON layers, GeoTIFF rasters, CSV tables, PNG charts, HTML) into the
  current folder (or a subfolder of it) with a short descriptive name. Never overwrite or modify the input files.
{rasters}- Charts: matplotlib with savefig('name.png'); never call show().
- Distances, lengths and areas in metres: if a layer's CRS is geographic (degrees), reproject it first with
  to_crs(gdf.estimate_utm_crs()) or another projected CRS, and say which CRS you used.
- Use the exact field names from the schema below; check values before filtering on them.
- print() the final answer in one or two plain sentences (numbers with units); that text is shown to the user.
- {session}
{protocol}"""


PROTOCOL = f"""Reply with one ```python block. To look at the data first, make its first line # INSPECT (print a
head, dtypes, unique values, CRS, bounds, band stats; cut to {INSPECT_OUTPUT} characters; at most {MAX_INSPECTIONS} such
cells; no files). If the data cannot answer the request, reply REFUSE: <reason> and no code. Otherwise send the
{{final}}."""
PLAIN_PROTOCOL = """Reply with one ```python block: the {final}. If the data cannot answer the request, reply
REFUSE: <reason> and no code."""
# (what the model writes, what it may reuse, what it sends): the single agent's whole script, or a planner's cells
SCRIPT_WORDING = (
    "one complete Python script",
    "Variables from earlier attempts of this request still exist, but write a complete script each time.",
    PROTOCOL.format(final="final script"),
)
PLANNER_WORDING = (
    "Python cells, one per subtask of a plan,",
    "The cells run in one session: the variables of earlier subtasks' cells still exist. Write only the code of\n"
    "  the subtask asked for, building on them; an attempt that failed is replaced, not repeated.",
    PROTOCOL.format(final="code of the subtask"),
)


SYSTEM_PROMPT = system_prompt()


def schema_text(layer_infos: list[LayerInfo], copies: dict[str, str] | None = None) -> str:
    """The schema analysis: each layer with its file name in the work dir, CRS, count, fields and samples."""
    if not layer_infos:
        return "No input layers."
    by_original = {str(Path(k)): Path(v).name for k, v in (copies or {}).items()}
    lines = []
    for info in layer_infos:
        text = info.prompt_text()
        if info.path and str(Path(info.path)) in by_original:
            local = by_original[str(Path(info.path))]
            text = text.replace(f"file {Path(info.path).name}", f"file {local}", 1)
            if f"file {local}" not in text:
                text = text.replace("\n", f", file {local}\n", 1) if "\n" in text else text + f", file {local}"
        if info.crs_is_geographic:
            text += "\n    (CRS in degrees: reproject before measuring in metres)"
        lines.append(text)
    return "\n".join(lines)


def build_messages(request: str, layer_infos: list[LayerInfo], copies: dict[str, str] | None = None,
                   extra_files: list[str] | None = None, state: list[str] | None = None,
                   planner: bool = False, explore: bool = True) -> list[dict]:  # fmt: skip
    """The first two messages of a code-generation conversation; `state`: the variables earlier requests left;
    `planner`: the code planner's system prompt (cells per subtask); `explore`: inspection cells offered."""
    user = [f"Request: {request.strip()}", "", "Layers (schema analysis):", schema_text(layer_infos, copies)]
    known = {Path(v).name for v in (copies or {}).values()}
    others = [name for name in extra_files or [] if name not in known]
    if others:
        user += ["", "Other files in the current folder: " + ", ".join(sorted(others))]
    if state:
        user += ["", state_text(state)]
    rasters = any(getattr(info, "kind", None) == "raster" for info in layer_infos) or any(
        Path(name).suffix.lower() in (".tif", ".tiff") for name in others
    )
    system = system_prompt(rasters=rasters, planner=planner, explore=explore)
    return [{"role": "system", "content": system}, {"role": "user", "content": "\n".join(user)}]


def repair_message(error: str, stdout: str, attempt: int, max_attempts: int, notes: list[str],
                   older: list[str] | None = None) -> dict:  # fmt: skip
    """The feedback after a failed attempt: the older attempts in a line each, the root cause, the end of the
    output, and what to avoid."""
    parts = ["Earlier attempts, which failed (do not repeat them):", *older] if older else []
    parts += [f"Attempt {attempt} of {max_attempts} failed.", f"Error: {error}"]
    if stdout.strip():
        parts += ["Output before the error (end):", stdout]
    parts += notes
    parts.append("Fix the cause and reply with the complete corrected script in a single ```python block.")
    return {"role": "user", "content": "\n".join(parts)}
