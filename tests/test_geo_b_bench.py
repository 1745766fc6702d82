"""The function benchmark compares like with like: bare call and tool give the same result; reports are written."""

from __future__ import annotations

import json

import numpy as np
import pytest
from geoclerk.bench import functions as bench
from geoclerk.function_lib import load_registry
from geoclerk.function_lib.registry import run_tool


@pytest.mark.parametrize("op", bench.OPS)
def test_bare_call_and_tool_agree(tmp_path, op):
    data = bench.make_data(400)
    bare = bench.bare_call(op, bench.fresh(data))
    ctx = bench.memory_context(tmp_path, bench.fresh(data))
    name, args = bench.TOOL_CALLS[op]
    run_tool(load_registry(), name, args, ctx)
    tool = ctx.last_result
    assert len(tool) == len(bare)
    assert tool.area.sum() == pytest.approx(bare.area.sum(), rel=1e-9)
    assert tool.length.sum() == pytest.approx(bare.length.sum(), rel=1e-9)
    if op == "count_points_in_polygons":
        assert tool["count"].sum() == bare["count"].sum() == 400
    if op == "nearest_neighbour":
        assert np.allclose(np.sort(tool["distance"]), np.sort(bare["distance"]))


def test_data_is_deterministic_and_sized():
    a, b = bench.make_data(1000), bench.make_data(1000)
    assert all(len(a[k]) == 1000 for k in ("points", "targets", "polygons"))
    assert a["points"].geometry.equals(b["points"].geometry)
    assert a["polygons"]["zone"].nunique() == 100
    assert a["polygons"].crs.to_epsg() == 32633


def test_bench_writes_table_json_and_plot(tmp_path):
    args = ["--sizes", "200", "400", "--repeat", "1", "--ops", "buffer", "clip", "--no-processing"]
    args += ["--out", str(tmp_path)]
    assert bench.main(args) == 0
    rows = json.loads((tmp_path / "functions.json").read_text())["rows"]
    assert {r["op"] for r in rows} == {"buffer", "clip"} and {r["n"] for r in rows} == {200, 400}
    assert all(r["bare_s"] > 0 and r["tool_s"] > 0 and r["processing_s"] is None for r in rows)
    table = (tmp_path / "functions.md").read_text()
    assert "| buffer | 400 | buffer |" in table
    assert (tmp_path / "functions.png").read_bytes()[:4] == b"\x89PNG"
