"""Draft and verify: with a model configured, a complete tier-0 plan is offered to the model as a proposed call.

One short round: the model repeats the call (accepted: it runs as tier 0), sends a corrected call (it runs, as
tier 1, and the correction is reported), or refuses. Only the plan's tool and the router's next few tools are
offered, with the layers in one line each, so a confirmation stays small (make bench-tokens reports its cost).
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from ..errors import GeoClerkError
from ..function_lib.registry import validate_args
from .function_calling import CONTROL_TOOLS, REJECT, call_model, model_tool, ranked_names, runnable_name

VERIFY_TOOLS = 3  # the plan's tool and the router's next two
SYSTEM = (
    "You check a GIS tool call proposed for a user's request. If the call does exactly what the request asks, "
    "call the same tool with the same arguments. If a value or a role is wrong (source and target CRS, which "
    "layer is cut by which, one result per feature versus one for all, a filter's negation), call the tool that "
    "does it with the corrected arguments. If no offered tool can do it, call reject_task with the reason. "
    "Call exactly one tool; no text."
)


@dataclass
class Verdict:
    """accepted | corrected | rejected | unclear, with the call to run (tool, args) when there is one."""

    kind: str
    tool: str | None = None
    args: dict | None = None
    text: str = ""


def _layers_line(infos) -> str:
    out = []
    for la in infos or ():
        fields = ", ".join(f.name for f in (la.fields or [])[:12])
        geom = la.geometry_type or la.kind
        out.append(f"- {la.name}: {geom}, {la.crs or 'no CRS'}, {la.feature_count} features; fields: {fields}")
    return "\n".join(out) or "(no layers)"


def _same(spec, a: dict, b: dict) -> bool:
    """The same call once defaults are filled in (a model that spells out assign=false still accepts)."""

    def norm(d):
        try:
            d = validate_args(spec, d or {})
        except GeoClerkError:
            pass
        return json.loads(json.dumps(d or {}, sort_keys=True, default=str))

    return norm(a) == norm(b)


def verify_messages(request, plan, decision, infos, registry) -> tuple[list[dict], list[dict]]:
    """The one-round confirmation: (messages, tools) sent to the model."""
    names = []
    for name in [plan.tool] + ranked_names(decision):
        runnable = runnable_name(registry, name) if name in registry else None
        if runnable and runnable not in names:
            names.append(runnable)
        if len(names) >= VERIFY_TOOLS:
            break
    reject = [t for t in CONTROL_TOOLS if t["function"]["name"] == REJECT]
    tools = [model_tool(registry.get(n).spec) for n in names] + reject
    proposed = json.dumps({"tool": plan.tool, "arguments": plan.params}, ensure_ascii=False, default=str)
    user = f"Request: {request}\n\nLayers:\n{_layers_line(infos)}\n\nProposed call: {proposed}"
    return [{"role": "system", "content": SYSTEM}, {"role": "user", "content": user}], tools


def verify_plan(request, plan, decision, infos, registry, ctx, report, client) -> Verdict:
    """Ask the model to accept or correct the tier-0 plan, in one round."""
    messages, tools = verify_messages(request, plan, decision, infos, registry)
    reply = call_model(client, messages, tools, ctx, report)
    if not reply.tool_calls:
        text = (reply.content or "").strip()
        if text.lower().rstrip(".!") in ("accept", "accepted", "yes", "ok", "correct"):
            return Verdict("accepted", plan.tool, dict(plan.params), text)
        return Verdict("unclear", text=text)
    call = reply.tool_calls[0]
    if call.name == REJECT:
        return Verdict("rejected", text=str((call.args or {}).get("reason") or "no reason given"))
    if call.args is None or call.name not in registry:
        return Verdict("unclear", text=f"the model's reply could not be read ({call.error or call.name})")
    if call.name == plan.tool and _same(registry.get(plan.tool).spec, call.args, plan.params):
        return Verdict("accepted", plan.tool, dict(plan.params))
    return Verdict("corrected", call.name, dict(call.args))
