"""Did the tools that ran serve every step the router read? A chain ('reproject the countries … and keep only
Europe') is done only when each of its clauses was served by a tool that fits it, so a model that stops after the
first step is given the rest to do, and a result still missing a step is partial, never `ok`.

Each step that ran serves one clause: one it fits (the clause's ranked tools, router STEP_TOOLS, counting a QGIS
algorithm and the library function of the same name as one; a distinctive trait in common; a flag of its own), else
any clause left over. A chain of N clauses thus needs N steps.
"""

from __future__ import annotations

import re

from ..function_lib.traits import traits_of
from ..languages import topic

_ASKS = topic("asks")

# Traits that say what a step does well enough that two tools with one of them do the same kind of step.
_DISTINCT = ("keeps_subset", "reprojects", "aggregates", "measures", "makes_image", "writes_format", "subtracts",
             "statistic", "orders")  # fmt: skip


def _base(tool: str) -> str:
    name = tool[5:] if tool.startswith("qgis_") else tool
    return name.rstrip("s")


def _fits(step: dict, ranked: list[str]) -> bool:
    """Does a step that ran fit a clause ranked `ranked`: the same tool (QGIS or library), or a distinctive trait
    in common?"""
    tool = step["tool"]
    if any(_base(tool) == _base(t) for t in ranked):
        return True
    wanted = {t for name in ranked for t in traits_of(name)} & set(_DISTINCT)
    return bool(wanted & set(traits_of(tool)))


def _flag_does(step: dict, ranked: list[str]) -> bool:
    """A flag of the step does the clause too ('buffer … and dissolve them': a buffer with dissolve=true)."""
    flags = {_base(k) for k, v in (step.get("params") or {}).items() if v is True}
    return bool(flags & {_base(t) for t in ranked})


def pending_steps(decision, steps_run: list[dict]) -> list[str]:
    """The clauses of a chain that no step which ran serves (empty for a one-step request or a served chain).

    Each step serves one clause: first where it fits (in clause order), then any step left over serves a clause
    left over, so a chain of N clauses needs N steps, and a model that stopped after the first is not done."""
    clauses = getattr(decision, "steps", None) or []
    if len(clauses) < 2:
        return []
    free = list(range(len(steps_run)))
    served: dict[int, int] = {}
    for i, (_, ranked) in enumerate(clauses):
        names = [t for t, _ in ranked]
        hit = next((j for j in free if _fits(steps_run[j], names)), None)
        if hit is not None:
            served[i] = hit
            free.remove(hit)
    for i, (_, ranked) in enumerate(clauses):
        if i not in served and any(_flag_does(s, [t for t, _ in ranked]) for s in steps_run):
            served[i] = -1
    for i in range(len(clauses)):
        if i not in served and free:
            served[i] = free.pop(0)
    return [clause for i, (clause, _) in enumerate(clauses) if i not in served]


def unused_values(decision, steps_run: list[dict]) -> list[str]:
    """Values the request names that the router could not place ('clip the roads to the Lindenau district') and
    that no step used: a model that clips to every district has dropped them (the local model did, 4.6x the
    length). As pending items, worded for the reminder."""
    import json

    from ..planning.result import gaps_of
    from ..reading.text import fold

    used = fold(json.dumps([s.get("params") for s in steps_run], ensure_ascii=False, default=str))
    values = [str(g.subject) for g in gaps_of(getattr(decision, "plan", None), "selection") if g.subject]
    return [f"use '{v}' (the request names it; no call used it)" for v in values if fold(v) not in used]


def unserved(decision, steps_run: list[dict]) -> list[str]:
    """What the request asked that the steps run so far do not serve: chain clauses, then values no call used."""
    return pending_steps(decision, steps_run) + unused_values(decision, steps_run)


def nudge_text(clauses: list[str], last_layer: str | None) -> str:
    """The reminder: what is left and on which layer. Naming the router's tool for it was tried and measured worse
    on the local model (it then skipped the filter of 'reproject … and keep only Europe'), so no tool is named."""
    on = f" on the layer {last_layer}" if last_layer else ""
    listed = "; ".join(f"'{c}'" for c in clauses)
    return (
        f"Not done yet: the request also asks {listed}. Call the tool for it now{on}. "
        "If it cannot be done with these tools, call reject_task."
    )


# -- what the request asks to get back, checked at tier 2 -----------------------------------------------------------
# A clause whose tool makes a layer ('clip the roads to …') asks for a layer; one whose tool measures or counts
# ('measure their length') asks for a number. Traits, not tool names, so every tool of a kind reads the same.
_LAYER_TRAITS = {"per_feature", "keeps_subset", "reprojects", "two_layers", "dissolves", "subtracts", "merges_layers",
                 "orders"}  # fmt: skip
