"""The Processing algorithm "Ask GeoClerk" (geoclerk:ask): a request over layers, headless-ready."""

from __future__ import annotations

import json
import threading
from pathlib import Path

from qgis.core import (
    QgsFeatureSink,
    QgsProcessingAlgorithm,
    QgsProcessingException,
    QgsProcessingLayerPostProcessorInterface,
    QgsProcessingOutputString,
    QgsProcessingParameterEnum,
    QgsProcessingParameterFeatureSink,
    QgsProcessingParameterFolderDestination,
    QgsProcessingParameterMultipleLayers,
    QgsProcessingParameterString,
    QgsProject,
    QgsVectorLayer,
)

from .dependencies import dependency_message
from .i18n import tr
from .qgis_enums import LayerType, ProcessingSourceType

ROUTES = ("auto", "function", "codegen")
DATA_LAYERS = (LayerType.Vector, LayerType.Raster)


class AskGeoClerkAlgorithm(QgsProcessingAlgorithm):
    """Runs one GeoClerk request; the first vector result goes to OUTPUT, every file to OUTPUT_FOLDER."""

    REQUEST, INPUTS, RASTERS, ROUTE = "REQUEST", "INPUTS", "RASTERS", "ROUTE"
    OUTPUT, OUTPUT_FOLDER = "OUTPUT", "OUTPUT_FOLDER"

    def name(self):
        return "ask"

    def displayName(self):  # noqa: N802
        return tr("Ask GeoClerk")

    def group(self):
        return ""

    def groupId(self):  # noqa: N802
        return ""

    def shortHelpString(self):  # noqa: N802
        return tr(
            'Describe an analysis in plain language, for example "buffer roads by 100 m". '
            "Standard requests run offline; others need a model configured in GeoClerk settings "
            "(or GEOCLERK_BASE_URL, GEOCLERK_MODEL and GEOCLERK_API_KEY for headless runs). "
            "With no input layers ticked, the project's layers are used. Without an output folder, the files go to "
            "a folder that stays: geoclerk_results next to a saved project, else geoclerk/results in the QGIS "
            "profile; the log and the OUTPUT_FOLDER output name it."
        )

    def createInstance(self):  # noqa: N802
        return AskGeoClerkAlgorithm()

    def initAlgorithm(self, config=None):  # noqa: N802
        self.addParameter(QgsProcessingParameterString(self.REQUEST, tr("Request"), multiLine=True))
        # Vector and raster layers in two lists: a list of any map layer would offer annotation, mesh and plugin
        # layers too, which hold no data a request can use.
        self.addParameter(
            QgsProcessingParameterMultipleLayers(
                self.INPUTS, tr("Input layers"), ProcessingSourceType.Vector, optional=True
            )
        )
        self.addParameter(
            QgsProcessingParameterMultipleLayers(
                self.RASTERS, tr("Input rasters"), ProcessingSourceType.Raster, optional=True
            )
        )
        self.addParameter(
            QgsProcessingParameterEnum(
                self.ROUTE, tr("Route"), options=[tr("Auto"), tr("Function"), tr("Code")], defaultValue=0
            )
        )
        self.addParameter(
            QgsProcessingParameterFeatureSink(self.OUTPUT, tr("Result layer"), optional=True, createByDefault=True)
        )
        # optional: a lasting folder when not given (qgis_process … OUTPUT=out.gpkg alone is a whole call)
        self.addParameter(
            QgsProcessingParameterFolderDestination(self.OUTPUT_FOLDER, tr("Output folder"), optional=True)
        )
        self.addOutput(QgsProcessingOutputString("STATUS", tr("Status")))
        self.addOutput(QgsProcessingOutputString("ANSWER", tr("Answer")))
        self.addOutput(QgsProcessingOutputString("REPORT", tr("Report (JSON)")))

    def processAlgorithm(self, parameters, context, feedback):  # noqa: N802
        from .dependencies import check_dependencies

        problems = check_dependencies()
        if problems:
            raise QgsProcessingException(dependency_message(problems))
        from ..agent.pipeline import run_request
        from . import engine
        from .layers import build_inputs
        from .settings import GeoClerkSettings
        from .task import in_python_thread

        request = self.parameterAsString(parameters, self.REQUEST, context).strip()
        if not request:
            raise QgsProcessingException(tr("The request is empty. Describe what you want to do."))
        project = context.project() or QgsProject.instance()
        layers = []
        for name in (self.INPUTS, self.RASTERS):
            for layer in self.parameterAsLayerList(parameters, name, context) or []:
                if layer.type() not in DATA_LAYERS:  # a model or a script may still pass one: say so, go on
                    feedback.reportError(tr("'{name}' holds no data GeoClerk can use; it was left out.").format(
                        name=layer.name()))  # fmt: skip
                elif layer not in layers:
                    layers.append(layer)
        if not layers:  # none ticked: the project's layers, as the dock offers them (never GeoClerk's own results)
            layers = project_layers(project)
            if layers:
                log_names = ", ".join(layer.name() for layer in layers)
                feedback.pushInfo(tr("No input layers were given; using the project's layers: {names}").format(
                    names=log_names))  # fmt: skip
        route = ROUTES[self.parameterAsEnum(parameters, self.ROUTE, context)]
        folder = output_folder(self.parameterAsString(parameters, self.OUTPUT_FOLDER, context), project)
        feedback.pushInfo(tr("Result files: {folder}").format(folder=folder))
        store, infos = build_inputs(layers, folder / "inputs")
        config = GeoClerkSettings.read().agent_config(route)
        if callable(config.api_key) and _on_main_thread():
            # processing.run() from the console runs here, on the main thread, which then waits for the worker
            # thread below: a master-password dialog asked for from that worker would wait for the main thread
            # forever. So on the main thread the key is read now; in the dialog's task it is read when needed.
            config.api_key()
        cancel = threading.Event()
        feedback.canceled.connect(cancel.set)
        log = OnceLog(feedback)

        def progress(percent, message=""):
            feedback.setProgress(percent)
            log.info(message)
            if feedback.isCanceled():
                cancel.set()

        registry = engine.registry()  # in the algorithm's own thread: binding Processing creates QObjects

        def serve():
            return run_request(
                request,
                store,
                folder,
                config=config,
                registry=registry,
                router=engine.router(),
                layer_infos=infos,
                progress=progress,
                cancel_event=cancel,
            )

        report = in_python_thread(serve)  # Processing may run us in a QThread; see task.in_python_thread
        data = report.to_json()
        # A short account (the full report is the REPORT output): what ran, the answer, notes not said yet.
        log.info(f"route={data['route']} tier={data['tier']} status={data['status']}")
        answer = data.get("answer") or ""
        log.info(answer)
        for note in data.get("notes", []):
            if note not in answer:
                log.info(note)
        for i, step in enumerate(data.get("steps", []), 1):  # the steps in order, each with the file it wrote
            if "tool" in step:
                made = f" -> {step['output']}" if step.get("output") else ""
                log.info(f"{i}. {step['tool']} {json.dumps(step['params'], ensure_ascii=False, default=str)}{made}")
        if data["status"] == "ask":  # an algorithm cannot ask back: the question is its message
            from ..agent.asking import question_as_failure

            raise QgsProcessingException(question_as_failure(data["questions"][0]))
        if data["status"] != "ok":
            raise QgsProcessingException(data.get("error") or data["status"])
        results = {
            "STATUS": data["status"],
            "ANSWER": answer,
            "OUTPUT_FOLDER": str(folder),
            "REPORT": json.dumps(data, ensure_ascii=False, default=str),
        }
        vectors = [o["path"] for o in data["outputs"] if o["kind"] == "vector"]
        final = final_vector(data)  # a request of several steps: its last step's layer, not its first
        if vectors and parameters.get(self.OUTPUT) is not None:
            results[self.OUTPUT] = self._copy_to_sink(final or vectors[0], parameters, context)
            self._present(results[self.OUTPUT], data, context)
        return results

    def _present(self, dest, data: dict, context) -> None:
        """The OUTPUT layer QGIS loads afterwards: named after the request, styled, grouped, with provenance, as
        the dock's results are (QGIS would call it 'Result layer' and give it a random colour)."""
        if not dest or not context.willLoadLayerOnCompletion(dest):
            return
        from .results import layer_title

        details = context.layerToLoadOnCompletionDetails(dest)
        details.name = layer_title(data.get("request") or "", 0, 1)
        details.forceName = True
        processor = ResultPresenter(data)
        _PRESENTERS.append(processor)  # QGIS keeps only a pointer: the Python object must outlive this call
        del _PRESENTERS[:-200]  # bounded: QGIS loads each run's layers right after the run, in batches too
        details.setPostProcessor(processor)

    def _copy_to_sink(self, path, parameters, context):
        layer = QgsVectorLayer(path, "result", "ogr")
        if not layer.isValid():
            raise QgsProcessingException(tr("GeoClerk wrote a result it cannot read: {path}").format(path=path))
        sink, dest = self.parameterAsSink(
            parameters, self.OUTPUT, context, layer.fields(), layer.wkbType(), layer.crs()
        )
        if sink is None:
            return None
        for feature in layer.getFeatures():
            sink.addFeature(feature, QgsFeatureSink.Flag.FastInsert)
        return dest


