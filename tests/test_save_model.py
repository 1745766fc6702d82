"""Save as model: a tier-0 plan written as a .model3, run by qgis_process on OTHER inputs, gives by value what
GeoClerk gives on those inputs; plans with a GeoPandas-only step are refused with the step and the reason."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import geopandas as gpd
import pytest

SAMPLE = Path(__file__).resolve().parent.parent / "data" / "sample"
QGIS_PROCESS = shutil.which("qgis_process.bin") or shutil.which("qgis_process")  # Debian's wrapper adds a bad flag


@pytest.fixture(scope="module")
def both():
    """Both halves, the Processing tools bound (as `geoclerk run` has them)."""
    from geoclerk.function_lib import load_registry
    from geoclerk.geoclerk_plugin.processing_tools import bind
    from geoclerk.geoclerk_plugin.qgis_env import ensure_qgis

    status = ensure_qgis()
    if not status:
        pytest.skip(status.reason)
    registry = load_registry()
    bind(registry)
    return registry


def _context(out, *paths):
    from geoclerk.function_lib.context import RunContext

    ctx = RunContext(out)
    for path in paths:
        ctx.layers.add_path(path)
    return ctx


def _run(registry, steps, ctx):
    from geoclerk.function_lib.registry import run_tool

    for step in steps:
        result = run_tool(registry, step["tool"], step["params"], ctx)
    return result


@pytest.fixture(scope="module")
def other(tmp_path_factory):
    """Other inputs under the same names: the sample layers with features removed."""
    folder = tmp_path_factory.mktemp("other")
    keep = {"schools": lambda g: g.iloc[4:], "districts": lambda g: g.iloc[[0, 2, 3, 5, 7]],
            "houses": lambda g: g.iloc[::3]}  # fmt: skip
    for name, pick in keep.items():
        frame = gpd.read_file(SAMPLE / f"{name}.gpkg")
        pick(frame).to_file(folder / f"{name}.gpkg")
    return folder


def _qgis_process(model: Path, inputs: dict, output: str, target: Path) -> dict:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    args = [QGIS_PROCESS, "--json", "run", str(model)]
    args += [f"--{name}={path}" for name, path in inputs.items()] + [f"--{output}={target}"]
    done = subprocess.run(args, capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:] + done.stdout[-2000:]
    return json.loads(done.stdout[done.stdout.index("{") :])


def _same_by_value(ours: Path, theirs: Path, crs: str) -> gpd.GeoDataFrame:
    a, b = gpd.read_file(ours), gpd.read_file(theirs)
    assert len(a) == len(b) > 0
    assert a.crs == b.crs and a.crs.to_string() == crs
    columns = sorted(set(a.columns) - {"geometry", "fid"})
    assert columns == sorted(set(b.columns) - {"geometry", "fid"})
    key = [*columns, "_x", "_y"]
    for frame in (a, b):
        frame["_x"] = frame.geometry.centroid.x.round(3)
        frame["_y"] = frame.geometry.centroid.y.round(3)
    a, b = a.sort_values(key).reset_index(drop=True), b.sort_values(key).reset_index(drop=True)
    assert a[columns].astype(str).equals(b[columns].astype(str))
    assert (a.geometry.area - b.geometry.area).abs().max() < 1e-6 * max(1.0, a.geometry.area.max())
    assert (a["_x"] - b["_x"]).abs().max() < 1e-3 and (a["_y"] - b["_y"]).abs().max() < 1e-3
    return a


CASES = {
    "buffer": ("buffer schools by 300 m", [{"tool": "buffer", "params": {"layer": "schools", "distance": 300}}],
               ["schools"], "EPSG:32633"),
    "filter": ("select districts with population over 10000",
               [{"tool": "filter_by_expression", "params": {"layer": "districts",
                                                             "expression": '"population" > 10000'}}],
               ["districts"], "EPSG:32633"),
    "count": ("count houses per district",
              [{"tool": "count_points_in_polygons", "params": {"polygons": "districts", "points": "houses"}}],
              ["districts", "houses"], "EPSG:32633"),
    "reproject": ("reproject schools to EPSG:4326",
                  [{"tool": "reproject", "params": {"layer": "schools", "crs": "EPSG:4326"}}],
                  ["schools"], "EPSG:4326"),
    "buffer_then_count": ("buffer schools by 500 m and count the houses in each buffer",
                          [{"tool": "buffer", "params": {"layer": "schools", "distance": 500}},
                           {"tool": "count_points_in_polygons",
                            "params": {"polygons": "schools_buffer", "points": "houses"}}],
                          ["schools", "houses"], "EPSG:32633"),
    "grid": ("a 500 m grid over the districts", [{"tool": "qgis_create_grid",
                                                  "params": {"layer": "districts", "spacing": 500}}],
             ["districts"], "EPSG:32633"),
    "three_steps": ("count district centroids within 500 m of schools",
                    [{"tool": "buffer", "params": {"layer": "schools", "distance": 500}},
                     {"tool": "centroids", "params": {"layer": "districts"}},
                     {"tool": "count_points_in_polygons",
                      "params": {"polygons": "schools_buffer", "points": "districts_centroids"}}],
                    ["schools", "districts"], "EPSG:32633"),
}  # fmt: skip


@pytest.mark.skipif(QGIS_PROCESS is None, reason="qgis_process is not installed")
@pytest.mark.parametrize("case", list(CASES))
def test_saved_model_runs_on_other_inputs_like_geoclerk(both, other, tmp_path, case):
    from geoclerk.geoclerk_plugin.model_writer import save_model

    request, steps, layers, crs = CASES[case]
    ctx = _context(tmp_path / "run", *[SAMPLE / f"{n}.gpkg" for n in layers])
    _run(both, steps, ctx)
    saved = save_model(steps, ctx, both, request, tmp_path / "plan")
    assert saved.path.endswith("plan.model3") and Path(saved.path).exists()
    assert sorted(saved.inputs) == sorted(layers) and len(saved.outputs) == 1  # one input per layer, however used

    expected = _run(both, steps, _context(tmp_path / "again", *[other / f"{n}.gpkg" for n in layers]))
    target = tmp_path / "by_qgis_process.gpkg"
    ran = _qgis_process(
        Path(saved.path), {p: other / f"{n}.gpkg" for p, n in saved.inputs.items()}, saved.outputs[0], target
    )
    assert Path(ran["results"][saved.outputs[0]]).exists()
    result = _same_by_value(Path(expected.outputs[0].path), target, crs)
    if case == "count":  # 5 districts, a third of the houses: the counts are the other data's, not the sample's
        houses, districts = gpd.read_file(other / "houses.gpkg"), gpd.read_file(other / "districts.gpkg")
        inside = gpd.sjoin(houses, districts, predicate="intersects").groupby("district_id").size()
        assert dict(zip(result["district_id"], result["count"])) == {d: inside.get(d, 0) for d in result["district_id"]}
        assert result["count"].sum() == inside.sum() < len(gpd.read_file(SAMPLE / "houses.gpkg"))
    if case == "grid":  # the grid starts at the other districts' corner (x 500093.03), not the sample's (500000)
        left, sample_left = gpd.read_file(other / "districts.gpkg").total_bounds[0], 500000.0
        assert abs(result.total_bounds[0] - left) < 1e-6 and abs(left - sample_left) > 50
    if case == "buffer_then_count":
        assert len(result) == 8  # 12 schools less the 4 removed


def test_model_file_wires_steps_and_inputs(both, tmp_path):
    """The two-step model: one input per layer, the count reads the buffer child's output, named after the request."""
    from geoclerk.geoclerk_plugin.model_writer import save_model

    request, steps, layers, _ = CASES["buffer_then_count"]
    ctx = _context(tmp_path / "run", *[SAMPLE / f"{n}.gpkg" for n in layers])
    _run(both, steps, ctx)
    saved = save_model(steps, ctx, both, request, tmp_path / "two.model3")
    from qgis.core import QgsProcessingModelAlgorithm

    model = QgsProcessingModelAlgorithm()
    assert model.fromFile(saved.path)
    assert model.name() == request and model.shortDescription() == request
    assert sorted(p.name() for p in model.parameterDefinitions() if not p.isDestination()) == ["houses", "schools"]
    children = model.childAlgorithms()
    assert sorted(children) == ["step1_buffer", "step2_count_points_in_polygon"]
    count = children["step2_count_points_in_polygon"]
    polygons = count.parameterSources()["POLYGONS"][0]
    assert polygons.outputChildId() == "step1_buffer" and polygons.outputName() == "OUTPUT"
    assert count.parameterSources()["POINTS"][0].parameterName() == "houses"
    assert children["step1_buffer"].parameterSources()["DISTANCE"][0].staticValue() == 500
    assert ET.parse(saved.path).getroot() is not None


