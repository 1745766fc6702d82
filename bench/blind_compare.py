"""Two runs of the blind sets compared case by case: `python -m geoclerk.bench.blind_compare OLD_DIR NEW_DIR`.

Each folder holds `blind_<set>.json` files as `python -m geoclerk.bench.blind SET --out DIR/blind_SET.json` writes
them. Prints, per set, the cases whose verdict, status or tool changed, and the new totals; the last line counts the
right answers lost (right → declined, wrong or error), which a reading change must keep at 0.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def compare(old: Path, new: Path, fields=("verdict", "status", "tool")) -> tuple[list[str], int]:
    lines, lost = [], 0
    for before_file in sorted(old.glob("blind_*.json")):
        after_file = new / before_file.name
        if not after_file.exists():
            lines.append(f"{before_file.stem}: not in {new}")
            continue
        before = {r["id"]: r for r in json.loads(before_file.read_text(encoding="utf-8"))["results"]}
        after_run = json.loads(after_file.read_text(encoding="utf-8"))
        after = {r["id"]: r for r in after_run["results"]}
        changed = []
        for case, b in before.items():
            a = after.get(case, {})
            diff = {f: f"{b.get(f)} -> {a.get(f)}" for f in fields if b.get(f) != a.get(f)}
            if diff:
                changed.append(f"    {case} {diff}")
            if b.get("verdict") == "right" and a.get("verdict") != "right":
                lost += 1
        total = after_run["summary"]["all"]
        lines.append(
            f"{before_file.stem}: {len(changed)} changed; answered {total['answered']}, right {total['right']}, "
            f"wrong {total['wrong']}"
        )
        lines.extend(changed)
    return lines, lost


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("old", type=Path)
    ap.add_argument("new", type=Path)
    args = ap.parse_args(argv)
    lines, lost = compare(args.old, args.new)
    print("\n".join(lines))
    print(f"right answers lost: {lost}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
