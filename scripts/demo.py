"""`make demo`: plain-language requests on the sample data through the CLI, with no model, rendered to PNG.

`make demo-model` (--local-model): the same requests with the local model of `make model`, one server for all."""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "data" / "sample"
GEOCLERK = ROOT / ".venv" / "bin" / "geoclerk"

# (request, input files): the first group runs at tier 0; the last ones need a model on purpose.
REQUESTS = [
    ("Buffer the schools by 500 m", ["schools.gpkg"]),
    ("Reproject the districts to WGS 84", ["districts.gpkg"]),
    ("Select the districts with a population over 10,000", ["districts.gpkg"]),
    ("Count the houses in each district", ["districts.gpkg", "houses.gpkg"]),
    ("Which cafes are within 250 m of a bus stop?", ["cafes.gpkg", "bus_stops.gpkg"]),
    ("Calculate the area of every country in square kilometres", ["countries.geojson"]),
    ("Make Thiessen polygons around the bus stops", ["bus_stops.gpkg"]),
    # several steps with no model: a chain, and the steps a question implies (answered in words)
    ("Buffer the schools by 500 m and count the houses inside each buffer", ["schools.gpkg", "houses.gpkg"]),
    ("Which district has the most cafes?", ["districts.gpkg", "cafes.gpkg"]),
    ("Calculate the NDVI of the 2025 image", ["image_2024.tif", "image_2025.tif"]),
    ("Detect the changes between the 2024 and 2025 images", ["image_2024.tif", "image_2025.tif"]),
    (
        "Find the best place for a new school, weighing population against distance to existing schools",
        ["districts.gpkg", "schools.gpkg"],
    ),
    ("What is the difference between a geographic and a projected CRS?", []),
]


REQUEST_TIMEOUT_S = 600  # one request's limit: a slow one is reported and the demo goes on


def run_cli(
    request: str, inputs: list[Path], out_dir: Path, base_url: str | None = None, timeout_s: float = REQUEST_TIMEOUT_S
) -> tuple[dict, float]:
    """One request through the CLI: its JSON report and the seconds it took. A request past `timeout_s` is stopped
    and reported as an error with a plain message (never a TimeoutExpired traceback that ends the demo)."""
    cmd = [str(GEOCLERK), "run", request, "--out-dir", str(out_dir), "--json"]
    cmd += ["--base-url", base_url, "--model", "local", "--timeout", "300"] if base_url else ["--offline"]
    for path in inputs:
        cmd += ["--input", str(path)]
    started = time.perf_counter()
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout_s)
    except subprocess.TimeoutExpired:
        elapsed = time.perf_counter() - started
        message = (
            f"stopped after {timeout_s:g} s: this request takes longer than the demo allows on this machine "
            "(a local model on few cores is slow); run it alone with `geoclerk run` to let it finish"
        )
        return {"status": "error", "route": "-", "tier": "-", "outputs": [], "error": message}, elapsed
    elapsed = time.perf_counter() - started
    try:
        return json.loads(proc.stdout), elapsed
    except ValueError:
        message = (proc.stderr.strip().splitlines() or ["no output"])[-1]
        return {"status": "error", "route": "-", "tier": "-", "outputs": [], "error": message}, elapsed


def render(report: dict, inputs: list[Path], png: Path, request: str) -> str:
    """Draw the result layer(s) over the inputs with a legend; returns the PNG path or a reason."""
    from geoclerk.geoclerk_plugin.map_export import load_layer, render_png

    paths = [o["path"] for o in report["outputs"] if o["kind"] in ("vector", "raster")]
    made = [s["output"] for s in report.get("steps") or [] if s.get("output") in paths]
    if len(made) >= 2:  # several steps: the map shows the final result over the inputs
        paths = [made[-1]]
    results = [r for r in (load_layer(p) for p in paths) if r is not None]
    if not results:
        return "-"
    from geoclerk.geoclerk_plugin.raster_style import style_raster
    from geoclerk.geoclerk_plugin.styling import apply_style

    for layer in results:
        if hasattr(layer, "fields"):
            apply_style(layer, request, report.get("steps") or [])
        else:
            style_raster(layer)
    context = [c for c in (load_layer(str(p)) for p in inputs) if c is not None]
    for layer in context:
        if not hasattr(layer, "fields"):
            style_raster(layer)  # an image in natural colours
    subtitle = f"route {report['route']}, tier {report['tier']} (no model)"
    render_png(results, context, png, request, subtitle)
    return str(png)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", default="demo-output")
    parser.add_argument("--local-model", action="store_true", help="serve the model requests with `make model`'s")
    args = parser.parse_args()
    out = Path(args.out)
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)

    from geoclerk.geoclerk_plugin.qgis_env import ensure_qgis

    if not ensure_qgis():
        print("demo: PyQGIS does not start here; the maps cannot be rendered.", file=sys.stderr)
        return 1
    server = None
    if args.local_model:
        from geoclerk.agent.local_model import LocalModelServer

        print("starting the local model (a few seconds)…", flush=True)
        server = LocalModelServer().start()
    try:
        rows = _run_all(out, server.base_url if server else None)
    finally:
        if server is not None:
            server.stop()
    _summary(out, rows, "with the local model" if server else "with no model")
    return 0


def _run_all(out: Path, base_url: str | None) -> list:
    rows = []
    for number, (request, files) in enumerate(REQUESTS, 1):
        inputs = [SAMPLE / f for f in files]
        step_dir = out / f"{number:02d}"
        report, elapsed = run_cli(request, inputs, step_dir, base_url)
        png = "-"
        if report.get("status") == "ok":
            try:
                png = render(report, inputs, out / f"{number:02d}_map.png", request)
            except Exception as exc:  # noqa: BLE001 - a map that fails to draw must not hide the others
                png = f"(not rendered: {exc})"
        rows.append((number, request, report, elapsed, png))
        print(f"[{number}/{len(REQUESTS)}] {request}: {report.get('status')}", flush=True)
    return rows


def _summary(out: Path, rows: list, how: str) -> None:
    print()
    print(f"{'#':>2}  {'request':<58} {'route':<9} {'tier':<4} {'status':<9} {'time':>6}  output")
    for number, request, report, elapsed, png in rows:
        short = request if len(request) <= 58 else request[:55] + "..."
        first = report["outputs"][0]["path"] if report.get("outputs") else ""
        shown = png if png != "-" else (first or "-")
        print(
            f"{number:>2}  {short:<58} {report.get('route', '-'):<9} {report.get('tier', '-')!s:<4} "
            f"{report.get('status'):<9} {elapsed:>5.1f}s  {shown}"
        )
        if report.get("answer") and report.get("status") == "ok":
            print(f"    answer: {report['answer'][:160]}")
        if report.get("status") != "ok":
            print(f"    message: {report.get('error')}")
    ok = sum(1 for r in rows if r[2].get("status") == "ok")
    print(f"\n{ok} of {len(rows)} requests answered {how}; maps and outputs are in {out}/")
    (out / "summary.json").write_text(json.dumps([r[2] for r in rows], indent=1, ensure_ascii=False, default=str))


if __name__ == "__main__":
    sys.exit(main())
