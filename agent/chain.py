"""Tier 0 of several steps: a request's clauses run one after the other, each read by today's readers.

A chain is a conversation inside one request (planning/chain.py reads its clauses): clause i is routed and planned
with the result of clause i-1 in play as the previous result, so 'them', 'darin', '其中' and 'each buffer' read it.
A clause that names no layer and refers to nothing works on the previous result ('…, then keep only Europe').

Precision first: every clause must route to a tool with a complete plan (every word explained) above the tier-0
threshold; each step's result must pass its own checks (agent/checks.py `result_problems`) before the next runs;
every step's result but the last must be read by the next step. One step that fails any of this and nothing of the
chain is kept: the request goes on as today (a model, or needs_llm offline). No qgis here.
"""

from __future__ import annotations

import time

from ..errors import CancelledError
from ..function_lib.describe import describe_entry
from ..function_lib.registry import run_tool
from ..lang import say_lang
from ..planning.chain import clauses, group_fields, refer_to_result
from ..reading import references
from ..reading.schema_match import find_layers
from ..reading.text import detect_lang, fold
from .checks import result_problems


class DeclinedError(Exception):
    """A step of the chain is not fully understood, or its result failed its checks: the chain is not run."""


def serve_composed(request, ctx, infos, decision, registry, router, config, report, previous=None) -> bool:
    """A request the single-tool plan could not serve, served at tier 0 as several steps: a chain of clauses, or
    the steps a question implies (agent/questions.py). False: nothing ran, the request goes on as today.

    Only with no model asked to confirm plans (issue 24's item 4 is not built: with a model, the model plans)."""
    if not config.tier0 or config.route == "codegen" or decision.route == "chat":
        return False
    if config.has_model and not config.trust_tier0:
        return False
    if applies(request, decision) and serve_chain(request, ctx, infos, registry, router, config, report, previous):
        return True
    from .questions import serve_question

    return serve_question(request, ctx, infos, registry, report)


def applies(request: str, decision) -> bool:
    """Whether the request is read as a chain: its plan names a next step and its clauses are claimed."""
    plan = decision.plan
    return plan is not None and "next_step" in [str(m) for m in plan.missing] and clauses(request) is not None


def serve_chain(request, ctx, infos, registry, router, config, report, previous=None) -> bool:
    """Run the chain and fill the report (True), or leave ctx and the report as they were (False)."""
    start, known, notes = len(ctx.outputs), set(ctx.layers.names()), len(ctx.notes)
    try:
        steps = _run(request, ctx, infos, registry, router, config, previous)
    except CancelledError:
        raise
    except Exception as exc:  # noqa: BLE001 - a step not understood, or failing: the request goes on as today
        ctx.forget_since(start, known, notes)
        report.escalations.append(f"tier 0 chain declined: {exc}")
        return False
    report.tier, report.status = 0, "ok"
    report.steps = [x for s in steps for x in (s["step"] if isinstance(s["step"], list) else [s["step"]])]
    for s in steps:
        report.notes.extend(n for n in s["notes"] if n not in report.notes)
    report.answer = " ".join(f"{i}. {s['said']}" for i, s in enumerate(steps, 1))
    report.router = {**(report.router or {}), "chain": [s["read"] for s in steps]}
    last = steps[-1]["plan"]
    steps[-1].pop("info", None)
    from .formats import write_in_format, write_to_path

    if getattr(last, "output_format", None):
        write_in_format(last.output_format, ctx, registry, report)
    if getattr(last, "output_path", None):
        write_to_path(last.output_path, ctx, report)
    report.outputs = [o.to_json() for o in ctx.outputs]
    return True


