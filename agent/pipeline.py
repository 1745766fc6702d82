"""The request flow of SPEC.md: context, router, tier 0 (no LLM), then tiers 1 and 2 through a model."""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from ..errors import CancelledError, GeoClerkError, LLMError
from ..function_lib.context import LayerStore, RunContext
from ..function_lib.describe import LayerInfo, describe_entry
from ..function_lib.registry import run_tool
from ..lang import say_lang, tr
from ..planning.result import gaps_of
from .checks import result_problems
from .formats import write_in_format, write_to_path
from .report import Report

ROUTES = ("auto", "function", "codegen")


@dataclass
class AgentConfig:
    """How a request is served. The API key is never written to reports or settings."""

    base_url: str | None = None
    model: str | None = None
    api_key: object = None  # the key, or a callable that reads it when a model is first called (providers.resolve_key)
    offline: bool = False
    host: str = "cli"  # "qgis" inside QGIS: errors send the user to the plugin's settings, not to the environment
    route: str = "auto"  # auto | function | codegen
    architecture: str = "react"  # react | planner
    codegen_mode: str = "react"  # tier 2: react (one agent: inspect, write, repair) | planner (subtasks, a cell each)
    codegen_candidates: int = 3  # tier 2: alternatives asked for a step that failed twice (≤ 3; below 2: off)
    candidate_rounds: int = 1  # candidate searches per goal (the request, or a code planner's subtask)
    candidate_tokens: int = 8000  # what one search may cost (prompt + k scripts); k shrinks to fit, else no search
    tier0: bool = True
    trust_tier0: bool = False  # with a model: run tier-0 plans without the model's one-round confirmation
    threshold: float = 0.7  # tier-0 confidence; make bench-router: 96.5% right at 77.6% coverage (0.6: 95.8%)
    top_k: int = 3  # tools offered at tier 1 (chains add their clauses'): router top-3 96.8%; schemas ~70% of a prompt
    max_rounds: int = 6
    max_repairs: int = 5
    api_check: bool = True  # tier 2: check generated code against the installed APIs before it runs
    api_docs: bool = True  # tier 2: add the installed libraries' docs of the failing calls to repair messages
    # tier 2: the model may run inspection cells (# INSPECT) before its script. None: yes, except for the local GGUF
    # model, which looped on them (bench/report.md: 3 of 9 open tasks ended sending '# INSPECT' after the last cell)
    codegen_explore: bool | None = None
    timeout_s: float = 60.0
    local_model: str | None = None  # a GGUF file: GeoClerk starts llama-server for it ("" = the `make model` one)
    local_server: str | None = None  # the llama-server binary (None: the built one, else llama-server on PATH)
    review_code: bool = False
    review: object = None  # callable(code) -> bool asked before generated code runs (the plugin's reviewer)
    sandbox: object = None  # a warm codegen Sandbox kept per conversation; None starts one per request
    sandbox_python: str | None = None  # the Python that runs generated code (None: codegen.sandbox.find_python's)

    @property
    def has_model(self) -> bool:
        return bool(self.base_url or self.model or self.local_model is not None) and not self.offline


def build_context(inputs, out_dir: str | Path, progress=None) -> tuple[RunContext, list[LayerInfo]]:
    """A run context over input paths (CLI) or a ready LayerStore (plugin), and the layers' descriptions."""
    if isinstance(inputs, LayerStore):
        store, infos = inputs, []
    else:
        store, infos = LayerStore(), None
        for path in inputs or []:
            store.add_path(path)
    ctx = RunContext(out_dir, store, progress=progress)
    if infos is None:
        # Vectors and tables are described from the context's cached read, so the tools do not read each file
        # again; a large file is described through its driver and read only when a tool needs it.
        infos = [describe_entry(e, ctx) for e in (store.get(n) for n in store.names())]
    return ctx, infos


