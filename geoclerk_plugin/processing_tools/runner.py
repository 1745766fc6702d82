"""Run one curated Processing tool: map arguments, reproject for metres, run, write new outputs, summarise."""

from __future__ import annotations

import math
import threading
import time
from pathlib import Path

from qgis.core import (
    QgsApplication,
    QgsCoordinateReferenceSystem,
    QgsCoordinateTransform,
    QgsFeatureRequest,
    QgsMapLayer,
    QgsProcessingContext,
    QgsProcessingFeedback,
    QgsProcessingUtils,
    QgsProject,
    QgsVectorFileWriter,
    QgsVectorLayer,
)

from ...errors import CancelledError, ToolError, ValidationError
from ...function_lib.context import ToolResult, feature_counts
from ...lang import tr as core_tr
from .inputs import (
    LINE_OR_POLYGON,
    check_fields,
    crs_label,
    has_crs,
    is_metric,
    load_layer,
    metric_crs_for,
    parse_crs,
    refuse_mixed,
    require_crs,
)
from .inputs import (
    RASTER as RASTER_TYPE,
)

SUFFIX = {"vector": ".gpkg", "table": ".csv", "raster": ".tif", "html": ".html"}


class _Feedback(QgsProcessingFeedback):
    """Processing feedback that forwards progress to the run context and keeps the error messages."""

    def __init__(self, ctx, label: str):
        super().__init__()
        self.errors: list[str] = []
        self._ctx, self._label = ctx, label
        self.progressChanged.connect(self._on_progress)

    def _on_progress(self, percent):
        if self._ctx.cancel_event.is_set():
            self.cancel()
        self._ctx.progress(float(percent), self._label)

    def reportError(self, error, fatalError=False):  # noqa: N802, N803 - Qt override
        self.errors.append(str(error))
        super().reportError(error, fatalError)


def create_algorithm(alg_id: str):
    alg = QgsApplication.processingRegistry().createAlgorithmById(alg_id)
    if alg is None:
        raise ToolError(f"The Processing algorithm {alg_id} is not available in this QGIS.")
    return alg


# Option labels (as the specs were generated, on QGIS 3.22) that later QGIS versions renamed; the index of an option
# never changes (saved models store it), so the renamed label is the same option. Checked against the running QGIS
# by tests/test_processing_specs.py.
OPTION_RENAMES = {
    "Float": "Decimal (double)", "Integer": "Integer (32 bit)", "String": "Text (string)",  # field calculator
    "intersects": "intersect", "contains": "contain", "equals": "equal", "touches": "touch",  # join by location
    "overlaps": "overlap", "within": "are within", "crosses": "cross",
}  # fmt: skip


