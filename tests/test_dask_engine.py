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
from shapely.geometry import LineString, Point, box

from geoclerk.function_lib import load_registry
from geoclerk.function_lib.context import RunContext
from geoclerk.function_lib.dask_engine import PORTED, cluster, configure
from geoclerk.function_lib.dask_engine.settings import SETTINGS
from geoclerk.function_lib.registry import run_tool

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


@pytest.fixture(scope="module")
def reference(data, tmp_path_factory):
    """Every call in memory (no input large)."""
    configure(min_features=10**9, min_bytes=0)
    out = {}
    for k, (name, args) in enumerate(CALLS):
        result, _ = _run(data, tmp_path_factory.mktemp(f"ref{k}"), name, args)
        assert result.values.get("engine") is None
        out[k] = result
    return out


def _single(gdf):
    """Geometries with one-part multi-geometries as their part: a GeoPackage written whole promotes a layer that mixes
    Polygon and MultiPolygon to multi, one written partition by partition keeps each feature's own type."""
    geoms = np.asarray(gdf.geometry.array)
    one = (shapely.get_num_geometries(geoms) == 1) & np.isin(shapely.get_type_id(geoms), [4, 5, 6])
    geoms = geoms.copy()
    geoms[one] = shapely.get_geometry(geoms[one], 0)
    return geoms


def _same(expected, got, name):
    """The two results carry the same values: every field, every geometry (exactly, or as the same area for a union
    of several partitions), the result's numbers and answer."""
    for key, value in expected.values.items():
        if isinstance(value, float):
            assert got.values[key] == pytest.approx(value, rel=1e-9), key
        else:
            assert got.values[key] == value, key
    a, b = _read(expected.outputs[0].path), _read(got.outputs[0].path)
    assert list(a.columns) == list(b.columns)
    assert len(a) == len(b) > 0
    attrs = [c for c in a.columns if c != "geometry"]
    pd.testing.assert_frame_equal(pd.DataFrame(a[attrs]).reset_index(drop=True),
                                  pd.DataFrame(b[attrs]).reset_index(drop=True), check_dtype=False, rtol=1e-9)
    if "geometry" in a.columns:
        assert a.crs == b.crs
        if name == "dissolve":
            diff = shapely.area(shapely.symmetric_difference(a.geometry.array, b.geometry.array))
            assert (diff <= 1e-9 * shapely.area(a.geometry.array)).all()
        else:
            assert shapely.equals_exact(_single(a), _single(b), tolerance=1e-9).all()
    assert (expected.answer is None) == (got.answer is None)
    if expected.answer:
        assert got.answer == expected.answer


def _check_all(data, reference, tmp_path, mode):
    for k, (name, args) in enumerate(CALLS):
        result, _ = _run(data, tmp_path / f"{mode}{k}", name, args)
        assert result.values["engine"] == "dask-geopandas", name
        assert "Ran on dask-geopandas in" in result.summary
        _same(reference[k], result, name)
        yield name, result


@pytest.fixture(scope="module")
def local_cluster():
    configure(scheduler="", workers=2, memory_limit="1GiB")
    yield
    cluster.close()


def test_one_partition_gives_the_in_memory_values(data, reference, local_cluster, tmp_path):
    configure(min_features=100, min_bytes=0, partition_rows=10**6)
    done = {name: r.values["partitions"] for name, r in _check_all(data, reference, tmp_path, "one")}
    assert set(done) == set(PORTED) and set(done.values()) == {1}


def test_many_partitions_give_the_in_memory_values(data, reference, local_cluster, tmp_path):
    configure(min_features=100, min_bytes=0, partition_rows=170)
    done = {name: r.values["partitions"] for name, r in _check_all(data, reference, tmp_path, "many")}
    assert set(done) == set(PORTED) and min(done.values()) >= 2


def test_separate_process_cluster_gives_the_in_memory_values(data, reference, tmp_path):
    """A scheduler and two workers as their own processes on 127.0.0.1: the path a real cluster takes."""
    scheduler_file = tmp_path / "scheduler.json"
    python = sys.executable
    procs = [subprocess.Popen([python, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port", "0",
                               "--no-dashboard", "--scheduler-file", str(scheduler_file)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)]
    try:
        deadline = time.monotonic() + 60
        while not scheduler_file.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        import json

        time.sleep(0.2)
        address = json.loads(scheduler_file.read_text())["address"]
        for _ in range(2):
            procs.append(subprocess.Popen([python, "-m", "distributed.cli.dask_worker", address, "--nworkers", "1",
                                           "--nthreads", "1", "--memory-limit", "1GiB", "--no-dashboard",
                                           "--host", "127.0.0.1"],
                                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        configure(scheduler=address, min_features=100, min_bytes=0, partition_rows=170)
        cluster.get_client().wait_for_workers(2, timeout=60)
        done = {name: r for name, r in _check_all(data, reference, tmp_path, "cluster")}
        assert set(done) == set(PORTED)
        assert "the Dask cluster at tcp://127.0.0.1" in done["buffer"].summary
    finally:
        cluster.close()
        configure(scheduler="")
        for proc in procs[::-1]:
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