def run_request(
    request: str,
    inputs,
    out_dir: str | Path,
    config: AgentConfig | None = None,
    registry=None,
    router=None,
    layer_infos: list[LayerInfo] | None = None,
    progress=None,
    cancel_event=None,
    previous: list[str] | None = None,
    answers: dict[str, str] | None = None,
) -> Report:
    """Serve one request end to end and return its report; errors become a report, never a raise.

    `previous`: in a conversation, the names of the layers the previous request made (in play among the inputs),
    so 'now buffer those by 100 m' reads them (router/references.py). `answers`: {question id: choice} for the
    questions an earlier run of the same request asked (status "ask"); the plan resumes with them (agent/holes.py)."""
    config = config or AgentConfig()
    report = Report(request=request, model=config.model if config.has_model else None)
    started = time.perf_counter()
    report.timings_ms["route"] = 0.0  # the contract's key even when unreadable inputs stop us before routing
    ctx = None
    try:
        ctx, infos = build_context(inputs, out_dir, progress)
        if cancel_event is not None:
            ctx.cancel_event = cancel_event
        infos = layer_infos or infos
        registry = registry or _default_registry()
        router = router or _default_router(registry)
        t0 = time.perf_counter()
        decision = router.route(request, infos, previous=previous)
        text, given = request, {}
        if answers:
            from .holes import apply_answers

            decision, text, said, given = apply_answers(router, request, infos, decision, answers, config.threshold,
                                                        previous)  # fmt: skip
            report.notes.extend(said)
        else:
            from .model_answers import fill_with_model

            decision, text, config = fill_with_model(router, request, infos, decision, config, report,
                                                     lambda t: ctx.progress(5, t), previous)  # fmt: skip
        report.timings_ms["route"] = (time.perf_counter() - t0) * 1000
        report.router = decision.to_json()
        report.route = config.route if config.route != "auto" else decision.route
        _serve(text, ctx, infos, decision, registry, config, report, router, previous)
        if report.status == "needs_llm" and not config.has_model and report.route == "function":
            from .asking import ask_or_explain

            ask_or_explain(router, text, infos, decision, config, report, previous, given)
    except CancelledError as exc:
        report.status, report.error = "error", exc.user_text()
        _discard_outputs(ctx, report)
    except GeoClerkError as exc:
        report.status, report.error = "error", exc.user_text()
        report.fix_in_settings = isinstance(exc, LLMError)  # a dead endpoint, a refused key, an unknown model
    if ctx is not None:
        report.notes.extend(n for n in ctx.notes if n not in report.notes)
    report.timings_ms["total"] = (time.perf_counter() - started) * 1000
    return report


def _serve(request, ctx, infos, decision, registry, config, report, router=None, previous=None) -> None:
    plan = decision.plan
    forced = config.route != "auto"
    if report.route == "chat" and not forced and not config.has_model:
        report.status, report.tier = "needs_llm", 1
        report.error = tr("This looks like a question for a model, and no model is configured (offline).")
        return
    can_tier0 = (
        config.tier0
        and report.route == "function"
        and plan is not None
        and plan.complete
        and (forced or decision.confidence >= config.threshold)
    )
    if can_tier0 and config.has_model and not config.trust_tier0:  # draft and verify, one model round
        confirmed = _confirmed_plan(request, plan, decision, ctx, infos, registry, config, report)
        if report.status == "rejected":
            return
        can_tier0, plan = confirmed is not None, confirmed or plan
    if can_tier0 and router is not None:  # 'how many …?': the subset and its count in words (agent/questions.py)
        from .questions import serve_number_question

        if serve_number_question(request, ctx, infos, plan, registry, config, report):
            return
    if can_tier0:
        report.tier = 0 if not getattr(plan, "corrected", False) else 1
        _run_plan(plan, ctx, registry, report, request, infos)
        problems = result_problems(request, ctx.outputs, infos, plan, getattr(plan, "output_format", None))
        if not problems:
            return
        _discard_outputs(ctx, report)  # a result that fails what the request said is never shown as ok
        report.steps, report.answer = [], ""
        ctx.outputs.clear()
        reason = "; ".join(problems)
        if not config.has_model:
            report.status, report.tier = "needs_llm", 1
            report.error = tr(
                "Tier 0 ran {tool}, but the result did not pass the request's checks ({reason}), so it was "
                "discarded. Rephrase the request, or configure a model."
            ).format(tool=plan.tool, reason=reason)
            return
        report.escalations.append(f"tier 0 → 1: the result failed its checks ({reason})")
    if not can_tier0 and router is not None:  # several steps: a chain, or what a question implies (agent/chain.py)
        from .chain import serve_composed

        if serve_composed(request, ctx, infos, decision, registry, router, config, report, previous):
            return
    if not config.has_model:
        report.status = "needs_llm"
        report.tier = 1 if report.route == "function" else 2
        report.error = _why_needs_llm(decision, config, report.route)
        return
    from .tiers import serve_with_model

    serve_with_model(request, ctx, infos, decision, registry, config, report)  # tier 1's result checks: tiers.py


