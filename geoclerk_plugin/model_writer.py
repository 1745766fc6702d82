"""Save a completed tier-0 plan as a QGIS Processing model (.model3) that runs on other inputs.

Each step becomes a child algorithm with the QGIS parameters the Processing runner would give it (the same
bindings and handlers); each input layer of the plan becomes a model input, an input that names an earlier
step's result is that step's output, and the last step's outputs are the model's outputs. A plan with a step
that has no Processing algorithm (GeoPandas only), or whose Processing run needs more than one algorithm
prepared from the data, is refused with the step and the reason: a partial model is never written.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from qgis.core import (
    QgsCoordinateReferenceSystem,
    QgsMapLayer,
    QgsProcessingModelAlgorithm,
    QgsProcessingModelChildAlgorithm,
    QgsProcessingModelChildParameterSource,
    QgsProcessingModelOutput,
    QgsProcessingModelParameter,
    QgsProcessingParameterMultipleLayers,
    QgsProcessingParameterRasterLayer,
    QgsProcessingParameterVectorLayer,
    QgsRectangle,
    QgsReferencedRectangle,
    QgsVectorLayer,
)
from qgis.PyQt.QtCore import QPointF

from ..errors import GeoClerkError
from ..lang import tr as core_tr
from .qgis_enums import GeometryType, LayerType, ProcessingSourceType

# Steps that add nothing to the model: the output format is chosen when the model runs.
FORMAT_STEPS = {"save_result"}
# Tools whose Processing parameters name layers by their names in this project (not portable to other inputs).
NAME_BOUND = {"qgis_raster_calculator"}


class ModelError(GeoClerkError):
    """The plan cannot become a model (which step and why)."""


@dataclass
class _Source:
    """Where a layer of the plan comes from in the model: a model input or an earlier child's output."""

    param: str | None = None
    child: str | None = None
    output: str | None = None

    def source(self):
        if self.param:
            return QgsProcessingModelChildParameterSource.fromModelParameter(self.param)
        return QgsProcessingModelChildParameterSource.fromChildOutput(self.child, self.output)


@dataclass
class SavedModel:
    path: str
    name: str
    inputs: dict[str, str] = field(default_factory=dict)  # model parameter -> the plan's layer it stands for
    outputs: list[str] = field(default_factory=list)  # model output parameter names (childId:outputName)


class _ChildNeededError(Exception):
    """A handler ran a helper algorithm on the data (a copy, a warp): not expressible as one child."""


def model_name(request: str) -> str:
    text = " ".join(request.split())
    return text if len(text) <= 80 else text[:77] + "…"


def _identifier(text: str, taken) -> str:
    base = re.sub(r"\W+", "_", text, flags=re.ASCII).strip("_").lower() or "layer"
    if base[0].isdigit():
        base = "layer_" + base
    name, n = base, 2
    while name in taken:
        name, n = f"{base}_{n}", n + 1
    return name


# GeoPandas tools with no Processing equivalent in the registry on purpose, written into a model as this algorithm
# only when QGIS reads the step the same way on the run's own data (checked by value, feature by feature).
READ_THE_SAME = {"filter_by_expression": "qgis_extract_by_expression"}


def _processing_tool(registry, step_no: int, tool: str, args: dict, ctx=None):
    """The Processing spec that runs this step, or ModelError naming the step and why it has none."""
    from ..function_lib.registry import KEEP_GEOPANDAS

    spec = registry.get(tool).spec
    if spec.half == "processing":
        return spec
    if tool in READ_THE_SAME and READ_THE_SAME[tool] in registry and ctx is not None:
        _same_selection(ctx, step_no, tool, args)
        return registry.get(READ_THE_SAME[tool]).spec
    other = spec.equivalent and registry.get(spec.equivalent).spec if spec.equivalent in registry else None
    if other is not None and tool in KEEP_GEOPANDAS:
        raise ModelError(
            core_tr(
                "Step {n} ({tool}) runs with GeoPandas: QGIS's algorithm ({other}) gives another answer on such data, "
                "so the plan cannot be saved as a Processing model."
            ).format(n=step_no, tool=tool, other=other.name),
            fix=core_tr("Only plans whose every step is a QGIS Processing tool can be saved as a model."),
        )
    if other is None:
        raise ModelError(
            core_tr(
                "Step {n} ({tool}) runs with GeoPandas only: it has no QGIS Processing algorithm, so the plan "
                "cannot be saved as a Processing model."
            ).format(n=step_no, tool=tool),
            fix=core_tr("Only plans whose every step is a QGIS Processing tool can be saved as a model."),
        )
    extra = sorted(set(args) - {p.name for p in other.params})
    if extra:
        raise ModelError(
            core_tr(
                "Step {n} ({tool}) uses {params}, which the Processing algorithm ({other}) does not take, so it ran "
                "with GeoPandas and cannot be saved as a Processing model."
            ).format(n=step_no, tool=tool, params=", ".join(extra), other=other.name),
            fix=core_tr("Only plans whose every step is a QGIS Processing tool can be saved as a model."),
        )
    return other


