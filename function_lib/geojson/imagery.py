"""Imagery tools (rasterio + NumPy): normalized-difference indices, k-means classes, zonal statistics, change."""

from __future__ import annotations

from pathlib import Path

from ...errors import ToolError, ValidationError
from ...lang import tr
from ..context import RunContext, ToolResult, output_kind
from ..spec import Param, ToolSpec
from ._base import tool_list
from .measure import plain_number

TOOLS, tool = tool_list()

# What users call each band, in English, German and Chinese; matched against a band's description and colour.
BAND_NAMES = {
    "blue": ("blue", "b", "blau", "蓝", "蓝光", "蓝波段", "coastal blue"),
    "green": ("green", "g", "grün", "gruen", "绿", "绿光", "绿波段"),
    "red": ("red", "r", "rot", "红", "红光", "红波段"),
    "nir": ("nir", "near infrared", "near-infrared", "nahinfrarot", "nahes infrarot", "近红外", "近红外波段"),
    "swir": ("swir", "shortwave infrared", "short-wave infrared", "kurzwelliges infrarot", "短波红外"),
}
# Normalized-difference indices: (a, b) in (a - b) / (a + b).
INDICES = {
    "ndvi": ("nir", "red"),
    "ndwi": ("green", "nir"),
    "gndvi": ("nir", "green"),
    "ndbi": ("swir", "nir"),
    "mndwi": ("green", "swir"),
}
FLOAT_NODATA = -9999.0
CLASS_NODATA = 0
DEFAULT_CLASSES = 5
KMEANS_SEED = 0
KMEANS_SAMPLE = 200_000  # pixels the centres are fitted on; every pixel is then assigned to its nearest centre

RASTER = Param("raster", "layer", "Multiband raster (an image: GeoTIFF)")


def _rasterio():
    try:
        import rasterio
    except ImportError as exc:  # the plugin's GeoPandas half runs without it; say what to install
        raise ToolError(
            "Raster tools need the Python package rasterio, which is not installed here.",
            fix="Install rasterio (pip install rasterio) into QGIS's Python, or use the QGIS Processing raster tools.",
        ) from exc
    return rasterio


def _raster_path(ctx: RunContext, name: str) -> str:
    path = ctx.path(name)
    if output_kind(path) != "raster":
        raise ValidationError(
            f"'{name}' is not a raster ({Path(path).name}).", fix="Name a raster layer (an image such as a GeoTIFF)."
        )
    return path


def _band_labels(src) -> list[set[str]]:
    """What each band may be called: its number, its description and its colour interpretation."""
    labels = []
    for i in range(src.count):
        names = {str(i + 1), f"band {i + 1}", f"band_{i + 1}", f"b{i + 1}"}
        desc = (src.descriptions[i] or "").strip().lower()
        colour = src.colorinterp[i].name.lower() if src.colorinterp else ""
        for key, words in BAND_NAMES.items():
            if desc in words or desc == key or colour == key:
                names |= {key, *words}
        if desc:
            names.add(desc)
        labels.append(names)
    return labels


def band_index(src, band, name: str) -> int:
    """The 1-based index of `band` (a number, a band description, or a colour such as 'nir', 'rot', '近红外')."""
    text = str(band).strip().lower()
    found = [i + 1 for i, names in enumerate(_band_labels(src)) if text in names]
    if len(found) == 1:
        return found[0]
    described = ", ".join(f"{i + 1}: {d or '(no description)'}" for i, d in enumerate(src.descriptions))
    what = "several bands match" if found else "no band matches"
    raise ValidationError(
        f"Raster '{name}' has no single band '{band}' ({what}; bands {described}).",
        fix="Name the band by its number (1, 2, ...) or by its description.",
    )


def _read(src, band: int):
    """One band as float64 with its nodata (and NaN) masked."""
    import numpy as np

    data = src.read(band, masked=True).astype("float64")
    return np.ma.masked_invalid(data)


def _write(ctx: RunContext, name: str, profile: dict, data, dtype: str, nodata, descriptions=(), colormap=None):
    """A single- or multi-band GeoTIFF in the output folder, registered as a raster output (a layer for later steps)."""
    rasterio = _rasterio()
    path = ctx.unique_path(name, ".tif")
    bands = data if data.ndim == 3 else data[None]
    profile = {**profile, "driver": "GTiff", "count": bands.shape[0], "dtype": dtype, "nodata": nodata}
    profile.update(compress="deflate")
    profile.pop("photometric", None)
    with rasterio.open(path, "w", **profile) as dst:
        dst.write(bands.astype(dtype))
        for i, text in enumerate(descriptions):
            dst.set_band_description(i + 1, text)
        if colormap:
            dst.write_colormap(1, colormap)
    return ctx.add_output(path, name=path.stem, kind="raster")


