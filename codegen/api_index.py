"""The API index of the sandbox's packages: built by the sandbox's own Python, cached on disk by package versions."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import tempfile
import threading
from pathlib import Path

BUILDER = Path(__file__).resolve().parent / "child" / "api_index.py"
BUILD_TIMEOUT = 300.0
VERSION_TIMEOUT = 60.0

# What generated code may use (policy.ALLOWED_IMPORTS), with the submodules scripts reach for.
MODULES = (
    "geopandas", "geopandas.tools", "shapely", "shapely.geometry", "shapely.ops", "shapely.affinity", "shapely.wkt",
    "shapely.wkb", "shapely.validation", "shapely.strtree", "pandas", "pandas.api.types", "numpy", "numpy.linalg",
    "numpy.random", "numpy.ma", "matplotlib", "matplotlib.pyplot", "matplotlib.colors", "matplotlib.cm",
    "matplotlib.patches", "matplotlib.lines", "matplotlib.ticker", "scipy", "scipy.spatial", "scipy.interpolate",
    "scipy.ndimage", "scipy.stats", "scipy.cluster", "scipy.cluster.hierarchy", "scipy.optimize", "scipy.signal",
    "sklearn", "sklearn.cluster", "sklearn.neighbors", "sklearn.preprocessing", "sklearn.linear_model",
    "sklearn.ensemble", "sklearn.metrics", "sklearn.model_selection", "sklearn.decomposition", "pyproj",
    "rasterio", "rasterio.features", "rasterio.mask", "rasterio.transform", "rasterio.warp", "rasterio.enums",
    "rasterio.crs", "affine", "math", "statistics", "json", "os", "os.path", "shutil", "collections", "itertools",
    "functools", "datetime", "re", "csv", "io", "pathlib", "glob", "zipfile", "random", "string", "textwrap",
)  # fmt: skip
PACKAGES = ("geopandas", "shapely", "pandas", "numpy", "matplotlib", "scipy", "scikit-learn", "pyproj", "rasterio",
            "affine")  # fmt: skip
_VERSIONS = "import importlib.metadata as m, json, sys\n" \
    "def v(p):\n try: return m.version(p)\n except Exception: return None\n" \
    "print(json.dumps([sys.version.split()[0], {p: v(p) for p in sys.argv[1:]}]))"  # fmt: skip

_LOCK = threading.Lock()
_LOADED: dict[str, dict | None] = {}  # python executable -> its index (None: it could not be built)


def cache_dir() -> Path:
    return Path(os.environ.get("GEOCLERK_CACHE") or Path.home() / ".cache" / "geoclerk") / "api-index"


def load(python: str) -> dict | None:
    """The index for `python` (the sandbox's interpreter): from memory, from the disk cache, or built now (once,
    seconds). None when it cannot be built: the checks that need it then say nothing."""
    with _LOCK:
        if python not in _LOADED:
            _LOADED[python] = _load_or_build(python)
        return _LOADED[python]


def _load_or_build(python: str) -> dict | None:
    try:
        found = subprocess.run([python, "-c", _VERSIONS, *PACKAGES], capture_output=True, text=True,
                               timeout=VERSION_TIMEOUT, check=True)  # fmt: skip
        versions = json.loads(found.stdout)
    except (OSError, subprocess.SubprocessError, ValueError):
        return None
    key = hashlib.sha1(json.dumps([python, versions, MODULES, BUILDER.read_bytes().hex()]).encode(),
                       usedforsecurity=False).hexdigest()[:16]  # fmt: skip
    path = cache_dir() / f"{key}.json"
    if path.is_file():
        try:
            return json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            pass
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    os.close(fd)
    env = dict(os.environ, MPLBACKEND="Agg", PYTHONDONTWRITEBYTECODE="1")
    try:
        subprocess.run([python, str(BUILDER), tmp, *MODULES], capture_output=True, timeout=BUILD_TIMEOUT, check=True,
                       env=env, cwd=tempfile.gettempdir())  # fmt: skip
        index = json.loads(Path(tmp).read_text(encoding="utf-8"))
        index["versions"] = versions
        Path(tmp).write_text(json.dumps(index, separators=(",", ":")), encoding="utf-8")
        os.replace(tmp, path)  # atomic: a parallel build never leaves half a file
        return index
    except (OSError, subprocess.SubprocessError, ValueError):
        return None
    finally:
        Path(tmp).unlink(missing_ok=True)
