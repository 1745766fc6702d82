"""input reading fixes from QA round 3: European CSVs and multi-layer files."""

from __future__ import annotations

import pytest
from geoclerk.errors import ValidationError
from geoclerk.function_lib.io import read_csv_table, read_vector, sniff_separator

EURO = (
    "name;stadt;umsatz;lat;lon\nA;Berlin;1200,5;52,52;13,40\nB;Berlin;800,0;52,51;13,41\n"
    "C;München;1.500,25;48,14;11,58\n"
)


def test_semicolon_decimal_comma_csv_reads_as_points_with_numbers(tmp_path):
    path = tmp_path / "filialen.csv"
    path.write_text(EURO, encoding="utf-8")
    gdf = read_vector(path)
    assert list(gdf.columns[:5]) == ["name", "stadt", "umsatz", "lat", "lon"]
    assert gdf["umsatz"].tolist() == [1200.5, 800.0, 1500.25]
    assert gdf.geometry.x.tolist() == [13.40, 13.41, 11.58]
    assert gdf.geometry.y.tolist() == [52.52, 52.51, 48.14]
    assert gdf.crs.to_epsg() == 4326
    assert gdf["stadt"].tolist() == ["Berlin", "Berlin", "München"]


def test_windows_1252_semicolon_csv(tmp_path):
    path = tmp_path / "ventes.csv"
    path.write_bytes("nom;ville;x;y\nA;Orléans;2,5;47,9\n".encode("cp1252"))
    gdf = read_vector(path)
    assert gdf["ville"].tolist() == ["Orléans"]
    assert (gdf.geometry.x[0], gdf.geometry.y[0]) == (2.5, 47.9)


def test_comma_csv_unchanged_and_quoted_commas_respected(tmp_path):
    path = tmp_path / "a.csv"
    path.write_text('id,name,lat,lon\n1,"Lisbon, PT",38.7,-9.1\n2,Porto,41.1,-8.6\n', encoding="utf-8")
    assert sniff_separator(path.read_text()) == ","
    gdf = read_vector(path)
    assert gdf["name"].tolist() == ["Lisbon, PT", "Porto"]
    assert gdf.geometry.x.tolist() == [-9.1, -8.6]


def test_text_codes_with_commas_are_not_made_numbers(tmp_path):
    path = tmp_path / "t.csv"
    path.write_text("code;label;x;y\n01,02;a;1;2\nB7;b;3;4\n", encoding="utf-8")
    df = read_csv_table(path)
    assert df["code"].tolist() == ["01,02", "B7"]


def test_no_geometry_message_lists_the_columns_and_never_denies_lat_lon(tmp_path):
    path = tmp_path / "plain.csv"
    path.write_text("name;value\na;1\n", encoding="utf-8")
    with pytest.raises(ValidationError) as err:
        read_vector(path)
    assert "name, value" in str(err.value)
    bad = tmp_path / "words.csv"
    bad.write_text("name,lat,lon\na,north,east\n", encoding="utf-8")
    with pytest.raises(ValidationError) as err:
        read_vector(bad)
    assert "lon/lat columns, but they hold no numbers" in str(err.value)


def _city(tmp_path):
    import geopandas as gpd
    from shapely.geometry import LineString, box

    path = tmp_path / "city.gpkg"
    crs = "EPSG:32633"
    parcels = gpd.GeoDataFrame({"pid": [1, 2, 3]}, geometry=[box(i * 100, 0, i * 100 + 50, 50) for i in range(3)],
                               crs=crs)
    roads = gpd.GeoDataFrame({"rname": ["A", "B"]}, geometry=[LineString([(0, 100), (300, 100)]),
                                                              LineString([(0, 200), (300, 200)])], crs=crs)
    parcels.to_file(path, layer="parcels", driver="GPKG")
    roads.to_file(path, layer="roads", driver="GPKG")
    gpd.GeoDataFrame({"x": []}, geometry=[], crs=crs).to_file(path, layer="empty", driver="GPKG")
    return path


