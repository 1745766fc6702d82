"""Static Processing specs: complete, consistent with the catalogue and the GeoPandas half, and not drifted."""

from __future__ import annotations

import importlib.util
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from geoclerk.function_lib.processing_specs import DATA, PROCESSING_BINDINGS, PROCESSING_SPECS
from geoclerk.function_lib.spec import schema_from_yaml

ROOT = Path(__file__).resolve().parent.parent


def catalog_names() -> list[str]:
    text = (ROOT / "function_lib" / "CATALOG.md").read_text()
    half2 = text.split("## Half 2", 1)[1].split("Conventions:", 1)[0]
    return re.findall(r"qgis_\w+", half2)


def test_specs_load_without_qgis():
    code = (
        "import sys; sys.modules['qgis'] = None; "
        "from geoclerk.function_lib.processing_specs import PROCESSING_SPECS; print(len(PROCESSING_SPECS))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert int(done.stdout) == len(PROCESSING_SPECS)


def test_ensure_qgis_says_why_when_pyqgis_is_missing():
    code = (
        "import sys; sys.modules['qgis'] = None; sys.modules['qgis.core'] = None; "
        "from geoclerk.geoclerk_plugin.qgis_env import ensure_qgis; s = ensure_qgis(); "
        "print(bool(s), s.reason)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.startswith("False PyQGIS is not importable")


def test_every_catalogued_tool_has_a_spec_and_binding():
    names = [s.name for s in PROCESSING_SPECS]
    assert names == catalog_names() and len(names) >= 40
    assert set(PROCESSING_BINDINGS) == set(names)
    for spec in PROCESSING_SPECS:
        assert spec.half == "processing" and spec.algorithm_ids and spec.purpose.endswith(".")
        assert set(PROCESSING_BINDINGS[spec.name]["params"]) == {p.name for p in spec.params}


@pytest.mark.parametrize("spec", PROCESSING_SPECS, ids=lambda s: s.name)
def test_yaml_and_schema_agree(spec):
    assert schema_from_yaml(spec.yaml_doc()) == spec.json_schema()


def test_conventional_parameter_names():
    for spec in PROCESSING_SPECS:
        kinds = {p.name: p.kind for p in spec.params}
        assert kinds.get("layer", "layer") == "layer" and kinds.get("raster", "layer") == "layer", spec.name
        assert kinds.get("distance", "distance") == "distance", spec.name
        for p in spec.params:
            if p.kind in ("field", "fields") and p.of_layer:
                assert p.of_layer in kinds, (spec.name, p.name)


def test_yaml_docs_fit_the_token_budget():
    bpe = pytest.importorskip("bpe_openai")
    enc = bpe.get_encoding("cl100k_base")
    total = sum(len(enc.encode(s.yaml_doc())) for s in PROCESSING_SPECS)
    assert total < 6000, f"{total} tokens for {len(PROCESSING_SPECS)} tools"


def test_shared_parameters_with_the_geopandas_equivalents():
    try:
        from geoclerk.function_lib import load_registry

        registry = load_registry()
    except Exception as exc:  # noqa: BLE001 - the GeoPandas half is written in parallel
        pytest.skip(f"GeoPandas half not loadable yet: {exc}")
    checked = 0
    for spec in PROCESSING_SPECS:
        if not spec.equivalent or spec.equivalent not in registry:
            continue
        other = registry.get(spec.equivalent).spec
        ours = {p.name: p for p in spec.params}
        for p in other.params:
            if p.required:
                assert p.name in ours, f"{spec.name} lacks {p.name}, required by {other.name}"
            if p.name in ours:
                assert ours[p.name].json_schema()["type"] == p.json_schema()["type"], (spec.name, p.name)
                if p.enum:
                    assert set(p.enum) <= set(ours[p.name].enum or ()), (spec.name, p.name)
        checked += 1
    assert checked >= 10


def _generator():
    path = ROOT / "scripts" / "gen_processing_specs.py"
    module_spec = importlib.util.spec_from_file_location("gen_processing_specs", path)
    module = importlib.util.module_from_spec(module_spec)
    module_spec.loader.exec_module(module)
    return module


def test_static_specs_match_the_live_derivation():
    pytest.importorskip("qgis.core")
    from geoclerk.geoclerk_plugin.qgis_env import ensure_qgis

    status = ensure_qgis()
    if not status:
        pytest.skip(status.reason)
    stored = json.loads(DATA.read_text())
    if not status.version.startswith(stored["qgis_version"].rsplit(".", 1)[0] + "."):
        pytest.skip(f"the specs were derived on QGIS {stored['qgis_version']}; on {status.version} the options "
                    "they name are checked by test_stored_options_are_the_same_options_on_this_qgis")  # fmt: skip
    live = _generator().derive(stored)
    assert live["missing"] == stored["missing"] == []
    for old, new in zip(stored["tools"], live["tools"], strict=True):
        assert new == old, f"{old['name']} drifted: regenerate with scripts/gen_processing_specs.py"


def test_stored_options_are_the_same_options_on_this_qgis():
    """Every enum option the stored specs bind by [label, index] is, in the running QGIS, that label or its known
    rename at that index, so a call never picks another option on a newer (or older) QGIS."""
    pytest.importorskip("qgis.core")
    from geoclerk.geoclerk_plugin.processing_tools.runner import OPTION_RENAMES
    from geoclerk.geoclerk_plugin.qgis_env import ensure_qgis
    from qgis.core import QgsApplication

    status = ensure_qgis()
    if not status:
        pytest.skip(status.reason)
    algorithms = QgsApplication.processingRegistry()
    checked = 0
    for tool in json.loads(DATA.read_text())["tools"]:
        alg = next((algorithms.algorithmById(i) for i in tool["algorithm_ids"] if algorithms.algorithmById(i)), None)
        assert alg is not None, tool["name"]
        for name, bind in tool["binding"]["params"].items():
            definition = next((alg.parameterDefinition(q) for q in bind["qgis"] if alg.parameterDefinition(q)), None)
            for key, entry in (bind.get("enum") or {}).items():
                if entry is None or definition is None or definition.type() != "enum":
                    continue
                label, index = entry
                options = list(definition.options())
                assert index < len(options) and options[index] in (label, OPTION_RENAMES.get(label)), (
                    f"{tool['name']}.{name}={key}: option {index} is {options[index:index + 1]} here, not '{label}'"
                )
                checked += 1
    assert checked >= 20


def test_every_tool_binds_on_this_qgis():
    pytest.importorskip("qgis.core")
    from geoclerk.function_lib.registry import Registry
    from geoclerk.geoclerk_plugin.processing_tools import bind
    from geoclerk.geoclerk_plugin.processing_tools.handlers import HANDLERS

    registry = Registry()
    for spec in PROCESSING_SPECS:
        registry.register(spec)
    report = bind(registry)
    if report.reason:
        pytest.skip(report.reason)
    assert report.missing == {} and len(report.bound) == len(PROCESSING_SPECS)
    assert all(registry.get(s.name).available for s in PROCESSING_SPECS)
    assert {b["handler"] for b in PROCESSING_BINDINGS.values()} - {None} <= set(HANDLERS)
