"""`make bench-scale`: the large-input engine against GeoPandas in memory (and QGIS Processing with --qgis) on
generated layers: points counted per polygon, buffered and joined to polygons, polygons dissolved by an attribute.

Every run is its own process; its peak memory is the largest sum of the resident memory of that process and its
children (the local cluster's workers), or of the scheduler and worker processes for --separate, sampled every 50 ms.
A run above --max-mb is stopped and recorded as such. Results are kept in bench/scale_results.json (a later run at other
sizes adds to them) and written to bench/report.md between markers, with a chart in bench/charts/scale.png.

    python -m geoclerk.bench.scale --sizes 100000,1000000 --runs 3 --separate
    python -m geoclerk.bench.scale --sizes 10000000,50000000 --polygon-sizes 1000000,5000000 --max-mb 23000
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT = HERE / "scale_results.json"  # kept in git: a later run at other sizes adds to these
REPORT = HERE / "report.md"
CHART = HERE / "charts" / "scale.png"
BEGIN, END = "<!-- scale:begin -->", "<!-- scale:end -->"
CACHE = Path.home() / ".cache" / "geoclerk" / "scale"

# job -> (tool, arguments, which generated layer is sized)
JOBS = {
    "count": ("count_points_in_polygons", {"polygons": "cells", "points": "points"}, "points"),
    "buffer": ("buffer", {"layer": "points", "distance": 10}, "points"),
    "join": ("spatial_join", {"layer": "points", "join": "cells"}, "points"),
    "dissolve": ("dissolve", {"layer": "polygons", "fields": ["district"]}, "polygons"),
}
ENGINES = ("dask", "geopandas", "dask-separate", "qgis")


# -- data ----------------------------------------------------------------------------------------------------------
def make_points(n: int, folder: Path, suffix: str) -> Path:
    """n points spread over 1° x 1° near Zurich (EPSG:4326) with a class field; written once and cached."""
    path = folder / f"points_{n}{suffix}"
    if path.exists():
        return path
    import geopandas as gpd
    import numpy as np

    rng = np.random.default_rng(n)
    chunk = 2_000_000
    for start in range(0, n, chunk):  # written in chunks: 50M points never sit in memory at once
        m = min(chunk, n - start)
        gdf = gpd.GeoDataFrame({"pid": np.arange(start, start + m), "cls": rng.integers(0, 10, m)},
                               geometry=gpd.points_from_xy(8 + rng.random(m), 47 + rng.random(m)), crs=4326)
        _write(gdf, path, append=start > 0)
    return path


def make_cells(folder: Path) -> Path:
    """100 polygons (a 10 x 10 grid over the points' area) with a zone field."""
    path = folder / "cells.gpkg"
    if not path.exists():
        import geopandas as gpd
        from shapely.geometry import box

        cells = [box(8 + i / 10, 47 + j / 10, 8 + (i + 1) / 10, 47 + (j + 1) / 10)
                 for i in range(10) for j in range(10)]
        gpd.GeoDataFrame({"zone": [f"z{k}" for k in range(100)]}, geometry=cells, crs=4326).to_file(path)
    return path


def make_polygons(n: int, folder: Path, suffix: str) -> Path:
    """About n squares in a grid (parcels), each in one of 100 districts of 10 x 10 blocks."""
    path = folder / f"polygons_{n}{suffix}"
    if path.exists():
        return path
    import geopandas as gpd
    import numpy as np
    import shapely

    side = int(round(n**0.5))
    step = 1.0 / side
    rows_per_chunk = max(1, 1_000_000 // side)
    for r0 in range(0, side, rows_per_chunk):
        rows = np.arange(r0, min(side, r0 + rows_per_chunk))
        i, j = np.meshgrid(np.arange(side), rows)
        i, j = i.ravel(), j.ravel()
        x0, y0 = 8 + i * step, 47 + j * step
        district = (i * 10 // side) * 10 + (j * 10 // side)
        gdf = gpd.GeoDataFrame({"parcel": j * side + i, "district": district.astype("int64")},
                               geometry=shapely.box(x0, y0, x0 + step, y0 + step), crs=4326)
        _write(gdf, path, append=r0 > 0)
    return path


def _write(gdf, path: Path, append: bool) -> None:
    if path.suffix == ".parquet":
        if append:
            raise ValueError("GeoParquet inputs are written in one piece: use --format gpkg above 2M rows")
        gdf.to_parquet(path)
    else:
        import pyogrio

        pyogrio.write_dataframe(gdf, path, append=append)


# -- one run in its own process ------------------------------------------------------------------------------------
def one_run(job: str, engine: str, inputs: dict, scheduler: str, rows: int) -> dict:
    """Run one job once here (the child process): seconds for the tool alone, and what it reported."""
    from ..function_lib import load_registry
    from ..function_lib.context import RunContext
    from ..function_lib.dask_engine import cluster, configure
    from ..function_lib.registry import run_tool

    tool, args, _ = JOBS[job]
    started = time.perf_counter()
    if engine.startswith("dask"):
        # the generated layers are large, the 100 cells are not
        configure(min_features=1000, min_bytes=0, partition_rows=rows, scheduler=scheduler if engine != "dask" else "")
        cluster.get_client().wait_for_workers(1, timeout=120)
        import dask_geopandas  # noqa: F401 - the client's own imports belong to the set-up too
    else:
        configure(min_features=10**12, min_bytes=0)
    registry = load_registry()
    if engine == "qgis":
        from ..cli.main import _registry_for

        registry = _registry_for("qgis")
        other = registry.preferred(tool, args)
        if other.spec.half != "processing":
            return {"skipped": f"{tool} has no Processing equivalent"}
        tool = other.name
    setup = time.perf_counter() - started
    with tempfile.TemporaryDirectory(prefix="geoclerk-scale-") as out:
        ctx = RunContext(out)
        for name, path in inputs.items():
            ctx.layers.add(name, path=str(path))
        t0 = time.perf_counter()
        result = run_tool(registry, tool, dict(args), ctx)
        seconds = time.perf_counter() - t0
    cluster.close()
    return {"seconds": round(seconds, 3), "setup_seconds": round(setup, 2),
            "engine_used": result.values.get("engine", "processing" if engine == "qgis" else "geopandas"),
            "partitions": result.values.get("partitions"), "features_out": result.values.get("feature_count")}


def _tree_rss(procs) -> int:
    import psutil

    total = 0
    for proc in procs:
        try:
            p = psutil.Process(proc)
            family = [p, *p.children(recursive=True)]
        except psutil.NoSuchProcess:
            continue
        for q in family:
            try:
                total += q.memory_info().rss
            except psutil.NoSuchProcess:
                pass
    return total


def measured(job: str, engine: str, inputs: dict, scheduler: str, extra_pids: list, args) -> dict:
    """One run as a child process, its peak memory sampled with the cluster's processes; stopped above max_mb."""
    command = [sys.executable, "-m", "geoclerk.bench.scale", "--one", job, engine, json.dumps(
        {k: str(v) for k, v in inputs.items()}), "--scheduler", scheduler, "--partition-rows", str(args.partition_rows)]
    errors = tempfile.TemporaryFile(mode="w+")  # a file, not a pipe: the workers' logs never block the run
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=errors, text=True)
    peak = 0
    limit = args.max_mb * 1024 * 1024
    stopped = None
    deadline = time.monotonic() + args.timeout
    while child.poll() is None:
        peak = max(peak, _tree_rss([child.pid, *extra_pids]))
        if peak > limit or time.monotonic() > deadline:
            _kill_tree(child.pid)
            stopped = f"stopped above {args.max_mb} MB" if peak > limit else f"stopped after {args.timeout} s"
            break
        time.sleep(0.05)
    out, _ = child.communicate()
    errors.seek(0)
    err = errors.read()
    errors.close()
    if stopped:
        return {"error": stopped, "peak_mb": round(peak / 2**20)}
    lines = [line for line in out.splitlines() if line.startswith("{")]
    if child.returncode != 0 or not lines:
        return {"error": (err.strip().splitlines() or ["no output"])[-1][:300], "peak_mb": round(peak / 2**20)}
    return {**json.loads(lines[-1]), "peak_mb": round(peak / 2**20)}


def _kill_tree(pid: int) -> None:
    import psutil

    try:
        parent = psutil.Process(pid)
    except psutil.NoSuchProcess:
        return
    for proc in [*parent.children(recursive=True), parent]:
        try:
            proc.kill()
        except psutil.NoSuchProcess:
            pass


def start_separate_cluster(folder: Path, memory_limit: str):
    """A scheduler and two one-thread workers as separate processes on 127.0.0.1 (the path a real cluster takes)."""
    scheduler_file = folder / "scheduler.json"
    quiet = dict(stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    procs = [subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1",
                               "--port", "0", "--no-dashboard", "--scheduler-file", str(scheduler_file)], **quiet)]
    deadline = time.monotonic() + 120
    address = None
    while address is None and time.monotonic() < deadline:
        try:
            address = json.loads(scheduler_file.read_text())["address"]
        except (OSError, ValueError, KeyError):
            time.sleep(0.1)
    if address is None:
        stop(procs)
        raise RuntimeError("the Dask scheduler did not start within 120 s")
    for _ in range(2):
        procs.append(subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", address, "--nworkers", "1",
                                       "--nthreads", "1", "--memory-limit", memory_limit, "--no-dashboard",
                                       "--host", "127.0.0.1"], **quiet))
    return address, procs


