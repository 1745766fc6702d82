"""GEO-A acquisition and conversion tools: download (local server only), read, fields, save, reproject, convert."""

from __future__ import annotations

import functools
import importlib.util
import json
import socket
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs

import geopandas as gpd
import pandas as pd
import pytest
from geoclerk.errors import DependencyError, ToolError, ValidationError
from geoclerk.function_lib.io import read_vector
from geoclerk.tests.geo_helpers import make_ctx
from geoclerk.tests.geo_helpers import run_result as run
from shapely.geometry import LineString, Point, Polygon, box

FEATURES = {
    "type": "FeatureCollection",
    "features": [
        {
            "type": "Feature",
            "properties": {"name": "a", "pop": 10},
            "geometry": {"type": "Point", "coordinates": [1, 2]},
        },
        {
            "type": "Feature",
            "properties": {"name": "b", "pop": 20},
            "geometry": {"type": "Point", "coordinates": [3, 4]},
        },
    ],
}
OVERPASS = {
    "elements": [
        {"type": "node", "id": 1, "lat": 52.5, "lon": 13.4, "tags": {"amenity": "cafe", "name": "Kaffee"}},
        {
            "type": "way",
            "id": 2,
            "tags": {"amenity": "cafe"},
            "geometry": [
                {"lat": 52.5, "lon": 13.3},
                {"lat": 52.5, "lon": 13.31},
                {"lat": 52.51, "lon": 13.31},
                {"lat": 52.5, "lon": 13.3},
            ],
        },
    ]
}


class _Handler(SimpleHTTPRequestHandler):
    """Serves the files of the fixture's folder (GET) and answers Overpass queries (POST)."""

    queries: list = []

    def do_POST(self):  # noqa: N802
        body = self.rfile.read(int(self.headers["Content-Length"])).decode()
        _Handler.queries.append(parse_qs(body)["data"][0])
        reply = json.dumps(OVERPASS).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(reply)))
        self.end_headers()
        self.wfile.write(reply)

    def log_message(self, *args):
        pass


@pytest.fixture
def server(tmp_path):
    site = tmp_path / "site"
    site.mkdir()
    (site / "cities.geojson").write_text(json.dumps(FEATURES), encoding="utf-8")
    (site / "broken.json").write_text("not json", encoding="utf-8")
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Handler, directory=str(site)))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


def test_download_geojson_from_local_server(tmp_path, server):
    ctx = make_ctx(tmp_path)
    res = run(ctx, "download_geojson", url=f"{server}/cities.geojson")
    out = read_vector(res.outputs[0].path)
    assert out["name"].tolist() == ["a", "b"] and out["pop"].tolist() == [10, 20]
    assert [(p.x, p.y) for p in out.geometry] == [(1, 2), (3, 4)]
    assert out.crs.to_epsg() == 4326 and "2 features" in res.summary


def test_download_osm_query_goes_to_overpass(tmp_path, server, monkeypatch):
    monkeypatch.setenv("GEOCLERK_OVERPASS_URL", f"{server}/api/interpreter")
    ctx = make_ctx(tmp_path)
    res = run(ctx, "download_geojson", bbox=[13.2, 52.4, 13.5, 52.6], tag="amenity=cafe")
    out = read_vector(res.outputs[0].path)
    assert sorted(out.geom_type) == ["Point", "Polygon"]
    assert out.loc[out.geom_type == "Point", "name"].iloc[0] == "Kaffee"
    query = _Handler.queries[-1]
    assert '["amenity"="cafe"]' in query and "(52.4,13.2,52.6,13.5)" in query


def test_download_offline_is_a_clear_error(tmp_path):
    with socket.socket() as sock:  # a port nobody listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    ctx = make_ctx(tmp_path)
    with pytest.raises(ToolError) as err:
        run(ctx, "download_geojson", url=f"http://127.0.0.1:{port}/x.geojson")
    assert "Could not reach" in err.value.message and "offline" in err.value.message
    assert "read_vector" in err.value.fix


