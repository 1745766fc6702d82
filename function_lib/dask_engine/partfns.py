"""The work done on one partition, on a worker: module-level functions (pickled by reference) that compute what the
in-memory GeoPandas tools compute, each returning its partition's result and the counts the summary needs."""

from __future__ import annotations

import numpy as np


def repaired(part):
    """The partition with invalid geometries made valid (as io.checked_layer repairs), and how many were."""
    from ..io import cached_invalid

    invalid = cached_invalid(part.geometry.array)
    count = int(invalid.sum())
    if not count:
        return part, 0
    import shapely

    geoms = np.asarray(part.geometry.array).copy()
    geoms[invalid] = shapely.make_valid(geoms[invalid])
    return part.set_geometry(type(part.geometry)(geoms, index=part.index, crs=part.crs, name=part.geometry.name)), count


def with_geometry(part):
    """The partition without features lacking a geometry (overlay_ops.load_layer leaves them out), and how many."""
    import shapely

    geoms = np.asarray(part.geometry.array)
    missing = shapely.is_missing(geoms) | shapely.is_empty(geoms)
    return (part[~missing] if missing.any() else part), int(missing.sum())


def type_names(part) -> set:
    import shapely

    from ..io import TYPE_NAMES

    return {TYPE_NAMES[int(t)] for t in np.unique(shapely.get_type_id(np.asarray(part.geometry.array))) if t >= 0}


def filtered(part, expression: str):
    from ..expression import filter_mask

    return part[filter_mask(expression, part)], {"n": len(part)}


def measured(part, kind: str, target, factor: float, unit_size: float, column: str):
    """area_<unit> / length_<unit> of each feature, measured in `target` (the metric CRS chosen for the whole layer)."""
    part, fixed = repaired(part)
    geoms = part.geometry if target is None else part.geometry.to_crs(target)
    base = geoms.area.to_numpy() * factor**2 if kind == "area" else geoms.length.to_numpy() * factor
    out = part.copy()
    out[column] = base / unit_size
    return out, {"n": len(part), "repaired": fixed, "total_base": float(base.sum()), "total": float(out[column].sum()),
                 "types": type_names(part)}


def reprojected(part, target, assign: bool):
    if assign:
        return part.set_crs(target, allow_override=True), {"n": len(part)}
    out = part.to_crs(target)
    bounds = out.geometry.bounds.to_numpy()
    bad = int((~out.geometry.is_empty & out.geometry.notna() & ~np.isfinite(bounds).all(axis=1)).sum())
    return out, {"n": len(part), "bad": bad}


def buffered_part(part, target, distance: float):
    """One-ring buffer in metres, computed in `target` and brought back, as proximity.buffer does."""
    from ..geojson.proximity import back_to, buffered

    n = len(part)
    part, missing = with_geometry(part)
    part, fixed = repaired(part)
    same = part.crs is not None and target.equals(part.crs)
    geoms = np.asarray((part if same else part.to_crs(target)).geometry.array)
    discs = back_to(buffered(geoms, distance), target, part.crs)
    return part.set_geometry(discs, crs=part.crs), {"n": n, "missing": missing, "repaired": fixed}


def in_crs(part, crs):
    """The partition in the CRS of the small layer it is matched with."""
    if crs is None or part.crs is None or part.crs.equals(crs):
        return part
    return part.to_crs(crs)


def point_counts(part, polygons, crs):
    """How many points of this partition fall in each polygon, and how many fall in any."""
    import shapely

    wrong = type_names(part) - {"Point", "MultiPoint"}
    part = in_crs(part, crs)
    tree = shapely.STRtree(np.asarray(polygons.geometry.array))
    point_pos, poly_pos = tree.query(np.asarray(part.geometry.array), predicate="intersects")
    return {"counts": np.bincount(poly_pos, minlength=len(polygons)).astype("int64"),
            "inside": int(np.unique(point_pos).size), "n": len(part), "wrong": sorted(wrong)}


def joined(part, right, predicate: str, crs):
    """left with the attributes of the matching features of the small layer (gpd.sjoin, how=left)."""
    import geopandas as gpd

    n = len(part)
    part, fixed = repaired(part)
    target = part.crs
    out = gpd.sjoin(in_crs(part, crs), right, how="left", predicate=predicate)
    if crs is not None and target is not None and not target.equals(crs):
        out = out.set_geometry(part.geometry.loc[out.index].to_numpy(), crs=target)
    matched = int(out.pop("index_right").notna().sum())
    return out, {"n": n, "matched": matched, "repaired": fixed}


