"""Results checked against the request before `ok`: post-conditions derived from what the request said.

Declared once, for every tier: a request that names a target CRS ends in that CRS; per-feature wording ('each',
'per', 'je', '每个') keeps one output per input feature; an asked file format or image exists; 'top N' gives N rows;
a field named for the tool is in the output; a clip, overlay or filter of layers that have features did not come out
empty unless the request allows nothing. A failed check discards the outputs and hands the request on with the
reason, so a result that looks right but is not never reaches the user as `ok`.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from ..function_lib.traits import one_per_feature, traits_of
from ..languages import topic
from ..planning.markers import EACH_WORDING

_ASKS = topic("asks")

IMAGE_WORDS = re.compile("|".join(m.IMAGE_WORDS for m in _ASKS))
# With a raster in play, 'image', 'Bild' and '图像' name the data ('the 2025 image', 'das Bild', '卫星图像'): only words
# that always mean a picture, or an image asked *as* a result ('as an image', 'als Bild', '导出成图像'), ask for one.
PICTURE_WORDS = re.compile("|".join(m.PICTURE_WORDS for m in _ASKS))


# Wording that lets the answer be 'nothing' ('are there any …', 'whether', 'ob', '是否'): an empty layer answers it.
MAYBE_NONE_WORDS = re.compile("|".join(m.MAYBE_NONE_WORDS for m in _ASKS))

# Spatial predicates whose everyday words ('touch', 'cross') mean less than the DE-9IM relation: an empty result
# from them is more likely a misreading than an answer.
_STRICT = {"touches", "crosses", "overlaps"}


def _read_vector(path: str):
    """The file as a frame (not to be changed by the caller): read once while the file is unchanged, since the checks
    look at one result several times (empty, one per feature, strict predicate, top N, field, CRS)."""
    stat = Path(path).stat()
    return _read_unchanged(str(path), stat.st_mtime_ns, stat.st_size)


@lru_cache(maxsize=1)  # one result per request: not a second large frame kept in a long-lived QGIS
def _read_unchanged(path: str, mtime_ns: int, size: int):
    import geopandas as gpd

    return gpd.read_file(path)


def _final(outputs, kinds=("vector",)):
    vectors = [o for o in outputs if o.kind in kinds and Path(o.path).exists()]
    return vectors[-1] if vectors else None


def _features_with_geometry(path: str) -> int:
    """Rows of a vector file whose geometry is not null or empty (an intersection keeps rows of empty geometry)."""
    data = _read_vector(path)
    try:
        geometry = data.geometry
    except AttributeError:  # a layer file without an active geometry column: its rows
        return len(data)
    return int((~(geometry.isna() | geometry.is_empty)).sum())


def empty_result(request: str, path: str, infos) -> str | None:
    """Why a vector result with no features is suspect, or None. From inputs that all have features, a clip, an
    overlay or a filter that selected nothing is more often a misreading (the wrong cutter, a misspelt value, a
    layer in another CRS) than the answer, unless the request allows nothing ('are there any …', 'whether')."""
    from ..reading.text import fold

    inputs = [la for la in infos or () if la.kind == "vector"]
    if not inputs or any(not la.feature_count for la in inputs) or MAYBE_NONE_WORDS.search(fold(request)):
        return None
    if _features_with_geometry(path):
        return None
    counts = ", ".join(f"{la.name} {la.feature_count}" for la in inputs)
    return (
        f"the result {Path(path).name} has no features although the inputs have ({counts}): the overlay or filter "
        "selected nothing, which the request does not expect"
    )


def empty_outputs(request: str, outputs: list[dict], infos) -> list[str]:
    """Tier 2's form of empty_result, for the code worker's output check: each vector file a run wrote that is
    suspect, worded as what the request still asks for."""
    found = []
    for out in outputs:
        if out.get("kind") == "vector" and Path(out.get("path", "")).exists():
            why = empty_result(request, out["path"], infos)
            if why:
                found.append(f"features in the result ({why})")
    return found


# A share of a whole ('what percentage of the image …', 'welcher Anteil', '百分之几'): an answer outside 0-100 % is
# impossible (the local model's NDVI from the blue and green bands printed 19496.25 %).
SHARE_QUESTION = re.compile("|".join(m.SHARE_QUESTION for m in _ASKS))
_PERCENT = re.compile(r"(-?\d[\d,]*(?:\.\d+)?)\s*(?:%|percent|prozent)", re.IGNORECASE)


def implausible_share(request: str, stdout: str) -> list[str]:
    """Tier 2: a share of a whole was asked and a printed percentage lies outside 0-100, worded as what is asked."""
    from ..reading.text import fold

    if not SHARE_QUESTION.search(fold(request)):
        return []
    for m in _PERCENT.finditer(stdout or ""):
        said = m.group(1)
        thousands = re.fullmatch(r"-?\d{1,3}(?:,\d{3})+(?:\.\d+)?", said)  # 1,234.5 — else 99,5 is a decimal comma
        try:
            value = float(said.replace(",", "") if thousands else said.replace(",", "."))
        except ValueError:
            continue
        if not 0 <= value <= 100:
            return [f"a share between 0 and 100 % (the printed {m.group(0).strip()} cannot be a share of a whole)"]
    return []


def _crs_of(path: str) -> str | None:
    from pyproj import CRS

    crs = _read_vector(path).crs
    if crs is None:
        return None
    epsg = CRS.from_user_input(crs).to_epsg()
    return f"EPSG:{epsg}" if epsg else crs.to_string()


def _repeated_keys(table, key) -> int:
    """How many rows of a joined table repeat a key (a one-to-many join picks one row per feature by itself)."""
    if table is None or not isinstance(key, str) or not table.path:
        return 0
    from ..function_lib.tables import read_input

    try:
        data = read_input(table.path, getattr(table, "layer", None))
    except Exception:  # noqa: BLE001 - unreadable here means the tool already said so
        return 0
    return int(data[key].dropna().duplicated().sum()) if key in getattr(data, "columns", ()) else 0


def asks_for_image(folded: str, infos) -> bool:
    """Does the (folded) request ask for a picture? With a raster loaded, 'the image' is the raster: only wording that
    asks for a picture counts (PICTURE_WORDS); otherwise any image word outside a layer's name."""
    if any(getattr(i, "kind", None) == "raster" for i in infos or ()):
        return bool(PICTURE_WORDS.search(folded))
    return bool(IMAGE_WORDS.search(_without_layer_names(folded, infos)))


