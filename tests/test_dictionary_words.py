"""German and Chinese words that name English-named layers, fields and values through the general dictionaries
(reading/dictionary.py: FreeDict deu-eng, CC-CEDICT): 'Sichtungen' → sightings, 'Kamerafallen' (a compound) →
camera_traps, 营地 → camps, 'Luchs'/猞猁 → the species value lynx. A translation counts only where it lands on a loaded
name; a word landing on two layers is a question, a word naming nothing loaded stays unexplained, and the lexicon's
own words keep their meaning."""

from __future__ import annotations

import pytest
from geoclerk.function_lib.describe import FieldInfo, LayerInfo
from geoclerk.reading import dictionary
from geoclerk.reading.schema_match import find_layers, find_values


def _layer(name, geometry="Point", fields=()):
    return LayerInfo(
        name=name, kind="vector", geometry_type=geometry, feature_count=10, crs="EPSG:32633",
        fields=[FieldInfo(n, t, s) for n, t, s in fields],
    )  # fmt: skip


SIGHTINGS = _layer("sightings", fields=[("species", "string", ["red deer", "lynx", "ibex"]), ("n", "integer", [3])])
TRAPS = _layer("camera_traps", fields=[("trap_id", "integer", [1, 2])])
CAMPS = _layer("camps", fields=[("camp_id", "integer", [1])])
TRAILS = _layer("trails", "LineString", [("name", "string", ["Lynx Way"])])
ALL = [SIGHTINGS, TRAPS, CAMPS, TRAILS]


@pytest.fixture(autouse=True)
def _both_dictionaries(monkeypatch):
    """Chinese is off by default (reading/dictionary.py ENABLED says why): the rule is checked with both on."""
    monkeypatch.setattr(dictionary, "ENABLED", {"de", "zh"})


@pytest.mark.parametrize(
    "text, layer",
    [
        ("Puffer 50 m um die Sichtungen", "sightings"),
        ("Puffer 50 m um die Kamerafallen", "camera_traps"),  # Kamera|fallen → camera trap
        ("营地缓冲50米", "camps"),
        ("buffer the camps by 50 m", "camps"),  # English as written, for comparison
    ],
)
def test_a_dictionary_word_names_the_layer(router, text, layer):
    plan = router.route(text, ALL).plan
    assert plan.tool == "buffer" and plan.complete, plan
    assert plan.params["layer"] == layer and plan.params["distance"] == 50, plan


def test_the_plan_names_the_dictionary_step(router):
    plan = router.route("Puffer 50 m um die Sichtungen", ALL).plan
    assert any("sichtungen" in n.lower() and "→ sightings" in n and "dictionary" in n for n in plan.notes), plan.notes


@pytest.mark.parametrize(
    "text, layers",
    [
        ("Puffer 50 m um die Fallen", [_layer("traps"), _layer("snares")]),  # Falle: trap and snare
        ("陷阱缓冲50米", [_layer("traps"), _layer("snares")]),
    ],
)
def test_a_word_translated_to_two_layers_names_neither(router, text, layers):
    assert find_layers(text, layers) == []
    plan = router.route(text, layers).plan
    assert not (plan.complete and plan.tool == "buffer"), plan


@pytest.mark.parametrize("text", ["Puffer 50 m um die Sichtungen", "营地缓冲50米"])
def test_a_translation_naming_nothing_loaded_stays_unexplained(router, text):
    layers = [TRAPS, TRAILS]
    assert find_layers(text, layers) == []
    plan = router.route(text, layers).plan
    assert not (plan.complete and plan.tool == "buffer"), plan


def test_the_lexicon_keeps_its_own_words():
    # 'Wanderwege' is the lexicon's word for trails; the dictionary's "walking route" never takes it elsewhere
    found = find_layers("Puffer 50 m um die Wanderwege", [_layer("walking_routes", "LineString"), TRAILS])
    assert [m.name for m in found] == ["trails"], found
    assert not found[0].note


def test_a_field_word_of_the_lexicon_names_no_layer_through_the_dictionary():
    # 'Förderleistung' is the lexicon's word for a capacity field; FreeDict also gives 'lift', which names no layer here
    lifts = _layer("lifts", "LineString", [("capacity", "integer", [400]), ("type", "string", ["chairlift"])])
    assert find_layers("Maximale Förderleistung je Bahntyp", [lifts, TRAILS]) == []


@pytest.mark.parametrize("text", ["Alle Sichtungen von Luchs", "猞猁的目击记录"])
def test_a_dictionary_word_names_a_category_value(text):
    vals = [(m.name, m.value) for m in find_values(text, SIGHTINGS)]
    assert vals == [("species", "lynx")], vals


def test_compounds_and_plurals_fold_to_the_dictionary_word():
    assert ("sighting", "sichtung") in dictionary.german("sichtungen")
    assert any(t == "camera trap" for t, _ in dictionary.german("kamerafallen"))
    assert dictionary.german("xyzqwertz") == ()