@pytest.mark.parametrize(
    "steps, words",
    [
        (
            [{"tool": "sort_by_field", "params": {"layer": "districts", "field": "population"}}],
            ["Step 1 (sort_by_field)", "GeoPandas only"],
        ),
        (
            [
                {"tool": "buffer", "params": {"layer": "schools", "distance": 300}},
                {"tool": "sort_by_field", "params": {"layer": "schools_buffer", "field": "fid"}},
            ],
            ["Step 2 (sort_by_field)", "GeoPandas only"],
        ),
        (
            [
                {
                    "tool": "filter_by_expression",
                    "params": {"layer": "districts", "expression": "landuse in ['residential', 'industrial']"},
                }
            ],
            ["Step 1 (filter_by_expression)"],
        ),
    ],
)
def test_plan_with_a_geopandas_only_step_is_refused(both, tmp_path, steps, words):
    from geoclerk.geoclerk_plugin.model_writer import ModelError, save_model

    ctx = _context(tmp_path / "run", SAMPLE / "districts.gpkg", SAMPLE / "schools.gpkg")
    target = tmp_path / "refused.model3"
    if steps[0]["tool"] == "buffer":
        _run(both, steps[:1], ctx)
    with pytest.raises(ModelError) as refused:
        save_model(steps, ctx, both, "a request", target)
    for word in words:
        assert word in refused.value.message
    assert not target.exists()  # never a partial model


