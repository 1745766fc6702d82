"""Tier 1, LLM function calling (ReAct): only the router's top-k tools, every call validated before it runs."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass

from ..errors import CancelledError, GeoClerkError, LLMError
from ..function_lib.geojson._base import LAYER
from ..function_lib.registry import run_tool, validate_args
from ..lang import tr
from ..model_text.refusals import refusal_reason
from ..planning.result import gaps_of
from .coverage import nudge_text, unserved

REJECT = "reject_task"
ESCALATE = "escalate_to_code"
CONTROL_TOOLS = [
    {
        "type": "function",
        "function": {
            "name": REJECT,
            "description": "Refuse a request these tools and data cannot do (say why); never invent a result.",
            "parameters": {
                "type": "object",
                "properties": {"reason": {"type": "string", "description": "Why it cannot be done"}},
                "required": ["reason"],
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": ESCALATE,
            "description": "Hand the request to the code-writing worker when no tool here can express it.",
            "parameters": {
                "type": "object",
                "properties": {"reason": {"type": "string", "description": "What the tools cannot do"}},
                "required": ["reason"],
            },
        },
    },
]

SYSTEM = (
    "You are GeoClerk's GIS tool worker. Solve the request by calling the tools. Layers are named; "
    "each tool result names its new output layer, which later calls can use. Distances are in metres. "
    "When done, reply in one or two plain sentences with the result (no tool call). If the data or "
    "tools cannot answer it, call reject_task with the reason; never make up a result. If it needs "
    "custom analysis the tools cannot express, call escalate_to_code."
)

MAX_RESULT_CHARS = 1200


@dataclass
class LoopOutcome:
    """How a tool loop ended: answer, rejected, escalate (with a reason) or exhausted (rounds used up)."""

    kind: str
    text: str = ""


def ranked_names(decision) -> list[str]:
    """The router's ranked tool names, whatever shape the decision stores them in."""
    names = []
    for item in getattr(decision, "tools", None) or []:
        if isinstance(item, str):
            names.append(item)
        elif isinstance(item, dict):
            names.append(item.get("name"))
        elif isinstance(item, (tuple, list)):
            names.append(item[0])
        else:
            names.append(getattr(item, "name", None))
    return [n for n in names if n]


def runnable_name(registry, name: str) -> str | None:
    """`name` if it can run here, else its equivalent from the other half when that one can, else None."""
    if name not in registry:
        return None
    if registry.preferred(name).available:
        return name
    other = registry.get(name).spec.equivalent
    if other and other in registry and registry.preferred(other).available:
        return other
    return None


# Picking features by a name or a value ("the Lindenau district", "only public ones") is a step of its
# own that requests leave implicit; when the router saw such a cue, the model gets the filter tool too.
SELECTION_TOOL = "filter_by_expression"


# Each clause of a chain brings its router's first two tools ('count the houses inside each': count_features, then
# count_points_in_polygons, the right one), whatever k: a chain needs a tool per step.
CLAUSE_TOOLS = 2


def tools_for(decision, registry, k: int) -> list[str]:
    """The runnable tools offered: the tier-0 plan's tool, the first tools of each chain clause, then the router's
    ranking up to k; plus the filter tool when the request selects features the plan did not use."""
    plan = getattr(decision, "plan", None)
    first = [plan.tool] if plan is not None and getattr(plan, "tool", None) else []
    clauses = [name for _, ranked in getattr(decision, "steps", None) or [] for name, _ in ranked[:CLAUSE_TOOLS]]
    chosen: list[str] = []
    for number, name in enumerate(first + clauses + ranked_names(decision)):
        if number >= len(first + clauses) and len(chosen) >= k:
            break
        runnable = runnable_name(registry, name)
        if runnable and runnable not in chosen:
            chosen.append(runnable)
    if (gaps_of(plan, "selection") or gaps_of(plan, "next_step")) and SELECTION_TOOL not in chosen:
        runnable = runnable_name(registry, SELECTION_TOOL)
        if runnable:
            chosen.append(runnable)
    return chosen


def model_tool(spec) -> dict:
    """A tool's definition as the model reads it: the OpenAI schema without what only validation needs
    (additionalProperties; validate_args checks every call against the full schema) and with the input layer
    described in two words. The schemas are most of a tier-1 prompt, re-sent every round."""
    tool = spec.openai_tool()
    parameters = dict(tool["function"]["parameters"])
    parameters.pop("additionalProperties", None)
    parameters["properties"] = {
        name: {**schema, "description": "Layer name"} if schema.get("description") == LAYER.description else schema
        for name, schema in parameters["properties"].items()
    }
    return {"type": "function", "function": {**tool["function"], "parameters": parameters}}


def layers_text(infos) -> str:
    return "\n".join(i.prompt_text() for i in infos) if infos else "(no layers)"