_NUMBER_TRAITS = {"measures", "statistic"}
_KIND_WORDS = {
    "layer": "a layer file (GeoPackage or GeoJSON)",
    "image": "a chart or map image (PNG) or HTML page",
    "map": "a map image (PNG), an HTML page or a raster",
    "number": "the number, printed",
    "answer": "the answer, printed (or a result file)",
}


def _clause_kind(tool: str) -> str | None:
    traits = traits_of(tool)
    if "makes_image" in traits:
        return "image"
    if traits & _NUMBER_TRAITS:
        return "number"
    if traits & _LAYER_TRAITS:  # before 'aggregates': a dissolve gives a layer
        return "layer"
    return "number" if "aggregates" in traits else None


# 'map it', 'show it on a map', 'auf einer Karte', '在地图上': the request wants to see a map. Outside QGIS that is
# an image; inside, a result layer on QGIS's map is one. Read for tier 2 only: at tier 0/1 a tool's layer is shown.
MAP_WORDS = re.compile("|".join(m.MAP_WORDS for m in _ASKS))


# A question asks for its answer, not for the layer of the tool the router guessed for it (a way to get there): one
# for a quantity ('how many hectares …?', 'what percentage …', 'wie viele …', '多少') for the number, one for a
# thing ('which district …?', 'welcher Bezirk …?', '哪个区…？') for a printed answer or any result file.
QUANTITY_QUESTION = re.compile("|".join(m.QUANTITY_QUESTION for m in _ASKS))
WHICH_QUESTION = re.compile("|".join(m.WHICH_QUESTION for m in _ASKS))


def asked_outputs(decision, request: str, maps_are_layers: bool = False, infos=()) -> list[tuple[str, str]]:
    """What the request asks to get back, as (kind, the words that ask for it): kind is layer, image, number or a
    file format ('geojson'). Read from the router's chain clauses, else from its plan when it routed the request to
    the function library, plus an asked file format, image or map (an image, or a layer when `maps_are_layers`).
    Nothing is guessed for an open request. `infos`: the layers in play ('the 2025 image' is a raster, not a
    picture asked for)."""
    from ..reading.text import fold
    from .checks import asks_for_image
    from .formats import asked_format

    folded = fold(request)
    clauses = [(text, ranked[0][0]) for text, ranked in getattr(decision, "steps", None) or [] if ranked]
    plan = getattr(decision, "plan", None)
    if not clauses and getattr(decision, "route", None) == "function" and getattr(plan, "tool", None):
        clauses = [(request, plan.tool)]
    asked: list[tuple[str, str]] = []
    for text, tool in clauses:
        kind = _clause_kind(tool)
        if kind == "layer" and QUANTITY_QUESTION.search(fold(text)):
            kind = "number"
        elif kind == "layer" and WHICH_QUESTION.search(fold(text)):
            kind = "answer"
        if kind and kind not in {k for k, _ in asked}:
            asked.append((kind, text))
    if asks_for_image(folded, infos) and "image" not in {k for k, _ in asked}:
        asked.append(("image", request))
    elif MAP_WORDS.search(folded):
        kind = "layer" if maps_are_layers else "map"
        if not {kind, "image"} & {k for k, _ in asked}:
            asked.append((kind, request))
    fmt = asked_format(request, plan)
    if fmt:
        asked.append((fmt, request))
    return asked


def missing_outputs(asked: list[tuple[str, str]], outputs: list[dict], stdout: str) -> list[str]:
    """The asked outputs a run did not give: no layer file, no image, no file of the asked format, no number (printed
    or in a table)."""
    from pathlib import Path

    kinds = {o.get("kind") for o in outputs}
    suffixes = {Path(o.get("path", "")).suffix.lower().lstrip(".") for o in outputs}
    missing = []
    for kind, text in asked:
        if kind == "layer":
            ok = bool(kinds & {"vector", "raster"})
        elif kind == "image":
            ok = bool(kinds & {"image", "html"})
        elif kind == "map":  # a picture, or a raster: an 'NDVI map' / 'NDVI-Karte' is the index's grid itself
            ok = bool(kinds & {"image", "html", "raster"})
        elif kind == "answer":  # a question's answer: anything printed, or a result file
            ok = bool(stdout.strip() or outputs)
        elif kind == "number":  # printed, or a table of them
            ok = any(ch.isdigit() for ch in stdout) or "table" in kinds
        else:  # a file format
            ok = kind in suffixes or (kind == "geojson" and "json" in suffixes)
        if not ok:
            what = _KIND_WORDS.get(kind, f"a {kind.upper()} file")
            missing.append(f"{what} for '{text}'")
    return missing