def test_a_layer_in_degrees_is_refused_for_a_metric_step(both, tmp_path):
    from geoclerk.geoclerk_plugin.model_writer import ModelError, save_model

    ctx = _context(tmp_path / "run", SAMPLE / "world_cities.geojson")
    with pytest.raises(ModelError, match="measures in metres"):
        save_model(
            [{"tool": "buffer", "params": {"layer": "world_cities", "distance": 1000}}],
            ctx,
            both,
            "r",
            tmp_path / "m.model3",
        )


def test_cli_save_model(tmp_path, capsys):
    from geoclerk.cli.main import main

    target = tmp_path / "schools_buffer.model3"
    code = main(
        [
            "run",
            "buffer schools by 300 m",
            "-i",
            str(SAMPLE / "schools.gpkg"),
            "-o",
            str(tmp_path / "o"),
            "--offline",
            "--save-model",
            str(target),
            "--json",
        ]
    )
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and data["status"] == "ok"
    assert data["outputs"][-1] == {"path": str(target), "kind": "model"} and target.exists()
    assert (
        main(
            [
                "run",
                "buffer schools by 300 m",
                "-i",
                str(SAMPLE / "schools.gpkg"),
                "-o",
                str(tmp_path / "o"),
                "--offline",
                "--save-model",
                str(target),
                "--json",
            ]
        )
        == 2
    )  # never over an existing file
    capsys.readouterr()
    code = main(
        [
            "run",
            "sort districts by population",
            "-i",
            str(SAMPLE / "districts.gpkg"),
            "-o",
            str(tmp_path / "o2"),
            "--offline",
            "--save-model",
            str(tmp_path / "sorted.model3"),
            "--json",
        ]
    )
    data = json.loads(capsys.readouterr().out)
    assert code == 1 and data["status"] == "ok" and "Step 1 (sort_by_field)" in data["error"]
    assert all(o["kind"] != "model" for o in data["outputs"]) and not (tmp_path / "sorted.model3").exists()


