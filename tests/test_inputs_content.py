"""Inputs read by content (issue 14): geometry columns, coordinate names in en/de/zh, GeoParquet with nested
columns, FlatGeobuf, capped descriptions, large files, encodings and URL inputs."""

from __future__ import annotations

import geopandas as gpd
import pytest
import shapely
from geoclerk.agent.pipeline import AgentConfig, build_context, run_request
from geoclerk.function_lib.describe import describe_path
from geoclerk.function_lib.io import read_vector, write_vector
from geoclerk.function_lib.tables import flatten_nested, read_input
from shapely.geometry import Point, box


@pytest.mark.parametrize(
    "column, values",
    [
        ("wkt_geom", ["Point (13.4051 52.52)", "Point (11.5761 48.1374)"]),  # as QGIS writes it
        ("geometry_wkt", ["POINT(13.4051 52.52)", "POINT(11.5761 48.1374)"]),
        (
            "shape",
            [shapely.to_wkb(Point(13.4051, 52.52), hex=True), shapely.to_wkb(Point(11.5761, 48.1374), hex=True)],
        ),  # WKB hex  # fmt: skip
        (
            "geo",
            [
                '{"type": "Point", "coordinates": [13.4051, 52.52]}',
                '{"type": "Point", "coordinates": [11.5761, 48.1374]}',
            ],
        ),  # fmt: skip
    ],
)
def test_a_geometry_column_is_found_by_its_values(tmp_path, column, values):
    path = tmp_path / "cities.csv"
    rows = [f'{i},"{v.replace(chr(34), chr(34) * 2)}"' for i, v in enumerate(values)]
    path.write_text("\n".join([f"id,{column}", *rows]) + "\n", encoding="utf-8")
    gdf = read_vector(path)
    assert column not in gdf.columns and gdf["id"].tolist() == [0, 1]
    assert gdf.geometry.x.round(4).tolist() == [13.4051, 11.5761]
    assert gdf.geometry.y.round(4).tolist() == [52.52, 48.1374]
    assert gdf.crs.to_epsg() == 4326  # degrees without doubt
    assert "geometry read from the" in gdf.attrs["crs_note"]


@pytest.mark.parametrize(
    "x, y",
    [("lon", "lat"), ("Longitude", "Latitude"), ("lng", "lat"), ("POINT_X", "POINT_Y"), ("经度", "纬度"),
     ("geo_laenge", "geo_breite"), ("X坐标", "Y坐标")],
)  # fmt: skip
def test_coordinate_pairs_by_name_in_three_languages(tmp_path, x, y):
    path = tmp_path / "stops.csv"
    path.write_text(f"name,{x},{y}\na,13.4051,52.52\nb,11.5761,48.1374\n", encoding="utf-8")
    gdf = read_vector(path)
    assert gdf.geometry.x.tolist() == [13.4051, 11.5761] and gdf.crs.to_epsg() == 4326


def test_projected_coordinates_get_no_crs_but_a_question(tmp_path):
    path = tmp_path / "messpunkte.csv"
    path.write_text("nr;Rechtswert;Hochwert\n1;389000,5;5819000\n2;390000;5820000,25\n", encoding="utf-8")
    gdf = read_vector(path)
    assert gdf.crs is None and gdf.geometry.x.tolist() == [389000.5, 390000.0]
    assert "assign one with reproject" in gdf.attrs["crs_note"]
    whole = tmp_path / "grid.csv"
    whole.write_text("x,y\n1,2\n3,4\n", encoding="utf-8")  # small whole numbers: a local grid, not degrees
    assert read_vector(whole).crs is None


