"""The router's classifiers: char + word TF-IDF and layer-context features, linear models, temperature calibration.

Stored without pickle: vocabularies and settings as JSON, weights as a NumPy .npz (allow_pickle=False).
"""

from __future__ import annotations

import io
import json
import re
from dataclasses import dataclass

import numpy as np
from scipy import sparse

from ..languages import topic
from ..reading.cues import cue_tokens
from ..reading.schema_match import find_layers, geometry_class, word_re
from ..reading.text import fold

CHAR_NGRAMS = (1, 4)
WORD_NGRAMS = (1, 2)
WORD_TOKEN = r"(?u)[a-z]+|\d+|[\u4e00-\u9fff]"


def normalise(text: str, layers=(), mentions=None) -> str:
    """Folded text with mentioned layer names masked and digits collapsed, so names and values do not leak."""
    folded = fold(text)
    if layers:
        mentions = find_layers(folded, layers) if mentions is None else mentions
        # A file name is masked whole whichever of its variants matched ('waypoints' or 'waypoints.gpx').
        spans = [(m.start, _past_suffix(folded, m.end), " lyr ") for m in mentions if m.score >= 0.95]
        names = {fold(f.name) for layer in layers for f in layer.fields if len(f.name) >= 3}
        # longest first, ties by name: the same masking whatever the process's string hash order
        for name in sorted(names, key=lambda n: (-len(n), n)):  # the data's words must not pick the tool
            for m in word_re(name).finditer(folded):
                if not any(s < m.end() and m.start() < e for s, e, _ in spans):
                    spans.append((m.start(), m.end(), " fld "))
        for s, e, token in sorted(spans, key=lambda t: -t[0]):
            folded = folded[:s] + token + folded[e:]
    folded = _ZH_NUMBER.sub("0", folded)  # 一千, 两万, 三千五 like digits; 五千米 keeps its 米
    return _MULTIPLIED.sub("0", re.sub(r"\d+(?:[.,]\d+)*", "0", folded))  # 5千, 1.5万 like 5000


_FILE_SUFFIX = re.compile(r"\.[a-z][a-z0-9]{1,7}(?![a-z0-9_.])")  # .tif值: a Chinese word may follow


def _past_suffix(text: str, end: int) -> int:
    """end moved past a file suffix written right after it ('roads' + '.shp')."""
    m = _FILE_SUFFIX.match(text, end)
    return m.end() if m else end


_ZH_NUMBER = re.compile(r"[一二两三四五六七八九十]+[十百千万亿][零一二两三四五六七八九十百千万亿]*(?!米)")
_MULTIPLIED = re.compile(r"0\s?(?:万|亿|千(?!米))")


_FILLER = re.compile(r"^(?:(?:" + "|".join(m.OPENERS for m in topic("patterns")) + r")\s*)+")


def phrasing_key(norm_text: str, label: str) -> str:
    """Rows likely generated from one phrasing share this key: the label and the first two content words."""
    words = _FILLER.sub("", norm_text).split()
    return (
        label + "|" + " ".join(words[:2] if words and not re.search(r"[\u4e00-\u9fff]", words[0]) else [norm_text[:3]])
    )


def context_tokens(layers, text: str = "", mentions=()) -> list[str]:
    """Cues of the text and the layer context: geometry classes present and named, rasters, tables, counts."""
    cues = cue_tokens(text) if text else []
    if not layers:
        return ["ctx_none"] + cues
    toks = {f"ctx_n{min(len(layers), 3)}", *cues}
    by_name = {layer.name: layer for layer in layers}
    for layer in layers:
        toks.add(f"ctx_{_kind(layer)}")
    named = [by_name[m.name] for m in mentions or () if m.name in by_name]
    for layer in named:  # what the request names: 'count houses per district' names points and polygons
        toks.add(f"men_{_kind(layer)}")
    if named:
        toks.add(f"men_n{min(len(named), 3)}")
    return sorted(toks)


