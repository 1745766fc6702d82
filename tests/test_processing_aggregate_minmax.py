"""qgis_aggregate min/max give the minimum and maximum (QGIS says minimum/maximum; min was read as the first value)."""

from __future__ import annotations

import pytest

pytest.importorskip("qgis.core")

from geoclerk.tests.processing_helpers import gdf, pt, run  # noqa: E402

POP = [2315560, 621863, 96157, 129380]  # the first value is the largest: a first_value fallback would show it
LAYER = gdf([pt(i * 10, 0) for i in range(4)], pop=POP, kind=["a", "b", "a", "b"])


@pytest.mark.parametrize(("agg", "expected"), [("min", min(POP)), ("max", max(POP)), ("mean", sum(POP) / 4)])
def test_aggregate_whole_layer(reg, tmp_path, agg, expected):
    _, out = run(reg, tmp_path, "qgis_aggregate", {"layer": "p", "field": "pop", "agg": agg}, p=LAYER)
    assert len(out) == 1 and float(out[f"pop_{agg}"].iloc[0]) == pytest.approx(expected)


def test_aggregate_min_per_group(reg, tmp_path):
    args = {"layer": "p", "by": "kind", "field": "pop", "agg": "min"}
    _, out = run(reg, tmp_path, "qgis_aggregate", args, p=LAYER)
    assert dict(zip(out["kind"], out["pop_min"])) == {"a": 96157, "b": 129380}
