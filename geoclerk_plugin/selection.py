"""'Select the districts with …' as QGIS's own selection: the features of the user's layer that a subset result
kept are selected on that layer, instead of a new layer being added (planning/followup.py wants_selection).

A result is matched back to its input by the input's attribute values (a subset tool keeps them); the selection
is made only when every result feature matches exactly one input feature of the same values, so nothing is
selected that the result did not keep. Otherwise the caller adds the result as a layer, as before.
"""

from __future__ import annotations

from collections import Counter

from qgis.core import QgsVectorLayer


def _key(feature, names: list[str]) -> tuple:
    return tuple(None if feature[n] is None or str(feature[n]) == "NULL" else str(feature[n]) for n in names)


def select_like(layer: QgsVectorLayer, result_path: str) -> int | None:
    """Select on `layer` the features `result_path` kept; the count selected, or None (nothing changed) when
    the result cannot be matched back feature for feature."""
    result = QgsVectorLayer(result_path, "result", "ogr")
    if not result.isValid() or not isinstance(layer, QgsVectorLayer):
        return None
    keys = {layer.fields().at(i).name() for i in layer.primaryKeyAttributes()} | {"fid", "ogc_fid"}
    # the values the user's data carries, not the file's own feature ids (a written result numbers them anew)
    names = [f.name() for f in layer.fields() if result.fields().indexOf(f.name()) >= 0 and f.name() not in keys]
    if not names:
        return None
    wanted = Counter(_key(f, names) for f in result.getFeatures())
    by_key: dict[tuple, list[int]] = {}
    for f in layer.getFeatures():
        by_key.setdefault(_key(f, names), []).append(f.id())
    ids = []
    for key, n in wanted.items():
        found = by_key.get(key, [])
        if len(found) != n:  # values that do not tell the features apart, or a feature the input lacks
            return None
        ids += found
    layer.selectByIds(ids)
    return len(ids)