def build_model(steps: list[dict], ctx, registry, request: str, step_outputs: list[list[str]] | None = None):
    """The model for these steps ({tool, params}) run on the layers of `ctx` (inputs and earlier results).

    A layer argument that names an input of the plan becomes a model input; one that names an earlier step's
    result is wired to that child's output. Which step made a result is read from `step_outputs[i]` (or a step's
    own "outputs": the layer names or paths step i produced); without them, from the result's name, which every
    tool derives from its main input ('schools_buffer' from the buffer of 'schools'), the longest such match; a
    result two earlier steps could have made is refused. Returns (model, {param: layer name}, outputs).
    """
    from ..function_lib.processing_specs import PROCESSING_BINDINGS
    from .processing_tools import resolve_algorithm
    from .processing_tools.handlers import HANDLERS
    from .processing_tools.runner import Call, _load_inputs, _map_args

    if step_outputs is None and any("outputs" in s for s in steps):
        step_outputs = [[Path(str(o)).stem for o in s.get("outputs") or []] for s in steps]
    if step_outputs is not None:
        step_outputs = [o for s, o in zip(steps, step_outputs) if s.get("tool") not in FORMAT_STEPS]
    steps = [s for s in steps if s.get("tool") not in FORMAT_STEPS]
    if not steps:
        raise ModelError(core_tr("The plan has no step to save as a model."), fix=core_tr("Run a request first."))
    model = QgsProcessingModelAlgorithm(model_name(request), "GeoClerk", "geoclerk")
    model.setHelpContent({"ALG_DESC": request, "SHORT_DESCRIPTION": request, "ALG_CREATOR": "GeoClerk"})
    produced: dict[str, _Source] = {}  # earlier results by layer name
    inputs: dict[str, _Source] = {}  # plan input layers by name
    names: dict[str, str] = {}
    made: list[tuple[tuple[str, ...], _Source]] = []  # each earlier step's name prefixes and output
    written = {str(Path(o.path)) for o in getattr(ctx, "outputs", [])}
    results = {n for n in ctx.layers.names() if ctx.layers.get(n).path and str(Path(ctx.layers.get(n).path)) in written}
    for index, step in enumerate(steps):
        number, tool, args = index + 1, step["tool"], dict(step.get("params") or {})
        spec = _processing_tool(registry, number, tool, args, ctx)
        if spec.name in NAME_BOUND:
            raise ModelError(
                core_tr(
                    "Step {n} ({tool}) cannot be saved as a model: its expression names the rasters by their layer "
                    "names in this session."
                ).format(n=number, tool=tool),
                fix=core_tr("Save plans whose layers are chosen through inputs."),
            )
        alg_id = resolve_algorithm(spec.algorithm_ids)
        binding = PROCESSING_BINDINGS.get(spec.name)
        if alg_id is None or binding is None:
            raise ModelError(
                core_tr("Step {n} ({tool}): this QGIS has no algorithm {alg}.").format(
                    n=number, tool=tool, alg=spec.algorithm_ids[0]
                )
            )
        from ..function_lib.registry import validate_args

        args = validate_args(spec, args)
        call = Call(spec, binding, ctx, args, alg_id)
        _load_inputs(call)
        _map_args(call)

        def refuse_child(alg, params, _number=number, _tool=tool):
            raise _ChildNeededError(alg)

        call.run_child = refuse_child
        pre, _post = HANDLERS.get(binding.get("handler") or spec.name.removeprefix("qgis_"), (None, None))
        try:
            if pre:
                pre(call)
        except _ChildNeededError as exc:
            raise ModelError(
                core_tr(
                    "Step {n} ({tool}) prepares its input with another algorithm ({alg}) on this data, which "
                    "GeoClerk does not write into models."
                ).format(n=number, tool=tool, alg=exc),
                fix=core_tr("Save plans of single Processing steps."),
            ) from None
        child_id = _identifier(f"step{number}_{spec.name.removeprefix('qgis_')}", {})
        child = QgsProcessingModelChildAlgorithm(call.alg.id())
        child.setChildId(child_id)
        child.setDescription(f"{number}. {call.alg.displayName()}")
        child.setPosition(QPointF(320, 80 + 140 * index))
        sources_of, layer_of = {}, {}
        for p in spec.params:
            value = args.get(p.name)
            if value is None or p.kind not in ("layer", "layers"):
                continue
            layer_names = value if p.kind == "layers" else [value]
            layers = call.layers[p.name] if p.kind == "layers" else [call.layers[p.name]]
            srcs = []
            for name, layer in zip(layer_names, layers):
                if name in produced:
                    src = produced[name]
                elif name in results and step_outputs is None and made:
                    src = _earlier_step(name, made, number, tool)
                else:
                    src = _layer_source(model, name, layer, inputs, names)
                srcs.append(src)
            for layer, src in zip(layers, srcs):
                sources_of[id(layer)] = src
                layer_of[id(src)] = layer
        _metric_check(call, number, tool)
        destinations = set(binding["outputs"])
        given = {
            call.qname(p.name)
            for p in spec.params
            if args.get(p.name) is not None and binding["params"][p.name]["qgis"]
        }
        for qname, value in call.params.items():
            if qname in destinations:
                continue
            derived = None if qname in given else _layer_property(value, sources_of, layer_of)
            sources = [derived.source()] if derived else _param_sources(value, sources_of, number, tool)
            child.addParameterSources(qname, sources)
        final = index == len(steps) - 1
        step_out = None
        model_outputs = {}
        present = [(o, k) for o, k in binding["outputs"].items() if call.alg.parameterDefinition(o) is not None]
        for out_name, kind in present:
            step_out = step_out or out_name
            if final:
                label = "result" if len(present) == 1 else f"result_{out_name.lower()}"
                # QGIS 3.22 names the model's parameter childId:name, later versions after the description
                title = "Result" if len(present) == 1 else f"Result {_title(call, kind, out_name)}"
                output = QgsProcessingModelOutput(label, title)
                output.setChildId(child_id)
                output.setChildOutputName(out_name)
                output.setPosition(QPointF(560, 80 + 140 * index))
                model_outputs[output.name()] = output
        if model_outputs:
            child.setModelOutputs(model_outputs)
        model.addChildAlgorithm(child)
        if step_out is None:
            if not final:
                raise ModelError(
                    core_tr("Step {n} ({tool}) makes no layer the next step could use.").format(n=number, tool=tool)
                )
        else:
            source = _Source(child=child_id, output=step_out)
            main = str(args.get(call.main) or "") if call.main else ""
            prefixes = (f"{main}_{spec.name.removeprefix('qgis_')}", f"{main}_{tool}", f"{main}_") if main else ()
            made.append((prefixes, source))
            for name in step_outputs[index] if step_outputs and index < len(step_outputs) else []:
                produced[name] = source
    model.updateDestinationParameters()
    outputs = [d.name() for d in model.destinationParameterDefinitions()]  # as qgis_process names them
    return model, names, outputs