def _kind(layer) -> str:
    """point, line, polygon, raster; 'mixed' for several geometry types; 'table' when there is no geometry."""
    cls = geometry_class(layer)
    if cls:
        return cls
    if getattr(layer, "kind", "vector") in ("vector", "table"):
        return "mixed" if layer.geometry_type else "table"
    return "other"


def _analyzer(kind: str):
    if kind == "char":
        lo, hi = CHAR_NGRAMS

        def grams(text: str) -> list[str]:
            out = []
            for w in text.split():
                w = f" {w} "
                for n in range(lo, hi + 1):
                    out.extend(w[i : i + n] for i in range(max(1, len(w) - n + 1)))
            return out

        return grams
    lo, hi = WORD_NGRAMS

    def wgrams(text: str) -> list[str]:
        toks = re.findall(WORD_TOKEN, text)
        out = list(toks)
        if hi >= 2:
            out.extend(f"{a} {b}" for a, b in zip(toks, toks[1:]))
        return out

    return wgrams


@dataclass
class Vectorizer:
    """TF-IDF over a fixed vocabulary: sublinear tf, idf weights, l2 norm (what sklearn does, stored as data)."""

    kind: str
    vocab: dict
    idf: np.ndarray

    def transform(self, texts: list[str]) -> sparse.csr_matrix:
        analyze, vocab, idf = _analyzer(self.kind), self.vocab, self.idf
        indptr, indices, counts = [0], [], []
        for text in texts:
            row: dict[int, int] = {}
            for g in analyze(text):
                j = vocab.get(g)
                if j is not None:
                    row[j] = row.get(j, 0) + 1
            indices.extend(row)
            counts.extend(row.values())
            indptr.append(len(indices))
        idx = np.asarray(indices, dtype=np.int32)
        vals = (1.0 + np.log(np.asarray(counts, dtype=np.float64))) * idf[idx] if len(idx) else np.zeros(0)
        ptr = np.asarray(indptr)
        sq = np.add.reduceat(vals * vals, ptr[:-1]) if len(vals) else np.zeros(len(texts))
        sq = np.where(ptr[1:] > ptr[:-1], sq, 1.0)
        vals = vals / np.repeat(np.sqrt(sq), np.diff(ptr))
        return sparse.csr_matrix((vals, idx, ptr), shape=(len(texts), len(vocab)))

    def vector(self, text: str) -> tuple[np.ndarray, np.ndarray]:
        """One text as (indices, l2-normalised tf-idf values): the fast path for a single request."""
        row: dict[int, int] = {}
        vocab = self.vocab
        for g in _analyzer(self.kind)(text):
            j = vocab.get(g)
            if j is not None:
                row[j] = row.get(j, 0) + 1
        idx = np.fromiter(row, dtype=np.int64, count=len(row))
        vals = (1.0 + np.log(np.fromiter(row.values(), dtype=np.float64, count=len(row)))) * self.idf[idx]
        norm = np.sqrt(vals @ vals)
        return idx, (vals / norm if norm else vals)

    @classmethod
    def fit(cls, kind: str, texts: list[str], min_df: int = 1) -> Vectorizer:
        analyze = _analyzer(kind)
        df: dict[str, int] = {}
        for text in texts:
            for g in set(analyze(text)):
                df[g] = df.get(g, 0) + 1
        terms = sorted(t for t, c in df.items() if c >= min_df)
        vocab = {t: i for i, t in enumerate(terms)}
        n = len(texts)
        idf = np.array([np.log((1 + n) / (1 + df[t])) + 1.0 for t in terms])
        return cls(kind, vocab, idf)


