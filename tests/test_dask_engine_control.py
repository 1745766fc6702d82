"""The large-input engine's control: progress from the partitions, Cancel, a lost worker, the threshold, tools and
arguments that are not partitioned (they say so and run in memory), and `geoclerk run --scheduler ADDRESS`."""

from __future__ import annotations

import json
import os
import time

import dask
import distributed  # noqa: F401 - its config defaults are loaded before dask.config.set below
import geopandas as gpd
import numpy as np
import pytest
from geoclerk.errors import CancelledError, ToolError, ValidationError
from geoclerk.function_lib import load_registry
from geoclerk.function_lib.context import RunContext
from geoclerk.function_lib.dask_engine import cluster, configure
from geoclerk.function_lib.registry import run_tool
from shapely.geometry import box

pytestmark = pytest.mark.usefixtures("dask_settings_restored")


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    folder = tmp_path_factory.mktemp("dask_control")
    rng = np.random.default_rng(3)
    n = 1000
    points = gpd.GeoDataFrame({"v": rng.random(n)}, geometry=gpd.points_from_xy(8.5 + rng.random(n) * 0.1,
                                                                                47.3 + rng.random(n) * 0.1), crs=4326)
    points.to_file(folder / "stops.gpkg")
    cells = gpd.GeoDataFrame({"ward": ["north", "south"]}, geometry=[box(8.5, 47.35, 8.6, 47.4), box(8.5, 47.3, 8.6,
                                                                                                     47.35)], crs=4326)
    cells.to_file(folder / "wards.gpkg")
    return folder


@pytest.fixture(scope="module")
def engine():
    """A local cluster of two worker processes; a worker that dies is not retried (allowed-failures 0)."""
    with dask.config.set({"distributed.scheduler.allowed-failures": 0}):
        configure(scheduler="", workers=2, memory_limit="1GiB", min_features=100, min_bytes=0, partition_rows=100,
                  output_format="")
        cluster.get_client()
    yield
    cluster.close()


def _ctx(data, out, progress=None):
    ctx = RunContext(out, progress=progress)
    ctx.layers.add_path(data / "stops.gpkg")
    ctx.layers.add_path(data / "wards.gpkg")
    return ctx


def test_progress_follows_the_partitions(engine, data, tmp_path):
    seen = []
    ctx = _ctx(data, tmp_path, progress=lambda p, m: seen.append((p, m)))
    result = run_tool(load_registry(), "spatial_join", {"layer": "stops", "join": "wards"}, ctx)
    assert result.values["partitions"] == 10 and result.values["matches"] == 1000
    assert [p for p, _ in seen] == [10.0 * k for k in range(1, 11)]
    assert seen[-1][1] == "spatial_join: 10 of 10 partitions"


def test_cancel_cancels_the_futures_and_leaves_no_file(engine, data, tmp_path):
    ctx = _ctx(data, tmp_path)
    ctx._progress = lambda p, m: ctx.cancel_event.set()  # Cancel pressed when the first partition is in
    with pytest.raises(CancelledError):
        run_tool(load_registry(), "buffer", {"layer": "stops", "distance": 50}, ctx)
    assert not list(tmp_path.glob("*.gpkg"))
    client = cluster.get_client()
    deadline = time.monotonic() + 20  # the scheduler forgets the cancelled partitions (asynchronously)
    while client.run_on_scheduler(_running_tasks) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert client.run_on_scheduler(_running_tasks) == 0


def _running_tasks(dask_scheduler):
    return sum(1 for t in dask_scheduler.tasks.values() if t.state in ("processing", "waiting", "queued"))


def test_a_lost_worker_says_so(engine, data, tmp_path):
    ctx = _ctx(data, tmp_path)
    with pytest.raises(ToolError) as caught:
        cluster.compute(ctx, [dask.delayed(os._exit)(1)], "a test")
    assert "A Dask worker was lost while running a test" in caught.value.message
    assert "GEOCLERK_DASK_MEMORY_LIMIT" in caught.value.fix
    # the cluster goes on: the nanny starts a new worker
    cluster.get_client().wait_for_workers(2, timeout=60)
    result = run_tool(load_registry(), "geometry_area", {"layer": "wards"}, ctx)  # small: in memory
    assert "engine" not in result.values


def test_below_the_threshold_nothing_changes(engine, data, tmp_path):
    configure(min_features=10**6)
    try:
        result = run_tool(load_registry(), "buffer", {"layer": "stops", "distance": 50}, _ctx(data, tmp_path))
    finally:
        configure(min_features=100)
    assert "engine" not in result.values and "Dask" not in result.summary


@pytest.mark.parametrize(
    "name, args, why",
    [
        ("buffer", {"layer": "stops", "distance": 50, "rings": 2}, "multi-ring, dissolved and inward buffers"),
        ("centroids", {"layer": "stops"}, "it has no partitioned version yet"),
        ("spatial_join", {"layer": "stops", "join": "wards", "predicate": "nearest"}, "the nearest join"),
        ("count_points_in_polygons", {"polygons": "stops", "points": "wards"}, "its other layer ('stops')"),
    ],
)
def test_what_is_not_partitioned_says_so_and_runs_in_memory(engine, data, tmp_path, name, args, why):
    result = run_tool(load_registry(), name, args, _ctx(data, tmp_path)) if name != "count_points_in_polygons" else None
    if result is None:  # the wrong way round: the in-memory tool refuses it as before
        ctx = _ctx(data, tmp_path)
        with pytest.raises(ValidationError):
            run_tool(load_registry(), name, args, ctx)
        assert any(why in n for n in ctx.notes)
        return
    assert "engine" not in result.values
    assert f"'stops' (1,000 features): {name} ran in memory rather than on Dask because {why}" in result.summary


def test_cli_scheduler_runs_a_request_on_that_cluster(data, tmp_path, capsys):
    """`geoclerk run --scheduler ADDRESS`: a tier-0 request on a large layer runs on the given cluster."""
    from distributed import LocalCluster
    from geoclerk.cli.main import main

    with LocalCluster(n_workers=1, threads_per_worker=2, processes=False, protocol="tcp://", host="127.0.0.1",
                      dashboard_address=None, scheduler_kwargs={"dashboard": False}) as other:
        configure(min_features=100, min_bytes=0, partition_rows=300)
        try:
            code = main(["run", "count the stops in each ward", "-i", str(data / "stops.gpkg"), "-i",
                         str(data / "wards.gpkg"), "--out-dir", str(tmp_path), "--offline", "--json",
                         "--scheduler", other.scheduler_address])
        finally:
            cluster.close()
            configure(scheduler="")
    report = json.loads(capsys.readouterr().out)
    assert code == 0 and report["status"] == "ok", report
    said = f"Ran on dask-geopandas in 4 partitions on the Dask cluster at {other.scheduler_address} (1 worker)."
    assert said in report["notes"], json.dumps(report)[:3000]
    counts = gpd.read_file(report["outputs"][0]["path"])
    assert counts["count"].sum() == 1000 and len(counts) == 2


def test_cli_refuses_an_address_that_is_no_scheduler(tmp_path, capsys):
    from geoclerk.cli.main import main

    code = main(["run", "count the stops", "--out-dir", str(tmp_path), "--offline", "--scheduler", "http://x:1"])
    assert code != 0
    assert "is not a Dask scheduler address" in capsys.readouterr().err
