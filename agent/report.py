"""The report every request ends with: the CLI's JSON contract and the provenance of a result."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

STATUSES = ("ok", "error", "needs_llm", "rejected")


@dataclass
class Usage:
    """Model usage for one request."""

    llm_calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    per_call: list[dict] = field(default_factory=list)  # {"prompt_tokens", "completion_tokens", "ms"} per call

    def add(self, prompt: int, completion: int, ms: float | None = None) -> None:
        self.llm_calls += 1
        self.prompt_tokens += int(prompt or 0)
        self.completion_tokens += int(completion or 0)
        call = {"prompt_tokens": int(prompt or 0), "completion_tokens": int(completion or 0)}
        if ms is not None:
            call["ms"] = round(ms, 1)
        self.per_call.append(call)

    def to_json(self) -> dict:
        return {
            "llm_calls": self.llm_calls,
            "prompt_tokens": self.prompt_tokens,
            "completion_tokens": self.completion_tokens,
        }


@dataclass
class Report:
    """Outcome of one request, in the shape of SPEC.md's `geoclerk run --json` contract."""

    request: str
    status: str = "ok"
    route: str = "function"
    tier: int = 0
    steps: list[dict] = field(default_factory=list)
    outputs: list[dict] = field(default_factory=list)
    answer: str = ""
    error: str | None = None
    usage: Usage = field(default_factory=Usage)
    timings_ms: dict[str, float] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    model: str | None = None
    escalations: list[str] = field(default_factory=list)
    router: dict[str, Any] | None = None
    fix_in_settings: bool = False  # the error is about the model connection: the fix is in the settings
    codegen: dict[str, Any] | None = None  # tier 2's rounds: inspection cells, attempts (and a planner's plan)
    questions: list[dict] = field(default_factory=list)  # status "ask": [{"id", "kind", "text", "choices"}]

    def to_json(self) -> dict:
        """The CLI contract fields first, then provenance extras (notes, model, escalations)."""
        return {
            "status": self.status,
            "route": self.route,
            "tier": self.tier,
            "steps": self.steps,
            "outputs": self.outputs,
            "answer": self.answer,
            "error": self.error,
            "usage": self.usage.to_json(),  # exactly the contract's three keys
            "usage_per_call": self.usage.per_call,
            "timings_ms": {k: round(v, 2) for k, v in self.timings_ms.items()},
            "request": self.request,
            "notes": self.notes,
            "model": self.model,
            "escalations": self.escalations,
            "router": self.router,
            "fix_in_settings": self.fix_in_settings,
            "codegen": self.codegen,
            **({"questions": self.questions} if self.questions else {}),
        }