class Featuriser:
    """Char n-grams, word n-grams and context tokens side by side."""

    def __init__(self, char: Vectorizer, word: Vectorizer, ctx_vocab: list[str], ctx_weight: float = 0.7):
        self.char, self.word, self.ctx_vocab, self.ctx_weight = char, word, ctx_vocab, ctx_weight
        self._ctx_index = {t: i for i, t in enumerate(ctx_vocab)}

    @classmethod
    def fit(cls, texts: list[str], contexts: list[list[str]]) -> Featuriser:
        char = Vectorizer.fit("char", texts, min_df=2)
        word = Vectorizer.fit("word", texts, min_df=1)
        ctx_vocab = sorted({t for c in contexts for t in c})
        return cls(char, word, ctx_vocab)

    def vector(self, text: str, context: list[str]) -> tuple[np.ndarray, np.ndarray]:
        """One request as (indices, values) over the stacked feature space, without building a sparse matrix."""
        ci, cv = self.char.vector(text)
        wi, wv = self.word.vector(text)
        off1, off2 = len(self.char.vocab), len(self.char.vocab) + len(self.word.vocab)
        xi = [self._ctx_index[t] + off2 for t in context if t in self._ctx_index]
        idx = np.concatenate([ci, wi + off1, np.asarray(xi, dtype=np.int64)])
        vals = np.concatenate([cv, wv, np.full(len(xi), self.ctx_weight)])
        return idx, vals

    def transform(self, texts: list[str], contexts: list[list[str]]) -> sparse.csr_matrix:
        rows, cols = [], []
        for r, toks in enumerate(contexts):
            for t in toks:
                if t in self._ctx_index:
                    rows.append(r)
                    cols.append(self._ctx_index[t])
        ctx = sparse.csr_matrix(
            (np.full(len(rows), self.ctx_weight), (rows, cols)), shape=(len(texts), max(1, len(self.ctx_vocab)))
        )
        return sparse.hstack([self.char.transform(texts), self.word.transform(texts), ctx], format="csr")


@dataclass
class LinearModel:
    """One-vs-rest linear scores, turned into probabilities by a softmax with a fitted temperature."""

    classes: list[str]
    coef: np.ndarray  # (n_features, n_classes), dense float32, rows gathered per request
    intercept: np.ndarray
    temperature: float = 1.0

    def scores(self, x) -> np.ndarray:
        out = np.empty((x.shape[0], len(self.classes)))
        for r in range(x.shape[0]):
            lo, hi = x.indptr[r], x.indptr[r + 1]
            out[r] = x.data[lo:hi] @ self.coef[x.indices[lo:hi]] if hi > lo else 0.0
        return out + self.intercept

    def proba(self, x) -> np.ndarray:
        return softmax(self.scores(x) / self.temperature)

    def proba_one(self, idx: np.ndarray, vals: np.ndarray) -> np.ndarray:
        """Probabilities for one request given as (indices, values)."""
        # An elementwise sum, not a BLAS call: BLAS threads cost milliseconds on a busy machine.
        z = ((self.coef[idx] * vals[:, None]).sum(axis=0) + self.intercept) / self.temperature
        e = np.exp(z - z.max())
        return e / e.sum()


def softmax(z: np.ndarray) -> np.ndarray:
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


def fit_temperature(scores: np.ndarray, y: np.ndarray) -> float:
    """The temperature minimising the log-loss of out-of-fold scores (a 1-D search, deterministic)."""
    best_t, best_loss = 1.0, np.inf
    for t in np.exp(np.linspace(np.log(0.02), np.log(5.0), 120)):
        p = softmax(scores / t)
        loss = -np.mean(np.log(np.clip(p[np.arange(len(y)), y], 1e-12, None)))
        if loss < best_loss:
            best_t, best_loss = float(t), loss
    return best_t


