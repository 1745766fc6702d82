"""The router: route and tool probabilities from the model, then the tier-0 plan for the top tool."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from . import model as rmodel
from .plan import fill_plan
from .result import RouteResult
from .schema_match import find_layers
from .text import detect_lang, fold
from .train import CORPUS, MODEL_DIR, layer_from_json, load_or_train

TOP_TOOLS = 8
WARM_UP = (
    "buffer data/roads.shp by 1,5 km and keep those over 100",
    "人口大于10万的区，然后按类型统计",
    "Bezirke mit mehr als 5 Schulen",
)


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
        order = np.argsort(-tp)[:TOP_TOOLS]
        tools = [(self.tool_model.classes[i], float(tp[i] / total)) for i in order if tp[i] > 0]
        return routes, tools

    def route(self, request: str, layers=None) -> RouteResult:
        """Route, confidence, ranked tools and the tier-0 plan for one request and its layers."""
        layers = [layer_from_json(la) if isinstance(la, dict) else la for la in (layers or [])]
        mentions = find_layers(fold(request), layers) if layers else []
        routes, tools = self.scores(request, layers, mentions)
        route = max(routes, key=routes.get)
        confidence = routes[route]
        plan = None
        if route != "chat" and tools:
            top = tools[0][0]
            plan = fill_plan(self.specs[top], request, layers, detect_lang(request), mentions)
            if route == "function":
                confidence = routes[route] * tools[0][1]  # what tier 0 would run: the route and the tool
        return RouteResult(route=route, confidence=confidence, tools=tools, plan=plan, route_scores=routes)

    def route_batch(self, items) -> list[RouteResult]:
        """Route many (request, layers) pairs with one loaded model."""
        return [self.route(req, layers) for req, layers in items]
