"""Validate blind12: regenerate the YAML from cases_def.py, grade every reference result (must pass) and every
misreading (must fail) with the product's bench/checkers.py check_task.

    nice -n 10 /work/main/.venv/bin/python validate.py            # check (YAML must be identical)
    nice -n 10 /work/main/.venv/bin/python validate.py --write    # rewrite cases_*.yaml
"""
import importlib.util
import sys
from collections import Counter
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
# the product's checkers: in the repo (tests/data/blind12/ -> ../../../bench/checkers.py; else the copy in /work/blindkit), else the work tree
CHECKERS = next((p for p in (HERE.parents[2] / "bench" / "checkers.py", Path("/work/main/bench/checkers.py"))
                 if p.exists()), Path("/work/main/bench/checkers.py")) if len(HERE.parents) > 2 else Path("/work/main/bench/checkers.py")
sys.path.insert(0, str(HERE))

spec = importlib.util.spec_from_file_location("checkers", CHECKERS)
checkers = importlib.util.module_from_spec(spec)
sys.modules["checkers"] = checkers
spec.loader.exec_module(checkers)

import cases_def  # noqa: E402


def build():
    per = {"en": [], "de": [], "zh": []}
    for c in cases_def.CASES:
        lst = per[c["lang"]]
        case = {"id": f"{c['lang']}{len(lst) + 1:03d}", "lang": c["lang"], "class": c["cls"], "request": c["request"],
                "inputs": c["inputs"], "expect": c["expect"]}
        if c["expect"] == "answer":
            case["checks"] = c["task"].checks
        else:
            case["why"] = c["why"]
        lst.append(case)
        c["id"] = case["id"]
    return per


def main():
    per = build()
    bad = []
    for lang, cases in per.items():
        text = yaml.safe_dump(cases, allow_unicode=True, sort_keys=False, width=120)
        path = HERE / f"cases_{lang}.yaml"
        if "--write" in sys.argv:
            path.write_text(text, encoding="utf-8")
        elif not path.exists() or path.read_text(encoding="utf-8") != text:
            bad.append(f"{path.name} differs from cases_def.py (run with --write)")
    n_ref = n_mis = 0
    no_mis = []
    for c in cases_def.CASES:
        if c["expect"] != "answer":
            assert c.get("why"), c["id"]
            continue
        task = c["task"]
        r = checkers.check_task({"checks": task.checks}, task.ref(), {})
        n_ref += 1
        if not r.passed:
            bad.append(f"{c['id']} reference FAILS: {r.failures}")
        if not task.mis:
            no_mis.append(c["id"])
        for label, rep in task.mis:
            n_mis += 1
            r = checkers.check_task({"checks": task.checks}, rep, {})
            if r.passed:
                bad.append(f"{c['id']} misreading '{label}' PASSES")
    cnt = Counter((c["cls"], c["lang"], c["expect"]) for c in cases_def.CASES)
    classes = sorted({k[0] for k in cnt})
    print("| class | en | de | zh | all | of which decline |")
    print("|---|---|---|---|---|---|")
    for cl in classes:
        row = [sum(v for k, v in cnt.items() if k[0] == cl and k[1] == lg) for lg in ("en", "de", "zh")]
        dec = sum(v for k, v in cnt.items() if k[0] == cl and k[2] == "decline")
        print(f"| {cl} | {row[0]} | {row[1]} | {row[2]} | {sum(row)} | {dec} |")
    tot = [len(per[lg]) for lg in ("en", "de", "zh")]
    ndec = sum(1 for c in cases_def.CASES if c["expect"] == "decline")
    print(f"| **all** | {tot[0]} | {tot[1]} | {tot[2]} | {sum(tot)} | {ndec} |")
    for b in bad:
        print("PROBLEM", b)
    if no_mis:
        print("answer cases without a misreading:", no_mis)
    print(f"{sum(tot)} cases, {sum(tot) - ndec} answer, {ndec} decline, {n_ref} reference gradings, "
          f"{n_mis} misreading gradings: {'OK' if not bad and not no_mis else 'FAILED'}")
    return 1 if bad or no_mis else 0


if __name__ == "__main__":
    sys.exit(main())
