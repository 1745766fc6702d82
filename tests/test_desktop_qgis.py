"""The installed plugin as a user meets it: the ZIP `make package` builds, in a fresh profile of the real QGIS
desktop under Xvfb, driven through the dock's own widgets (tests/desktop_driver.py) in English, German and Chinese.

Per language: sample layers loaded, the Processing Toolbox open (where most users keep it), the dock opened from the
Plugins menu, then a tier-0, a tier-1 and a tier-2 request against the scripted model server and one the server
refuses with HTTP 401. The driver records what the user sees; this file asserts on it, by value, and the screenshots
land in tests/artifacts/.
"""

from __future__ import annotations

import json
import math
import os
import re
import shutil
import site
import subprocess
import zipfile
from pathlib import Path

import pytest
from geoclerk.tests.scripted_server import ScriptedServer
from geoclerk.tests.test_gui_support import ROOT
from geoclerk.tests.test_plugin_package import package

QGIS = "/usr/bin/qgis"
XVFB = "/usr/bin/Xvfb"
DRIVER = Path(__file__).with_name("desktop_driver.py")
ARTIFACTS = Path(__file__).with_name("artifacts")
SAMPLE = ROOT / "data" / "sample"
SECRET = "sk-desktop-SECRET-never-stored"
RUN_TIMEOUT = 240  # one language, start to exit (about 20 s here); under pytest-timeout's 300 s

# The requests a user of each language types. The scripted server answers each by its text (see `dispatcher`).
REQUESTS = {
    "en": {
        "tier0": "Count the houses in each district",
        "followup": "Now buffer them by 100 m",
        "tier1": "Buffer the schools by a comfortable walking distance",
        "tier2": "Rank the schools by the number of houses within 500 m and keep the top 3",
        "refused": "Buffer the roads by a comfortable margin",
    },
    "de": {
        "tier0": "Zähle die Häuser in jedem Bezirk",
        "followup": "Puffere sie jetzt um 100 m",
        "tier1": "Puffere die Schulen um eine bequeme Gehentfernung",
        "tier2": "Ordne die Schulen nach der Zahl der Häuser im Umkreis von 500 m und behalte die besten 3",
        "refused": "Puffere die Straßen um einen großzügigen Abstand",
    },
    "zh-Hans": {
        "tier0": "统计每个区的房屋数量",
        "followup": "现在把它们缓冲100米",
        "tier1": "将学校缓冲一个舒适的步行距离",
        "tier2": "按500米内房屋数量给学校排名，保留前3所",
        "refused": "将道路缓冲一个宽松的距离",
    },
}
CATALOGUES = {"en": None, "de": "geoclerk_de.ts", "zh-Hans": "geoclerk_zh_CN.ts"}
# The no-model plan in words, in the request's language (planning/say.py).
PLAN_WORDS = {"en": "Counted the houses", "de": "gezählt", "zh-Hans": "已统计"}

WALK_M = 250
CODE = """```python
import geopandas as gpd

schools = gpd.read_file("schools.gpkg")
houses = gpd.read_file("houses.gpkg")
zones = schools[["geometry"]].copy()
zones["geometry"] = schools.buffer(500)
inside = gpd.sjoin(houses, zones, predicate="within")
schools["houses_500m"] = inside.groupby("index_right").size().reindex(schools.index, fill_value=0).astype(int)
top = schools.sort_values("houses_500m", ascending=False).head(3)
top.to_file("top_schools.gpkg", driver="GPKG")
print(top[["name", "houses_500m"]].to_string(index=False))
```"""


# -- the scripted model ------------------------------------------------------------------------------------------
def _echo_proposed_call(body: dict) -> dict:
    """Draft and verify: the model accepts the no-model plan by repeating the proposed call."""
    user = next(m["content"] for m in body["messages"] if m["role"] == "user")
    proposed = json.loads(user.split("Proposed call: ", 1)[1])
    return {"tool_calls": [{"name": proposed["tool"], "arguments": proposed["arguments"]}]}


