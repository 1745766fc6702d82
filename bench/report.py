"""Write bench/report.md from the collected benchmark data, with PNG charts for the figures."""

from __future__ import annotations

import shutil
from pathlib import Path

CHARTS = "charts"


def write_report(data: dict, target: Path, out: Path) -> None:
    charts = target.parent / CHARTS
    charts.mkdir(exist_ok=True)
    m = data["machine"]
    lines = [
        "# GeoClerk benchmark report",
        "",
        f"Made by `make bench` on {m['date']}: {m.get('cpu', '?')}, {m.get('cpus')} cores, "
        f"{m.get('memory_gib', '?')} GiB, {m['platform']}, Python {m['python']}.",
        "Versions: " + ", ".join(f"{k} {v}" for k, v in m["versions"].items()) + ".",
        f"Everything ran offline (no model; replay uses the scripted server) in {data['total_seconds']:.0f} s.",
        "",
        "| part | status | seconds |",
        "|---|---|---|",
    ]
    lines += [f"| {k} | {v['status']} | {v['seconds']} |" for k, v in data["runs"].items()]
    lines += _suite_section(data.get("suite"), charts)
    lines += _blind_section(data.get("blind"))
    for name, title in (
        ("router", "Router"),
        ("tokens", "Tokens per request"),
        ("sandbox", "Sandbox"),
        ("functions", "Function library scaling"),
    ):
        lines += _part_section(name, title, data.get(name), out, charts)
    lines += _kept_model_section(target)
    lines += _kept_scale_section(target)
    target.write_text("\n".join(lines) + "\n", encoding="utf-8")


def _kept_model_section(target: Path) -> list[str]:
    """The real-model section `make bench-model` wrote (slow to make, so kept across `make bench` runs)."""
    from .model_suite import BEGIN, END

    text = target.read_text(encoding="utf-8") if target.exists() else ""
    if BEGIN not in text or END not in text:
        return []
    return ["", text[text.index(BEGIN) : text.index(END) + len(END)]]


def _kept_scale_section(target: Path) -> list[str]:
    """The large-input section `make bench-scale` wrote (kept across `make bench` runs, like the model's)."""
    from .scale import BEGIN, END

    text = target.read_text(encoding="utf-8") if target.exists() else ""
    if BEGIN not in text or END not in text:
        return []
    return ["", text[text.index(BEGIN) : text.index(END) + len(END)]]


def _blind_section(blind: dict | None) -> list[str]:
    """The blind request sets at tier 0: answered / right / wrong / declined per language and class."""
    from .blind import table

    lines = ["", "## Blind request sets (tier 0, offline)", ""]
    if not blind:
        return lines + ["(the blind sets did not run)"]
    for name, part in blind["sets"].items():
        lines += [f"### {name}", "", table(part["summary"]), ""]
        lines += [f"- wrong: {w['id']} {w['request']!r}: {'; '.join(w['why'])[:160]}" for w in part["wrong"]]
    return lines


def _suite_section(suite: dict | None, charts: Path) -> list[str]:
    lines = ["", "## Task suite", ""]
    if not suite:
        return lines + ["(the suite did not run)"]
    sums = suite["summaries"]
    t0, rp = sums.get("tier0"), sums.get("replay")
    if t0:
        lines += [
            f"- Tier 0 (no model): solved **{t0['solved_without_model']} of {t0['tasks']}** tasks "
            f"({t0['share_solved_without_model']:.0%}; target ≥ 40%); it chose to run {t0['ran_without_model']}, "
            f"and **{t0['tier0_precision']:.0%}** of those passed their checker (tier-0 precision; target 100%).",
        ]
    if rp:
        lines.append(
            "- Replay (reference solutions through the scripted model server): "
            f"**{rp['passed']} of {rp['tasks']}** pass."
        )
    for mode, s in sums.items():
        stages = ", ".join(f"{k} {v:.0f} ms" for k, v in s["latency_ms_median"].items())
        lines.append(f"- Median latency per stage, {mode}: {stages}.")
    lines += ["", "| task | category | level | route | tier 0 | replay |", "|---|---|---|---|---|---|"]
    by_mode = {mode: {r["id"]: r for r in rows} for mode, rows in suite["results"].items()}
    ids = [r["id"] for r in next(iter(suite["results"].values()))]
    for tid in ids:
        cells = []
        for mode in ("tier0", "replay"):
            r = by_mode.get(mode, {}).get(tid)
            if r is None:
                cells.append("–")
            elif r["passed"]:
                cells.append("pass")
            elif r["status"] == "needs_llm":
                cells.append("needs model")
            else:
                cells.append("**FAIL**")
        any_row = next(by_mode[m][tid] for m in by_mode)
        lines.append(
            f"| {tid} | {any_row['category']} | {any_row['level']} | {any_row['route']} | {cells[0]} | {cells[1]} |"
        )
    failures = [
        (m, r) for m, rows in suite["results"].items() for r in rows if not r["passed"] and r["status"] != "needs_llm"
    ]
    if failures:
        lines += ["", "Failures:"]
        lines += [f"- {m} {r['id']}: {'; '.join(r['failures'])[:300]}" for m, r in failures]
    chart = _suite_chart(suite, charts)
    if chart:
        lines += ["", f"![tasks solved per category]({CHARTS}/{chart})"]
    return lines