def _earlier_step(name: str, made, number: int, tool: str) -> _Source:
    """The earlier step whose result `name` is, read from the name (see build_model), or ModelError."""
    best = [max((len(p) for p in prefixes if name.startswith(p)), default=0) for prefixes, _ in made]
    top = max(best)
    if top == 0 and len(made) == 1:
        return made[0][1]
    if top > 0 and best.count(top) == 1:
        return made[best.index(top)][1]
    raise ModelError(
        core_tr("Step {n} ({tool}) reads '{layer}', and which earlier step made it is not known.").format(
            n=number, tool=tool, layer=name
        ),
        fix=core_tr("Save plans whose steps name their inputs."),
    )


def _same_selection(ctx, step_no: int, tool: str, args: dict) -> None:
    """GeoClerk's expression and QGIS's select the same features of this layer, or ModelError: GeoClerk reads
    "12" in a text field as a number and accepts Python's operators, QGIS's engine may not."""
    from qgis.core import QgsExpression, QgsExpressionContext, QgsExpressionContextUtils

    from ..function_lib.expression import filter_mask
    from .processing_tools.handlers import normalise_expression
    from .processing_tools.inputs import load_layer

    name, text = args.get("layer"), args.get("expression") or ""
    layer = load_layer(ctx, name)
    expression = QgsExpression(normalise_expression(text, layer.fields().names()))
    ours = [bool(v) for v in filter_mask(text, ctx.gdf(name)).to_numpy()]
    theirs = []
    if not expression.hasParserError():
        context = QgsExpressionContext(QgsExpressionContextUtils.globalProjectLayerScopes(layer))
        expression.prepare(context)
        for feature in layer.getFeatures():
            context.setFeature(feature)
            theirs.append(bool(expression.evaluate(context)) and not expression.hasEvalError())
    if theirs != ours:
        raise ModelError(
            core_tr(
                "Step {n} ({tool}): QGIS's expression engine reads {expression} differently from GeoClerk on "
                "'{layer}' ({theirs} features instead of {ours}), so the plan cannot be saved as a model."
            ).format(n=step_no, tool=tool, expression=text, layer=name, theirs=sum(theirs), ours=sum(ours)),
            fix=core_tr(
                "Write the condition in QGIS expression syntax (text in 'single quotes', numbers on number fields)."
            ),
        )


