"""A result GeoClerk made is titled after the request that made it; its title's words are not a mention of it.

Typed again ('buffer schools by 300 m' with that result loaded), the words say the operation: before, the result
was read as the polygons of a count (router 0.88, a wrong answer at tier 0), and 'count houses per district' counted
in the earlier result. A title names the result only as a name (quoted, after a layer word); a renamed result is
named like any layer; 'those'/'the result' stay references (test_router_references.py).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from geoclerk.function_lib.describe import describe_path

SAMPLE = Path(__file__).resolve().parent.parent / "data" / "sample"


@pytest.fixture(scope="module")
def layers():
    return [describe_path(str(SAMPLE / f"{n}.gpkg"), n) for n in ("schools", "districts", "houses")]


def _result(title: str, origin: str, source: str):
    info = describe_path(str(SAMPLE / f"{source}.gpkg"), title)
    info.origin = origin
    return info


def _plan(router, text, layers):
    plan = router.route(text, layers).plan
    return plan.tool, plan.params, plan.complete


@pytest.mark.parametrize(
    ("text", "source"),
    [
        ("buffer schools by 300 m", "districts"),  # a polygon result: it could pass for a count's polygons
        ("count houses per district", "districts"),
        ("Puffere die Schulen um 300 m", "districts"),
        ("Zähle die Häuser je Bezirk", "districts"),
        ("将学校缓冲300米", "districts"),
        ("统计每个区的房屋数量", "districts"),
    ],
)
def test_a_request_typed_again_reads_as_it_did_the_first_time(router, layers, text, source):
    made = _result(text, text, source)
    assert _plan(router, text, [*layers, made]) == _plan(router, text, layers)
    assert made.name not in router.route(text, [*layers, made]).plan.params.values()


@pytest.mark.parametrize(
    "text",
    [
        'count the houses in "buffer schools by 300 m"',
        "count the houses in the layer buffer schools by 300 m",
        "zähle die Häuser in der Ebene buffer schools by 300 m",
        "统计图层buffer schools by 300 m中的房屋数量",
    ],
)
def test_a_title_said_as_a_name_names_the_result(router, layers, text):
    made = _result("buffer schools by 300 m", "buffer schools by 300 m", "districts")
    plan = router.route(text, [*layers, made]).plan
    assert plan.tool == "count_points_in_polygons" and plan.params.get("polygons") == made.name, plan


@pytest.mark.parametrize("text", ["count the houses in big_districts", "zähle die Häuser in big_districts"])
def test_a_renamed_result_is_named_like_any_layer(router, layers, text):
    made = _result("big_districts", "select the districts with population above 5000", "districts")
    plan = router.route(text, [*layers, made]).plan
    assert plan.params.get("polygons") == "big_districts", plan
