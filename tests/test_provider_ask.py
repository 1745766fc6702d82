"""The "Ask GeoClerk" Processing algorithm (geoclerk:ask) run through processing.run, headless."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from geoclerk.geoclerk_plugin import engine
from geoclerk.geoclerk_plugin.provider import GeoClerkProvider
from geoclerk.geoclerk_plugin.qgis_enums import ProcessingParameterFlag
from geoclerk.tests.agent_toolkit import Plan, TinyRouter, tiny_registry
from geoclerk.tests.test_gui_support import isolated_settings, make_town  # noqa: F401
from qgis.core import QgsApplication, QgsProcessingException, QgsVectorLayer


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
    assert names == ["REQUEST", "INPUTS", "RASTERS", "ROUTE", "OUTPUT", "OUTPUT_FOLDER"]
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
    assert (
        QgsApplication.processingRegistry().algorithmById("geoclerk:ask").parameterDefinition("OUTPUT_FOLDER").flags()
        & ProcessingParameterFlag.Optional
    )
    params = {"REQUEST": "buffer schools by 100 m", "INPUTS": [paths["schools"]], "OUTPUT": str(tmp_path / "b.gpkg")}
    result = processing.run("geoclerk:ask", params)
    assert result["STATUS"] == "ok"
    assert QgsVectorLayer(result["OUTPUT"], "out", "ogr").featureCount() == 6
    folder = Path(result["OUTPUT_FOLDER"])
    assert folder.is_dir() and any(p.suffix == ".gpkg" for p in folder.iterdir())
    # issue 27: not Processing's temporary folder, which qgis_process removes when it exits; the profile's results
    from qgis.core import QgsProcessingUtils

    assert not folder.resolve().is_relative_to(Path(QgsProcessingUtils.tempFolder()).resolve())
    assert folder.parent == Path(QgsApplication.qgisSettingsDirPath()) / "geoclerk" / "results"


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


def test_only_data_layers_are_offered_as_inputs(provider, qgis_new_project, tmp_path):
    # issue 13: the "Annotations" layer was offered as an input
    from qgis.core import QgsAnnotationLayer, QgsProject, QgsRasterLayer
    from qgis.gui import QgsProcessingMultipleInputPanelWidget
    from qgis.PyQt.QtWidgets import QAbstractItemView

    paths = make_town(tmp_path / "data")
    project = QgsProject.instance()
    project.addMapLayer(QgsVectorLayer(paths["schools"], "schools", "ogr"))
    project.addMapLayer(QgsRasterLayer(str(Path(__file__).parent.parent / "data" / "sample" / "dem.tif"), "dem"))
    project.addMapLayer(QgsAnnotationLayer("My notes", QgsAnnotationLayer.LayerOptions(project.transformContext())))
    alg = QgsApplication.processingRegistry().algorithmById("geoclerk:ask")
    offered = {}
    for name in ("INPUTS", "RASTERS"):  # the lists the algorithm's dialog shows
        widget = QgsProcessingMultipleInputPanelWidget(alg.parameterDefinition(name), [], [])
        widget.setProject(project)
        model = widget.findChildren(QAbstractItemView)[0].model()
        offered[name] = [model.index(row, 0).data().split(" [")[0] for row in range(model.rowCount())]
    assert offered == {"INPUTS": ["schools"], "RASTERS": ["dem"]}


class RecordingFeedback:
    """Build a QgsProcessingFeedback that keeps every line pushed to the log."""

    @staticmethod
    def make():
        from qgis.core import QgsProcessingFeedback

        class Feedback(QgsProcessingFeedback):
            def __init__(self):
                super().__init__()
                self.lines = []

            def pushInfo(self, info):  # noqa: N802 - QGIS API
                self.lines.append(info)
                super().pushInfo(info)

        return Feedback()


@pytest.fixture
def layer_tree_view(qgis_iface, qgis_new_project, monkeypatch):
    """A real layer tree view of the project as iface's: QGIS 3.44's Processing hands it to C++ when it loads results
    (pytest-qgis's iface gives a MagicMock there, which 3.44 rejects)."""
    from qgis.core import QgsLayerTreeModel, QgsProject
    from qgis.gui import QgsLayerTreeView

    view = QgsLayerTreeView()
    model = QgsLayerTreeModel(QgsProject.instance().layerTreeRoot())
    view.setModel(model)
    monkeypatch.setattr(qgis_iface, "layerTreeView", lambda: view)
    yield view
    view.setModel(None)


def test_the_output_is_named_styled_and_grouped_and_the_log_is_short(provider, toolkit, tmp_path, layer_tree_view):
    # issue 13: the output was "Result layer" in a default style outside any group; the log repeated lines
    import processing
    from geoclerk.geoclerk_plugin.results import read_provenance
    from qgis.core import QgsProject

    paths = make_town(tmp_path / "data")
    toolkit.decision.plan = Plan("buffer", {"layer": "schools", "distance": 100}, complete=True)
    toolkit.decision.confidence = 0.95
    feedback = RecordingFeedback.make()
    params = {"REQUEST": "buffer schools by 100 m", "INPUTS": [paths["schools"]], "OUTPUT": "TEMPORARY_OUTPUT"}
    result = processing.runAndLoadResults("geoclerk:ask", params, feedback=feedback)
    layer = QgsProject.instance().mapLayer(result["OUTPUT"])
    assert layer.name() == "buffer schools by 100 m" and layer.featureCount() == 6
    assert layer.renderer().symbol().color().alpha() < 100  # the dock's buffer style: see-through, red outline
    group = QgsProject.instance().layerTreeRoot().findGroup("GeoClerk results")
    assert group is not None and [n.layer() for n in group.findLayers()] == [layer]
    assert read_provenance(layer)["request"] == "buffer schools by 100 m"
    # GeoClerk's own lines: QGIS itself ends with 'Results: {…every output…}', REPORT's JSON included
    lines = [line.strip() for line in feedback.lines if line.strip() and not line.startswith("Results: {")]
    assert len(lines) == len(set(lines)) and "route=function tier=0 status=ok" in lines, lines
    assert not any(line.startswith("{") or '"steps"' in line for line in lines), lines
    assert sum(result["ANSWER"] in line for line in lines) == 1


def test_a_question_fails_the_algorithm_with_the_question_as_its_message(provider, isolated_settings, tmp_path):  # noqa: F811
    """issue 25: the algorithm cannot ask back; its message is the question with the choices (the real router)."""
    import shutil

    import processing

    sample = Path(__file__).resolve().parent.parent / "data" / "sample"
    paths = [str(shutil.copy(sample / f"{n}.gpkg", tmp_path / f"{n}.gpkg")) for n in ("cafes", "bus_stops")]
    params = {"REQUEST": "Buffer the points by 100 m", "INPUTS": paths, "ROUTE": 0,
              "OUTPUT_FOLDER": str(tmp_path / "files")}  # fmt: skip
    with pytest.raises(QgsProcessingException) as err:
        processing.run("geoclerk:ask", params)
    assert str(err.value) == "Which layer do you mean? (cafes, bus_stops) Say it in the request and run it again."

def test_a_request_of_several_steps_writes_every_step_and_outputs_the_last(provider, monkeypatch, isolated_settings,  # noqa: F811
                                                                          registry, router, tmp_path):  # fmt: skip
    import geopandas as gpd
    import processing

    for var in ("GEOCLERK_BASE_URL", "GEOCLERK_MODEL"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setitem(engine._cache, "registry", registry)
    monkeypatch.setitem(engine._cache, "router", router)
    sample = Path(__file__).resolve().parent.parent / "data" / "sample"
    params = {"REQUEST": "buffer the schools by 500 m and count the houses inside each buffer",
              "INPUTS": [str(sample / "schools.gpkg"), str(sample / "houses.gpkg")], "ROUTE": 0,
              "OUTPUT": str(tmp_path / "counted.gpkg"), "OUTPUT_FOLDER": str(tmp_path / "files")}  # fmt: skip
    result = processing.run("geoclerk:ask", params)
    report = json.loads(result["REPORT"])
    assert result["STATUS"] == "ok" and report["tier"] == 0
    assert [s["tool"] for s in report["steps"]] == ["buffer", "count_points_in_polygons"]
    assert all(Path(s["output"]).exists() and Path(s["output"]).parent == tmp_path / "files" for s in report["steps"])
    out = gpd.read_file(result["OUTPUT"])
    houses, schools = gpd.read_file(sample / "houses.gpkg"), gpd.read_file(sample / "schools.gpkg")
    expected = sorted(int(houses.within(g).sum()) for g in schools.buffer(500, 16).geometry)
    assert sorted(out["count"]) == pytest.approx(expected, abs=1)  # the OUTPUT is the last step's layer
