"""One request, read once: its text, language, folded form and the mentions every reader shares.

The router builds a Request per request (Router.route) and hands it to the plan filler, the leftover-cue check
(consume.py) and the whitelist (explain.py), so the layer mentions, numbers, distances, CRSs, paths and the asked
output format are found once and every reader sees the same spans. Readers take what they use from here; what
no reader claims is what explain.py reports as not understood.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from ..function_lib.describe import LayerInfo
from .conditions import conditions_as_written
from .crs import crs_mentions
from .quantities import find_distances, find_paths, output_format
from .schema_match import find_layers
from .text import detect_lang, find_numbers, fold


@dataclass
class Request:
    text: str
    layers: list = field(default_factory=list)
    lang: str = "en"
    folded: str = ""
    mentions: list = field(default_factory=list)  # the layers named in the text (schema_match.Mention)
    _conditions: dict = field(default_factory=dict, repr=False)  # layer name -> conditions as written

    @classmethod
    def read(cls, text: str, layers=None, lang: str | None = None, mentions=None) -> Request:
        """`text` over `layers`; with no layers in play, the file names written in the text stand in for them."""
        folded = fold(text)
        layers = list(layers or [])
        if not layers:
            layers, mentions = paths_as_layers(text), None
        if mentions is None:
            mentions = find_layers(folded, layers) if layers else []
        return cls(text=text, layers=layers, lang=lang or detect_lang(text), folded=folded, mentions=list(mentions))

    @cached_property
    def by_name(self) -> dict:
        return {la.name: la for la in self.layers}

    @cached_property
    def mention_spans(self) -> list[tuple[int, int]]:
        return [(m.start, m.end) for m in self.mentions]

    @cached_property
    def masked_folded(self) -> str:
        """The folded text with the layer mentions blanked (offsets kept): a layer's name is no field or value."""
        return mask(self.folded, self.mention_spans)

    @cached_property
    def masked_text(self) -> str:
        """The same over the original text (its capitals name values), when folding kept the length."""
        return mask(self.text, self.mention_spans) if len(self.text) == len(self.folded) else self.masked_folded

    def conditions_as_written(self, layer) -> list:
        """The comparisons and equalities on `layer`'s fields, before exception markers scope them (read once per
        layer: the plan filler and explain.py see the same conditions)."""
        if layer.name not in self._conditions:
            skip = [(d.start, d.end) for d in self.distances]
            self._conditions[layer.name] = conditions_as_written(self.masked_text, layer, self.lang, skip)
        return self._conditions[layer.name]

    @cached_property
    def numbers(self) -> list:
        return find_numbers(self.folded, self.lang)

    @cached_property
    def distances(self) -> list:
        return find_distances(self.folded, self.lang)

    @cached_property
    def crs(self) -> list:
        """(start, end, code) of each CRS named."""
        return crs_mentions(self.folded)

    @cached_property
    def paths(self) -> list[str]:
        return find_paths(self.text)

    @cached_property
    def format_asked(self):
        """The output format asked ('as GeoJSON', '导出为CSV'): quantities.FormatAsked, or None."""
        return output_format(self.folded)


def mask(text: str, spans) -> str:
    """Blank out spans keeping offsets."""
    chars = list(text)
    for s, e in spans:
        chars[s:e] = " " * (e - s)
    return "".join(chars)


def paths_as_layers(text: str) -> list[LayerInfo]:
    """When no layers are in play, the file names written in the text stand in for them."""
    out = []
    for path in find_paths(text):
        kind = "raster" if path.lower().endswith((".tif", ".tiff", ".asc")) else "vector"
        out.append(LayerInfo(name=path, path=path, kind=kind))
    return out
