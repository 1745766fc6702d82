"""Where one Processing tool's time goes at one size: its phases and a cProfile of the main thread.

scripts/test_qgis.sh 3.44 .venv/bin/python -m geoclerk.bench.profile_processing count_points_in_polygons 100000
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import tempfile
import time
from pathlib import Path

from geoclerk.bench.functions import OPS, PROCESSING_CALLS, load_registries, make_data


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("op", choices=OPS)
    parser.add_argument("n", type=int)
    parser.add_argument("--repeat", type=int, default=2, help="runs; the last one is profiled")
    args = parser.parse_args(argv)

    from geoclerk.function_lib.context import RunContext
    from geoclerk.function_lib.io import write_vector
    from geoclerk.function_lib.registry import run_tool

    _, registry, status = load_registries(True)
    if registry is None:
        print(f"no Processing: {status}")
        return 1
    work = Path(tempfile.mkdtemp(prefix="geoclerk-profile-"))
    files = {name: write_vector(gdf, work / f"{name}.gpkg") for name, gdf in make_data(args.n).items()}
    tool, tool_args = PROCESSING_CALLS[args.op]
    for rep in range(args.repeat):
        ctx = RunContext(work / f"run{rep}")
        for name, path in files.items():
            ctx.layers.add(name, path=path)
        profile = cProfile.Profile()
        started = time.perf_counter()
        profile.enable()
        run_tool(registry, tool, tool_args, ctx)
        profile.disable()
        phases = ", ".join(f"{k.removeprefix('processing.')} {v:.2f}" for k, v in ctx.timings.items())
        print(f"run {rep + 1}: {time.perf_counter() - started:.2f} s ({phases})", flush=True)
    pstats.Stats(profile).sort_stats("tottime").print_stats(15)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