def _suite_chart(suite: dict, charts: Path) -> str | None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    cats = sorted({r["category"] for rows in suite["results"].values() for r in rows})
    fig, ax = plt.subplots(figsize=(8, 3.6))
    width = 0.8 / max(1, len(suite["results"]))
    for i, (mode, rows) in enumerate(suite["results"].items()):
        shares = [
            sum(r["passed"] for r in rows if r["category"] == c) / max(1, sum(r["category"] == c for r in rows))
            for c in cats
        ]
        ax.bar([k + i * width for k in range(len(cats))], shares, width, label=mode)
    ax.set_xticks([k + width * (len(suite["results"]) - 1) / 2 for k in range(len(cats))], cats)
    ax.set_ylabel("share of tasks passing")
    ax.set_ylim(0, 1.05)
    ax.legend()
    fig.tight_layout()
    fig.savefig(charts / "suite_by_category.png", dpi=100)
    plt.close(fig)
    return "suite_by_category.png"


def _router_table(data: dict) -> list[str]:
    lines = [
        f"Held-out split: {data['test_rows']} requests ({data['train_rows']} for training); "
        f"trained in {data['training_seconds']:.1f} s; model {data['model_bytes'] / 1e6:.1f} MB on disk; "
        f"routing latency p50 {data['latency_ms']['p50']:.1f} ms, p99 {data['latency_ms']['p99']:.1f} ms.",
        "",
        "| language | requests | route accuracy | macro-F1 | top-1 tool | top-3 tool | tier-0 plan exact |",
        "|---|---|---|---|---|---|---|",
    ]
    for lang in ("all", "en", "zh", "de"):
        m = data[lang]
        lines.append(
            f"| {lang} | {m['n']} | {m['route_accuracy']:.1%} | {m['route_macro_f1']:.1%} | {m['top1']:.1%} | "
            f"{m['top3']:.1%} | {m['plan_exact']:.1%} |"
        )
    lines += [
        "",
        "Tier 0 by confidence threshold (held-out function requests):",
        "",
        "| threshold | runs | precision | coverage |",
        "|---|---|---|---|",
    ]
    for thr, t in data.get("tier0", {}).items():
        lines.append(f"| {thr} | {t['runs']} | {t['precision']:.1%} | {t['coverage_of_function_rows']:.1%} |")
    conf = ", ".join(f"{a} → {b} ({n})" for a, b, n in data.get("route_confusions", [])[:5])
    tools = ", ".join(f"{a} → {b} ({n})" for a, b, n in data.get("tool_confusions", [])[:6])
    return lines + ["", f"Route confusions (true → predicted): {conf}.", f"Tool confusions: {tools}."]


def _tokens_table(data: dict) -> list[str]:
    lines = [
        "| route | requests | ok | median tokens | max tokens | median LLM calls | target (median) |",
        "|---|---|---|---|---|---|---|",
    ]
    for group, s in data["summary"].items():
        if "requests" not in s:
            continue
        lines.append(
            f"| {group} | {s['requests']} | {s['ok']} | {s['median_total']:,.0f} | {s['max_total']:,} | "
            f"{s['median_llm_calls']} | < {s['target_median']:,} |"
        )
    c = data["summary"].get("confirmation")
    if c and c.get("n"):
        lines += ["", f"Draft-and-verify confirmation (one round, {c['n']} complete tier-0 plans of the blind sets): "
                  f"median {c['median']} tokens, p90 {c['p90']}, max {c['max']} (target: median < 1,500)."]  # fmt: skip
    return lines


TABLES = {"router": _router_table, "tokens": _tokens_table}


def _part_section(name: str, title: str, data, out: Path, charts: Path) -> list[str]:
    lines = ["", f"## {title}", ""]
    md = out / f"{name}.md"
    if data and name in TABLES:
        try:
            lines += TABLES[name](data)
        except (KeyError, TypeError) as exc:
            lines.append(f"(could not tabulate {name}: {exc})")
    elif md.exists():
        lines.append(md.read_text(encoding="utf-8").strip())
    elif data:
        lines += [f"- {k}: {v}" for k, v in _flatten(data) if not isinstance(v, (list, dict))][:40]
    else:
        lines.append(f"(no {name} results)")
    for png in sorted(out.glob(f"{name}*.png")):
        shutil.copy(png, charts / png.name)
        lines += ["", f"![{title}]({CHARTS}/{png.name})"]
    return lines


def _flatten(data, prefix=""):
    if isinstance(data, dict):
        for k, v in data.items():
            yield from _flatten(v, f"{prefix}{k}.")
    else:
        yield prefix.rstrip("."), data
