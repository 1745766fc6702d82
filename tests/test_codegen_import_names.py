"""Replays of the local model (Qwen2.5-Coder 1.5B, bench-model at 5aae044, hybrid chain-reproject-filter): offered
'scikit-image' in the package list of a vector request, it wrote `from scikit-image import exposure`, which the
sandbox refused as a syntax error, and repaired nothing. The prompt names imagery packages by their import name and
only when a raster is in play; a repair names the import."""

from __future__ import annotations

from geoclerk.codegen import prompt
from geoclerk.codegen.hints import import_name_hints

REFUSED = (
    "The sandbox refused the code before running it: line 11: SyntaxError: invalid syntax in "
    "`from scikit-image import exposure`"
)


def test_a_vector_request_is_not_offered_the_imagery_packages():
    vector = prompt.system_prompt(rasterio=True, rasters=False)
    raster = prompt.system_prompt(rasterio=True, rasters=True)
    assert "skimage" not in vector and "scikit-image" not in vector.replace("scikit-learn", "")
    if prompt.installed("skimage"):
        assert "skimage (scikit-image)" in raster


def test_the_repair_names_the_import_of_a_distribution_name():
    assert import_name_hints(REFUSED) == ["The package scikit-image is imported as `skimage` (e.g. `import skimage`)."]
    assert import_name_hints("import scikit-learn as sk") == [
        "The package scikit-learn is imported as `sklearn` (e.g. `import sklearn`)."
    ]
    assert import_name_hints("NameError: name 'gpd' is not defined") == []
