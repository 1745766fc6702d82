"""The router model: unseen requests, the `route --json` contract, cache rebuilds, determinism, no qgis."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest
from geoclerk.function_lib import load_registry
from geoclerk.router import load_router
from geoclerk.router.train import load_or_train, train

from tests.test_router_extract import ALL

REGISTRY = load_registry()


@pytest.fixture(scope="module")
def router():
    return load_router(REGISTRY)  # the cached model (trained now when stale)


# Requests written for this test, not taken from the corpus.
UNSEEN = [
    ("buffer the schools by 250 metres", "function", "buffer"),
    ("reproject the districts to UTM zone 33N", "function", "reproject"),
    ("how many bus stops are there in each district?", "function", "count_points_in_polygons"),
    ("keep only the roads with more than 2 lanes", "function", "filter_by_expression"),
    ("请把道路裁剪到行政区范围内", "function", "clip"),
    ("Erstelle einen Puffer von 300 Metern um die Bushaltestellen", "function", "buffer"),
    ("slope map from the dem please", "function", "qgis_slope"),
    ("why are the cafes concentrated in the north? compare it with income and write a short report", "codegen", None),
    ("build a walkability index from bus stops, cafes and schools and make an interactive web page", "codegen", None),
    ("thanks, that's perfect!", "chat", None),
    ("what is a coordinate reference system?", "chat", None),
]


@pytest.mark.parametrize("text, route, tool", UNSEEN)
def test_unseen_requests_route_and_rank(router, text, route, tool):
    res = router.route(text, ALL)
    assert res.route == route
    if tool:
        assert tool in [n for n, _ in res.tools[:3]]


def test_route_json_contract(router):
    data = router.route("buffer the schools by 500 m", ALL).to_json()
    assert list(data) == ["route", "confidence", "tools", "plan"]
    assert data["route"] in ("function", "codegen", "chat")
    assert 0.0 <= data["confidence"] <= 1.0
    assert all(set(t) == {"name", "score"} and t["name"] in REGISTRY for t in data["tools"])
    scores = [t["score"] for t in data["tools"]]
    assert scores == sorted(scores, reverse=True)
    assert data["plan"] == {
        "tool": "buffer",
        "params": {"layer": "schools", "distance": 500},
        "complete": True,
        "missing": [],
    }
    json.dumps(data)  # plain JSON


def test_chat_has_no_plan_and_layer_dicts_are_accepted(router):
    res = router.route("hello there", [la.to_json() for la in ALL])
    assert res.route == "chat" and res.plan is None and res.to_json()["plan"] is None


def test_route_batch_keeps_order(router):
    from geoclerk.router import route_batch

    out = route_batch(router, [("buffer the roads by 1 km", ALL), ("thank you!", [])])
    assert [r.route for r in out] == ["function", "chat"]


def _tiny_corpus(path, extra: str = ""):
    rows = []
    for text, route, tool in [
        ("buffer the {} by {} m", "function", "buffer"),
        ("reproject {} to web mercator {}", "function", "reproject"),
        ("why are {} clustered? {}", "codegen", None),
        ("thanks {} {}", "chat", None),
    ] * 1:
        for j, noun in enumerate(["schools", "roads", "cafes", "houses", "districts", "rivers"]):
            rows.append(
                {
                    "text": text.format(noun, 100 * (j + 1)) + extra,
                    "lang": "en",
                    "route": route,
                    "tool": tool,
                    "params": None,
                    "layers": [],
                    "split": "train",
                }
            )
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n")


def test_model_is_cached_rebuilt_when_stale_and_never_trusted_blindly(tmp_path):
    corpus, model_dir = tmp_path / "corpus.jsonl", tmp_path / "model"
    specs = [REGISTRY.get("buffer").spec, REGISTRY.get("reproject").spec]
    _tiny_corpus(corpus)
    _, _, meta1 = load_or_train(specs, corpus, model_dir)
    assert sorted(p.name for p in model_dir.iterdir()) == ["manifest.json", "vocab.json", "weights.npz"]
    stamp = (model_dir / "weights.npz").stat().st_mtime_ns
    _, _, meta2 = load_or_train(specs, corpus, model_dir)
    assert meta2["key"] == meta1["key"] and (model_dir / "weights.npz").stat().st_mtime_ns == stamp  # loaded

    _tiny_corpus(corpus, extra=" please")  # the corpus changed: the key changes, the model is rebuilt
    _, _, meta3 = load_or_train(specs, corpus, model_dir)
    assert meta3["key"] != meta1["key"]
    assert json.loads((model_dir / "manifest.json").read_text())["key"] == meta3["key"]

    (model_dir / "weights.npz").write_bytes(b"not what the manifest hashed")  # tampered: rebuilt, not loaded
    feat, models, meta4 = load_or_train(specs, corpus, model_dir)
    assert meta4["key"] == meta3["key"] and set(models) == {"route", "tool"}
    with np.load(model_dir / "weights.npz", allow_pickle=False) as arrays:
        assert "tool_coef" in arrays.files


def test_training_is_deterministic(tmp_path):
    corpus = tmp_path / "corpus.jsonl"
    _tiny_corpus(corpus)
    rows = [json.loads(line) for line in corpus.read_text().splitlines()]
    specs = [REGISTRY.get("buffer").spec, REGISTRY.get("reproject").spec]
    a, b = train(rows, specs), train(rows, specs)
    assert np.array_equal(a[1]["tool"].coef, b[1]["tool"].coef)
    assert a[1]["route"].temperature == b[1]["route"].temperature


def test_router_imports_no_qgis():
    code = (
        "import sys, geoclerk.router, geoclerk.router.core, geoclerk.bench.router, geoclerk.router.train;"
        "bad = [m for m in sys.modules if m == 'qgis' or m.startswith('qgis.')]; print(bad); sys.exit(1 if bad else 0)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stdout + out.stderr


def test_a_package_without_the_corpus_uses_its_intact_model(tmp_path):
    corpus, model_dir = tmp_path / "corpus.jsonl", tmp_path / "model"
    specs = [REGISTRY.get("buffer").spec, REGISTRY.get("reproject").spec]
    _tiny_corpus(corpus)
    _, _, meta = load_or_train(specs, corpus, model_dir)
    corpus.unlink()
    assert load_or_train(specs, corpus, model_dir)[2]["key"] == meta["key"]
    (model_dir / "vocab.json").write_text("{}")  # damaged and no corpus to rebuild from: a clear error
    from geoclerk.errors import RouterError

    with pytest.raises(RouterError, match="corpus"):
        load_or_train(specs, corpus, model_dir)
