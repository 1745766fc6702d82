"""Validate blind10: regenerate the cases from cases_def.py, require the YAML files to match (--write rewrites them),
grade every reference result with bench/checkers.py's check_task (must pass) and every misreading (must fail).

    nice -n 10 /work/main/.venv/bin/python validate.py [--write]
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
import tempfile
from collections import Counter
from pathlib import Path

os.environ.setdefault("OGR_CURRENT_DATE", "2026-06-01T00:00:00Z")

import geopandas as gpd  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import rasterio  # noqa: E402
import yaml  # noqa: E402

HERE = Path(__file__).resolve().parent
# bench/checkers.py of the repository: the one path to change when the folder moves (tests/data/blind10 -> ../../../bench)
CHECKERS = Path(os.environ.get("GEOCLERK_CHECKERS", "/work/main/bench/checkers.py"))
if not CHECKERS.exists():
    CHECKERS = HERE.parent.parent.parent / "bench" / "checkers.py"

sys.path.insert(0, str(HERE))
import cases_def  # noqa: E402

# exporting the whole layer to the format it already has: the unchanged input is a right answer there
UNCHANGED_OK = {"de047"}
PUBLIC_KEYS = ("id", "lang", "class", "request", "inputs", "expect", "checks", "why")


def load_checkers():
    spec = importlib.util.spec_from_file_location("blind10_checkers", CHECKERS)
    mod = importlib.util.module_from_spec(spec)
    sys.modules["blind10_checkers"] = mod
    spec.loader.exec_module(mod)
    return mod


def public(case):
    return {k: case[k] for k in PUBLIC_KEYS if k in case}


def yaml_text(cases):
    return yaml.safe_dump([public(c) for c in cases], sort_keys=False, allow_unicode=True, width=120)


def materialise(result, work: Path, tag: str) -> dict:
    """A run report ({status, outputs, answer}) for a result object of cases_def (V/T/R/A)."""
    kind, obj, name = result
    if kind == "answer":
        return {"status": "ok", "outputs": [], "answer": obj}
    folder = work / tag
    folder.mkdir(parents=True, exist_ok=True)
    name = ("result" + name) if name.startswith(".") else name
    path = folder / name
    if kind == "vector":
        gdf = obj
        suffix = path.suffix.lower()
        if suffix == ".csv":
            df = pd.DataFrame(gdf.drop(columns="geometry"))
            df["wkt_geom"] = gdf.geometry.to_wkt()
            df.to_csv(path, index=False)
        else:
            driver = {".gpkg": "GPKG", ".geojson": "GeoJSON", ".shp": "ESRI Shapefile", ".fgb": "FlatGeobuf"}[suffix]
            gdf.to_file(path, driver=driver)
        return {"status": "ok", "outputs": [{"kind": "vector", "path": str(path)}], "answer": ""}
    if kind == "table":
        df = pd.DataFrame(obj.drop(columns="geometry")) if "geometry" in getattr(obj, "columns", []) else obj
        df.to_csv(path, index=False)
        return {"status": "ok", "outputs": [{"kind": "table", "path": str(path)}], "answer": ""}
    if kind == "raster":
        arr = np.asarray(obj, dtype="float32")
        prof = dict(cases_def.PROF)
        prof.update(dtype="float32", nodata=cases_def.NODATA, count=1)
        with rasterio.open(path, "w", **prof) as dst:
            dst.write(arr, 1)
        return {"status": "ok", "outputs": [{"kind": "raster", "path": str(path)}], "answer": ""}
    raise ValueError(kind)


def independent_checks(cases):
    """Facts the checks rely on, recomputed here from the files (not from cases_def's helpers)."""
    d = HERE / "data"
    vy = gpd.read_file(d / "vineyards.gpkg")
    fz = gpd.read_file(d / "flood_zones.gpkg").to_crs(25832)
    wn = gpd.read_file(d / "wineries.geojson").to_crs(25832)
    cp = gpd.read_file(d / "cycle_paths.shp").to_crs(25832)
    fe = pd.read_csv(d / "festivals.csv")
    feg = gpd.GeoDataFrame(fe, geometry=gpd.points_from_xy(fe.lon, fe.lat), crs=4326).to_crs(25832)
    problems = []
    # vineyards are wholly inside or >= 20 m outside every flood band (no partial overlap to argue about)
    for _, z in fz.iterrows():
        for _, v in vy.iterrows():
            inside = v.geometry.within(z.geometry)
            gap = v.geometry.distance(z.geometry)
            if not inside and v.geometry.intersects(z.geometry):
                problems.append(f"vineyard {v.vineyard_id} straddles HQ{z.return_period}")
            elif not inside and gap < 15:
                problems.append(f"vineyard {v.vineyard_id} only {gap:.1f} m from HQ{z.return_period}")
    # distance thresholds used in the cases keep >= 10 m from every feature's distance
    def margins(src, ref, ds, label):
        dist = np.array([ref.distance(g).min() for g in src.geometry])
        for t in ds:
            close = np.abs(dist - t)
            if close.min() < 10:
                problems.append(f"{label}: a feature {dist[close.argmin()]:.1f} m from the {t} m threshold")
    margins(wn, cp, [120, 200, 350], "wineries-paths")
    margins(cp, wn, [120, 200], "paths-wineries")
    margins(vy, wn, [100], "vineyards-wineries")
    margins(wn, vy, [100], "wineries-vineyards")
    margins(feg, cp, [200], "festivals-paths")
    margins(feg, wn[wn.index == 0], [1500], "festivals-Riverside Estate")
    # threshold values sit on data values
    for val, col, frame in [(30, "slope_pct", vy), (45, "slope_pct", vy), (5.0, "area_ha", vy), (2.5, "area_ha", vy)]:
        if not (frame[col] == val).any():
            problems.append(f"no {col} exactly {val}")
    if not ((fe.visitors == 5000).any() and (wn.founded == 1900).any() and (wn.hectares == 10).any()):
        problems.append("a boundary value is missing")
    # stored area_ha equals the geometry's area
    if not np.allclose(vy.area / 1e4, vy.area_ha, atol=0.006):
        problems.append("area_ha differs from geometry")
    # every input exists
    for c in cases:
        for ref in c["inputs"]:
            if not (d / ref.split(":", 1)[1]).exists():
                problems.append(f"{c['id']}: missing input {ref}")
    return problems


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--write", action="store_true", help="rewrite cases_*.yaml from cases_def.py")
    args = ap.parse_args(argv)
    checkers = load_checkers()
    cases = cases_def.build()
    ids = [c["id"] for c in cases]
    assert len(ids) == len(set(ids)), "duplicate ids"
    failures = []
    for lang in ("en", "de", "zh"):
        text = yaml_text([c for c in cases if c["lang"] == lang])
        path = HERE / f"cases_{lang}.yaml"
        if args.write:
            path.write_text(text, encoding="utf-8")
        elif not path.exists() or path.read_text(encoding="utf-8") != text:
            failures.append(f"{path.name} differs from cases_def.py (run with --write)")
    # the YAML must round-trip as bench/blind.py reads it
    loaded = []
    for lang in ("en", "de", "zh"):
        loaded += yaml.safe_load((HERE / f"cases_{lang}.yaml").read_text(encoding="utf-8"))
    assert [c["id"] for c in loaded] == ids

    failures += independent_checks(cases)
    n_mis = n_alt = 0
    with tempfile.TemporaryDirectory(prefix="blind10-") as tmp:
        work = Path(tmp)
        for case in cases:
            if case["expect"] == "decline":
                if not case.get("why") or case.get("checks"):
                    failures.append(f"{case['id']}: a decline needs a why and no checks")
                continue
            if not case.get("checks"):
                failures.append(f"{case['id']}: no checks")
                continue
            task = {"checks": case["checks"]}
            rep = materialise(case["_ref"], work, f"{case['id']}_ref")
            verdict = checkers.check_task(task, rep, {})
            if not verdict.passed:
                failures.append(f"{case['id']}: reference fails: {verdict.failures[:2]}")
            for k, (label, res) in enumerate(case.get("_alt") or []):
                rep = materialise(res, work, f"{case['id']}_alt{k}")
                v = checkers.check_task(task, rep, {})
                if not v.passed:
                    failures.append(f"{case['id']}: accepted alternative '{label}' fails: {v.failures[:1]}")
                n_alt += 1
            # the first input handed back unchanged must not pass (a check the input already satisfies is no check)
            first = HERE / "data" / case["inputs"][0].split(":", 1)[1]
            if first.suffix in (".gpkg", ".geojson", ".shp") and case["id"] not in UNCHANGED_OK:
                rep = {"status": "ok", "outputs": [{"kind": "vector", "path": str(first)}], "answer": ""}
                if checkers.check_task(task, rep, {}).passed:
                    failures.append(f"{case['id']}: the unchanged input passes the checks")
                n_mis += 1
            if not case["_mis"]:
                failures.append(f"{case['id']}: no misreading")
            for k, (label, res) in enumerate(case["_mis"]):
                n_mis += 1
                rep = materialise(res, work, f"{case['id']}_mis{k}")
                if checkers.check_task(task, rep, {}).passed:
                    failures.append(f"{case['id']}: misreading '{label}' passes the checks")
    # summary
    by = Counter((c["class"], c["lang"]) for c in cases)
    dec = Counter(c["class"] for c in cases if c["expect"] == "decline")
    classes = sorted({c["class"] for c in cases})
    print("| class | en | de | zh | all | decline |")
    print("|---|---|---|---|---|---|")
    for cl in classes:
        row = [by[(cl, lg)] for lg in ("en", "de", "zh")]
        print(f"| {cl} | {row[0]} | {row[1]} | {row[2]} | {sum(row)} | {dec[cl]} |")
    langs = Counter(c["lang"] for c in cases)
    exp = Counter(c["expect"] for c in cases)
    print(f"| **all** | {langs['en']} | {langs['de']} | {langs['zh']} | {len(cases)} | {exp['decline']} |")
    print(f"\n{len(cases)} cases ({exp['answer']} answer, {exp['decline']} decline), {n_mis} misreading gradings, {n_alt} accepted alternatives")
    for f in failures:
        print("FAIL", f)
    print("OK" if not failures else f"{len(failures)} problems")
    return 0 if not failures else 1


if __name__ == "__main__":
    sys.exit(main())