def _confirmed_plan(request, plan, decision, ctx, infos, registry, config, report):
    """Draft and verify: the model accepts the plan, corrects it (a corrected plan), or neither (None)."""
    from ..planning.result import Plan
    from .tiers import make_client
    from .verify import verify_plan

    client = make_client(config, lambda text: ctx.progress(5, text))
    report.model = report.model or client.settings.model
    verdict = verify_plan(request, plan, decision, infos, registry, ctx, report, client)
    if verdict.kind == "accepted":
        report.notes.append(tr("The model confirmed the no-model plan in one round."))
        return plan
    if verdict.kind == "corrected":
        report.escalations.append(
            f"tier 0 → 1: the model corrected {plan.tool} {plan.params} to {verdict.tool} {verdict.args}"
        )
        fmt = getattr(plan, "output_format", None)
        return Plan(verdict.tool, verdict.args, complete=True, output_format=fmt, corrected=True)
    if verdict.kind == "rejected":
        report.status, report.tier = "rejected", 1
        report.answer, report.error = verdict.text, tr("The request was refused: {reason}").format(reason=verdict.text)
        return None
    report.escalations.append(f"tier 0 → 1: the model neither accepted nor corrected the plan ({verdict.text[:80]})")
    return None


def _run_plan(plan, ctx, registry, report, request: str = "", infos=()) -> None:
    t0 = time.perf_counter()
    report.steps.append({"tool": plan.tool, "params": plan.params})
    # how the router read the request ("'population' read as field POP2020"): the user sees the interpretation
    report.notes.extend(n for n in getattr(plan, "notes", None) or () if n not in report.notes)
    result = run_tool(registry, plan.tool, plan.params, ctx)
    from ..planning.say import say_plan

    said = say_plan(plan, say_lang(request), infos)  # the plan in plain words, first
    report.answer = f"{said} {result.answer or result.summary}".strip()
    if getattr(plan, "output_format", None):
        write_in_format(plan.output_format, ctx, registry, report)
    if getattr(plan, "output_path", None):
        write_to_path(plan.output_path, ctx, report)
    report.timings_ms["execute"] = (time.perf_counter() - t0) * 1000
    report.outputs = [o.to_json() for o in ctx.outputs]
    report.status = "ok"


def _why_needs_llm(decision, config, route) -> str:
    if route == "codegen":
        return tr("This request needs generated code, which needs a model; none is configured (offline).")
    plan = decision.plan
    if plan is None:
        return tr("No tool fits this request well enough to run without a model; none is configured (offline).")
    if gaps_of(plan, "next_step"):
        return tr(
            "This request has several steps (the first is {tool}); chaining them needs a model, and none is "
            "configured (offline). Ask for one step at a time, or configure a model."
        ).format(tool=plan.tool)
    words = gaps_of(plan, "words")
    if words and len(plan.missing) == 1:
        quoted = ", ".join(f"'{w}'" for w in words[0].subject)
        return tr(
            "These words of the request were not understood: {words}. "
            "Without a model GeoClerk answers only what it fully understood: name a loaded layer or field, "
            "rephrase, or configure a model."
        ).format(words=quoted)
    if not plan.complete:
        from .declines import plain_gaps

        missing = plain_gaps(plan, None) or tr("some parameters")
        return tr(
            "Without a model, GeoClerk could not read {missing} from the request. "
            "Say it in the request (for example a layer or field name, or a distance with its unit), "
            "or configure a model."
        ).format(missing=missing)
    return tr(
        "The router is not sure enough ({confidence} < {threshold}) that {tool} is meant. "
        "Rephrase more precisely, force the function route, or configure a model."
    ).format(confidence=f"{decision.confidence:.2f}", threshold=f"{config.threshold:.2f}", tool=plan.tool)


def _discard_outputs(ctx, report) -> None:
    """Cancelled requests leave no half-written outputs behind."""
    if ctx is None:
        return
    for out in ctx.outputs:
        Path(out.path).unlink(missing_ok=True)
    report.outputs = []


def _default_registry():
    from ..function_lib import load_registry

    return load_registry()


def _default_router(registry):
    from ..router import load_router

    return load_router(registry)
