"""`make bench-faults`: the fault suite (bench/faults.yaml) through tier 2 with a scripted model that sends each
mistake, then the correct script; with and without the API check and the docs. Writes bench/report.md's section."""

from __future__ import annotations

import argparse
import json
import re
import shutil
import sys
import tempfile
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
FAULTS = ROOT / "bench" / "faults.yaml"
TASKS = ROOT / "bench" / "tasks.yaml"
SAMPLE = ROOT / "data" / "sample"
REPORT = ROOT / "bench" / "report.md"
TITLE = "## Fault suite (`make bench-faults`)"
CONFIGS = (("neither", False, False), ("docs", False, True), ("check", True, False), ("check + docs", True, True))
CAUGHT = "The script was checked against the installed libraries before running"


def load_faults(path: Path = FAULTS) -> list[dict]:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def _fence(code: str) -> dict:
    return {"content": f"```python\n{code}```"}


def run_fault(fault: dict, check: bool, docs: bool, sandbox, work: Path) -> dict:
    """One fault through run_request: the scripted model sends the mistake, then the correct script."""
    from geoclerk.agent.pipeline import run_request
    from geoclerk.tests.agent_toolkit import TinyRouter, config_for, tiny_registry
    from geoclerk.tests.scripted_server import ScriptedServer

    data = work / "data"
    data.mkdir(parents=True, exist_ok=True)
    layers = [str(shutil.copy(SAMPLE / name, data)) for name in fault["inputs"]]
    with ScriptedServer([_fence(fault["bad"]), _fence(fault["good"])]) as server:
        config = config_for(server, api_check=check, api_docs=docs, sandbox=sandbox)
        report = run_request(f"fault {fault['id']}", layers, work / "out", config, registry=tiny_registry(),
                             router=TinyRouter(route="codegen", confidence=0.9))  # fmt: skip
        feedback = server.requests[1]["messages"][-1]["content"] if len(server.requests) > 1 else ""
    caught = len(report.steps) > 1 and CAUGHT in feedback
    return {
        "id": fault["id"], "kind": fault["kind"], "caught": caught, "rounds": report.usage.llm_calls,
        "runs": len(report.steps) - (1 if caught else 0), "tokens": report.usage.prompt_tokens,
        "ok": report.status == "ok" and report.steps[-1]["code"].strip() == fault["good"].strip(),
        "wrong_accepted": report.status == "ok" and report.steps[-1]["code"].strip() == fault["bad"].strip(),
        "docs_tokens": _docs_tokens(feedback),
    }  # fmt: skip


def _docs_tokens(feedback: str) -> int:
    from geoclerk.codegen.docs_index import HEADER
    from geoclerk.model_text.tokens import count_text

    if HEADER not in feedback:
        return 0
    part = feedback.split(HEADER, 1)[1].split("\nFix the cause", 1)[0]
    return count_text(HEADER + part)


def false_positives(python: str) -> tuple[int, list[str]]:
    """The API check on correct scripts (the suite's fixes and the task suite's reference code, with their inputs
    in a work dir): (scripts checked, findings)."""
    from geoclerk.codegen import apicheck
    from geoclerk.function_lib.describe import describe_path

    scripts = [(f["good"], f["inputs"]) for f in load_faults()]
    for task in yaml.safe_load(TASKS.read_text(encoding="utf-8")):
        if task.get("code"):
            scripts.append((task["code"], [i.split(":", 1)[1] for i in task.get("inputs", []) if i.startswith("s:")]))
    findings = []
    with tempfile.TemporaryDirectory(prefix="geoclerk-fp-") as tmp:
        for number, (code, inputs) in enumerate(scripts):
            work = Path(tmp) / f"s{number}"
            work.mkdir()
            copies = {str(SAMPLE / n): str(shutil.copy(SAMPLE / n, work)) for n in inputs}
            infos = [describe_path(p) for p in copies]
            findings += [str(f) for f in apicheck.precheck(code, python, work, infos, copies)]
    return len(scripts), findings


