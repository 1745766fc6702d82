"""Words that stand for a layer said before (reading/references.py), in en, de and zh.

A reference in a layer's role that nothing names ('count the houses in them' with no earlier result) is a word
tier 0 cannot place: it used to be a filler, and the houses were counted on their own. In a conversation the
previous request's result is what it stands for, read like a name the user typed.
"""

from __future__ import annotations

from pathlib import Path

import geopandas as gpd
import pytest
from geoclerk.agent.pipeline import AgentConfig, run_request
from geoclerk.function_lib.describe import describe_path
from geoclerk.reading import references
from geoclerk.reading.text import fold

SAMPLE = Path(__file__).resolve().parent.parent / "data" / "sample"


@pytest.fixture(scope="module")
def layers():
    return [describe_path(str(SAMPLE / f"{n}.gpkg"), n) for n in ("schools", "districts", "houses")]


def _result(name: str, origin: str | None = None, source: str = "districts"):
    info = describe_path(str(SAMPLE / f"{source}.gpkg"), name)
    info.origin = origin
    return info


def _words_gap(plan) -> str:
    return " ".join(str(m) for m in plan.missing if "not understood" in str(m))


@pytest.mark.parametrize(
    "text",
    ["count the houses in them", "how many houses are within those?", "zähle die Häuser darin",
     "wie viele Häuser liegen in ihnen", "统计它们中的房屋数量", "其中有多少栋房屋"],
)  # fmt: skip
def test_a_reference_in_a_layer_role_that_nothing_names_is_not_understood(router, layers, text):
    result = router.route(text, layers)
    assert not result.plan.complete, result.plan
    assert "which layer" in _words_gap(result.plan), result.plan.missing


@pytest.mark.parametrize(
    ("text", "tool", "params"),
    [
        ("now buffer those by 100 m", "buffer", {"layer": "prev", "distance": 100}),
        ("count the houses in them", "count_points_in_polygons", {"polygons": "prev", "points": "houses"}),
        ("dissolve the result", "dissolve", {"layer": "prev"}),
        ("puffere sie um 100 m", "buffer", {"layer": "prev", "distance": 100}),
        ("zähle die Häuser darin", "count_points_in_polygons", {"polygons": "prev", "points": "houses"}),
        ("把它们缓冲100米", "buffer", {"layer": "prev", "distance": 100}),
        ("统计它们中的房屋数量", "count_points_in_polygons", {"polygons": "prev", "points": "houses"}),
    ],
)
def test_in_a_conversation_a_reference_reads_as_the_previous_result(router, layers, text, tool, params):
    result = router.route(text, [*layers, _result("prev")], previous=["prev"])
    assert result.plan.complete, result.plan.missing
    assert result.plan.tool == tool and {k: result.plan.params.get(k) for k in params} == params


@pytest.mark.parametrize("text", ["count the schools in them", "zähle die Schulen darin", "统计它们中的学校数量"])
def test_a_reference_to_a_result_the_tool_cannot_take_is_not_understood(router, layers, text):
    # the previous result holds points (buffers would be polygons): 'in them' cannot be a count's polygons; the
    # result is titled after its request, and 'schools' in the new request names the schools, not that title
    prev = _result("buffer the schools by 100 m", origin="buffer the schools by 100 m", source="schools")
    result = router.route(text, [*layers, prev], previous=[prev.name])
    assert not result.plan.complete, (result.plan.tool, result.plan.params)


@pytest.mark.parametrize(
    ("text", "lang", "determiner_or_not_reference"),
    [
        ("count the houses in those districts", "en", True),  # a determiner
        ("zähle die Häuser in diesen Bezirken", "de", True),
        ("统计这些区内的房屋", "zh", True),
        ("统计这些行政区内的房屋", "zh", True),
        ("把这些缓冲100米", "zh", True),  # 这些 before a verb reads as a determiner too: the safe side
        ("统计它们中的房屋数量", "zh", False),
        ("Können Sie die Schulen um 100 m puffern", "de", True),  # the polite 'you'
        ("count the houses in them", "en", False),
    ],
)
def test_determiners_and_the_polite_you_are_no_references(layers, text, lang, determiner_or_not_reference):
    from geoclerk.reading.schema_match import find_layers

    folded = fold(text)
    found = references.find(folded, lang, text, find_layers(folded, layers))
    assert (not found) == determiner_or_not_reference, found


@pytest.mark.parametrize(
    "text",
    ["select the districts with population above 5000, then count the houses in them",
     "wähle die Bezirke mit mehr als 5000 Einwohnern und zähle dann die Häuser darin",
     "筛选人口超过5000的行政区，然后统计它们中的房屋"],
)  # fmt: skip
def test_a_reference_to_an_earlier_clause_is_the_requests_own(layers, text):
    from geoclerk.reading.schema_match import find_layers

    folded = fold(text)
    mentions = find_layers(folded, layers)
    lang = "zh" if "区" in text else "en"
    assert references.unplaced(folded, lang, text, mentions) == []
    assert references.resolve(folded, lang, [*layers, _result("prev")], mentions, ["prev"], text) == mentions


def test_a_follow_up_counts_in_the_previous_result_end_to_end(tmp_path, registry, router):
    first = run_request("select the districts with population above 5000", [str(SAMPLE / "districts.gpkg")],
                        tmp_path / "1", AgentConfig(offline=True), registry, router).to_json()  # fmt: skip
    assert first["status"] == "ok" and first["tier"] == 0, first
    [made] = [o["path"] for o in first["outputs"] if o["kind"] == "vector"]
    name = Path(made).stem
    second = run_request("now count the houses in them", [str(SAMPLE / "houses.gpkg"), made], tmp_path / "2",
                         AgentConfig(offline=True), registry, router, previous=[name]).to_json()  # fmt: skip
    assert second["status"] == "ok" and second["tier"] == 0, second
    assert second["steps"][0]["params"]["polygons"] == name
    [out] = [o["path"] for o in second["outputs"] if o["kind"] == "vector"]
    counted = gpd.read_file(out)
    big = gpd.read_file(SAMPLE / "districts.gpkg").query("population > 5000")
    houses = gpd.read_file(SAMPLE / "houses.gpkg").to_crs(big.crs)
    expected = gpd.sjoin(houses, big, predicate="within").groupby("index_right").size().sum()
    count_field = [c for c in counted.columns if c not in big.columns and c != "geometry"][0]
    assert len(counted) == len(big) and counted[count_field].sum() == expected
    # without the conversation, the same words name no layer: tier 0 declines instead of counting all houses
    alone = run_request("now count the houses in them", [str(SAMPLE / "houses.gpkg"), made], tmp_path / "3",
                        AgentConfig(offline=True), registry, router).to_json()  # fmt: skip
    assert alone["status"] == "needs_llm", alone
