"""The code worker's prompt per repair round on a replayed run (tests/scripts/local_model_repair.json, on
the sample town's schools, districts and houses), now and as
the whole-history conversation sent before the context budget; `python -m geoclerk.bench.codegen_context`."""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
from pathlib import Path

SCRIPT = Path(__file__).resolve().parent.parent / "tests" / "scripts" / "local_model_repair.json"
SAMPLE = Path(__file__).resolve().parent.parent / "data" / "sample"
N_CTX = 8192  # the local model's server (agent/local_model.py)


def replay(work: Path, n_ctx: int = N_CTX) -> dict:
    """Run the replayed repair run through run_request against a scripted llama-server of `n_ctx` tokens.

    Returns the requests sent, the prompt tokens of each round as sent, and as the whole history would have been
    (the system prompt and request, then every earlier reply and its feedback without the summary lines)."""
    from geoclerk.agent.pipeline import run_request
    from geoclerk.model_text.tokens import count_messages
    from geoclerk.tests.agent_toolkit import TinyRouter, config_for, tiny_registry
    from geoclerk.tests.scripted_server import ScriptedServer

    doc = json.loads(SCRIPT.read_text(encoding="utf-8"))
    (work / "data").mkdir(parents=True, exist_ok=True)
    layers = [str(shutil.copy(SAMPLE / f"{name}.gpkg", work / "data")) for name in ("schools", "districts", "houses")]
    with ScriptedServer(doc["replies"]) as server:
        server.n_ctx = n_ctx
        report = run_request(doc["request"], layers, work / "out",
                             config_for(server), registry=tiny_registry(),
                             router=TinyRouter(route="codegen", confidence=0.9))  # fmt: skip
        requests = list(server.requests)
    sent = [count_messages(r["messages"]) for r in requests]
    history = list(requests[0]["messages"])
    whole = [count_messages(history)]
    for i, request in enumerate(requests[1:], start=1):
        feedback = dict(request["messages"][-1])
        lines = feedback["content"].split("\n")
        if lines and lines[0].startswith("Earlier attempts"):  # the summary block is the budget's, not the history's
            lines = lines[next(j for j, line in enumerate(lines) if line.startswith("Attempt ")) :]
        feedback["content"] = "\n".join(lines)
        history += [{"role": "assistant", "content": doc["replies"][i - 1]["content"]}, feedback]
        whole.append(count_messages(history))
    return {"report": report, "requests": requests, "sent": sent, "whole": whole, "n_ctx": n_ctx}


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="geoclerk-context-") as tmp:
        data = replay(Path(tmp))
    from geoclerk.codegen.budget import prompt_budget

    print(f"replayed repair run, {len(data['sent'])} rounds, n_ctx {data['n_ctx']}, "
          f"prompt budget {prompt_budget(data['n_ctx'])} tokens (cl100k)")  # fmt: skip
    print("round | whole history | sent now")
    for i, (whole, sent) in enumerate(zip(data["whole"], data["sent"]), start=1):
        over = " (over n_ctx)" if whole > data["n_ctx"] else ""
        print(f"{i:>5} | {whole:>13}{over} | {sent:>8}")
    print(f"total | {sum(data['whole']):>13} | {sum(data['sent']):>8}")
    print(f"status {data['report'].status}: {data['report'].error}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