def test_download_refuses_non_json_and_missing_arguments(tmp_path, server):
    ctx = make_ctx(tmp_path)
    with pytest.raises(ToolError, match="did not return JSON"):
        run(ctx, "download_geojson", url=f"{server}/broken.json")
    with pytest.raises(ToolError, match="HTTP 404"):
        run(ctx, "download_geojson", url=f"{server}/missing.geojson")
    with pytest.raises(ValidationError, match="url, or a bbox"):
        run(ctx, "download_geojson", tag="amenity=cafe")


def test_read_vector_reads_csv_with_wkt_and_lonlat(tmp_path):
    wkt = tmp_path / "shapes.csv"
    pd.DataFrame({"id": [1, 2], "wkt": ["POINT (1 2)", "LINESTRING (0 0, 3 4)"]}).to_csv(wkt, index=False)
    lonlat = tmp_path / "stops.csv"
    pd.DataFrame({"name": ["s"], "lon": [13.4], "lat": [52.5]}).to_csv(lonlat, index=False)
    ctx = make_ctx(tmp_path)
    res = run(ctx, "read_vector", path=str(wkt))
    out = read_vector(res.outputs[0].path)
    assert out.geometry.iloc[1].length == pytest.approx(5.0) and out["id"].tolist() == [1, 2]
    assert "no CRS" in res.summary
    res = run(ctx, "read_vector", path=str(lonlat))
    out = ctx.gdf(res.outputs[0].name)
    assert out.crs.to_epsg() == 4326 and (out.geometry.x.iloc[0], out.geometry.y.iloc[0]) == (13.4, 52.5)
    with pytest.raises(ValidationError, match="does not exist"):
        run(ctx, "read_vector", path=str(tmp_path / "nope.gpkg"))


def _cities():
    return gpd.GeoDataFrame(
        {"name": ["a", "b", "c"], "population": [100, 250, 400], "area_km": [2.0, 5.0, 0.0]},
        geometry=[box(0, 0, 10, 10), box(10, 0, 30, 10), box(0, 10, 5, 20)],
        crs="EPSG:32633",
    )


def test_add_field_constant_and_expression(tmp_path):
    src = _cities()
    ctx = make_ctx(tmp_path, cities=src)
    res = run(ctx, "add_field", layer="cities", field_name="density", expression="population / $area")
    out = read_vector(res.outputs[0].path)
    assert out["density"].tolist() == pytest.approx((src["population"] / src.area).tolist())
    assert list(out.columns[:3]) == ["name", "population", "area_km"]
    res = run(ctx, "add_field", layer="cities", field_name="country", value="AT")
    assert ctx.gdf(res.outputs[0].name)["country"].tolist() == ["AT"] * 3
    res = run(ctx, "add_field", layer="cities", field_name="rank", value="3")
    assert ctx.gdf(res.outputs[0].name)["rank"].tolist() == [3, 3, 3]
    assert "density" not in ctx.gdf("cities").columns  # the input is never edited
    with pytest.raises(ValidationError, match="exactly one"):
        run(ctx, "add_field", layer="cities", field_name="x")
    with pytest.raises(ValidationError) as err:
        run(ctx, "add_field", layer="cities", field_name="x", expression="popultion * 2")
    assert "Did you mean 'population'" in err.value.fix


def test_rename_field(tmp_path):
    ctx = make_ctx(tmp_path, cities=_cities())
    res = run(ctx, "rename_field", layer="cities", field="population", new_name="pop")
    out = read_vector(res.outputs[0].path)
    assert "pop" in out.columns and "population" not in out.columns and out["pop"].tolist() == [100, 250, 400]
    with pytest.raises(ValidationError) as err:
        run(ctx, "rename_field", layer="cities", field="populaton", new_name="pop")
    assert "Did you mean 'population'" in err.value.fix
    with pytest.raises(ValidationError, match="already has a field 'name'"):
        run(ctx, "rename_field", layer="cities", field="population", new_name="name")


