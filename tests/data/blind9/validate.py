"""Validate blind9: regenerate the YAML from cases_def.py (must equal the files, or --write them), grade every
reference result (and alternative correct reading) with bench/checkers.py's check_task (must pass) and every
misreading (must fail).
    cd tests/data/blind9 && ../../../.venv/bin/python validate.py [--write]
"""
import importlib.util
import os
import sys
import tempfile
from collections import Counter
from pathlib import Path

os.environ.setdefault("OGR_CURRENT_DATE", "2026-12-01T00:00:00Z")
import yaml  # noqa: E402

HERE = Path(__file__).resolve().parent
spec = importlib.util.spec_from_file_location("b9checkers", str(Path(__file__).resolve().parents[3] / "bench" / "checkers.py"))
checkers = importlib.util.module_from_spec(spec)
sys.modules["b9checkers"] = checkers
spec.loader.exec_module(checkers)
sys.path.insert(0, str(HERE))
import cases_def as cd  # noqa: E402

DRIVERS = {".gpkg": "GPKG", ".geojson": "GeoJSON", ".shp": "ESRI Shapefile", ".kml": "KML", ".fgb": "FlatGeobuf"}


def materialize(spec, work: Path, tag: str) -> dict:
    kind = spec[0]
    d = work / tag
    d.mkdir(parents=True, exist_ok=True)
    if kind == "ans":
        return {"status": "ok", "outputs": [], "answer": spec[1]}
    if kind == "vec":
        gdf, name = spec[1], spec[2] or "result.gpkg"
        path = d / name
        suffix = Path(name).suffix.lower()
        if suffix == ".csv":
            df = gdf.drop(columns="geometry").copy()
            df["wkt_geom"] = gdf.geometry.to_wkt()
            df.to_csv(path, index=False)
            return {"status": "ok", "outputs": [{"kind": "table", "path": str(path)}], "answer": ""}
        gdf.to_file(path, driver=DRIVERS[suffix])
        return {"status": "ok", "outputs": [{"kind": "vector", "path": str(path)}], "answer": ""}
    if kind == "tab":
        path = d / (spec[2] or "result.csv")
        spec[1].to_csv(path, index=False)
        return {"status": "ok", "outputs": [{"kind": "table", "path": str(path)}], "answer": ""}
    if kind == "ras":
        import rasterio
        path = d / (spec[2] or "result.tif")
        prof = dict(cd.PROF)
        prof.update(dtype="float32", nodata=cd.NODATA, count=1)
        with rasterio.open(path, "w", **prof) as dst:
            dst.write(spec[1].astype("float32"), 1)
        return {"status": "ok", "outputs": [{"kind": "raster", "path": str(path)}], "answer": ""}
    raise ValueError(kind)


def public(c):
    return {k: v for k, v in c.items() if not k.startswith("_")}


def main():
    write = "--write" in sys.argv
    problems = []
    by_lang = {}
    for c in cd.CASES:
        by_lang.setdefault(c["lang"], []).append(public(c))
    for lang, cases in by_lang.items():
        text = yaml.safe_dump(cases, allow_unicode=True, sort_keys=False, width=120)
        path = HERE / f"cases_{lang}.yaml"
        if write:
            path.write_text(text, encoding="utf-8")
        elif not path.exists() or path.read_text(encoding="utf-8") != text:
            problems.append(f"{path.name} differs from cases_def.py (run with --write)")
    # the YAML as bench/blind.py reads it
    loaded = []
    for lang in by_lang:
        loaded += yaml.safe_load((HERE / f"cases_{lang}.yaml").read_text(encoding="utf-8"))
    ids = [c["id"] for c in loaded]
    assert len(ids) == len(set(ids)), "duplicate ids"
    for c in loaded:
        for ref in c["inputs"]:
            assert ref.startswith("b:") and (HERE / "data" / ref[2:]).exists(), ref
        assert c["expect"] in ("answer", "decline")
        assert (c["expect"] == "decline") == ("checks" not in c), c["id"]
    work = Path(tempfile.mkdtemp(prefix="blind9-validate-"))
    n_mis = n_alt = 0
    no_mis = []
    for c in cd.CASES:
        if c["expect"] != "answer":
            continue
        task = {"checks": c["checks"]}
        r = checkers.check_task(task, materialize(c["_ref"], work, c["id"] + "_ref"), {})
        if not r.passed:
            problems.append(f"{c['id']} reference fails: {r.failures}")
        for label, s in c["_alt"].items():
            n_alt += 1
            r = checkers.check_task(task, materialize(s, work, f"{c['id']}_alt_{n_alt}"), {})
            if not r.passed:
                problems.append(f"{c['id']} alternative reading '{label}' fails: {r.failures}")
        if not c["_mis"]:
            no_mis.append(c["id"])
        for label, s in c["_mis"].items():
            n_mis += 1
            r = checkers.check_task(task, materialize(s, work, f"{c['id']}_mis_{n_mis}"), {})
            if r.passed:
                problems.append(f"{c['id']} misreading '{label}' PASSES")
    cnt = Counter((c["lang"], c["expect"]) for c in cd.CASES)
    cls = Counter((c["class"], c["lang"]) for c in cd.CASES)
    dec = Counter(c["class"] for c in cd.CASES if c["expect"] == "decline")
    print("class          en  de  zh  all decline")
    for k in sorted({c["class"] for c in cd.CASES}):
        row = [cls[(k, lang)] for lang in ("en", "de", "zh")]
        print(f"{k:<14} {row[0]:>3} {row[1]:>3} {row[2]:>3} {sum(row):>4} {dec[k]:>5}")
    for lang in ("en", "de", "zh"):
        print(f"{lang}: {cnt[(lang, 'answer')]} answer, {cnt[(lang, 'decline')]} decline")
    n_ans = sum(c["expect"] == "answer" for c in cd.CASES)
    print(f"{len(cd.CASES)} cases, {n_ans} answer, {len(cd.CASES) - n_ans} decline; "
          f"{n_mis} misreading gradings, {n_alt} alternative readings; answer cases without a misreading: {no_mis}")
    for p in problems:
        print("PROBLEM", p)
    print("OK" if not problems else f"{len(problems)} PROBLEMS")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
