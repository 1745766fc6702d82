"""The steps a question implies, run at tier 0 (planning/questions.py reads them), answered in words.

The answer is the number or the names in the request's language (lang.py tr, i18n/core_*.json), with the layers the
steps made as evidence. Each step is a library tool run through the registry like any other; a result that fails
its checks, a rank whose polygons have no names, or anything unexpected and nothing is kept (False). No qgis here.
"""

from __future__ import annotations

import math

from ..errors import CancelledError
from ..function_lib.registry import run_tool
from ..lang import say_lang, tr
from ..planning.questions import Question, read
from .checks import result_problems


class UnansweredError(Exception):
    """The question's steps ran, but their result cannot be told as an answer."""


def serve_question(request, ctx, infos, registry, report, same_as: dict | None = None) -> bool:
    """Read and run the question's steps and fill the report (True), or change nothing (False). `same_as`: the layer
    and expression today's filter read; a question read otherwise is left to that filter."""
    specs = {s.name: s for s in registry.specs()}
    question = read(request, infos, specs)
    if question is None:
        return False
    if same_as is not None and (question.kind not in ("count", "share") or same_as != {
            "layer": question.layer, "expression": question.expression}):  # fmt: skip
        return False
    question.lang = say_lang(request)  # the answer in the user's language when set, else the request's
    start, known, notes = len(ctx.outputs), set(ctx.layers.names()), len(ctx.notes)
    steps: list[dict] = []
    try:
        answer = run_steps(question, ctx, registry, steps, request, infos, specs)
    except CancelledError:
        raise
    except Exception as exc:  # noqa: BLE001 - any failure: the request goes on as today
        ctx.forget_since(start, known, notes)
        report.escalations.append(f"tier 0 question declined: {exc}")
        return False
    report.tier, report.status = 0, "ok"
    report.steps = steps
    report.answer = answer
    report.notes.extend(n for n in question.notes if n not in report.notes)
    report.router = {**(report.router or {}), "question": question.kind}
    report.outputs = [o.to_json() for o in ctx.outputs]
    return True


def run_steps(question: Question, ctx, registry, steps: list, request, infos, specs) -> str:
    """Run the question's steps (appended to `steps`) and return its answer; raises when it cannot be answered."""
    run = {"count": _count, "share": _count, "rank": _rank, "measure": _measure, "group_rank": _group_rank}
    return run[question.kind](question, ctx, registry, steps, request, infos, specs)


def serve_number_question(request, ctx, infos, plan, registry, config, report) -> bool:
    """'how many cafes have wifi?', 'what share of …': a question for a number that today's plan answers with the
    subset alone (a `keeps_subset` tool) gets the subset and its count in words; False leaves it to that plan."""
    from ..function_lib.traits import traits_of
    from ..planning.questions import asks_a_number

    if plan is None or "keeps_subset" not in traits_of(plan.tool) or not asks_a_number(request):
        return False
    if config.has_model and not config.trust_tier0:
        return False
    same = {"layer": plan.params.get("layer"), "expression": plan.params.get("expression")}
    return serve_question(request, ctx, infos, registry, report, same_as=same)


def _step(ctx, registry, steps, tool, params, request=None, infos=()):
    before = len(ctx.outputs)
    result = run_tool(registry, tool, params, ctx)
    made = ctx.outputs[before:]
    layer = [o for o in made if o.kind in ("vector", "raster")]
    steps.append({"tool": tool, "params": params, "output": layer[-1].path if layer else None,
                  "outputs": [o.path for o in made]})  # fmt: skip
    return result, (layer[-1] if layer else None)


def _count(q: Question, ctx, registry, steps, request, infos, specs) -> str:
    total = len(ctx.gdf(q.layer))
    _, kept = _step(ctx, registry, steps, "filter_by_expression", {"layer": q.layer, "expression": q.expression})
    if kept is None:
        raise UnansweredError("the filter made no layer")
    problems = result_problems(request, [kept], infos)
    n = len(ctx.gdf(kept.name))
    if problems and n:
        raise UnansweredError("; ".join(problems))
    result, _ = _step(ctx, registry, steps, "count_features", {"layer": kept.name})
    n = int((result.values or {}).get("count", n))
    if q.kind == "share":
        share = f"{100 * n / total:.1f}" if total else "0"
        return tr("{n} of the {total} features of {layer} ({share}%) match {expression}.", q.lang).format(
            n=n, total=total, layer=q.layer, share=share, expression=q.expression
        )
    return tr("{n} of the {total} features of {layer} match {expression}.", q.lang).format(
        n=n, total=total, layer=q.layer, expression=q.expression
    )


def _name_field(gdf) -> str | None:
    """The field that names each feature: 'name' (or a like word), else a text field of unique values."""
    from pandas.api.types import is_object_dtype, is_string_dtype

    text = [c for c in gdf.columns if c != gdf.geometry.name and (is_string_dtype(gdf[c]) or is_object_dtype(gdf[c]))]
    for c in text:
        if c.lower() in ("name", "names", "bezeichnung", "名称", "名字", "title"):
            return c
    unique = [c for c in text if gdf[c].notna().all() and gdf[c].is_unique]
    return unique[0] if len(unique) == 1 else None


