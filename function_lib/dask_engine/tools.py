"""The library tools ported to the large-input engine. Each takes the same arguments as its in-memory twin, makes
the whole-layer decisions once (the metric CRS from the header's extent, the checks of the arguments), runs the
per-partition work of partfns on the cluster, and writes the result partition by partition."""

from __future__ import annotations

from functools import reduce

import dask

from ...errors import ValidationError
from ...lang import tr
from ..context import ToolResult, feature_counts, safe_name
from . import cluster, partfns
from .parts import PartitionWriter, output_suffix, parts, read, source
from .settings import SETTINGS


class Run:
    """One ported tool call: its large input, partitions, and the note the report carries."""

    def __init__(self, ctx, tool: str, layer: str):
        self.ctx, self.tool, self.layer = ctx, tool, layer
        self.src = source(ctx, layer)
        self.ddf = read(self.src, SETTINGS.partition_rows)
        self.n_parts = self.ddf.npartitions
        self.first_note = len(ctx.notes)  # the in-memory tools note repairs before anything else of the call

    def tasks(self, fn, *args):
        part_fn = dask.delayed(fn, pure=False)
        return [part_fn(p, *args) for p in parts(self.ddf)]

    def engine_note(self) -> None:
        self.ctx.note(cluster.where_note(cluster.get_client(), self.n_parts))

    def write(self, tasks, stem: str) -> tuple:
        """The partitions' results written as they come; the output and the partitions' counts."""
        suffix = output_suffix([self.src], SETTINGS.output_format)
        path = self.ctx.unique_path(stem, suffix)
        writer = PartitionWriter(path, path.stem)
        infos = []

        def take(_i, value):
            gdf, info = value
            writer.write(gdf)
            infos.append(info)

        try:
            cluster.compute(self.ctx, tasks, self.tool, on_result=take)
        except BaseException:
            writer.close()
            path.unlink(missing_ok=True)
            raise
        writer.close()
        out = self.ctx.add_output(path, name=path.stem, kind="vector")
        return out, writer.count, infos

    def values(self, **more) -> dict:
        return {"engine": "dask-geopandas", "partitions": self.n_parts, **more}

    def repaired_note(self, infos) -> None:
        fixed = sum(i.get("repaired", 0) for i in infos)
        text = f"Repaired {fixed} invalid geometr{'y' if fixed == 1 else 'ies'} in '{self.layer}' with make_valid."
        if fixed and text not in self.ctx.call_notes:
            self.ctx.notes.insert(self.first_note, text)
        missing = sum(i.get("missing", 0) for i in infos)
        if missing:
            self.ctx.note(tr("Skipped {n} features of '{layer}' without geometry.").format(n=missing, layer=self.layer))


def _result(run: Run, out, count: int, said: str, **values) -> ToolResult:
    run.engine_note()
    text = said + feature_counts(run.src.count, count) + tr(".")
    if run.ctx.call_notes:
        text += " " + " ".join(run.ctx.call_notes)
    return ToolResult(summary=text, outputs=[out], values={"feature_count": count, **run.values(**values)})


def _crs_frame(src):
    """A one-feature frame of the input's extent in its CRS: what metric_crs needs to choose as for the whole layer."""
    import geopandas as gpd
    import shapely

    return gpd.GeoDataFrame(geometry=[shapely.box(*src.bounds)], crs=src.crs)


# -- per-feature tools ---------------------------------------------------------------------------------------------
def filter_by_expression(ctx, layer: str, expression: str) -> ToolResult:
    from ..expression import fields_used
    from ..geojson.query import _check_excluded_values

    run = Run(ctx, "filter_by_expression", layer)
    fields = [f for f in fields_used(expression) if f in run.src.columns]
    text_fields = [f for f in fields if run.src.dtypes.get(f) == "object"]
    if text_fields and ("!=" in expression or "<>" in expression or "not" in expression.lower()):
        # the excluded-value check reads each text field's distinct values (a tree reduction, not the rows)
        import pandas as pd

        uniques = cluster.compute(ctx, [run.ddf[f].dropna().astype(str).unique() for f in text_fields], run.tool)
        distinct = {f: list(values)[:10000] for f, values in zip(text_fields, uniques)}
        width = max(map(len, distinct.values()), default=0)
        _check_excluded_values(pd.DataFrame({f: v + [None] * (width - len(v)) for f, v in distinct.items()},
                                            dtype=object), expression)
    out, count, _ = run.write(run.tasks(partfns.filtered, expression), f"{layer}_filtered")
    if count == 0:
        ctx.note(tr("No feature of '{layer}' matched {condition}.").format(layer=layer, condition=expression))
    said = tr("Filtered '{layer}' by {expression}").format(layer=layer, expression=expression)
    return _result(run, out, count, said)


