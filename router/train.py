"""Train the router from the corpus (deterministic, seconds) and keep it cached with a hash of corpus and code.

`python -m geoclerk.router.train` (what `make router` runs) rebuilds the cached model when it is stale.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import time
from importlib import metadata
from pathlib import Path

from ..errors import RouterError
from ..function_lib.describe import FieldInfo, LayerInfo
from ..reading.schema_match import find_layers
from ..reading.text import fold
from ..reading.tool_words import tool_word_rows
from . import model as rmodel

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
CORPUS = ROOT / "dev" / "corpus" / "corpus.jsonl"  # a development file: the plugin ZIP ships the trained model only
MODEL_DIR = HERE / "model"
# The code the features depend on, and every language's word lists (the readers' patterns are built from them).
CODE_FILES = ("router/model.py", "router/train.py", "reading/text.py", "reading/schema_match.py", "reading/cues.py",
              "reading/tool_words.py")  # fmt: skip
ROUTES = ("function", "codegen", "chat")


def layer_from_json(d: dict) -> LayerInfo:
    """A corpus layer (or a `describe` JSON) as a LayerInfo."""
    fields = [
        FieldInfo(f["name"], f.get("type", "string"), list(f.get("samples") or [])) for f in d.get("fields") or []
    ]
    return LayerInfo(
        name=d["name"],
        path=d.get("path"),
        kind=d.get("kind") or "vector",
        geometry_type=d.get("geometry_type"),
        crs=d.get("crs"),
        fields=fields,
    )


def read_corpus(path: Path = CORPUS) -> list[dict]:
    if not path.exists():
        raise RouterError(
            f"The router corpus {path} is missing.",
            fix="Restore dev/corpus/corpus.jsonl from the repository (or regenerate it), then run `make router`.",
        )
    rows = []
    with open(path, encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                rows.append(json.loads(line))
            except ValueError as exc:
                raise RouterError(
                    f"Line {n} of the router corpus {path} is not valid JSON.",
                    fix="Regenerate the corpus (python -m geoclerk.dev.corpus.generate), then run `make router`.",
                ) from exc
    return rows


def spec_digest(specs) -> str:
    """What of the tool specs the training uses (names, purposes, keywords), as a hash."""
    h = hashlib.sha256()
    for s in sorted(specs, key=lambda s: s.name):
        h.update(json.dumps([s.name, s.purpose, s.when, list(s.keywords), s.equivalent, s.half]).encode())
    return h.hexdigest()


def cache_key(corpus: Path, specs) -> str:
    """Hash of the corpus, the training code, the specs and the library versions: the model's identity."""
    h = hashlib.sha256()
    h.update(corpus.read_bytes() if corpus.exists() else b"no corpus")
    for name in CODE_FILES:
        h.update((ROOT / name).read_bytes())
    for path in sorted((ROOT / "languages").rglob("*.py")):
        h.update(path.read_bytes())
    h.update(spec_digest(specs).encode())
    for dist in ("scikit-learn", "numpy", "scipy"):
        try:
            h.update(metadata.version(dist).encode())
        except metadata.PackageNotFoundError:
            h.update(b"-")
    return h.hexdigest()


def spec_rows(specs) -> list[dict]:
    """Training rows from each tool's own words, so a tool with few corpus rows still ranks."""
    rows = []
    for s in specs:
        if s.half == "processing" and s.equivalent:
            continue  # the router labels shared jobs with the GeoPandas name
        name_words = s.name.replace("qgis_", "").replace("_", " ")
        texts = [f"{name_words} {s.purpose}", f"{name_words} {' '.join(s.keywords)}".strip()]
        rows += [{"text": t, "route": "function", "tool": s.name, "layers": [], "weight": 1.0} for t in texts]
    return rows


def training_arrays(rows: list[dict]):
    """Normalised texts, context tokens, route and tool labels, sample weights."""
    import numpy as np

    texts, ctxs = [], []
    for r in rows:
        layers = [layer_from_json(d) for d in r.get("layers") or []]
        mentions = find_layers(fold(r["text"]), layers) if layers else []
        texts.append(rmodel.normalise(r["text"], layers, mentions))
        ctxs.append(rmodel.context_tokens(layers, r["text"], mentions))
    weights = np.array([float(r.get("weight", 1.0)) for r in rows])
    return texts, ctxs, [r["route"] for r in rows], [r.get("tool") for r in rows], weights


