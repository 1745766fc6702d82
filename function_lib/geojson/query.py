"""GeoPandas tools for query and retrieval: select, filter by expression, spatial join, sort, coordinates."""

from __future__ import annotations

import re

from ...errors import ValidationError
from ...lang import tr
from ..context import RunContext, ToolResult
from ..io import aligned, checked_layer, note_if_disjoint, run_validated
from ..metric import apply_per_zone
from ..spec import Param, ToolSpec
from ._base import LAYER, tool_list, vector_result

TOOLS, tool = tool_list()


@tool(
    ToolSpec(
        name="select_rows",
        half="geojson",
        category="query",
        paper_name="SelectRowsFromGeoDataFrame",
        purpose="Select features where field = value, or the top N by a field.",
        params=(
            LAYER,
            Param("field", "field", "Field to match or rank by", required=False, of_layer="layer"),
            Param("value", "value", "Value the field must equal", required=False, of_layer="layer"),
            Param("top_n", "integer", "Keep this many features", required=False, minimum=1),
            Param("ascending", "boolean", "Rank smallest first", required=False, default=False),
        ),
        returns="A new layer with the selected features.",
        examples=({"layer": "countries", "field": "pop_est", "top_n": 5},),
        keywords=("select", "top", "largest", "where equals", "first"),
    )
)
def select_rows(
    ctx: RunContext,
    layer: str,
    field: str | None = None,
    value: str | None = None,
    top_n: int | None = None,
    ascending: bool = False,
) -> ToolResult:
    gdf = checked_layer(ctx, layer, repair=False)
    if value is not None and field is None:
        raise ValidationError("A value to select needs the field it belongs to.", fix="Give field as well as value.")
    if value is None and top_n is None:
        raise ValidationError("Say what to select: a field and value, or top_n.", fix="For example top_n=5 with field.")
    out, what = gdf, []
    if value is not None:
        out = out[_equals(out[field], value)]
        what.append(f"{field} = {value!r}")
    if top_n is not None:
        if field is not None and value is None:
            ranked = _numeric_if_possible(out[field])
            order = ranked.sort_values(ascending=ascending, na_position="last", kind="stable").index[:top_n]
            out = out.loc[order]
            ranking = tr("lowest {n} by {field}") if ascending else tr("highest {n} by {field}")
            what.append(ranking.format(n=top_n, field=field))
        else:
            out = out.head(top_n)
            what.append(tr("first {n}").format(n=top_n))
    condition = tr(" and ").join(what)
    if len(out) == 0:
        ctx.note(tr("No feature of '{layer}' matched {condition}.").format(layer=layer, condition=condition))
    said = tr("Selected {condition} from '{layer}'").format(condition=condition, layer=layer)
    result = vector_result(ctx, out, f"{layer}_selected", said, len(gdf))
    named = _named(out, field)
    if named and top_n is not None and len(out) <= 10:  # 'which district has the highest income?' names it
        result.answer = f"{result.summary.rstrip('.。')}: {named}" + tr(".")
    return result


def _named(gdf, field: str | None) -> str:
    """'Westpark (42,000), Nordend (39,500)': the features by their name field, with the ranked value."""
    names = [
        c
        for c in gdf.columns
        if c.lower() in ("name", "name_en", "nom", "nombre", "title") or c.lower().endswith("_name")
    ]
    if not names or len(gdf) == 0:
        return ""
    parts = []
    for _, row in gdf.iterrows():
        value = row[field] if field and field in gdf.columns and field != names[0] else None
        parts.append(f"{row[names[0]]}" + (f" ({value})" if value is not None else ""))
    return ", ".join(parts)


def _numeric_if_possible(series):
    import pandas as pd

    if pd.api.types.is_numeric_dtype(series):
        return series
    numbers = pd.to_numeric(series, errors="coerce")
    return numbers if numbers.notna().sum() == series.notna().sum() else series


def _equals(series, value):
    """Rows where the field equals value: numbers compare as numbers, text case-insensitively as a fallback."""
    import pandas as pd

    text = str(value)
    number = pd.to_numeric(pd.Series([text]), errors="coerce").iloc[0]
    if pd.notna(number):
        mask = pd.to_numeric(series, errors="coerce") == number
        if mask.any():
            return mask.fillna(False)
    as_text = series.astype("string")
    mask = (as_text == text).fillna(False)
    if not mask.any():
        mask = (as_text.str.lower() == text.lower()).fillna(False)
    return mask.astype(bool)


