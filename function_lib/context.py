"""The run context tools work in: named layers in, new outputs out, notes for the summary."""

from __future__ import annotations

import difflib
import re
import threading
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable

from ..errors import CancelledError, ValidationError
from ..lang import tr

VECTOR_SUFFIXES = {".gpkg", ".geojson", ".json", ".shp", ".fgb", ".parquet", ".geoparquet", ".kml", ".gml"}
RASTER_SUFFIXES = {".tif", ".tiff", ".asc", ".vrt", ".img", ".nc"}
TABLE_SUFFIXES = {".csv", ".xlsx", ".tsv"}
IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg", ".svg", ".gif"}
HTML_SUFFIXES = {".html", ".htm"}
# A folder given as an input stands for the GIS files in it (not .json: often not GIS), except folders that are
# one dataset (a FileGDB).
DATASET_FOLDERS = {".gdb"}
FOLDER_INPUT_SUFFIXES = (VECTOR_SUFFIXES - {".json"}) | RASTER_SUFFIXES | {".csv", ".tsv", ".gpx", ".xlsx", ".ods"}


def _has_shp(dbf: Path) -> bool:
    """A .dbf beside a .shp of the same stem is the shapefile's attribute part, not a table of its own."""
    return any(dbf.with_suffix(s).exists() for s in (".shp", ".SHP"))


def url_file_name(name: str, table: bool) -> str:
    """The file a URL input is copied to for generated code: its layer name, GeoPackage or CSV."""
    return safe_name(name) + (".csv" if table else ".gpkg")


def url_stem(url: str) -> str:
    """A layer name for a URL input: its last path part without the suffix ('…/collections/rivers/items' → rivers)."""
    parts = [p for p in re.split(r"[/?#]", re.sub(r"^\w+:(?=https?://)", "", url).split("://", 1)[-1]) if p]
    parts = [p for p in parts[1:] if p.lower() not in ("items", "collections")] or parts[:1]
    if "/collections/" in url:
        after = url.split("/collections/", 1)[1].split("/")[0]
        return safe_name(after) or "url"
    return safe_name(Path(parts[-1].split("=")[-1]).stem) or "url"


def output_kind(path: str | Path) -> str:
    """Classify a file by its suffix: vector, raster, table, image, html or text (a .json is a vector
    only when it holds GeoJSON)."""
    suffix = Path(path).suffix.lower()
    if suffix == ".json" and not _looks_like_geojson(path):
        return "text"
    for kind, suffixes in (
        ("vector", VECTOR_SUFFIXES),
        ("raster", RASTER_SUFFIXES),
        ("table", TABLE_SUFFIXES),
        ("image", IMAGE_SUFFIXES),
        ("html", HTML_SUFFIXES),
    ):
        if suffix in suffixes:
            return kind
    return "text"


def _looks_like_geojson(path: str | Path) -> bool:
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            head = handle.read(4096)
    except OSError:
        return True  # not written yet: trust the suffix
    return bool(
        re.search(
            r'"type"\s*:\s*"(?:FeatureCollection|Feature|Point|LineString|Polygon|Multi\w+|'
            r'GeometryCollection)"',
            head,
        )
    )


def safe_name(text: str, limit: int = 48) -> str:
    """A file-system safe stem made from a layer name or a request."""
    stem = re.sub(r"[^\w\-]+", "_", text, flags=re.UNICODE).strip("_").lower()
    return (stem or "result")[:limit]


@dataclass
class Output:
    """One result the user gets: a file on disk, its kind, and the layer name it is known by."""

    path: str
    kind: str
    name: str = ""

    def to_json(self) -> dict:
        return {"path": self.path, "kind": self.kind}


@dataclass
class ToolResult:
    """What a tool returns: outputs, a short summary, and an optional answer (a count, a distance)."""

    summary: str
    outputs: list[Output] = field(default_factory=list)
    answer: str | None = None
    values: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict:
        data = asdict(self)
        data["outputs"] = [o.to_json() for o in self.outputs]
        return data


@dataclass
class LayerPeek:
    """A layer's size and shape as far as choosing an engine needs: None where unknown."""

    count: int | None = None
    lon_span: float | None = None  # degrees of longitude covered
    mixed: bool = False  # more than one geometry family (points and polygons, say)
    is_table: bool = False  # a CSV/XLSX whose geometry comes from columns


