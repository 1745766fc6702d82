"""Serving a request with a model: tier 1 (functions, ReAct or Planner–Worker), tier 2 (code), or chat."""

from __future__ import annotations

import contextlib
import shutil
import tempfile
import time
from pathlib import Path

from ..errors import CancelledError
from ..function_lib.io import sidecars
from ..lang import tr
from .function_calling import LoopOutcome, call_model, finish, layers_text, serve_function_calling
from .llm import LLMClient
from .providers import settings_from_config

CHAT_SYSTEM = (
    "You are GeoClerk, a GIS assistant inside QGIS. Answer the user's question briefly and concretely, "
    "using the layer descriptions when they matter. Do not claim to have run any analysis."
)


def make_client(config, progress=None) -> LLMClient:
    """The model client; a local GGUF model (config.local_model) is started first, once per process."""
    if getattr(config, "local_model", None) is not None and not config.base_url:
        from .local_model import shared_server

        server = shared_server(config.local_model or None, getattr(config, "local_server", None), progress)
        config.base_url, config.model = server.base_url, config.model or "local"
        config.timeout_s = max(float(config.timeout_s), 300.0)  # a CPU model is slow: minutes, not seconds
        settings = settings_from_config(config)
        settings.context_tokens = server.context
        return LLMClient(settings)
    return LLMClient(settings_from_config(config))


def serve_with_model(request, ctx, infos, decision, registry, config, report, client=None) -> None:
    """Serve a request the router could not settle at tier 0; the report carries the outcome."""
    client = client or make_client(config, lambda text: ctx.progress(5, text))
    if report.model is None:
        report.model = client.settings.model
    if report.route == "function" and config.tier0:
        report.escalations.append(f"tier 0 → 1: {_why_not_tier0(decision, config)}")
    if report.route == "chat":
        _serve_chat(request, ctx, infos, config, report, client)
        return
    if report.route == "function":
        report.tier = 1
        if config.architecture == "planner":
            from .planner import serve_planner

            outcome = serve_planner(request, ctx, infos, decision, registry, config, report, client)
        else:
            outcome = serve_function_calling(request, ctx, infos, decision, registry, config, report, client)
        outcome = _checked(request, ctx, infos, decision, registry, report, outcome)
        if outcome.kind in ("empty", "failed_checks") and config.route == "function":
            return  # nothing to hand on to: the report says what happened (finish, or the checks)
        if outcome.kind not in HANDED_ON or (outcome.kind == "exhausted" and report.steps):
            return
        if config.route == "function":
            report.status = "error"
            report.error = tr(
                "The function route could not serve this request ({reason}). "
                "Allow code generation (route auto or codegen) or rephrase it."
            ).format(reason=outcome.text)
            return
        report.escalations.append(f"tier 1 → 2: {outcome.text}")
        report.error = None  # tier 1's partial ending is history (in the escalations), not tier 2's outcome
        _discard_outputs(ctx, report)
        report.route = "codegen"
    serve_codegen(request, ctx, infos, config, report, client, decision)


# Tier-1 endings that hand the request to tier 2 in the hybrid: the model escalated, ran out of rounds, did part
# of it, did nothing at all (an empty reply; the Planner's 'END' before any subtask), or its result failed the
# request's checks (an empty clip, a wrong CRS): tier 2 gets the chance to finish it.
HANDED_ON = ("escalate", "exhausted", "partial", "empty", "failed_checks")


def _checked(request, ctx, infos, decision, registry, report, outcome: LoopOutcome) -> LoopOutcome:
    """A tier-1 result that ended ok, written in the asked format and checked like tier 0's (checks.py); one that
    fails its checks ends 'failed_checks', its outputs discarded, never `ok`."""
    from .checks import result_problems
    from .formats import asked_format, write_in_format

    if report.status != "ok":
        return outcome
    fmt = asked_format(request, getattr(decision, "plan", None))
    if fmt:
        write_in_format(fmt, ctx, registry, report)  # the model may have left it in GeoPackage
        report.outputs = [o.to_json() for o in ctx.outputs]
    problems = result_problems(request, ctx.outputs, infos, None, fmt)
    if not problems:
        return outcome
    _discard_outputs(ctx, report)
    report.status = "error"
    report.error = tr("The model's result did not pass the request's checks: {problems}.").format(
        problems="; ".join(problems)
    )
    done = ", ".join(s["tool"] for s in report.steps) or "no tool"
    return LoopOutcome("failed_checks", f"ran {done}; the result failed its checks: " + "; ".join(problems))


