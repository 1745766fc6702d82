"""bad --out-dir values are one-line usage errors; an unexpected failure still answers in JSON."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GEOCLERK = str(ROOT / ".venv" / "bin" / "geoclerk")


@pytest.mark.parametrize("where", ["file", "under_file"])
def test_out_dir_that_is_a_file_is_a_usage_error(tmp_path, where):
    existing = tmp_path / "data.md5"
    existing.write_text("x")
    out = existing if where == "file" else existing / "sub"
    proc = subprocess.run([GEOCLERK, "run", "buffer lakes by 1 km", "--out-dir", str(out), "--offline", "--json"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2, proc.stderr
    assert proc.stdout == "" and "Traceback" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"geoclerk: --out-dir {out} ")
    assert ("existing file" if where == "file" else "cannot be created") in lines[0]
    assert existing.read_text() == "x"


def test_unexpected_failure_answers_in_json(monkeypatch, capsys):
    from geoclerk.cli import main as cli_main

    def boom(args):
        raise RuntimeError("kaput")

    monkeypatch.delenv("GEOCLERK_DEBUG", raising=False)
    monkeypatch.setattr(cli_main, "cmd_tools", boom)
    assert cli_main.main(["tools", "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["status"] == "error" and "RuntimeError: kaput" in data["error"]


def test_route_sees_each_layer_of_a_geopackage_as_run_does(tmp_path):
    import geopandas as gpd
    from shapely.geometry import LineString, box

    path = tmp_path / "city.gpkg"
    gpd.GeoDataFrame({"pid": [1, 2]}, geometry=[box(0, 0, 5, 5), box(10, 0, 15, 5)], crs="EPSG:32633").to_file(
        path, layer="parcels")
    gpd.GeoDataFrame({"rname": ["A"]}, geometry=[LineString([(0, 10), (30, 10)])], crs="EPSG:32633").to_file(
        path, layer="roads")
    proc = subprocess.run([GEOCLERK, "route", "buffer the roads by 10 m", "--input", str(path), "--json"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    plan = json.loads(proc.stdout)["plan"]
    assert plan["tool"] == "buffer" and plan["params"] == {"layer": "roads", "distance": 10}


def test_without_offline_or_model_the_message_does_not_say_offline(tmp_path):
    proc = subprocess.run([GEOCLERK, "run", "hello, what can you do?", "--out-dir", str(tmp_path / "o"), "--json"],
                          capture_output=True, text=True, timeout=120)
    data = json.loads(proc.stdout)
    assert data["status"] == "needs_llm"
    assert "(offline)" not in data["error"] and data["error"].endswith("Pass --base-url and --model to use a model.")
