"""Questions instead of declines: a plan's holes (planning/holes.py) asked as one closed question, and the answer
resumed through every tier-0 reading and check (issue 25; SPEC.md's `status: "ask"` and `--answer ID=CHOICE`).

A question is asked only when its answer completes the plan: each candidate is tried by re-reading the request with
it (the router's whole plan filler, every word explained), and only candidates that give a complete plan, on the
function route and above the tier-0 threshold, become choices. So no choice hides a plan tier 0 would not run, and
an answered question runs exactly as a request that said it in words would (agent/checks.py included).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import ValidationError
from ..lang import tr
from ..planning.holes import Hole, holes_of


@dataclass
class Trial:
    """One candidate tried: the plan it gives and the words still unexplained with it."""

    choice: str
    complete: bool
    left_words: tuple = ()


def _spec(router, decision):
    plan = decision.plan
    specs = getattr(router, "specs", {}) or {}
    return specs.get(plan.tool) if plan is not None else None


def resumed(router, request: str, infos, hole: Hole, choice: str, previous=None, given=None):
    """The router's decision for `request` with `choice` filled into `hole` (and the parameters of earlier answers,
    `given`), and the text it read."""
    text = hole.rewrite(request, choice)
    return router.route(text, infos, previous=previous, given={**(given or {}), **hole.given(choice)}), text


def _runs_at_tier0(decision, tool: str, threshold: float) -> bool:
    plan = decision.plan
    return (
        decision.route == "function"
        and plan is not None
        and plan.complete
        and plan.tool == tool  # the answer fills the hole of this plan; a plan of another tool is another question
        and decision.confidence >= threshold
    )


def try_hole(router, request: str, infos, decision, hole: Hole, threshold: float, previous=None, given=None) -> list:
    """Each candidate of `hole` tried on the request (with the parameters of earlier answers, `given`)."""
    trials = []
    for choice in hole.candidates:
        again, _ = resumed(router, request, infos, hole, choice, previous, given)
        words = tuple(w for g in again.plan.missing if getattr(g, "kind", "") == "words" for w in g.subject) if (
            again.plan is not None) else ()  # fmt: skip
        trials.append(Trial(choice, _runs_at_tier0(again, decision.plan.tool, threshold), words))
    return trials


def find_question(router, request: str, infos, decision, threshold: float, previous=None, given=None):
    """(hole, choices, trials of every hole) for the first hole whose answer completes the plan, else (None, [], …)."""
    spec = _spec(router, decision)
    tried = []
    for hole in holes_of(decision.plan, spec, infos, request):
        trials = try_hole(router, request, infos, decision, hole, threshold, previous, given)
        tried.append((hole, trials))
        choices = [t.choice for t in trials if t.complete]
        if choices:
            return hole, choices, tried
    return None, [], tried


def question_json(hole: Hole, choices: list[str], lang: str) -> dict:
    """The contract's question: {"id", "kind", "text", "choices"}, its text in the request's language."""
    return {"id": hole.id, "kind": hole.kind, "text": question_text(hole, lang), "choices": list(choices)}


def question_text(hole: Hole, lang: str) -> str:
    """One short question in the user's language."""
    if hole.kind == "reading":
        a, b = hole.candidates[:2]
        return tr("'{a}' and '{b}' are named alike. Which one is meant as {role}?", lang).format(
            a=a, b=b, role=_role(hole.fills, lang)
        )
    if hole.kind == "crs":
        from ..planning.say import crs_label

        return tr("'{layer}' is in {source}. Which CRS should the result be in: {choices}?", lang).format(
            layer=hole.layer, source=crs_label(hole.source), choices=" / ".join(crs_label(c) for c in hole.candidates)
        )
    if hole.kind == "field" and hole.words:
        return tr("'{word}' is not a field of '{layer}'. Which field do you mean?", lang).format(
            word=hole.words, layer=hole.layer
        )
    if hole.kind == "field" and hole.fills == "by":
        return tr("Group '{layer}' by which field?", lang).format(layer=hole.layer)
    if hole.kind == "field":
        return tr("Which field of '{layer}' do you mean?", lang).format(layer=hole.layer)
    if hole.fills in ("points", "lines", "polygons"):
        return tr("Which layer is meant as {role}?", lang).format(role=_role(hole.fills, lang))
    return tr("Which layer do you mean?", lang)


def _role(param: str, lang: str) -> str:
    """A layer parameter's role in plain words ('points' → 'the points')."""
    if param == "points":
        return tr("the points", lang)
    if param == "polygons":
        return tr("the areas", lang)
    if param == "lines":
        return tr("the lines", lang)
    return f"'{param}'"


def parse_answers(pairs) -> dict[str, str]:
    """`--answer ID=CHOICE` strings (repeatable) as {id: choice}; a malformed one is a usage error."""
    out = {}
    for pair in pairs or ():
        key, sep, value = str(pair).partition("=")
        if not sep or not key.strip() or not value.strip():
            raise ValidationError(f"--answer {pair!r} is not ID=CHOICE.", fix="For example --answer layer=cafes.")
        out[key.strip()] = value.strip()
    return out


def apply_answers(router, request: str, infos, decision, answers: dict, threshold: float, previous=None):
    """The decision resumed with the user's answers, the text it read, and notes saying what was chosen.

    Each answer names a question the request (resumed with the answers before it) asks, by its id, and one of its
    candidates, or any loaded layer or field name of the right kind typed freely (the dock's text field); anything
    else is a ValidationError naming the questions or the choices. Several answers are applied one after another,
    each to the plan the previous ones completed."""
    text, notes, given, pending = request, [], {}, dict(answers)
    while pending:
        holes = {h.id: h for h in holes_of(decision.plan, _spec(router, decision), infos, text)}
        key = next((k for k in pending if k in holes), None)
        if key is None:
            unknown = next(iter(pending))
            asked = ", ".join(holes) or tr("none")
            raise ValidationError(
                tr("This request asks no question '{id}' (its questions: {asked}).").format(id=unknown, asked=asked),
                fix=tr("Run it without --answer to see its questions."),
            )
        hole = holes[key]
        choice = _choice(hole, pending.pop(key), infos)
        decision, text = resumed(router, text, infos, hole, choice, previous, given)
        given.update(hole.given(choice))
        notes.append(tr("Your answer: {id} = {choice}.").format(id=key, choice=choice))
    return decision, text, notes, given


def _choice(hole: Hole, value: str, infos) -> str:
    """The candidate the answer names (case-insensitive), or a loaded name of the hole's kind typed freely."""
    names = list(hole.candidates)
    if hole.kind in ("layer", "reading"):
        names += [la.name for la in infos if la.name not in names]
    elif hole.kind == "field":
        layer = next((la for la in infos if la.name == hole.layer), None)
        names += [f.name for f in (layer.fields if layer else []) if f.name not in names]
    for name in names:
        if name.lower() == value.strip().lower():
            return name
    raise ValidationError(
        tr("'{value}' is not one of the choices for {id}: {choices}.").format(
            value=value, id=hole.id, choices=", ".join(hole.candidates)
        ),
        fix=tr("Answer with one of the choices."),
    )
