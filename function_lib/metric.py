"""Metric correctness: distances, lengths and areas in metres, in a layer's own projection when it is honest."""

from __future__ import annotations

from ..errors import ValidationError

# Wider than this (degrees of longitude) a layer has no single metric CRS: measured zone by zone.
MAX_ZONE_SPAN_DEG = 12.0


def metric_crs(gdf, ctx=None, purpose: str = "distance"):
    """The CRS to measure `gdf` in: its own projection when it measures honestly, else local UTM or equal-area.

    purpose is "distance" (local UTM zone) or "area" (an equal-area CRS). A layer in a projected CRS with a linear
    unit (metre, foot, US survey foot, ...) is measured in its own projection (see `measures_honestly`); when that
    unit is not the metre, the same projection expressed in metres is returned, so the conversion is an exact
    scale (PROJ's unitconvert), never a reprojection. The choice is noted in ctx so the summary can tell the user.
    """
    from pyproj import CRS

    if gdf.crs is None:
        raise ValidationError(
            "The layer has no CRS, so metres cannot be measured on it.",
            fix="Assign the right CRS first (for example with reproject/assign CRS), then try again.",
        )
    crs = CRS.from_user_input(gdf.crs)
    if measures_honestly(crs, purpose):
        if _unit_is_metre(_horizontal(crs)):
            return crs
        target = in_metres(crs)
        if ctx is not None:
            unit = _unit_name(_horizontal(crs))
            units = unit[: -len("foot")] + "feet" if unit.endswith("foot") else unit + "s"
            ctx.note(f"Measured in the layer's own projection ({crs.name}), in metres: its {units} were converted "
                     "exactly.")  # fmt: skip
        return target
    if purpose == "area":
        target = _equal_area_for(gdf)
    else:
        target = _utm_for(gdf)
    if ctx is not None:
        from .io import crs_label

        why = "is not in metres" if not crs.is_projected or _linear_factor(crs) is None else f"distorts {purpose}s"
        ctx.note(f"Measured in {crs_label(target)} because {crs.name} {why}.")
    return target


# Projections that distort distances and areas far from their centre line: world maps, never measured in.
_WORLD_METHODS = ("pseudo mercator", "equidistant cylindrical", "miller", "robinson", "gall", "winkel", "natural earth",
                  "van der grinten", "times", "patterson", "kavrayskiy", "wagner", "plate carr")  # fmt: skip
# Equal-area world projections: honest for areas, not for distances.
_EQUAL_AREA_WORLD = ("mollweide", "sinusoidal", "eckert", "equal earth", "goode", "homolosine",
                     "cylindrical equal area")  # fmt: skip


def measures_honestly(crs, purpose: str = "distance") -> bool:
    """Whether a layer's own CRS can measure `purpose` ("distance" or "area") without reprojecting.

    The rule: the CRS is projected, every axis has a linear unit with a known factor to the metre (metre, foot,
    US survey foot, ...), and its projection is not known to distort badly. Mercator (Web/Pseudo Mercator, World
    Mercator; Transverse and Oblique Mercator are local and fine), Plate Carrée and other world compromise
    projections (Miller, Robinson, Winkel, ...) never qualify; equal-area world projections (Mollweide, Sinusoidal,
    Equal Earth, EASE-Grid, ...) qualify for areas only. Local projections (UTM, State Plane, national grids,
    Albers, LAEA) are trusted within their area of use, where their scale error stays below about 0.1 %.
    """
    from pyproj import CRS

    crs = _horizontal(CRS.from_user_input(crs))
    if not crs.is_projected or _linear_factor(crs) is None:
        return False
    operation = crs.coordinate_operation
    method = (operation.method_name if operation is not None else "").lower()
    if "mercator" in method and "transverse" not in method and "oblique" not in method:
        return False
    if any(name in method for name in _WORLD_METHODS):
        return False
    return purpose == "area" or not any(name in method for name in _EQUAL_AREA_WORLD)


def in_metres(crs):
    """The same projected CRS with its axes in metres (a US-feet State Plane zone -> that zone in metres)."""
    from pyproj import CRS

    crs = CRS.from_user_input(crs)
    if _unit_is_metre(_horizontal(crs)):
        return crs
    crs = _horizontal(crs)  # a compound CRS (State Plane feet + height): its horizontal part in metres
    data = crs.to_json_dict()
    for axis in data.get("coordinate_system", {}).get("axis", []):
        axis["unit"] = "metre"
    data["name"] = f"{crs.name} (in metres)"
    data.pop("id", None)
    data.pop("ids", None)
    return CRS.from_json_dict(data)


def foot_in_metres(crs) -> float:
    """Metres in one foot of `crs`: the US survey foot (1200/3937 m) for a CRS in US feet, else the international
    foot (0.3048 m). Lets "in feet" answers for a US-feet layer give back its own feet exactly."""
    from pyproj import CRS

    if crs is not None:
        crs = _horizontal(CRS.from_user_input(crs))
        if crs.is_projected and "us survey" in _unit_name(crs).lower():
            return 1200 / 3937
    return 0.3048


def _horizontal(crs):
    """The horizontal part of a compound CRS (projected + vertical); any other CRS as it is."""
    return crs.sub_crs_list[0] if crs.is_compound and crs.sub_crs_list else crs


def _linear_factor(crs) -> float | None:
    """Metres per unit of the CRS's axes when they share one linear unit; None otherwise (degrees, mixed, unknown)."""
    factors = {round(ax.unit_conversion_factor, 15) for ax in crs.axis_info if ax.unit_conversion_factor}
    units = {ax.unit_name.lower() for ax in crs.axis_info}
    if len(factors) != 1 or any("degree" in u or "radian" in u or "grad" in u for u in units):
        return None
    return factors.pop()


def _unit_name(crs) -> str:
    return crs.axis_info[0].unit_name if crs.axis_info else "unit"


def _unit_is_metre(crs) -> bool:
    units = {ax.unit_name.lower() for ax in crs.axis_info}
    return bool(units) and units <= {"metre", "meter", "m"}


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
    if measures_honestly(gdf.crs, "distance"):
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
