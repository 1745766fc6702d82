"""The tool registry: every tool has a spec, YAML and JSON Schema agree, names are clean, the paper's 40 are mapped."""

from __future__ import annotations

import inspect
import re

import pytest
import yaml
from geoclerk.function_lib.registry import Registry
from geoclerk.function_lib.spec import schema_from_yaml

# The 40 operations of the GeoJSON Agents library (shared/FUNCTIONS.md, Half 1), by the paper's names.
PAPER_NAMES = {
    "DownloadGeoJSONData", "ReadingDataFromGeoJSON", "AddFieldToGeoDataFrame", "RenameColumnOfGeoDataFrame",
    "SaveAsFinalResult", "TransformProjectionOfGeoDataFrame", "ConvertFileFormat", "VisualizeGeoJSONData",
    "InteractiveEdit", "GroupByOneGeoDataFrames", "MergeDataFrameToGeoDataFrame", "CalculateGeometryLength",
    "ClipGeoDataFrame", "FeatureToLine", "FeatureVerticesToPoints", "FeatureToPolygon", "OverlayAnalysis",
    "CreateMultiRingBufferFromGeoDataFrame", "SpatialAnalysisOfAggregationPoints", "CreateThiessenPolygon",
    "CreateMinPointgroupBorder", "CalculateMainDirectionOfPolygon", "SortPointsbyField",
    "CreateLineConnectingNearestPoints", "CalculateDistanceBetweenPoints", "SummarizeNearestDistances",
    "JoinNearestPoints", "CalculateGeometricCenter", "CountTheQuantityOfSpatialFeatures", "nearest_point_on_line",
    "XYCoordinatesToLine", "SplitPolygonByLine", "CalculatePerpendicularDistanceFromPointToLine", "AddXYCoordinates",
    "SelectRowsFromGeoDataFrame", "FilterRowsByExpression", "SpatialJoinTwoGeoDataFrames", "InteractiveQuery",
    "ExportCoordinateofGeometry", "PlotGeoDataFrameByMatplotlib",
}  # fmt: skip
TOKEN_BUDGET = 12_700  # 11.9k before the 4 imagery tools (about 700 more)


def _registry() -> Registry:
    """The full registry when both halves load; the GeoPandas half alone while the other is missing."""
    try:
        from geoclerk.function_lib import load_registry

        return load_registry()
    except ImportError:
        from geoclerk.function_lib.geojson import TOOLS

        registry = Registry()
        for spec, impl in TOOLS:
            registry.register(spec, impl)
        return registry


REGISTRY = _registry()
SPECS = REGISTRY.specs()


def test_paper_has_forty_operations():
    assert len(PAPER_NAMES) == 40


@pytest.mark.parametrize("spec", SPECS, ids=[s.name for s in SPECS])
def test_yaml_and_json_schema_agree(spec):
    doc = spec.yaml_doc()
    data = yaml.safe_load(doc)
    assert data["name"] == spec.name and data["purpose"] == spec.purpose
    assert schema_from_yaml(doc) == spec.json_schema()
    assert len(spec.examples) <= 1, "keep one example at most (token budget)"
    assert "\n" not in spec.purpose


@pytest.mark.parametrize("spec", SPECS, ids=[s.name for s in SPECS])
def test_examples_validate_against_the_schema(spec):
    import jsonschema

    for example in spec.examples:
        jsonschema.validate(example, spec.json_schema())


def test_names_are_unique_snake_case():
    names = [s.name for s in SPECS]
    assert len(names) == len(set(names))
    bad = [n for n in names if not re.fullmatch(r"[a-z][a-z0-9]*(_[a-z0-9]+)*", n)]
    assert not bad


def test_every_geojson_tool_has_an_implementation_taking_its_params():
    tools = REGISTRY.tools("geojson")
    assert tools
    for tool in tools:
        assert tool.available, f"{tool.name} has no implementation"
        params = inspect.signature(tool.impl).parameters
        assert list(params)[0] == "ctx", tool.name
        declared = {p.name for p in tool.spec.params}
        assert declared == set(list(params)[1:]), f"{tool.name}: spec {declared} vs function {list(params)[1:]}"
        for p in tool.spec.params:
            if not p.required:
                assert params[p.name].default is not inspect.Parameter.empty, f"{tool.name}.{p.name} needs a default"


def test_field_params_name_their_layer():
    for spec in SPECS:
        layer_params = {p.name for p in spec.params if p.kind == "layer"}
        for p in spec.params:
            if p.kind in ("field", "fields", "value") and spec.half == "geojson":
                assert p.of_layer in layer_params, f"{spec.name}.{p.name} has of_layer={p.of_layer}"


def test_equivalents_exist_in_the_full_registry():
    names = set(REGISTRY.names())
    if not REGISTRY.specs("processing"):
        pytest.skip("the Processing half is not loaded")
    missing = [s.name for s in REGISTRY.specs("geojson") if s.equivalent and s.equivalent not in names]
    assert not missing


def test_all_forty_paper_operations_are_mapped():
    geojson_specs = REGISTRY.specs("geojson")
    if len(geojson_specs) < 40:
        pytest.skip(f"only {len(geojson_specs)} GeoPandas tools registered so far")
    mapped = {s.paper_name for s in geojson_specs if s.paper_name}
    assert PAPER_NAMES - mapped == set()
    assert mapped - PAPER_NAMES == set(), "paper_name must be one of the paper's names"


def test_all_yaml_docs_fit_the_token_budget(capsys):
    import bpe_openai

    encoding = bpe_openai.get_encoding("cl100k_base")
    per_half = {}
    for spec in SPECS:
        per_half[spec.half] = per_half.get(spec.half, 0) + len(encoding.encode(spec.yaml_doc()))
    total = sum(per_half.values())
    with capsys.disabled():
        print(f"\nYAML docs: {len(SPECS)} tools, {total} cl100k_base tokens {per_half} (budget {TOKEN_BUDGET})")
    assert total < TOKEN_BUDGET


def test_an_optional_parameter_sent_as_null_is_not_given():
    # the real local model's call: visualize_layer with "field": null (three failed rounds before this rule)
    from geoclerk.errors import ValidationError
    from geoclerk.function_lib import load_registry
    from geoclerk.function_lib.registry import validate_args

    spec = load_registry().get("visualize_layer").spec
    args = validate_args(spec, {"layer": "roads", "field": None})
    assert args.get("field") is None and args["layer"] == "roads"
    with pytest.raises(ValidationError):
        validate_args(spec, {"layer": None})  # a required one sent as null is still an error
