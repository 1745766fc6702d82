"""`make bench-model-verify`: draft and verify against the real local model (`make model` first).

For complete tier-0 plans of blind set 1 (all of them right at tier 0, by its value checks) the model should
accept; for the same plans with a planted error (the source CRS proposed as the target, the two layers of a
two-layer tool swapped) it should correct. Prints and writes bench/out/model_verify.json: accepted / corrected /
rejected / unclear per probe, median seconds and tokens per confirmation.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace

import yaml

ROOT = Path(__file__).resolve().parent.parent
OUT = Path(__file__).resolve().parent / "out" / "model_verify.json"


def planted(plan, infos, folded_request: str):
    """The plan with one realistic error, or None when no error of the two kinds fits it."""
    from geoclerk.function_lib.traits import traits_of
    from geoclerk.reading.crs import crs_roles

    params = dict(plan.params)
    if "crs" in params:
        source = crs_roles(folded_request)[0] or next((la.crs for la in infos if la.name == params.get("layer")), None)
        if source and source != params["crs"]:
            return replace(plan, params={**params, "crs": source}), "crs"
    names = [k for k, v in params.items() if any(la.name == v for la in infos)]
    if "two_layers" in traits_of(plan.tool) and len(names) == 2:
        a, b = names
        return replace(plan, params={**params, a: params[b], b: params[a]}), "roles"
    return None


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--limit", type=int, default=40, help="plans to probe (spread over the languages)")
    ap.add_argument("--model", help="a GGUF file (default: the one `make model` made)")
    ap.add_argument("--planted-only", action="store_true", help="only plans an error can be planted in (CRS, roles)")
    args = ap.parse_args(argv)
    from geoclerk.agent.local_model import LocalModelServer
    from geoclerk.agent.pipeline import AgentConfig
    from geoclerk.agent.report import Report
    from geoclerk.agent.tiers import make_client
    from geoclerk.agent.verify import verify_plan
    from geoclerk.function_lib import load_registry
    from geoclerk.function_lib.context import RunContext
    from geoclerk.function_lib.describe import describe_path
    from geoclerk.router import load_router

    results = json.loads((ROOT / "tests/data/blind1/results/after.json").read_text())["results"]
    right = {r["id"] for r in results if r["verdict"] == "right"}
    cases = []
    for path in sorted((ROOT / "tests/data/blind1").glob("cases_*.yaml")):
        cases += [c for c in yaml.safe_load(path.read_text(encoding="utf-8")) if c["id"] in right]
    registry = load_registry()
    router = load_router(registry)
    roots = {"s": ROOT / "data/sample", "b": ROOT / "tests/data/blind1/data"}
    if args.planted_only:
        keep = []
        for case in cases:
            infos = [describe_path(str(roots[r[0]] / r[2:])) for r in case["inputs"]]
            plan = router.route(case["request"], infos).plan
            if plan is not None and planted(plan, infos, case["request"]):
                keep.append(case)
        cases = keep
    by_lang: dict[str, list] = {}
    for c in cases:
        by_lang.setdefault(c["lang"], []).append(c)
    picked = []
    while len(picked) < args.limit and any(by_lang.values()):
        for lang in sorted(by_lang):
            if by_lang[lang] and len(picked) < args.limit:
                picked.append(by_lang[lang].pop(0))
    rows = []
    with LocalModelServer(model=args.model) as server:
        config = AgentConfig(base_url=server.base_url, model="local", api_key="none", timeout_s=300)
        client = make_client(config)
        ctx = RunContext(OUT.parent / "model_verify_work")
        for case in picked:
            infos = [describe_path(str(roots[r[0]] / r[2:])) for r in case["inputs"]]
            decision = router.route(case["request"], infos)
            probes = [("as read", decision.plan, "accepted")]
            bad = planted(decision.plan, infos, case["request"])
            if bad:
                probes.append((f"planted {bad[1]}", bad[0], "corrected"))
            for probe, plan, wanted in probes:
                report = Report(request=case["request"])
                t0 = time.perf_counter()
                try:
                    verdict = verify_plan(case["request"], plan, decision, infos, registry, ctx, report, client)
                    kind = verdict.kind
                    fixed = (
                        kind == "corrected"
                        and verdict.tool == decision.plan.tool
                        and all(str(verdict.args.get(k)) == str(v) for k, v in decision.plan.params.items())
                    )
                except Exception as exc:  # noqa: BLE001 - a failed call is a result of its own
                    kind, fixed, verdict = "failed", False, SimpleNamespace(text=str(exc)[:120])
                seconds = time.perf_counter() - t0
                tokens = report.usage.prompt_tokens + report.usage.completion_tokens
                row = {"id": case["id"], "lang": case["lang"], "probe": probe, "wanted": wanted, "kind": kind}
                rows.append({**row, "fixed_to_the_reading": fixed, "seconds": round(seconds, 1), "tokens": tokens})
                print(f"{case['id']:<8} {probe:<15} {kind:<10} {seconds:5.1f}s {tokens:5d} tok  {case['request'][:60]}")
    summary = {}
    for probe in sorted({r["probe"] for r in rows}):
        part = [r for r in rows if r["probe"] == probe]
        counts = {
            k: sum(r["kind"] == k for r in part) for k in ("accepted", "corrected", "rejected", "unclear", "failed")
        }
        summary[probe] = {
            "n": len(part),
            **counts,
            "corrected_to_the_right_plan": sum(r["fixed_to_the_reading"] for r in part),
            "median_seconds": round(statistics.median(r["seconds"] for r in part), 1),
            "median_tokens": int(statistics.median(r["tokens"] for r in part)),
        }
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps({"summary": summary, "rows": rows}, indent=1, ensure_ascii=False))
    print(json.dumps(summary, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