@tool(
    ToolSpec(
        name="filter_by_expression",
        half="geojson",
        category="query",
        paper_name="FilterRowsByExpression",
        purpose="Keep features where an expression is true.",
        when="Syntax: pop > 1000 and state = 'PA', \"type\" IN ('a','b'), name LIKE 'A%', x IS NULL, BETWEEN.",
        params=(LAYER, Param("expression", "expression", "Condition on fields")),
        returns="A new layer with the matching features.",
        # No Processing equivalent on purpose: the expression language is GeoClerk's own (string-typed
        # numbers compare as numbers, Python-style operators work), which QGIS's engine reads differently.
        examples=({"layer": "cities", "expression": "population > 100000 and state = 'PA'"},),
        keywords=("filter", "where", "extract by attribute", "query"),
    )
)
def filter_by_expression(ctx: RunContext, layer: str, expression: str) -> ToolResult:
    from ..expression import filter_mask

    gdf = checked_layer(ctx, layer, repair=False)
    _check_excluded_values(gdf, expression)
    out = gdf[filter_mask(expression, gdf)]
    if len(out) == 0:
        ctx.note(
            tr("No feature of '{layer}' matched {condition}.").format(layer=layer, condition=expression)
            + _value_hint(gdf, expression)
        )
    said = tr("Filtered '{layer}' by {expression}").format(layer=layer, expression=expression)
    return vector_result(ctx, out, f"{layer}_filtered", said, len(gdf))


_QUOTED = r"'((?:[^']|'')*)'"
_EXCLUDES = (
    re.compile(r'"([^"]+)"\s*(?:!=|<>)\s*' + _QUOTED),  # "surface" != 'gravel'
    re.compile(r'\bnot\s+"([^"]+)"\s*=\s*' + _QUOTED, re.IGNORECASE),  # NOT "surface" = 'gravel'
)
_NOT_IN = re.compile(r'"([^"]+)"\s+not\s+in\s*\(([^)]*)\)', re.IGNORECASE)


def _check_excluded_values(gdf, expression: str) -> None:
    """A text value the condition excludes must be a value of the field: 'the paths whose surface is not 沥青' on a
    field of 'asphalt', 'gravel', 'dirt' would keep every feature and look right. Raised, with the field's values."""
    import pandas as pd

    pairs = [(f, v.replace("''", "'")) for rx in _EXCLUDES for f, v in rx.findall(expression)]
    for field, listed in _NOT_IN.findall(expression):
        pairs += [(field, v.replace("''", "'")) for v in re.findall(_QUOTED, listed)]
    for field, value in pairs:
        if field not in gdf.columns or pd.api.types.is_numeric_dtype(gdf[field]):
            continue
        values = _text_values(gdf, field)
        if value in values:  # matched exactly (as the filter compares): 'pa' excludes nothing of 'PA'
            continue
        shown = ", ".join(f"'{v}'" for v in sorted(values)[:12]) + (" …" if len(values) > 12 else "")
        raise ValidationError(
            tr("'{value}' is not a value of the field {field}, so excluding it would keep every feature.").format(
                value=value, field=field
            ),
            fix=tr("Use one of its values: {values}.").format(values=shown),
        )


def _text_values(gdf, field: str) -> list[str]:
    """The field's distinct values as text (the first 10,000), as a quoted value in an expression is compared."""
    return [str(v) for v in gdf[field].dropna().unique()[:10000]]


def _value_hint(gdf, expression: str) -> str:
    """' Did you mean 'Bibb'?' when a quoted value compared to a field is not among its values but one is close
    (another case, a typo): values are matched exactly, so 'bibb' finds nothing."""
    import difflib

    hints = []
    for field, value in re.findall(r'"([^"]+)"\s*(?:=|!=|<>)\s*' + _QUOTED, expression):
        if field not in gdf.columns:
            continue
        values = _text_values(gdf, field)
        if value in values:
            continue
        same_case = [v for v in values if v.casefold() == value.casefold()]
        close = same_case or difflib.get_close_matches(value, values, n=1, cutoff=0.8)
        if close:
            hints.append(f"Did you mean {field} = '{close[0]}'? Values are matched exactly.")
    return (" " + " ".join(hints)) if hints else ""


