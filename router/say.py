"""The tier-0 plan in plain words, in the user's language: every tier-0 answer starts by saying what was done."""

from __future__ import annotations

from functools import lru_cache

# Per tool: (en, de, zh) with {layer}, {overlay}, {distance}, {crs}, {source}, {field}, {expression}, {n}.
TEMPLATES = {
    "buffer": ("Buffered {layer} by {distance}", "{layer} um {distance} gepuffert", "已将{layer}缓冲{distance}"),
    "reproject": (
        "Reprojected {layer} from {source} to {crs}",
        "{layer} von {source} nach {crs} umprojiziert",
        "已将{layer}从{source}投影转换到{crs}",
    ),
    "reproject_same": (
        "{layer} is already in {crs}; it was copied unchanged",
        "{layer} liegt bereits in {crs}; es wurde unverändert kopiert",
        "{layer}已经是{crs}，仅复制了一份",
    ),
    "clip": ("Clipped {layer} to {overlay}", "{layer} auf {overlay} zugeschnitten", "已用{overlay}裁剪{layer}"),
    "dissolve": ("Dissolved {layer}{by}", "{layer}{by} aufgelöst", "已融合{layer}{by}"),
    "centroids": ("Computed the centroids of {layer}", "Schwerpunkte von {layer} berechnet", "已计算{layer}的质心"),
    "filter_by_expression": (
        "Kept the features of {layer} where {expression}",
        "Objekte von {layer} behalten, für die {expression} gilt",
        "已筛选{layer}中满足 {expression} 的要素",
    ),
    "count_points_in_polygons": (
        "Counted the {points} in each of {polygons}",
        "{points} in jedem Objekt von {polygons} gezählt",
        "已统计{polygons}每个面内的{points}数量",
    ),
    "geometry_area": (
        "Measured the area of each feature of {layer}",
        "Fläche jedes Objekts von {layer} gemessen",
        "已计算{layer}每个要素的面积",
    ),  # fmt: skip
    "geometry_length": (
        "Measured the length of each feature of {layer}",
        "Länge jedes Objekts von {layer} gemessen",
        "已计算{layer}每个要素的长度",
    ),  # fmt: skip
    "select_rows": (
        "Selected the {top_n} feature(s) of {layer} with the {order} {field}",
        "Die {top_n} Objekte von {layer} mit dem {order_de} Wert von {field} ausgewählt",
        "已选出{layer}中{field}{order_zh}的{top_n}个要素",
    ),
    "count_features": ("Counted the features of {layer}", "Objekte von {layer} gezählt", "已统计{layer}的要素数量"),
    "sort_by_field": ("Sorted {layer} by {field}", "{layer} nach {field} sortiert", "已按{field}对{layer}排序"),
    "within_distance": (
        "Selected the {layer} within {distance} of {reference}",
        "{layer} im Umkreis von {distance} um {reference} ausgewählt",
        "已选出{reference}周围{distance}以内的{layer}",
    ),
}
GENERIC = ("Ran {tool} on {layer}{params}", "{tool} auf {layer} ausgeführt{params}", "已对{layer}执行{tool}{params}")
_LANGS = ("en", "de", "zh")
_ALIASES = {"qgis_buffer": "buffer", "qgis_reproject": "reproject", "qgis_clip": "clip", "qgis_dissolve": "dissolve",
            "qgis_centroids": "centroids", "qgis_extract_by_expression": "filter_by_expression",
            "qgis_count_points_in_polygon": "count_points_in_polygons"}  # fmt: skip


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
    i = _LANGS.index(lang) if lang in _LANGS else 0
    p = dict(plan.params)
    by_name = {la.name: la for la in layers or ()}
    key = _ALIASES.get(plan.tool, plan.tool)
    values = {k: (", ".join(map(str, v)) if isinstance(v, list) else v) for k, v in p.items()}
    values.setdefault("layer", p.get("layer") or p.get("polygons") or p.get("input") or "")
    if "distance" in p:
        values["distance"] = _distance(p["distance"])
    if key == "reproject":
        layer = by_name.get(p.get("layer", ""))
        source = layer.crs if layer is not None else None
        values["source"], values["crs"] = crs_label(source), crs_label(p.get("crs"))
        if source and p.get("crs") and source.upper() == str(p["crs"]).upper():
            key = "reproject_same"
    if key == "select_rows":
        low = p.get("ascending") is True
        values["order"], values["order_de"] = ("lowest", "niedrigsten") if low else ("highest", "höchsten")
        values["order_zh"] = "最低" if low else "最高"
    if key == "dissolve":
        fields = p.get("fields") or ([p["field"]] if p.get("field") else [])
        values["by"] = (
            (f" by {', '.join(fields)}", f" nach {', '.join(fields)}", f"（按{'、'.join(fields)}）")[i]
            if fields
            else ""
        )
    template = TEMPLATES.get(key)
    if template is None:
        shown = {k: v for k, v in values.items() if k not in ("layer",)}
        params = ", ".join(f"{k}={v}" for k, v in shown.items())
        values["params"] = f" ({params})" if params else ""
        values["tool"] = plan.tool
        template = GENERIC
    try:
        text = template[i].format(**values)
    except KeyError:  # a template naming a value this plan lacks: the generic sentence still says it
        params = ", ".join(f"{k}={v}" for k, v in values.items() if k != "layer")
        text = GENERIC[i].format(tool=plan.tool, layer=values["layer"], params=f" ({params})" if params else "")
    return text + ("。" if i == 2 else ".")
