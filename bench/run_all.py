"""`make bench`: every benchmark offline, then one report (bench/report.md, bench/report.json, charts)."""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

BENCH = Path(__file__).resolve().parent
OUT = BENCH / "out"
# Each part runs in its own process (a crash or a hang in one cannot take the others down).
PARTS = [
    ("router", "geoclerk.bench.router", 600),
    ("functions", "geoclerk.bench.functions", 900),
    ("sandbox", "geoclerk.bench.sandbox", 300),
    ("tokens", "geoclerk.bench.tokens", 600),
    ("suite", "geoclerk.bench.suite", 900),
    ("blind", "geoclerk.bench.blind", 2400),
]


def run_part(name: str, module: str, timeout: int) -> dict:
    started = time.perf_counter()
    log = OUT / f"{name}.log"
    try:
        proc = subprocess.run(
            [sys.executable, "-m", module],
            capture_output=True,
            text=True,
            timeout=timeout,
            env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
        )
        log.write_text(proc.stdout + "\n--- stderr ---\n" + proc.stderr)
        status = "ok" if proc.returncode == 0 else f"failed (exit {proc.returncode}, see {log.name})"
    except subprocess.TimeoutExpired:
        status = f"timed out after {timeout} s"
    seconds = time.perf_counter() - started
    print(f"bench: {name:<10} {status} in {seconds:.0f} s", flush=True)
    return {"status": status, "seconds": round(seconds, 1)}


def machine() -> dict:
    info = {
        "date": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "python": platform.python_version(),
        "platform": platform.platform(),
        "cpus": os.cpu_count(),
    }
    try:
        mem = Path("/proc/meminfo").read_text().split("\n")[0].split()[1]
        info["memory_gib"] = round(int(mem) / 1024 / 1024, 1)
        model = [x for x in Path("/proc/cpuinfo").read_text().splitlines() if x.startswith("model name")]
        info["cpu"] = model[0].split(":", 1)[1].strip() if model else platform.processor()
    except OSError:
        pass
    versions = {}
    for mod in ("geopandas", "shapely", "pandas", "numpy", "sklearn", "openai"):
        try:
            versions[mod] = __import__(mod).__version__
        except ImportError:
            versions[mod] = "missing"
    try:
        from osgeo import gdal
        from qgis.core import Qgis

        versions["qgis"], versions["gdal"] = Qgis.QGIS_VERSION, gdal.__version__
    except ImportError:
        versions["qgis"] = "missing"
    info["versions"] = versions
    return info


def load(name: str) -> dict | None:
    path = OUT / f"{name}.json"
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return None


def main(argv=None) -> int:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--only", nargs="+", choices=[name for name, _, _ in PARTS],
                        help="re-run these parts only; the others keep their last results (bench/out, report.json)")
    args = parser.parse_args(argv)
    OUT.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    previous = {}
    if args.only:
        try:
            previous = json.loads((BENCH / "report.json").read_text()).get("runs", {})
        except (OSError, ValueError):
            previous = {}
    runs = {
        name: run_part(name, module, timeout) if not args.only or name in args.only else previous.get(
            name, {"status": "not run", "seconds": 0})
        for name, module, timeout in PARTS
    }
    total = sum(r.get("seconds") or 0 for r in runs.values()) if args.only else time.perf_counter() - started
    data = {"machine": machine(), "runs": runs, "total_seconds": round(total, 1)}
    for name, _, _ in PARTS:
        data[name] = load(name)
    from .report import write_report

    write_report(data, BENCH / "report.md", OUT)
    (BENCH / "report.json").write_text(json.dumps(data, indent=1, default=str))
    print(f"bench: report in {BENCH / 'report.md'} ({data['total_seconds']:.0f} s in all)")
    return 0 if all(r["status"] == "ok" for r in runs.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
