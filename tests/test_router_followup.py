"""'Do the same for the cafes' (planning/followup.py): the last steps again on another layer, only when that is all
the request says, and the swap is clear. en, de, zh."""

from __future__ import annotations

from pathlib import Path

import pytest
from geoclerk.function_lib.describe import describe_path
from geoclerk.planning.followup import same_again

SAMPLE = Path(__file__).resolve().parent.parent / "data" / "sample"
BUFFER = [{"tool": "buffer", "params": {"layer": "schools", "distance": 100}}]
COUNT = [{"tool": "count_points_in_polygons", "params": {"polygons": "districts", "points": "schools"}}]


@pytest.fixture(scope="module")
def layers():
    return [describe_path(str(SAMPLE / f"{n}.gpkg"), n) for n in ("schools", "districts", "cafes", "roads", "houses")]


@pytest.mark.parametrize(
    "text", ["do the same for the cafes", "now the same for cafes, please", "mach dasselbe für die Cafés",
             "und jetzt genauso für die Cafés", "对咖啡馆做同样的操作", "咖啡馆也一样"],
)  # fmt: skip
@pytest.mark.parametrize("steps", [BUFFER, COUNT])
def test_the_same_for_another_layer_swaps_the_matching_input(layers, text, steps):
    new_steps, old, new = same_again(text, layers, steps)
    assert (old, new) == ("schools", "cafes")
    assert [s["params"] for s in new_steps] == [
        {k: ("cafes" if v == "schools" else v) for k, v in s["params"].items()} for s in steps
    ]


@pytest.mark.parametrize(
    "text",
    ["do the same for the cafes but with 200 m", "same for the cafes and the houses", "buffer the cafes by 100 m",
     "mach dasselbe für die Cafés, aber mit 200 m", "对咖啡馆做同样的操作，但是用200米", "do the same for the schools"],
)  # fmt: skip
def test_anything_more_than_the_same_is_not_read_here(layers, text):
    assert same_again(text, layers, BUFFER) is None


def test_the_swap_must_be_clear_and_the_fields_must_exist(layers):
    assert same_again("do the same for the roads", layers, COUNT) is None  # lines: neither points nor polygons
    uses_field = [{"tool": "filter_by_expression", "params": {"layer": "schools", "expression": '"students" > 300'}}]
    assert same_again("do the same for the cafes", layers, uses_field) is None  # the cafes have no 'students'
    assert same_again("do the same for the cafes", layers, []) is None


@pytest.mark.parametrize(
    ("text", "selection"),
    [("select the districts with population above 5000", True),
     ("highlight the cafes with wifi", True),
     ("select the districts with population above 5000 and save them as GeoJSON", False),
     ("extract the districts with population above 5000", False),
     ("select the districts with population > 5000 as a new layer", False),
     ("select the schools into out/big_schools.gpkg", False),
     ("wähle die Bezirke mit mehr als 5000 Einwohnern aus", True),
     ("markiere die Cafés mit WLAN", True),
     ("extrahiere die Bezirke mit mehr als 5000 Einwohnern", False),
     ("wähle die Bezirke mit mehr als 5000 Einwohnern aus und speichere sie als neue Ebene", False),
     ("选中人口大于5000的行政区", True),
     ("选出有wifi的咖啡馆", True),
     ("导出人口大于5000的行政区", False),
     ("选出人口大于5000的行政区并保存为GeoJSON", False),
     ("buffer the schools by 100 m", False)],
)  # fmt: skip
def test_select_means_a_selection_unless_a_layer_or_file_is_asked_for(text, selection):
    from geoclerk.planning.followup import wants_selection

    assert wants_selection(text) is selection
