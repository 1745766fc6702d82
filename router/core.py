"""The router: route and tool probabilities from the model, then the tier-0 plan for the top tool."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ..errors import ValidationError
from ..function_lib.traits import traits_of
from ..planning.plan import fill_plan, operation_without_save, split_steps
from ..planning.result import RouteResult
from ..reading import references
from ..reading.request import Request
from ..reading.schema_match import find_layers
from ..reading.text import detect_lang, fold
from . import model as rmodel
from .train import CORPUS, MODEL_DIR, layer_from_json, load_or_train

TOP_TOOLS = 8
WARM_UP = (
    "buffer data/roads.shp by 1,5 km and keep those over 100",
    "人口大于10万的区，然后按类型统计",
    "Bezirke mit mehr als 5 Schulen",
    "reproject to WGS 84 / Pseudo-Mercator, then buffer by 1 km",  # builds the CRS name index (~0.2 s) now
)
STEP_TOOLS = 3  # tools kept per step of a chain


class Router:
    """Loads (or trains) the model once; `route` is then a few milliseconds per request."""

    def __init__(self, registry, corpus: Path = CORPUS, model_dir: Path = MODEL_DIR, trained=None):
        self.registry = registry
        self.specs = {s.name: s for s in registry.specs()}
        trained = trained or load_or_train(list(self.specs.values()), corpus, model_dir)
        self.featuriser, models, self.meta = trained
        self.route_model, self.tool_model = models["route"], models["tool"]
        self._tool_mask = np.array([c in self.specs for c in self.tool_model.classes])
        for text in WARM_UP:  # compile the extractors' patterns now, not on the user's first request
            self.route(text, [])

    def scores(self, request: str, layers, mentions=None) -> tuple[dict[str, float], list[tuple[str, float]]]:
        """Route probabilities and tools ranked by probability (only tools this registry has)."""
        text = rmodel.normalise(request, layers, mentions)
        idx, vals = self.featuriser.vector(text, rmodel.context_tokens(layers, request, mentions or ()))
        rp = self.route_model.proba_one(idx, vals)
        routes = dict(zip(self.route_model.classes, map(float, rp)))
        tp = self.tool_model.proba_one(idx, vals) * self._tool_mask
        total = tp.sum() or 1.0
        order = np.argsort(-tp, kind="stable")[:TOP_TOOLS]  # ties by class order, never by chance
        tools = [(self.tool_model.classes[i], float(tp[i] / total)) for i in order if tp[i] > 0]
        return routes, tools

    def route(self, request: str, layers=None, previous=None, given=None) -> RouteResult:
        """Route, confidence, ranked tools and the tier-0 plan for one request and its layers.

        `previous`: in a conversation, the names of the previous request's result layers; a reference to them
        ('now buffer those by 100 m') reads as a mention of that layer (router/references.py). `given`: parameters
        the user chose in answer to a question (planning/holes.py), filled into the top tool's plan.

        A request that is not a string, or is empty or blank, raises errors.ValidationError (never a crash
        deeper down, never a guessed tool for nothing): callers map it to a one-line usage error.
        """
        if not isinstance(request, str):
            raise ValidationError(
                f"The request must be text, not {type(request).__name__}.",
                fix='Pass the request as a string, e.g. "buffer the roads by 100 m".',
            )
        if not request.strip():
            raise ValidationError("The request is empty.", fix='Say what to do, e.g. "buffer the roads by 100 m".')
        layers = [layer_from_json(la) if isinstance(la, dict) else la for la in (layers or [])]
        mentions = find_layers(fold(request), layers) if layers else []
        if previous and layers:
            mentions = references.resolve(fold(request), detect_lang(request), layers, mentions, previous, request)
        req = Request.read(request, layers, mentions=mentions)  # read once; every plan reader shares it
        routes, tools = self.scores(request, layers, mentions)
        operation = operation_without_save(request) if tools and "writes_format" in traits_of(tools[0][0]) else None
        if operation:  # '… 并导出为GeoJSON': the operation picks the tool; the plan writes the format
            routes, tools = self.scores(operation, layers, mentions)
        steps = self._steps(request, layers) if routes.get("codegen", 0) < 0.9 else []
        if steps:
            tools = interleave(tools, [s[1] for s in steps])
        route = max(routes, key=routes.get)
        confidence = routes[route]
        plan = None
        if route != "chat" and tools:
            top = tools[0][0]
            plan = fill_plan(self.specs[top], req, given=given)
            plan.missing = stable_missing(self.specs[top], plan.missing)
            if route == "function":
                confidence = routes[route] * tools[0][1]  # what tier 0 would run: the route and the tool
        return RouteResult(route=route, confidence=confidence, tools=tools, plan=plan, route_scores=routes, steps=steps)

    def _steps(self, request: str, layers) -> list[tuple[str, list[tuple[str, float]]]]:
        """A chain's clauses with the tools ranked for each ('filter…, then clip…' → filter tools, clip tools)."""
        clauses = split_steps(request)
        if len(clauses) < 2:
            return []
        out = []
        for clause in clauses:
            _, ranked = self.scores(clause, layers, find_layers(fold(clause), layers) if layers else [])
            out.append((clause, ranked[:STEP_TOOLS]))
        return out

    def route_batch(self, items) -> list[RouteResult]:
        """Route many (request, layers) pairs with one loaded model."""
        return [self.route(req, layers) for req, layers in items]


def stable_missing(spec, missing: list) -> list:
    """The plan's missing entries in one order in every process: the tool's parameters in their order, then the
    rest by name (the plan may gather them in a set, whose order follows the process's string hash seed)."""
    order = [p.name for p in spec.params]
    return sorted(missing, key=lambda m: (order.index(m), "") if m in order else (len(order), m))


def interleave(tools: list[tuple[str, float]], steps: list[list[tuple[str, float]]]) -> list[tuple[str, float]]:
    """The request's top tool, then the top tool of each step, then the next of each step, then the rest.

    So the first k tools a tier-1 model sees include every step's best tool. Scores stay the whole request's
    probability where it ranked the tool (else the step's), so the list is not sorted by score after the first.
    """
    whole = dict(tools)
    order = [tools[0][0]] if tools else []
    for rank in range(max((len(s) for s in steps), default=0)):
        for step in steps:
            if rank < len(step) and step[rank][0] not in order:
                order.append(step[rank][0])
    order += [n for n, _ in tools if n not in order]
    step_score = {n: sc for step in steps for n, sc in step}
    return [(n, whole.get(n, step_score.get(n, 0.0))) for n in order[: max(TOP_TOOLS, len(steps) + 1)]]