def _buffer_schools(body: dict) -> dict:
    name = next(t["function"]["name"] for t in body.get("tools") or [] if "buffer" in t["function"]["name"])
    return {"tool_calls": [{"name": name, "arguments": {"layer": "schools", "distance": WALK_M}}]}


def model_replies(requests: dict) -> dict[str, list]:
    """The replies the model gives to each request of a language, in order."""
    return {
        requests["tier0"]: [_echo_proposed_call],
        requests["followup"]: [_echo_proposed_call],
        requests["tier1"]: [_buffer_schools, {"content": f"Buffered the schools by {WALK_M} m."}],
        requests["tier2"]: [{"content": CODE}] * 3,
        requests["refused"]: [{"status": 401, "message": "invalid api key"}] * 4,
    }


def dispatcher(replies: dict[str, list]):
    """One scripted reply: the next one for the request the body is about (its first user message starts with
    'Request: …'), so a step that needs more or fewer model rounds than expected cannot shift the others."""

    def reply(body: dict) -> dict:
        user = next(m["content"] for m in body["messages"] if m["role"] == "user")
        request = user.split("\n", 1)[0].removeprefix("Request: ").strip()
        queue = replies.get(request)
        if not queue:
            return {"status": 500, "message": f"scripted desktop model: no reply left for {request!r}"}
        step = queue.pop(0)
        return step(body) if callable(step) else step

    return reply