def _on_main_thread() -> bool:
    from qgis.PyQt.QtCore import QCoreApplication, QThread

    app = QCoreApplication.instance()
    return app is not None and QThread.currentThread() == app.thread()


class OnceLog:
    """The Processing log without repeats: progress reports the same stage many times, notes recur in answers."""

    def __init__(self, feedback):
        self.feedback = feedback
        self.said: set[str] = set()

    def info(self, text: str) -> None:
        text = (text or "").strip()
        if text and text not in self.said:
            self.said.add(text)
            self.feedback.pushInfo(text)


_PRESENTERS: list = []


class ResultPresenter(QgsProcessingLayerPostProcessorInterface):
    """Runs on the main thread once QGIS has added the OUTPUT layer: the dock's style, group and provenance."""

    def __init__(self, report: dict):
        super().__init__()
        self.report = report

    def postProcessLayer(self, layer, context, feedback):  # noqa: N802 - QGIS API
        from .results import present_layer

        present_layer(layer, self.report, context.project() or QgsProject.instance())


def final_vector(data: dict) -> str | None:
    """The last step's vector result when the request ran several tool steps that each made a layer; else None."""
    made = [s.get("output") for s in data.get("steps", []) if "tool" in s and s.get("output")]
    vectors = {o["path"] for o in data.get("outputs", []) if o["kind"] == "vector"}
    made = [p for p in made if p in vectors]
    return made[-1] if len(made) >= 2 else None


def project_layers(project) -> list:
    """The project's vector and raster layers in layer-tree order, leaving out the layers GeoClerk made (a result is
    an input only when a request refers to it, which a toolbox run cannot)."""
    from .results import origin_of

    tree = project.layerTreeRoot()
    ordered = [node.layer() for node in tree.findLayers() if node.layer() is not None]
    return [layer for layer in ordered if layer.type() in DATA_LAYERS and layer.isValid() and origin_of(layer) is None]


def output_folder(value: str, project=None) -> Path:
    """The folder given, else one that outlives the run (results.results_dir: next to a saved project, else in the
    QGIS profile). Processing's temporary folder is no place for results: qgis_process removes it when it exits, and
    it may fill an unset destination with a path inside it."""
    from qgis.core import QgsProcessing, QgsProcessingUtils

    from .results import results_dir

    temporary = Path(QgsProcessingUtils.tempFolder()).resolve()
    if value and value != QgsProcessing.TEMPORARY_OUTPUT and not Path(value).resolve().is_relative_to(temporary):
        return Path(value)
    folder = results_dir(project or QgsProject.instance())
    folder.mkdir(parents=True, exist_ok=True)
    return folder