class Call:
    """One tool call in progress: the algorithm, its QGIS parameters, the loaded layers and the CRSs used."""

    def __init__(self, spec, binding: dict, ctx, args: dict, alg_id: str):
        self.spec, self.binding, self.ctx, self.args = spec, binding, ctx, args
        self.alg = create_algorithm(alg_id)
        self.pctx = QgsProcessingContext()
        self.pctx.setProject(QgsProject.instance())  # some algorithms (network analysis) read the project CRS
        self.layers: dict = {}
        self.params: dict = {}
        self.main: str | None = None
        self.source_crs: QgsCoordinateReferenceSystem | None = None  # main layer CRS before reprojection
        self.work_crs: QgsCoordinateReferenceSystem | None = None  # CRS in metres the algorithm ran in
        self.answer: str | None = None
        self.first_note = 0
        self.values: dict = {}

    # -- helpers for handlers ----------------------------------------------------------------
    def qname(self, ours: str) -> str | None:
        """The QGIS name of one of our parameters in the resolved algorithm (first alternative it has)."""
        for name in self.binding["params"][ours]["qgis"]:
            if self.alg.parameterDefinition(name) is not None:
                return name
        return None

    def switch(self, alg_id: str, params: dict) -> None:
        """Run another algorithm instead (a handler's choice), with these QGIS parameters."""
        self.alg = create_algorithm(alg_id)
        self.params = params

    def enum_index(self, qgis_name: str, label: str, fallback: int | None = None) -> int:
        options = list(self.alg.parameterDefinition(qgis_name).options())
        for name in (label, OPTION_RENAMES.get(label)):
            if name in options:
                return options.index(name)
        if fallback is None:
            raise ToolError(f"{self.alg.id()} has no option '{label}' for {qgis_name}.")
        return fallback

    def main_name(self) -> str:
        return self.ctx.layers.get(self.args[self.main]).name if self.main else "result"

    def execute(self, alg, params: dict) -> dict:
        """Run an algorithm in this call's context; failures become ToolError with QGIS's own message."""
        params = {**_defaults(alg), **params}
        ok, message = alg.checkParameterValues(params, self.pctx)
        if not ok:
            raise ValidationError(f"{self.spec.name}: {message}", fix="Check the parameters and try again.")
        self.ctx.check_cancelled()
        feedback = _Feedback(self.ctx, alg.displayName())
        done = threading.Event()
        watcher = threading.Thread(target=_watch_cancel, args=(self.ctx.cancel_event, done, feedback), daemon=True)
        watcher.start()
        try:
            results, ok = alg.run(params, self.pctx, feedback)
        finally:
            done.set()
        if feedback.isCanceled():
            raise CancelledError()
        if not ok:
            text = " ".join(feedback.errors) or feedback.textLog().strip()[-500:]
            raise ToolError(f"{alg.displayName()} failed: {text}", fix="Check the inputs and parameters.")
        return results

    def run_child(self, alg_id: str, params: dict) -> dict:
        return self.execute(create_algorithm(alg_id), params)

    def layer_from(self, value) -> QgsMapLayer:
        layer = value if isinstance(value, QgsMapLayer) else QgsProcessingUtils.mapLayerFromString(value, self.pctx)
        if layer is None:
            raise ToolError(f"{self.spec.name}: QGIS returned no layer.")
        return layer

    def reproject(self, layer, crs, output="TEMPORARY_OUTPUT"):
        results = self.run_child("native:reprojectlayer", {"INPUT": layer, "TARGET_CRS": crs, "OUTPUT": output})
        return results["OUTPUT"]


def _defaults(alg) -> dict:
    """Hidden parameters at their QGIS defaults (some checks, like raster bands, need them explicitly)."""
    return {
        d.name(): d.defaultValue()
        for d in alg.parameterDefinitions()
        if not d.isDestination() and d.defaultValue() is not None and d.type() == "band"
    }


def _watch_cancel(cancel_event, done, feedback) -> None:
    while not done.is_set():
        if cancel_event.wait(0.05):
            feedback.cancel()
            return


GEOMETRY_ERRORS = ("TopologyException", "invalid geometr", "GEOS geoprocessing error", "Self-intersection")


