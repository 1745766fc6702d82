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

    def to_json(self) -> dict:
        return {
            "tool": self.tool,
            "params": dict(self.params),
            "complete": self.complete,
            "missing": list(self.missing),
        }


@dataclass
class RouteResult:
    """The router's decision for one request (the `geoagent route --json` object)."""

    route: str
    confidence: float
    tools: list[tuple[str, float]] = field(default_factory=list)
    plan: Plan | None = None
    route_scores: dict[str, float] = field(default_factory=dict)

    def to_json(self) -> dict:
        return {
            "route": self.route,
            "confidence": round(float(self.confidence), 4),
            "tools": [{"name": n, "score": round(float(s), 4)} for n, s in self.tools],
            "plan": self.plan.to_json() if self.plan is not None else None,
        }
