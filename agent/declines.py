"""Declines in plain words (issue 25): what the request lacks and the fix, in the user's language, without tool names.

"No layer 'rivers' is loaded (loaded: roads, schools)", "'points' could be cafes or bus_stops", "The file data/x.gpkg
does not exist". Built from the plan's typed gaps (planning/result.py), its holes (planning/holes.py) and what trying
each candidate showed (agent/holes.py); None when nothing plainer than the generic message can be said.
"""

from __future__ import annotations

import re
from pathlib import Path

from ..lang import tr
from ..planning.holes import as_written
from ..reading.quantities import find_paths

MAX_LISTED = 6


def listed(names, lang: str) -> str:
    """'a, b, c, …' (at most MAX_LISTED names)."""
    names = list(names)
    more = ", …" if len(names) > MAX_LISTED else ""
    sep = "、" if (lang or "").startswith("zh") else ", "
    return sep.join(names[:MAX_LISTED]) + more


def missing_files(request: str, infos) -> list[str]:
    """Files the request names that are neither loaded nor on disk (an output path after 'save to' is neither)."""
    from ..planning.plan import output_path_for

    out_path, _ = output_path_for(request, infos)
    known = {Path(la.path).name.lower() for la in infos if la.path} | {str(la.path).lower() for la in infos if la.path}
    out = []
    for path in find_paths(request):
        if path == out_path or path.lower() in known or Path(path).name.lower() in known:
            continue
        if not Path(path).expanduser().exists():
            out.append(path)
    return out


def plain_reason(request: str, decision, infos, tried, lang: str) -> str | None:
    """The plain sentence for a request tier 0 declines, or None to keep the generic one."""
    layers = [la.name for la in infos]
    files = missing_files(request, infos)
    if files:
        return tr("The file {path} does not exist. Load it, or check the path.", lang).format(path=files[0])
    for hole, trials in tried:
        if hole.kind != "layer":
            continue
        left = [set(t.left_words) for t in trials]
        unknown = sorted(set.intersection(*left)) if left else []
        if unknown:  # the same words stay unplaced whichever layer is chosen: they name a layer that is not loaded
            name = as_written(request, " ".join(unknown))
            return tr(
                "No layer '{name}' is loaded (loaded: {loaded}). Load it, or name one of the loaded layers.", lang
            ).format(name=name, loaded=listed(layers, lang))
        if len(hole.candidates) >= 2:
            return tr("The layer is not clear: it could be {choices}. Name the layer in the request.", lang).format(
                choices=listed(hole.candidates, lang)
            )
    gaps = getattr(decision.plan, "missing", None) or ()
    two = next((g for g in gaps if str(g).startswith("crs: several CRSs")), None)
    if two is not None:
        codes = str(two).split("(", 1)[1].split(")", 1)[0]
        where = listed([f"'{la.name}': {la.crs or '?'}" for la in infos if la.kind != "table"], lang)
        return tr(
            "The request names several CRSs ({codes}) and it is not clear which one the result should be in "
            "(the data: {where}). Say 'from … to …'.", lang
        ).format(codes=codes, where=where)
    if not infos and decision.plan is not None and _needs_layer(decision.plan):
        return tr("No layer is loaded. Load the data to work on, or name its file in the request.", lang)
    return None


def _needs_layer(plan) -> bool:
    return any(re.fullmatch(r"layer|points|polygons|lines|raster|input", str(g)) for g in plan.missing)


def plain_gaps(plan, lang: str) -> str:
    """The plan's gaps as plain phrases ('which layer', 'the distance', "what '93' stands for"), joined."""
    phrases = []
    for gap in plan.missing:
        kind, text = getattr(gap, "kind", None), str(gap)
        if kind == "param" and text in ("layer", "points", "polygons", "lines", "input", "overlay", "raster"):
            phrase = tr("which layer", lang)
        elif kind == "param" and text in ("distance", "radius", "eps"):
            phrase = tr("the distance (a number with its unit)", lang)
        elif kind == "param" and text in ("field", "fields", "by", "table_field"):
            phrase = tr("which field", lang)
        elif kind == "param" and text in ("crs", "target_crs", "to_crs"):
            phrase = tr("the target CRS", lang)
        elif kind == "param" and text == "expression":
            phrase = tr("the condition (a field, a comparison and a value)", lang)
        elif kind == "number":
            phrase = tr("what the number {number} stands for", lang).format(number=text.split(":", 1)[-1].strip())
        elif kind == "next_step":
            phrase = tr("how the steps follow each other", lang)
        elif kind == "selection":
            phrase = tr("which features '{words}' means", lang).format(words=text.split(":", 1)[-1].strip())
        elif kind == "words":
            phrase = tr("what '{words}' means", lang).format(words=", ".join(gap.subject))
        else:
            phrase = _detailed(kind, text.split(":", 1)[-1].strip() if ":" in text else text, lang)
        if phrase not in phrases:
            phrases.append(phrase)
    return "; ".join(phrases)


def _detailed(kind, detail: str, lang: str) -> str:
    """A gap of a kind whose text says more after 'kind:' ('field: population (...)'), as a plain phrase."""
    if kind == "field":
        return tr("which field is meant ({detail})", lang).format(detail=detail)
    if kind == "crs":
        return tr("which CRS is the target ({detail})", lang).format(detail=detail)
    if kind == "unit":
        return tr("the unit ({detail})", lang).format(detail=detail)
    if kind == "distance":
        return tr("the distance ({detail})", lang).format(detail=detail)
    if kind == "aggregation":
        return tr("the statistic ({detail})", lang).format(detail=detail)
    if kind == "format":
        return tr("the file format ({detail})", lang).format(detail=detail)
    if kind == "output_path":
        return tr("the output file ({detail})", lang).format(detail=detail)
    return detail