OD_TABLES = {
    "trips.csv": "trip,from_x,from_y,to_x,to_y\n1,13.40,52.52,11.58,48.14\n2,8.68,50.11,13.40,52.52\n",
    "fahrten.csv": "fahrt;start_lon;start_lat;ziel_lon;ziel_lat\n1;13,40;52,52;11,58;48,14\n2;8,68;50,11;13,40;52,52\n",
    "行程.csv": "编号,起点经度,起点纬度,终点经度,终点纬度\n1,13.40,52.52,11.58,48.14\n2,8.68,50.11,13.40,52.52\n",
}
OD_REQUESTS = [
    ("trips.csv", "draw the trips as lines"),
    ("trips.csv", "origin-destination lines from trips"),
    ("fahrten.csv", "Linien aus den Start- und Zielkoordinaten von fahrten"),
    ("fahrten.csv", "erzeuge Linien in fahrten von start_lon/start_lat nach ziel_lon/ziel_lat"),
    ("行程.csv", "根据行程的起终点坐标连线"),
    ("行程.csv", "用行程的起点经度、起点纬度到终点经度、终点纬度生成线"),
]


def test_an_origin_destination_table_stays_a_table_and_says_how_to_make_lines(tmp_path):
    path = tmp_path / "trips.csv"
    path.write_text(OD_TABLES["trips.csv"], encoding="utf-8")
    assert type(read_input(path)).__name__ == "DataFrame"  # two locations per row: no point is guessed
    ctx, infos = build_context([str(path)], tmp_path / "out")
    assert "coordinate pairs from_x/from_y, to_x/to_y" in infos[0].prompt_text()


@pytest.mark.parametrize("name, request_text", OD_REQUESTS)
def test_origin_destination_lines_on_request_at_tier0(tmp_path, name, request_text):
    path = tmp_path / name
    path.write_text(OD_TABLES[name], encoding="utf-8")
    report = run_request(request_text, [str(path)], tmp_path / "out", AgentConfig(offline=True))
    assert report.status == "ok" and report.tier == 0, report.to_json()
    lines = gpd.read_file(report.outputs[0]["path"])
    assert [list(g.coords) for g in lines.geometry] == [
        [(13.40, 52.52), (11.58, 48.14)], [(8.68, 50.11), (13.40, 52.52)]
    ]  # fmt: skip
    assert lines.crs.to_epsg() == 4326


def _overture(tmp_path):
    gdf = gpd.GeoDataFrame(
        {
            "id": ["a", "b"],
            "names": [{"primary": "Rathaus", "common": None}, {"primary": "Bahnhof", "common": None}],
            "categories": [{"main": "government", "alternate": ["office"]}, {"main": "transit", "alternate": []}],
            "sources": [[{"dataset": "osm"}], [{"dataset": "meta"}, {"dataset": "osm"}]],
        },
        geometry=[Point(13.40, 52.52), Point(13.37, 52.52)],
        crs="EPSG:4326",
    )
    path = tmp_path / "places.parquet"
    gdf.to_parquet(path)
    return path


def test_geoparquet_with_nested_columns_is_described_and_used(tmp_path):
    path = _overture(tmp_path)
    original = path.read_bytes()
    info = describe_path(path)
    fields = {f.name: f for f in info.fields}
    assert fields["names"].type == "json" and fields["names"].samples[0] == '{"primary":"Rathaus","common":null}'
    assert fields["sources"].samples[1] == '[{"dataset":"meta"},{"dataset":"osm"}]'
    report = run_request("buffer the places by 100 m", [str(path)], tmp_path / "out", AgentConfig(offline=True))
    assert report.status == "ok", report.to_json()
    out = gpd.read_file(report.outputs[0]["path"])
    assert out["names"].tolist()[0] == '{"primary":"Rathaus","common":null}' and len(out) == 2
    assert path.read_bytes() == original
    flat = flatten_nested(gpd.read_parquet(path))
    assert flat["names.primary"].tolist() == ["Rathaus", "Bahnhof"]
    assert flat["categories.alternate"].tolist() == ['["office"]', "[]"]
    assert flat.crs.to_epsg() == 4326 and "names" not in flat.columns


def test_geoparquet_and_flatgeobuf_round_trip(tmp_path):
    gdf = gpd.GeoDataFrame({"n": [1, 2]}, geometry=[box(0, 0, 1, 1), box(1, 1, 3, 3)], crs="EPSG:32633")
    for suffix in (".parquet", ".fgb"):
        path = write_vector(gdf, tmp_path / f"zones{suffix}")
        back = read_vector(path).sort_values("n")  # FlatGeobuf's spatial index may reorder features
        assert back["n"].tolist() == [1, 2] and back.area.tolist() == [1.0, 4.0] and back.crs.to_epsg() == 32633


