"""Time six core operations at 1k/10k/100k features: bare GeoPandas, our GeoPandas tool, QGIS Processing."""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

OUT = Path(__file__).resolve().parent / "out"
CRS = "EPSG:32633"
ORIGIN = (500000.0, 5000000.0)
SPACING = 100.0  # metres between grid cells; the area grows with n so the density stays the same
OPS = ("buffer", "spatial_join", "count_points_in_polygons", "dissolve", "nearest_neighbour", "clip")


# -- synthetic data, deterministic -----------------------------------------------------------------
def make_data(n: int, seed: int = 42) -> dict:
    """n random points, n target points, an n-cell polygon grid with 100 zones, and a round clip mask."""
    import geopandas as gpd
    import shapely

    rng = np.random.default_rng(seed + n)
    side = int(np.ceil(np.sqrt(n)))
    extent = side * SPACING
    xy = rng.uniform(0, extent, size=(n, 2)) + ORIGIN
    txy = rng.uniform(0, extent, size=(n, 2)) + ORIGIN
    points = gpd.GeoDataFrame(
        {"pid": np.arange(n), "value": rng.normal(100, 15, n)}, geometry=shapely.points(xy), crs=CRS
    )
    targets = gpd.GeoDataFrame({"tid": np.arange(n)}, geometry=shapely.points(txy), crs=CRS)
    col, row = np.arange(n) % side, np.arange(n) // side
    x0, y0 = ORIGIN[0] + col * SPACING, ORIGIN[1] + row * SPACING
    cells = shapely.box(x0, y0, x0 + SPACING, y0 + SPACING)
    zone = (row * 10 // max(1, int(np.ceil(n / side)))) * 10 + col * 10 // side  # 10 × 10 blocks of cells
    polygons = gpd.GeoDataFrame({"cid": np.arange(n), "zone": zone}, geometry=cells, crs=CRS)
    centre = shapely.points(ORIGIN[0] + extent / 2, ORIGIN[1] + extent / 2)
    mask = gpd.GeoDataFrame({"name": ["mask"]}, geometry=[shapely.buffer(centre, 0.4 * extent, quad_segs=16)], crs=CRS)
    return {"points": points, "targets": targets, "polygons": polygons, "mask": mask}


# -- the three ways of doing each job ----------------------------------------------------------------
def bare_call(op: str, d: dict):
    """The plain GeoPandas/Shapely code a user would write for the same result."""
    import geopandas as gpd
    import shapely

    if op == "buffer":
        return d["points"].set_geometry(d["points"].buffer(50.0))
    if op == "spatial_join":
        return gpd.sjoin(d["points"], d["polygons"], how="left", predicate="intersects").drop(columns="index_right")
    if op == "count_points_in_polygons":
        pts, polys = d["points"], d["polygons"]
        hits = gpd.sjoin(pts[[pts.geometry.name]], polys[[polys.geometry.name]], predicate="intersects")
        out = polys.copy()
        out["count"] = hits["index_right"].value_counts().reindex(polys.index, fill_value=0).to_numpy()
        return out
    if op == "dissolve":
        return d["polygons"].dissolve(by="zone", as_index=False)
    if op == "nearest_neighbour":
        pts, tgt = d["points"], d["targets"]
        joined = gpd.sjoin_nearest(pts, tgt, distance_col="distance")
        joined = joined[~joined.index.duplicated()]
        lines = shapely.shortest_line(pts.geometry.values, tgt.geometry.values[joined["index_right"].to_numpy()])
        return joined.set_geometry(lines)
    if op == "clip":
        return gpd.clip(d["polygons"], d["mask"], keep_geom_type=True)
    raise ValueError(op)


TOOL_CALLS = {
    "buffer": ("buffer", {"layer": "points", "distance": 50.0}),
    "spatial_join": ("spatial_join", {"layer": "points", "join": "polygons", "predicate": "intersects"}),
    "count_points_in_polygons": ("count_points_in_polygons", {"polygons": "polygons", "points": "points"}),
    "dissolve": ("dissolve", {"layer": "polygons", "fields": ["zone"]}),
    "nearest_neighbour": ("join_nearest", {"layer": "points", "target": "targets"}),
    "clip": ("clip", {"layer": "polygons", "overlay": "mask"}),
}
PROCESSING_CALLS = {
    "buffer": ("qgis_buffer", {"layer": "points", "distance": 50.0}),
    "spatial_join": ("qgis_join_by_location", {"layer": "points", "join": "polygons", "predicate": "intersects"}),
    "count_points_in_polygons": ("qgis_count_points_in_polygon", {"polygons": "polygons", "points": "points"}),
    "dissolve": ("qgis_dissolve", {"layer": "polygons", "fields": ["zone"]}),
    "nearest_neighbour": ("qgis_join_by_nearest", {"layer": "points", "target": "targets"}),
    "clip": ("qgis_clip", {"layer": "polygons", "overlay": "mask"}),
}


def memory_context(out_dir: Path, data: dict):
    """A run context whose vector results stay in memory, so the tool timing leaves file writing out."""
    from geoclerk.function_lib.context import RunContext

    class InMemoryContext(RunContext):
        def save_vector(self, gdf, name, fmt="gpkg"):
            self.last_result = gdf
            return self.add_output(str(self.out_dir / f"{name}.{fmt}"), name=name, kind="vector", data=gdf)

    ctx = InMemoryContext(out_dir)
    for name, gdf in data.items():
        ctx.layers.add(name, data=gdf)
    return ctx


def fresh(data: dict) -> dict:
    """Copies of the inputs without cached spatial indexes, so no run profits from an earlier one."""
    return {k: v.copy() for k, v in data.items()}


def timed(fn, *args) -> tuple[float, object]:
    start = time.perf_counter()
    result = fn(*args)
    return time.perf_counter() - start, result


def bench_size(n: int, repeat: int, registry, qgis_registry, work: Path, ops, slow_limit: float = 30.0) -> list[dict]:
    """Rows for one size; a Processing run slower than slow_limit seconds is not repeated (far off target anyway)."""
    from geoclerk.function_lib.context import RunContext
    from geoclerk.function_lib.io import write_vector
    from geoclerk.function_lib.registry import run_tool

    data = make_data(n)
    files = {}
    if qgis_registry is not None:
        for name, gdf in data.items():
            files[name] = write_vector(gdf, work / f"{name}_{n}.gpkg")
    rows = []
    for op in ops:
        bare_t, tool_t, proc_t, n_out = [], [], [], None
        phases: dict[str, list] = {}
        for rep in range(repeat):
            inputs = fresh(data)
            t, _ = timed(bare_call, op, inputs)
            bare_t.append(t)
            inputs = fresh(data)
            ctx = memory_context(work / f"tool_{rep}", inputs)
            name, args = TOOL_CALLS[op]
            t, res = timed(run_tool, registry, name, args, ctx)
            tool_t.append(t)
            n_out = res.values.get("feature_count")
            result_gdf = ctx.last_result
            if qgis_registry is not None and (not proc_t or max(proc_t) < slow_limit):
                pdir = work / f"proc_{op}_{n}_{rep}"
                pctx = RunContext(pdir)
                for lname, path in files.items():
                    pctx.layers.add(lname, path=path)
                pname, pargs = PROCESSING_CALLS[op]
                t, _ = timed(run_tool, qgis_registry, pname, pargs, pctx)
                proc_t.append(t)
                for phase, seconds in pctx.timings.items():
                    phases.setdefault(phase.removeprefix("processing."), []).append(seconds)
                shutil.rmtree(pdir, ignore_errors=True)
        target = work / f"write_{op}_{n}.gpkg"
        write_t, _ = timed(write_vector, result_gdf, target)
        target.unlink(missing_ok=True)
        row = {
            "op": op,
            "n": n,
            "tool_name": TOOL_CALLS[op][0],
            "features_out": n_out,
            "bare_s": statistics.median(bare_t),
            "tool_s": statistics.median(tool_t),
            "write_s": write_t,
            "processing_s": statistics.median(proc_t) if proc_t else None,
            # prepare (open, reproject, in-memory spatial index), algorithm (QGIS's own run), write (GeoPackage)
            "processing_phases_s": {k: statistics.median(v) for k, v in phases.items()},
            "runs": {"bare": bare_t, "tool": tool_t, "processing": proc_t},
        }
        row["overhead_pct"] = 100.0 * (row["tool_s"] - row["bare_s"]) / row["bare_s"]
        rows.append(row)
        proc = f"{row['processing_s']:.3f}s" if row["processing_s"] is not None else "-"
        if row["processing_phases_s"]:
            proc += " (" + ", ".join(f"{k} {v:.2f}" for k, v in row["processing_phases_s"].items()) + ")"
        print(
            f"{op:26s} n={n:>6}  bare {row['bare_s']:.3f}s  tool {row['tool_s']:.3f}s "
            f"({row['overhead_pct']:+.1f}%)  write {write_t:.3f}s  processing {proc}",
            flush=True,
        )
    return rows


# -- reports ---------------------------------------------------------------------------------------
def write_markdown(rows: list[dict], meta: dict, path: Path) -> None:
    lines = [
        "# Function benchmark: bare GeoPandas vs our GeoPandas tool vs QGIS Processing",
        "",
        f"Synthetic data in {CRS} (seeded), median of {meta['repeat']} runs. `tool` = the GeoPandas tool through "
        "`registry.run_tool` (argument validation, input checks, CRS handling, summary) with the result kept in "
        "memory; `write` = writing that result to a GeoPackage, timed separately; `processing` = the QGIS "
        "Processing tool end to end (reads the GeoPackage inputs, writes its GeoPackage output).",
        "",
        f"Machine: {meta['cpus']} CPUs; Python {meta['python']}; GEOS {meta['geos']}; QGIS {meta['qgis'] or 'n/a'}; "
        f"load average {meta['load_before'][0]:.1f} at the start, {meta['load_after'][0]:.1f} at the end "
        "(other jobs on the machine slow every column alike; bare and tool runs alternate so their ratio holds).",
        "",
        "| op | n | tool | bare (s) | tool (s) | overhead % | write (s) | processing (s) "
        "| of which prepare / algorithm / write (s) |",
        "|---|---:|---|---:|---:|---:|---:|---:|---|",
    ]
    for r in rows:
        proc = f"{r['processing_s']:.3f}" if r["processing_s"] is not None else "n/a"
        if len(r["runs"]["processing"]) == 1:
            proc += " (1 run)"
        ph = r.get("processing_phases_s") or {}
        split = " / ".join(f"{ph[k]:.2f}" for k in ("prepare", "algorithm", "write") if k in ph) or "n/a"
        lines.append(
            f"| {r['op']} | {r['n']:,} | {r['tool_name']} | {r['bare_s']:.3f} | {r['tool_s']:.3f} | "
            f"{r['overhead_pct']:+.1f} | {r['write_s']:.3f} | {proc} | {split} |"
        )
    biggest = max(r["n"] for r in rows)
    top = [r for r in rows if r["n"] == biggest]
    lines += ["", f"At n = {biggest:,} (targets: under 5 s; tool overhead over bare under 20%):", ""]
    for key, label in (("bare_s", "bare GeoPandas"), ("tool_s", "GeoPandas tool"), ("processing_s", "QGIS Processing")):
        if all(r[key] is None for r in top):
            continue
        slow = [f"{r['op']} {r[key]:.1f} s" for r in top if r[key] is not None and r[key] >= 5.0]
        lines.append(f"- {label} under 5 s: " + ("all ops" if not slow else "not " + ", ".join(slow)))
    in_memory = [(r["op"], r["processing_s"] - r["processing_phases_s"]["write"]) for r in top
                 if r["processing_s"] is not None and "write" in r.get("processing_phases_s", {})]
    if in_memory:
        slow = [f"{op} {t:.1f} s" for op, t in in_memory if t >= 5.0]
        lines.append("- QGIS Processing under 5 s without its GeoPackage write (as the tool column is timed): "
                     + ("all ops" if not slow else "not " + ", ".join(slow)))
    heavy = [f"{r['op']} {r['overhead_pct']:+.0f}%" for r in top if r["overhead_pct"] >= 20.0]
    lines.append("- tool overhead under 20%: " + ("all ops" if not heavy else "not " + ", ".join(heavy)))
    lines += [
        "",
        "Notes: where the tool beats the bare call it uses a faster algorithm for the same result (tests/"
        "test_geo_b_bench.py checks that both give equal outputs): point buffers translate one GEOS circle, "
        "dissolve takes the coverage union when it is valid and keeps the area, nearest uses a k-d tree, clip "
        "intersects only the features crossing the mask's edge. Input validity (GEOS is_valid on polygons) runs "
        "in a second thread beside the operation (io.run_validated), so its cost only hides when a core is free: "
        "compare the load average above with the 2 CPUs. Processing phases: prepare = open the inputs, "
        "reproject when needed, and copy a layer the algorithm queries once per feature into memory with a "
        "spatial index; algorithm = QGIS's own run (result in memory); write = the GeoPackage with its R-tree "
        "(GDAL 3.6 fills it by SQLite R*Tree inserts, about 1.5 s per 100k points here; GDAL 3.7 bulk-builds it). "
        "The registry "
        "therefore runs the GeoPandas tool for layers over 50,000 features and says so.",
    ]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def write_plot(rows: list[dict], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ops = list(dict.fromkeys(r["op"] for r in rows))
    cols = 3
    fig, axes = plt.subplots((len(ops) + cols - 1) // cols, cols, figsize=(12, 7), squeeze=False)
    for ax, op in zip(axes.flat, ops):
        mine = [r for r in rows if r["op"] == op]
        sizes = [r["n"] for r in mine]
        for key, label, style in (
            ("bare_s", "bare GeoPandas", "o--"),
            ("tool_s", "GeoPandas tool", "s-"),
            ("processing_s", "QGIS Processing", "^-"),
        ):
            times = [r[key] for r in mine]
            if all(t is not None for t in times):
                ax.plot(sizes, times, style, label=label)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_title(op)
        ax.set_xlabel("features")
        ax.set_ylabel("seconds")
        ax.axhline(5.0, color="grey", lw=0.8, ls=":")
        ax.grid(True, which="both", alpha=0.3)
    for ax in list(axes.flat)[len(ops) :]:
        ax.set_visible(False)
    axes.flat[0].legend(fontsize=8)
    fig.suptitle("Time vs size (median; dotted line = 5 s target)")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def load_registries(with_processing: bool):
    """Our GeoPandas registry (Processing unbound, so run_tool runs GeoPandas) and, if QGIS works, a bound one."""
    from geoclerk.function_lib import load_registry

    registry = load_registry()
    if not with_processing:
        return registry, None, "skipped (--no-processing)"
    try:
        from geoclerk.geoclerk_plugin import processing_tools
    except ImportError as exc:
        return registry, None, f"geoclerk_plugin.processing_tools not importable ({exc})"
    qgis_registry = load_registry()
    report = processing_tools.bind(qgis_registry)
    wanted = {name for name, _ in PROCESSING_CALLS.values()}
    missing = sorted(wanted - set(report.bound))
    if not report.bound:
        return registry, None, report.reason or "no Processing tool could be bound"
    return registry, qgis_registry, f"missing: {', '.join(missing)}" if missing else "ok"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000, 100000])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--ops", nargs="+", choices=OPS, default=list(OPS))
    parser.add_argument("--no-processing", action="store_true", help="skip the QGIS Processing column")
    parser.add_argument(
        "--slow-limit",
        type=float,
        default=30.0,
        help="do not repeat a Processing run that took longer than this (seconds)",
    )
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    import shapely

    registry, qgis_registry, status = load_registries(not args.no_processing)
    print(f"QGIS Processing column: {status}", flush=True)
    qgis_version = None
    if qgis_registry is not None:
        from qgis.core import Qgis

        qgis_version = Qgis.QGIS_VERSION
    args.out.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="geoclerk-bench-functions-"))
    load_before = os.getloadavg()
    try:
        rows = []
        for n in args.sizes:
            rows += bench_size(n, args.repeat, registry, qgis_registry, work, args.ops, args.slow_limit)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    meta = {
        "repeat": args.repeat,
        "cpus": os.cpu_count(),
        "load_before": load_before,
        "load_after": os.getloadavg(),
        "python": sys.version.split()[0],
        "geos": shapely.geos_version_string,
        "qgis": qgis_version,
        "processing": status,
    }
    (args.out / "functions.json").write_text(json.dumps({"meta": meta, "rows": rows}, indent=2), encoding="utf-8")
    write_markdown(rows, meta, args.out / "functions.md")
    write_plot(rows, args.out / "functions.png")
    print(f"wrote {args.out / 'functions.md'}, functions.json, functions.png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