def run_processing(spec, binding: dict, alg_id: str, ctx, args: dict, repair: bool = False) -> ToolResult:
    """Run a curated tool end to end; inputs are never modified, outputs are new files in ctx.out_dir.

    When QGIS refuses invalid geometries, the inputs are repaired (on copies) and the run is tried once more.
    """
    from .handlers import HANDLERS, default_extent_layer

    started = time.perf_counter()
    call = Call(spec, binding, ctx, args, alg_id)
    call.first_note = len(ctx.notes)
    default_extent_layer(call)
    _load_inputs(call, repair)
    _align_crs(call)
    disjoint = _disjoint_inputs(call)
    _map_args(call)
    # a tool without a named handler may have one under its own name (qgis_convex_hull: "convex_hull")
    pre, post = HANDLERS.get(binding.get("handler") or spec.name.removeprefix("qgis_"), (None, None))
    if pre:
        pre(call)
    finals = _destinations(call)
    ctx.add_time("processing.prepare", time.perf_counter() - started)
    started = time.perf_counter()
    try:
        results = call.execute(call.alg, call.params)
    except ToolError as exc:
        if repair or not any(marker in exc.message for marker in GEOMETRY_ERRORS):
            raise
        return run_processing(spec, binding, alg_id, ctx, args, repair=True)
    ctx.add_time("processing.algorithm", time.perf_counter() - started)
    started = time.perf_counter()
    outputs, n_out = _finish_outputs(call, results, finals)
    ctx.add_time("processing.write", time.perf_counter() - started)
    if disjoint:
        ctx.note(f"{disjoint}, so {'no feature matched' if n_out else 'the result is empty'}.")
    call.values.update({k: v for k, v in results.items() if isinstance(v, (int, float)) and not isinstance(v, bool)})
    if post:
        post(call, results, outputs)
    return _result(call, outputs, n_out)


def _load_inputs(call: Call, repair: bool = False) -> None:
    for p in call.spec.params:
        value = call.args.get(p.name)
        if value is None or p.kind not in ("layer", "layers"):
            continue
        source = call.binding["params"][p.name].get("source") or "vector"
        names = value if p.kind == "layers" else [value]
        layers = [load_layer(call.ctx, v, source) for v in names]
        if source == "vector" and not call.alg.id().startswith("gdal:"):
            for layer, v in zip(layers, names):
                refuse_mixed(call.ctx, layer, v)
        if repair:
            layers = [
                _repaired(call, lyr, n) if isinstance(lyr, QgsVectorLayer) else lyr for lyr, n in zip(layers, names)
            ]
        call.layers[p.name] = layers if p.kind == "layers" else layers[0]
        if p.kind == "layer":
            call.main = call.main or p.name
    for p in call.spec.params:
        value = call.args.get(p.name)
        layer = call.layers.get(p.of_layer) if p.of_layer else None
        if value is not None and p.kind in ("field", "fields") and isinstance(layer, QgsVectorLayer):
            check_fields(layer, value, call.args[p.of_layer])


def _repaired(call: Call, layer, name: str):
    if layer.geometryType() not in LINE_OR_POLYGON:
        return layer
    fixed = call.run_child("native:fixgeometries", {"INPUT": layer, "OUTPUT": "TEMPORARY_OUTPUT"})["OUTPUT"]
    call.ctx.note(f"Invalid geometries in '{name}' were repaired (QGIS Fix geometries) on a copy before running.")
    return call.layer_from(fixed)


def _align_crs(call: Call) -> None:
    """Reproject to metres when the tool measures and the main layer is not in metres; align other inputs."""
    vectors = [(n, lyr) for n, lyr in call.layers.items() if isinstance(lyr, QgsVectorLayer)]
    if not vectors:
        return
    main_name, main = vectors[0]
    target = main.crs()
    if call.binding.get("metric"):
        target = require_crs(main, call.args[main_name])
        if not is_metric(target):
            call.source_crs, call.work_crs = target, metric_crs_for(main, call.ctx)
            target = call.work_crs
            _check_metric_scale(main, call.args[main_name], target)
    if not has_crs(target):
        for name, layer in vectors:
            if name in call.binding.get("query", ()):
                call.layers[name] = indexed_in_memory(layer)
        return
    for name, layer in vectors:
        crs = layer.crs()
        if crs != target and has_crs(crs):
            if name != main_name and not call.work_crs:
                note = f"Reprojected '{call.args[name]}' from {crs_label(crs)} to {crs_label(target)} to match."
                call.ctx.note(note)
            layer = call.layers[name] = call.layer_from(call.reproject(layer, target))
            _check_projected_extent(layer, call.args[name], target)
        if name in call.binding.get("query", ()):
            call.layers[name] = indexed_in_memory(layer)


