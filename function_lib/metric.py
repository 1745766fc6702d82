"""Metric correctness: distances, lengths and areas in metres even when a layer is in degrees."""

from __future__ import annotations

from ..errors import ValidationError

# Wider than this (degrees of longitude) a layer has no single metric CRS: measured zone by zone.
MAX_ZONE_SPAN_DEG = 12.0


def metric_crs(gdf, ctx=None, purpose: str = "distance"):
    """The CRS to measure `gdf` in: its own when projected in metres, else local UTM or equal-area.

    purpose is "distance" (local UTM zone) or "area" (an equal-area CRS). The choice is noted in
    ctx so the summary can tell the user which CRS was used.
    """
    from pyproj import CRS

    if gdf.crs is None:
        raise ValidationError(
            "The layer has no CRS, so metres cannot be measured on it.",
            fix="Assign the right CRS first (for example with reproject/assign CRS), then try again.",
        )
    crs = CRS.from_user_input(gdf.crs)
    # Web Mercator's "metres" are metres only at the equator (300 of them are ~180 m at 52°N).
    if crs.is_projected and _unit_is_metre(crs) and not _is_web_mercator(crs):
        return crs
    if purpose == "area":
        target = _equal_area_for(gdf)
    else:
        target = _utm_for(gdf)
    if ctx is not None:
        from .io import crs_label

        why = "distorts distances" if _is_web_mercator(crs) else "is not in metres"
        ctx.note(f"Measured in {crs_label(target)} because {crs.name} {why}.")
    return target


def _unit_is_metre(crs) -> bool:
    units = {ax.unit_name.lower() for ax in crs.axis_info}
    return bool(units) and units <= {"metre", "meter", "m"}


def _is_web_mercator(crs) -> bool:
    return crs.to_epsg() in (3857, 900913)


def _lonlat_bounds(gdf):
    geo = gdf.to_crs(4326) if not gdf.crs.is_geographic else gdf
    return geo.total_bounds


def _utm_for(gdf):
    from pyproj import CRS

    try:
        utm = gdf.estimate_utm_crs()
    except Exception:  # noqa: BLE001 - a layer spanning the world has no single UTM zone
        utm = None
    xmin, ymin, xmax, ymax = _lonlat_bounds(gdf)
    if utm is None or (xmax - xmin) > MAX_ZONE_SPAN_DEG:
        # Wider than two UTM zones: an equidistant projection centred on the data keeps metres honest.
        lon0, lat0 = (xmin + xmax) / 2, (ymin + ymax) / 2
        return CRS.from_proj4(f"+proj=aeqd +lat_0={lat0:.4f} +lon_0={lon0:.4f} +datum=WGS84 +units=m")
    return utm


def _equal_area_for(gdf):
    from pyproj import CRS

    xmin, ymin, xmax, ymax = _lonlat_bounds(gdf)
    if (xmax - xmin) > 90 or (ymax - ymin) > 60:
        return CRS.from_epsg(6933)  # World Cylindrical Equal Area (EASE-Grid 2.0)
    lon0, lat0 = (xmin + xmax) / 2, (ymin + ymax) / 2
    return CRS.from_proj4(f"+proj=laea +lat_0={lat0:.4f} +lon_0={lon0:.4f} +datum=WGS84 +units=m")


def to_metric(gdf, ctx=None, purpose: str = "distance"):
    """`gdf` in a metric CRS, and the CRS it came from (to reproject results back)."""
    target = metric_crs(gdf, ctx, purpose)
    if gdf.crs is not None and target == gdf.crs:
        return gdf, gdf.crs
    return gdf.to_crs(target), gdf.crs


def lon_span(bounds, crs) -> float | None:
    """Degrees of longitude covered by bounds given in crs (None for a CRS-less layer)."""
    from pyproj import CRS, Transformer

    if crs is None or bounds is None:
        return None
    crs = CRS.from_user_input(crs)
    if crs.is_geographic:
        return float(bounds[2] - bounds[0])
    try:
        xmin, _, xmax, _ = Transformer.from_crs(crs, 4326, always_xy=True).transform_bounds(*bounds)
    except Exception:  # noqa: BLE001 - bounds outside the CRS's area of use
        return None
    return float(xmax - xmin) if xmax >= xmin else float(360 - xmin + xmax)


def spans_zones(gdf) -> bool:
    """True when a layer in degrees is wider than one UTM zone can measure honestly (> 12° of longitude)."""
    if gdf.crs is None or len(gdf) == 0:
        return False
    from pyproj import CRS

    crs = CRS.from_user_input(gdf.crs)
    if crs.is_projected and _unit_is_metre(crs) and not _is_web_mercator(crs):
        return False
    xmin, _, xmax, _ = _lonlat_bounds(gdf)
    return (xmax - xmin) > MAX_ZONE_SPAN_DEG


def apply_per_zone(gdf, fn, ctx=None):
    """Run fn(projected_part) -> GeoDataFrame for each UTM zone the features fall in, and return the
    parts reprojected to the layer's CRS in the original row order.

    For a layer that one metric CRS serves (projected in metres, or narrower than ~2 UTM zones) this
    is a single call of fn in that CRS. A world-wide layer is measured zone by zone, so a 50 km buffer
    is 50 km in Alaska and in New Zealand alike. fn must keep the index of the rows it returns.
    """
    import numpy as np
    import pandas as pd
    from pyproj import CRS

    if not spans_zones(gdf):
        target = metric_crs(gdf, ctx, "distance")
        same = CRS.from_user_input(gdf.crs).equals(target)
        part = fn(gdf if same else gdf.to_crs(target))
        return part if same else part.to_crs(gdf.crs)
    lonlat = gdf.geometry.to_crs(4326) if not CRS.from_user_input(gdf.crs).is_geographic else gdf.geometry
    points = lonlat.representative_point()
    zone = np.clip(np.floor((points.x.to_numpy() + 180) / 6).astype(int) + 1, 1, 60)
    south = points.y.to_numpy() < 0
    codes = np.where(south, 32700, 32600) + zone
    parts = []
    for code in np.unique(codes):
        rows = gdf[codes == code]
        parts.append(fn(rows.to_crs(int(code))).to_crs(gdf.crs))
    if ctx is not None:
        ctx.note(f"Measured each feature in its own UTM zone ({len(parts)} zones), because the layer spans the globe.")
    out = pd.concat(parts)
    return out.loc[gdf.index.intersection(out.index, sort=False)] if out.index.is_unique else out
