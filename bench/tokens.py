"""`make bench-tokens`: replay reference chains and code through the scripted server; tokens per request and route."""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SUITE = Path(__file__).resolve().parent / "tokens_suite.json"
SAMPLE = ROOT / "data" / "sample"
OUT = Path(__file__).resolve().parent / "out" / "tokens.json"
TARGETS = {"function": 6000, "codegen": 12000}


def _last_layer(body: dict) -> str | None:
    """The newest result layer named in the conversation so far (what a model would refer to)."""
    for msg in reversed(body.get("messages", [])):
        content = msg.get("content") or ""
        if msg.get("role") not in ("tool", "user") or "new_layers" not in content:
            continue
        try:
            data = json.loads(content.split(": ", 1)[1] if content.startswith("Result of ") else content)
        except (ValueError, IndexError):
            continue
        if data.get("new_layers"):
            return data["new_layers"][-1]["name"]
    return None


def _call(tool: str, params: dict):
    """A reply step that calls `tool`, with '$last' replaced by the newest result layer."""

    def step(body: dict) -> dict:
        last = _last_layer(body)
        args = {k: (last if v == "$last" else v) for k, v in params.items()}
        return {"tool_calls": [{"name": tool, "arguments": args}]}

    return step


def function_script(task: dict) -> list:
    return [_call(tool, params) for tool, params in task["chain"]] + [{"content": task["answer"]}]


def planner_script(task: dict) -> list:
    """The Planner looks at the first layer, hands the whole request to the Worker, then ends."""
    first = Path(task["inputs"][0]).stem
    return [
        {"tool_calls": [{"name": "layer_metadata", "arguments": {"layer": first}}]},
        {"tool_calls": [{"name": "assign_subtask", "arguments": {"subtask": task["request"]}}]},
        *function_script(task),
        {"content": f"END: {task['answer']}"},
    ]


def codegen_script(task: dict) -> list:
    """The reference code, after a failing first attempt when the task has one (a repair round)."""
    attempts = ([task["first"]] if task.get("first") else []) + [task["code"]]
    return [{"content": f"```python\n{code}```"} for code in attempts]


def run_task(task: dict, route: str, architecture: str, registry, router, work: Path) -> dict:
    """Serve one request through the real pipeline against the scripted server; what was sent and received."""
    from geoclerk.agent.pipeline import AgentConfig, run_request
    from geoclerk.model_text.tokens import count_messages
    from geoclerk.tests.scripted_server import ScriptedServer

    if route == "codegen":
        script = codegen_script(task)
    else:
        script = planner_script(task) if architecture == "planner" else function_script(task)
    with ScriptedServer(script) as server:
        config = AgentConfig(base_url=server.url, model="scripted", api_key="bench-key", route=route, tier0=False)
        config.architecture = architecture
        config.max_retries = 0
        inputs = [str(SAMPLE / name) for name in task["inputs"]]
        t0 = time.perf_counter()
        report = run_request(task["request"], inputs, work / f"{task['id']}-{architecture}", config, registry, router)
        wall = time.perf_counter() - t0
        sent = sum(count_messages(r["messages"], r.get("tools")) for r in server.requests)
        offered = [t["function"]["name"] for t in (server.requests[0].get("tools") or [])] if server.requests else []
    wanted = [tool for tool, _ in task.get("chain", [])]
    return {
        "id": task["id"],
        "request": task["request"],
        "route": route,
        "architecture": architecture if route == "function" else "-",
        "status": report.status,
        "tier": report.tier,
        "llm_calls": report.usage.llm_calls,
        "sent": sent,
        "received": report.usage.completion_tokens,
        "reported_prompt": report.usage.prompt_tokens,
        "total": sent + report.usage.completion_tokens,
        "steps_ok": sum(1 for s in report.steps if "tool" in s or s.get("ok")),
        "tools_offered": all(t in offered for t in wanted) if route == "function" and architecture == "react" else None,
        "wall_s": round(wall, 2),
        "error": report.error,
    }


def summarise(rows: list[dict]) -> dict:
    groups: dict[str, list[dict]] = {}
    for row in rows:
        key = row["route"] if row["route"] == "codegen" else f"function/{row['architecture']}"
        groups.setdefault(key, []).append(row)
    summary = {}
    for key, items in groups.items():
        totals = [r["total"] for r in items]
        summary[key] = {
            "requests": len(items),
            "ok": sum(r["status"] == "ok" for r in items),
            "median_total": statistics.median(totals),
            "max_total": max(totals),
            "median_sent": statistics.median(r["sent"] for r in items),
            "median_received": statistics.median(r["received"] for r in items),
            "median_llm_calls": statistics.median(r["llm_calls"] for r in items),
            "target_median": TARGETS["codegen" if key == "codegen" else "function"],
        }
        summary[key]["meets_target"] = summary[key]["median_total"] < summary[key]["target_median"]
    return summary