def test_cli_save_model_without_pyqgis_says_so(tmp_path, capsys, monkeypatch):
    from geoclerk.cli.main import main
    from geoclerk.geoclerk_plugin import qgis_env

    monkeypatch.setattr(qgis_env, "ensure_qgis", lambda: qgis_env.QgisStatus(False, "No module named 'qgis'"))
    code = main(
        [
            "run",
            "buffer schools by 300 m",
            "-i",
            str(SAMPLE / "schools.gpkg"),
            "-o",
            str(tmp_path / "o"),
            "--offline",
            "--save-model",
            str(tmp_path / "m.model3"),
        ]
    )
    assert code == 2 and "--save-model needs PyQGIS" in capsys.readouterr().err
    assert not (tmp_path / "o").exists() or not any((tmp_path / "o").iterdir())  # refused before running


@pytest.mark.parametrize(
    "lang, words",
    [
        ("en", "Step 1 (sort_by_field) runs with GeoPandas only"),
        ("de", "Schritt 1 (sort_by_field) läuft nur mit GeoPandas"),
        ("zh_CN", "第 1 步（sort_by_field）只能用 GeoPandas 运行"),
    ],
)
def test_cli_refusal_is_said_in_the_users_language(tmp_path, capsys, lang, words):
    from geoclerk.cli.main import main

    code = main(
        [
            "run",
            "sort districts by population",
            "-i",
            str(SAMPLE / "districts.gpkg"),
            "-o",
            str(tmp_path / "o"),
            "--offline",
            "--save-model",
            str(tmp_path / "m.model3"),
            "--json",
            "--lang",
            lang,
        ]
    )
    data = json.loads(capsys.readouterr().out)
    assert code == 1 and words in data["error"]


def _wiring(path):
    """{child id: {QGIS parameter: model input name or 'child:output'}} of a saved model."""
    from qgis.core import QgsProcessingModelAlgorithm

    model = QgsProcessingModelAlgorithm()
    assert model.fromFile(path)
    wiring = {}
    for child_id, child in model.childAlgorithms().items():
        sources = {}
        for name, values in child.parameterSources().items():
            value = values[0]
            if value.parameterName():
                sources[name] = value.parameterName()
            elif value.outputChildId():
                sources[name] = f"{value.outputChildId()}:{value.outputName()}"
        wiring[child_id] = sources
    return wiring


BUFFERS = [{"tool": "buffer", "params": {"layer": "schools", "distance": 300}},
           {"tool": "buffer", "params": {"layer": "schools", "distance": 500}}]  # fmt: skip


def test_three_steps_each_input_wired_to_the_step_that_made_it(both, tmp_path):
    """A result read two steps later goes to the step that made it, not to the latest step."""
    from geoclerk.geoclerk_plugin.model_writer import save_model

    steps = [{"tool": "buffer", "params": {"layer": "schools", "distance": 500}},
             {"tool": "centroids", "params": {"layer": "districts"}},
             {"tool": "count_points_in_polygons", "params": {"polygons": "schools_buffer", "points": "districts_centroids"}}]  # fmt: skip  # noqa: E501
    ctx = _context(tmp_path / "run", SAMPLE / "schools.gpkg", SAMPLE / "districts.gpkg")
    _run(both, steps, ctx)
    assert [o.name for o in ctx.outputs][:2] == ["schools_buffer", "districts_centroids"]
    wiring = _wiring(save_model(steps, ctx, both, "r", tmp_path / "three.model3").path)
    count = wiring["step3_count_points_in_polygon"]
    assert count["POLYGONS"] == "step1_buffer:OUTPUT" and count["POINTS"] == "step2_centroids:OUTPUT"
    assert wiring["step1_buffer"]["INPUT"] == "schools" and wiring["step2_centroids"]["INPUT"] == "districts"