def _measure(ctx, layer: str, kind: str, unit: str | None) -> ToolResult:
    from ..geojson.measure import _MEASURES, _in_unit, _kind_word, _metres_per_unit, _unit_size
    from ..io import check_geometry_type, crs_label
    from ..metric import metric_crs

    run = Run(ctx, f"geometry_{kind}", layer)
    frame = _crs_frame(run.src)
    target = metric_crs(frame, ctx, "area" if kind == "area" else "distance")
    same = frame.crs is not None and target.equals(frame.crs)
    units, base, format_base = _MEASURES[kind]
    column = f"{kind}_{unit or base}"
    size = _unit_size(ctx, frame, kind, unit or base, units)
    tasks = run.tasks(partfns.measured, kind, None if same else target, _metres_per_unit(target), size, column)
    out, count, infos = run.write(tasks, f"{layer}_{kind}")
    types = set().union(*(i["types"] for i in infos))
    expect = ("polygon",) if kind == "area" else ("line", "polygon")
    check_geometry_type(frame.iloc[:0], layer, expect, _type_ids_of(types))
    run.repaired_note(infos)
    total_base = sum(i["total_base"] for i in infos)
    total = sum(i["total"] for i in infos)
    shown = _in_unit(total, unit) if unit else format_base(total_base)
    used = crs_label(target)
    said = tr("Measured the {kind} of '{layer}' in {crs} into {field}, total {total}").format(
        kind=_kind_word(kind), layer=layer, crs=used, field=column, total=shown
    )
    result = _result(run, out, count, said, **{f"total_{base}": total_base}, total=total, unit=unit or base,
                     measure_crs=used)
    result.answer = tr("The total {kind} of '{layer}' is {total} ({n} features, measured in {crs}).").format(
        kind=_kind_word(kind), layer=layer, total=shown, n=count, crs=used
    )
    return result


def _type_ids_of(names: set):
    import numpy as np

    from ..io import TYPE_NAMES

    ids = {v: k for k, v in TYPE_NAMES.items()}
    return np.array([ids[n] for n in names], dtype=int)


def geometry_area(ctx, layer: str, unit: str | None = None) -> ToolResult:
    return _measure(ctx, layer, "area", unit)


def geometry_length(ctx, layer: str, unit: str | None = None) -> ToolResult:
    return _measure(ctx, layer, "length", unit)


def reproject(ctx, layer: str, crs: str, assign: bool = False) -> ToolResult:
    from pyproj import CRS
    from pyproj.exceptions import CRSError

    run = Run(ctx, "reproject", layer)
    old = CRS.from_user_input(run.src.crs).to_string() if run.src.crs else "no CRS"
    try:
        target = CRS.from_user_input(crs)
    except CRSError as exc:
        raise ValidationError(f"'{crs}' is not a CRS I know.", fix="Use an authority code like EPSG:4326.") from exc
    label = target.to_string()
    out, count, infos = run.write(run.tasks(partfns.reprojected, target, assign), f"{layer}_{safe_name(label)}")
    bad = sum(i.get("bad", 0) for i in infos)
    if bad:
        ctx.note(f"{bad} features fall outside the area of {label} and have invalid coordinates.")
    said = f"Assigned {label} to '{layer}' (was {old})" if assign else f"Reprojected '{layer}' from {old} to {label}"
    return _result(run, out, count, said)