# Tools whose result depends on the inputs overlapping: with disjoint inputs it is empty, all zero or all NaN.
OVERLAP_TOOLS = {"qgis_clip", "qgis_intersection", "qgis_extract_by_location", "qgis_join_by_location",
                 "qgis_count_points_in_polygon", "qgis_split_with_lines", "qgis_zonal_statistics", "qgis_sample_raster"}


def _disjoint_inputs(call: Call) -> str:
    """'A and B do not overlap (extents ...)' when an overlap tool's inputs are apart, else ''. A raster that
    misses the layer fails at once: every sampled value or zone statistic would be NaN."""
    if call.spec.name not in OVERLAP_TOOLS or not call.main:
        return ""
    main = call.layers[call.main]
    target = main.crs()
    if not has_crs(target):
        return ""
    ext = main.extent()
    for name, layer in call.layers.items():
        if name == call.main or not isinstance(layer, QgsMapLayer) or not has_crs(layer.crs()):
            continue
        other = layer.extent()
        if layer.crs() != target:
            transform = QgsCoordinateTransform(layer.crs(), target, QgsProject.instance())
            try:
                other = transform.transformBoundingBox(other)
            except Exception:  # noqa: BLE001 - an extent that cannot be projected is not judged
                continue
        if ext.intersects(other):
            continue
        extents = f"extents {_extent_text(other)} and {_extent_text(ext)} in {crs_label(target)}"
        if layer.type() == RASTER_TYPE:
            raise ToolError(f"The raster '{call.args[name]}' and the layer '{call.args[call.main]}' do not overlap "
                            f"({extents}): every value would be NaN.",
                            fix="Use a raster that covers the layer's features (check both CRSs).")
        return f"'{call.args[name]}' and '{call.args[call.main]}' do not overlap ({extents})"
    return ""


def _extent_text(ext) -> str:
    return f"[{ext.xMinimum():.6g}, {ext.yMinimum():.6g}, {ext.xMaximum():.6g}, {ext.yMaximum():.6g}]"


def _check_projected_extent(layer, name: str, crs) -> None:
    """Coordinates that blew up in the projection (a layer spanning the globe) would crash GEOS: refuse them."""
    ext = layer.extent()
    values = (ext.xMinimum(), ext.yMinimum(), ext.xMaximum(), ext.yMaximum())
    if not all(math.isfinite(v) and abs(v) < 4e7 for v in values):
        raise ValidationError(
            f"'{name}' spans too much of the globe to measure metres in one projection ({crs_label(crs)}).",
            fix="Select or clip a region first (a continent or smaller), then try again.",
        )


# Largest scale error of the one metric CRS over a layer (1 km measured there vs on the ellipsoid) that is accepted;
# an AEQD or UTM stretched over half the globe is off by tens of percent, and GEOS would measure in it all the same.
MAX_SCALE_ERROR = 0.05


def _check_metric_scale(layer, name: str, crs) -> None:
    """Refuse a layer the chosen metric CRS cannot measure honestly (it spans too much of the globe).
    Measured, not assumed: newer PROJ projects far-off points to finite but wrong coordinates, so the numeric
    check of _check_projected_extent alone passes them on QGIS 3.40+."""
    from pyproj import CRS, Geod, Transformer

    ext = layer.extent()
    if ext.isEmpty():
        return
    source = CRS.from_user_input(layer.crs().authid() or layer.crs().toWkt())
    to_lonlat = Transformer.from_crs(source, 4326, always_xy=True)
    to_work = Transformer.from_crs(4326, CRS.from_user_input(crs.authid() or crs.toWkt()), always_xy=True)
    geod = Geod(ellps="WGS84")
    worst = 0.0
    for fx in (0.0, 0.5, 1.0):
        for fy in (0.0, 0.5, 1.0):
            x = ext.xMinimum() + fx * ext.width()
            y = ext.yMinimum() + fy * ext.height()
            lon, lat = to_lonlat.transform(x, y)
            lat = max(-85.0, min(85.0, lat))
            for azimuth in (0.0, 90.0):
                lon2, lat2, _ = geod.fwd(lon, lat, azimuth, 1000.0)
                (x1, y1), (x2, y2) = to_work.transform(lon, lat), to_work.transform(lon2, lat2)
                metres = math.hypot(x2 - x1, y2 - y1)
                worst = max(worst, abs(metres / 1000.0 - 1.0) if math.isfinite(metres) else math.inf)
    if worst > MAX_SCALE_ERROR:
        raise ValidationError(
            f"'{name}' spans too much of the globe to measure metres in one projection ({crs_label(crs)}): "
            f"distances there would be off by up to {min(worst, 9.99):.0%}.",
            fix="Select or clip a region first (a continent or smaller), then try again.",
        )