@tool(
    ToolSpec(
        name="spatial_join",
        half="geojson",
        category="query",
        paper_name="SpatialJoinTwoGeoDataFrames",
        purpose="Add the attributes of features of another layer that match spatially (or the nearest one).",
        params=(
            LAYER,
            Param("join", "layer", "Layer whose attributes are added"),
            Param(
                "predicate",
                "enum",
                "Spatial relation",
                required=False,
                default="intersects",
                enum=("intersects", "within", "contains", "nearest"),
            ),
        ),
        returns="A new layer: input features with matched attributes.",
        equivalent="qgis_join_by_location",
        keywords=("spatial join", "join by location", "which district", "nearest"),
    )
)
def spatial_join(ctx: RunContext, layer: str, join: str, predicate: str = "intersects") -> ToolResult:
    left = checked_layer(ctx, layer, repair=False)
    right = aligned(ctx, left, checked_layer(ctx, join, repair=False), layer, join)
    out = run_validated(ctx, lambda a, b: _joined(ctx, a, b, predicate), (left, layer), (right, join))
    matched = int(out.pop("index_right").notna().sum())
    if not matched and predicate != "nearest":
        note_if_disjoint(ctx, left, right, layer, join, "no feature matched")
    summary = tr("Joined '{join}' to '{layer}' by {predicate}: {n} matches").format(
        join=join, layer=layer, predicate=predicate, n=matched
    )
    if "join_distance_m" in out:
        summary += tr(", median distance {distance} m").format(distance=f"{out['join_distance_m'].median():.1f}")
    return vector_result(ctx, out, f"{layer}_{join}_join", summary, len(left), matches=matched)


def _joined(ctx, left, right, predicate: str):
    """left with the attributes of matching right features (sjoin, or sjoin_nearest in metres)."""
    import geopandas as gpd

    if predicate == "nearest" and left.crs is None:
        ctx.note(tr("Neither layer has a CRS: the nearest distance is in the layers' coordinate units, not metres."))
        joined = gpd.sjoin_nearest(left, right, how="left", distance_col="join_distance")
    elif predicate == "nearest":
        # Measured in metres; a world-wide layer is matched zone by zone (apply_per_zone).
        def nearest(part):
            other = right.to_crs(part.crs) if right.crs != part.crs else right
            return gpd.sjoin_nearest(part, other, how="left", distance_col="join_distance_m")

        joined = apply_per_zone(left, nearest, ctx)
        # Carry the input geometries back exactly (not through a projection round trip).
        joined = joined.set_geometry(left.geometry.loc[joined.index].to_numpy(), crs=left.crs)
    else:
        joined = gpd.sjoin(left, right, how="left", predicate=predicate)
    return joined


@tool(
    ToolSpec(
        name="sort_by_field",
        half="geojson",
        category="query",
        paper_name="SortPointsbyField",
        purpose="Sort features by a field.",
        params=(
            LAYER,
            Param("field", "field", "Field to sort by", of_layer="layer"),
            Param("descending", "boolean", "Largest first", required=False, default=False),
        ),
        returns="A new layer in sorted order, with a rank field.",
        keywords=("sort", "order", "rank"),
    )
)
def sort_by_field(ctx: RunContext, layer: str, field: str, descending: bool = False) -> ToolResult:
    gdf = checked_layer(ctx, layer, repair=False)
    keys = _numeric_if_possible(gdf[field])
    order = keys.sort_values(ascending=not descending, na_position="last", kind="stable").index
    out = gdf.loc[order].copy()
    out["rank"] = range(1, len(out) + 1)
    said = tr("Sorted '{layer}' by {field} (descending)")
    if not descending:
        said = tr("Sorted '{layer}' by {field} (ascending)")
    return vector_result(ctx, out, f"{layer}_sorted", said.format(layer=layer, field=field), len(gdf))


@tool(
    ToolSpec(
        name="export_coordinates",
        half="geojson",
        category="query",
        paper_name="ExportCoordinateofGeometry",
        purpose="Export the coordinates of every vertex (points: each point) to a CSV table.",
        params=(LAYER,),
        returns="A CSV: feature_id, vertex, x, y and the feature's attributes.",
        keywords=("coordinates", "export xy", "vertices csv"),
    )
)
def export_coordinates(ctx: RunContext, layer: str) -> ToolResult:
    import numpy as np
    import pandas as pd
    import shapely

    gdf = checked_layer(ctx, layer, repair=False)
    coords, owner = shapely.get_coordinates(gdf.geometry.values, return_index=True)
    starts = np.r_[0, np.flatnonzero(np.diff(owner)) + 1]
    vertex = np.arange(len(owner)) - np.repeat(starts, np.diff(np.r_[starts, len(owner)]))
    attrs = pd.DataFrame(gdf.drop(columns=gdf.geometry.name)).iloc[owner].reset_index(drop=True)
    table = pd.DataFrame(
        {"feature_id": gdf.index.values[owner], "vertex": vertex, "x": coords[:, 0], "y": coords[:, 1]}
    )
    table = pd.concat(
        [table, attrs.drop(columns=[c for c in ("feature_id", "vertex", "x", "y") if c in attrs])], axis=1
    )
    out = ctx.save_table(table, f"{layer}_coordinates")
    crs = gdf.crs.to_string() if gdf.crs is not None else "no CRS"
    summary = f"Exported {len(table)} coordinates of {len(gdf)} features of '{layer}' ({crs}) to {out.path}."
    return ToolResult(summary=summary, outputs=[out], values={"coordinate_count": len(table)})