def _grid_profile(src) -> dict:
    """The source's grid (size, CRS, transform) for a new GeoTIFF, without its block layout."""
    drop = {"blockxsize", "blockysize", "tiled", "interleave"}
    return {k: v for k, v in src.profile.items() if k not in drop}


def _stats_text(values) -> str:
    import numpy as np

    return tr("min {min}, mean {mean}, max {max}").format(
        **{k: f"{float(f(values)):.3f}" for k, f in (("min", np.ma.min), ("mean", np.ma.mean), ("max", np.ma.max))}
    )


@tool(
    ToolSpec(
        name="normalized_difference",
        half="geojson",
        category="raster",
        purpose="Normalized-difference index (a - b) / (a + b) of an image: a named index or two bands.",
        params=(
            RASTER,
            Param("index", "enum", "Named index", required=False, enum=tuple(INDICES)),
            Param("band_a", "string", "Band a (number or name)", required=False),
            Param("band_b", "string", "Band b (number or name)", required=False),
        ),
        returns="float32 GeoTIFF (nodata where a + b = 0)",
        examples=({"raster": "image_2024", "index": "ndvi"},),
        # no index names: an index the plan did not read ('NDVI and NDWI') must stay unexplained
        keywords=("normalized difference", "vegetation index", "water index", "spectral index"),
    )
)
def normalized_difference(ctx: RunContext, raster: str, index=None, band_a=None, band_b=None) -> ToolResult:
    import numpy as np

    if (band_a is None) != (band_b is None) or (index is None and band_a is None):
        raise ValidationError(
            "A normalized difference needs a named index (ndvi, ndwi, ...) or two bands.",
            fix="Say which index (for example NDVI) or give band_a and band_b.",
        )
    with _rasterio().open(_raster_path(ctx, raster)) as src:
        a, b = (band_a, band_b) if band_a is not None else INDICES[index]
        ia, ib = band_index(src, a, raster), band_index(src, b, raster)
        va, vb = _read(src, ia), _read(src, ib)
        total = va + vb
        out = np.ma.masked_where(np.ma.getmaskarray(total) | (total.filled(1.0) == 0), (va - vb) / total)
        label = index.upper() if band_a is None else f"({a} - {b}) / ({a} + {b})"
        if out.count() == 0:
            raise ToolError(f"{label} of '{raster}' has no valid pixel (every pixel is nodata or a + b = 0).")
        result = _write(
            ctx,
            f"{raster}_{index or 'nd'}",
            _grid_profile(src),
            out.filled(FLOAT_NODATA),
            "float32",
            FLOAT_NODATA,
            descriptions=(label,),
        )
    summary = tr("{index} of '{raster}' from bands {a} and {b}: {stats}.").format(
        index=label, raster=raster, a=ia, b=ib, stats=_stats_text(out)
    )
    values = {"mean": float(out.mean()), "valid_pixels": int(out.count())}
    return ToolResult(summary=summary, outputs=[result], values=values)


def _pixels(src, name: str):
    """All bands as (n_valid, bands) float rows, and the mask of valid pixels (valid in every band)."""
    import numpy as np

    data = np.ma.masked_invalid(src.read(masked=True).astype("float64"))
    valid = ~np.ma.getmaskarray(data).any(axis=0)
    if not valid.any():
        raise ToolError(f"Raster '{name}' has no pixel with data in every band.")
    return data.data[:, valid].T, valid


