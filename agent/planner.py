"""Planner–Worker (GeoJSON Agents): the Planner inspects the data and issues subtasks; the Worker runs tools."""

from __future__ import annotations

import json

from ..errors import GeoClerkError
from ..function_lib.describe import describe_entry
from ..model_text.refusals import refusal_reason
from .coverage import unserved
from .function_calling import (
    CONTROL_TOOLS,
    ESCALATE,
    REJECT,
    LoopOutcome,
    call_model,
    finish,
    partial_outcome,
    tool_loop,
    tools_for,
)

ASSIGN = "assign_subtask"
LIST = "list_layers"
META = "layer_metadata"
END = "END"

PLANNER_SYSTEM = (
    "You are the Planner of a GIS team. Inspect the data with list_layers and layer_metadata, then give "
    "the Worker ONE subtask at a time with assign_subtask (concrete: layer and field names, values, "
    "distances in metres). Review each Worker report before the next subtask. When the request is "
    "fully done, reply with text starting with END followed by a short answer for the user. Call "
    "reject_task if the data cannot answer the request; escalate_to_code if the Worker's tools cannot."
)

WORKER_SYSTEM = (
    "You are the Worker of a GIS team. Do exactly the subtask you are given with the tools, then reply "
    "with a short report: what you ran, the new layer names, and any numbers. Distances are in metres. "
    "If the subtask cannot be done with these tools, say so and why (reject_task)."
)


# Measured on the local model: the Planner answered 'END' before assigning anything (five chains, nothing done).
PLANNER_NUDGE = (
    "Nothing has been done yet: no subtask was assigned. Give the Worker the first step now with assign_subtask; "
    "if the request cannot be done, call reject_task."
)


def _remind(pending: list[str], ctx) -> str:
    """What is left of the chain, for the Planner: the steps to assign and the latest result layer."""
    on = f" (the latest result is the layer {ctx.outputs[-1].name})" if ctx.outputs else ""
    listed = "; ".join(f"'{c}'" for c in pending)
    return f"Not done yet: the request also asks {listed}. Assign it to the Worker with assign_subtask now{on}."


def _fn(name: str, description: str, props: dict, required: list[str]) -> dict:
    schema = {"type": "object", "properties": props, "required": required}
    return {"type": "function", "function": {"name": name, "description": description, "parameters": schema}}


PLANNER_TOOLS = [
    _fn(LIST, "List the layers available now (inputs and results so far).", {}, []),
    _fn(META, "Fields, types, sample values, CRS and count of one layer.", {"layer": {"type": "string"}}, ["layer"]),
    _fn(
        ASSIGN,
        "Give the Worker one subtask; returns its report.",
        {"subtask": {"type": "string", "description": "One concrete step"}},
        ["subtask"],
    ),
] + CONTROL_TOOLS


def serve_planner(request, ctx, infos, decision, registry, config, report, client) -> LoopOutcome:
    """Plan–execute–review until END, a refusal, an escalation, or the round limit."""
    names = tools_for(decision, registry, config.top_k)
    if not names:
        return LoopOutcome("escalate", "no tool in the library fits this request")
    worker_tools = ", ".join(names)
    messages = [
        {"role": "system", "content": PLANNER_SYSTEM},
        {"role": "user", "content": f"Request: {request}\nThe Worker's tools: {worker_tools}"},
    ]
    nudged, asked = False, set()
    for _ in range(config.max_rounds):
        reply = call_model(client, messages, PLANNER_TOOLS, ctx, report)
        messages.append(client.assistant_message(reply))
        if not reply.tool_calls:
            text = reply.content.strip()
            text = text[len(END) :].strip(" :\n") if text.upper().startswith(END) else text
            refused = refusal_reason(text)  # a refusal in words ends like reject_task, never as an answer
            pending = [] if refused or not report.steps else unserved(decision, report.steps)
            if not refused and not report.steps and not nudged:  # END before any subtask: nothing was done
                nudged = True
                messages.append({"role": "user", "content": PLANNER_NUDGE})
                continue
            if pending and not set(pending) <= asked:  # the chain's coverage check, as in ReAct: the rest to do
                asked.update(pending)
                messages.append({"role": "user", "content": _remind(pending, ctx)})
                continue
            if refused:
                outcome = LoopOutcome("rejected", refused)
            elif pending:
                outcome = partial_outcome(report, pending)
            elif not report.steps:
                nothing = "the Planner ended before assigning any subtask; nothing was done"
                outcome = LoopOutcome("no_action", text) if text else LoopOutcome("empty", nothing)
            else:
                outcome = LoopOutcome("answer", text)
            finish(outcome, report)
            return outcome
        for call in reply.tool_calls:
            if call.name in (REJECT, ESCALATE):
                reason = str((call.args or {}).get("reason") or "no reason given")
                outcome = LoopOutcome("rejected" if call.name == REJECT else "escalate", reason)
                finish(outcome, report)
                return outcome
            content = _planner_tool(call, ctx, infos, names, registry, config, report, client)
            messages.append(client.tool_message(call, content))
    outcome = LoopOutcome("exhausted", f"the Planner did not reach END within {config.max_rounds} rounds")
    finish(outcome, report)
    return outcome


def _planner_tool(call, ctx, infos, names, registry, config, report, client) -> str:
    if call.args is None:
        return json.dumps({"ok": False, "error": call.error})
    if call.name == LIST:
        return json.dumps({"layers": ctx.layers.names()})
    if call.name == META:
        return _metadata(call.args.get("layer", ""), ctx, infos)
    if call.name == ASSIGN:
        return _run_worker(str(call.args.get("subtask", "")), ctx, infos, names, registry, config, report, client)
    allowed = ", ".join([LIST, META, ASSIGN, REJECT, ESCALATE])
    return json.dumps({"ok": False, "error": f"There is no tool '{call.name}' here.", "fix": f"Use one of: {allowed}."})


def _metadata(name: str, ctx, infos) -> str:
    for info in infos or []:
        if info.name == name:
            return info.prompt_text()
    try:
        entry = ctx.layers.get(name)
        return describe_entry(entry, ctx).prompt_text()
    except GeoClerkError as exc:
        return json.dumps({"ok": False, "error": exc.message, "fix": exc.fix})


def _run_worker(subtask, ctx, infos, names, registry, config, report, client) -> str:
    """One subtask through the function-calling loop; the Worker's report goes back to the Planner only."""
    layer_list = ", ".join(ctx.layers.names())
    messages = [
        {"role": "system", "content": WORKER_SYSTEM},
        {"role": "user", "content": f"Subtask: {subtask}\nLayers: {layer_list}"},
    ]
    outcome = tool_loop(client, messages, names, registry, ctx, report, config.max_rounds)
    if outcome.kind == "answer":
        return json.dumps({"worker_report": outcome.text})
    return json.dumps({"worker_report": f"could not finish ({outcome.kind}): {outcome.text}"})
