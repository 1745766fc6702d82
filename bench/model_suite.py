"""`make bench-model`: the task suite through the real local model (make model), in each mode.

Modes (the GeoJSON Agents comparison and its hybrid, on one model):
- tier1: function calling alone (route forced to function, no tier 0)
- tier2: code generation alone (route forced to codegen, no tier 0)
- hybrid: the product as shipped: router, tier 0 with the model's confirmation, then tier 1 or 2
- planner: the hybrid with the Planner–Worker architecture instead of ReAct
- tier2-planner: code generation alone with the code planner (subtasks, a cell each) instead of the single agent, to
  compare with tier2 on the same tasks
- tier2-plain: tier2 without issue 15's steps 1-4 (inspection cells, the API check, the docs in repair messages, the
  candidate search), to measure what they add; tier2-planner is step 5

A CPU model takes a minute or more per request, so by default a stratified sample runs (every category of level 1,
all of level 2, two of level 3; `--all` for every task). Results are written after every task
(bench/out/model_suite.json) and the table replaces the 'Real local model' section of bench/report.md.
"""

from __future__ import annotations

import argparse
import json
import re
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path

from .suite import load_tasks, make_registry, prepare_data, run_task

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "bench" / "out" / "model_suite.json"
REPORT = ROOT / "bench" / "report.md"
MODES = {
    "tier1": {"tier0": False, "route": "function"},
    "tier2": {"tier0": False, "route": "codegen"},
    "hybrid": {"tier0": True, "route": "auto"},
    "planner": {"tier0": True, "route": "auto", "architecture": "planner"},
    "tier2-planner": {"tier0": False, "route": "codegen", "codegen_mode": "planner"},
    # tier 2 without the code-worker aids of issue 15 (inspection, API check, docs, candidates), to measure what they do
    "tier2-plain": {"tier0": False, "route": "codegen", "api_check": False, "api_docs": False, "codegen_candidates": 0,
                    "codegen_explore": False},
}
BEGIN, END = "<!-- model-suite:begin -->", "<!-- model-suite:end -->"


def sample(tasks: list[dict], per_category: int = 1, level3: int = 2) -> list[dict]:
    """One task per category of level 1, every level-2 chain, the first `level3` open-ended tasks."""
    picked, seen = [], set()
    for t in tasks:
        if t["level"] == 1 and t["category"] not in seen:
            seen.add(t["category"])
            picked.append(t)
    picked += [t for t in tasks if t["level"] == 2]
    picked += [t for t in tasks if t["level"] == 3][:level3]
    return picked


def summarise(rows: list[dict]) -> dict:
    out = {"n": len(rows), "passed": sum(r["passed"] for r in rows)}
    out["ok_but_wrong"] = sum(r["status"] == "ok" and not r["passed"] for r in rows)
    out["by_level"] = {
        str(lv): f"{sum(r['passed'] for r in rows if r['level'] == lv)}/{sum(r['level'] == lv for r in rows)}"
        for lv in sorted({r["level"] for r in rows})
    }
    tokens = [r["usage"].get("prompt_tokens", 0) + r["usage"].get("completion_tokens", 0) for r in rows]
    seconds = [r["timings_ms"].get("total", 0) / 1000 for r in rows]
    calls = [r["usage"].get("llm_calls", 0) for r in rows]  # rounds: every model call (inspections, repairs, …)
    out["median_calls"] = statistics.median(calls) if calls else 0
    out["median_tokens"] = int(statistics.median(tokens)) if tokens else 0
    out["median_seconds"] = round(statistics.median(seconds), 1) if seconds else 0.0
    out["tiers"] = {str(t): sum(r["tier"] == t for r in rows) for t in sorted({r["tier"] for r in rows}, key=str)}
    return out


HEADER = [
    "| code | mode | tasks | passed | ok but wrong | by level | median model calls | median tokens | median s "
    "| tiers used |",
    "|---|---|---|---|---|---|---|---|---|---|",
]
CALLS_COLUMN = 6  # added later: rows of earlier runs lack it and read '–' there


def code_version() -> str:
    """The commit the run measures, '+changes' when tracked files differ from it (rows say which code they measure)."""
    import subprocess

    def git(*args):
        return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=False).stdout.strip()

    rev = git("rev-parse", "--short", "HEAD") or "unknown"
    # bench/report.md is rewritten by the run itself (after each mode): not a change of the code measured
    changed = git("status", "--porcelain", "--untracked-files=no", "--", ".", ":!bench/report.md")
    return rev + ("+changes" if changed else "")


def rows_of(data: dict) -> list[str]:
    """One table row per mode of a run."""
    lines = []
    for mode, s in data["summaries"].items():
        levels = ", ".join(f"L{k} {v}" for k, v in s["by_level"].items())
        tiers = ", ".join(f"{k}: {v}" for k, v in s["tiers"].items())
        calls = f"{s['median_calls']:g}" if "median_calls" in s else "–"
        lines.append(
            f"| {data.get('code', '?')} | {mode} | {s['n']} | {s['passed']} | {s['ok_but_wrong']} | {levels} | "
            f"{calls} | {s['median_tokens']} | {s['median_seconds']} | {tiers} |"
        )
    return lines


