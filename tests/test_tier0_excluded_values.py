"""'The paths whose surface is not 沥青' on a field of 'asphalt', 'gravel', 'dirt': excluding a value the field does
not have keeps every feature and looks right (blind10 zh015 answered ok with all 12 paths). Tier 0 stops with the
field's values instead; excluding a value it has still answers. English, German and Chinese."""

from __future__ import annotations

import shutil
from pathlib import Path

import geopandas as gpd
import pytest
from geoclerk.agent.pipeline import AgentConfig, run_request

SAMPLE = Path(__file__).resolve().parent.parent / "data" / "sample"


@pytest.fixture
def houses(tmp_path):
    return str(shutil.copy(SAMPLE / "houses.gpkg", tmp_path / "houses.gpkg"))


@pytest.mark.parametrize(
    "text",
    ["the houses whose type is not bungalow", "Häuser, deren Typ nicht Bungalow ist", "类型不是平房的房屋"],
)
def test_excluding_a_value_the_layer_lacks_is_not_answered(houses, tmp_path, text):
    report = run_request(text, [houses], tmp_path / "out", AgentConfig(offline=True))
    assert report.status != "ok" and not report.outputs, (report.status, report.answer)
    if report.status == "error":  # read as a filter: the message names the field's values
        assert "'apartment', 'detached', 'terrace'" in report.error


@pytest.mark.parametrize(
    "text", ["the houses whose type is not terrace", "Häuser, deren Typ nicht terrace ist", "类型不是terrace的房屋"]
)
def test_excluding_a_value_the_layer_has_is_answered(houses, tmp_path, text):
    report = run_request(text, [houses], tmp_path / "out", AgentConfig(offline=True))
    assert report.status == "ok", report.error
    out = gpd.read_file(report.outputs[-1]["path"])
    every = gpd.read_file(houses)
    assert len(out) == int((every["type"] != "terrace").sum()) and "terrace" not in set(out["type"])
