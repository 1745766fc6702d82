"""the router answers identically in processes with different string hash seeds (PYTHONHASHSEED)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import geopandas as gpd
from geoclerk.reading.schema_match import find_layers
from geoclerk.reading.text import fold
from geoclerk.router.core import stable_missing
from geoclerk.router.model import normalise
from shapely.geometry import Point, box

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = """
import json, sys
from pathlib import Path
from geoclerk.function_lib import load_registry
from geoclerk.function_lib.describe import describe_path
from geoclerk.router import model as rmodel
from geoclerk.router.core import Router
model_dir = Path(sys.argv[2])
trained = rmodel.parse({f.name: f.read_bytes() for f in model_dir.iterdir()})
router = Router(load_registry(), trained=trained)
for line in open(sys.argv[1]):
    item = json.loads(line)
    print(json.dumps(router.route(item["request"], [describe_path(p) for p in item["inputs"]]).to_json()))
"""


def _batch(tmp_path) -> Path:
    gpx = tmp_path / "waypoints.gpx"
    gpd.GeoDataFrame({"name": ["a", "b"]}, geometry=[Point(9.1, 45.0), Point(9.2, 45.1)], crs="EPSG:4326").to_file(
        gpx, driver="GPX")
    insp = tmp_path / "inspections.gpkg"
    gpd.GeoDataFrame({"inspection_date": ["2023-05-01", "2024-02-01"], "score": [3, 4]},
                     geometry=[box(0, 0, 1, 1), box(2, 0, 3, 1)], crs="EPSG:32633").to_file(insp)
    items = [
        ("convert waypoints.gpx to geojson", gpx),
        ("inspections after 2024-01-01", insp),
        ("inspections with inspection_date before 2023-01-01", insp),
        ("convert the inspections to KML", insp),
        ("buffer the inspections by 3 km and count them per score", insp),
    ]
    path = tmp_path / "batch.jsonl"
    path.write_text("".join(json.dumps({"request": r, "inputs": [str(p)]}) + "\n" for r, p in items))
    return path


def _model_copy(tmp_path) -> Path:
    """The trained router model, copied: both processes read the same one, even while the corpus changes."""
    import shutil

    from geoclerk.function_lib import load_registry
    from geoclerk.router.train import CORPUS, MODEL_DIR, load_or_train

    load_or_train(list(load_registry().specs()), CORPUS, MODEL_DIR)
    target = tmp_path / "model"
    target.mkdir()
    for name in ("vocab.json", "weights.npz"):
        shutil.copy(MODEL_DIR / name, target / name)
    return target


def _route_in_process(batch: Path, model: Path, seed: str) -> str:
    env = {**os.environ, "PYTHONHASHSEED": seed, "QT_QPA_PLATFORM": "offscreen"}
    proc = subprocess.run([sys.executable, "-c", SCRIPT, str(batch), str(model)], capture_output=True, text=True,
                          env=env, timeout=300, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc.stdout


def test_route_output_is_identical_across_hash_seeds(tmp_path):
    batch, model = _batch(tmp_path), _model_copy(tmp_path)
    first, second = _route_in_process(batch, model, "0"), _route_in_process(batch, model, "1")
    assert len(first.splitlines()) == 5
    assert first == second


def test_a_file_name_is_masked_whole_whichever_variant_matched():
    from geoclerk.function_lib.describe import LayerInfo

    layer = LayerInfo(name="waypoints", path="/d/waypoints.gpx")
    text = "convert waypoints.gpx to geojson"
    mentions = find_layers(fold(text), [layer])
    short = [type(m)(m.name, m.start, m.start + len("waypoints"), m.score) for m in mentions]
    assert normalise(text, [layer], mentions) == normalise(text, [layer], short) == "convert  lyr  to geojson"
    raster = LayerInfo(name="tmean", path="/d/tmean.tif", kind="raster")
    zh = "每个lots的平均tmean.tif值"
    found = find_layers(fold(zh), [raster])
    cut = [type(m)(m.name, m.start, m.start + len("tmean"), m.score) for m in found]
    assert normalise(zh, [raster], found) == normalise(zh, [raster], cut) == "每个lots的平均 lyr 值"


def test_missing_entries_in_parameter_order_then_by_name():
    from geoclerk.function_lib import load_registry

    spec = next(s for s in load_registry().specs() if s.name == "filter_by_expression")
    got = stable_missing(spec, ["number: 2023", "field: inspection_date", "expression", "number: 01"])
    assert got == ["expression", "field: inspection_date", "number: 01", "number: 2023"]


TRAINING_TEXTS = """
import hashlib, json
from geoclerk.function_lib import load_registry
from geoclerk.router.train import CORPUS, ROUTES, read_corpus, spec_rows, tool_word_rows, training_arrays
specs = list(load_registry().specs())
rows = [r for r in read_corpus(CORPUS) if r.get("route") in ROUTES] + spec_rows(specs)
rows += tool_word_rows({s.name for s in specs})
texts, ctxs, *_ = training_arrays(rows)
print(len(texts), hashlib.sha256(json.dumps([texts, ctxs], ensure_ascii=False).encode()).hexdigest())
"""


def test_training_texts_are_identical_across_hash_seeds():
    """The model trained by `make router` is the same whatever the seed: its normalised texts are."""
    outs = []
    for seed in ("0", "1"):
        env = {**os.environ, "PYTHONHASHSEED": seed, "QT_QPA_PLATFORM": "offscreen"}
        proc = subprocess.run([sys.executable, "-c", TRAINING_TEXTS], capture_output=True, text=True, env=env,
                              timeout=300, cwd=ROOT)
        assert proc.returncode == 0, proc.stderr[-2000:]
        outs.append(proc.stdout.strip())
    assert int(outs[0].split()[0]) > 1000
    assert outs[0] == outs[1]
