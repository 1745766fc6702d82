"""The router corpus: regenerated identically, every tool covered, labels valid against the real tool schemas."""

from __future__ import annotations

import json
import re
from collections import Counter

import jsonschema
import pytest
from geoclerk.dev.corpus import generate
from geoclerk.dev.corpus.tools_processing import EXCLUDED, LABELLED_AS
from geoclerk.function_lib.registry import validate_args

MIN_ROWS = {"en": 2000, "zh": 200, "de": 200}
MIN_PER_ROUTE = {"en": 250, "zh": 40, "de": 40}  # codegen and chat rows per language


@pytest.fixture(scope="module")
def rows():
    with open(generate.CORPUS, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh]



def test_file_is_regenerated_identically(rows):
    again = generate.build_rows()
    assert again == rows, "corpus.jsonl is stale or not deterministic: run `python -m geoclerk.dev.corpus.generate`"


def test_readme_counts_are_current(rows):
    readme = generate.README.read_text(encoding="utf-8")
    assert readme.endswith(generate.summary(rows) + "\n"), "README counts are stale: rerun the generator"


def test_row_format(rows):
    for r in rows:
        assert set(r) == {"text", "lang", "route", "tool", "params", "layers", "split", "template"}, r
        assert r["text"].strip() and "{" not in r["text"], r["text"]
        assert r["lang"] in MIN_ROWS and r["route"] in ("function", "codegen", "chat")
        assert r["split"] in ("train", "test")
        assert (r["tool"] is None) == (r["route"] != "function"), r
        if r["route"] != "function":
            assert r["params"] is None
        assert len({lyr["name"] for lyr in r["layers"]}) == len(r["layers"]), r["layers"]
        for layer in r["layers"]:
            assert {"name", "geometry_type", "crs", "fields"} <= set(layer)
            assert len({f["name"] for f in layer["fields"]}) == len(layer["fields"]), layer
            for f in layer["fields"]:
                assert set(f) == {"name", "type", "samples"}
    assert len({r["text"] for r in rows}) == len(rows), "duplicate request texts"


def test_counts_per_language_and_route(rows):
    by_lang = Counter(r["lang"] for r in rows)
    by_lang_route = Counter((r["lang"], r["route"]) for r in rows)
    for lang, minimum in MIN_ROWS.items():
        assert by_lang[lang] >= minimum, (lang, by_lang[lang])
        for route in ("codegen", "chat"):
            assert by_lang_route[(lang, route)] >= MIN_PER_ROUTE[lang], (lang, route, by_lang_route[(lang, route)])
        assert by_lang_route[(lang, "function")] >= by_lang[lang] / 2


def test_every_tool_is_covered_or_excluded_with_reason(rows, registry):
    counts = Counter(r["tool"] for r in rows if r["tool"])
    names = set(registry.names())
    assert set(counts) <= names, set(counts) - names
    assert set(EXCLUDED) <= names, set(EXCLUDED) - names
    for name in names:
        if name in EXCLUDED:
            assert counts[name] == 0, f"{name} is excluded but used as a label"
            assert EXCLUDED[name].startswith("same job as ")
            target, implied = LABELLED_AS[name]
            assert counts[target] >= 15, (name, target)
            props = registry.get(target).spec.json_schema()["properties"]
            for key, value in implied.items():  # the implied params are real params of the labelled tool
                assert value in props[key].get("enum", [value]), (name, key, value)
            if registry.get(name).spec.equivalent:
                assert registry.get(name).spec.equivalent == target, (name, target)
        else:
            assert counts[name] >= 15, (name, counts[name])
            langs = {r["lang"] for r in rows if r["tool"] == name}
            assert langs == {"en", "zh", "de"}, (name, langs)


def test_params_validate_against_the_tool_schemas(rows, registry):
    by_tool: dict[str, list[dict]] = {}
    for r in rows:
        if r["params"] is not None:
            by_tool.setdefault(r["tool"], []).append(r["params"])
    for tool, plans in by_tool.items():
        spec = registry.get(tool).spec
        validate_args(spec, plans[0])  # the library's own check, once per tool
        schema = spec.json_schema()
        validator = jsonschema.validators.validator_for(schema)(schema)  # the same schema, compiled once
        for params in plans:
            errors = [e.message for e in validator.iter_errors(params)]
            assert not errors, (tool, params, errors)
    assert sum(map(len, by_tool.values())) > len(rows) * 0.4