def _without_layer_names(folded: str, infos) -> str:
    """The request with the layers it names blanked out: 'the satellite image' names a raster, not a picture."""
    from ..reading.request import mask
    from ..reading.schema_match import find_layers

    return mask(folded, [(m.start, m.end) for m in find_layers(folded, list(infos or ()))])


def result_problems(request: str, outputs, infos, plan=None, asked_format: str | None = None) -> list[str]:
    """What the result fails of what the request asked; empty when every check holds (or none applies)."""
    from ..reading.crs import crs_roles, etrs_twin
    from ..reading.text import fold

    folded = fold(request)
    problems: list[str] = []
    tool = plan.tool if plan is not None else None
    params = plan.params if plan is not None else {}
    by_name = {la.name: la for la in infos or ()}
    final = _final(outputs)

    if asked_format and final is not None:
        suffix = Path(final.path).suffix.lower().lstrip(".")
        if suffix != asked_format and not (asked_format == "geojson" and suffix == "json"):
            problems.append(f"the result was asked as {asked_format.upper()} but written as {suffix.upper()}")
    if asks_for_image(folded, infos) and not _final(outputs, ("image",)):
        problems.append("an image was asked for and none was made")

    _, target, _ = crs_roles(request)
    reprojecting = tool is None or "reprojects" in traits_of(tool)
    if target and reprojecting and final is None and "reproject" in folded + (tool or ""):
        problems.append(f"a layer in {target} was asked for and none was made")
    if target and reprojecting and final is not None and not params.get("assign"):
        got = _crs_of(final.path)
        if got is None or (got.upper() != target.upper() and not etrs_twin(target, got)):  # 'UTM 32N' in Europe
            problems.append(f"the result is in {got or 'no CRS'}, not in the asked {target}")

    empty = empty_result(request, final.path, infos) if final is not None else None
    if empty and params.get("predicate") not in _STRICT:  # the strict predicates say more, below
        problems.append(empty)
    if tool and final is not None:
        layer = by_name.get(params.get("layer") or "")
        if EACH_WORDING.search(folded) and layer is not None and layer.feature_count:
            n = len(_read_vector(final.path))
            if one_per_feature(tool, params) and n != layer.feature_count:
                problems.append(f"one result per feature was asked: {layer.feature_count} in, {n} out")
        if params.get("predicate") in _STRICT and layer is not None and layer.feature_count:
            if len(_read_vector(final.path)) == 0:  # 'habitats that touch a trail': said of lines crossing them
                problems.append(
                    f"no feature of {layer.name} {params['predicate']} the other layer in the strict sense; "
                    "the request may mean 'intersects' (any contact)"
                )
        top = params.get("top_n")
        if isinstance(top, int) and layer is not None:
            n = len(_read_vector(final.path))
            if n != min(top, layer.feature_count or top):
                problems.append(f"the top {top} were asked, and the result has {n} rows")
        repeated = _repeated_keys(by_name.get(params.get("table") or ""), params.get("table_field"))
        if repeated:  # 'join the monthly measurements to the stations': which month per station is not said
            problems.append(
                f"{params['table']} has {repeated} rows that repeat a {params['table_field']} of another; the request "
                "does not say which row each feature takes (or whether to sum or average them)"
            )
        field = params.get("field")
        if isinstance(field, str) and ("keeps_subset" in traits_of(tool) or "orders" in traits_of(tool)):
            columns = set(_read_vector(final.path).columns)
            if field not in columns:
                problems.append(f"the field {field} named in the request is not in the result")
    return problems