@dataclass
class LayerEntry:
    """A named layer: where it lives and, once read, its data (a GeoDataFrame or a QGIS layer)."""

    name: str
    path: str | None = None
    data: Any = None
    loader: Callable[[], Any] | None = None
    layer: str | None = None  # the layer inside a multi-layer file (a GeoPackage's 'roads'); None: its only layer


class LayerStore:
    """Layers by name: the inputs, then every result a step produced (so chains can refer to them)."""

    def __init__(self):
        self._entries: dict[str, LayerEntry] = {}

    def add(self, name: str, path: str | None = None, data: Any = None, loader=None, layer=None) -> LayerEntry:
        entry = LayerEntry(name=name, path=path, data=data, loader=loader, layer=layer)
        self._entries[name] = entry
        return entry

    def add_path(self, path: str | Path) -> LayerEntry:
        """Add an input file under its stem (and keep the path findable by its full text); a second file
        with the same stem (a/points.geojson, b/points.geojson) becomes points_2, never a replacement.

        A file holding several layers with features (a GeoPackage with 'parcels' and 'roads') adds one input
        per layer, named by the layer; the first entry is returned."""
        from .tables import is_url

        if is_url(path):
            return self.add(self._free_name(url_stem(str(path))), path=str(path))
        if Path(path).is_dir() and Path(path).suffix.lower() not in DATASET_FOLDERS:
            return self._add_folder(Path(path))
        path = str(path)
        layers = sublayers(path)
        if len(layers) <= 1:
            first = layers[0] if layers else None
            return self.add(self._free_name(Path(path).stem), path=path, layer=first)
        entries = [self.add(self._free_name(layer), path=path, layer=layer) for layer in layers]
        return entries[0]

    def _add_folder(self, folder: Path) -> LayerEntry:
        """A folder given as an input: every GIS file directly inside it (sorted), each added as above."""
        files = sorted(
            p
            for p in folder.iterdir()
            if p.is_file()
            and (p.suffix.lower() in FOLDER_INPUT_SUFFIXES or (p.suffix.lower() == ".dbf" and not _has_shp(p)))
        )
        if not files:
            raise ValidationError(
                f"The folder '{folder}' holds no GIS files.",
                fix="Pass the files themselves (GeoPackage, GeoJSON, Shapefile, CSV, GeoTIFF ...).",
            )
        return [self.add_path(p) for p in files][0]

    def _free_name(self, stem: str) -> str:
        name, n = stem, 2
        while name in self._entries:
            name = f"{stem}_{n}"
            n += 1
        return name

    def names(self) -> list[str]:
        return list(self._entries)

    def drop(self, name: str) -> None:
        """Forget a layer (a step's result that is undone); the file is the caller's to remove."""
        self._entries.pop(name, None)

    def __contains__(self, name: str) -> bool:
        return self.find(name) is not None

    def find(self, name: str) -> LayerEntry | None:
        """Exact name, then path, stem or case-insensitive match; None when nothing fits."""
        if name in self._entries:
            return self._entries[name]
        wanted = name.strip().lower()
        for entry in self._entries.values():
            candidates = {entry.name.lower()}
            if entry.path:
                candidates |= {entry.path.lower(), Path(entry.path).stem.lower(), Path(entry.path).name.lower()}
            if wanted in candidates:
                return entry
        return None

    def get(self, name: str) -> LayerEntry:
        entry = self.find(name)
        if entry is None:
            available = tr("Available layers: {names}").format(names=", ".join(self.names()))
            raise ValidationError(
                tr("There is no layer called '{name}'.").format(name=name),
                fix=did_you_mean(name, self.names(), available),
            )
        return entry


MULTI_LAYER_SUFFIXES = {".gpkg", ".gpx", ".kml", ".gml", ".sqlite", ".gdb"}
SHEET_FILES = {".xlsx", ".xls", ".ods"}


def sublayers(path: str) -> list[str]:
    """The layers and tables with rows of a file that can hold several (GeoPackage, GPX, KML, a workbook's sheets,
    ...), in file order.

    [] for single-layer formats and unreadable files (the reader will say why)."""
    if Path(path).suffix.lower() not in MULTI_LAYER_SUFFIXES | SHEET_FILES:
        return []
    try:
        import pyogrio

        listed = pyogrio.list_layers(path)
        if len(listed) <= 1:
            return []
        found = []
        for name, _geometry_type in listed:
            # an attribute table (a GeoPackage's lookup table, a sheet) is an input too: a table without geometry
            count = pyogrio.read_info(path, layer=str(name), force_feature_count=True)["features"]
            if count:
                found.append(str(name))
    except Exception:  # noqa: BLE001 - unreadable: the reader raises the clear error later
        return []
    return found