def _title(call, kind: str, out_name: str) -> str:
    definition = call.alg.parameterDefinition(out_name)
    return definition.description() if definition is not None else kind


def _layer_source(model, name, layer, inputs, names) -> _Source:
    """The model input standing for a layer of the plan (one per layer, however many steps read it)."""
    if name in inputs:
        return inputs[name]
    param = _identifier(name, set(names) | {p.name() for p in model.parameterDefinitions()})
    definition = _input_definition(param, name, layer)
    component = QgsProcessingModelParameter(param)
    component.setPosition(QPointF(80, 80 + 100 * len(inputs)))
    component.setDescription(definition.description())
    model.addModelParameter(definition, component)
    inputs[name] = _Source(param=param)
    names[param] = name
    return inputs[name]


GEOMETRY_WORDS = {GeometryType.Point: "points", GeometryType.Line: "lines", GeometryType.Polygon: "polygons"}


def _input_definition(param: str, name: str, layer):
    if layer.type() == LayerType.Raster:
        return QgsProcessingParameterRasterLayer(param, f"{name} (raster)")
    if isinstance(layer, QgsVectorLayer):
        geometry = layer.geometryType()
        types = {
            GeometryType.Point: ProcessingSourceType.VectorPoint,
            GeometryType.Line: ProcessingSourceType.VectorLine,
            GeometryType.Polygon: ProcessingSourceType.VectorPolygon,
        }
        word = GEOMETRY_WORDS.get(geometry, "vector")
        kinds = [types[geometry]] if geometry in types else [ProcessingSourceType.VectorAnyGeometry]
        return QgsProcessingParameterVectorLayer(param, f"{name} ({word})", kinds)
    return QgsProcessingParameterMultipleLayers(param, name)


def _metric_check(call, number: int, tool: str) -> None:
    """A tool measuring metres on a layer in degrees is run by GeoClerk in a metric CRS chosen for that data;
    a model cannot choose it for other data, so such a plan is refused rather than buffering by degrees."""
    from .processing_tools.inputs import has_crs, is_metric

    if not call.binding.get("metric") or not call.main:
        return
    layer = call.layers[call.main]
    if isinstance(layer, QgsMapLayer) and has_crs(layer.crs()) and not is_metric(layer.crs()):
        raise ModelError(
            core_tr(
                "Step {n} ({tool}) measures in metres, and '{layer}' is in {crs} (not metres): GeoClerk reprojected "
                "it for this run, which a saved model cannot repeat for other data."
            ).format(n=number, tool=tool, layer=call.args[call.main], crs=layer.crs().authid() or "?"),
            fix=core_tr("Reproject the layer to a CRS in metres first, then run and save the plan."),
        )