def buffer(ctx, layer: str, distance: float, rings: int = 1, dissolve: bool = False) -> ToolResult:
    from ..io import crs_label
    from ..metric import metric_crs

    run = Run(ctx, "buffer", layer)
    target = metric_crs(_crs_frame(run.src), ctx, "distance")
    out, count, infos = run.write(run.tasks(partfns.buffered_part, target, float(distance)), f"{layer}_buffer")
    run.repaired_note(infos)
    used = crs_label(target)
    what = tr("Buffered '{layer}' by {distance} m").format(layer=layer, distance=f"{distance:g}")
    what += tr(" (measured in {crs})").format(crs=used)
    return _result(run, out, count, what, measured_in=used)


def clip(ctx, layer: str, overlay: str) -> ToolResult:
    from ..io import checked_layer

    run = Run(ctx, "clip", layer)
    mask = checked_layer(ctx, overlay, ("polygon",), repair=True)
    out, count, infos = run.write(run.tasks(partfns.clipped, cluster.scatter(mask)), f"{layer}_clipped")
    run.repaired_note(infos)
    said = tr("Clipped '{layer}' to '{overlay}'").format(layer=layer, overlay=overlay)
    return _result(run, out, count, said)


def _small_aligned(ctx, run: Run, name: str, expect, first_name: str):
    """The small layer of a join, checked and repaired, in the large layer's CRS (reprojected and noted)."""
    from ..io import aligned, checked_layer, repaired

    small = checked_layer(ctx, name, expect, repair=False)
    small = aligned(ctx, _crs_frame(run.src) if run.src.bounds else small.iloc[:0].set_crs(run.src.crs,
                    allow_override=True), small, first_name, name)
    return repaired(ctx, small, name)  # noted after the reprojection, as io.run_validated does


def spatial_join(ctx, layer: str, join: str, predicate: str = "intersects") -> ToolResult:
    run = Run(ctx, "spatial_join", layer)
    right = _small_aligned(ctx, run, join, None, layer)
    tasks = run.tasks(partfns.joined, cluster.scatter(right), predicate, right.crs)
    out, count, infos = run.write(tasks, f"{layer}_{join}_join")
    run.repaired_note(infos)
    matched = sum(i["matched"] for i in infos)
    summary = tr("Joined '{join}' to '{layer}' by {predicate}: {n} matches").format(
        join=join, layer=layer, predicate=predicate, n=matched
    )
    return _result(run, out, count, summary, matches=matched)


def count_points_in_polygons(ctx, polygons: str, points: str, field_name: str = "count") -> ToolResult:
    import numpy as np

    from ..geojson._base import vector_result
    from ..geojson.measure import free_field_name
    from ..io import checked_layer, repaired

    polys = checked_layer(ctx, polygons, expect="polygon", repair=False)
    run = Run(ctx, "count_points_in_polygons", points)
    if polys.crs is not None and run.src.crs is not None and not polys.crs.equals(run.src.crs):
        from pyproj import CRS

        from ..io import crs_label

        ctx.note(f"Reprojected '{points}' from {crs_label(CRS.from_user_input(run.src.crs))} to "
                 f"{crs_label(polys.crs)} to match '{polygons}'.")  # as io.aligned says it
    polys = repaired(ctx, polys, polygons)
    infos = cluster.compute(ctx, run.tasks(partfns.point_counts, cluster.scatter(polys), polys.crs), run.tool)
    wrong = sorted(set().union(*(i["wrong"] for i in infos)))
    if wrong:
        raise ValidationError(
            f"Layer '{points}' has {', '.join(wrong)} geometries, but this tool expects point geometries.",
            fix="Use a point layer, or convert the layer first.",
        )
    out = polys.copy()
    if field_name in out.columns:
        asked, field_name = field_name, free_field_name(field_name, out.columns)
        ctx.note(tr("'{layer}' already has a field '{field}'; the counts are in the new field '{new}'.").format(
            layer=polygons, field=asked, new=field_name))
    out[field_name] = reduce(np.add, (i["counts"] for i in infos))
    inside = sum(i["inside"] for i in infos)
    n = sum(i["n"] for i in infos)
    run.engine_note()
    said = tr("Counted {inside} of {n} points of '{points}' in the polygons of '{polygons}'").format(
        inside=inside, n=n, points=points, polygons=polygons)
    result = vector_result(ctx, out, f"{polygons}_{field_name}", said, len(polys), points_inside=inside,
                           **run.values())
    result.answer = tr("{inside} of {n} points of '{points}' fall inside the {m} polygons of '{polygons}'.").format(
        inside=inside, n=n, points=points, m=len(polys), polygons=polygons)
    return result