@tool(
    ToolSpec(
        name="classify_image",
        half="geojson",
        category="raster",
        purpose="Unsupervised k-means classification of an image into k classes.",
        params=(RASTER, Param("classes", "integer", "k", required=False, default=DEFAULT_CLASSES, minimum=2)),
        returns="class GeoTIFF (1..k by brightness), CSV of class centres and pixel counts",
        examples=({"raster": "image_2024", "classes": 4},),
        keywords=("unsupervised classification", "k-means", "kmeans", "land cover classes", "classify image"),
    )
)
def classify_image(ctx: RunContext, raster: str, classes: int = DEFAULT_CLASSES) -> ToolResult:
    import numpy as np
    import pandas as pd
    from sklearn.cluster import KMeans

    with _rasterio().open(_raster_path(ctx, raster)) as src:
        rows, valid = _pixels(src, raster)
        rng = np.random.default_rng(KMEANS_SEED)
        sample = rows if len(rows) <= KMEANS_SAMPLE else rows[rng.choice(len(rows), KMEANS_SAMPLE, replace=False)]
        if len(np.unique(sample, axis=0)) < classes:
            raise ValidationError(
                f"'{raster}' has fewer distinct pixel values than the {classes} classes asked for.",
                fix="Ask for fewer classes.",
            )
        model = KMeans(n_clusters=classes, n_init=10, random_state=KMEANS_SEED).fit(sample)
        order = np.argsort(model.cluster_centers_.sum(axis=1))  # class 1 is the darkest: stable across runs
        rank = np.empty(classes, dtype=int)
        rank[order] = np.arange(1, classes + 1)
        labels = rank[model.predict(rows)]
        grid = np.full(valid.shape, CLASS_NODATA, dtype="uint8")
        grid[valid] = labels
        pixel_area = abs(src.transform.a * src.transform.e)
        names = [d or f"band_{i + 1}" for i, d in enumerate(src.descriptions)]
        colours = _class_colours(classes)
        out = _write(
            ctx,
            f"{raster}_classes",
            _grid_profile(src),
            grid,
            "uint8",
            CLASS_NODATA,
            descriptions=(f"k-means class (k={classes})",),
            colormap=colours,
        )
    counts = np.bincount(labels, minlength=classes + 1)[1:]
    table = pd.DataFrame({"class": np.arange(1, classes + 1), "pixels": counts, "area_m2": counts * pixel_area})
    centres = model.cluster_centers_[order]
    for j, band_name in enumerate(names):
        table[f"centre_{band_name}"] = centres[:, j]
    table_out = ctx.save_table(table, f"{raster}_class_centres")
    summary = tr("'{raster}' classified into {k} classes by k-means (seed {seed}): pixels per class {counts}.").format(
        raster=raster, k=classes, seed=KMEANS_SEED, counts=", ".join(f"{i + 1}: {c}" for i, c in enumerate(counts))
    )
    return ToolResult(summary=summary, outputs=[out, table_out], values={"pixels": [int(c) for c in counts]})


def _class_colours(k: int) -> dict:
    import colorsys

    colours = {CLASS_NODATA: (0, 0, 0, 0)}
    for i in range(k):
        r, g, b = colorsys.hsv_to_rgb(i / k, 0.65, 0.9)
        colours[i + 1] = (int(r * 255), int(g * 255), int(b * 255), 255)
    return colours


# The columns QGIS's zonal statistics writes (prefix '_'), so both halves give the same table; plus the deviation.
ZONAL_STATS = ("count", "sum", "mean", "min", "max", "stdev")


@tool(
    ToolSpec(
        name="zonal_statistics",
        half="geojson",
        category="raster",
        purpose="Raster count/sum/mean/min/max/stdev of one band per polygon.",
        params=(
            Param("layer", "layer", "Polygon layer"),
            Param("raster", "layer", "Raster layer"),
            Param("band", "string", "Band (number or name)", required=False, default="1"),
        ),
        returns="the polygons with _count, _sum, _mean, _min, _max, _stdev",
        examples=({"layer": "parcels", "raster": "image_2024_ndvi"},),
        equivalent="qgis_zonal_statistics",
        keywords=("zonal", "zonal statistics", "average per polygon"),
    )
)
def zonal_statistics(ctx: RunContext, layer: str, raster: str, band: str = "1") -> ToolResult:
    import numpy as np
    from rasterio.features import geometry_mask
    from rasterio.windows import from_bounds

    zones = ctx.gdf(layer)
    if not zones.geom_type.isin(["Polygon", "MultiPolygon"]).any():
        raise ValidationError(f"'{layer}' has no polygons to take statistics in.", fix="Give a polygon layer as zones.")
    with _rasterio().open(_raster_path(ctx, raster)) as src:
        index = band_index(src, band, raster)
        if zones.crs is not None and src.crs is not None and zones.crs != src.crs:
            zones = zones.to_crs(src.crs)
            ctx.note(tr("The zones were reprojected to the raster's CRS."))
        stats = {s: [] for s in ZONAL_STATS}
        for geom in zones.geometry:
            values = np.ma.masked_array([])
            if geom is not None and not geom.is_empty:
                window = from_bounds(*geom.bounds, transform=src.transform).round_offsets().round_lengths()
                data = src.read(index, window=window, masked=True, boundless=True).astype("float64")
                data = np.ma.masked_invalid(data)
                inside = ~geometry_mask([geom], data.shape, src.window_transform(window))
                values = data[inside & ~np.ma.getmaskarray(data)].data
            for s in ZONAL_STATS:
                stats[s].append(_stat(values, s))
    out = ctx.gdf(layer).copy()
    for s in ZONAL_STATS:
        out[f"_{s}"] = stats[s]
    summary = tr("Statistics of band {band} of '{raster}' within each polygon of '{layer}'").format(
        band=index, raster=raster, layer=layer
    )
    from ._base import vector_result

    return vector_result(ctx, out, f"{layer}_zonal", summary, n_in=len(out))


def _stat(values, name: str):
    import numpy as np

    if name == "count":
        return int(values.size)
    if values.size == 0:
        return None
    return float({"sum": np.sum, "mean": np.mean, "min": np.min, "max": np.max, "stdev": np.std}[name](values))