def stop(procs) -> None:
    for proc in procs[::-1]:
        proc.terminate()
    for proc in procs:
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()


# -- the whole benchmark -------------------------------------------------------------------------------------------
def run_bench(args) -> list[dict]:
    data = Path(args.data)
    data.mkdir(parents=True, exist_ok=True)
    suffix = "." + args.format
    cells = make_cells(data)
    engines = [e for e in args.engines.split(",") if e]
    if args.separate and "dask-separate" not in engines:
        engines.append("dask-separate")
    if args.qgis and "qgis" not in engines:
        engines.append("qgis")
    address, procs = "", []
    if "dask-separate" in engines:
        address, procs = start_separate_cluster(Path(tempfile.mkdtemp(prefix="geoclerk-sched-")),
                                                f"{args.max_mb // 3}MiB")
    rows = []
    try:
        for job in args.jobs.split(","):
            sized = JOBS[job][2]
            for n in _sizes(args.polygon_sizes if sized == "polygons" else args.sizes):
                make = make_polygons if sized == "polygons" else make_points
                t0 = time.perf_counter()
                layer = make(n, data, suffix)
                made = time.perf_counter() - t0
                if made > 1:
                    print(f"made {layer.name} in {made:.0f} s", file=sys.stderr)
                inputs = {sized: layer, "cells": cells}
                for engine in engines:
                    runs = []
                    for _ in range(args.runs):
                        pids = [p.pid for p in procs] if engine == "dask-separate" else []
                        runs.append(measured(job, engine, inputs, address, pids, args))
                        if "error" in runs[-1] or "skipped" in runs[-1]:
                            break
                    row = _summary(job, engine, n, runs)
                    print(json.dumps(row), flush=True)
                    rows.append(row)
    finally:
        stop(procs)
    return rows


