"""GEO-A mapping tools: PNG maps/charts checked by pixels and plotted values, offline HTML views by content."""

from __future__ import annotations

import json
import re
import shutil
import subprocess

import geopandas as gpd
import numpy as np
import pytest
from geoclerk.errors import ValidationError
from geoclerk.tests.geo_helpers import make_ctx
from geoclerk.tests.geo_helpers import run_result as run
from matplotlib import colormaps
from matplotlib.image import imread
from shapely.geometry import LineString, MultiPolygon, Point, box


def _regions():
    return gpd.GeoDataFrame(
        {"name": ["low", "high", "mid"], "kind": ["a", "b", "a"], "pop": [10.0, 20.0, 15.0]},
        geometry=[box(0, 0, 10, 10), box(10, 0, 20, 10), MultiPolygon([box(0, 10, 5, 15), box(6, 10, 9, 15)])],
        crs="EPSG:32633",
    )


def _pixels_near(image, rgb, tol=0.02) -> int:
    return int((np.abs(image[:, :, :3] - np.array(rgb)) < tol).all(axis=2).sum())


def test_choropleth_colours_polygons_by_value(tmp_path):
    ctx = make_ctx(tmp_path, regions=_regions())
    res = run(ctx, "plot_map", layer="regions", field="pop", kind="choropleth", title="Population")
    assert res.outputs[0].kind == "image" and res.outputs[0].path.endswith(".png")
    image = imread(res.outputs[0].path)
    assert image.shape[:2] == (600, 800)
    low, high = colormaps["viridis"](0.0)[:3], colormaps["viridis"](1.0)[:3]
    # Each big square fills thousands of pixels in its class colour; the colour bar alone holds far fewer.
    assert _pixels_near(image, low) > 5000 and _pixels_near(image, high) > 5000
    assert res.values == {"legend": "colorbar", "min": 10.0, "max": 20.0}


def test_categorical_map_and_visualize_legend(tmp_path):
    ctx = make_ctx(tmp_path, regions=_regions())
    res = run(ctx, "visualize_layer", layer="regions", field="kind")
    assert res.values == {"legend": "categories", "categories": ["a", "b"]}
    image = imread(res.outputs[0].path)
    assert len(np.unique(image[:, :, :3].reshape(-1, 3), axis=0)) > 10
    plain = run(ctx, "visualize_layer", layer="regions")
    assert _pixels_near(imread(plain.outputs[0].path), (0x3A / 255, 0x7D / 255, 0xC9 / 255)) > 5000


def test_bar_histogram_and_scatter_values(tmp_path):
    regions = _regions()
    ctx = make_ctx(tmp_path, regions=regions)
    bar = run(ctx, "plot_map", layer="regions", field="kind", kind="bar")
    counts = regions["kind"].value_counts()
    assert dict(zip(bar.values["labels"], bar.values["heights"])) == counts.to_dict()
    bar = run(ctx, "plot_map", layer="regions", field="pop", kind="bar")
    assert bar.values["labels"] == ["high", "mid", "low"] and bar.values["heights"] == [20.0, 15.0, 10.0]
    hist = run(ctx, "plot_map", layer="regions", field="pop", kind="histogram")
    expected, edges = np.histogram(regions["pop"], bins=len(hist.values["counts"]))
    assert hist.values["counts"] == expected.tolist() and np.allclose(hist.values["edges"], edges)
    scatter = run(ctx, "plot_map", layer="regions", field="pop", kind="scatter")
    assert scatter.values["max"] == 20.0 and imread(scatter.outputs[0].path).shape[:2] == (600, 800)
    with pytest.raises(ValidationError, match="needs a field"):
        run(ctx, "plot_map", layer="regions", kind="bar")
    with pytest.raises(ValidationError, match="numeric field"):
        run(ctx, "plot_map", layer="regions", field="name", kind="histogram")
    with pytest.raises(ValidationError):
        run(ctx, "plot_map", layer="regions", field="pop", kind="pie")


def _page_data(path) -> tuple[str, dict]:
    page = open(path, encoding="utf-8").read()
    match = re.search(r'<script type="application/json" id="data">(.*?)</script>', page, re.S)
    return page, json.loads(match.group(1))


def _assert_offline(page: str) -> None:
    assert "http://" not in page and "https://" not in page
    assert not re.search(r"<(script|img|link|iframe)[^>]+(src|href)=", page)


def test_interactive_query_page_is_offline_searchable_and_clickable(tmp_path):
    regions = _regions().assign(note=["<b>x</b>", "</script>", None])
    lines = gpd.GeoDataFrame({"id": [1]}, geometry=[LineString([(0, 0), (5, 5)])], crs="EPSG:32633")
    pts = gpd.GeoDataFrame({"id": [1, 2]}, geometry=[Point(0, 0), Point(1, 1)], crs="EPSG:32633")
    ctx = make_ctx(tmp_path, regions=regions, lines=lines, pts=pts)
    res = run(ctx, "interactive_query", layer="regions")
    assert res.outputs[0].kind == "html"
    page, data = _page_data(res.outputs[0].path)
    _assert_offline(page)
    assert data["columns"] == ["name", "kind", "pop", "note"]
    assert data["rows"] == [["low", "a", 10.0, "<b>x</b>"], ["high", "b", 20.0, "</script>"], ["mid", "a", 15.0, None]]
    shapes = re.findall(r'<path data-i="(\d+)"', page)
    assert shapes == ["0", "1", "2", "2"]  # the multipolygon draws two parts, both identified as row 2
    assert 'id="q"' in page and "oninput" in page and "onclick" in page
    page, _ = _page_data(run(ctx, "interactive_query", layer="lines").outputs[0].path)
    assert page.count('class="line"') == 1
    page, _ = _page_data(run(ctx, "interactive_query", layer="pts").outputs[0].path)
    assert page.count("<circle") == 2


def test_interactive_edit_page_holds_an_editable_copy(tmp_path):
    regions = _regions().to_crs(4326)
    ctx = make_ctx(tmp_path, regions=_regions())
    res = run(ctx, "interactive_edit", layer="regions")
    page, data = _page_data(res.outputs[0].path)
    _assert_offline(page)
    assert data["editable"] is True and data["rows"][1] == ["high", "b", 20.0]
    features = data["geojson"]["features"]
    assert len(features) == 3
    first = features[0]["geometry"]["coordinates"][0]
    assert np.allclose(first, np.asarray(regions.geometry.iloc[0].exterior.coords), atol=1e-9)
    assert "contenteditable" in page and "Download edited GeoJSON" in page
    assert "original layer is not changed" in page
    assert ctx.gdf("regions")["pop"].tolist() == [10.0, 20.0, 15.0]


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
@pytest.mark.parametrize("tool", ["interactive_edit", "interactive_query"])
def test_page_scripts_are_valid_javascript(tmp_path, tool):
    ctx = make_ctx(tmp_path, regions=_regions())
    page = open(run(ctx, tool, layer="regions").outputs[0].path, encoding="utf-8").read()
    script = re.findall(r"<script>(.*?)</script>", page, re.S)[-1]
    js = tmp_path / "page.js"
    js.write_text(script, encoding="utf-8")
    check = subprocess.run(["node", "--check", str(js)], capture_output=True, text=True, timeout=60)
    assert check.returncode == 0, check.stderr