# -- the machine: display, profile, QGIS -------------------------------------------------------------------------
@pytest.fixture(scope="module")
def display():
    """Xvfb on a free display number (it picks one and tells us), stopped after the module."""
    for path, what in ((QGIS, "the QGIS desktop"), (XVFB, "Xvfb (apt-get install xvfb; make setup does)")):
        if not os.path.exists(path):
            pytest.skip(f"{what} is not installed")
    read, write = os.pipe()
    # -noreset: without it the server resets when its last client leaves, and a reset with -displayfd ends it.
    xvfb = subprocess.Popen(
        [XVFB, "-displayfd", str(write), "-screen", "0", "1440x900x24", "-nolisten", "tcp", "-noreset"],
        pass_fds=[write],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    os.close(write)
    number = os.read(read, 16).decode().strip()
    assert number.isdigit(), "Xvfb did not start"
    yield f":{number}"
    os.close(read)
    xvfb.terminate()
    xvfb.wait(10)


@pytest.fixture(scope="module")
def plugin_zip(tmp_path_factory):
    return package.build(tmp_path_factory.mktemp("dist") / "geoclerk.zip")


def install_profile(plugin_zip: Path, profiles: Path, locale: str, base_url: str, link_libs: bool = True) -> Path:
    """A fresh profile as QGIS's installer leaves it: the ZIP unpacked into python/plugins and the plugin enabled;
    the UI language chosen in Options; the model's endpoint set in GeoClerk's settings. `link_libs=False`: no
    packages at all, as a new user starts, for the Install button to fetch."""
    from qgis.PyQt.QtCore import QSettings

    profile = profiles / "profiles" / "default"
    plugins = profile / "python" / "plugins"
    plugins.mkdir(parents=True)
    zipfile.ZipFile(plugin_zip).extractall(plugins)
    # The packages live in the plugin-managed folder, exactly where the plugin's installer puts them (the install
    # test below has the Install button put them there).
    if link_libs:
        (profile / "python" / "geoclerk_libs").symlink_to(site.getsitepackages()[0], target_is_directory=True)
    ini = QSettings(str(profile / "QGIS" / "QGIS3.ini"), QSettings.Format.IniFormat)
    ini.setValue("PythonPlugins/geoclerk", True)
    if locale != "en":
        ini.setValue("locale/overrideFlag", True)
        ini.setValue("locale/userLocale", locale)
    ini.setValue("qgis/checkVersion", False)
    ini.setValue("core/NewsFeed/httpsfeedqgisorg/disabled", True)  # the welcome page's feed: no internet
    ini.setValue("GeoClerk/base_url", base_url)
    ini.setValue("GeoClerk/model", "scripted")
    ini.sync()
    return profiles


def scenario(lang: str, data: Path, out: Path) -> dict:
    requests = REQUESTS[lang]
    shot = f"desktop_{lang}"
    return {
        "out": str(out),
        "artifacts": str(ARTIFACTS),
        "steps": [
            {"do": "start"},
            {
                "do": "load_layers",
                "paths": [str(data / f"{n}.gpkg") for n in ("districts", "roads", "houses", "schools")],
                "extent_of": "districts",
            },
            {"do": "show_panel", "object_name": "ProcessingToolbox"},
            {"do": "open_dock"},
            {"do": "ask", "name": "tier0", "request": requests["tier0"], "layers": ["districts", "houses"]},
            {"do": "screenshot", "name": f"{shot}_1_tier0"},
            {"do": "ask", "name": "followup", "request": requests["followup"]},  # no ticks: 'them' is the result
            {"do": "ask", "name": "tier1", "request": requests["tier1"], "layers": ["schools"]},
            {
                "do": "ask",
                "name": "tier2",
                "request": requests["tier2"],
                "route": "codegen",
                "layers": ["schools", "houses"],
                "timeout": 240,
            },
            {"do": "screenshot", "name": f"{shot}_2_code"},
            {"do": "ask", "name": "refused", "request": requests["refused"], "layers": ["roads"]},
            {"do": "screenshot", "name": f"{shot}_3_refused_key"},
            {"do": "click_card_settings", "name": "settings_from_card"},
        ],
    }


def run_qgis(display: str, profiles: Path, scenario_path: Path, log: Path, timeout: float = RUN_TIMEOUT) -> int:
    dropped = ("PYTHON", "PYENV", "VIRTUAL_ENV", "GEOCLERK_", "GEOAGENT_", "QT_", "QGIS_")  # the test process's own
    env = {k: v for k, v in os.environ.items() if not k.startswith(dropped)}
    # Debian's QGIS embeds Debian's Python: keep another python3 (pyenv, a venv) off the front of PATH.
    env["PATH"] = "/usr/bin:/bin:" + env.get("PATH", "")
    env.update(DISPLAY=display, GEOCLERK_DESKTOP_SCENARIO=str(scenario_path), GEOCLERK_API_KEY=SECRET)
    env.setdefault("XDG_RUNTIME_DIR", f"/tmp/runtime-{os.getuid()}")
    cmd = [QGIS, "--nologo", "--noversioncheck", "--profiles-path", str(profiles), "--code", str(DRIVER)]
    with log.open("w") as out:
        proc = subprocess.Popen(cmd, env=env, stdout=out, stderr=subprocess.STDOUT, cwd=profiles)
        try:
            return proc.wait(timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)
            return -9


# -- what the user should see ------------------------------------------------------------------------------------
def catalogue(lang: str):
    """tr() as the plugin's catalogue for `lang` has it (English: the source)."""
    name = CATALOGUES[lang]
    if name is None:
        return lambda text: text
    from geoclerk.tests.test_gui_i18n import translations

    table = translations.read_ts(ROOT / "i18n" / name)
    return lambda text: table.get(text) or text


@pytest.fixture(scope="module")
def expected_values():
    """The answers computed here with GeoPandas from the same sample files."""
    import geopandas as gpd

    districts = gpd.read_file(SAMPLE / "districts.gpkg")
    houses = gpd.read_file(SAMPLE / "houses.gpkg")
    schools = gpd.read_file(SAMPLE / "schools.gpkg")
    zones = schools[["geometry"]].copy()
    zones["geometry"] = schools.buffer(500)
    near = gpd.sjoin(houses, zones, predicate="within").groupby("index_right").size()
    return {
        "houses_per_district": sorted(gpd.sjoin(houses, districts, predicate="within").groupby("index_right").size()),
        "schools": len(schools),
        "top3": sorted(near.reindex(schools.index, fill_value=0).nlargest(3)),
    }


@pytest.mark.qgis
@pytest.mark.parametrize("lang", ["en", "de", "zh-Hans"])
def test_the_installed_plugin_in_the_qgis_desktop(lang, display, plugin_zip, tmp_path, expected_values):
    requests = REQUESTS[lang]
    data = tmp_path / "data"
    shutil.copytree(SAMPLE, data)
    with ScriptedServer() as server:
        server.add(*[dispatcher(model_replies(requests))] * 40)
        profiles = install_profile(plugin_zip, tmp_path / "qgis", lang, server.url)
        out = tmp_path / "observed.json"
        scenario_path = tmp_path / "scenario.json"
        scenario_path.write_text(json.dumps(scenario(lang, data, out), ensure_ascii=False))
        code = run_qgis(display, profiles, scenario_path, tmp_path / "qgis.log")
        server_url = server.url
    log = (tmp_path / "qgis.log").read_text(errors="replace")[-3000:]
    assert out.exists(), f"the driver never ran (exit {code}):\n{log}"
    seen = json.loads(out.read_text())
    steps = {s.get("name") or s["do"]: s for s in seen["steps"]}
    failed = [s for s in seen["steps"] if "exception" in s]
    assert not failed, failed[0]["exception"]
    assert seen["done"] and code == 0, f"exit {code}, steps done: {list(steps)}\n{log}"
    assert seen["dialogs"] == []  # nothing modal stopped the user (a master password prompt, an error box)
    tr = catalogue(lang)

    # The plugin QGIS loaded is the one installed from the ZIP, in the user's language.
    start = steps["start"]
    assert Path(start["plugin_file"]).is_relative_to(profiles / "profiles" / "default" / "python" / "plugins")
    if lang == "en":
        assert start["translation"] is None
    else:
        assert Path(start["translation"]).name == Path(CATALOGUES[lang]).with_suffix(".qm").name

    assert steps["load_layers"]["loaded"] == {"districts": 8, "roads": 21, "houses": 1500, "schools": 12}

    # The dock, opened from the Plugins menu, sits on the right with room to chat, labelled in the user's language.
    dock = steps["open_dock"]
    assert dock["visible"] and dock["area"] == "right" and dock["icon"]
    assert dock["chat_area"][1] >= 250, f"the chat area is squeezed to {dock['chat_area'][1]} px"
    assert dock["menu"] == [tr("&GeoClerk"), tr("GeoClerk chat"), tr("GeoClerk settings…")]
    assert (dock["send"], dock["cancel"], dock["layers_label"]) == (tr("Send"), tr("Cancel"), tr("Layers in play"))
    assert dock["routes"] == [tr("Auto"), tr("Function"), tr("Code")]
    assert dock["hint"] == tr("Ask for an analysis, for example: buffer roads by 100 m")
    if lang != "en":
        assert dock["send"] != "Send" and tr("done") != "done"  # the catalogue really is another language

    group = tr("GeoClerk results")
    for name in ("tier0", "followup", "tier1", "tier2", "refused"):
        step = steps[name]
        assert step["finished"], f"{name}: no reply card after {step['seconds']} s"
        assert step["typed"] == requests[name]  # what QTest typed into the field is what the user meant
        assert step["clipped"] == [], f"{name}: cut off on the right: {step['clipped']}"
        for layer in step["layers"]:
            assert layer["group"] == group and SECRET not in layer["metadata"]
            assert layer["source"].startswith(str(profiles)), layer["source"]  # results live in the profile

    # Tier 0: the plan ran without a model of its own; the model only confirmed it (one short round).
    card = steps["tier0"]["card"]
    report = card["report"]
    assert (report["status"], report["route"], report["tier"]) == ("ok", "function", 0), report
    assert report["usage"]["llm_calls"] == 1 and "count" in report["steps"][0]["tool"]
    assert tr("done") in card["badge"] and tr("offline") in card["badge"]
    assert PLAN_WORDS[lang] in card["answer"] and card["error"] == ""
    assert card["ask_model_button"] == tr("Not what I meant — ask the model")
    [layer] = steps["tier0"]["layers"]
    assert layer["feature_count"] == 8 and layer["renderer"] == "graduatedSymbol"
    assert sorted(layer["class_values"]) == expected_values["houses_per_district"]

    # A follow-up: 'them' is the layer the previous request made, read at tier 0 (the model only confirmed).
    report = steps["followup"]["card"]["report"]
    assert (report["status"], report["tier"]) == ("ok", 0), report
    assert report["steps"][0]["params"] == {"layer": layer["name"], "distance": 100}, report["steps"]
    [buffered] = steps["followup"]["layers"]
    assert buffered["feature_count"] == 8 and buffered["area"] > layer["area"]

    # Tier 1: the model called the buffer tool; the zones are 250 m around each school, see-through.
    card = steps["tier1"]["card"]
    report = card["report"]
    assert (report["status"], report["tier"]) == ("ok", 1), report
    assert report["usage"]["llm_calls"] == 2 and tr("functions") in card["badge"]
    assert tr("{calls} model calls, {prompt} + {completion} tokens").split("{")[0] in card["usage"]
    [layer] = steps["tier1"]["layers"]
    n = expected_values["schools"]
    assert layer["feature_count"] == n and layer["renderer"] == "singleSymbol" and layer["fill_alpha"] < 100
    assert layer["area"] == pytest.approx(n * math.pi * WALK_M**2, rel=0.02)

    # Tier 2: the generated script ran in the sandbox from the installed plugin and its layer came back.
    card = steps["tier2"]["card"]
    report = card["report"]
    assert (report["status"], report["route"], report["tier"]) == ("ok", "codegen", 2), report.get("error")
    assert tr("code") in card["badge"] and card["details_toggle"] == tr("Show code")
    [layer] = steps["tier2"]["layers"]
    assert layer["feature_count"] == 3 and "houses_500m" in layer["fields"]
    assert sorted(layer["values"]["houses_500m"]) == expected_values["top3"]

    # HTTP 401: nothing added, the card says the key was refused and offers the settings.
    card = steps["refused"]["card"]
    report = card["report"]
    assert report["status"] == "error" and report["fix_in_settings"] is True, report
    assert steps["refused"]["layers"] == [] and tr("error") in card["badge"]
    assert re.search(r"\b401\b", card["error"]) and card["settings_button"] == tr("Open settings")
    if lang == "en":
        assert "refused the key" in card["error"]
    [dialog] = steps["settings_from_card"]["opened"]  # the button opens GeoClerk's settings, on this endpoint
    assert dialog["title"] == tr("GeoClerk settings") and server_url in dialog["fields"]

    for name in ("1_tier0", "2_code", "3_refused_key"):
        shot = steps[f"desktop_{lang}_{name}"]
        assert shot["saved"] and Path(shot["path"]).stat().st_size > 20_000, shot


# -- the Install button, in a fresh profile with no packages ---------------------------------------------------------
NDVI_REQUESTS = {"en": "calculate NDVI from the satellite image", "de": "NDVI berechnen", "zh-Hans": "计算NDVI"}
INSTALL_TIMEOUT = 1500  # a cold pip cache downloads ~150 MB; a warm one installs in about a minute


def install_scenario(lang: str, data: Path, out: Path) -> dict:
    requests = REQUESTS[lang]
    return {
        "out": str(out),
        "artifacts": str(ARTIFACTS),
        "steps": [
            {"do": "start"},
            {"do": "press_install", "timeout": INSTALL_TIMEOUT},
            {"do": "screenshot", "name": f"desktop_{lang}_install_done"},
            {
                "do": "load_layers",
                "paths": [str(data / n) for n in ("districts.gpkg", "houses.gpkg", "schools.gpkg", "image_2024.tif")],
                "extent_of": "districts",
            },
            {"do": "open_dock"},
            {"do": "ask", "name": "tier0", "request": requests["tier0"], "layers": ["districts", "houses"]},
            {"do": "ask", "name": "ndvi", "request": NDVI_REQUESTS[lang], "layers": ["image_2024"]},
            {
                "do": "ask",
                "name": "tier2",
                "request": requests["tier2"],
                "route": "codegen",
                "layers": ["schools", "houses"],
                "timeout": 240,
            },
        ],
    }


@pytest.mark.qgis
@pytest.mark.pypi
@pytest.mark.timeout(INSTALL_TIMEOUT + 600)
@pytest.mark.parametrize("lang", ["en", "de", "zh-Hans"])
def test_the_install_button_in_a_fresh_profile_then_tier0_ndvi_and_code(
    lang, display, plugin_zip, tmp_path, expected_values
):
    """issue 27: the old button installed NumPy 2 over Debian 12's NumPy 1 (GDAL broke) and no rasterio (NDVI failed).
    A profile with no packages: the bar names them, the Install button installs them against QGIS's own Python, and
    then a tier-0 count, NDVI from an image and generated code all work in the same session."""
    import numpy as np
    import rasterio

    data = tmp_path / "data"
    shutil.copytree(SAMPLE, data)
    replies = model_replies(REQUESTS[lang])
    replies[NDVI_REQUESTS[lang]] = [_echo_proposed_call]
    with ScriptedServer() as server:
        server.add(*[dispatcher(replies)] * 40)
        profiles = install_profile(plugin_zip, tmp_path / "qgis", lang, server.url, link_libs=False)
        out = tmp_path / "observed.json"
        scenario_path = tmp_path / "scenario.json"
        scenario_path.write_text(json.dumps(install_scenario(lang, data, out), ensure_ascii=False))
        code = run_qgis(display, profiles, scenario_path, tmp_path / "qgis.log", timeout=INSTALL_TIMEOUT + 300)
    log = (tmp_path / "qgis.log").read_text(errors="replace")[-3000:]
    assert out.exists(), f"the driver never ran (exit {code}):\n{log}"
    seen = json.loads(out.read_text())
    steps = {s.get("name") or s["do"]: s for s in seen["steps"]}
    failed = [s for s in seen["steps"] if "exception" in s]
    assert not failed, failed[0]["exception"]
    assert seen["done"] and code == 0, f"exit {code}, steps done: {list(steps)}\n{log}"

    # Before: the bar names what is missing (rasterio among it), in the user's language, and offers the installer's
    # command and the button.
    tr = catalogue(lang)
    install = steps["press_install"]
    bar = install["bar"]
    assert tr("{name} (missing, need >= {minimum})").format(name="rasterio", minimum="1.3") in bar["text"]
    assert (
        tr("GeoClerk needs Python packages that QGIS's Python lacks: {names}. Install them, or run:").split("{")[0]
        in bar["text"]
    )
    assert "installer.py --target" in bar["command"]
    assert tr("Install") in bar["buttons"] and install["button_after_press"] == tr("Installing…")
    # After: done, nothing missing, the bar gone, and the message says what was installed and what was kept.
    assert install["finished"] and install["problems_after"] == [] and install["bar_after"] is None
    report = install["report"]
    assert report["ok"], report["error"]
    libs = profiles / "profiles" / "default" / "python" / "geoclerk_libs"
    assert Path(report["target"]) == libs and (libs / "geoclerk-install.json").exists()
    own_numpy = subprocess.run(["/usr/bin/python3", "-c", "import numpy; print(numpy.__version__)"],
                               capture_output=True, text=True, check=True).stdout.strip()  # fmt: skip
    assert report["kept"]["numpy"] == own_numpy  # QGIS's own NumPy, not a newer one from PyPI
    assert not list(libs.glob("numpy-*.dist-info")) and not list(libs.glob("GDAL-*"))
    assert "rasterio" in report["installed"] and report["checks"]["osgeo.gdal_array"]["version"]
    message = install["message"]
    installed = tr("Installed {installed} (and {extra} packages they need) into {folder}.")
    assert message.startswith(installed.split("{")[0]) and f"rasterio {report['installed']['rasterio']}" in message
    assert tr("Kept QGIS's own {kept}.").split("{")[0] + f"numpy {own_numpy}" in message
    assert message.endswith(tr("GeoClerk is ready."))
    if lang != "en":
        assert tr("GeoClerk is ready.") != "GeoClerk is ready." and "Installed" not in message

    # Tier 0 with the installed packages: the count per district, the model only confirming the plan.
    report = steps["tier0"]["card"]["report"]
    assert (report["status"], report["tier"]) == ("ok", 0), report
    [layer] = steps["tier0"]["layers"]
    assert sorted(layer["class_values"]) == expected_values["houses_per_district"]

    # NDVI (rasterio) at tier 0: one band, the same values as NumPy on the same file.
    report = steps["ndvi"]["card"]["report"]
    assert (report["status"], report["tier"]) == ("ok", 0), report
    assert report["steps"][0]["tool"] == "normalized_difference"
    [layer] = steps["ndvi"]["layers"]
    with rasterio.open(SAMPLE / "image_2024.tif") as src:
        bands = src.read(masked=True).astype("float64")
    want = ((bands[3] - bands[2]) / (bands[3] + bands[2])).compressed()
    raster = layer["raster"]
    assert raster["bands"] == 1 and (raster["width"], raster["height"]) == (200, 160)
    assert raster["min"] == pytest.approx(float(np.min(want)), abs=1e-4)
    assert raster["max"] == pytest.approx(float(np.max(want)), abs=1e-4)
    assert raster["mean"] == pytest.approx(float(np.mean(want)), abs=1e-3)

    # Tier 2: the generated script ran in the sandbox on the installed packages.
    report = steps["tier2"]["card"]["report"]
    assert (report["status"], report["tier"]) == ("ok", 2), report.get("error")
    [layer] = steps["tier2"]["layers"]
    assert sorted(layer["values"]["houses_500m"]) == expected_values["top3"]

    # QGIS started again on that profile (where GDAL broke before): no bar, QGIS's GDAL and NumPy load, and the
    # installed packages come from the folder.
    restart = {"out": str(tmp_path / "restart.json"), "artifacts": str(ARTIFACTS), "steps": [
        {"do": "start"}, {"do": "imports", "modules": ["osgeo.gdal_array", "numpy", "geopandas", "rasterio", "sklearn"]}
    ]}  # fmt: skip
    scenario_path.write_text(json.dumps(restart))
    code = run_qgis(display, profiles, scenario_path, tmp_path / "restart.log")
    seen = json.loads((tmp_path / "restart.json").read_text())
    assert seen["done"] and code == 0, (tmp_path / "restart.log").read_text(errors="replace")[-3000:]
    after = seen["steps"][1]
    assert after["bar"] is None and after["problems"] == []
    modules = after["modules"]
    assert all("error" not in m for m in modules.values()), modules
    assert modules["numpy"]["version"] == own_numpy and modules["numpy"]["file"].startswith("/usr/lib/python3/")
    assert modules["osgeo.gdal_array"]["file"].startswith("/usr/lib/python3/")
    for name in ("geopandas", "rasterio", "sklearn"):
        assert Path(modules[name]["file"]).is_relative_to(libs), modules[name]