def plan_hint(decision) -> str:
    """What the router already read from the request, so the model need not rediscover it."""
    plan = getattr(decision, "plan", None)
    if plan is None or not getattr(plan, "tool", None):
        return ""
    params = json.dumps(getattr(plan, "params", {}) or {}, default=str)
    missing = ", ".join(getattr(plan, "missing", []) or [])
    text = f"Router's guess: {plan.tool} {params}"
    return text + (f"; unclear: {missing}" if missing else "")


def result_text(result) -> str:
    """A tool's result as the model reads it: summary, new layers, answer, values (trimmed)."""
    data: dict = {"ok": True, "summary": result.summary}
    if result.outputs:
        data["new_layers"] = [{"name": o.name, "kind": o.kind} for o in result.outputs]
    if result.answer:
        data["answer"] = result.answer
    if result.values:
        data["values"] = result.values
    text = json.dumps(data, default=str)
    return text if len(text) <= MAX_RESULT_CHARS else text[: MAX_RESULT_CHARS - 20] + "... (trimmed)"


def error_text(exc: GeoClerkError) -> str:
    return json.dumps({"ok": False, "error": exc.message, "fix": exc.fix})


def call_model(client, messages, tools, ctx, report):
    """One model turn with its usage and wall time recorded in the report."""
    ctx.check_cancelled()
    t0 = time.perf_counter()
    reply = client.chat(messages, tools, cancel_event=ctx.cancel_event)
    ms = (time.perf_counter() - t0) * 1000
    report.timings_ms["llm"] = report.timings_ms.get("llm", 0.0) + ms
    report.usage.add(reply.prompt_tokens, reply.completion_tokens, ms)
    return reply


NUDGE = (
    "No tool was called, so nothing has been done yet. Call a tool to do the request now; "
    "if it cannot be done with these tools, call reject_task or escalate_to_code."
)


def tool_loop(client, messages, names, registry, ctx, report, max_rounds: int, max_failures: int = 3,
              require_tool: bool = False, decision=None) -> LoopOutcome:  # fmt: skip
    """ReAct: model → validated tool calls → results back, until an answer, a refusal or an escalation.
    With `require_tool`, an answer before any successful call gets one nudge, then ends as "no_action"
    (the answer, flagged in the notes as the model's own words). With the router's `decision`, an answer while
    a step of its chain is not served gets the step to do (once per step); still unserved, it ends "partial"."""
    specs = {n: registry.get(n).spec for n in names}
    tools = [model_tool(specs[n]) for n in names] + CONTROL_TOOLS
    failures = 0
    last_error = ""
    summaries: list[str] = []  # what the successful calls did: the answer when the model's last reply is empty
    nudged = False
    asked_steps: set[str] = set()
    ran: dict[str, str] = {}  # each successful call (name and arguments) and its summary
    for number in range(1, max_rounds + 1):
        ctx.progress(min(90, 10 + 12 * number), f"asking the model (round {number})")
        reply = call_model(client, messages, tools, ctx, report)
        messages.append(client.assistant_message(reply))
        if not reply.tool_calls:
            text = reply.content.strip()
            refused = refusal_reason(text)
            if refused:  # 'I reject the task.' in words is reject_task, not an answer
                return LoopOutcome("rejected", refused)
            pending = unserved(decision, report.steps) if summaries else []
            if pending and not set(pending) <= asked_steps:  # stopped after the first step: the rest to do
                asked_steps.update(pending)
                last = ctx.outputs[-1].name if ctx.outputs else None
                messages.append({"role": "user", "content": nudge_text(pending, last)})
                continue
            if pending:
                return partial_outcome(report, pending)
            if not text:
                if summaries:
                    return LoopOutcome("answer", " ".join(summaries))
                return LoopOutcome("empty", "the model's reply was empty; nothing was done")
            if require_tool and not summaries:
                if nudged:
                    return LoopOutcome("no_action", text)
                nudged = True
                messages.append({"role": "user", "content": NUDGE})
                continue
            return LoopOutcome("answer", text)
        round_ok = round_failed = False  # failures count per round: one reply's parallel calls are one try
        for call in reply.tool_calls:
            if call.name in (REJECT, ESCALATE):
                reason = (call.args or {}).get("reason") or "no reason given"
                return LoopOutcome("rejected" if call.name == REJECT else "escalate", str(reason))
            ctx.check_cancelled()
            ctx.progress(min(90, 15 + 12 * number), f"running {call.name}")
            key = json.dumps([call.name, call.args], sort_keys=True, default=str)
            if key in ran:  # the local model re-sent one clip six times: a repeat is a failed round, with what is left
                content, ok = _repeat_text(ran[key], unserved(decision, report.steps), ctx), False
            else:
                content, ok = _run_call(call, specs, registry, ctx, report)
            messages.append(client.tool_message(call, content))
            if ok:
                round_ok = True
                summaries.append(str(json.loads(content).get("summary") or f"{call.name} ran."))
                ran[key] = summaries[-1]
            else:
                round_failed = True
                last_error = json.loads(content).get("error", content)
        if round_ok:
            failures = 0
        elif round_failed:
            failures += 1
            if failures >= max_failures:
                return LoopOutcome("escalate", f"{failures} tool calls in a row failed; last: {last_error}")
    pending = unserved(decision, report.steps) if summaries else []
    if pending:
        return partial_outcome(report, pending)
    return LoopOutcome(
        "exhausted", f"no answer after {max_rounds} rounds" + (f"; last error: {last_error}" if last_error else "")
    )


