"""A distance said in words must be used like one said in digits: 'roads over a kilometre long' measured every road
and answered ok (the condition dropped; held-out blind13 en050 'transects over a kilometre long' showed it). A buffer
by 'a kilometre', 'einen Kilometer' or '五百米' still runs."""

from __future__ import annotations

from pathlib import Path

import geopandas as gpd
import pytest
from geoclerk.agent.pipeline import AgentConfig, run_request

SAMPLE = Path(__file__).resolve().parent.parent / "data" / "sample"


def _run(tmp_path, text, registry, router, *names):
    inputs = [str(SAMPLE / f"{n}.gpkg") for n in names]
    return run_request(text, inputs, tmp_path, AgentConfig(offline=True), registry, router).to_json()


@pytest.mark.parametrize(
    "text", ["roads over a kilometre long", "Straßen über einen Kilometer lang", "超过一公里长的道路"]
)
def test_a_condition_on_a_distance_in_words_is_never_dropped(tmp_path, registry, router, text):
    report = _run(tmp_path, text, registry, router, "roads")
    if report["status"] == "ok":  # answered only as the filter it is: fewer roads than all of them, each > 1 km
        [out] = [o["path"] for o in report["outputs"] if o["kind"] == "vector"][-1:]
        kept = gpd.read_file(out)
        assert len(kept) <= 21 and (kept.to_crs(32633).length > 1000).all()
        assert any("filter" in (s.get("tool") or "") or "select" in (s.get("tool") or "") for s in report["steps"])


@pytest.mark.parametrize(
    ("text", "metres"),
    [("buffer the schools by a kilometre", 1000), ("Puffere die Schulen um einen Kilometer", 1000),
     ("将学校缓冲五百米", 500), ("buffer the schools by half a kilometre", 500)],
)  # fmt: skip
def test_a_buffer_by_a_distance_in_words_still_runs(tmp_path, registry, router, text, metres):
    report = _run(tmp_path, text, registry, router, "schools")
    assert report["status"] == "ok" and report["steps"][0]["params"]["distance"] == metres, report.get("error")