def test_a_300_field_layer_is_described_within_its_cap(tmp_path):
    from geoclerk.model_text.tokens import count_text

    columns = {f"attribute_number_{i:03d}": [i * 1.5, i * 2.5] for i in range(300)}
    gdf = gpd.GeoDataFrame(columns, geometry=[Point(0, 0), Point(1, 1)], crs="EPSG:32633")
    path = tmp_path / "wide.gpkg"
    gdf.to_file(path)
    text = describe_path(path).prompt_text()
    assert count_text(text) <= 1500, count_text(text)
    assert "attribute_number_001 (real): 1.5, 2.5" in text
    assert "not shown" in text  # says what was left out
    shown = [line for line in text.splitlines() if line.startswith("    attribute_number_")]
    assert 30 <= len(shown) < 300


def test_a_large_file_is_described_from_its_driver(tmp_path, monkeypatch):
    """Above the size limit the description comes from the header and the first rows (the 2-million-row timing
    is `make bench-inputs`)."""
    from geoclerk.function_lib import large

    gdf = gpd.GeoDataFrame({"v": range(5000)}, geometry=[Point(i, i) for i in range(5000)], crs="EPSG:32633")
    path = tmp_path / "many.gpkg"
    gdf.to_file(path)
    monkeypatch.setattr(large, "LARGE_FILE_BYTES", 1000)
    read_rows = []
    import pyogrio

    def spy(*args, **kwargs):
        read_rows.append(kwargs.get("max_features"))
        return real_read(*args, **kwargs)

    real_read = pyogrio.read_dataframe
    monkeypatch.setattr(pyogrio, "read_dataframe", spy)
    info = describe_path(path)
    assert info.feature_count == 5000 and info.geometry_type == "Point" and info.crs == "EPSG:32633"
    assert read_rows == [large.SAMPLE_ROWS]
    assert info.bounds == [0.0, 0.0, 4999.0, 4999.0]
    assert "large file: described from its first 200 rows" in info.prompt_text()


def test_encodings_cpg_cp1252_bom_and_field_names(tmp_path):
    gdf = gpd.GeoDataFrame({"straße": ["Hauptstraße", "Weg"]}, geometry=[Point(0, 0), Point(1, 1)], crs="EPSG:32633")
    gdf.to_file(tmp_path / "strassen.shp", encoding="cp1252")
    assert read_vector(tmp_path / "strassen.shp")["straße"].tolist() == ["Hauptstraße", "Weg"]
    (tmp_path / "strassen.cpg").unlink(missing_ok=True)  # no .cpg: the DBF's code page byte or cp1252
    assert read_vector(tmp_path / "strassen.shp")["straße"].tolist() == ["Hauptstraße", "Weg"]
    bom = tmp_path / "站点.csv"
    bom.write_bytes("\ufeff名称,经度,纬度\n车站,116.397,39.909\n".encode())
    gdf = read_vector(bom)
    assert list(gdf.columns[:3]) == ["名称", "经度", "纬度"] and gdf["名称"].tolist() == ["车站"]
    assert gdf.crs.to_epsg() == 4326


def _static_server(folder):
    """A plain http server on 127.0.0.1 in its own process (GDAL holds the GIL while it reads); (process, port)."""
    import re
    import subprocess
    import sys

    server = subprocess.Popen([sys.executable, "-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory",
                               str(folder)], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)  # fmt: skip
    port = int(re.search(r"port (\d+)", server.stdout.readline()).group(1))
    return server, port


def test_a_url_input_is_read_through_gdal(tmp_path):
    folder = tmp_path / "site"
    folder.mkdir()
    gpd.GeoDataFrame({"name": ["a", "b"]}, geometry=[Point(0, 0), Point(100, 0)], crs="EPSG:32633").to_file(
        folder / "wells.geojson", driver="GeoJSON"
    )
    server, port = _static_server(folder)
    try:
        url = f"http://127.0.0.1:{port}/wells.geojson"
        report = run_request("buffer the wells by 10 m", [url], tmp_path / "out", AgentConfig(offline=True))
        missing = f"http://127.0.0.1:{port}/nothing.geojson"
        broken = run_request("buffer nothing by 10 m", [missing], tmp_path / "out2", AgentConfig(offline=True))
    finally:
        server.terminate()
        server.wait(timeout=10)
    assert report.status == "ok", report.to_json()
    out = gpd.read_file(report.outputs[0]["path"])
    assert sorted(out["name"]) == ["a", "b"] and out.area.sum() == pytest.approx(2 * 314.0, rel=0.01)
    assert broken.status == "error" and f"Could not read '{missing}'" in broken.error
    assert "download the file" in broken.error