def test_each_layer_of_a_geopackage_is_its_own_input(tmp_path):
    from geoclerk.function_lib.context import RunContext

    ctx = RunContext(tmp_path / "out")
    first = ctx.layers.add_path(_city(tmp_path))
    assert first.name == "parcels"
    assert ctx.layers.names() == ["parcels", "roads"]  # the empty layer is no input
    roads = ctx.gdf("roads")
    assert roads["rname"].tolist() == ["A", "B"] and set(roads.geom_type) == {"LineString"}
    assert ctx.gdf("parcels")["pid"].tolist() == [1, 2, 3]
    assert ctx.peek("roads").count == 2
    assert ctx.layers.find("city").name == "parcels"  # the file stem still finds a layer of it


def test_single_layer_file_keeps_its_stem(tmp_path):
    import geopandas as gpd
    from geoclerk.function_lib.context import LayerStore
    from shapely.geometry import Point

    path = tmp_path / "wells.gpkg"
    gpd.GeoDataFrame({"a": [1]}, geometry=[Point(0, 0)], crs="EPSG:4326").to_file(path, layer="layer_x")
    store = LayerStore()
    entry = store.add_path(path)
    assert (entry.name, entry.layer, store.names()) == ("wells", None, ["wells"])


def test_buffer_the_roads_of_a_multi_layer_geopackage(tmp_path):
    """Request in, file out: 'buffer the roads by 10 m' buffers the roads layer, not the first layer."""
    import geopandas as gpd
    from geoclerk.agent.pipeline import AgentConfig, run_request

    report = run_request("buffer the roads by 10 m", [str(_city(tmp_path))], tmp_path / "out",
                         AgentConfig(offline=True))
    assert report.status == "ok", report.to_json()
    out = gpd.read_file(report.outputs[0]["path"] if isinstance(report.outputs[0], dict) else report.outputs[0].path)
    assert sorted(out["rname"]) == ["A", "B"]
    assert out.area.sum() == pytest.approx(2 * (300 * 20 + 3.14159 * 100), rel=0.01)


def test_a_layer_of_a_multi_layer_file_is_described_with_its_layer_name(tmp_path):
    """The code worker's prompt says which layer of city.gpkg holds the roads, and the file is copied once."""
    from geoclerk.agent.pipeline import build_context
    from geoclerk.agent.tiers import input_paths

    ctx, infos = build_context([str(_city(tmp_path))], tmp_path / "out", None)
    roads = next(i for i in infos if i.name == "roads")
    assert "file city.gpkg, layer 'roads'" in roads.prompt_text()
    assert input_paths(ctx, infos) == [str(tmp_path / "city.gpkg")]


def test_a_folder_input_stands_for_the_gis_files_in_it(tmp_path):
    """--input FOLDER: each GIS file directly inside is an input (other files ignored); an empty folder is refused."""
    import geopandas as gpd
    from geoclerk.agent.pipeline import AgentConfig, run_request
    from geoclerk.errors import ValidationError
    from geoclerk.function_lib.context import LayerStore
    from shapely.geometry import box

    folder = tmp_path / "data"
    folder.mkdir()
    crs = "EPSG:32633"
    gpd.GeoDataFrame({"name": ["a", "b"]}, geometry=[box(0, 0, 100, 100), box(500, 0, 600, 100)], crs=crs).to_file(
        folder / "lakes.shp")
    gpd.GeoDataFrame({"id": [1]}, geometry=[box(0, 0, 1, 1)], crs=crs).to_file(folder / "zones.gpkg")
    (folder / "notes.txt").write_text("not GIS")
    store = LayerStore()
    store.add_path(folder)
    assert store.names() == ["lakes", "zones"]
    report = run_request("buffer the lakes by 10 m", [str(folder)], tmp_path / "out", AgentConfig(offline=True))
    assert report.status == "ok", report.to_json()
    out = gpd.read_file(report.outputs[0]["path"])
    assert sorted(out["name"]) == ["a", "b"]
    assert out.area.sum() == pytest.approx(2 * (100 * 100 + 4 * 100 * 10 + 3.14159 * 100), rel=0.01)
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(ValidationError, match="holds no GIS files"):
        LayerStore().add_path(empty)
