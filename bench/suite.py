"""Run the task suite at tier 0 (no model), in replay (references served by the scripted server), or
against a real model (`--base-url/--model`), and grade every task with its checkers."""

from __future__ import annotations

import argparse
import json
import re
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
TASKS = Path(__file__).resolve().parent / "tasks.yaml"


def load_tasks(path: Path = TASKS) -> list[dict]:
    tasks = yaml.safe_load(path.read_text(encoding="utf-8"))
    ids = [t["id"] for t in tasks]
    if len(ids) != len(set(ids)):
        raise ValueError("duplicate task ids in tasks.yaml")
    return tasks


def prepare_data(work: Path) -> dict[str, Path]:
    """Sample data and generated datasets copied into work/ (the bundled files are never touched)."""
    from .datasets import make_datasets

    sample = work / "sample"
    shutil.copytree(ROOT / "data" / "sample", sample, dirs_exist_ok=True)
    generated = make_datasets(work / "generated")
    return {"s": sample, "g": generated["parcels"].parent}


def input_paths(task: dict, roots: dict[str, Path]) -> list[str]:
    paths = []
    for ref in task["inputs"]:
        prefix, name = ref.split(":", 1)
        paths.append(str(roots[prefix] / name))
    return paths


def read_inputs(paths: list[str]) -> dict:
    """Inputs by stem for the checkers' expressions (vectors as GeoDataFrames, tables without geometry as
    DataFrames, rasters as paths), read as the product reads them."""
    from geoclerk.function_lib.tables import read_input

    data = {}
    for path in paths:
        stem = Path(path).stem
        data[stem] = path if path.endswith((".tif", ".tiff")) else read_input(path)
    return data


def make_registry():
    """The registry the CLI uses: Processing tools bound when QGIS starts here."""
    from geoclerk.cli.main import _registry_for

    return _registry_for("auto")


# -- replay ----------------------------------------------------------------------------------
def replay_script(task: dict):
    """A reply function for the scripted server that plays the task's reference solution."""
    if task["route"] == "codegen":
        code_reply = {"content": "```python\n" + task["code"] + "```"}
        return lambda body: code_reply
    chain = task["chain"]

    def reply(body: dict) -> dict:
        results = [m for m in body.get("messages", []) if m.get("role") == "tool"]
        done = [m for m in results if _tool_ok(m)]
        if results and not _tool_ok(results[-1]) and task.get("expect_status"):
            # The reference outcome is a refusal: a careful model gives up with the tool's reason.
            reason = json.loads(results[-1]["content"]).get("error", "the tool failed")
            return {"tool_calls": [{"name": "reject_task", "arguments": {"reason": reason}}]}
        step = len(done)
        if step >= len(chain):
            return {"content": "Done: " + (_last_summary(done) or "the result layer is ready.")}
        produced = [_new_layer(m) for m in done]
        params = json.loads(json.dumps(chain[step]["params"]))
        for key, value in params.items():
            if isinstance(value, str) and re.fullmatch(r"\$\d+", value):
                params[key] = produced[int(value[1:]) - 1]
        return {"tool_calls": [{"name": chain[step]["tool"], "arguments": params}]}

    return reply


def _tool_ok(message: dict) -> bool:
    try:
        return bool(json.loads(message.get("content") or "{}").get("ok"))
    except ValueError:
        return False


def _new_layer(message: dict) -> str | None:
    try:
        layers = json.loads(message.get("content") or "{}").get("new_layers") or []
    except ValueError:
        return None
    vectors = [x["name"] for x in layers if x.get("kind") == "vector"]
    return vectors[0] if vectors else None


def _last_summary(tool_messages: list[dict]) -> str:
    try:
        return json.loads(tool_messages[-1]["content"]).get("summary", "") if tool_messages else ""
    except ValueError:
        return ""


