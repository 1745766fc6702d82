"""Checkers for the task suite: they read the produced files and compare values with tolerances."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

KIND_OF_OUTPUT = {
    "vector": ("vector",),
    "table": ("table",),
    "any_table": ("table", "vector"),
    "image": ("image",),
    "html": ("html",),
    "raster": ("raster",),
}


@dataclass
class CheckResult:
    """A task's verdict: passed, and one line per check that failed."""

    passed: bool
    failures: list[str] = field(default_factory=list)


def utm(gdf):
    """gdf in its local UTM zone (metres), an independent measuring frame for the checks."""
    return gdf.to_crs(gdf.estimate_utm_crs())


def equal_area(gdf):
    """gdf in World Cylindrical Equal Area (EPSG:6933)."""
    return gdf.to_crs(6933)


def area_km2(gdf):
    """The area column of a result in km², whatever unit its name says (m2, ha, km2)."""
    cols = [c for c in gdf.columns if "area" in c.lower() and c != "area_km2"] or [
        c for c in gdf.columns if "area" in c
    ]
    col = cols[0]
    name = col.lower()
    scale = 1.0 if "km" in name else (0.01 if "ha" in name else 1e-6)
    return gdf[col].astype(float) * scale


def raster_crs(path):
    """A raster's CRS as a pyproj CRS (None when it has none)."""
    from osgeo import gdal
    from pyproj import CRS

    wkt = gdal.Open(str(path)).GetProjection()
    return CRS.from_wkt(wkt) if wkt else None


def raster_stats(path) -> dict:
    from osgeo import gdal

    ds = gdal.Open(str(path))
    band = ds.GetRasterBand(1)
    arr = band.ReadAsArray().astype(float)
    nodata = band.GetNoDataValue()
    if nodata is not None:
        arr = arr[arr != nodata]
    arr = arr[np.isfinite(arr)]
    return {"min": float(arr.min()), "max": float(arr.max()), "mean": float(arr.mean())}


def band(path, name) -> np.ndarray:
    """A raster's band by its description ('red', 'nir'), as floats with no data as NaN (imagery checks)."""
    from osgeo import gdal

    ds = gdal.Open(str(path))
    for i in range(1, ds.RasterCount + 1):
        b = ds.GetRasterBand(i)
        if (b.GetDescription() or "").lower() == name.lower():
            arr = b.ReadAsArray().astype(float)
            nodata = b.GetNoDataValue()
            if nodata is not None:
                arr[arr == nodata] = np.nan
            return arr
    raise KeyError(f"{Path(path).name} has no band described {name!r}")


def ndvi(path) -> np.ndarray:
    """(nir - red) / (nir + red) of a 4-band image, NaN where either band has no data."""
    red, nir = band(path, "red"), band(path, "nir")
    return (nir - red) / (nir + red)


def image_size(path) -> tuple[int, int]:
    """Width and height of a PNG (read from its header, no imaging library needed)."""
    with open(path, "rb") as handle:
        head = handle.read(24)
    if head[:8] != b"\x89PNG\r\n\x1a\n":
        from matplotlib import image as mpimg

        arr = mpimg.imread(path)
        return arr.shape[1], arr.shape[0]
    return int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")


def load_output(path: str, kind: str):
    import geopandas as gpd
    import pandas as pd

    if kind == "vector":
        return gpd.read_file(path)
    if kind == "table":
        return pd.read_csv(path)
    if kind == "html":
        return Path(path).read_text(encoding="utf-8", errors="replace")
    return path


def _namespace(inputs: dict, report: dict) -> dict:
    import geopandas as gpd
    import pandas as pd
    import shapely

    ns = {
        "gpd": gpd,
        "pd": pd,
        "np": np,
        "math": math,
        "shapely": shapely,
        "utm": utm,
        "equal_area": equal_area,
        "area_km2": area_km2,
        "raster_stats": raster_stats,
        "band": band,
        "ndvi": ndvi,
        "image_size": image_size,
        "report": report,
        "answer": report.get("answer") or "",
    }
    ns.update(inputs)
    return ns


