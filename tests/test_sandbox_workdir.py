"""`geoclerk exec` never lets code touch the user's files: the work dir must be apart from the inputs and fresh."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from geoclerk.codegen.api import exec_script, preload_for
from geoclerk.codegen.workdir import MARKER, check_apart, copy_inputs
from geoclerk.errors import SandboxError

OVERWRITE = "open('hospitals.geojson', 'w').write('{}')\nprint('overwrote')\n"
HOSPITALS = json.dumps({"type": "FeatureCollection", "features": [
    {"type": "Feature", "properties": {"name": f"H{i}"}, "geometry": {"type": "Point", "coordinates": [i, i]}}
    for i in range(3)]})  # fmt: skip


def _md5(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.md5(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}  # fmt: skip


@pytest.fixture
def user_data(tmp_path) -> Path:
    """The user's project folder: a GeoJSON input and a shapefile-like set with sidecars."""
    data = tmp_path / "project" / "data"
    data.mkdir(parents=True)
    (data / "hospitals.geojson").write_text(HOSPITALS)
    (data / "notes.txt").write_text("the user's own notes")
    return data


def _script(tmp_path, body=OVERWRITE) -> Path:
    script = tmp_path / "job.py"
    script.write_text(body)
    return script


# (case id, work dir relative to the data folder, inputs relative to it, expected words in the error)
REFUSED = [
    ("work_dir_is_input_folder", ".", ["hospitals.geojson"], "holds the input"),
    ("work_dir_is_grandparent", "../..", ["hospitals.geojson"], "holds the input"),
    ("work_dir_is_parent_of_folder_input", "..", ["."], "holds the input"),
    ("work_dir_inside_folder_input", "sub/work", ["."], "inside the input folder"),
    ("work_dir_is_folder_input", ".", ["."], "holds the input"),
    ("non_empty_user_folder", ".", [], "already holds files"),
]


@pytest.mark.parametrize(("name", "work", "inputs", "expected"), REFUSED, ids=[r[0] for r in REFUSED])
def test_exec_refuses_a_work_dir_mixed_with_user_files(tmp_path, user_data, name, work, inputs, expected):
    before = _md5(tmp_path / "project")
    work_dir = (user_data / work).resolve()
    report = exec_script(_script(tmp_path), work_dir, inputs=[user_data / i for i in inputs], timeout=30)
    assert not report["ok"] and expected in report["error"], report
    assert "use an empty folder" in report["error"]
    assert report["stdout"] == "" and report["outputs"] == []
    assert _md5(tmp_path / "project") == before, "a user file changed"
    assert not (work_dir / MARKER).exists()


def test_input_reached_through_a_link_in_the_work_dir_is_refused(tmp_path, user_data):
    work = tmp_path / "work"
    work.mkdir()
    (work / MARKER).write_text(json.dumps({"copies": []}))
    (work / "link.geojson").symlink_to(user_data / "hospitals.geojson")
    before = _md5(user_data)
    report = exec_script(_script(tmp_path), work, inputs=[work / "link.geojson"], timeout=30)
    assert not report["ok"] and "holds the input" in report["error"]
    assert _md5(user_data) == before


def test_check_apart_accepts_a_separate_folder_and_copy_inputs_refuses_an_overlap(tmp_path, user_data):
    check_apart([user_data / "hospitals.geojson"], tmp_path / "elsewhere")
    with pytest.raises(SandboxError, match="holds the input"):
        copy_inputs([user_data / "hospitals.geojson"], user_data)
    with pytest.raises(SandboxError, match="holds the input"):
        copy_inputs([user_data / "hospitals.geojson"], user_data.parent)


def test_exec_in_a_fresh_folder_changes_only_the_copy(tmp_path, user_data):
    before = _md5(user_data)
    work = tmp_path / "run"
    report = exec_script(_script(tmp_path), work, inputs=[user_data / "hospitals.geojson"], timeout=60)
    assert report["ok"] and report["stdout"] == "overwrote\n", report
    assert (work / "hospitals.geojson").read_text() == "{}"
    assert _md5(user_data) == before
    assert json.loads((work / MARKER).read_text()) == {"copies": ["hospitals.geojson"]}


def test_an_earlier_exec_folder_is_reused_with_fresh_copies(tmp_path, user_data):
    body = "text = open('hospitals.geojson').read()\nopen('hospitals.geojson', 'a').write('X')\nprint(len(text))\n"
    script, work = _script(tmp_path, body), tmp_path / "run"
    first = exec_script(script, work, inputs=[user_data / "hospitals.geojson"], timeout=60)
    second = exec_script(script, work, inputs=[user_data / "hospitals.geojson"], timeout=60)
    assert first["ok"] and second["ok"], (first, second)
    assert first["stdout"] == second["stdout"] == f"{len(HOSPITALS)}\n"  # the second run saw a fresh copy
    assert sorted(p.name for p in work.iterdir()) == [MARKER, "hospitals.geojson"]
    assert (user_data / "hospitals.geojson").read_text() == HOSPITALS


def test_an_earlier_exec_folder_keeps_its_other_files(tmp_path, user_data):
    work = tmp_path / "run"
    assert exec_script(_script(tmp_path, "open('result.csv', 'w').write('a\\n1\\n')"), work, timeout=60)["ok"]
    report = exec_script(_script(tmp_path, "print(open('result.csv').read().split())"), work, timeout=60)
    assert report["ok"] and report["stdout"] == "['a', '1']\n", report


def test_exec_preloads_sklearn_only_when_the_script_imports_it():
    assert "sklearn" not in preload_for("import geopandas as gpd\nprint(1)")
    assert "geopandas" in preload_for("import geopandas as gpd\nprint(1)")
    assert "sklearn" in preload_for("from sklearn.cluster import KMeans")
    assert "sklearn" in preload_for("import sklearn.cluster as c")
    assert "sklearn" in preload_for("def broken(:")  # unparsable: the full preload, the static check reports it