def clipped(part, mask):
    from ..geojson.overlay_ops import _clipped

    n = len(part)
    part, missing = with_geometry(part)
    part, fixed = repaired(part)
    if mask.crs is not None and part.crs is not None and not part.crs.equals(mask.crs):
        mask = mask.to_crs(part.crs)
    return _clipped(part, mask) if len(part) else part, {"n": n, "missing": missing, "repaired": fixed}


# -- tree reductions: each partition gives partial groups, combined pairwise ------------------------------------
def dissolve_partial(part, by, field, agg):
    """Per group of `by` (or one group): the first row's attributes, the union of the geometries, the feature count
    and the partial aggregate of `field` (sum and count for a mean)."""
    import geopandas as gpd

    from ..geojson.overlay_ops import merged

    part, _ = with_geometry(part)
    part, fixed = repaired(part)
    if by:
        grouped = part.drop(columns=part.geometry.name).groupby(by, sort=True, dropna=False)
        codes = grouped.ngroup().to_numpy()
        first = grouped.first().reset_index()
    else:
        codes = np.zeros(len(part), dtype=np.intp)
        first = gpd.GeoDataFrame(index=range(1 if len(part) else 0))
    out = gpd.GeoDataFrame(first, geometry=merged(part, codes, len(first)) if len(first) else [], crs=part.crs)
    out["n_features"] = np.bincount(codes, minlength=len(first))
    if field:
        import pandas as pd

        values = pd.Series(part[field].to_numpy(), index=codes).groupby(level=0, sort=True)
        for name, how in _PARTIALS[agg]:
            out[f"__{name}"] = values.agg(how).reindex(range(len(out))).to_numpy()
    return {"groups": out, "repaired": fixed}


_PARTIALS = {"sum": [("sum", "sum")], "mean": [("sum", "sum"), ("count", "count")], "min": [("min", "min")],
             "max": [("max", "max")], "count": [("count", "count")]}
_COMBINE = {"sum": "sum", "count": "sum", "min": "min", "max": "max"}


def dissolve_combine(a, b, by):
    """Two partial dissolves as one: first attributes from the earlier one, geometries unioned, counts added."""
    import geopandas as gpd
    import pandas as pd

    from ..geojson.overlay_ops import merged

    both = pd.concat([a["groups"], b["groups"]], ignore_index=True)
    if not len(both):
        return {"groups": a["groups"], "repaired": a["repaired"] + b["repaired"]}
    keys = both[by] if by else pd.Series(0, index=both.index)
    grouped = both.drop(columns=both.geometry.name).groupby(by if by else keys, sort=True, dropna=False)
    codes = grouped.ngroup().to_numpy()
    rules = {c: _COMBINE.get(c[2:], "first") if c.startswith("__") else ("sum" if c == "n_features" else "first")
             for c in both.columns if c != both.geometry.name and c not in (by or [])}
    table = grouped.agg(rules).reset_index() if by else grouped.agg(rules).reset_index(drop=True)
    out = gpd.GeoDataFrame(table, geometry=merged(both, codes, len(table)), crs=both.crs)
    return {"groups": out, "repaired": a["repaired"] + b["repaired"]}


def group_partial(part, by, field, agg):
    """Per group: the row count and the partial aggregate of the numbers in `field` (non-numbers left out)."""
    import pandas as pd

    data = pd.DataFrame(part.drop(columns=part.geometry.name)) if hasattr(part, "geometry") else part
    keys = [data[b] for b in by]
    table = data.groupby(list(by), dropna=False, sort=True).size().rename("count").to_frame()
    if agg != "count":
        values = pd.to_numeric(data[field], errors="coerce")
        for name, how in _PARTIALS[agg]:
            table[f"__{name}"] = values.groupby(keys, dropna=False, sort=True).agg(how)
    return table


def group_combine(a, b):
    import pandas as pd

    both = pd.concat([a, b])
    rules = {c: ("sum" if c == "count" else _COMBINE[c[2:]]) for c in both.columns}
    return both.groupby(level=list(range(both.index.nlevels)), dropna=False, sort=True).agg(rules)
