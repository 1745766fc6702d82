"""Tool traits (function_lib/traits.py): every tool they name exists, and the router reads tools through them."""

from __future__ import annotations

import pytest
from geoclerk.function_lib import load_registry
from geoclerk.function_lib.traits import NEEDS_WITH, ONE_OF, TRAITS, one_per_group, traits_of
from geoclerk.languages import LEXICONS
from geoclerk.planning.plan import fill_plan, is_chain

from tests.test_router_extract import DISTRICTS, SCHOOLS

REGISTRY = load_registry()
PROCESSING = {
    "qgis_" + n
    for n in (
        "buffer", "multi_ring_buffer", "centroids", "point_on_surface", "reproject", "convex_hull",
        "oriented_bounding_box", "add_xy_fields", "field_calculator", "polygons_to_lines", "count_points_in_polygon",
        "zonal_statistics", "join_by_nearest", "join_by_location", "join_by_field", "sample_raster", "fix_geometries",
        "lines_to_polygons", "voronoi", "random_points_in_polygons", "dissolve", "aggregate",
        "statistics_by_categories", "minimum_bounding_geometry", "basic_statistics", "nearest_neighbour_analysis",
        "merge_layers", "heatmap", "delaunay", "distance_matrix", "extract_by_attribute", "extract_by_expression",
        "extract_by_location", "extract_within_distance", "clip", "difference", "intersection", "union",
        "symmetrical_difference", "split_with_lines",
    )
}  # fmt: skip


def test_every_tool_a_trait_names_exists():
    known = {s.name for s in REGISTRY.specs()} | PROCESSING
    named = set(TRAITS) | set(ONE_OF) | set(NEEDS_WITH)
    assert named - known == set()


def test_every_trait_verb_key_is_a_trait_in_every_language():
    declared = set().union(*TRAITS.values())
    keys = [set(lang.TRAIT_VERBS) for lang in LEXICONS.values()]
    assert all(k == keys[0] for k in keys)  # the same traits in each language
    assert keys[0] <= declared


@pytest.mark.parametrize(
    "text",
    [
        "group the districts by landuse and merge them",
        "gruppiere die Bezirke nach landuse und verschmelze sie",
        "按landuse对行政区分组并合并",
    ],
)
def test_a_dissolve_own_verb_after_and_is_no_second_step(text):
    assert not is_chain(text.lower(), "dissolve")  # the dissolving trait's verbs are its own work
    assert is_chain(text.lower(), "buffer")  # for a tool without the trait they are a second step


@pytest.mark.parametrize(
    "text",
    [
        "buffer the districts and compute the total",
        "puffere die Bezirke und berechne die Summe",
        "缓冲行政区，然后计算总和",
    ],
)
def test_statistic_words_after_and_are_a_step_only_for_tools_without_the_statistic_trait(text):
    assert is_chain(text.lower(), "buffer")


def test_per_polygon_tools_give_one_row_per_polygon_whatever_the_params():
    assert "per_polygon" in traits_of("count_points_in_polygons")
    assert one_per_group("count_points_in_polygons", {})
    assert not one_per_group("dissolve", {})
    assert one_per_group("dissolve", {"by": "landuse"})


@pytest.mark.parametrize(
    "text", ["the schools with the most pupils", "die Schulen mit den meisten Schülern", "学生最多的学校"]
)
def test_top_n_needs_the_field_it_ranks_by(text):
    plan = fill_plan(REGISTRY.get("select_rows").spec, text, [SCHOOLS, DISTRICTS])
    # NEEDS_WITH: a top N with no field read is incomplete, never a ranking by a guessed field
    assert plan.complete == ("field" in plan.params)
    if not plan.complete:
        assert "field" in plan.missing or "value" in plan.missing or plan.missing


def test_every_gap_of_a_plan_is_typed():
    """Plan.missing holds Gap entries with a kind, never bare strings parsed by prefix; JSON keeps the messages."""
    from pathlib import Path

    import yaml
    from geoclerk.planning.result import GAP_KINDS, Gap
    from geoclerk.router import load_router

    from tests.test_router_extract import ALL

    router = load_router(REGISTRY)
    cases = []
    for path in sorted((Path(__file__).parent / "data" / "blind1").glob("cases_*.yaml")):
        cases += yaml.safe_load(path.read_text(encoding="utf-8"))
    kinds = set()
    for case in cases[::3]:
        plan = router.route(case["request"], ALL).plan
        if plan is None:
            continue
        for gap in plan.missing:
            assert isinstance(gap, Gap) and gap.kind in GAP_KINDS, (case["request"], gap)
            kinds.add(gap.kind)
        assert plan.to_json()["missing"] == [str(g) for g in plan.missing]
        assert all(type(m) is str for m in plan.to_json()["missing"])
    assert {"param", "words", "next_step"} <= kinds  # the set exercises the common kinds
