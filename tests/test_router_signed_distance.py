"""A minus sign before a distance is read in every language: Chinese writes it with no space after the verb
('将学校缓冲-5米'), and it was read as +5 m (a buffer that looked done, where en/de refuse a negative buffer of
points)."""

from __future__ import annotations

from pathlib import Path

import geopandas as gpd
import pytest
from geoclerk.agent.pipeline import AgentConfig, run_request
from geoclerk.reading.quantities import find_distances
from geoclerk.reading.series import signed
from geoclerk.reading.text import fold

SAMPLE = Path(__file__).resolve().parent.parent / "data" / "sample"


@pytest.mark.parametrize(
    ("text", "metres"),
    [
        ("buffer the schools by -5 m", -5), ("Puffere die Schulen um -5 m", -5), ("将学校缓冲-5米", -5),
        ("把行政区缓冲−50米", -50), ("buffer the districts by minus 50 m", -50),
        ("buffer zone A-5 m", 5), ("buffer the 2-5 m wide lanes", 5), ("将学校缓冲5米", 5),
    ],
)  # fmt: skip
def test_the_sign_of_a_distance(text, metres):
    folded = fold(text)
    [d] = find_distances(folded)[-1:]
    assert signed(folded, d) == metres


@pytest.mark.parametrize("text", ["buffer the schools by -5 m", "Puffere die Schulen um -5 m", "将学校缓冲-5米"])
def test_a_negative_buffer_of_points_is_refused_in_every_language(tmp_path, registry, router, text):
    report = run_request(text, [str(SAMPLE / "schools.gpkg")], tmp_path, AgentConfig(offline=True), registry, router)
    assert report.status != "ok", report.to_json()
    assert not [o for o in report.outputs if o["kind"] == "vector"]


@pytest.mark.parametrize("text", ["buffer the districts by -50 m", "Puffere die Bezirke um -50 m", "将行政区缓冲-50米"])
def test_a_negative_buffer_of_polygons_shrinks_them_in_every_language(tmp_path, registry, router, text):
    report = run_request(text, [str(SAMPLE / "districts.gpkg")], tmp_path, AgentConfig(offline=True), registry, router)
    assert report.status == "ok" and report.tier == 0, report.to_json()
    [out] = [o["path"] for o in report.outputs if o["kind"] == "vector"]
    before = gpd.read_file(SAMPLE / "districts.gpkg")
    after = gpd.read_file(out).to_crs(before.crs)
    assert len(after) == len(before) and after.area.sum() < 0.97 * before.area.sum()
