"""The "Ask GeoClerk" Processing algorithm (geoclerk:ask) run through processing.run, headless."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from geoclerk.geoclerk_plugin import engine
from geoclerk.geoclerk_plugin.provider import GeoClerkProvider
from geoclerk.tests.agent_toolkit import Plan, TinyRouter, tiny_registry
from geoclerk.tests.test_gui_support import isolated_settings, make_town  # noqa: F401
from qgis.core import QgsApplication, QgsProcessingException, QgsProcessingParameterDefinition, QgsVectorLayer


@pytest.fixture(scope="module")
def provider(qgis_processing):
    registry = QgsApplication.processingRegistry()
    added = None
    if registry.providerById("geoclerk") is None:
        added = GeoClerkProvider()
        registry.addProvider(added)
    yield registry.providerById("geoclerk")
    if added is not None:
        registry.removeProvider(added)


@pytest.fixture
def toolkit(monkeypatch, isolated_settings):  # noqa: F811
    for var in ("GEOCLERK_BASE_URL", "GEOCLERK_MODEL"):
        monkeypatch.delenv(var, raising=False)
    router = TinyRouter()
    monkeypatch.setitem(engine._cache, "registry", tiny_registry())
    monkeypatch.setitem(engine._cache, "router", router)
    return router


def test_algorithm_parameters(provider):
    alg = QgsApplication.processingRegistry().algorithmById("geoclerk:ask")
    assert alg.displayName() == "Ask GeoClerk"
    names = [p.name() for p in alg.parameterDefinitions()]
    assert names == ["REQUEST", "INPUTS", "ROUTE", "OUTPUT", "OUTPUT_FOLDER"]
    assert alg.parameterDefinition("ROUTE").options() == ["Auto", "Function", "Code"]
    assert {o.name() for o in alg.outputDefinitions()} >= {"OUTPUT", "OUTPUT_FOLDER", "STATUS", "ANSWER", "REPORT"}


def test_processing_run_buffers(provider, toolkit, tmp_path):
    import processing

    paths = make_town(tmp_path / "data")
    toolkit.decision.plan = Plan("buffer", {"layer": "schools", "distance": 100}, complete=True)
    toolkit.decision.confidence = 0.95
    result = processing.run(
        "geoclerk:ask",
        {
            "REQUEST": "buffer schools by 100 m",
            "INPUTS": [paths["schools"]],
            "ROUTE": 0,
            "OUTPUT": str(tmp_path / "buffered.gpkg"),
            "OUTPUT_FOLDER": str(tmp_path / "files"),
        },
    )
    assert result["STATUS"] == "ok"
    layer = QgsVectorLayer(result["OUTPUT"], "out", "ogr")
    assert layer.isValid() and layer.featureCount() == 6
    area = sum(f.geometry().area() for f in layer.getFeatures())
    assert area == pytest.approx(6 * 3.14159 * 100**2, rel=0.02)
    report = json.loads(result["REPORT"])
    assert report["tier"] == 0 and report["steps"][0]["tool"] == "buffer"
    assert any(p.suffix == ".gpkg" for p in (tmp_path / "files").iterdir())


def test_output_folder_is_optional(provider, toolkit, tmp_path):
    # issue 13: 'qgis_process run geoclerk:ask -- REQUEST=… INPUTS=… OUTPUT=out.gpkg' failed on OUTPUT_FOLDER
    import processing

    paths = make_town(tmp_path / "data")
    toolkit.decision.plan = Plan("buffer", {"layer": "schools", "distance": 100}, complete=True)
    toolkit.decision.confidence = 0.95
    assert QgsApplication.processingRegistry().algorithmById("geoclerk:ask").parameterDefinition(
        "OUTPUT_FOLDER"
    ).flags() & QgsProcessingParameterDefinition.FlagOptional
    params = {"REQUEST": "buffer schools by 100 m", "INPUTS": [paths["schools"]], "OUTPUT": str(tmp_path / "b.gpkg")}
    result = processing.run("geoclerk:ask", params)
    assert result["STATUS"] == "ok"
    assert QgsVectorLayer(result["OUTPUT"], "out", "ogr").featureCount() == 6
    folder = Path(result["OUTPUT_FOLDER"])
    assert folder.is_dir() and any(p.suffix == ".gpkg" for p in folder.iterdir())


def test_processing_run_forced_route_and_answer(provider, toolkit, tmp_path):
    import processing

    paths = make_town(tmp_path / "data")
    toolkit.decision.plan = Plan("count_features", {"layer": "schools"}, complete=True)
    toolkit.decision.confidence = 0.1  # below the threshold: only a forced function route runs it
    params = {"REQUEST": "how many schools", "INPUTS": [paths["schools"]], "ROUTE": 1,
              "OUTPUT_FOLDER": str(tmp_path / "files")}  # fmt: skip
    result = processing.run("geoclerk:ask", params)
    assert result["ANSWER"] == "Counted the features of schools. 6 features"
    params["ROUTE"] = 0
    with pytest.raises(QgsProcessingException, match="not sure enough"):
        processing.run("geoclerk:ask", params)


def test_processing_run_needs_model_fails_clearly(provider, toolkit, tmp_path):
    import processing

    paths = make_town(tmp_path / "data")
    toolkit.decision.route = "codegen"
    with pytest.raises(QgsProcessingException, match="needs generated code"):
        processing.run("geoclerk:ask", {"REQUEST": "model noise exposure", "INPUTS": [paths["roads"]], "ROUTE": 0,
                                        "OUTPUT_FOLDER": str(tmp_path / "files")})  # fmt: skip