def _layer_property(value, sources_of: dict, layer_of: dict):
    """The input whose extent or CRS a handler filled in (a grid over a layer, x/y in the layer's CRS): the model
    takes it from that input, so other data gets its own extent and CRS instead of this run's numbers."""
    if not isinstance(value, (QgsReferencedRectangle, QgsCoordinateReferenceSystem)):
        return None
    for src in sources_of.values():
        layer = layer_of.get(id(src))
        if layer is None:
            continue
        if (
            isinstance(value, QgsReferencedRectangle)
            and value.crs() == layer.crs()
            and QgsRectangle(value) == layer.extent()
        ):
            return src
        if isinstance(value, QgsCoordinateReferenceSystem) and value == layer.crs():
            return src
    return None


def _param_sources(value, sources_of: dict, number: int, tool: str) -> list:
    if isinstance(value, QgsMapLayer):
        src = sources_of.get(id(value))
        if src is None:
            raise ModelError(
                core_tr("Step {n} ({tool}) runs on a layer prepared for this run only.").format(n=number, tool=tool),
                fix=core_tr("Save plans whose inputs are layers as loaded."),
            )
        return [src.source()]
    if isinstance(value, list) and value and all(isinstance(v, QgsMapLayer) for v in value):
        return [s for v in value for s in _param_sources(v, sources_of, number, tool)]
    return [QgsProcessingModelChildParameterSource.fromStaticValue(_static(value))]


def _static(value):
    """A literal in a form the .model3 file keeps: CRSs by id, extents as QGIS extent strings."""
    if isinstance(value, QgsCoordinateReferenceSystem):
        return value.authid() or value.toWkt()
    if isinstance(value, QgsReferencedRectangle):
        crs = value.crs().authid()
        text = f"{value.xMinimum()},{value.xMaximum()},{value.yMinimum()},{value.yMaximum()}"
        return f"{text} [{crs}]" if crs else text
    return value


def save_run_model(data: dict, inputs: list[str], registry, path, store=None, name: str | None = None) -> SavedModel:
    """The model of a finished run (its JSON report, and its input files or the LayerStore it ran on), at `path`.

    Only a run that ended ok at tier 0 has a plan GeoClerk read itself; the model's layers are found again from
    the inputs and the run's outputs (a step that used an earlier step's result is wired to that step)."""
    from ..function_lib.context import LayerStore, Output, RunContext
    from .processing_tools import bind

    if data.get("status") != "ok" or data.get("tier") != 0:
        raise ModelError(
            core_tr("Only a request that ran ok at tier 0 (a plan read without a model) can be saved as a model."),
            fix=core_tr("Save the model of a request GeoClerk answered without a model."),
        )
    bind(registry)
    import tempfile

    with tempfile.TemporaryDirectory(prefix="geoclerk_model_") as scratch:
        if store is None:
            store = LayerStore()
            for source in inputs:
                store.add_path(source)
        ctx = RunContext(scratch, layers=store)
        for out in data.get("outputs") or []:
            if out.get("kind") in ("vector", "raster") and Path(out["path"]).exists():
                stem = Path(out["path"]).stem
                if store.find(out["path"]) is None and stem not in store.names():
                    store.add(stem, path=out["path"])
                ctx.outputs.append(Output(path=out["path"], kind=out["kind"], name=stem))
        return save_model(data.get("steps") or [], ctx, registry, data.get("request") or "", path, name=name)


def save_model(steps, ctx, registry, request: str, path, step_outputs=None, name: str | None = None) -> SavedModel:
    """Build the model and write it to `path` (.model3 added when missing); ModelError when it cannot be one.
    `name`: the model's name when not the request's (a toolbox that has a model of that name already)."""
    model, names, outputs = build_model(steps, ctx, registry, request, step_outputs)
    if name:
        model.setName(name)
    target = Path(path)
    if target.suffix.lower() != ".model3":
        target = target.with_name(target.name + ".model3")
    target.parent.mkdir(parents=True, exist_ok=True)
    if not model.toFile(str(target)):
        raise ModelError(
            core_tr("Could not write the model to {path}.").format(path=target),
            fix=core_tr("Check the folder is writable."),
        )
    return SavedModel(path=str(target), name=model.name(), inputs=names, outputs=outputs)
