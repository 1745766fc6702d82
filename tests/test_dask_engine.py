"""The large-input engine (function_lib/dask_engine) gives the same values as the in-memory GeoPandas tools, by
value, on small data made large by setting: one partition, many partitions, and a scheduler with two workers started
as separate processes on 127.0.0.1."""

from __future__ import annotations

import subprocess
import sys
import time

import geopandas as gpd
import numpy as np
import pandas as pd
import pytest
import shapely
from geoclerk.function_lib import load_registry
from geoclerk.function_lib.context import RunContext
from geoclerk.function_lib.dask_engine import PORTED, cluster, configure
from geoclerk.function_lib.dask_engine.settings import SETTINGS
from geoclerk.function_lib.registry import run_tool
from shapely.geometry import LineString, Point, box

pytestmark = pytest.mark.usefixtures("dask_settings_restored")

N_POINTS = 1200


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    """Points (GeoPackage and GeoParquet), a polygon grid, lines, and small district and mask layers, in degrees
    near Basel so every measure goes through a metric CRS."""
    folder = tmp_path_factory.mktemp("dask_data")
    rng = np.random.default_rng(7)
    x, y = 7.5 + rng.random(N_POINTS) * 0.2, 47.5 + rng.random(N_POINTS) * 0.1
    kinds = np.array(["school", "shop", "park", None], dtype=object)[rng.integers(0, 4, N_POINTS)]
    value = np.where(rng.random(N_POINTS) < 0.1, np.nan, rng.random(N_POINTS) * 100)
    points = gpd.GeoDataFrame({"pid": np.arange(N_POINTS), "kind": kinds, "value": value,
                               "n": rng.integers(0, 50, N_POINTS)}, geometry=gpd.points_from_xy(x, y), crs=4326)
    points.to_file(folder / "points.gpkg")
    points.to_parquet(folder / "points_pq.parquet")
    cells = []
    for i in range(20):
        for j in range(15):
            cells.append({"cid": i * 15 + j, "district": f"d{(i // 5) * 3 + j // 5}", "pop": int(rng.integers(0, 1000)),
                          "geometry": box(7.5 + i * 0.01, 47.5 + j * 0.0067, 7.51 + i * 0.01, 47.5 + (j + 1) * 0.0067)})
    grid = gpd.GeoDataFrame(cells, crs=4326)
    grid.loc[3, "geometry"] = shapely.Polygon([(7.53, 47.52), (7.54, 47.53), (7.54, 47.52), (7.53, 47.53)])  # bowtie
    grid.to_file(folder / "grid.gpkg")
    lines = gpd.GeoDataFrame({"lid": range(400)}, geometry=[
        LineString([(7.5 + k * 0.0005, 47.5), (7.5 + k * 0.0005, 47.55), (7.6, 47.6 - k * 0.0001)]) for k in range(400)
    ], crs=4326)
    lines.to_file(folder / "lines.gpkg")
    districts = grid.drop(index=3).dissolve("district").reset_index()[["district", "geometry"]]
    districts["name"] = districts["district"].str.upper()
    districts.to_crs(2056).to_file(folder / "districts.gpkg")  # another CRS: the large layer is matched to it
    mask = gpd.GeoDataFrame({"m": [1]}, geometry=[Point(7.6, 47.55).buffer(0.04)], crs=4326)
    mask.to_file(folder / "mask.gpkg")
    return folder


CALLS = [
    ("filter_by_expression", {"layer": "points", "expression": "value > 50 and kind = 'shop'"}),
    ("filter_by_expression", {"layer": "points", "expression": "\"kind\" != 'park'"}),
    ("filter_by_expression", {"layer": "points_pq", "expression": "n >= 25"}),
    ("geometry_area", {"layer": "grid", "unit": "ha"}),
    ("geometry_length", {"layer": "lines"}),
    ("reproject", {"layer": "points", "crs": "EPSG:3857"}),
    ("buffer", {"layer": "points", "distance": 150}),
    ("buffer", {"layer": "grid", "distance": 20}),
    ("clip", {"layer": "grid", "overlay": "mask"}),
    ("spatial_join", {"layer": "points", "join": "districts"}),
    ("count_points_in_polygons", {"polygons": "districts", "points": "points"}),
    ("count_points_in_polygons", {"polygons": "districts", "points": "points_pq", "field_name": "n_pts"}),
    ("dissolve", {"layer": "grid", "fields": ["district"], "field": "pop", "agg": "mean"}),
    ("dissolve", {"layer": "grid"}),
    ("group_by", {"layer": "points", "by": ["kind"], "field": "value", "agg": "sum"}),
    ("group_by", {"layer": "points", "by": ["kind"]}),
]
INPUTS = ("points.gpkg", "points_pq.parquet", "grid.gpkg", "lines.gpkg", "districts.gpkg", "mask.gpkg")


def _ctx(folder, out):
    ctx = RunContext(out)
    for name in INPUTS:
        ctx.layers.add_path(folder / name)
    return ctx


def _run(folder, out, name, args):
    ctx = _ctx(folder, out)
    result = run_tool(load_registry(), name, dict(args), ctx)
    return result, ctx


def _read(path):
    if path.endswith(".csv"):
        return pd.read_csv(path)
    return gpd.read_parquet(path) if path.endswith(".parquet") else gpd.read_file(path)


_REFERENCE: dict = {}