def _repeat_text(summary: str, pending: list[str], ctx) -> str:
    """The answer to a call that already ran with the same arguments: it is not run again, and the model is told
    what is left of the request, or to answer."""
    if pending:
        fix = nudge_text(pending, ctx.outputs[-1].name if ctx.outputs else None)
    else:
        fix = "If the request is done, reply with the answer; otherwise call the tool for the next step."
    error = f"This exact call already ran ({summary}); running it again would give the same result."
    return json.dumps({"ok": False, "error": error, "fix": fix})


def partial_outcome(report, pending: list[str]) -> LoopOutcome:
    """The 'partial' ending of a loop whose steps left `pending` (coverage.unserved) undone: what ran, what not."""
    done = ", ".join(s["tool"] for s in report.steps)
    return LoopOutcome("partial", f"ran {done}; not done: " + "; ".join(f"'{c}'" for c in pending))


def _run_call(call, specs, registry, ctx, report) -> tuple[str, bool]:
    """Validate and run one call; the text for the model and whether it succeeded."""
    if call.args is None:
        return json.dumps({"ok": False, "error": call.error, "fix": "Send the arguments as one JSON object."}), False
    if call.name not in specs and call.name in registry:
        # a library tool the model knows but was not offered (the router's top-k missed it): validated and run
        specs[call.name] = registry.get(call.name).spec
    if call.name not in specs:
        allowed = ", ".join(list(specs) + [REJECT, ESCALATE])
        msg = f"There is no tool '{call.name}' here."
        return json.dumps({"ok": False, "error": msg, "fix": f"Use one of: {allowed}."}), False
    try:
        args = validate_args(specs[call.name], call.args)
        t0 = time.perf_counter()
        result = run_tool(registry, call.name, args, ctx)
        report.timings_ms["execute"] = report.timings_ms.get("execute", 0.0) + (time.perf_counter() - t0) * 1000
    except (CancelledError, LLMError):
        raise
    except GeoClerkError as exc:
        return error_text(exc), False
    report.steps.append({"tool": call.name, "params": args})
    report.outputs = [o.to_json() for o in ctx.outputs]
    if result.answer:
        report.answer = result.answer
    return result_text(result), True


def serve_function_calling(request, ctx, infos, decision, registry, config, report, client) -> LoopOutcome:
    """Tier 1, single-agent ReAct. Sets the report's status/answer; returns the outcome for escalation."""
    names = tools_for(decision, registry, config.top_k)
    if not names:
        return LoopOutcome("escalate", "no tool in the library fits this request")
    user = f"Request: {request}\n\nLayers:\n{layers_text(infos)}"
    hint = plan_hint(decision)
    if hint:
        user += f"\n\n{hint}"
    messages = [{"role": "system", "content": SYSTEM}, {"role": "user", "content": user}]
    outcome = tool_loop(
        client, messages, names, registry, ctx, report, config.max_rounds, require_tool=True, decision=decision
    )
    finish(outcome, report)
    return outcome


def finish(outcome: LoopOutcome, report) -> None:
    """Write a loop's ending into the report (escalations are left to the caller)."""
    if outcome.kind == "answer" and (outcome.text or report.answer or report.steps):
        report.status = "ok"
        report.answer = outcome.text or report.answer
    elif outcome.kind in ("answer", "empty"):
        report.status = "error"
        report.error = tr("The model returned an empty reply: nothing was done.")
        report.notes.append(tr("Try again, or use a stronger model; check that the model name is right."))
    elif outcome.kind == "no_action":
        # Nudged once and still no tool: the reply may be an honest answer from the layer descriptions, or a claim.
        # It is shown as the model's own words, with no outputs, and the report says plainly that nothing ran.
        report.status = "ok"
        report.answer = outcome.text
        report.notes.append(
            tr(
                "The model answered without running any tool, so nothing was computed or written: this answer is "
                "the model's own words. Rephrase the request or use a stronger model if you expected a result."
            )
        )
    elif outcome.kind == "partial":  # the caller hands it on (tier 2) or reports it; never `ok`
        report.status = "error"
        report.error = tr("Only part of the request was done ({reason}).").format(reason=outcome.text)
    elif outcome.kind == "rejected":
        report.status = "rejected"
        report.answer = outcome.text
        report.error = tr("The request was refused: {reason}").format(reason=outcome.text)
    elif outcome.kind == "exhausted" and report.steps:
        report.status = "ok"
        report.notes.append(tr("The model stopped without a final answer ({reason}).").format(reason=outcome.text))
