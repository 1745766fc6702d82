"""The Processing algorithm "Ask GeoClerk" (geoclerk:ask): a request over layers, headless-ready."""

from __future__ import annotations

import json
import threading
from pathlib import Path

from qgis.core import (
    QgsFeatureSink,
    QgsProcessing,
    QgsProcessingAlgorithm,
    QgsProcessingException,
    QgsProcessingOutputString,
    QgsProcessingParameterEnum,
    QgsProcessingParameterFeatureSink,
    QgsProcessingParameterFolderDestination,
    QgsProcessingParameterMultipleLayers,
    QgsProcessingParameterString,
    QgsVectorLayer,
)

from .dependencies import dependency_message
from .i18n import tr

ROUTES = ("auto", "function", "codegen")


class AskGeoClerkAlgorithm(QgsProcessingAlgorithm):
    """Runs one GeoClerk request; the first vector result goes to OUTPUT, every file to OUTPUT_FOLDER."""

    REQUEST, INPUTS, ROUTE, OUTPUT, OUTPUT_FOLDER = "REQUEST", "INPUTS", "ROUTE", "OUTPUT", "OUTPUT_FOLDER"

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
            "(or GEOCLERK_BASE_URL, GEOCLERK_MODEL and GEOCLERK_API_KEY for headless runs)."
        )

    def createInstance(self):  # noqa: N802
        return AskGeoClerkAlgorithm()

    def initAlgorithm(self, config=None):  # noqa: N802
        self.addParameter(QgsProcessingParameterString(self.REQUEST, tr("Request"), multiLine=True))
        self.addParameter(
            QgsProcessingParameterMultipleLayers(
                self.INPUTS, tr("Input layers"), QgsProcessing.TypeMapLayer, optional=True
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
        # optional: a temporary folder when not given (qgis_process … OUTPUT=out.gpkg alone is a whole call)
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
        layers = self.parameterAsLayerList(parameters, self.INPUTS, context) or []
        route = ROUTES[self.parameterAsEnum(parameters, self.ROUTE, context)]
        folder = output_folder(self.parameterAsString(parameters, self.OUTPUT_FOLDER, context))
        store, infos = build_inputs(layers, folder / "inputs")
        config = GeoClerkSettings.read().agent_config(route)
        cancel = threading.Event()
        feedback.canceled.connect(cancel.set)

        def progress(percent, message=""):
            feedback.setProgress(percent)
            if message:
                feedback.pushInfo(message)
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
        feedback.pushInfo(f"route={data['route']} tier={data['tier']} status={data['status']}")
        for note in data.get("notes", []):
            feedback.pushInfo(note)
        if data["status"] != "ok":
            raise QgsProcessingException(data.get("error") or data["status"])
        results = {
            "STATUS": data["status"],
            "ANSWER": data.get("answer") or "",
            "OUTPUT_FOLDER": str(folder),
            "REPORT": json.dumps(data, ensure_ascii=False, default=str),
        }
        if data.get("answer"):
            feedback.pushInfo(data["answer"])
        vectors = [o["path"] for o in data["outputs"] if o["kind"] == "vector"]
        if vectors and parameters.get(self.OUTPUT) is not None:
            results[self.OUTPUT] = self._copy_to_sink(vectors[0], parameters, context)
        return results

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
            sink.addFeature(feature, QgsFeatureSink.FastInsert)
        return dest


def output_folder(value: str) -> Path:
    """The folder given, or a new one in QGIS's temporary processing folder when none was (or TEMPORARY_OUTPUT)."""
    import tempfile

    from qgis.core import QgsProcessing, QgsProcessingUtils

    if value and value != QgsProcessing.TEMPORARY_OUTPUT:
        return Path(value)
    return Path(tempfile.mkdtemp(prefix="geoclerk_", dir=QgsProcessingUtils.tempFolder()))