@pytest.mark.parametrize(
    "fmt,suffix",
    [
        ("gpkg", ".gpkg"),
        ("geojson", ".geojson"),
        ("shp", ".shp"),
        ("csv", ".csv"),
        ("parquet", ".parquet"),
        ("fgb", ".fgb"),
    ],
)
def test_save_result_and_convert_round_trip(tmp_path, fmt, suffix):
    src = _cities()
    ctx = make_ctx(tmp_path, cities=src)
    if fmt == "parquet" and importlib.util.find_spec("pyarrow") is None:
        with pytest.raises(DependencyError, match="pyarrow"):
            run(ctx, "save_result", layer="cities", format=fmt)
        return
    for tool in ("save_result", "convert_format"):
        res = run(ctx, tool, layer="cities", format=fmt)
        path = res.outputs[0].path
        assert path.endswith(suffix)
        back = read_vector(path).sort_values("name")  # FlatGeobuf orders features by its spatial index
        assert back["name"].tolist() == ["a", "b", "c"]
        assert back["population"].astype(int).tolist() == [100, 250, 400]
        assert back.geometry.area.tolist() == pytest.approx(src.area.tolist())
    named = run(ctx, "save_result", layer="cities", format=fmt, name="final result")
    assert named.outputs[0].path.endswith("final_result" + suffix)


def test_reproject_transform_assign_and_clear(tmp_path):
    src = gpd.GeoDataFrame({"n": [1]}, geometry=[Point(500000, 0)], crs="EPSG:32633")
    ctx = make_ctx(tmp_path, pts=src)
    res = run(ctx, "reproject", layer="pts", crs="EPSG:4326")
    out = read_vector(res.outputs[0].path)
    assert out.crs.to_epsg() == 4326
    assert (out.geometry.x.iloc[0], out.geometry.y.iloc[0]) == pytest.approx((15.0, 0.0), abs=1e-9)  # zone 33 centre
    res = run(ctx, "reproject", layer="pts", crs="EPSG:32634", assign=True)
    out = ctx.gdf(res.outputs[0].name)
    assert out.crs.to_epsg() == 32634 and out.geometry.x.iloc[0] == 500000  # coordinates untouched
    res = run(ctx, "reproject", layer="pts", crs="none", assign=True)
    assert ctx.gdf(res.outputs[0].name).crs is None
    with pytest.raises(ValidationError, match="not a CRS"):
        run(ctx, "reproject", layer="pts", crs="EPSG:999999")


def test_reproject_crs_less_layer_needs_assign(tmp_path):
    ctx = make_ctx(tmp_path, raw=gpd.GeoDataFrame({"n": [1]}, geometry=[Point(1, 2)]))
    with pytest.raises(ValidationError, match="has no CRS") as err:
        run(ctx, "reproject", layer="raw", crs="EPSG:4326")
    assert "assign" in err.value.fix


def test_empty_layer_is_refused_by_name(tmp_path):
    empty = gpd.GeoDataFrame({"n": []}, geometry=[], crs="EPSG:32633")
    ctx = make_ctx(tmp_path, nothing=empty)
    with pytest.raises(ToolError, match="Layer 'nothing' is empty"):
        run(ctx, "save_result", layer="nothing", format="gpkg")


def test_unknown_layer_suggests_names(tmp_path):
    ctx = make_ctx(tmp_path, cities=_cities())
    with pytest.raises(ValidationError) as err:
        run(ctx, "convert_format", layer="citys", format="gpkg")
    assert "Did you mean 'cities'" in err.value.fix


def test_outputs_never_overwrite(tmp_path):
    ctx = make_ctx(tmp_path, cities=_cities())
    first = run(ctx, "save_result", layer="cities", format="gpkg").outputs[0].path
    second = run(ctx, "save_result", layer="cities", format="gpkg").outputs[0].path
    assert first != second


def test_lines_and_polygons_survive_geojson(tmp_path):
    src = gpd.GeoDataFrame(
        {"k": ["l", "p"]}, geometry=[LineString([(0, 0), (1, 1)]), Polygon([(0, 0), (1, 0), (1, 1)])], crs=4326
    )
    ctx = make_ctx(tmp_path, mixed=src)
    back = read_vector(run(ctx, "convert_format", layer="mixed", format="geojson").outputs[0].path)
    assert back.geometry.geom_equals_exact(src.geometry, 1e-12).all()


@pytest.mark.parametrize("tag", ['amenity"]; out; ["x', "amenity=cafe;(node)", "a=b=c"])
def test_download_refuses_tags_that_would_inject_overpass_ql(tmp_path, tag):
    with pytest.raises(ValidationError, match="not an OSM tag"):
        run(make_ctx(tmp_path), "download_geojson", bbox=[13.2, 52.4, 13.5, 52.6], tag=tag)
