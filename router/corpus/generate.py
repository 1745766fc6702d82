"""Rewrite router/corpus/corpus.jsonl from the templates: `python -m geoagent.router.corpus.generate`."""

from __future__ import annotations

import hashlib
import json
import random
import sys
from collections import Counter
from pathlib import Path

from .builder import SLOT, Builder, template_slots
from .layers import ARCHETYPES, NUMERIC
from .templates import LANGUAGES
from .tools_geojson import GEOJSON_TOOLS
from .tools_processing import PROCESSING_TOOLS
from .typos import add_typo

HERE = Path(__file__).parent
CORPUS = HERE / "corpus.jsonl"
TOOLS = {**GEOJSON_TOOLS, **PROCESSING_TOOLS}
# rows drawn per template, by language and kind of template
PER_TEMPLATE = {"en": {"function": 5, "chain": 4, "codegen": 5, "chat": 4},
                "zh": {"function": 3, "chain": 3, "codegen": 3, "chat": 3},
                "de": {"function": 3, "chain": 3, "codegen": 3, "chat": 3}}
TEST_SHARE = 0.2
TYPO_RATE = 0.05
# archetypes with at least two numeric fields, for templates that name {field} and {field2}
RICH = sorted(k for k, v in ARCHETYPES.items() if sum(f.type in NUMERIC for f in v[3]) >= 2)
WRAPS = {"en": ["hey, {}", "{} thanks", "hi, {}", "quick question: {}", "{} :)", "sorry, {}"],
         "zh": ["你好，{}", "{}谢谢", "请问{}", "{}？"],
         "de": ["hey, {}", "{} danke", "kurze Frage: {}", "hallo, {}"]}


def _entry(entry) -> tuple[str, dict]:
    return (entry, {}) if isinstance(entry, str) else entry


def _context(b: Builder, slots: set[str]) -> None:
    """Layers for codegen, chat and chain templates: whatever their slots name, plus sometimes a few more."""
    rng = b.rng
    if "raster" in slots:
        b.raster(None)
    main = None
    if slots & {"layer", "field", "field2", "layer2"} or rng.random() < 0.5:
        main = b.layer(None, "layer", archetypes=RICH if slots & {"field", "field2"} else None)
    nums = [f for f in main.fields if f.numeric and f.meaning != "fid"] if main is not None else []
    if nums:
        first = b.field(None, main, f=rng.choice(nums))
        others = [f for f in nums if f is not first]
        b.field(None, main, slot="field2", f=rng.choice(others or nums))
    if "layer2" in slots or rng.random() < 0.3:
        b.layer(None, "layer2")
    b.distance(param="_", slot="dist")
    b.integer("_", "n")


def _one(tool_or_route: str, kind: str, template: str, consts: dict, rng, lang: str) -> dict:
    slots = template_slots(template)
    b = Builder(rng, lang, slots)
    if kind == "function":
        build, required = TOOLS[tool_or_route]
        build(b)
        layers, params = b.finish(consts, required)
        route, tool = "function", tool_or_route
    else:
        _context(b, slots)
        layers, _ = b.finish({}, ())
        params = None
        route, tool = ("function", tool_or_route) if kind == "chain" else (kind, None)
    if lang == "en" and rng.random() < TYPO_RATE:
        template = add_typo(rng, template)
    text = " ".join(b.fill(template).split())
    if kind == "chat" and len(text) > 12 and rng.random() < 0.5:
        text = rng.choice(WRAPS[lang]).format(text)
    if rng.random() < 0.3:
        text = text[:1].upper() + text[1:]
    return {"text": text, "lang": lang, "route": route, "tool": tool, "params": params, "layers": layers}


def _templates(lang: str):
    """(group, kind, tool_or_route, template, constants) for every template of a language, in a stable order."""
    mod = LANGUAGES[lang]
    for tool, entries in mod.FUNCTION.items():
        for entry in entries:
            yield tool, "function", tool, *_entry(entry)
    for tool, template in mod.CHAINS:
        yield "chain", "chain", tool, template, {}
    for template in mod.CODEGEN:
        yield "codegen", "codegen", "codegen", template, {}
    for template in mod.CHAT:
        yield "chat", "chat", "chat", template, {}


def _test_templates(ids_by_group: dict[str, list[str]]) -> set[str]:
    """Hold out ~20% of each group's templates (all rows of a template go to one side)."""
    held = set()
    for group, ids in sorted(ids_by_group.items()):
        order = sorted(ids, key=lambda i: hashlib.sha1(i.encode()).hexdigest())
        k = round(len(ids) * TEST_SHARE)
        if len(ids) >= 3:
            k = max(k, 1)
        held.update(order[:k])
    return held


def build_rows() -> list[dict]:
    rows, seen = [], set()
    for lang in LANGUAGES:
        items = list(_templates(lang))
        counts: Counter = Counter()
        groups: dict[str, list[str]] = {}
        keyed = []
        for group, kind, name, template, consts in items:
            tid = f"{lang}/{group}/{counts[group]}"
            counts[group] += 1
            groups.setdefault(group, []).append(tid)
            keyed.append((tid, kind, name, template, consts))
        held = _test_templates(groups)
        for tid, kind, name, template, consts in keyed:
            want = PER_TEMPLATE[lang][kind]
            made = 0
            for attempt in range(want * 4):
                if made == want:
                    break
                row = _one(name, kind, template, consts, random.Random(f"{tid}/{attempt}"), lang)
                if row["text"] in seen or SLOT.search(row["text"]):  # duplicate, or a slot this context cannot fill
                    continue
                seen.add(row["text"])
                row["split"] = "test" if tid in held else "train"
                row["template"] = tid
                rows.append(row)
                made += 1
    return rows


def write(path: Path = CORPUS) -> list[dict]:
    rows = build_rows()
    with open(path, "w", encoding="utf-8") as fh:
        for row in rows:
            fh.write(json.dumps(row, ensure_ascii=False, sort_keys=False) + "\n")
    return rows


def summary(rows: list[dict]) -> str:
    """Counts per language/route and per tool, as Markdown tables (pasted into README.md)."""
    by_lr = Counter((r["lang"], r["route"]) for r in rows)
    out = ["| lang | function | codegen | chat | total | test |", "|---|---|---|---|---|---|"]
    for lang in LANGUAGES:
        tot = sum(v for (lg, _), v in by_lr.items() if lg == lang)
        test = sum(1 for r in rows if r["lang"] == lang and r["split"] == "test")
        out.append(f"| {lang} | {by_lr[(lang, 'function')]} | {by_lr[(lang, 'codegen')]} | {by_lr[(lang, 'chat')]} | {tot} | {test} |")
    tools = Counter(r["tool"] for r in rows if r["tool"])
    complete = Counter(r["tool"] for r in rows if r["tool"] and r["params"] is not None)
    out += ["", "| tool | rows | with params |", "|---|---|---|"]
    out += [f"| {t} | {n} | {complete[t]} |" for t, n in sorted(tools.items())]
    return "\n".join(out)


def main(argv=None) -> int:
    rows = write()
    print(f"wrote {len(rows)} rows to {CORPUS}")
    if argv and "--summary" in argv:
        print(summary(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
