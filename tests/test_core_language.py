"""Core messages in the user's language: the catalogue, `geoclerk run --lang`, model errors and the lazy API key."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
from pathlib import Path

import pytest
from geoclerk import lang
from geoclerk.agent.llm import LLMClient
from geoclerk.agent.pipeline import AgentConfig, run_request
from geoclerk.agent.providers import LLMSettings
from geoclerk.errors import CancelledError, LLMError
from geoclerk.tests.scripted_server import ScriptedServer

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "data" / "sample"
GEOCLERK = ROOT / ".venv" / "bin" / "geoclerk"

spec = importlib.util.spec_from_file_location("gc_translations", ROOT / "scripts" / "translations.py")
translations = importlib.util.module_from_spec(spec)
spec.loader.exec_module(translations)


@pytest.fixture
def speaking():
    """Switch the core's language for one test and back to English afterwards."""
    yield lang.set_language
    lang.set_language("en")


@pytest.mark.parametrize("locale", ["de", "zh_CN"])
def test_every_core_message_is_translated_with_its_placeholders(locale):
    sources = translations.extract_core()
    table = json.loads((ROOT / "i18n" / f"core_{locale}.json").read_text(encoding="utf-8"))
    assert len(sources) > 40 and set(table) == set(sources)  # the table is in step with the code
    for source in sources:
        assert table[source], (locale, source)
        assert set(re.findall(r"\{\w*\}", source)) == set(re.findall(r"\{\w*\}", table[source])), (locale, source)


@pytest.mark.parametrize(
    ("locale", "catalogue"),
    [("de_DE.UTF-8", "de"), ("de", "de"), ("zh-Hans", "zh_CN"), ("zh_Hans_CN", "zh_CN"), ("zh_CN", "zh_CN"),
     ("zh", "zh_CN"), ("en_GB", "en"), ("C.UTF-8", "en"), ("fr_FR", "en"), ("", "en"), (None, "en")],
)  # fmt: skip
def test_locales_map_to_a_catalogue(locale, catalogue):
    assert lang.catalogue(locale) == catalogue


def test_the_environment_names_the_language():
    assert lang.language_from_env({"GEOCLERK_LANG": "de", "LANG": "zh_CN.UTF-8"}) == "de"
    assert lang.language_from_env({"LC_ALL": "", "LANG": "zh_CN.UTF-8"}) == "zh_CN.UTF-8"
    assert lang.language_from_env({}) is None


@pytest.mark.parametrize(
    ("locale", "message", "fix"),
    [("en", "The request was cancelled.", "Nothing was changed."),
     ("de", "Die Anfrage wurde abgebrochen.", "Es wurde nichts geändert."),
     ("zh-Hans", "请求已取消。", "没有做任何更改。")],
)  # fmt: skip
def test_cancelled_speaks_the_users_language(speaking, locale, message, fix):
    speaking(locale)
    err = CancelledError()
    assert (err.message, err.fix) == (message, fix)


def _cli(tmp_path, request, *extra, env_lang=None):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    if env_lang is not None:
        env["GEOCLERK_LANG"] = env_lang
    cmd = [str(GEOCLERK), "run", request, "--input", str(SAMPLE / "schools.gpkg"), "--input",
           str(SAMPLE / "roads.gpkg"), "--out-dir", str(tmp_path / "out"), "--offline", "--json", *extra]  # fmt: skip
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=240, env=env)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return json.loads(proc.stdout)


@pytest.mark.skipif(not GEOCLERK.exists(), reason="the geoclerk command is not installed (make setup)")
@pytest.mark.parametrize(
    ("args", "env_lang", "said", "counts"),
    [
        ((), None, "Buffered schools by 100 m.", "(12 features in, 12 out), result in EPSG:32633."),
        (("--lang", "de"), None, "schools um 100 m gepuffert.", "(12 Objekte ein, 12 aus), Ergebnis in EPSG:32633."),
        ((), "de_DE.UTF-8", "schools um 100 m gepuffert.", "(12 Objekte ein, 12 aus), Ergebnis in EPSG:32633."),
        (
            ("--lang", "zh_CN"),
            None,
            "已将schools缓冲100 m。",
            "（输入 12 个要素，输出 12 个），结果坐标系为 EPSG:32633。",
        ),
    ],
)
def test_cli_tier0_answer_in_the_asked_language(tmp_path, args, env_lang, said, counts):
    report = _cli(tmp_path, "buffer schools by 100 m", "--engine", "qgis", *args, env_lang=env_lang)
    # the machine fields never change language; the answer the user reads does, values and all
    assert (report["status"], report["route"], report["tier"]) == ("ok", "function", 0), report
    assert report["steps"][0]["params"]["distance"] == 100 and report["outputs"][0]["kind"] == "vector"
    assert report["answer"].startswith(said) and report["answer"].endswith(counts), report["answer"]


