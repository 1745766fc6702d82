"""The tier-0 plan in plain words, in the user's language: every tier-0 answer starts by saying what was done."""

from __future__ import annotations

from functools import lru_cache

from ..lang import tr

_ALIASES = {"qgis_buffer": "buffer", "qgis_reproject": "reproject", "qgis_clip": "clip", "qgis_dissolve": "dissolve",
            "qgis_centroids": "centroids", "qgis_extract_by_expression": "filter_by_expression",
            "qgis_count_points_in_polygon": "count_points_in_polygons"}  # fmt: skip


def _templates(lang: str) -> dict[str, str]:
    """Per tool, the sentence in `lang` (the core catalogue's tables) with {layer}, {overlay}, {distance}, {crs},
    {source}, {field}, {expression}, {top_n}, {by}."""
    return {
        "buffer": tr("Buffered {layer} by {distance}", lang),
        "reproject": tr("Reprojected {layer} from {source} to {crs}", lang),
        "reproject_same": tr("{layer} is already in {crs}; it was copied unchanged", lang),
        "clip": tr("Clipped {layer} to {overlay}", lang),
        "dissolve": tr("Dissolved {layer}{by}", lang),
        "centroids": tr("Computed the centroids of {layer}", lang),
        "filter_by_expression": tr("Kept the features of {layer} where {expression}", lang),
        "count_points_in_polygons": tr("Counted the {points} in each of {polygons}", lang),
        "geometry_area": tr("Measured the area of each feature of {layer}", lang),
        "geometry_length": tr("Measured the length of each feature of {layer}", lang),
        "select_rows": tr("Selected the {top_n} feature(s) of {layer} with the highest {field}", lang),
        "select_rows_low": tr("Selected the {top_n} feature(s) of {layer} with the lowest {field}", lang),
        "count_features": tr("Counted the features of {layer}", lang),
        "sort_by_field": tr("Sorted {layer} by {field}", lang),
        "within_distance": tr("Selected the {layer} within {distance} of {reference}", lang),
    }


def _generic(lang: str) -> str:
    return tr("Ran {tool} on {layer}{params}", lang)


@lru_cache(maxsize=64)
def crs_label(code: str | None) -> str:
    """'EPSG:4326 (WGS 84)'."""
    if not code:
        return "no CRS"
    try:
        from pyproj import CRS

        return f"{code} ({CRS.from_user_input(code).name})"
    except Exception:  # noqa: BLE001 - an unknown code is still worth saying
        return code


def _distance(metres) -> str:
    if not isinstance(metres, (int, float)):
        return str(metres)
    return f"{metres / 1000:g} km" if abs(metres) >= 1000 else f"{metres:g} m"


def say_plan(plan, lang: str = "en", layers=()) -> str:
    """One sentence: what tier 0 did, with the values it read ('Reprojected cafes from EPSG:32633 (…) to …')."""
    p = dict(plan.params)
    by_name = {la.name: la for la in layers or ()}
    key = _ALIASES.get(plan.tool, plan.tool)
    values = {k: (", ".join(map(str, v)) if isinstance(v, list) else v) for k, v in p.items()}
    first = p.get("layer") or p.get("polygons") or p.get("input") or p.get("raster") or p.get("before") or ""
    values.setdefault("layer", first)  # raster tools name theirs 'raster' or 'before'/'after'

    if "distance" in p:
        values["distance"] = _distance(p["distance"])
    if key == "reproject":
        layer = by_name.get(p.get("layer", ""))
        source = layer.crs if layer is not None else None
        values["source"], values["crs"] = crs_label(source), crs_label(p.get("crs"))
        if source and p.get("crs") and source.upper() == str(p["crs"]).upper():
            key = "reproject_same"
    if key == "select_rows" and p.get("ascending") is True:
        key = "select_rows_low"
    if key == "dissolve":
        fields = p.get("fields") or ([p["field"]] if p.get("field") else [])
        joined = tr(", ", lang).join(fields)
        values["by"] = tr(" by {fields}", lang).format(fields=joined) if fields else ""
    template = _templates(lang).get(key)
    if template is None:
        shown = {k: v for k, v in values.items() if k != "layer" and v != values["layer"]}
        params = ", ".join(f"{k}={v}" for k, v in shown.items())
        values["params"] = f" ({params})" if params else ""
        values["tool"] = plan.tool
        template = _generic(lang)
    try:
        text = template.format(**values)
    except KeyError:  # a template naming a value this plan lacks: the generic sentence still says it
        params = ", ".join(f"{k}={v}" for k, v in values.items() if k != "layer")
        text = _generic(lang).format(tool=plan.tool, layer=values["layer"], params=f" ({params})" if params else "")
    return text + tr(".", lang)
