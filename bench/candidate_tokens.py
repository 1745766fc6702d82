"""Tokens of a candidate search, one request for k variants against k separate requests, on the replayed local-model
repair run (tests/scripts/local_model_repair.json: its first two scripts fail, its next three are the alternatives);
counted by the scripted server with model_text/tokens.py. `python -m geoclerk.bench.candidate_tokens`."""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
from pathlib import Path

from .codegen_context import SAMPLE, SCRIPT

K = 3


def _fence(code: str) -> str:
    return f"```python\n{code}```"


def _run(work: Path, replies: list[dict], **extra) -> list[dict]:
    """The chat requests the pipeline sent for `replies` (three rounds at most)."""
    from geoclerk.agent.pipeline import run_request
    from geoclerk.tests.agent_toolkit import TinyRouter, config_for, tiny_registry
    from geoclerk.tests.scripted_server import ScriptedServer

    doc = json.loads(SCRIPT.read_text(encoding="utf-8"))
    data = work / "data"
    data.mkdir(parents=True, exist_ok=True)
    layers = [str(shutil.copy(SAMPLE / f"{name}.gpkg", data)) for name in ("schools", "districts", "houses")]
    with ScriptedServer(replies) as server:
        run_request(doc["request"], layers, work / "out", config_for(server, max_repairs=3, **extra),
                    registry=tiny_registry(), router=TinyRouter(route="codegen", confidence=0.9))  # fmt: skip
        return list(server.requests)


def _ask(messages_list: list[list[dict]], replies: list[str]) -> list[dict]:
    """Send each prompt to the scripted server with the real client; the usage of each."""
    from geoclerk.agent.llm import LLMClient
    from geoclerk.agent.providers import settings_from_config
    from geoclerk.tests.agent_toolkit import config_for
    from geoclerk.tests.scripted_server import ScriptedServer

    with ScriptedServer([{"content": r} for r in replies]) as server:
        client = LLMClient(settings_from_config(config_for(server)))
        out = []
        for messages in messages_list:
            reply = client.chat(messages)
            out.append({"prompt_tokens": reply.prompt_tokens, "completion_tokens": reply.completion_tokens})
        return out


def measure(work: Path) -> dict:
    from geoclerk.codegen.extract import extract_code

    doc = json.loads(SCRIPT.read_text(encoding="utf-8"))
    replies = doc["replies"]
    alternatives = [extract_code(r["content"]) for r in replies[2 : 2 + K]]
    one_reply = "\n".join(f"Script {i}:\n{_fence(c)}" for i, c in enumerate(alternatives, 1))
    # one request: the pipeline's own candidate search (its third request), then the winner's full run
    one = _ask([_run(work / "one", [*replies[:2], {"content": one_reply}])[2]["messages"]], [one_reply])
    # k requests: the plain repair prompt of the third round, asking for one alternative at a time
    repair = _run(work / "separate", [*replies[:2], replies[2]], codegen_candidates=0)[2]["messages"]
    blind, shown = [], []
    for i in range(K):
        ask = f"\n\nWrite alternative {i + 1} of {K}: one complete script by a different method."
        blind.append([*repair[:-1], {**repair[-1], "content": repair[-1]["content"] + ask}])
        earlier = "\n".join(_fence(c) for c in alternatives[:i])
        told = ask + (f" Not one of these earlier alternatives:\n{earlier}" if earlier else "")
        shown.append([*repair[:-1], {**repair[-1], "content": repair[-1]["content"] + told}])
    fenced = [_fence(c) for c in alternatives]
    rows = {"one request, k variants": one, "k requests, each shown the earlier ones": _ask(shown, fenced),
            "k requests, same prompt (no diversity asked)": _ask(blind, fenced)}  # fmt: skip
    return {name: _total(calls) for name, calls in rows.items()}


def _total(calls: list[dict]) -> dict:
    prompt = sum(c["prompt_tokens"] for c in calls)
    completion = sum(c["completion_tokens"] for c in calls)
    return {"requests": len(calls), "prompt": prompt, "completion": completion, "total": prompt + completion}


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="geoclerk-candidates-") as tmp:
        rows = measure(Path(tmp))
    print(f"candidate search, k = {K}, on the replayed local-model repair run (cl100k tokens)")
    print("strategy | requests | prompt | completion | total")
    for name, row in rows.items():
        print(f"{name} | {row['requests']} | {row['prompt']} | {row['completion']} | {row['total']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