def test_an_ogc_api_features_collection_is_read_through_gdal(tmp_path):
    import subprocess
    import sys
    from pathlib import Path

    features = tmp_path / "wells.geojson"
    gpd.GeoDataFrame(
        {"name": ["a", "b"]}, geometry=[Point(13.40, 52.52), Point(13.41, 52.52)], crs="EPSG:4326"
    ).to_file(features, driver="GeoJSON")
    script = Path(__file__).with_name("ogc_api_server.py")
    server = subprocess.Popen([sys.executable, str(script), str(features)], stdout=subprocess.PIPE, text=True)
    try:
        port = int(server.stdout.readline())
        url = f"http://127.0.0.1:{port}/collections/wells"
        report = run_request("buffer the wells by 10 m", [url], tmp_path / "out", AgentConfig(offline=True))
        items = read_input(url + "/items")
    finally:
        server.terminate()
        server.wait(timeout=10)
    assert report.status == "ok", report.to_json()
    out = gpd.read_file(report.outputs[0]["path"])
    assert sorted(out["name"]) == ["a", "b"] and out.crs.to_epsg() == 4326
    assert out.to_crs(out.estimate_utm_crs()).area.sum() == pytest.approx(2 * 314.0, rel=0.01)
    assert sorted(items["name"]) == ["a", "b"]


@pytest.mark.parametrize(
    "request_text",
    ["flatten the nested fields of places", "verschachtelte Felder von places auflösen", "展开places的嵌套字段"],
)
def test_nested_fields_are_flattened_on_request_at_tier0(tmp_path, request_text):
    path = _overture(tmp_path)
    report = run_request(request_text, [str(path)], tmp_path / "out", AgentConfig(offline=True))
    assert report.status == "ok" and report.tier == 0, report.to_json()
    out = gpd.read_file(report.outputs[0]["path"])
    assert out["names.primary"].tolist() == ["Rathaus", "Bahnhof"]
    assert out["categories.main"].tolist() == ["government", "transit"]
    assert out["sources"].tolist()[1] == '[{"dataset":"meta"},{"dataset":"osm"}]'  # a list stays JSON text
    assert "sources (lists) written as JSON text" in report.answer


def test_flattening_a_layer_without_nested_fields_says_so(tmp_path):
    from geoclerk.errors import ValidationError
    from geoclerk.function_lib import load_registry
    from geoclerk.function_lib.context import RunContext
    from geoclerk.function_lib.registry import run_tool

    path = tmp_path / "plain.gpkg"
    gpd.GeoDataFrame({"a": [1]}, geometry=[Point(0, 0)], crs="EPSG:32633").to_file(path)
    ctx = RunContext(tmp_path / "out")
    ctx.layers.add_path(path)
    with pytest.raises(ValidationError, match="'plain' has no nested fields"):
        run_tool(load_registry(), "flatten_fields", {"layer": "plain"}, ctx)