def indexed_in_memory(layer):
    """An input the algorithm queries once per feature of the other, in memory with a spatial index:
    a query on a GeoPackage costs an SQL round trip (join of 20k features: 30 s instead of 3 s)."""
    if layer.providerType() != "memory":
        layer = layer.materialize(QgsFeatureRequest())
    layer.dataProvider().createSpatialIndex()
    return layer


def _map_args(call: Call) -> None:
    for p in call.spec.params:
        value = call.args.get(p.name)
        bind = call.binding["params"][p.name]
        qname = call.qname(p.name) if bind["qgis"] else None
        if value is not None and bind["qgis"] and qname is None:
            if p.required:
                raise ToolError(
                    f"{call.alg.id()} in this QGIS has none of the parameters {bind['qgis']} for '{p.name}'.",
                    fix="Regenerate the specs with scripts/gen_processing_specs.py for this QGIS version.",
                )
            call.ctx.note(f"'{p.name}' was ignored: {call.alg.id()} in this QGIS has no such parameter.")
        if value is None or qname is None:
            continue
        definition = call.alg.parameterDefinition(qname)
        qtype = definition.type()
        if p.kind in ("layer", "layers"):
            value = call.layers[p.name]
            if qtype == "multilayer" and not isinstance(value, list):
                value = [value]
        elif p.kind == "enum":
            entry = bind["enum"].get(value)
            if entry is None:
                continue  # an option our handler implements
            value = call.enum_index(qname, entry[0], entry[1])
            value = [value] if bind.get("multi") else value
        elif p.kind == "crs":
            value = parse_crs(value)
        elif qtype == "point":
            value = _point(call, p.name, value)
        elif qtype == "matrix" and len(value) % max(1, len(definition.headers())):
            raise ValidationError(
                f"'{p.name}' needs groups of {len(definition.headers())} numbers ({', '.join(definition.headers())}).",
                fix="For example [0, 100, 1, 100, 200, 2].",
            )
        for name in [qname, *bind.get("copy_to", [])]:
            call.params[name] = value
    for qname, value in call.binding.get("fixed", {}).items():
        definition = call.alg.parameterDefinition(qname)
        if definition is not None and definition.type() == "enum":
            labels = value if isinstance(value, list) else [value]
            indices = [call.enum_index(qname, label) for label in labels]
            value = indices if isinstance(value, list) else indices[0]
        call.params[qname] = value


def _point(call: Call, name: str, value) -> str:
    if len(value) != 2:
        raise ValidationError(f"'{name}' must be [x, y].", fix="Give two numbers in the layer's CRS.")
    crs = call.source_crs or call.layers[call.main].crs()
    return f"{value[0]},{value[1]} [{crs.authid()}]" if crs.authid() else f"{value[0]},{value[1]}"


