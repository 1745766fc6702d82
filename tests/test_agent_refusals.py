"""A refusal in words ends as `rejected` with the model's reason, at tier 1 (ReAct, Planner) and tier 2; an answer
that mentions 'cannot' in passing stays an answer. Replies shaped like the local model's ('I reject the task.')."""

from __future__ import annotations

import pytest
from geoclerk.model_text.refusals import is_refusal, refusal_reason
from geoclerk.tests import agent_toolkit
from geoclerk.tests.agent_toolkit import TinyRouter, run

server, layers = agent_toolkit.server, agent_toolkit.layers  # fixtures

REFUSALS = [
    "I reject the task.",  # the local model's words on open-cafes-per-capita (tier 1 alone)
    "I'm sorry, but I cannot complete this request: there is no population layer.",
    "Sorry. I can't do that with the tools I have.",
    "**This request cannot be answered** from these layers.",
    "Unfortunately, I am unable to perform this task because the cafes layer is missing.",
    "I must decline: the data has no dates.",
    "<think>no cafe layer</think>I refuse to invent a result.",
    "Ich lehne die Aufgabe ab.",
    "Leider kann ich diese Aufgabe nicht ausführen, weil die Daten fehlen.",
    "Das ist mit diesen Daten nicht möglich.",
    "Diese Anfrage kann mit den Werkzeugen nicht beantwortet werden.",
    "Ich bin nicht in der Lage, die Einwohnerzahl zu berechnen.",
    "我拒绝这个任务。",
    "我无法完成这个任务，因为缺少人口数据。",
    "抱歉，我不能回答这个问题。",
    "该请求无法完成：没有咖啡馆图层。",
]

ANSWERS = [  # 'cannot' and the like in passing: a result was reported, so these are answers
    "The roads were clipped; I cannot draw a map here, but the layer roads_clip is saved.",
    "I could not find the field pop, so I used population. The total is 5,000.",
    "I cannot find a field named score; I used rating instead. The mean rating is 3.2.",
    "The total length is 12.3 km. The tool cannot write KML, so the result is GeoJSON.",
    "Done: 39 countries are in Europe. Note that I cannot verify the names.",
    "It is not possible to say more without a date field, but 12 houses are inside.",
    "Die Straßen wurden zugeschnitten; eine Karte kann ich nicht zeigen.",
    "Ich konnte das Feld nicht finden und habe pop verwendet: 5.000 Einwohner.",
    "Das ist nicht viel: 3 Häuser liegen im Puffer.",
    "Ich kann das nicht genau sagen, aber es sind etwa 5 Schulen.",
    "道路已裁剪，但无法显示地图。总长度为12.3公里。",
    "我无法找到字段pop，所以使用了population。总数是5000。",
    "缓冲区已创建，共4个。",
]


@pytest.mark.parametrize("text", REFUSALS)
def test_a_refusal_in_words_is_read_as_one(text):
    assert is_refusal(text)
    assert refusal_reason(text) and "<think>" not in refusal_reason(text)


@pytest.mark.parametrize("text", ANSWERS)
def test_cannot_in_passing_is_not_a_refusal(text):
    assert not is_refusal(text)
    assert refusal_reason(text) is None


@pytest.mark.parametrize(
    "reply",
    ["I reject the task.", "Ich lehne die Aufgabe ab, es gibt keine Cafés.", "我拒绝这个任务：没有咖啡馆图层。"],
)
def test_tier1_refusal_in_words_ends_rejected_with_its_reason(server, layers, tmp_path, reply):
    report = run(server, [{"content": reply}], layers, tmp_path, request="cafes per 1000 residents per district",
                 route="function")  # fmt: skip
    assert report.status == "rejected" and report.tier == 1
    assert report.answer == reply and report.error == f"The request was refused: {reply}"
    assert report.outputs == [] and report.steps == []
    assert len(server.requests) == 1  # not nudged to call a tool, not handed to tier 2


def test_tier1_answer_with_cannot_in_passing_stays_ok(server, layers, tmp_path):
    call = {"tool_calls": [{"name": "buffer", "arguments": {"layer": "schools", "distance": 100}}]}
    text = "Buffered the schools by 100 m; I cannot draw a map here, but schools_buffer is saved."
    report = run(server, [call, {"content": text}], layers, tmp_path, route="function")
    assert report.status == "ok" and report.answer == text
    assert len(report.outputs) == 1


def test_planner_refusal_in_words_ends_rejected(server, layers, tmp_path):
    reply = "END: I cannot do this task: there is no cafe layer."
    report = run(server, [{"content": reply}], layers, tmp_path, route="function", architecture="planner")
    assert report.status == "rejected"
    assert report.answer == "I cannot do this task: there is no cafe layer."


def test_tier2_refusal_in_words_ends_rejected_without_retries(server, layers, tmp_path):
    reply = "Leider kann ich diese Aufgabe nicht ausführen: es gibt keine Einwohnerdaten."
    report = run(server, [{"content": reply}], layers, tmp_path, router=TinyRouter(route="codegen", confidence=0.9),
                 request="Einwohner je Café")  # fmt: skip
    assert report.status == "rejected" and report.tier == 2
    assert report.answer == reply and reply in report.error
    assert len(server.requests) == 1 and report.outputs == []


def test_tier2_reply_without_code_that_is_no_refusal_is_repaired(server, layers, tmp_path):
    code = "```python\nimport geopandas as gpd\nprint(len(gpd.read_file('schools.gpkg')), 'schools')\n```"
    script = [{"content": "The schools layer cannot be plotted, so here is a count."}, {"content": code}]
    report = run(server, script, layers, tmp_path, router=TinyRouter(route="codegen", confidence=0.9),
                 request="how many schools are there")  # fmt: skip
    assert report.status == "ok" and report.answer == "5 schools"
    assert "no Python code" in server.requests[1]["messages"][-1]["content"]