def _rank(q: Question, ctx, registry, steps, request, infos, specs) -> str:
    names = _name_field(ctx.gdf(q.polygons))
    if names is None:
        raise UnansweredError(f"the features of {q.polygons} have no names to answer with")
    result, counted = _step(ctx, registry, steps, "count_points_in_polygons", {"polygons": q.polygons,
                                                                                "points": q.points})  # fmt: skip
    if counted is None:
        raise UnansweredError("the count made no layer")
    gdf = ctx.gdf(counted.name)
    field = "count" if "count" in gdf.columns else None
    if field is None or len(gdf) == 0:
        raise UnansweredError("no count field")
    best = gdf[field].min() if q.lowest else gdf[field].max()
    top = gdf[gdf[field] == best]
    params = {"layer": counted.name, "field": field, "top_n": len(top), "ascending": q.lowest}
    _step(ctx, registry, steps, "select_rows", params)
    listed = [str(v) for v in top[names]]
    said = listed[0] if len(listed) == 1 else ", ".join(listed[:-1]) + tr(" and ", q.lang) + listed[-1]
    n = int(best)
    if len(top) == 1 and q.lowest:
        text = tr("{name} has the fewest {points} ({n}).", q.lang)
    elif len(top) == 1:
        text = tr("{name} has the most {points} ({n}).", q.lang)
    elif q.lowest:
        text = tr("{name} have the fewest {points} ({n} each).", q.lang)
    else:
        text = tr("{name} have the most {points} ({n} each).", q.lang)
    return text.format(name=said, points=q.points, n=n)


def _group_rank(q: Question, ctx, registry, steps, request, infos, specs) -> str:
    import pandas as pd

    result, _ = _step(ctx, registry, steps, "group_by", q.params)
    tables = [o for o in ctx.outputs if o.kind == "table"]
    if not tables or steps[-1]["outputs"] != [tables[-1].path]:
        raise UnansweredError("the grouping made no table")
    table = pd.read_csv(tables[-1].path)
    (by,), field, agg = q.params["by"], q.params["field"], q.params["agg"]
    column = f"{field}_{agg}"
    if by not in table.columns or column not in table.columns or table[column].isna().any() or not len(table):
        raise UnansweredError("the grouped table is not as expected")
    best = table[column].min() if q.lowest else table[column].max()
    top = table[table[column] == best]
    listed = [str(v) for v in top[by]]
    said = listed[0] if len(listed) == 1 else ", ".join(listed[:-1]) + tr(" and ", q.lang) + listed[-1]
    value = f"{best:,.2f}".rstrip("0").rstrip(".")
    if q.lowest:
        text = tr("{name} has the lowest {agg} of {field} ({value}).", q.lang)
    else:
        text = tr("{name} has the highest {agg} of {field} ({value}).", q.lang)
    return text.format(name=said, agg=agg, field=field, value=value)


def _length_tool(specs, measure: str) -> tuple[str, str] | None:
    """The per-feature measuring tool of the library and its metre unit ('m' for length, 'm2' for area): from the
    traits (measures, per_feature, reports_totals) and the unit its spec offers."""
    unit = {"length": "m", "area": "m2"}[measure]
    for spec in specs.values():
        if {"measures", "per_feature", "reports_totals"} <= set(spec.traits) and spec.half == "geojson":
            units = next((p.enum for p in spec.params if p.name == "unit"), None) or ()
            if unit in units:
                return spec.name, unit
    return None


def _measure(q: Question, ctx, registry, steps, request, infos, specs) -> str:
    found = _length_tool(specs, q.measure)
    if found is None:
        raise UnansweredError(f"no tool measures {q.measure}")
    tool, unit = found
    total = len(ctx.gdf(q.layer))
    _, measured = _step(ctx, registry, steps, tool, {"layer": q.layer, "unit": unit})
    if measured is None:
        raise UnansweredError("the measure made no layer")
    before = set(ctx.gdf(q.layer).columns)
    written = [c for c in ctx.gdf(measured.name).columns if c not in before and c.endswith(f"_{unit}")]
    if len(written) != 1:
        raise UnansweredError("the measured field is not one")
    value = int(q.metres) if float(q.metres).is_integer() else q.metres
    expression = f'"{written[0]}" {q.op} {value}'
    _, kept = _step(ctx, registry, steps, "filter_by_expression", {"layer": measured.name, "expression": expression})
    if kept is None:
        raise UnansweredError("the filter made no layer")
    n = len(ctx.gdf(kept.name))
    distance = _distance(q.metres)
    if q.op == ">":
        text = tr("{n} of the {total} features of {layer} are longer than {distance}.", q.lang)
    else:
        text = tr("{n} of the {total} features of {layer} are shorter than {distance}.", q.lang)
    return text.format(n=n, total=total, layer=q.layer, distance=distance)


def _distance(metres: float) -> str:
    if metres >= 1000 and math.isclose(metres / 1000, round(metres / 1000, 3)):
        return f"{metres / 1000:g} km"
    return f"{metres:g} m"