def _reference(data, tmp_path_factory, k):
    """The call in memory (no input large), once per module."""
    if k not in _REFERENCE:
        saved = (SETTINGS.min_features, SETTINGS.min_bytes)
        configure(min_features=10**9, min_bytes=0)
        try:
            result, _ = _run(data, tmp_path_factory.mktemp(f"ref{k}"), *CALLS[k])
        finally:
            configure(min_features=saved[0], min_bytes=saved[1])
        assert result.values.get("engine") is None
        _REFERENCE[k] = result
    return _REFERENCE[k]


def _single(gdf):
    """Geometries with one-part multi-geometries as their part: a GeoPackage written whole promotes a layer that mixes
    Polygon and MultiPolygon to multi, one written partition by partition keeps each feature's own type."""
    geoms = np.asarray(gdf.geometry.array)
    one = (shapely.get_num_geometries(geoms) == 1) & np.isin(shapely.get_type_id(geoms), [4, 5, 6])
    geoms = geoms.copy()
    geoms[one] = shapely.get_geometry(geoms[one], 0)
    return geoms


def _same(expected, got, name, got_notes):
    """The two results carry the same values: every field, every geometry (exactly, or as the same area for a union
    of several partitions), the result's numbers and answer."""
    for key, value in expected.values.items():
        if isinstance(value, float):
            assert got.values[key] == pytest.approx(value, rel=1e-9), key
        else:
            assert got.values[key] == value, key
    a, b = _read(expected.outputs[0].path), _read(got.outputs[0].path)
    attrs = [c for c in a.columns if c != "geometry"]
    assert attrs == [c for c in b.columns if c != "geometry"] and ("geometry" in a) == ("geometry" in b)
    assert len(a) == len(b) > 0
    pd.testing.assert_frame_equal(pd.DataFrame(a[attrs]).reset_index(drop=True),
                                  pd.DataFrame(b[attrs]).reset_index(drop=True), check_dtype=False, rtol=1e-9)
    if "geometry" in a.columns:
        assert a.crs == b.crs
        if name == "dissolve":
            diff = shapely.area(shapely.symmetric_difference(a.geometry.array, b.geometry.array))
            assert (diff <= 1e-9 * shapely.area(a.geometry.array)).all()
        else:
            assert shapely.equals_exact(_single(a), _single(b), tolerance=1e-9).all()
    engine_note = " " + next(n for n in got_notes if n.startswith("Ran on dask-geopandas in"))
    assert got.summary.replace(engine_note, "") == expected.summary  # what the user reads, word for word
    assert (expected.answer is None) == (got.answer is None)
    if expected.answer:
        assert got.answer == expected.answer


def _start_separate_cluster(folder):
    """A scheduler and two one-thread workers, each its own process on 127.0.0.1; (address, processes)."""
    import json

    scheduler_file = folder / "scheduler.json"
    python = sys.executable
    quiet = dict(stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    procs = [subprocess.Popen([python, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port", "0",
                               "--no-dashboard", "--scheduler-file", str(scheduler_file)], **quiet)]
    deadline = time.monotonic() + 60
    address = None
    while address is None and time.monotonic() < deadline and procs[0].poll() is None:
        try:
            address = json.loads(scheduler_file.read_text())["address"]
        except (OSError, ValueError, KeyError):
            time.sleep(0.1)
    assert address, "the scheduler did not start within 60 s"
    for _ in range(2):
        procs.append(subprocess.Popen([python, "-m", "distributed.cli.dask_worker", address, "--nworkers", "1",
                                       "--nthreads", "1", "--memory-limit", "1GiB", "--no-dashboard",
                                       "--host", "127.0.0.1"], **quiet))
    return address, procs


def _stop(procs):
    for proc in procs[::-1]:
        proc.terminate()
    for proc in procs:
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=20)


@pytest.fixture(scope="module", params=["one_partition", "many_partitions", "separate_processes"])
def engine(request, tmp_path_factory):
    """The engine set up three ways, each reused by every call of the module: a local cluster with every input in
    one partition, the same cluster with about seven partitions an input, and a scheduler with two workers started as
    separate processes (GeoParquet results there, GeoPackage ones on the local cluster)."""
    procs = []
    if request.param == "separate_processes":
        address, procs = _start_separate_cluster(tmp_path_factory.mktemp("scheduler"))
        configure(scheduler=address, min_features=100, min_bytes=0, partition_rows=170, output_format="parquet")
        cluster.get_client().wait_for_workers(2, timeout=60)
    else:
        rows = 10**6 if request.param == "one_partition" else 170
        configure(scheduler="", workers=2, memory_limit="1GiB", min_features=100, min_bytes=0, partition_rows=rows,
                  output_format="")
    yield request.param
    if procs:
        cluster.close()
        configure(scheduler="", output_format="")
        _stop(procs)


@pytest.mark.parametrize("k", range(len(CALLS)), ids=[f"{n}-{i}" for i, (n, _) in enumerate(CALLS)])
def test_ported_tool_gives_the_in_memory_values(engine, k, data, tmp_path_factory, tmp_path):
    name, args = CALLS[k]
    expected = _reference(data, tmp_path_factory, k)
    result, ctx = _run(data, tmp_path, name, args)
    assert result.values["engine"] == "dask-geopandas"
    assert "Ran on dask-geopandas in" in result.summary
    parts = result.values["partitions"]
    assert parts == 1 if engine == "one_partition" else parts >= 2
    if engine == "separate_processes":
        assert "the Dask cluster at tcp://127.0.0.1" in result.summary
    _same(expected, result, name, ctx.notes)


def test_every_ported_tool_is_checked():
    assert {name for name, _ in CALLS} == set(PORTED)