def tree_reduce(ctx, run: Run, tasks, combine, *args):
    """Partial results combined pairwise on the cluster (a tree of depth log2(partitions)), computed as one future."""
    level = list(tasks)
    combine_fn = dask.delayed(combine, pure=False)
    while len(level) > 1:
        level = [combine_fn(level[i], level[i + 1], *args) if i + 1 < len(level) else level[i]
                 for i in range(0, len(level), 2)]
    return cluster.compute(ctx, [level[0]], run.tool)[0]


def dissolve(ctx, layer: str, fields: list | None = None, field: str | None = None,
             agg: str | None = None) -> ToolResult:
    import numpy as np

    from ..geojson._base import vector_result
    from ..geojson.overlay_ops import dissolve_summary

    by = list(fields) if fields else None
    run = Run(ctx, "dissolve", layer)
    if field and not agg:
        agg = "sum"  # ported for numeric fields only (engine.suits), whose sum is the default
    partial = tree_reduce(ctx, run, run.tasks(partfns.dissolve_partial, by, field, agg), partfns.dissolve_combine, by)
    out = partial["groups"]
    if by:
        out = out.sort_values(by, kind="stable", na_position="last").reset_index(drop=True)
    if field:
        column = f"{field}_{agg}"
        if agg == "mean":
            with np.errstate(invalid="ignore", divide="ignore"):
                out[column] = out["__sum"] / out["__count"].where(out["__count"] > 0)
        else:
            out[column] = out[f"__{agg}"]
        out = out.drop(columns=[c for c in out.columns if str(c).startswith("__")])
        geometry = out.geometry.name
        out = out[[c for c in out.columns if c != geometry] + [geometry]]
    run.repaired_note([partial])
    what, extra = dissolve_summary(ctx, out, layer, by, field, agg)
    run.engine_note()
    return vector_result(ctx, out, f"{layer}_dissolved", what, run.src.count, **extra, **run.values())


def group_by(ctx, layer: str, by: list, field: str | None = None, agg: str = "count") -> ToolResult:
    from ..geojson.measure import _short

    if not by:
        raise ValidationError("group_by needs at least one field in by.")
    if agg != "count" and field is None:
        raise ValidationError(f"The aggregation '{agg}' needs a field to aggregate.", fix="Give field, like price.")
    run = Run(ctx, "group_by", layer)
    tasks = run.tasks(partfns.group_partial, list(by), field, agg)
    table = tree_reduce(ctx, run, tasks, partfns.group_combine)
    column = None
    if agg != "count":
        column = f"{field}_{agg}"
        if agg == "mean":
            table[column] = table["__sum"] / table["__count"].where(table["__count"] > 0)
        else:
            table[column] = table[f"__{agg}"]
        if table[[c for c in table.columns if c.startswith("__")]].isna().all().all():
            raise ValidationError(f"Field '{field}' has no numbers, so {agg} cannot be computed.",
                                  fix="Use agg=count, or a numeric field.")
        table = table.drop(columns=[c for c in table.columns if c.startswith("__")])
    table = table.reset_index()
    out = ctx.save_table(table, f"{layer}_by_{'_'.join(by)}")
    shown = column or "count"
    head = ", ".join(f"{' / '.join(map(str, row[: len(by)]))}: {_short(row[-1])}"
                     for row in table[list(by) + [shown]].head(5).itertuples(index=False))
    of = tr("{agg} of {field}").format(agg=agg, field=field) if column else agg
    run.engine_note()
    summary = tr("Grouped {n} features of '{layer}' by {fields} into {groups} groups, {what} ({values}).").format(
        n=run.src.count, layer=layer, fields=", ".join(by), groups=len(table), what=of,
        values=head + (", ..." if len(table) > 5 else ""))
    summary += " " + " ".join(ctx.call_notes)
    return ToolResult(summary=summary, outputs=[out], values={"groups": len(table), **run.values()})


