"""What the router returns: the route, a calibrated confidence, ranked tools and the tier-0 plan."""

from __future__ import annotations

from dataclasses import dataclass, field

GAP_KINDS = (
    "param",  # a required parameter the request does not state ('distance')
    "format",  # an output format asked that cannot be written, or that clashes with the file name
    "crs",  # a CRS whose role (source or target) is unclear, or a source that is not the layer's CRS
    "unit",  # a unit asked that the tool cannot honour
    "distance",  # several distances, or a negative one, where one positive distance is read
    "field",  # a field named that the layer does not have, or that fits several fields
    "selection",  # a subset asked ('the northern ones', a value) that no parameter holds
    "number",  # a number the plan does not use
    "aggregation",  # a statistic asked that the tool does not compute
    "output_path",  # several output files named
    "next_step",  # the request has several steps: one tool cannot serve it
    "words",  # words no reading explains (planning/explain.py)
)


class Gap(str):
    """One thing a plan lacks. The str value is the message as users and the JSON contract see it ('distance',
    'field: rainfall (no such field)', 'next_step'); `kind` (GAP_KINDS) says what is lacking, so callers never
    parse the message, and `subject` holds what it is about (a parameter name, the unexplained words)."""

    kind: str
    subject: object

    def __new__(cls, kind: str, text: str | None = None, subject=None):
        if kind not in GAP_KINDS:
            raise ValueError(f"unknown gap kind {kind!r}")
        gap = super().__new__(cls, text if text is not None else kind)
        gap.kind, gap.subject = kind, subject
        return gap

    @classmethod
    def param(cls, name: str) -> Gap:
        return cls("param", name, name)

    @classmethod
    def words(cls, words: list[str]) -> Gap:
        return cls("words", "words not understood: " + ", ".join(words), list(words))

    def __reduce__(self):
        return (Gap, (self.kind, str(self), self.subject))


def gaps_of(plan, kind: str) -> list:
    """The plan's gaps of one kind (plain strings from an untyped source have none)."""
    return [g for g in getattr(plan, "missing", None) or [] if getattr(g, "kind", None) == kind]


@dataclass
class Plan:
    """The top tool with the parameters read from the text and the layer context."""

    tool: str
    params: dict = field(default_factory=dict)
    complete: bool = False
    missing: list[Gap] = field(default_factory=list)  # typed: Gap.kind says what is lacking
    notes: list[str] = field(default_factory=list)  # what was read by meaning ("'population' read as POP2020")
    output_format: str | None = None  # the file format the result is asked in ('as GeoJSON') when the tool has none
    output_path: str | None = None  # 'save to results/out.csv': where the final result is written
    corrected: bool = False  # a model corrected the router's plan (draft and verify): it runs as tier 1

    def to_json(self) -> dict:
        out = {
            "tool": self.tool,
            "params": dict(self.params),
            "complete": self.complete,
            "missing": [str(m) for m in self.missing],
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
    """The router's decision for one request (the `geoclerk route --json` object)."""

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