def print_table(rows: list[dict], summary: dict) -> None:
    print(
        f"{'id':<5} {'route':<9} {'arch':<8} {'status':<8} {'calls':>5} {'sent':>7} {'recv':>6} {'total':>7}  request"
    )
    for r in rows:
        print(f"{r['id']:<5} {r['route']:<9} {r['architecture']:<8} {r['status']:<8} {r['llm_calls']:>5} "
              f"{r['sent']:>7} {r['received']:>6} {r['total']:>7}  {r['request'][:48]}")  # fmt: skip
    print()
    print(f"{'group':<17} {'n':>3} {'ok':>3} {'median':>7} {'max':>7} {'target':>7}  calls(median)")
    for key, s in summary.items():
        if "meets_target" not in s:  # the confirmation figure is printed on its own line
            continue
        mark = "ok" if s["meets_target"] else "MISSED"
        print(f"{key:<17} {s['requests']:>3} {s['ok']:>3} {s['median_total']:>7.0f} {s['max_total']:>7} "
              f"{'<' + str(s['target_median']):>7}  {s['median_llm_calls']:<4} {mark}")  # fmt: skip


def confirmation_tokens(registry, router) -> dict:
    """Tokens of the one-round confirmation of every complete tier-0 plan of the blind request sets (prompt with
    tool schemas, plus the model repeating the call), counted with the same tokenizer as the rest."""
    import statistics
    from types import SimpleNamespace

    import yaml
    from geoclerk.agent.verify import verify_messages
    from geoclerk.function_lib.describe import describe_path
    from geoclerk.model_text.tokens import count_messages, count_reply

    counts = []
    for folder in sorted((ROOT / "tests" / "data").glob("blind*")):
        roots = {"s": SAMPLE, "b": folder / "data"}
        for path in sorted(folder.glob("cases_*.yaml")):
            for case in yaml.safe_load(path.read_text(encoding="utf-8")) or []:
                paths = [roots[r.split(":", 1)[0]] / r.split(":", 1)[1] for r in case.get("inputs") or []]
                infos = [describe_path(str(p)) for p in paths]
                decision = router.route(case["request"], infos)
                plan = decision.plan
                if decision.route != "function" or plan is None or not plan.complete or decision.confidence < 0.7:
                    continue
                messages, tools = verify_messages(case["request"], plan, decision, infos, registry)
                call = [SimpleNamespace(name=plan.tool, arguments=json.dumps(plan.params, default=str))]
                counts.append(count_messages(messages, tools) + count_reply(None, call))
    if not counts:
        return {"n": 0, "median": None, "p90": None, "max": None}
    counts.sort()
    return {
        "n": len(counts),
        "median": int(statistics.median(counts)),
        "p90": counts[int(0.9 * (len(counts) - 1))],
        "max": counts[-1],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--only", help="comma-separated task ids")
    parser.add_argument("--no-planner", action="store_true", help="skip the Planner–Worker replay")
    parser.add_argument("--out", default=str(OUT))
    args = parser.parse_args(argv)
    from geoclerk.function_lib import load_registry
    from geoclerk.router import load_router

    suite = json.loads(SUITE.read_text())
    only = set(args.only.split(",")) if args.only else None
    registry = load_registry()
    router = load_router(registry)
    rows = []
    with tempfile.TemporaryDirectory(prefix="geoclerk-bench-tokens-") as tmp:
        work = Path(tmp)
        runs = [(t, "function", "react") for t in suite["function"]]
        if not args.no_planner:
            runs += [(t, "function", "planner") for t in suite["function"]]
        runs += [(t, "codegen", "react") for t in suite["codegen"]]
        for task, route, arch in runs:
            if only and task["id"] not in only:
                continue
            rows.append(run_task(task, route, arch, registry, router, work))
    summary = summarise(rows)
    summary["confirmation"] = confirmation_tokens(registry, router)
    print_table(rows, summary)
    c = summary["confirmation"]
    print(
        f"\ndraft-and-verify confirmation (one round, {c['n']} complete tier-0 plans of the blind sets): "
        f"median {c['median']} tokens, p90 {c['p90']}, max {c['max']} (target: median < 1,500)"
    )
    offered = [r["tools_offered"] for r in rows if r["tools_offered"] is not None]
    if offered:
        print(f"\nreference tools among the top-k shown: {sum(offered)}/{len(offered)} requests")
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"summary": summary, "requests": rows}, indent=1, ensure_ascii=False))
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
