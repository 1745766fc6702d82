"""`make bench-blind`: the blind request sets (tests/data/blind*/) at tier 0, offline, graded by their value checks.

Each case is a request over the sample town (`s:`) or the set's own data (`b:`), with `expect: answer` and value
checks, or `expect: decline` where no correct no-model answer exists. A tier-0 answer is `right` when its checks
pass, `wrong` when they fail or the case should have been declined; `declined` is a needs_llm (or a refusal),
`error` a tier-0 run that stopped with an error (no result shown as if right). Precision = right / answered.
An `ask` (a closed question, issue 25) is a decline too: nothing was answered.

`--answer-from-expected` stands in for a user who knows what they meant: each case that ends in `ask` is run again
once per choice (`answers={id: choice}`), and each resumed result is graded by the case's own checks. The set has no
per-case annotation of the right choice, so the choice is inferred from the expected values: the case counts as
right with the user's choice when a choice passes its checks, and the results keep how many choices passed and how
many ran and failed (a choice that ran, passed no check, is a wrong answer the user could have been given).
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
SETS = ROOT / "tests" / "data"
OUT = Path(__file__).resolve().parent / "out"


def load_cases(set_dir: Path) -> list[dict]:
    cases = []
    for path in sorted(set_dir.glob("cases_*.yaml")):
        cases += yaml.safe_load(path.read_text(encoding="utf-8")) or []
    ids = [c["id"] for c in cases]
    dupes = {i for i in ids if ids.count(i) > 1}
    if dupes:
        raise ValueError(f"duplicate case ids in {set_dir}: {sorted(dupes)[:5]}")
    return cases


def prepare(set_dir: Path, work: Path) -> dict[str, Path]:
    """Copies of the sample data and of the set's own data (the shipped files are never touched)."""
    roots = {"s": work / "sample", "b": work / "own"}
    shutil.copytree(ROOT / "data" / "sample", roots["s"])
    own = set_dir / "data"
    if own.is_dir():
        shutil.copytree(own, roots["b"])
    return roots


def case_paths(case: dict, roots: dict[str, Path]) -> list[str]:
    out = []
    for ref in case.get("inputs") or []:
        prefix, name = ref.split(":", 1)
        out.append(str(roots[prefix] / name))
    return out


def grade(case: dict, report: dict, inputs: dict) -> tuple[str, list[str]]:
    """right | wrong | declined | error, with the reasons for wrong."""
    from .checkers import check_task

    status = report.get("status")
    if status in ("needs_llm", "rejected", "ask"):
        return "declined", []
    if status != "ok":
        return "error", [str(report.get("error"))[:200]]
    if case.get("expect") == "decline":
        return "wrong", ["answered at tier 0 where no correct no-model answer exists"]
    verdict = check_task({"checks": case.get("checks") or []}, report, inputs)
    if not case.get("checks"):
        return "wrong", ["case has no checks"]
    return ("right", []) if verdict.passed else ("wrong", verdict.failures)


def answer_from_expected(case, report, paths, out_dir, config, registry, router) -> dict:
    """Every choice of the case's question tried and graded by the case's checks (see the module docstring)."""
    from geoclerk.agent.pipeline import run_request

    from .suite import read_inputs

    question = (report.get("questions") or [{}])[0]
    graded = {}
    for n, choice in enumerate(question.get("choices") or []):
        again = run_request(
            case["request"], paths, out_dir.parent / f"{out_dir.name}-{n}", config, registry, router,
            answers={question["id"]: choice},
        ).to_json()  # fmt: skip
        graded[choice] = (grade(case, again, read_inputs(paths))[0], again.get("status"))
    verdicts = [v for v, _ in graded.values()]
    return {
        "question": question,
        "choices": {c: v for c, (v, _) in graded.items()},
        "with_choice": "right" if "right" in verdicts else ("wrong" if "wrong" in verdicts else "declined"),
        "wrong_choices": verdicts.count("wrong"),
    }


def run_set(
    set_dir: Path, only: str | None = None, progress=print, threshold: float | None = None, answer: bool = False
) -> dict:
    from geoclerk.agent.pipeline import AgentConfig, run_request
    from geoclerk.router import load_router

    config = AgentConfig(offline=True) if threshold is None else AgentConfig(offline=True, threshold=threshold)

    from .suite import make_registry, read_inputs

    cases = [c for c in load_cases(set_dir) if not only or re.search(only, c["id"])]
    work = Path(tempfile.mkdtemp(prefix="geoclerk-blind-"))
    roots = prepare(set_dir, work)
    registry = make_registry()
    router = load_router(registry)
    results = []
    try:
        for case in cases:
            paths = case_paths(case, roots)
            out_dir = work / "out" / case["id"]
            started = time.perf_counter()
            try:
                report = run_request(case["request"], paths, out_dir, config, registry, router)
                report = report.to_json()
                verdict, why = grade(case, report, read_inputs(paths))
            except Exception as exc:  # noqa: BLE001 - a crash is graded, never hides the rest of the set
                report, verdict, why = {"status": "crash", "tier": None}, "error", [f"{type(exc).__name__}: {exc}"]
            plan = (report.get("router") or {}).get("plan") or {}
            asked = {}
            if report.get("status") == "ask":
                asked = {"questions": report.get("questions")}
                if answer:
                    asked["answered"] = answer_from_expected(case, report, paths, out_dir, config, registry, router)
            results.append(
                {
                    **asked,
                    "id": case["id"],
                    "lang": case.get("lang", "en"),
                    "class": case.get("class", "plain"),
                    "expect": case.get("expect", "answer"),
                    "request": case["request"],
                    "verdict": verdict,
                    "why": why,
                    "status": report.get("status"),
                    "tier": report.get("tier"),
                    "tool": plan.get("tool"),
                    "missing": plan.get("missing"),
                    "error": report.get("error"),
                    "seconds": round(time.perf_counter() - started, 2),
                }
            )
            mark = {"right": "ok", "wrong": "WRONG", "declined": "-", "error": "err"}[verdict]
            progress(f"{case['id']:<10} {mark:<6} {case['request'][:70]}" + (f"  {why[0][:110]}" if why else ""))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return {"set": set_dir.name, "results": results, "summary": summarise(results)}