def feature_counts(n_in: int | None, n_out: int | None) -> str:
    """' (12 features in, 10 out)' in the user's language; ' (12 features in)' or ' (10 features)' with one unknown."""
    if n_in is not None and n_out is not None:
        return tr(" ({n_in} features in, {n_out} out)").format(n_in=n_in, n_out=n_out)
    if n_in is not None:
        return tr(" ({n_in} features in)").format(n_in=n_in)
    return tr(" ({n} features)").format(n=n_out)


def did_you_mean(name: str, choices: list[str], fallback: str = "") -> str:
    """'Did you mean X?' for the closest choices (case-insensitive), else the fallback text."""
    lowered = {c.lower(): c for c in choices}
    close = difflib.get_close_matches(name.lower(), list(lowered), n=3, cutoff=0.5)
    if close:
        return tr("Did you mean {names}?").format(names=tr(" or ").join(f"'{lowered[c]}'" for c in close))
    return fallback


class RunContext:
    """Where a request's tools run: the layer store, the output folder, notes, progress and cancel."""

    def __init__(self, out_dir: str | Path, layers: LayerStore | None = None, progress=None):
        self.out_dir = Path(out_dir)
        self.out_dir.mkdir(parents=True, exist_ok=True)
        self.layers = layers or LayerStore()
        self.notes: list[str] = []
        self._call_start = 0  # index in notes where the current tool call's notes begin
        self.outputs: list[Output] = []
        self.cancel_event = threading.Event()
        self._progress = progress
        self._url_copies: dict[str, str] = {}  # URL inputs written to local files, by layer name
        self.timings: dict[str, float] = {}  # seconds per named phase of the tools run here (benchmarks read it)

    # -- progress and cancel ---------------------------------------------------------------
    def progress(self, percent: float, message: str = "") -> None:
        if self._progress:
            self._progress(percent, message)

    def add_time(self, phase: str, seconds: float) -> None:
        self.timings[phase] = self.timings.get(phase, 0.0) + seconds

    def check_cancelled(self) -> None:
        if self.cancel_event.is_set():
            raise CancelledError()

    def forget_since(self, start: int, known: set[str], notes: int | None = None) -> None:
        """Undo what ran after a mark: the outputs from `start` on (their files deleted), the layers not in `known`,
        and the notes from `notes` on. A declined chain of steps leaves nothing behind."""
        if notes is not None:
            del self.notes[notes:]
        for out in self.outputs[start:]:
            Path(out.path).unlink(missing_ok=True)
        del self.outputs[start:]
        for name in set(self.layers.names()) - known:
            self.layers.drop(name)

    def note(self, text: str) -> None:
        """Record something the user should know (CRS used, geometries repaired, ...)."""
        if text not in self.call_notes:
            self.notes.append(text)

    def begin_call(self) -> None:
        """Start a tool call: its summary repeats only the notes made from now on."""
        self._call_start = len(self.notes)

    @property
    def call_notes(self) -> list[str]:
        """The notes of the current tool call (a chain's later steps do not repeat earlier ones)."""
        return self.notes[self._call_start :]

    # -- inputs ----------------------------------------------------------------------------
    def gdf(self, name: str):
        """The named layer as a GeoDataFrame (read once, then cached); a table without geometry is refused with
        what it can be used for."""
        data = self.data(name)
        if _is_table(data):
            from .io import no_geometry_error

            entry = self.layers.get(name)
            raise no_geometry_error(data, Path(entry.path).name if entry.path else entry.name)
        return data

    def data(self, name: str):
        """The named input as read: a GeoDataFrame (a layer) or a DataFrame (a table without geometry), cached."""
        entry = self.layers.get(name)
        if entry.data is not None and (_is_gdf(entry.data) or _is_table(entry.data)):
            return entry.data
        if entry.loader is not None:
            entry.data = entry.loader()
        elif entry.path:
            from .tables import read_input

            entry.data = read_input(entry.path, layer=entry.layer)
        else:
            raise ValidationError(f"Layer '{name}' has no data to read.")
        return entry.data

    def is_table(self, name: str) -> bool:
        """True when the named input is a table without geometry."""
        return _is_table(self.data(name))

    def peek(self, name: str) -> LayerPeek:
        """What decides which half runs a job, learnt cheaply: from loaded data, a QGIS layer, or the
        file's header (a GeoJSON, whose header has no geometry type, is read once and cached)."""
        from .metric import lon_span

        entry = self.layers.get(name)
        data = entry.data
        if _is_table(data) or (data is None and entry.path and from_columns(entry.path)):
            return LayerPeek(is_table=True)
        if data is None and entry.path and output_kind(entry.path) in ("table", "vector"):
            try:
                import pyogrio

                info = pyogrio.read_info(entry.path, layer=entry.layer)
            except Exception:  # noqa: BLE001 - an unreadable header means "unknown", the tool will say why
                return LayerPeek()
            if info.get("geometry_type") not in (None, "Unknown"):
                bounds, crs = info.get("total_bounds"), info.get("crs")
                span = lon_span(bounds, crs) if bounds is not None and crs else None
                return LayerPeek(int(info["features"]), span)
            data = self.data(name)
            if _is_table(data):  # a GeoPackage attribute table, a GeoJSON without geometries
                return LayerPeek(is_table=True)
        if data is not None and _is_gdf(data):
            families = {str(t).removeprefix("Multi") for t in data.geometry.geom_type.dropna().unique()}
            span = lon_span(data.total_bounds, data.crs) if len(data) else None
            return LayerPeek(len(data), span, mixed=len(families) > 1)
        if data is not None and hasattr(data, "featureCount"):
            return LayerPeek(int(data.featureCount()))
        return LayerPeek()

    def path(self, name: str) -> str:
        """The named layer as a file path, writing a cached GeoDataFrame out when needed."""
        entry = self.layers.get(name)
        from .tables import is_url

        if entry.path and is_url(entry.path):
            return self._local_copy(entry)
        if entry.path:
            return entry.path
        target = self.unique_path(entry.name, ".gpkg")
        from .io import write_vector

        write_vector(entry.data, target)
        entry.path = str(target)
        return entry.path

    def _local_copy(self, entry: LayerEntry) -> str:
        """A URL input written once to a private temporary file named as its description says (url_file_name),
        for code that reads files (the sandbox has no network)."""
        import shutil
        import tempfile
        import weakref

        if entry.name not in self._url_copies:
            data = self.data(entry.name)
            folder = Path(tempfile.mkdtemp(prefix="geoclerk-url-"))
            weakref.finalize(self, shutil.rmtree, folder, True)  # removed with the run context
            target = folder / url_file_name(entry.name, _is_table(data))
            if _is_table(data):
                data.to_csv(target, index=False)
            else:
                from .io import write_vector

                write_vector(data, target)
            self._url_copies[entry.name] = str(target)
        return self._url_copies[entry.name]

    # -- outputs ---------------------------------------------------------------------------
    def unique_path(self, stem: str, suffix: str) -> Path:
        """A new path in the output folder that never overwrites an existing file."""
        base = safe_name(stem)
        candidate = self.out_dir / f"{base}{suffix}"
        n = 2
        while candidate.exists():
            candidate = self.out_dir / f"{base}_{n}{suffix}"
            n += 1
        return candidate

    def add_output(self, path: str | Path, name: str = "", kind: str | None = None, data: Any = None) -> Output:
        """Register a file written to the output folder; vector and raster outputs become layers for next steps."""
        path = str(path)
        out = Output(path=path, kind=kind or output_kind(path), name=name or Path(path).stem)
        self.outputs.append(out)
        if out.kind in ("vector", "raster"):
            self.layers.add(out.name, path=path, data=data)
        return out

    def save_vector(self, gdf, name: str, fmt: str = "gpkg") -> Output:
        """Write a GeoDataFrame as a new file (never over an input) and register it as a layer."""
        from .io import write_vector

        path = write_vector(gdf, self.unique_path(name, "." + fmt.lower().lstrip(".")))
        kind = output_kind(path)  # a CSV with a WKT column is a table to the user, still readable as a layer
        out = self.add_output(path, name=Path(path).stem, kind=kind, data=gdf)
        if kind != "vector":
            self.layers.add(out.name, path=path, data=gdf)
        return out

    def save_table(self, df, name: str) -> Output:
        path = self.unique_path(name, ".csv")
        df.to_csv(path, index=False)
        return self.add_output(path, name=Path(path).stem, kind="table")


def _is_gdf(obj) -> bool:
    return type(obj).__name__ == "GeoDataFrame"


def from_columns(path: str) -> bool:
    """A table file (CSV, sheet, DBF) whose geometry, if any, comes from its columns."""
    from .tables import TABLE_SUFFIXES

    return Path(path).suffix.lower() in TABLE_SUFFIXES


def _is_table(obj) -> bool:
    return type(obj).__name__ == "DataFrame"
