"""What the router returns: the route, a calibrated confidence, ranked tools and the tier-0 plan."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Plan:
    """The top tool with the parameters read from the text and the layer context."""

    tool: str
    params: dict = field(default_factory=dict)
    complete: bool = False
    missing: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # what was read by meaning ("'population' read as POP2020")
    output_format: str | None = None  # the file format the result is asked in ('as GeoJSON') when the tool has none
    output_path: str | None = None  # 'save to results/out.csv': where the final result is written
    corrected: bool = False  # a model corrected the router's plan (draft and verify): it runs as tier 1

    def to_json(self) -> dict:
        out = {
            "tool": self.tool,
            "params": dict(self.params),
            "complete": self.complete,
            "missing": list(self.missing),
        }
        if self.notes:  # extra key, only when something was read by meaning
            out["notes"] = list(self.notes)
        if self.output_format:  # extra key: the pipeline writes the final result in this format
            out["output_format"] = self.output_format
        if self.output_path:  # extra key: and to this file (relative paths land in the output folder)
            out["output_path"] = self.output_path
        return out


@dataclass
class RouteResult:
    """The router's decision for one request (the `geoagent route --json` object)."""

    route: str
    confidence: float
    tools: list[tuple[str, float]] = field(default_factory=list)
    plan: Plan | None = None
    route_scores: dict[str, float] = field(default_factory=dict)
    steps: list = field(default_factory=list)  # a chain's clauses: [(clause, [(tool, score), ...]), ...]

    def to_json(self) -> dict:
        out = {
            "route": self.route,
            "confidence": round(float(self.confidence), 4),
            "tools": [{"name": n, "score": round(float(s), 4)} for n, s in self.tools],
            "plan": self.plan.to_json() if self.plan is not None else None,
        }
        if self.steps:  # extra key: the tools of each step of a chain, for tier 1
            out["steps"] = [
                {"text": text, "tools": [{"name": n, "score": round(float(s), 4)} for n, s in ranked]}
                for text, ranked in self.steps
            ]
        return out