def test_a_result_two_steps_could_have_made_is_refused_unless_the_steps_say(both, tmp_path):
    from geoclerk.geoclerk_plugin.model_writer import ModelError, save_model

    steps = [*BUFFERS, {"tool": "count_points_in_polygons", "params": {"polygons": "schools_buffer_2",
                                                                       "points": "schools"}}]  # fmt: skip
    ctx = _context(tmp_path / "run", SAMPLE / "schools.gpkg")
    _run(both, steps, ctx)
    with pytest.raises(ModelError, match="which earlier step made it is not known"):
        save_model(steps, ctx, both, "r", tmp_path / "ambiguous.model3")
    assert not (tmp_path / "ambiguous.model3").exists()
    told = [{**steps[0], "outputs": [str(tmp_path / "run" / "schools_buffer.gpkg")]},
            {**steps[1], "outputs": ["schools_buffer_2"]}, {**steps[2], "outputs": []}]  # fmt: skip
    wiring = _wiring(save_model(told, ctx, both, "r", tmp_path / "told.model3").path)
    assert wiring["step3_count_points_in_polygon"]["POLYGONS"] == "step2_buffer:OUTPUT"


@pytest.mark.skipif(QGIS_PROCESS is None, reason="qgis_process is not installed")
@pytest.mark.parametrize(
    "request_text",
    [
        "buffer the schools by 500 m, then count the houses in them",
        "Puffere die Schulen um 500 m und zähle dann die Häuser darin",
        "将学校缓冲500米，然后统计其中的房屋数量",
    ],
)
def test_cli_chain_saved_and_run_on_other_inputs(other, tmp_path, capsys, request_text):
    """A two-step chain GeoClerk reads at tier 0, saved by the CLI and run by qgis_process on other layers, counts
    what `geoclerk run` counts on those layers."""
    from geoclerk.cli.main import main

    def run(folder, out, *extra):
        code = main(["run", request_text, "-i", str(folder / "schools.gpkg"), "-i", str(folder / "houses.gpkg"),
                     "-o", str(out), "--offline", "--json", *extra])  # fmt: skip
        data = json.loads(capsys.readouterr().out)
        assert code == 0 and data["status"] == "ok" and data["tier"] == 0, data
        return data

    saved = run(SAMPLE, tmp_path / "o", "--save-model", str(tmp_path / "chain.model3"))
    assert [s["tool"] for s in saved["steps"]] == ["buffer", "count_points_in_polygons"]
    assert saved["outputs"][-1] == {"path": str(tmp_path / "chain.model3"), "kind": "model"}
    from qgis.core import QgsProcessingModelAlgorithm

    model = QgsProcessingModelAlgorithm()
    assert model.fromFile(str(tmp_path / "chain.model3")) and model.name() == request_text
    output = [d.name() for d in model.destinationParameterDefinitions()]
    assert len(output) == 1
    target = tmp_path / "by_qgis_process.gpkg"
    _qgis_process(tmp_path / "chain.model3", {n: other / f"{n}.gpkg" for n in ("schools", "houses")}, output[0], target)
    expected = run(other, tmp_path / "again")
    result = _same_by_value(Path(expected["outputs"][-1]["path"]), target, "EPSG:32633")
    assert len(result) == 8 and result["count"].sum() > 0  # 8 schools of the other data, not the sample's 12
