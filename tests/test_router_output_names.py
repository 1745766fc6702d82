"""The name a request gives its saved file: 'as a shapefile named green_spaces' (the 'file name' inside 'shapefile
named' hid the 'named' after it), 'Name green_spaces', '文件名 green_spaces' — blind11 en057/de039/zh038 wrote
parks.shp and looked done. The file is written under the asked name, checked on disk; English, German, Chinese."""

from __future__ import annotations

import shutil
from pathlib import Path

import geopandas as gpd
import pytest
from geoclerk.agent.pipeline import AgentConfig, run_request

SAMPLE = Path(__file__).resolve().parent.parent / "data" / "sample"


@pytest.mark.parametrize(
    "text",
    [
        "save the schools as a shapefile named green_spaces",
        "save the schools as a shapefile, name: green_spaces",
        "Schulen als Shapefile speichern, Name green_spaces",
        "Schulen als Shapefile speichern, Dateiname green_spaces",
        "学校存成shapefile，文件名 green_spaces",
    ],
)
def test_the_saved_file_takes_the_asked_name(tmp_path, text):
    schools = shutil.copy(SAMPLE / "schools.gpkg", tmp_path / "schools.gpkg")
    report = run_request(text, [str(schools)], tmp_path / "out", AgentConfig(offline=True))
    assert report.status == "ok", report.error
    [out] = [o for o in report.outputs if o["path"].endswith(".shp")]
    assert Path(out["path"]).name == "green_spaces.shp"
    assert len(gpd.read_file(out["path"])) == len(gpd.read_file(schools))


@pytest.mark.parametrize(
    "text", ["save the schools as a shapefile with the name field kept", "Schulen als Shapefile mit dem Namensfeld"]
)
def test_a_name_field_is_no_file_name(router, tmp_path, text):
    from geoclerk.function_lib.describe import describe_path

    plan = router.route(text, [describe_path(str(SAMPLE / "schools.gpkg"))]).plan
    assert "name" not in plan.params or plan.params["name"] not in ("field", "kept", "mit"), plan