def _sizes(text: str) -> list[int]:
    return [int(float(s)) for s in text.split(",") if s.strip()]


def _summary(job: str, engine: str, n: int, runs: list[dict]) -> dict:
    good = [r for r in runs if "seconds" in r]
    row = {"job": job, "engine": engine, "size": n, "runs": len(good), "date": time.strftime("%Y-%m-%d")}
    if not good:
        row["error"] = runs[-1].get("error") or runs[-1].get("skipped")
        row["peak_mb"] = runs[-1].get("peak_mb")
        return row
    row.update(
        seconds=round(statistics.median(r["seconds"] for r in good), 2),
        peak_mb=round(statistics.median(r["peak_mb"] for r in good)),
        setup_seconds=round(statistics.median(r["setup_seconds"] for r in good), 1),
        partitions=good[0].get("partitions"),
        engine_used=good[0].get("engine_used"),
    )
    return row


# -- the report ----------------------------------------------------------------------------------------------------
def merged_results(rows: list[dict]) -> list[dict]:
    """Earlier results with these rows in place of the same (job, engine, size)."""
    old = json.loads(OUT.read_text()) if OUT.exists() else []
    new_keys = {(r["job"], r["engine"], r["size"]) for r in rows}
    kept = [r for r in old if (r["job"], r["engine"], r["size"]) not in new_keys]
    return sorted(kept + rows, key=lambda r: (list(JOBS).index(r["job"]), r["size"], ENGINES.index(r["engine"])))


def chart(results: list[dict]) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(2, len(JOBS), figsize=(4 * len(JOBS), 7), squeeze=False)
    for col, job in enumerate(JOBS):
        for engine in ENGINES:
            points = sorted((r["size"], r["seconds"], r["peak_mb"]) for r in results
                            if r["job"] == job and r["engine"] == engine and "seconds" in r)
            if not points:
                continue
            sizes = [p[0] for p in points]
            axes[0][col].plot(sizes, [p[1] for p in points], marker="o", label=engine)
            axes[1][col].plot(sizes, [p[2] for p in points], marker="o", label=engine)
        axes[0][col].set_title(f"{job} ({JOBS[job][0]})", fontsize=9)
        for row, label in ((0, "seconds (median)"), (1, "peak MB (median)")):
            axes[row][col].set_xscale("log")
            axes[row][col].set_yscale("log")
            axes[row][col].set_xlabel(f"{JOBS[job][2]}")
            axes[row][col].set_ylabel(label)
            axes[row][col].grid(True, which="both", alpha=0.3)
    axes[0][0].legend(fontsize=8)
    fig.tight_layout()
    CHART.parent.mkdir(exist_ok=True)
    fig.savefig(CHART, dpi=90)
    plt.close(fig)