def _why_not_tier0(decision, config) -> str:
    plan = getattr(decision, "plan", None)
    if plan is None:
        return "the router has no tool plan for this request"
    if not plan.complete:
        missing = ", ".join(plan.missing or []) or "some parameters"
        return f"{plan.tool} needs {missing}, which the request does not state clearly"
    sure = f"{decision.confidence:.2f} < {config.threshold:.2f}"
    return f"the router is not sure enough that {plan.tool} is meant ({sure})"


def _serve_chat(request, ctx, infos, config, report, client) -> None:
    report.tier = 1
    user = f"{request}\n\nLayers in play:\n{layers_text(infos)}"
    messages = [{"role": "system", "content": CHAT_SYSTEM}, {"role": "user", "content": user}]
    reply = call_model(client, messages, None, ctx, report)
    report.answer = reply.content.strip()
    report.status = "ok" if report.answer else "error"
    if not report.answer:
        report.error = tr("The model returned an empty reply. Try again, or check the model name.")


def _discard_outputs(ctx, report) -> None:
    """Tier-1 outputs of a request handed on to code generation are partial: remove them."""
    for out in ctx.outputs:
        Path(out.path).unlink(missing_ok=True)
    ctx.outputs.clear()
    report.outputs = []


# -- tier 2 ------------------------------------------------------------------------------------
def input_paths(ctx, infos) -> list[str]:
    """The input layers as files the sandbox can copy (only the user's layers, not earlier results)."""
    names = [i.name for i in infos] if infos else ctx.layers.names()
    return list(dict.fromkeys(ctx.path(n) for n in names))  # the layers of one multi-layer file: one copy


def serve_codegen(request, ctx, infos, config, report, client, decision=None) -> None:
    """Tier 2: the code worker writes and repairs Python in the sandbox; its files become outputs. What the router
    read the request to ask for (a layer, a format, a chart, a number) is checked on every run that worked."""
    from ..codegen.sandbox import Sandbox, find_python
    from .checks import empty_outputs, implausible_share
    from .coverage import asked_outputs, missing_outputs

    report.tier = 2
    report.route = "codegen"
    chat = ModelChat(client, ctx, report)
    shared = getattr(config, "sandbox", None)  # the plugin keeps one warm sandbox per conversation
    if shared is not None:  # its variables stay from request to request until the user resets it
        work_dir = Path(shared.new_work_dir("request"))
        sandbox_cm = contextlib.nullcontext(shared)
    else:
        work_dir = Path(tempfile.mkdtemp(prefix="geoclerk-code-"))
        sandbox_cm = Sandbox(root=work_dir, timeout=getattr(config, "sandbox_timeout_s", 600),
                             python=find_python(getattr(config, "sandbox_python", None)))  # fmt: skip
    try:
        with sandbox_cm as sandbox:
            # The plugin sets config.review (a callable code -> bool) when the user wants to approve code first.
            review = getattr(config, "review", None) if config.review_code else None
            in_qgis = config.host == "qgis"  # a result layer is shown on QGIS's map: 'map it' is served by one
            asked = asked_outputs(decision, request, in_qgis, infos) if decision is not None else []

            def check(outputs, stdout):  # what the request asks back, no suspect empty layer, no impossible share
                found = missing_outputs(asked, outputs, stdout) + empty_outputs(request, outputs, infos)
                return found + implausible_share(request, stdout)

            worker = _worker_class()(
                chat, sandbox, config.max_repairs, review=review, progress=lambda text: ctx.progress(50, text),
                context_tokens=client.context_window(), reply_tokens=client.settings.max_tokens, check=check,
                api_check=getattr(config, "api_check", True), api_docs=getattr(config, "api_docs", True),
                explore=explores(config),
                keep_state=shared is not None, candidates=candidate_settings(config),
            )  # fmt: skip
            t0 = time.perf_counter()
            if getattr(config, "codegen_mode", "react") == "planner":
                from ..codegen.code_planner import CodePlanner

                worker = CodePlanner(worker)
            outcome = worker.solve(request, infos, str(work_dir), input_paths(ctx, infos), ctx.cancel_event)
            report.timings_ms["codegen"] = (time.perf_counter() - t0) * 1000
        ctx.check_cancelled()
        _record_codegen(outcome, ctx, report, work_dir)
    finally:
        shutil.rmtree(work_dir, ignore_errors=True)


