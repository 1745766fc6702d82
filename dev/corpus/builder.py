"""Scenario builder: picks layers and slot phrases for one request and knows which parameter each slot labels."""

from __future__ import annotations

import re

from . import phrases
from .layers import ANY, ARCHETYPES, NUMERIC, Field, Layer, archetypes_for, make_layer, make_raster, make_table
from .native import nativise
from .typos import add_typo

NAME_TYPO_RATE = 0.04
SLOT = re.compile(r"\{(\w+)\}")
WITH_CATEGORIES = {k for k, v in ARCHETYPES.items() if any(f.values for f in v[3])}
WITH_NUMBERS = {k for k, v in ARCHETYPES.items() if any(f.type in NUMERIC for f in v[3])}


def template_slots(template: str) -> set[str]:
    return set(SLOT.findall(template))


class Builder:
    """Collects the layer context, the slot texts and the labelled params of one generated request."""

    def __init__(self, rng, lang: str, slots: set[str]):
        self.rng, self.lang, self.want = rng, lang, slots
        self.layers: list[Layer] = []
        self.slots: dict[str, str] = {}
        self.pmap: dict[str, tuple[str | None, object]] = {}
        self.implied: str | None = None  # a field meaning the wording implies, like "population"
        self.layer_params: dict[str, str] = {}  # layer param -> slot
        self.fits: dict[str, object] = {}  # layer param -> which loaded layers could fill it
        self.accepts: dict[str, set] = {}  # layer param -> the layer kinds/geometries it takes

    # ----- layers -----
    def _add(self, layer: Layer, param: str | None, slot: str, geoms=None) -> Layer:
        self.layers.append(layer)
        mention = phrases.layer_mention(self.rng, self.lang, layer)
        if self.lang == "en" and mention == layer.name and len(mention) > 5 and self.rng.random() < NAME_TYPO_RATE:
            mention = add_typo(self.rng, mention)  # "shcools": the label keeps the real name
        self.slots[slot] = mention
        if param:
            self.pmap[param] = (slot, layer.name)
            self.layer_params[param] = slot
            kind = layer.kind
            self.fits[param] = lambda lyr: lyr.kind == kind and (geoms is None or lyr.geometry_type in geoms)
            self.accepts[param] = {kind} if geoms is None else {f"{kind}:{g}" for g in geoms}
        return layer

    def layer(
        self,
        param: str | None = "layer",
        slot: str = "layer",
        geoms=ANY,
        archetypes=None,
        crs=None,
        numeric=False,
        category=False,
    ) -> Layer:
        """A vector layer of a fitting archetype not already in the context (with a number field if `numeric`)."""
        used = {lyr.archetype for lyr in self.layers}
        fits = [a for a in (archetypes or archetypes_for(geoms)) if not numeric or a in WITH_NUMBERS]
        fits = [a for a in fits if not category or a in WITH_CATEGORIES] or fits
        if self.implied and param == "layer":  # the wording implies a field ("most populous" -> population)
            fits = [a for a in archetypes_for(geoms) if any(f.meaning == self.implied for f in ARCHETYPES[a][3])]
        pool = [a for a in fits if a not in used] or fits
        lyr = make_layer(self.rng, self.rng.choice(sorted(pool)), geoms, crs)
        state = self.rng.getstate()[1]  # a seed for this row and layer that draws nothing from self.rng
        nativise(f"{self.lang}|{state[0]}|{state[1]}|{state[-1]}|{len(self.layers)}", lyr, self.lang)
        return self._add(lyr, param, slot, geoms)

    def table(self, param: str | None, slot: str, key: str = "census_table") -> Layer:
        return self._add(make_table(self.rng, key), param, slot)

    def raster(self, param: str | None = "raster", slot: str = "raster", key: str | None = None) -> Layer:
        return self._add(make_raster(self.rng, key), param, slot)

    # ----- fields and values -----
    def pick_field(self, layer: Layer, want: str = "numeric", meanings=None) -> Field:
        def ok(f: Field) -> bool:
            if f.meaning == "fid" or (meanings and f.meaning not in meanings):
                return False
            if want == "comparable":  # numbers, categories, and names compared for equality
                named = f.type == "string" and f.meaning == "name" and bool(f.samples)
                return f.numeric or bool(f.categories) or named
            if want == "numeric":
                return f.numeric
            if want == "category":
                return bool(f.categories)
            if want == "string":
                return f.type == "string"
            return True

        pool = [f for f in layer.fields if ok(f)] or [f for f in layer.fields if f.meaning != "fid"]
        return self.rng.choice(pool)

    def field(
        self,
        param: str | None,
        layer: Layer,
        slot: str = "field",
        want: str = "numeric",
        array=False,
        f: Field | None = None,
    ) -> Field:
        f = f or self.pick_field(layer, want)
        self.slots[slot] = phrases.field_mention(self.rng, self.lang, layer, f)
        if param:
            self.pmap[param] = (slot, [f.name] if array else f.name)
        return f

    def category_value(self, param: str | None, layer: Layer, f: Field, slot: str = "value") -> str:
        value = self.rng.choice(f.categories)
        self.slots[slot] = value
        if param:
            self.pmap[param] = (slot, value)
        return value

    def condition(self, param: str, layer: Layer, slot: str = "cond", compound: float = 0.15) -> str:
        """A condition phrase (sometimes two joined by and/or) labelled with its expression."""
        f = self.pick_field(layer, "comparable")
        text, expr = phrases.comparison(self.rng, self.lang, f, phrases.field_mention(self.rng, self.lang, layer, f))
        others = [g for g in layer.fields if g is not f and (g.numeric or g.categories) and g.meaning != "fid"]
        if others and self.rng.random() < compound:
            g = self.rng.choice(others)
            t2, e2 = phrases.comparison(self.rng, self.lang, g, phrases.field_mention(self.rng, self.lang, layer, g))
            word = {"en": "and", "zh": "并且", "de": "und"}[self.lang]
            text, expr = f"{text} {word} {t2}", f"{expr} AND {e2}"
        self.slots[slot] = text
        self.pmap[param] = (slot, expr)
        return expr

    # ----- quantities -----
    def distance(self, param: str = "distance", slot: str = "dist", small: bool = False) -> float:
        text, value = phrases.distance(self.rng, self.lang, small)
        self.slots[slot] = text
        self.pmap[param] = (slot, value)
        return value

    def integer(self, param: str, slot: str = "n", choices=(2, 3, 4, 5, 6, 7, 8, 10, 12, 20)) -> int:
        text, value = phrases.small_int(self.rng, self.lang, choices)
        self.slots[slot] = text
        self.pmap[param] = (slot, value)
        return value

    def number(self, param: str, slot: str, choices) -> float:
        value = self.rng.choice(list(choices))
        self.slots[slot] = phrases.number_text(self.rng, self.lang, value)
        self.pmap[param] = (slot, value)
        return value

    def crs(self, param: str = "crs", slot: str = "crs", avoid: str | None = None) -> str:
        text, code = phrases.crs(self.rng, self.lang, avoid)
        self.slots[slot] = text
        self.pmap[param] = (slot, code)
        return code

    def fmt(self, param: str = "format", slot: str = "fmt", allowed=None) -> str:
        text, code = phrases.output_format(self.rng, self.lang, allowed)
        self.slots[slot] = text
        self.pmap[param] = (slot, code)
        return code

    def text(self, param: str | None, slot: str, value, text: str | None = None):
        self.slots[slot] = text if text is not None else str(value)
        if param:
            self.pmap[param] = (slot, value)
        return value

    # ----- result -----
    def finish(self, constants: dict, required: tuple, no_context: bool = False) -> tuple[list, dict | None]:
        """The layer context (with distractors when every layer is named) and the labelled params or None.

        With `no_context` nothing is loaded: the request still names its tool, but no layer parameter
        can be filled, so the plan is incomplete whenever the tool needs a layer.
        """
        params = {p: v for p, (slot, v) in self.pmap.items() if self._present(slot)}
        for key, value in constants.items():
            if isinstance(value, str) and value.startswith("@"):  # "@population": the main layer's field
                value = self._field_of(value[1:])
            params[key] = value
        if no_context and self.layer_params:
            return [], None
        named_all = all(slot in self.want for slot in self.layer_params.values())
        if named_all and self.layers and self.rng.random() < 0.6:
            self._distractors()
        self._implicit_layers(params)
        complete = all(any(q in params for q in p) if isinstance(p, tuple) else p in params for p in required)
        return [lyr.to_json() for lyr in self.layers], (params if complete else None)

    def _field_of(self, meaning: str) -> str:
        main = next(lyr for lyr in self.layers if lyr.name == self.pmap["layer"][1])
        return next(f.name for f in main.fields if f.meaning == meaning)

    def _implicit_layers(self, params: dict) -> None:
        """A layer param the text leaves out is the one loaded layer that fits it, when only one does.

        Only the main (first) layer param, or one whose geometry sets it apart from the tool's other layer
        params (points vs polygons, vector vs raster), is filled this way: "clip the schools" names no
        clip layer, while "how many houses are in each zone?" leaves no doubt which layer holds the zones.
        """
        taken = set()
        for p in self.layer_params:
            value = params.get(p)
            taken.update(value if isinstance(value, list) else [value] if value else [])
        for p in self.layer_params:
            if p in params or p not in self.fits:
                continue
            others = [self.accepts[q] for q in self.accepts if q != p]
            if p != next(iter(self.layer_params)) and any(self.accepts[p] & acc for acc in others):
                continue
            fits = [lyr for lyr in self.layers if lyr.name not in taken and self.fits[p](lyr)]
            if len(fits) == 1:
                params[p] = fits[0].name
                taken.add(fits[0].name)

    def _present(self, slot) -> bool:
        if slot is None:
            return True
        return all(s in self.want for s in slot) if isinstance(slot, tuple) else slot in self.want

    def _distractors(self):
        used = {lyr.archetype for lyr in self.layers}
        names = {lyr.name for lyr in self.layers}
        for _ in range(self.rng.randint(1, 2)):
            pool = sorted(a for a in ARCHETYPES if a not in used)
            arche = self.rng.choice(pool)
            lyr = make_layer(self.rng, arche)
            if lyr.name not in names:
                self.layers.insert(self.rng.randint(0, len(self.layers)), lyr)
                used.add(arche)
                names.add(lyr.name)

    def fill(self, template: str) -> str:
        return SLOT.sub(lambda m: self.slots.get(m.group(1), m.group(0)), template)


def numeric_fields(layer: Layer) -> list[Field]:
    return [f for f in layer.fields if f.type in NUMERIC and f.meaning != "fid"]