def report_section(results: list[dict], machine: str) -> str:
    lines = [BEGIN, "## Large inputs: dask-geopandas against GeoPandas in memory (`make bench-scale`)", "",
             f"Generated layers (points over 1° x 1°, 100 grid cells, square parcels in 100 districts) as GeoPackage; "
             f"each run its own process; seconds are the tool's run (the cluster already up; its start is "
             f"'setup'), peak MB the largest sum of the resident memory of the run's processes (with the local "
             f"cluster's workers, or the separate scheduler and two workers). Medians of the runs. {machine}", "",
             "| job | size | engine | runs | seconds | peak MB | partitions | setup s | speed-up vs GeoPandas |",
             "|---|---:|---|---:|---:|---:|---:|---:|---:|"]
    base = {(r["job"], r["size"]): r["seconds"] for r in results if r["engine"] == "geopandas" and "seconds" in r}
    for r in results:
        if "seconds" not in r:
            lines.append(f"| {r['job']} | {r['size']:,} | {r['engine']} | 0 | {r.get('error')} | "
                         f"{r.get('peak_mb') or ''} | | | |")
            continue
        ref = base.get((r["job"], r["size"]))
        speed = f"{ref / r['seconds']:.2f}×" if ref and r["engine"] != "geopandas" and r["seconds"] else ""
        lines.append(f"| {r['job']} | {r['size']:,} | {r['engine']} | {r['runs']} | {r['seconds']:.2f} | "
                     f"{r['peak_mb']:,} | {r.get('partitions') or ''} | {r.get('setup_seconds', '')} | {speed} |")
    lines += ["", f"![seconds and peak memory by size](charts/{CHART.name})", END]
    return "\n".join(lines)


def write_report(results: list[dict], machine: str) -> None:
    text = REPORT.read_text(encoding="utf-8") if REPORT.exists() else ""
    section = report_section(results, machine)
    if BEGIN in text and END in text:
        text = text[: text.index(BEGIN)] + section + text[text.index(END) + len(END):]
    else:
        text = text.rstrip("\n") + "\n\n" + section + "\n"
    REPORT.write_text(text, encoding="utf-8")


def _machine() -> str:
    import os
    import platform

    import dask
    import dask_geopandas
    import geopandas

    try:
        mem = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    except (ValueError, OSError):
        mem = 0
    return (f"{time.strftime('%Y-%m-%d')}: {os.cpu_count()} cores, {mem:.0f} GiB, Python {platform.python_version()}, "
            f"dask {dask.__version__}, dask-geopandas {dask_geopandas.__version__}, geopandas {geopandas.__version__}.")


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m geoclerk.bench.scale", description=__doc__.split("\n\n")[0])
    p.add_argument("--sizes", default="1000000,10000000,50000000", help="point counts (comma-separated)")
    p.add_argument("--polygon-sizes", default="1000000,5000000", help="polygon counts for dissolve")
    p.add_argument("--jobs", default=",".join(JOBS), help=f"of {', '.join(JOBS)}")
    p.add_argument("--engines", default="dask,geopandas", help="dask, geopandas")
    p.add_argument("--separate", action="store_true", help="also against a scheduler and two worker processes")
    p.add_argument("--qgis", action="store_true", help="also QGIS Processing (the tool's equivalent)")
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--max-mb", type=int, default=23000, help="stop a run whose processes hold more than this")
    p.add_argument("--partition-rows", type=int, default=500_000)
    p.add_argument("--timeout", type=int, default=3600, help="stop a run after this many seconds")
    p.add_argument("--format", choices=["gpkg", "parquet"], default="gpkg", help="the generated inputs' format")
    p.add_argument("--data", default=str(CACHE), help="where generated inputs are kept")
    p.add_argument("--no-report", action="store_true", help="print the rows only")
    p.add_argument("--report-only", action="store_true", help="write the report and chart from the kept results")
    p.add_argument("--note", default="", help="a sentence for the report (the machine's load, say)")
    p.add_argument("--one", nargs=3, metavar=("JOB", "ENGINE", "INPUTS"), help=argparse.SUPPRESS)
    p.add_argument("--scheduler", default="", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.one:
        job, engine, inputs = args.one
        print(json.dumps(one_run(job, engine, json.loads(inputs), args.scheduler, args.partition_rows)))
        return 0
    import signal

    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # a stopped bench still stops its scheduler and workers
    rows = [] if args.report_only else run_bench(args)
    if not args.no_report:
        results = merged_results(rows)
        OUT.parent.mkdir(exist_ok=True)
        OUT.write_text(json.dumps(results, indent=1))
        chart(results)
        write_report(results, _machine() + (" " + args.note if args.note else ""))
        print(f"wrote {REPORT} and {CHART}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