def otsu_threshold(values) -> float:
    """The threshold that best splits `values` into two groups (Otsu's method on a 256-bin histogram)."""
    import numpy as np

    counts, edges = np.histogram(values, bins=256)
    centres = (edges[:-1] + edges[1:]) / 2
    w0 = np.cumsum(counts)
    w1 = w0[-1] - w0
    m0 = np.cumsum(counts * centres) / np.maximum(w0, 1)
    m1 = (np.sum(counts * centres) - np.cumsum(counts * centres)) / np.maximum(w1, 1)
    between = w0 * w1 * (m0 - m1) ** 2
    return float(edges[int(np.argmax(between)) + 1])


def same_grid(a, b) -> str | None:
    """Why two rasters are not on the same grid (CRS, size, pixel position), or None when they are."""
    if a.crs != b.crs:
        return f"their CRSs differ ({a.crs} and {b.crs})"
    if (a.width, a.height) != (b.width, b.height):
        return f"their sizes differ ({a.width}×{a.height} and {b.width}×{b.height} pixels)"
    if not a.transform.almost_equals(b.transform):
        return "their pixels lie in different places (origin or pixel size differ)"
    if a.count != b.count:
        return f"they have {a.count} and {b.count} bands"
    return None


@tool(
    ToolSpec(
        name="raster_change",
        half="geojson",
        category="raster",
        purpose="Change between two rasters of one grid (two dates): difference raster and changed area.",
        params=(
            Param("before", "layer", "Earlier raster"),
            Param("after", "layer", "Later raster"),
            Param("band", "string", "Band (default: all bands)", required=False),
            Param("threshold", "number", "Changed above this (default: Otsu)", required=False, minimum=0),
        ),
        returns="difference GeoTIFF, changed-pixel GeoTIFF; the changed area",
        examples=({"before": "image_2024", "after": "image_2025"},),
        keywords=("change detection", "changes", "difference between images"),
    )
)
def raster_change(ctx: RunContext, before: str, after: str, band=None, threshold=None) -> ToolResult:
    import numpy as np

    rasterio = _rasterio()
    with rasterio.open(_raster_path(ctx, before)) as a, rasterio.open(_raster_path(ctx, after)) as b:
        why = same_grid(a, b)
        if why:
            raise ValidationError(
                f"'{before}' and '{after}' are not on the same grid: {why}.",
                fix="Resample one raster onto the other's grid first (QGIS: Align rasters), then compare them.",
            )
        if band is not None:
            ia, ib = band_index(a, band, before), band_index(b, band, after)
            diff = _read(b, ib) - _read(a, ia)
            label = f"{band} ({after} - {before})"
            magnitude = np.ma.abs(diff)
        else:
            stack = [_read(b, i) - _read(a, i) for i in range(1, a.count + 1)]
            diff = stack[0] if a.count == 1 else np.ma.sqrt(sum(d * d for d in stack))
            magnitude = np.ma.abs(diff)
            label = f"{after} - {before}" if a.count == 1 else f"change magnitude ({after} vs {before}, all bands)"
        if magnitude.count() == 0:
            raise ToolError(f"'{before}' and '{after}' share no pixel with data.")
        automatic = threshold is None
        if automatic:
            threshold = otsu_threshold(magnitude.compressed())
        changed = (magnitude > threshold).filled(False)
        mask = np.where(np.ma.getmaskarray(magnitude), 255, changed.astype("uint8"))
        profile = _grid_profile(a)
        diff_out = _write(
            ctx,
            f"{after}_minus_{before}",
            profile,
            diff.filled(FLOAT_NODATA),
            "float32",
            FLOAT_NODATA,
            descriptions=(label,),
        )
        mask_out = _write(
            ctx,
            f"{after}_changed",
            profile,
            mask,
            "uint8",
            255,
            descriptions=("changed (1)",),
            colormap={0: (0, 0, 0, 0), 1: (220, 30, 30, 255)},
        )
        pixel_area = abs(a.transform.a * a.transform.e)
    n_changed, n_valid = int(changed.sum()), int(magnitude.count())
    area = n_changed * pixel_area
    how = tr("Otsu's threshold") if automatic else tr("the threshold")
    answer = tr("{area} m² ({ha} ha, {n} pixels, {share}% of the valid area) changed by more than {t} ({how}).").format(
        area=plain_number(area),
        ha=plain_number(round(area / 1e4, 4)),
        n=plain_number(n_changed),
        share=f"{100 * n_changed / n_valid:.2f}",
        t=f"{threshold:.4g}",
        how=how,
    )
    summary = tr("Change from '{before}' to '{after}': {label}.").format(before=before, after=after, label=label)
    return ToolResult(
        summary=summary + " " + answer, outputs=[diff_out, mask_out], answer=answer,
        values={"changed_area_m2": area, "changed_pixels": n_changed, "threshold": float(threshold)},
    )  # fmt: skip