def table(data: dict) -> str:
    return "\n".join(HEADER + rows_of(data))


def failure_lines(data: dict) -> list[str]:
    out = []
    for mode, rows in data["results"].items():
        for r in rows:
            if not r["passed"]:
                why = "; ".join(r["failures"])[:150] or str(r.get("error"))[:150]
                out.append(f"- {data.get('code', '?')} {mode} {r['id']}: {r['status']} (tier {r['tier']}): {why}")
    return out


def merge_section(old: str, data: dict) -> list[str]:
    """The section's table and failure lines: this run's first, then every earlier run's, except earlier lines of
    the same code and mode (a re-run replaces them)."""
    replaced = {(data.get("code", "?"), mode) for mode in data["summaries"]}
    rows, fails = [], []
    columns = len(HEADER[0].strip("|").split("|"))
    for line in old.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("| ") and len(cells) == columns - 1 and cells[0] != "code":  # a row from before the column
            cells.insert(CALLS_COLUMN, "–")
            line = "| " + " | ".join(cells) + " |"
        if line.startswith("| ") and len(cells) == columns and cells[0] != "code":
            if (cells[0], cells[1]) not in replaced:
                rows.append(line)
        elif line.startswith("- ") and len(line.split()) > 3 and (line.split()[1], line.split()[2]) not in replaced:
            fails.append(line)
    return HEADER + rows_of(data) + rows + [""] + failure_lines(data) + fails


def write_report_section(data: dict) -> None:
    text = REPORT.read_text(encoding="utf-8") if REPORT.exists() else "# GeoClerk benchmark report\n"
    old = text[text.index(BEGIN) : text.index(END)] if BEGIN in text else ""
    body = [
        BEGIN,
        "## Real local model (`make bench-model`)",
        "",
        f"{data['model']} through `llama-server --jinja` on this machine (one generation thread). Each row is one run "
        f"of one mode at the commit in `code`; the latest, {data['date']}: {len(data['tasks'])} tasks: "
        f"{', '.join(data['tasks'])}.",
        "",
        *merge_section(old, data),
        END,
    ]
    if BEGIN in text:
        text = text[: text.index(BEGIN)] + "\n".join(body) + text[text.index(END) + len(END) :]
    else:
        text = text.rstrip("\n") + "\n\n" + "\n".join(body) + "\n"
    REPORT.write_text(text, encoding="utf-8")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--modes", default="tier1,tier2,hybrid", help=f"comma-separated, of {', '.join(MODES)}")
    ap.add_argument("--only", help="regex over task ids (instead of the sample)")
    ap.add_argument("--all", action="store_true", help="every task of the suite")
    ap.add_argument("--model", help="a GGUF file (default: the one `make model` made)")
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--report-from", type=Path, nargs="+", help="only write bench/report.md from these result files")
    args = ap.parse_args(argv)
    if args.report_from:  # a run stopped early, or runs of several modes: their tables without running anything
        for path in args.report_from:
            data = json.loads(path.read_text(encoding="utf-8"))
            data["summaries"] = {mode: summarise(rows) for mode, rows in data["results"].items() if rows}
            write_report_section(data)
        return 0
    from geoclerk.agent.local_model import LocalModelServer, default_model
    from geoclerk.cli.main import _raise_terminated
    from geoclerk.router import load_router

    signal.signal(signal.SIGTERM, _raise_terminated)  # `kill`: unwind, so llama-server is stopped, not left running

    tasks = load_tasks()
    tasks = [t for t in tasks if re.search(args.only, t["id"])] if args.only else tasks if args.all else sample(tasks)
    modes = [m.strip() for m in args.modes.split(",") if m.strip()]
    work = Path(tempfile.mkdtemp(prefix="geoclerk-bench-model-"))
    roots = prepare_data(work)
    registry = make_registry()
    router = load_router(registry)
    data = {
        "code": code_version(),
        "model": Path(args.model or default_model()).name,
        "date": time.strftime("%Y-%m-%d"),
        "tasks": [t["id"] for t in tasks],
        "results": {},
        "summaries": {},
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with LocalModelServer(model=args.model) as server:
        for mode in modes:
            # a 6k-token prompt on one thread of a busy machine took over 300 s: a timeout is not the model's failure
            model_args = {"base_url": server.base_url, "model": "local", "api_key": "none", "timeout_s": 900.0}
            model_args.update(MODES[mode])
            rows = data["results"].setdefault(mode, [])
            for task in tasks:
                row = run_task(task, "model", roots, registry, router, work / mode, model_args=model_args)
                rows.append(row)
                data["summaries"][mode] = summarise(rows)
                args.out.write_text(json.dumps(data, indent=1, ensure_ascii=False, default=str))
                mark = "pass" if row["passed"] else "FAIL"
                secs = row["timings_ms"].get("total", 0) / 1000
                line = f"[{mode}] {task['id']:<30} {row['status']:<9} tier {row['tier']} {mark} {secs:6.1f}s"
                print(line, flush=True)
    write_report_section(data)
    print(table(data))
    return 0


if __name__ == "__main__":
    sys.exit(main())