def candidate_settings(config):
    """The candidate search's knobs from the config (codegen_candidates < 2 switches it off)."""
    from ..codegen.candidates import CandidateSettings

    return CandidateSettings(k=config.codegen_candidates, rounds=config.candidate_rounds,
                             tokens=config.candidate_tokens)  # fmt: skip


def explores(config) -> bool:
    """Does the code worker offer inspection cells: as set, else not for the local GGUF model (it looped on them)."""
    chosen = getattr(config, "codegen_explore", None)
    return bool(chosen) if chosen is not None else getattr(config, "local_model", None) is None


def _worker_class():
    try:
        from ..codegen.worker import CodegenWorker
    except ImportError:
        from ..codegen.repair import CodegenWorker
    return CodegenWorker


def _record_codegen(outcome, ctx, report, work_dir: Path) -> None:
    """Steps as {"code", "ok"}; on success the files the code wrote are copied into the output folder."""
    report.steps.extend(outcome.steps())
    report.codegen = {"inspections": len(outcome.inspections), "attempts": len(outcome.attempts)}
    if outcome.candidates:
        report.codegen["candidates"] = list(outcome.candidates)
    for search in outcome.candidates:
        if search.get("winner"):
            report.notes.append(tr("After two failed attempts, {n} alternative scripts were tried on a sample of the "
                                   "data; number {winner} ran there and was used.").format(
                n=search["received"], winner=search["winner"]))  # fmt: skip
    if outcome.plan:
        report.codegen["plan"] = list(outcome.plan)
        steps = " ".join(f"{i}. {step}" for i, step in enumerate(outcome.plan, 1))
        report.notes.append(tr("Plan: {steps}").format(steps=steps))
    if not outcome.ok and not outcome.missing:
        report.status = "rejected" if outcome.rejected else "error"
        report.error = outcome.error or tr("The generated code failed.")
        report.answer = outcome.answer if outcome.rejected else report.answer  # the model's reason, in its words
        return
    for out in outcome.outputs:
        path = Path(out["path"])
        if not path.is_absolute():
            path = work_dir / path
        if not path.exists():
            continue
        stem = f"{path.stem}_result" if out.get("input_overwritten") else path.stem
        target = ctx.unique_path(stem, path.suffix)
        if out.get("input_overwritten"):
            report.notes.append(
                tr(
                    "The code wrote its result over its copy of the input '{file}' (your file is unchanged); "
                    "the result is saved as {result}."
                ).format(file=path.name, result=target.name)
            )
        shutil.copy2(path, target)
        for sidecar in sidecars(path):
            shutil.copy2(sidecar, target.with_name(target.stem + sidecar.name[len(path.stem) :]))
        ctx.add_output(target, name=target.stem)
    report.outputs = [o.to_json() for o in ctx.outputs]
    report.status = "error" if outcome.missing else "ok"  # partial: what it gave is shown, with what is missing
    report.error = outcome.error if outcome.missing else None
    report.answer = outcome.answer


class ModelChat:
    """The chat callable of the code worker: messages in, (text, usage) out; usage is also added to the report."""

    def __init__(self, client, ctx, report):
        self.client, self.ctx, self.report = client, ctx, report

    def __call__(self, messages: list[dict]) -> tuple[str, dict]:
        if self.ctx.cancel_event.is_set():
            raise CancelledError()
        reply = call_model(self.client, messages, None, self.ctx, self.report)
        return reply.content, {"prompt_tokens": reply.prompt_tokens, "completion_tokens": reply.completion_tokens}


__all__ = ["serve_with_model", "serve_codegen", "make_client", "LoopOutcome", "finish"]