def _pick_output(report: dict, wanted: str):
    kinds = KIND_OF_OUTPUT[wanted]
    for out in reversed(report.get("outputs") or []):
        if out["kind"] in kinds and Path(out["path"]).exists():
            return out
    return None


def _equal(actual, expected, rel=None, abs_tol=None) -> bool:
    if isinstance(actual, (list, tuple)) and isinstance(expected, (list, tuple)):
        return len(actual) == len(expected) and all(_equal(a, e, rel, abs_tol) for a, e in zip(actual, expected))
    if isinstance(actual, (int, float, np.number)) and isinstance(expected, (int, float, np.number)):
        if rel is None and abs_tol is None:
            return float(actual) == float(expected)
        return math.isclose(float(actual), float(expected), rel_tol=rel or 0.0, abs_tol=abs_tol or 0.0)
    return actual == expected


def check_task(task: dict, report: dict, inputs: dict) -> CheckResult:
    """Run every check of a task against a run report and the files it produced."""
    failures = []
    expected = task.get("expect_status", "ok")
    expected = [expected] if isinstance(expected, str) else list(expected)
    if report.get("status") not in expected:
        return CheckResult(
            False, [f"status {report.get('status')} (expected {'/'.join(expected)}): {report.get('error')}"]
        )
    ns = _namespace(inputs, report)
    for check in task["checks"]:
        try:
            failure = _run_check(check, report, ns)
        except Exception as exc:  # noqa: BLE001 - a check that cannot be evaluated is a failed check
            failure = f"{check}: {type(exc).__name__}: {exc}"
        if failure:
            failures.append(failure)
    return CheckResult(not failures, failures)


def _run_check(check: dict, report: dict, ns: dict) -> str | None:
    if "error_contains" in check:
        text = f"{report.get('error') or ''} {report.get('answer') or ''}"
        return None if check["error_contains"].lower() in text.lower() else f"error lacks {check['error_contains']!r}"
    if "answer_contains" in check:
        wanted = str(eval(check["answer_contains"], ns))  # noqa: S307 - trusted bench expressions
        return None if wanted.lower() in ns["answer"].lower() else f"answer lacks {wanted!r}: {ns['answer'][:120]!r}"
    if "answer_number" in check:
        wanted = float(eval(check["answer_number"], ns))  # noqa: S307
        numbers = [float(x) for x in re.findall(r"-?\d+(?:\.\d+)?", ns["answer"].replace(",", ""))]
        ok = any(math.isclose(n, wanted, rel_tol=check.get("rel", 0), abs_tol=check.get("abs", 0)) for n in numbers)
        return None if ok else f"answer has no number close to {wanted:.4g}: {ns['answer'][:120]!r}"
    out = _pick_output(report, check["output"])
    if out is None:
        return f"no {check['output']} output"
    if "suffix" in check:
        return (
            None if out["path"].lower().endswith(check["suffix"]) else f"output {out['path']} is not {check['suffix']}"
        )
    kind = out["kind"]
    ns["out"] = load_output(out["path"], kind)
    if "crs" in check:
        crs = raster_crs(out["path"]) if kind == "raster" else ns["out"].crs
        epsg = crs.to_epsg() if crs is not None else None
        return None if epsg == check["crs"] else f"CRS is EPSG:{epsg}, expected EPSG:{check['crs']}"
    actual = eval(check["expect"], ns)  # noqa: S307
    expected = eval(check["equals"], ns)  # noqa: S307
    actual, expected = _plain(actual), _plain(expected)
    if _equal(actual, expected, check.get("rel"), check.get("abs")):
        return None
    return f"{check['expect']} = {_short(actual)}, expected {_short(expected)}"


def _plain(value):
    if hasattr(value, "tolist"):
        value = value.tolist()
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, np.generic):
        return value.item()
    return value


def _short(value) -> str:
    text = repr(value)
    return text if len(text) < 160 else text[:157] + "..."