def _counts(rows: list[dict]) -> dict:
    n = len(rows)
    c = {v: sum(r["verdict"] == v for r in rows) for v in ("right", "wrong", "declined", "error")}
    answered = c["right"] + c["wrong"]
    return {
        "n": n,
        "answered": answered,
        **c,
        "precision": round(c["right"] / answered, 4) if answered else None,
        "right_share": round(c["right"] / n, 4) if n else 0.0,
    }


def summarise(results: list[dict]) -> dict:
    by_lang, by_class = defaultdict(list), defaultdict(list)
    for r in results:
        by_lang[r["lang"]].append(r)
        by_class[r["class"]].append(r)
    return {
        "all": _counts(results),
        "lang": {k: _counts(v) for k, v in sorted(by_lang.items())},
        "class": {k: _counts(v) for k, v in sorted(by_class.items())},
    }


def table(summary: dict) -> str:
    lines = ["| group | n | answered | right | wrong | declined | error | precision |", "|---" * 8 + "|"]
    rows = [("all", summary["all"])] + [(f"lang {k}", v) for k, v in summary["lang"].items()]
    rows += [(f"class {k}", v) for k, v in summary["class"].items()]
    for name, c in rows:
        prec = "–" if c["precision"] is None else f"{100 * c['precision']:.1f}%"
        lines.append(
            f"| {name} | {c['n']} | {c['answered']} | {c['right']} | {c['wrong']} | {c['declined']} | {c['error']} "
            f"| {prec} |"
        )
    return "\n".join(lines)


def asks_line(results: list[dict]) -> str:
    """How many declines are questions, and (with --answer-from-expected) how they end with the user's choice.

    Cases that expect an answer count as right when a choice passes their checks; a case that expects a decline has
    no correct no-model answer by its own definition, so every choice answered there is graded wrong (its ambiguity
    is what the question asks about)."""
    asks = [r for r in results if r["status"] == "ask"]
    line = f"asks: {len(asks)} of {sum(r['verdict'] == 'declined' for r in results)} declined"
    for expect in ("answer", "decline"):
        answered = [r["answered"] for r in asks if "answered" in r and r["expect"] == expect]
        if answered:
            ends = {v: sum(a["with_choice"] == v for a in answered) for v in ("right", "wrong", "declined")}
            line += (f"\n  expect {expect}: {len(answered)} asks; with the user's choice {ends['right']} right, "
                     f"{ends['wrong']} wrong, {ends['declined']} still declined")  # fmt: skip
    return line


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("sets", nargs="*", help="set folders under tests/data (default: every blind* folder)")
    ap.add_argument("--only", help="regex over case ids")
    ap.add_argument("--out", type=Path, help="JSON results file (default bench/out/blind_<set>.json)")
    ap.add_argument("--quiet", action="store_true")
    ap.add_argument("--threshold", type=float, help="tier-0 router confidence (default: the product's)")
    ap.add_argument(
        "--answer-from-expected",
        action="store_true",
        help="answer each question with every choice and grade each by the case's checks",
    )
    args = ap.parse_args(argv)
    sets = [SETS / s for s in args.sets] or sorted(p for p in SETS.glob("blind*") if p.is_dir())
    OUT.mkdir(parents=True, exist_ok=True)
    combined = {}
    for set_dir in sets:
        result = run_set(
            set_dir, args.only, progress=(lambda *_: None) if args.quiet else print, threshold=args.threshold,
            answer=args.answer_from_expected,
        )  # fmt: skip
        out = args.out or OUT / f"blind_{set_dir.name}.json"
        out.write_text(json.dumps(result, indent=1, ensure_ascii=False))
        print(f"\n## {set_dir.name} (tier 0, offline): {out}\n")
        print(table(result["summary"]))
        print(asks_line(result["results"]))
        wrong = [{"id": r["id"], "request": r["request"], "why": r["why"][:1]} for r in result["results"]]
        combined[set_dir.name] = {
            "summary": result["summary"],
            "wrong": [w for w, r in zip(wrong, result["results"]) if r["verdict"] == "wrong"],
        }
    if not args.out and not args.only:  # make bench reads bench/out/blind.json
        (OUT / "blind.json").write_text(json.dumps({"sets": combined}, indent=1, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
