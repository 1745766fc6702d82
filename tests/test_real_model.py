"""The real local model (make model: Qwen2.5-Coder-1.5B, llama-server) through every model tier, checked by value.

Run by `make test-model` (which builds or reuses the model first); left out of `make test` by the `model` marker
because a CPU model takes minutes. Nothing here is scripted: the replies are the model's own."""

from __future__ import annotations

import shutil
from pathlib import Path

import geopandas as gpd
import pytest
from geoclerk.agent.local_model import default_model, default_server, stop_shared
from geoclerk.agent.pipeline import AgentConfig, run_request

pytestmark = [pytest.mark.model, pytest.mark.timeout(900)]  # a CPU model: minutes per request
SAMPLE = Path(__file__).resolve().parents[1] / "data" / "sample"


@pytest.fixture(scope="module", autouse=True)
def local_model():
    # no skip: `make test-model` builds the model first, so a missing one is a failure to report
    assert default_model().exists(), f"{default_model()} is missing: run `make model`"
    assert default_server().exists(), f"{default_server()} is missing: run `make model`"
    yield
    stop_shared()


def _copy(tmp_path, *names) -> list[str]:
    out = []
    for name in names:
        shutil.copy(SAMPLE / name, tmp_path / name)
        out.append(str(tmp_path / name))
    return out


def _config(**extra) -> AgentConfig:
    return AgentConfig(model="local", local_model="", **extra)  # '' = the model `make model` made


def test_tier1_function_calling_buffers_the_schools(tmp_path, registry, router):
    inputs = _copy(tmp_path, "schools.gpkg")
    report = run_request(
        "buffer the schools by 250 m", inputs, tmp_path / "out", _config(tier0=False, route="function"), registry,
        router,
    )  # fmt: skip
    assert report.status == "ok", report.error
    assert report.tier == 1 and report.usage.llm_calls >= 1
    schools = gpd.read_file(inputs[0])
    out = gpd.read_file(report.outputs[-1]["path"])
    assert len(out) == len(schools)
    assert out.to_crs(schools.crs).area.sum() == pytest.approx(len(schools) * 3.1214 * 250**2, rel=0.02)


def test_tier0_with_the_models_confirmation(tmp_path, registry, router):
    inputs = _copy(tmp_path, "cafes.gpkg")
    report = run_request("reproject the cafes to EPSG:4326", inputs, tmp_path / "out", _config(), registry, router)
    assert report.status == "ok", report.error
    assert report.tier in (0, 1) and report.usage.llm_calls >= 1  # confirmed (tier 0) or corrected (tier 1)
    assert gpd.read_file(report.outputs[-1]["path"]).crs.to_epsg() == 4326


def test_tier2_code_generation_adds_a_computed_column(tmp_path, registry, router):
    inputs = _copy(tmp_path, "schools.gpkg")
    request = (
        "write python code: add a column students_x2 to the schools holding twice the students, save as a new layer"
    )
    report = run_request(request, inputs, tmp_path / "out", _config(tier0=False, route="codegen"), registry, router)
    assert report.status == "ok", report.error
    assert report.tier == 2
    schools = gpd.read_file(inputs[0])
    vectors = [o for o in report.outputs if o["kind"] == "vector"]
    assert vectors, report.outputs
    out = gpd.read_file(vectors[-1]["path"])
    assert sorted(out["students_x2"]) == sorted(schools["students"] * 2)


def test_chat_answers_from_the_layer_descriptions(tmp_path, registry, router):
    inputs = _copy(tmp_path, "schools.gpkg")
    epsg = gpd.read_file(inputs[0]).crs.to_epsg()
    report = run_request(
        "which coordinate reference system is the schools layer in?", inputs, tmp_path / "out",
        _config(route="chat"), registry, router,
    )  # fmt: skip
    assert report.status == "ok", report.error
    assert str(epsg) in report.answer