def train_linear(x, labels: list[str], c: float = 1.0, folds: int = 2, weights=None, groups=None) -> LinearModel:
    """LinearSVC (one-vs-rest) with a temperature fitted on out-of-fold scores.

    With `groups` (rows sharing a phrasing), folds keep a group together, so the temperature is fitted on
    phrasings the fold never saw: that is the situation the router meets with real users.
    """
    from sklearn.model_selection import GroupKFold, StratifiedKFold
    from sklearn.svm import LinearSVC

    classes = sorted(set(labels))
    y = np.array([classes.index(v) for v in labels])
    if len(classes) == 1:
        return LinearModel(classes, np.zeros((x.shape[1], 1), np.float32), np.zeros(1), 1.0)

    def fit(xs, ys, ws):
        clf = LinearSVC(C=c, random_state=0, max_iter=2000, tol=1e-3, class_weight="balanced")
        clf.fit(xs, ys, sample_weight=ws)
        coef, icpt = clf.coef_, clf.intercept_
        if coef.shape[0] == 1:  # binary: sklearn gives one row for the positive class
            coef, icpt = np.vstack([-coef, coef]) / 2, np.array([-icpt[0], icpt[0]]) / 2
        full_c = np.zeros((len(classes), x.shape[1]))
        full_i = np.full(len(classes), -1e3)
        for k, cls in enumerate(clf.classes_):
            full_c[cls], full_i[cls] = coef[k], icpt[k]
        return full_c, full_i

    counts = np.bincount(y, minlength=len(classes))
    n_folds = max(2, min(folds, int(counts[counts > 0].min()) if counts.min() > 1 else folds))
    oof = np.zeros((len(y), len(classes)))
    if groups is not None:
        splits = GroupKFold(n_splits=n_folds).split(np.zeros(len(y)), y, groups)
    else:
        strat = np.where(counts[y] >= n_folds, y, -1)
        splits = StratifiedKFold(n_splits=n_folds, shuffle=True, random_state=0).split(np.zeros(len(y)), strat)
    for tr, te in splits:
        w = None if weights is None else weights[tr]
        coef, icpt = fit(x[tr], y[tr], w)
        oof[te] = np.asarray(x[te] @ coef.T) + icpt
    temperature = fit_temperature(oof, y)
    coef, icpt = fit(x, y, weights)
    return LinearModel(classes, np.ascontiguousarray(coef.T, dtype=np.float32), icpt, temperature)


def dump(featuriser: Featuriser, models: dict[str, LinearModel], meta: dict) -> dict[str, bytes]:
    """The model as files: vocabularies and settings (JSON) and weights (.npz), by file name."""
    doc = {
        "meta": meta,
        "char_vocab": featuriser.char.vocab,
        "word_vocab": featuriser.word.vocab,
        "ctx_vocab": featuriser.ctx_vocab,
        "ctx_weight": featuriser.ctx_weight,
        "models": {k: {"classes": m.classes, "temperature": m.temperature} for k, m in models.items()},
    }
    arrays = {"char_idf": featuriser.char.idf, "word_idf": featuriser.word.idf}
    for k, m in models.items():
        arrays[f"{k}_coef"] = m.coef
        arrays[f"{k}_intercept"] = m.intercept
    buf = io.BytesIO()
    np.savez_compressed(buf, **arrays)
    return {"vocab.json": json.dumps(doc, ensure_ascii=False).encode("utf-8"), "weights.npz": buf.getvalue()}


def parse(files: dict[str, bytes]) -> tuple[Featuriser, dict[str, LinearModel], dict]:
    """Read what `dump` wrote; plain JSON and numeric arrays only, never a pickle."""
    doc = json.loads(files["vocab.json"].decode("utf-8"))
    with np.load(io.BytesIO(files["weights.npz"]), allow_pickle=False) as arrays:
        data = {k: arrays[k] for k in arrays.files}
    feat = Featuriser(
        Vectorizer("char", doc["char_vocab"], data["char_idf"]),
        Vectorizer("word", doc["word_vocab"], data["word_idf"]),
        doc["ctx_vocab"],
        doc["ctx_weight"],
    )
    models = {
        k: LinearModel(v["classes"], data[f"{k}_coef"], data[f"{k}_intercept"], v["temperature"])
        for k, v in doc["models"].items()
    }
    return feat, models, doc["meta"]