def summarise(rows: list[dict]) -> dict:
    n = len(rows)
    return {
        "faults": n, "caught": sum(r["caught"] for r in rows), "runs": sum(r["runs"] for r in rows),
        "rounds": sum(r["rounds"] for r in rows), "tokens": sum(r["tokens"] for r in rows),
        "ok": sum(r["ok"] for r in rows), "wrong_accepted": sum(r["wrong_accepted"] for r in rows),
        "docs_tokens": sorted(r["docs_tokens"] for r in rows if r["docs_tokens"]),
    }  # fmt: skip


def run_suite(only: str | None = None, progress=print) -> dict:
    from geoclerk.codegen.sandbox import Sandbox

    faults = [f for f in load_faults() if not only or re.search(only, f["id"])]
    out = {"configs": {}, "rows": {}}
    with tempfile.TemporaryDirectory(prefix="geoclerk-faults-") as tmp, Sandbox(timeout=60) as sandbox:
        checked, findings = false_positives(sandbox.python)
        out["false_positives"] = {"scripts": checked, "findings": findings}
        for name, check, docs in CONFIGS:
            rows = [
                run_fault(f, check, docs, sandbox, Path(tmp) / f"{name}-{f['id']}".replace(" ", "")) for f in faults
            ]
            out["rows"][name] = rows
            out["configs"][name] = summarise(rows)
            progress(f"{name}: {out['configs'][name]}")
    return out


def section(data: dict) -> list[str]:
    fp = data["false_positives"]
    rows = data["rows"]["check + docs"]
    lines = [TITLE, "",
             f"{data['configs']['neither']['faults']} scripts with a mistake models make (bench/faults.yaml), each "
             "followed by the correct script from a scripted model, through tier 2 with the sandbox. "
             "The scripted model does not read the feedback, so rounds show where a mistake is stopped (before a run, "
             "by a run, or not at all), not whether the docs help a real model repair.", "",
             "| API check | docs | caught before running | sandbox runs | rounds (LLM calls) | prompt tokens "
             "| wrong result accepted | correct at the end |", "|---|---|---|---|---|---|---|---|"]  # fmt: skip
    for name, check, docs in CONFIGS:
        s = data["configs"][name]
        switches = f"| {'on' if check else 'off'} | {'on' if docs else 'off'} "
        lines.append(switches + f"| {s['caught']}/{s['faults']} | {s['runs']} | {s['rounds']} | {s['tokens']:,} "
                     f"| {s['wrong_accepted']} | {s['ok']} |")  # fmt: skip
    docs = data["configs"]["check + docs"]["docs_tokens"]
    if docs:
        lines += ["", f"Docs added to a repair message (cl100k tokens, {len(docs)} messages): median "
                  f"{docs[len(docs) // 2]}, max {docs[-1]}."]  # fmt: skip
    by_kind: dict[str, list[int]] = {}
    for r in rows:
        by_kind.setdefault(r["kind"], [0, 0])
        by_kind[r["kind"]][0] += r["caught"]
        by_kind[r["kind"]][1] += 1
    lines += ["", "Caught before running, by kind: " + ", ".join(f"{k} {c}/{n}" for k, (c, n) in by_kind.items()) + "."]
    missed = [r["id"] for r in rows if not r["caught"]]
    lines += [f"Not caught statically (a run shows them, or nothing does): {', '.join(missed)}.",
              f"False positives on correct scripts (the suite's fixes and the task suite's reference code): "
              f"{len(fp['findings'])} findings on {fp['scripts']} scripts.", ""]  # fmt: skip
    return lines


def write_section(data: dict) -> None:
    text = REPORT.read_text(encoding="utf-8") if REPORT.exists() else "# GeoClerk benchmark report\n"
    new = "\n".join(section(data))
    if TITLE in text:
        head, rest = text.split(TITLE, 1)
        after = rest.find("\n## ")
        text = head + new + (rest[after:] if after >= 0 else "")
    else:
        text = text.rstrip("\n") + "\n\n" + new
    REPORT.write_text(text.rstrip("\n") + "\n", encoding="utf-8")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--only", help="regex on fault ids")
    ap.add_argument("--json", type=Path, help="also write the results here")
    args = ap.parse_args(argv)
    data = run_suite(args.only)
    print("\n".join(section(data)))
    if args.json:
        args.json.write_text(json.dumps(data, indent=1), encoding="utf-8")
    if not args.only:
        write_section(data)
    return 0


if __name__ == "__main__":
    sys.exit(main())