def _destinations(call: Call) -> dict:
    """New files in the output folder for each output (never an input's path); feature sinks go via memory."""
    finals = {}
    stem = f"{call.main_name()}_{call.spec.name.removeprefix('qgis_')}"
    for out, kind in call.binding["outputs"].items():
        definition = call.alg.parameterDefinition(out)
        if definition is None:
            continue
        path = call.ctx.unique_path(stem, SUFFIX[kind])
        via_memory = kind == "vector" and (definition.type() == "sink" or call.work_crs is not None)
        finals[out] = (kind, path, via_memory)
        call.params[out] = "TEMPORARY_OUTPUT" if via_memory else str(path)
    return finals


def _finish_outputs(call: Call, results: dict, finals: dict):
    outputs, n_out = [], None
    for out, (kind, path, via_memory) in finals.items():
        if via_memory:
            layer = call.layer_from(results[out])
            write_gpkg(layer, path, call.source_crs if call.work_crs is not None else None, call.pctx)
        if not Path(path).exists():
            raise ToolError(f"{call.alg.displayName()} wrote no output.", details=str(results))
        outputs.append(call.ctx.add_output(path, name=Path(path).stem, kind=kind))
        if kind == "vector" and n_out is None:
            n_out = QgsVectorLayer(str(path), "out", "ogr").featureCount()
    if call.work_crs is not None and any(k == "raster" for k, _, _ in finals.values()):
        call.ctx.note(f"The raster is in {crs_label(call.work_crs)} (metres).")
    return outputs, n_out


def write_gpkg(layer, path, crs, pctx) -> None:
    """Write a result layer as a new GeoPackage, reprojected to `crs` when given."""
    options = QgsVectorFileWriter.SaveVectorOptions()
    options.driverName, options.layerName, options.fileEncoding = "GPKG", Path(path).stem, "UTF-8"
    if crs is not None and crs != layer.crs():
        options.ct = QgsCoordinateTransform(layer.crs(), crs, pctx.transformContext())
    error, message, *_ = QgsVectorFileWriter.writeAsVectorFormatV3(layer, str(path), pctx.transformContext(), options)
    if error == QgsVectorFileWriter.WriterError.ErrFeatureWriteFailed and layer.fields().indexOf("fid") >= 0:
        # One input feature became several (random points, one-to-many joins): their 'fid' values repeat, and the
        # GeoPackage's FID column refuses a repeat. Keep 'fid' as a plain field. Found by the failed write, not before
        # it: counting the distinct fids cost every large write (0.2 s at 100k features) for this rare case.
        options.layerOptions = ["FID=gpkg_fid"]
        error, message, *_ = QgsVectorFileWriter.writeAsVectorFormatV3(
            layer, str(path), pctx.transformContext(), options
        )
    if error != QgsVectorFileWriter.WriterError.NoError:
        raise ToolError(f"Could not write {Path(path).name}: {message}", fix="Check the output folder is writable.")


def _output_crs(outputs):
    """The CRS of the first vector output (a reprojection's target, not its source)."""
    for out in outputs:
        if out.kind == "vector":
            layer = QgsVectorLayer(out.path, "out", "ogr")
            if layer.isValid():
                return layer.crs()
    return None


def _result(call: Call, outputs, n_out) -> ToolResult:
    main = call.layers.get(call.main)
    text = core_tr("{tool} on '{layer}'").format(tool=call.alg.displayName(), layer=call.main_name())
    if isinstance(main, QgsVectorLayer):
        n_in = main.featureCount()
        text += feature_counts(n_in, n_out)
        call.values["features_in"] = n_in
    if n_out is not None:
        call.values["feature_count"] = n_out
    crs = _output_crs(outputs) or call.source_crs or (main.crs() if main is not None else None)
    if crs is not None and crs.isValid():
        text += core_tr(", result in {crs}").format(crs=crs_label(crs))
    text += core_tr(".")
    notes = call.ctx.notes[call.first_note :]  # this call's notes, not an earlier step's
    if notes:
        text += " " + " ".join(notes)
    return ToolResult(summary=text, outputs=outputs, answer=call.answer, values=call.values)