def test_a_large_csv_or_geojson_is_described_from_its_first_rows(tmp_path, monkeypatch):
    from geoclerk.function_lib import large

    monkeypatch.setattr(large, "LARGE_FILE_BYTES", 1000)
    csv = tmp_path / "messungen.csv"
    csv.write_text("id;wert;lon;lat\n" + "".join(f"{i};{i},5;13,{i % 9}1;52,5\n" for i in range(5000)) + "\n\n")
    info = describe_path(csv)
    assert (info.kind, info.geometry_type, info.feature_count, info.crs) == ("vector", "Point", 5000, "EPSG:4326")
    assert info.fields[1].samples == [0.5, 1.5, 2.5]  # decimal commas read as in the whole file
    assert "large file: described from its first 200 rows" in info.prompt_text()
    assert len(read_vector(csv)) == 5000  # the count agrees with a full read
    quoted = tmp_path / "notes.csv"
    quoted.write_text("id,text\n" + "".join(f'{i},"line one\nline two"\n' for i in range(300)))
    assert describe_path(quoted).feature_count == 300  # quoted line breaks: counted by a full read
    geojson = tmp_path / "punkte.geojson"
    gpd.GeoDataFrame({"v": range(3000)}, geometry=[Point(i, 0) for i in range(3000)], crs="EPSG:4326").to_file(
        geojson, driver="GeoJSON"
    )
    info = describe_path(geojson)
    assert (info.feature_count, info.geometry_type) == (3000, "Point") and "large file" in info.prompt_text()


def test_generated_code_gets_a_local_copy_of_a_url_input(tmp_path):
    """The sandbox has no network: a URL input is copied to a file named as the prompt says."""
    from geoclerk.tests.agent_toolkit import TinyRouter, config_for, tiny_registry
    from geoclerk.tests.scripted_server import ScriptedServer

    folder = tmp_path / "site"
    folder.mkdir()
    gpd.GeoDataFrame({"name": ["a", "b"]}, geometry=[Point(0, 0), Point(100, 0)], crs="EPSG:32633").to_file(
        folder / "wells.geojson", driver="GeoJSON"
    )
    code = "import geopandas as gpd\nw = gpd.read_file('wells.gpkg')\nprint(f'{len(w)} wells, {w.crs.to_epsg()}')"
    web, port = _static_server(folder)
    model = ScriptedServer().start()
    try:
        model.add({"content": f"```python\n{code}\n```"})
        url = f"http://127.0.0.1:{port}/wells.geojson"
        report = run_request(
            "describe the wells", [url], tmp_path / "out", config_for(model), registry=tiny_registry(),
            router=TinyRouter(route="codegen", confidence=0.9),
        )  # fmt: skip
        prompt = " ".join(str(m.get("content")) for m in model.requests[0]["messages"])
    finally:
        model.stop()
        web.terminate()
        web.wait(timeout=10)
    assert report.status == "ok" and report.tier == 2, report.to_json()
    assert report.answer.startswith("2 wells, 32633")
    assert f"from {url} (file wells.gpkg for code)" in prompt


def test_the_command_line_takes_a_url_input_and_a_table(tmp_path, capsys):
    import json

    from geoclerk.cli.main import main

    folder = tmp_path / "site"
    folder.mkdir()
    gpd.GeoDataFrame({"ward_id": [1, 2]}, geometry=[box(0, 0, 10, 10), box(10, 0, 20, 10)], crs="EPSG:32633").to_file(
        folder / "wards.geojson", driver="GeoJSON"
    )
    table = tmp_path / "budget.csv"
    table.write_text("ward_id,budget\n1,5\n3,7\n", encoding="utf-8")
    web, port = _static_server(folder)
    try:
        url = f"http://127.0.0.1:{port}/wards.geojson"
        code = main(["run", "join budget to wards by ward_id", "--input", url, "--input", str(table), "--out-dir",
                     str(tmp_path / "out"), "--offline", "--json"])  # fmt: skip
    finally:
        web.terminate()
        web.wait(timeout=10)
    result = json.loads(capsys.readouterr().out)
    assert code == 0 and result["status"] == "ok", result
    out = gpd.read_file(result["outputs"][0]["path"]).sort_values("ward_id")
    assert out["budget"].tolist()[0] == 5 and out["budget"].isna().tolist() == [False, True]


def test_a_large_geoparquet_is_described_from_its_first_row_group(tmp_path, monkeypatch):
    from geoclerk.function_lib import large

    path = _overture(tmp_path)
    monkeypatch.setattr(large, "LARGE_FILE_BYTES", 100)
    info = describe_path(path)
    assert (info.feature_count, info.geometry_type, info.crs) == (2, "Point", "EPSG:4326")
    assert {f.name: f.type for f in info.fields}["names"] == "json"
    assert "large file: described from its first 2 rows" in info.prompt_text()