@pytest.mark.skipif(not GEOCLERK.exists(), reason="the geoclerk command is not installed (make setup)")
@pytest.mark.parametrize(
    ("locale", "expected"),
    [
        ("en", "These words of the request were not understood: 'along', 'zorbles'."),
        ("de", "Diese Wörter der Anfrage wurden nicht verstanden: 'along', 'zorbles'."),
        ("zh_CN", "请求中的这些词无法理解：'along', 'zorbles'。"),
    ],
)  # fmt: skip
def test_cli_not_understood_in_the_asked_language(tmp_path, locale, expected):
    report = _cli(tmp_path, "buffer the schools by 100 m along the zorbles", "--engine", "geopandas", "--lang", locale)
    assert (report["status"], report["route"], report["outputs"]) == ("needs_llm", "function", [])
    assert report["error"].startswith(expected), report["error"]


def _refusing_client(server, host: str) -> LLMClient:
    return LLMClient(LLMSettings(base_url=server.url, model="scripted", api_key="sk-x", max_retries=0, host=host))


@pytest.mark.parametrize(
    ("host", "locale", "fix"),
    [
        ("qgis", "en", "Check the API key in GeoClerk's settings (Open settings)."),
        ("qgis", "de", "Prüfen Sie den API-Schlüssel in den GeoClerk-Einstellungen (Einstellungen öffnen)."),
        ("qgis", "zh_CN", "请在 GeoClerk 设置中检查 API 密钥（打开设置）。"),
        ("cli", "en", "Check the API key in GEOCLERK_API_KEY or OPENAI_API_KEY."),
    ],
)
def test_a_refused_key_says_where_to_fix_it(speaking, host, locale, fix):
    speaking(locale)
    server = ScriptedServer().start()
    try:
        server.add({"status": 401, "message": "invalid api key"})
        with pytest.raises(LLMError) as info:
            _refusing_client(server, host).chat([{"role": "user", "content": "hi"}])
    finally:
        server.stop()
    assert info.value.fix == fix and "401" in info.value.message
    assert ("GEOCLERK_API_KEY" in info.value.user_text()) == (host == "cli")


class CountingKey:
    """A key that counts how often it was read (the plugin's StoredKey opens QGIS's auth database)."""

    def __init__(self, value: str):
        self.value, self.reads = value, 0

    def __call__(self) -> str:
        self.reads += 1
        return self.value


def test_the_key_is_read_only_when_a_model_is_called(tmp_path):
    server = ScriptedServer().start()
    key = CountingKey("sk-lazy-123")
    try:
        config = AgentConfig(base_url=server.url, model="scripted", api_key=key, trust_tier0=True)
        served = run_request("buffer schools by 100 m", [str(SAMPLE / "schools.gpkg")], tmp_path / "a", config=config)
        assert (served.status, served.tier, served.usage.llm_calls) == ("ok", 0, 0), served.error
        assert key.reads == 0 and server.requests == []  # tier 0 with a trusted plan: no model, no key
        server.add({"content": "Schools teach children."})
        chat = run_request("what do schools do?", [str(SAMPLE / "schools.gpkg")], tmp_path / "b", config=config)
        assert chat.status == "ok" and chat.usage.llm_calls == 1, chat.error
        assert key.reads == 1 and server.headers[0]["authorization"] == "Bearer sk-lazy-123"
    finally:
        server.stop()


@pytest.mark.skipif(not GEOCLERK.exists(), reason="the geoclerk command is not installed (make setup)")
@pytest.mark.parametrize(
    ("locale", "answer"),
    [
        ("en", "Counted the features of schools. Layer 'schools' has 12 features."),
        ("de", "Objekte von schools gezählt. Der Layer 'schools' hat 12 Objekte."),
        ("zh_CN", "已统计schools的要素数量。 图层“schools”有 12 个要素。"),
    ],
)
def test_cli_library_answers_in_the_asked_language(tmp_path, locale, answer):
    # the GeoPandas half of the library (tools without a Processing counterpart) answers in the language too
    report = _cli(tmp_path, "how many schools are there?", "--engine", "geopandas", "--lang", locale)
    assert (report["status"], report["tier"], report["steps"][0]["tool"]) == ("ok", 0, "count_features"), report
    assert report["answer"] == answer
