"""A top N ranks by a number or a date, never by a text field: 'Which landuse has the most districts?' sorted the
landuse names and kept the last ('residential') as the answer, in every language; ranking by a number is unchanged."""

from __future__ import annotations

from pathlib import Path

import pytest
from geoclerk.agent.pipeline import AgentConfig, run_request

SAMPLE = Path(__file__).resolve().parent.parent / "data" / "sample"


def _run(tmp_path, text, registry, router):
    inputs = [str(SAMPLE / "districts.gpkg"), str(SAMPLE / "cafes.gpkg")]
    return run_request(text, inputs, tmp_path, AgentConfig(offline=True), registry, router).to_json()


@pytest.mark.parametrize(
    "text",
    ["Which landuse has the most districts?", "Welche Landnutzung hat die meisten Bezirke?",
     "哪种土地利用的行政区最多？", "the district with the highest landuse"],
)  # fmt: skip
def test_a_text_field_is_never_ranked(tmp_path, registry, router, text):
    report = _run(tmp_path, text, registry, router)
    assert report["status"] != "ok", report["steps"]
    assert not [o for o in report["outputs"] if o["kind"] == "vector"]


@pytest.mark.parametrize(
    ("text", "n"),
    [("the 3 most populous districts", 3), ("the district with the highest population", 1),
     ("die 3 Bezirke mit der höchsten Einwohnerzahl", 3)],
)  # fmt: skip
def test_a_number_field_still_ranks(tmp_path, registry, router, text, n):
    import geopandas as gpd

    report = _run(tmp_path, text, registry, router)
    assert report["status"] == "ok" and report["tier"] == 0, report.get("error")
    [out] = [o["path"] for o in report["outputs"] if o["kind"] == "vector"]
    got = gpd.read_file(out)
    want = gpd.read_file(SAMPLE / "districts.gpkg").nlargest(n, "population")
    assert sorted(got["name"]) == sorted(want["name"])
