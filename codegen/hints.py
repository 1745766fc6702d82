"""Notes added to a repair message from what an error says: the real field names, how rasters are read here."""

from __future__ import annotations

import re

from ..function_lib.context import did_you_mean
from . import prompt


def raster_hints(error: str) -> list[str]:
    """osgeo/gdal refused: say how rasters are read and written here instead."""
    if not re.search(r"import of '(osgeo|gdal|fiona)|No module named '(osgeo|gdal)", error):
        return []
    if prompt.raster_io_available():
        return [
            "GDAL's Python bindings (osgeo) are not available: read and write rasters with rasterio "
            "(rasterio.open('in.tif'), src.read(1, masked=True), rasterio.open('out.tif', 'w', **profile))."
        ]
    return ["Raster I/O is not available in this sandbox: work with the vector layers and tables only."]


# Packages a model names by their distribution name: what Python imports instead.
IMPORT_NAMES = {"scikit-image": "skimage", "scikit-learn": "sklearn", "python-dateutil": "dateutil", "pillow": "PIL"}


def import_name_hints(error: str) -> list[str]:
    """`from scikit-image import exposure` (the local model's, refused as a syntax error): the name to import."""
    said = [(d, m) for d, m in IMPORT_NAMES.items() if re.search(rf"(?:import|from)\s+{d}\b", error, re.I)]
    return [f"The package {dist} is imported as `{mod}` (e.g. `import {mod}`)." for dist, mod in said]


def schema_hints(error: str, layer_infos) -> list[str]:
    """A KeyError or AttributeError on a name that is not a field: list the real fields, closest first."""
    match = re.search(r"KeyError: \"?'([^']+)'|has no attribute '([^']+)'|column[s]? \[?'([^']+)'", error)
    if not match or not layer_infos:
        return []
    name = next(g for g in match.groups() if g)
    fields = {f for info in layer_infos for f in info.field_names()}
    if name in fields:
        return []
    hint = did_you_mean(name, sorted(fields))
    if not hint:  # 'population' vs 'pop': difflib finds them too far apart, a shared prefix says otherwise
        near = [f for f in sorted(fields) if len(f) >= 2 and (f.lower() in name.lower() or name.lower() in f.lower())]
        hint = ("Did you mean " + " or ".join(f"'{f}'" for f in near[:3]) + "?") if near else ""
    listing = "; ".join(f"{info.name}: {', '.join(info.field_names()) or '(no fields)'}" for info in layer_infos)
    return [f"'{name}' is not a field of the input layers. {hint} Fields: {listing}".replace("  ", " ")]