# -- running ---------------------------------------------------------------------------------
def run_task(task: dict, mode: str, roots, registry, router, out_root: Path, server=None, model_args=None) -> dict:
    from geoclerk.agent.pipeline import AgentConfig, run_request

    paths = input_paths(task, roots)
    out_dir = out_root / mode / task["id"]
    if out_dir.exists():
        shutil.rmtree(out_dir)
    if mode == "tier0":
        config = AgentConfig(offline=True)
    elif mode == "replay":
        server.script = [replay_script(task)] * 12
        config = AgentConfig(
            base_url=server.url, model="replay", api_key="replay-key", tier0=False, route=task["route"]
        )
    else:
        config = AgentConfig(**{"tier0": True, **model_args})
    started = time.perf_counter()
    report = run_request(task["request"], paths, out_dir, config, registry=registry, router=router).to_json()
    report["timings_ms"].setdefault("total", (time.perf_counter() - started) * 1000)
    from .checkers import check_task

    verdict = check_task(task, report, read_inputs(paths))
    return {
        "id": task["id"],
        "category": task["category"],
        "level": task["level"],
        "route": task["route"],
        "status": report["status"],
        "tier": report["tier"],
        "passed": verdict.passed,
        "failures": verdict.failures,
        "timings_ms": report["timings_ms"],
        "usage": report["usage"],
        "outputs": report["outputs"],
        "error": report["error"],
        "steps": report.get("steps") or [],  # the code or calls that ran: why a model run failed, read afterwards
    }


def summarise(results: list[dict], mode: str) -> dict:
    n = len(results)
    summary = {"mode": mode, "tasks": n, "passed": sum(r["passed"] for r in results)}
    if mode == "tier0":
        ran = [r for r in results if r["status"] != "needs_llm"]
        summary["ran_without_model"] = len(ran)
        summary["solved_without_model"] = sum(r["passed"] for r in ran)
        summary["share_solved_without_model"] = summary["solved_without_model"] / n if n else 0.0
        summary["tier0_precision"] = (sum(r["passed"] for r in ran) / len(ran)) if ran else 1.0
    stages = {}
    for r in results:
        for k, v in r["timings_ms"].items():
            stages.setdefault(k, []).append(v)
    summary["latency_ms_median"] = {k: round(statistics.median(v), 2) for k, v in stages.items()}
    return summary


def run_suite(modes: list[str], out_root: Path, only: str | None = None, model_args=None, progress=print) -> dict:
    tasks = [t for t in load_tasks() if not only or re.search(only, t["id"])]
    work = Path(tempfile.mkdtemp(prefix="geoclerk-bench-"))
    roots = prepare_data(work)
    registry = make_registry()
    from geoclerk.router import load_router

    router = load_router(registry)
    results: dict[str, list] = {}
    server = None
    try:
        if "replay" in modes:
            sys.path.insert(0, str(ROOT / "tests"))
            from scripted_server import ScriptedServer

            server = ScriptedServer().start()
        for mode in modes:
            results[mode] = []
            for task in tasks:
                result = run_task(task, mode, roots, registry, router, out_root, server, model_args)
                results[mode].append(result)
                mark = "pass" if result["passed"] else ("skip" if result["status"] == "needs_llm" else "FAIL")
                progress(
                    f"[{mode}] {task['id']:<32} {result['status']:<9} {mark}"
                    + ("" if result["passed"] else f"  {'; '.join(result['failures'])[:160]}")
                )
    finally:
        if server is not None:
            server.stop()
        shutil.rmtree(work, ignore_errors=True)
    return {
        "summaries": {m: summarise(r, m) for m, r in results.items()},
        "results": results,
        "categories": sorted({t["category"] for t in tasks}),
        "levels": sorted({t["level"] for t in tasks}),
    }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--mode", action="append", choices=["tier0", "replay", "model"])
    parser.add_argument("--only", help="regex on task ids")
    parser.add_argument("--base-url")
    parser.add_argument("--model")
    parser.add_argument("--out", default=str(ROOT / "bench" / "out"))
    args = parser.parse_args(argv)
    modes = args.mode or ["tier0", "replay"]
    model_args = None
    if "model" in modes:
        if not (args.base_url and args.model):
            parser.error("--mode model needs --base-url and --model")
        model_args = {"base_url": args.base_url, "model": args.model}
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    data = run_suite(modes, out / "suite", args.only, model_args)
    (out / "suite.json").write_text(json.dumps(data, indent=1, default=str))
    for summary in data["summaries"].values():
        print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