def _run(request, ctx, infos, registry, router, config, previous) -> list[dict]:
    parts = clauses(request)
    lang = detect_lang(request)
    t0 = time.perf_counter()
    steps: list[dict] = []
    prev_info, prev_tool, prev_groups, prev_written, prev_kept = None, None, (), [], []
    for i, clause in enumerate(parts):
        if prev_info is None:
            text, layers, prev = clause, list(infos), previous
        else:
            read = refer_to_result(clause, lang, prev_tool, infos, prev_groups)
            if read is None:
                raise DeclinedError(f"step {i + 1} ('{clause}') names the result of a step the request has not")
            text = read[0]
            folded = fold(text)
            mentions = find_layers(folded, infos)
            named = mentions or references.find(folded, detect_lang(text) if lang != "zh" else "zh", text, mentions)
            layers = [*infos, prev_info] if named else [prev_info]  # nothing named: the previous result
            prev = [prev_info.name]
        decision = router.route(text, layers, previous=prev)
        plan = decision.plan
        why = None
        if decision.route != "function" or plan is None or not plan.complete:
            why = ", ".join(map(str, plan.missing)) if plan is not None else decision.route
            why = f"step {i + 1} ('{clause}') is not fully understood ({why or decision.route})"
        elif decision.confidence < config.threshold:
            why = f"step {i + 1} ('{clause}'): {plan.tool} at confidence {decision.confidence:.2f}"
        again = None
        if why is not None:
            again = _on_written_field(text, prev_info, prev_written, prev_kept, router, layers, prev, config)
        if again is not None:
            decision, plan, why = again, again.plan, None
        if why is not None:
            done = _question_step(text, clause, layers, prev_info, ctx, registry, request, last=i == len(parts) - 1)
            if done is None:
                raise DeclinedError(why)
            steps.append(done)
            prev_info, prev_tool, prev_groups, prev_written, prev_kept = done.pop("info") or prev_info, None, (), [], []
            continue
        if prev_info is not None and prev_info.name not in _layers_of(plan.params):
            raise DeclinedError(f"step {i + 1} ('{clause}') does not use the result of step {i}")
        if i < len(parts) - 1 and (getattr(plan, "output_format", None) or getattr(plan, "output_path", None)):
            raise DeclinedError(f"step {i + 1} writes a file before the chain ends")
        before = len(ctx.outputs)
        result = run_tool(registry, plan.tool, plan.params, ctx)
        made = ctx.outputs[before:]
        problems = result_problems(clause, made, layers, plan, None)
        if problems:
            raise DeclinedError(f"step {i + 1} ({plan.tool}) failed its checks: " + "; ".join(problems))
        layer_out = [o for o in made if o.kind in ("vector", "raster")]
        if i < len(parts) - 1 and not layer_out:
            raise DeclinedError(f"step {i + 1} ({plan.tool}) made no layer for the next step")
        from ..planning.say import say_plan

        said = f"{say_plan(plan, say_lang(request), layers)} {result.answer or result.summary}".strip()
        output = layer_out[-1] if layer_out else (made[-1] if made else None)
        steps.append({
            "step": {"tool": plan.tool, "params": plan.params, "clause": clause,
                     "output": output.path if output else None, "outputs": [o.path for o in made]},
            "read": {"clause": clause, "read_as": text, "tool": plan.tool, "confidence": round(decision.confidence, 3)},
            "plan": plan, "said": said, "notes": list(getattr(plan, "notes", None) or ()),
        })  # fmt: skip
        if layer_out:
            read_fields = {f for la in layers if la.name in _layers_of(plan.params) for f in la.field_names()}
            prev_info = describe_entry(ctx.layers.get(layer_out[-1].name), ctx)
            prev_written = [f for f in prev_info.fields if f.name not in read_fields and f.type in _NUMERIC]
            prev_kept = [la.name for la in layers if la.name in _layers_of(plan.params) and _keeps(la, prev_info)]
            prev_info.origin = clause
            prev_tool = plan.tool
            prev_groups = group_fields(plan.tool, plan.params)
    ctx.add_time("chain", time.perf_counter() - t0)
    return steps


_NUMERIC = ("int", "float", "integer", "real", "double")