def test_layer_and_field_params_name_what_is_in_the_context(rows, registry):
    for r in rows:
        if r["params"] is None:
            continue
        layers = {lyr["name"]: lyr for lyr in r["layers"]}
        spec = registry.get(r["tool"]).spec
        for p in spec.params:
            value = r["params"].get(p.name)
            if value is None:
                continue
            if p.kind == "layer":
                assert value in layers, (r["text"], p.name, value)
            elif p.kind == "layers":
                assert set(value) <= set(layers), (r["text"], value)
            elif p.kind in ("field", "fields") and p.of_layer:
                fields = {f["name"] for f in layers[r["params"][p.of_layer]]["fields"]}
                for f in [value] if p.kind == "field" else value:
                    assert f in fields, (r["text"], p.name, f)
        if r["tool"] in ("join_table",):
            table = layers[r["params"]["table"]]
            assert r["params"]["table_field"] in {f["name"] for f in table["fields"]}


def test_expressions_use_real_fields_and_quoting(rows):
    quoted = re.compile(r'"([^"]+)"')
    seen = 0
    for r in rows:
        expr = (r["params"] or {}).get("expression")
        if expr is None:
            continue
        seen += 1
        layers = {lyr["name"]: lyr for lyr in r["layers"]}
        if r["tool"] == "qgis_raster_calculator":
            for ref in quoted.findall(expr):
                name, band = ref.rsplit("@", 1)
                assert name in layers and band == "1", expr
            continue
        fields = {f["name"] for f in layers[r["params"]["layer"]]["fields"]}
        names = quoted.findall(expr)
        assert names and set(names) <= fields, (r["text"], expr)
        assert re.fullmatch(r"""("[^"]+"|'[^']*'|[-\d.]+|[<>=!]+|AND|OR|LIKE|NOT|[-+*/]|\s)+""", expr), expr
    assert seen >= 150


def test_expressions_parse_with_the_library_parser(rows):
    from geoclerk.function_lib import expression

    parse = getattr(expression, "parse", None) or getattr(expression, "parse_expression", None)
    if parse is None:
        pytest.skip("function_lib.expression exposes no parse function")
    for r in rows:
        expr = (r["params"] or {}).get("expression")
        if expr and r["tool"] != "qgis_raster_calculator":
            parse(expr)


def test_distances_are_metres_as_numbers(rows, registry):
    kinds = {}
    for r in rows:
        if r["params"] is None:
            continue
        spec = registry.get(r["tool"]).spec
        for p in spec.params:
            if p.kind == "distance" and p.name in r["params"]:
                v = r["params"][p.name]
                assert isinstance(v, (int, float)) and 0 < v < 100_000, (r["text"], v)
                kinds[r["lang"]] = kinds.get(r["lang"], 0) + 1
    assert min(kinds.values()) >= 20, kinds
    half_km = [r for r in rows if "half a kilomet" in r["text"] and r["params"] and 500 in r["params"].values()]
    assert half_km, "'half a kilometre' must be labelled 500 m"


def test_split_is_by_template_and_about_a_fifth(rows):
    sides: dict[str, set] = {}
    for r in rows:
        sides.setdefault(r["template"], set()).add(r["split"])
    assert all(len(s) == 1 for s in sides.values())
    for lang in MIN_ROWS:
        mine = [r for r in rows if r["lang"] == lang]
        share = sum(r["split"] == "test" for r in mine) / len(mine)
        assert 0.12 <= share <= 0.3, (lang, share)
    for route in ("function", "codegen", "chat"):
        assert any(r["split"] == "test" and r["route"] == route for r in rows)


def test_unspecified_required_params_give_null_plans(rows):
    nulls = [r for r in rows if r["route"] == "function" and r["params"] is None]
    assert len(nulls) >= 200
    buffers = [r for r in nulls if r["tool"] == "buffer"]
    assert buffers, "buffer requests without a distance must be labelled with null params"


def test_typos_are_injected_in_english_only(rows):
    import random

    from geoclerk.dev.corpus.typos import add_typo

    rng = random.Random(1)
    out = add_typo(rng, "buffer {layer} by {dist}")
    assert out != "buffer {layer} by {dist}" and "{layer}" in out and "{dist}" in out
    assert add_typo(rng, "{layer} {dist}") == "{layer} {dist}"
