"""`make bench-sandbox`: warm round-trip of a trivial cell in the persistent sandbox, and the cost of a cold start."""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

OUT = Path(__file__).resolve().parent / "out"
TARGET_WARM_MS = 50.0


def _ms(seconds: float) -> float:
    return round(seconds * 1000, 2)


def _summary(samples: list[float]) -> dict:
    ordered = sorted(samples)
    return {
        "median_ms": _ms(statistics.median(ordered)),
        "p95_ms": _ms(ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]),
        "min_ms": _ms(ordered[0]),
        "n": len(ordered),
    }


def cold_starts(root: Path, runs: int, preload: list[str] | None) -> tuple[dict, list[float]]:
    """Time from spawning a child to its ready message (imports, limits, Landlock, hooks)."""
    from geoclerk.codegen.sandbox import Sandbox

    walls, inside = [], []
    for i in range(runs):
        with Sandbox(root=root / f"cold-{i}-{len(preload or [])}", preload=preload) as box:
            started = time.perf_counter()
            info = box.start()
            walls.append(time.perf_counter() - started)
            inside.append(info["startup_ms"] / 1000)
    return _summary(walls), inside


def warm(root: Path, cells: int) -> dict:
    """Round-trips in one warm child: a trivial cell, a failing cell (a repair round), a small GIS cell, a restart."""
    import geopandas as gpd
    from geoclerk.codegen.sandbox import Sandbox
    from shapely.geometry import Point

    results = {}
    with Sandbox(root=root / "warm") as box:
        info = box.start()
        work = box.new_work_dir()
        gpd.GeoDataFrame({"v": range(100)}, geometry=[Point(i, i) for i in range(100)], crs=32633).to_file(
            work / "pts.gpkg"
        )
        box.run("x = 0", work)
        for name, code, n in (
            ("trivial_cell", "x = x + 1", cells),
            ("print_cell", "print(x)", cells),
            ("failing_cell", "y = undefined_name", max(20, cells // 5)),
            ("gis_cell", "import geopandas as gpd\ng = gpd.read_file('pts.gpkg')\nprint(g.buffer(5).area.sum())", 20),
        ):
            samples = []
            for _ in range(n):
                started = time.perf_counter()
                result = box.run(code, work)
                samples.append(time.perf_counter() - started)
                assert result.ok == (name != "failing_cell"), result.error
            results[name] = _summary(samples)
        started = time.perf_counter()
        box.run("while True:\n    pass", work, timeout=0.5)
        killed = time.perf_counter() - started
        started = time.perf_counter()
        after = box.run("print('back')", work)
        results["timeout_then_restart"] = {"kill_ms": _ms(killed), "next_cell_ms": _ms(time.perf_counter() - started),
                                           "ok": after.ok}  # fmt: skip
        results["landlock_abi"] = info.get("landlock", 0)
        results["limits"] = info.get("limits", [])
    return results


def exec_timeout(root: Path, limit: float = 2.0) -> dict:
    """`geoclerk exec --timeout 2` of an endless script that printed first: wall time, reported run time, output."""
    import re

    from geoclerk.codegen.api import exec_script

    script = root / "forever.py"
    script.write_text("import time\nprint('start', flush=True)\nwhile True:\n    time.sleep(0.1)\n")
    started = time.perf_counter()
    report = exec_script(script, root / "exec-timeout", timeout=limit)
    wall = time.perf_counter() - started
    ran = re.search(r"stopped after ([0-9.]+) s", report["error"] or "")
    return {"limit_s": limit, "wall_ms": _ms(wall), "ran_s": float(ran.group(1)) if ran else None,
            "stdout_kept": report["stdout"] == "start\n"}  # fmt: skip


def write_markdown(data: dict, path: Path) -> None:
    w, c = data["warm"], data["cold_start"]
    verdict = "meets" if w["trivial_cell"]["median_ms"] < TARGET_WARM_MS else "misses"
    lines = [
        f"- Warm round-trip of a trivial cell: **{w['trivial_cell']['median_ms']} ms** median "
        f"(p95 {w['trivial_cell']['p95_ms']} ms, n={w['trivial_cell']['n']}); {verdict} the {TARGET_WARM_MS:.0f} ms "
        "target. It includes the static check, the JSON round-trip and the scan of the work dir for outputs.",
        f"- A failing cell (one repair round, sandbox side): {w['failing_cell']['median_ms']} ms median; "
        f"a small GIS cell (read 100 points, buffer): {w['gis_cell']['median_ms']} ms.",
        f"- Cold start with the GIS stack preloaded: **{c['median_ms']} ms** median (n={c['n']}); "
        f"bare interpreter with the guards only: {data['cold_start_bare']['median_ms']} ms.",
        f"- Timeout kill of a runaway cell (0.5 s limit): {w['timeout_then_restart']['kill_ms']} ms; "
        f"the next cell (cold restart included): {w['timeout_then_restart']['next_cell_ms']} ms.",
        f"- `geoclerk exec --timeout {data['exec_timeout']['limit_s']:g}` of an endless script: "
        f"{data['exec_timeout']['wall_ms']} ms wall in all (cold start included), the error says it ran "
        f"{data['exec_timeout']['ran_s']} s; output printed before the timeout kept: "
        f"{data['exec_timeout']['stdout_kept']}.",
        f"- Landlock ABI in the child: {w['landlock_abi'] or 'not available'}; OS limits: {', '.join(w['limits'])}.",
    ]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--cells", type=int, default=200, help="warm cells to time")
    parser.add_argument("--cold", type=int, default=3, help="cold starts to time")
    args = parser.parse_args(argv)
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="geoclerk-bench-sandbox-") as tmp:
        root = Path(tmp)
        warm_results = warm(root, args.cells)
        cold, inside = cold_starts(root, args.cold, None)
        bare, _ = cold_starts(root, args.cold, [])
        timed_out = exec_timeout(root)
    data = {
        "exec_timeout": timed_out,
        "warm": warm_results,
        "cold_start": dict(cold, child_reported_median_ms=_ms(statistics.median(inside))),
        "cold_start_bare": bare,
        "target_warm_ms": TARGET_WARM_MS,
        "meets_target": warm_results["trivial_cell"]["median_ms"] < TARGET_WARM_MS,
        "python": sys.version.split()[0],
    }
    (OUT / "sandbox.json").write_text(json.dumps(data, indent=2), encoding="utf-8")
    write_markdown(data, OUT / "sandbox.md")
    print((OUT / "sandbox.md").read_text(encoding="utf-8"), end="")
    print(f"wrote {OUT / 'sandbox.json'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