def _keeps(layer, result) -> bool:
    """Whether the result is the layer's features with fields added ('count … per zone' keeps the zones)."""
    return layer.feature_count == result.feature_count and set(layer.field_names()) < set(result.field_names())


def _on_written_field(text, prev_info, written, kept, router, layers, prev, config):
    """'count the sightings per zone and then show only the zones with more than 20': a comparison that names no
    field compares the one number field the previous step wrote ('count'). The clause is read again with that field
    said before its one comparison; the decision only when it is a complete filter of the previous result on that
    field above the threshold. None: no such field, no one comparison, a unit on the number (a field's unit is not
    known), or a reading of anything else."""
    from ..function_lib.traits import traits_of
    from ..reading.conditions import comparison_starts
    from ..reading.quantities import find_distances

    if prev_info is None or len(written) != 1:
        return None
    field = written[0].name
    folded = fold(text)
    starts = comparison_starts(folded)
    if len(starts) != 1 or fold(field) in folded or find_distances(folded, detect_lang(text)):
        return None
    base = text if len(folded) == len(text) else folded
    edits = [(starts[0], starts[0], f"{field} ")]
    for m in find_layers(folded, layers):
        if m.name not in kept:
            return None  # another layer named: not only the previous result's field
        edits.append((m.start, m.end, prev_info.name))  # 'the zones' whose features the result kept: the result
    if any(s < starts[0] < e for s, e, _ in edits[1:]):
        return None
    again = base
    for s, e, word in sorted(edits, reverse=True):
        again = again[:s] + word + again[e:]
    decision = router.route(again, [prev_info], previous=prev)  # the field is the previous result's alone
    plan = decision.plan
    if decision.route != "function" or plan is None or not plan.complete or decision.confidence < config.threshold:
        return None
    if "keeps_subset" not in traits_of(plan.tool) or plan.params.get("layer") != prev_info.name:
        return None
    if f'"{field}"' not in str(plan.params.get("expression") or ""):
        return None
    return decision


def _question_step(text, clause, layers, prev_info, ctx, registry, request, last: bool) -> dict | None:
    """A clause no single tool explains, served by the steps a question implies (planning/questions.py): 'select
    the trails longer than 4 km' is a measure, then a filter on it. In a chain the clause reads the previous result
    when it names no layer; the filter's layer is the next step's input. None: no question reads the clause."""
    from ..planning.questions import read
    from .questions import run_steps

    specs = {s.name: s for s in registry.specs()}
    question = read(text, layers, specs, previous=prev_info.name if prev_info is not None else None)
    if question is None or question.kind != "measure":
        return None  # the other shapes answer in words only: no layer for a next step
    if prev_info is not None and question.layer != prev_info.name:
        return None  # the clause does not read the result of the step before
    question.lang = say_lang(request)
    before, done = len(ctx.outputs), []
    answer = run_steps(question, ctx, registry, done, text, layers, specs)
    made = ctx.outputs[before:]
    problems = result_problems(clause, made, layers, None, None)
    if problems:
        raise DeclinedError(f"the question of '{clause}' failed its checks: " + "; ".join(problems))
    layer_out = [o for o in made if o.kind in ("vector", "raster")]
    if not layer_out:
        raise DeclinedError(f"'{clause}' made no layer")
    for d in done:
        d["clause"] = clause
    info = None
    if not last:
        info = describe_entry(ctx.layers.get(layer_out[-1].name), ctx)
        info.origin = clause
    return {
        "step": done, "read": {"clause": clause, "read_as": text, "question": question.kind},
        "plan": None, "said": answer, "notes": list(question.notes), "info": info,
    }  # fmt: skip


def _layers_of(params: dict) -> set[str]:
    out: set[str] = set()
    for v in params.values():
        if isinstance(v, str):
            out.add(v)
        elif isinstance(v, list):
            out |= {x for x in v if isinstance(x, str)}
    return out
