"""The API check and the docs index: certain mistakes found before a run (checked by message), none on correct code,
the fault suite's catch rate, and tier 2 end to end with a scripted model (the answer checked by value)."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import geopandas as gpd
import pytest
from geoclerk.agent.pipeline import run_request
from geoclerk.bench.faults import false_positives, load_faults
from geoclerk.codegen import api_index, apicheck, docs_index
from geoclerk.function_lib.describe import describe_path
from geoclerk.tests.agent_toolkit import TinyRouter, config_for, tiny_registry
from geoclerk.tests.scripted_server import ScriptedServer
from shapely.geometry import Point

SAMPLE = Path(__file__).resolve().parent.parent / "data" / "sample"


@pytest.fixture(scope="module")
def index():
    built = api_index.load(sys.executable)
    assert built is not None and "geopandas" in built["modules"]
    return built


def _check(index, code, files=("towns.gpkg",), degrees=(), earlier=()):
    return [str(f) for f in apicheck.check(code, index, list(files), set(degrees), tuple(earlier))]


GDF = "import geopandas as gpd\ng = gpd.read_file('towns.gpkg')\n"


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        ("import shapely.geometry\nx = shapely.geometry.Line([(0, 0), (1, 1)])",
         "line 2: module 'shapely.geometry' has no attribute 'Line'. Did you mean: LineString"),
        ("from shapely.ops import cascaded_union", "cannot import name 'cascaded_union' from 'shapely.ops'"),
        (GDF + "d = g.geometry.nearest_distance(g.geometry)", "line 3: a GeoSeries has no method 'nearest_distance'"),
        (GDF + "j = gpd.sjoin(g, g, op='within')", "sjoin() has no keyword argument 'op'. Signature: sjoin("),
        (GDF + "print(g.area().sum())", "GeoDataFrame.area is a property, not a method"),
        (GDF + "h = g.to_crs(3857)\nh = h.dissolve(by='a')\nprint(h.length())", "line 5: GeoDataFrame.length is a"),
        ("import pandas as pd\ndf = pd.DataFrame({'a': [1]})\nprint(dff)",
         "line 3: name 'dff' is not defined. Did you mean: df?"),
        ("import numpy as np\nx = np.float(1)", "module 'numpy' has no attribute 'float'"),
        ("from sklearn.cluster import DBSCAN\nd = DBSCAN(eps=1, min_points=3)", "Did you mean: min_samples?"),
        ("import geopandas as gpd\ng = gpd.read_file('town.shp')",
         "the file 'town.shp' is not in the current folder. Did you mean: towns.gpkg?"),
    ],
)  # fmt: skip
def test_certain_mistakes_are_found_with_the_closest_real_names(index, code, expected):
    found = _check(index, code)
    assert len(found) == 1 and expected in found[0], found


@pytest.mark.parametrize(
    "code",
    [
        GDF + "print(g.population.sum(), g['pop'].max(), g.pop_density)",  # columns as attributes and keys
        GDF + "g.plot(column='pop', legend=True, cmap='viridis')",  # the plot accessor takes any keyword
        "from sklearn.cluster import KMeans\nk = KMeans(3).fit([[0], [1], [2]])\nprint(k.labels_, k.inertia_)",
        "import scipy\nprint(scipy.spatial.cKDTree)",  # a submodule reached without importing it
        "def f(x):\n    return x + y\ny = 1\nprint(f(1))",  # bound later, at module level
        "from math import *\nprint(sqrt(floor(2.5)))",  # a star import: undefined names cannot be told
        "print(total)",  # bound by an earlier attempt in this sandbox (see `earlier`)
        GDF + "g.to_file('out.gpkg')\nh = gpd.read_file('out.gpkg')",  # a file the script writes, then reads
        GDF + "g = g.to_crs(g.estimate_utm_crs())\nprint(g.buffer(500).area.sum())",  # reprojected first
        GDF + "print(g.buffer(0).is_valid.all(), g.geometry.buffer(0.5).area.sum())",  # not metre distances
        "import numpy as np\nx = np.array([1.0])\nprint(x.mean(), np.float64(2))",
    ],
)
def test_correct_code_has_no_finding(index, code):
    assert _check(index, code, earlier=["total = 5"]) == []


def test_metre_distances_on_a_layer_in_degrees(index):
    found = _check(index, GDF + "b = g.buffer(500)\nc = g.geometry.buffer(distance=100)", degrees=["towns.gpkg"])
    assert [f.split(":")[0] for f in found] == ["line 3", "line 4"]
    assert "buffer(500) on a layer whose CRS is geographic" in found[0] and "estimate_utm_crs" in found[0]
    assert _check(index, GDF + "b = g.buffer(500)") == []  # the same file in metres


def test_fault_suite_catch_rate_and_no_false_positive(tmp_path):
    faults = load_faults()
    assert len(faults) >= 30
    python = sys.executable
    caught = {}
    for fault in faults:
        work = tmp_path / fault["id"]
        work.mkdir()
        copies = {str(SAMPLE / n): str(shutil.copy(SAMPLE / n, work)) for n in fault["inputs"]}
        infos = [describe_path(p) for p in copies]
        caught[fault["id"]] = bool(apicheck.precheck(fault["bad"], python, work, infos, copies))
    static = [f for f in faults if f["kind"] != "runtime"]
    assert len(static) == 30 and sum(caught[f["id"]] for f in static) >= 28  # measured: 29 (bench/report.md)
    assert not any(caught[f["id"]] for f in faults if f["kind"] == "runtime")  # what no static check can see
    checked, findings = false_positives(python)
    assert checked >= 40 and findings == []


def test_docs_for_a_failing_call_are_the_installed_signature(index):
    code = GDF + "j = gpd.sjoin(g, g, op='within')\n"
    error = "TypeError: sjoin() got an unexpected keyword argument 'op' (line 3: `j = gpd.sjoin(g, g, op='within')`)"
    keys = docs_index.keys_for(code, error, index)
    assert keys[0] == "geopandas.tools.sjoin.sjoin"
    (note,) = docs_index.notes(code, error, type("Box", (), {"python": sys.executable})())
    assert note.startswith(docs_index.HEADER)
    assert "geopandas.sjoin(left_df, right_df, how='inner', predicate='intersects'" in note
    assert "Spatial join of two GeoDataFrames." in note
    assert all(len(line) <= docs_index.ENTRY_CHARS for line in note.splitlines())
    missing = "AttributeError: 'GeoSeries' object has no attribute 'nearest_distance'"
    assert "geopandas.geoseries.GeoSeries.distance" in docs_index.keys_for(GDF, missing, index)


def test_no_index_means_no_check(tmp_path):
    assert api_index.load(str(tmp_path / "no-python")) is None
    assert apicheck.precheck("print(undefined_name)", str(tmp_path / "no-python"), tmp_path) == []


@pytest.fixture
def towns(tmp_path):
    path = tmp_path / "data" / "towns.gpkg"
    path.parent.mkdir()
    gpd.GeoDataFrame({"name": ["a", "b"], "pop": [10, 20]}, geometry=[Point(13.4, 52.5), Point(13.5, 52.5)],
                     crs="EPSG:4326").to_file(path)  # fmt: skip
    return str(path)


BAD = "```python\nimport geopandas as gpd\ng = gpd.read_file('towns.gpkg')\nprint(g.buffer(1000).area.sum())\n```"
GOOD = (
    "```python\nimport geopandas as gpd\ng = gpd.read_file('towns.gpkg')\ng = g.to_crs(g.estimate_utm_crs())\n"
    "print(f'{g.buffer(1000).area.sum() / 1e6:.2f} km2')\n```"
)


@pytest.mark.parametrize("check", [True, False])
def test_tier2_stops_a_degree_buffer_before_it_runs(towns, tmp_path, check):
    """With the check, the 1000-degree buffer never runs and the answer is the metre one; without it the wrong
    number is accepted: the case the check is for."""
    with ScriptedServer([{"content": BAD}, {"content": GOOD}]) as server:
        report = run_request("area within 1 km of the towns", [towns], tmp_path / "out",
                             config_for(server, api_check=check), registry=tiny_registry(),
                             router=TinyRouter(route="codegen", confidence=0.9))  # fmt: skip
        requests = list(server.requests)
    assert report.status == "ok", report.error
    if check:
        assert len(requests) == 2 and [s["ok"] for s in report.steps] == [False, True]
        feedback = requests[1]["messages"][-1]["content"]
        assert "was not run: line 3: buffer(1000) on a layer whose CRS is geographic" in feedback
        assert report.answer == "6.27 km2"  # two 1 km discs (pi km2 each, as polygons) in UTM
    else:
        assert len(requests) == 1 and float(report.answer) > 1e6  # square degrees, accepted


def test_code_that_handles_the_error_itself_is_left_alone(index):
    guarded = (
        "try:\n    print(left_over)\nexcept NameError:\n    print('clean')\n"
        + GDF
        + "try:\n    u = g.union_all()\nexcept AttributeError:\n    u = g.nearest_union\n"
    )
    assert _check(index, guarded) == []
    # a handler for another error does not hide the mistake
    assert _check(index, "try:\n    print(left_over)\nexcept ValueError:\n    pass") == [
        "line 2: name 'left_over' is not defined."
    ]


def test_types_follow_what_the_calls_return(index):
    # a GeoSeries' reset_index is a frame (merge exists there); a GeoDataFrame's stays one (no 'merge_all')
    assert _check(index, GDF + "t = g.geometry.reset_index()\nm = t.merge(t, on='index')") == []
    found = _check(index, GDF + "t = g.reset_index().dropna()\nm = t.merge_all(t)")
    assert found == ["line 4: a GeoDataFrame has no method 'merge_all'. Did you mean: merge?"]


def test_a_row_filter_keeps_the_layer_and_its_degrees(index):
    code = GDF + "big = g[(g['pop'] > 10) & ~g['name'].isin(['a'])]\nprint(big.buffer(2000).area.sum())"
    assert _check(index, code, degrees=["towns.gpkg"]) == [
        "line 4: buffer(2000) on a layer whose CRS is geographic: the distance is in degrees there (2000 degrees is "
        "about 222000 km). Reproject first, e.g. gdf = gdf.to_crs(gdf.estimate_utm_crs()), then use metres."
    ]
    assert _check(index, GDF + "col = g[g.columns[0]]\nprint(col.buffer(2000))", degrees=["towns.gpkg"]) == []


@pytest.mark.parametrize("docs", [True, False])
def test_a_failed_run_gets_the_installed_docs_of_the_failing_call(towns, tmp_path, docs):
    bad = "```python\n" + GDF + "print(len(gpd.sjoin(g, g, op='within')))\n```"
    good = bad.replace("op=", "predicate=")
    with ScriptedServer([{"content": bad}, {"content": good}]) as server:
        report = run_request("join the towns", [towns], tmp_path / "out",
                             config_for(server, api_check=False, api_docs=docs), registry=tiny_registry(),
                             router=TinyRouter(route="codegen", confidence=0.9))  # fmt: skip
        feedback = server.requests[1]["messages"][-1]["content"]
    assert report.status == "ok" and report.answer == "2"
    assert "TypeError: sjoin() got an unexpected keyword argument 'op'" in feedback  # the run's own error
    assert (docs_index.HEADER in feedback) is docs
    assert ("- geopandas.sjoin(left_df, right_df, how='inner', predicate='intersects'" in feedback) is docs