def train(rows: list[dict], specs) -> tuple[rmodel.Featuriser, dict[str, rmodel.LinearModel], dict]:
    """Fit the featuriser, the route model and the tool model; return them with training facts."""
    t0, c0 = time.perf_counter(), time.process_time()
    known = {s.name for s in specs}
    rows = [r for r in rows if r.get("route") in ROUTES] + spec_rows(specs) + tool_word_rows(known)
    texts, ctxs, routes, tools, weights = training_arrays(rows)
    feat = rmodel.Featuriser.fit(texts, ctxs)
    x = feat.transform(texts, ctxs)
    ridx = [i for i, r in enumerate(rows) if not r.get("tool_only")]  # tool words say nothing about the route
    groups = [rmodel.phrasing_key(texts[i], routes[i]) for i in ridx]
    route_model = rmodel.train_linear(x[ridx], [routes[i] for i in ridx], c=0.5, weights=weights[ridx], groups=groups)
    idx = [i for i, (r, t) in enumerate(zip(routes, tools)) if r == "function" and t in known]
    tool_groups = [rmodel.phrasing_key(texts[i], tools[i]) for i in idx]
    tool_model = rmodel.train_linear(x[idx], [tools[i] for i in idx], c=0.5, weights=weights[idx], groups=tool_groups)
    meta = {
        "rows": len(rows),
        "tool_rows": len(idx),
        "train_seconds": round(time.perf_counter() - t0, 2),
        "train_cpu_seconds": round(time.process_time() - c0, 2),
    }
    return feat, {"route": route_model, "tool": tool_model}, meta


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _read_cached(model_dir: Path, key: str | None):
    """The cached model if the manifest names this key and every file's bytes hash to the manifest's value.

    key None (a package shipped without the corpus): any intact model, since nothing can make it stale.
    """
    try:
        man = json.loads((model_dir / "manifest.json").read_text())
        if key is not None and man.get("key") != key:
            return None
        files = {name: (model_dir / name).read_bytes() for name in man["files"]}
        if any(_sha(data) != man["files"][name] for name, data in files.items()):
            return None  # changed behind the manifest's back: never parsed
        return rmodel.parse(files)
    except (ValueError, KeyError, OSError, TypeError):
        return None  # missing, unreadable or half-written: stale


def _write_cache(model_dir: Path, files: dict[str, bytes], key: str) -> None:
    """Each file written under a temporary name and renamed, the manifest last: readers never see a mix."""
    try:
        model_dir.mkdir(parents=True, exist_ok=True)
        manifest = {"key": key, "files": {name: _sha(data) for name, data in files.items()}}
        for name, data in [*files.items(), ("manifest.json", json.dumps(manifest, indent=1).encode())]:
            tmp = model_dir / f".{name}.{os.getpid()}.tmp"
            tmp.write_bytes(data)
            os.replace(tmp, model_dir / name)
    except OSError:
        pass  # a read-only install still routes, with the model trained in memory


def load_or_train(specs, corpus: Path = CORPUS, model_dir: Path = MODEL_DIR, force: bool = False):
    """The cached model when its manifest matches the corpus, code and file hashes; else retrain and save it."""
    key = cache_key(corpus, specs)
    cached = None if force else _read_cached(model_dir, key if corpus.exists() else None)
    if cached is not None:
        return cached
    feat, models, meta = train(read_corpus(corpus), specs)
    meta["key"] = key
    _write_cache(model_dir, rmodel.dump(feat, models, meta), key)
    return feat, models, meta


def main(argv: list[str] | None = None) -> int:
    from ..function_lib import load_registry

    argv = sys.argv[1:] if argv is None else argv
    t0 = time.perf_counter()
    feat, models, meta = load_or_train(load_registry().specs(), force="--force" in argv)
    size = sum(p.stat().st_size for p in MODEL_DIR.iterdir() if p.is_file())
    print(
        f"router model: {meta['rows']} rows ({meta['tool_rows']} with a tool), "
        f"{len(models['tool'].classes)} tools, trained in {meta['train_seconds']} s "
        f"({meta.get('train_cpu_seconds', '?')} s CPU), "
        f"{size / 1e6:.1f} MB in {MODEL_DIR} ({time.perf_counter() - t0:.1f} s total)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
