"""Re-run edited tool calls (or edited code) from a reply card, producing an ordinary report."""

from __future__ import annotations

import shutil
import tempfile
import time
from pathlib import Path

from ..agent.pipeline import build_context
from ..agent.report import Report
from ..errors import CancelledError, GeoClerkError, SandboxError
from ..function_lib.registry import run_tool


def make_rerun(steps: list[dict], note: str | None = None, tier: int | None = None):
    """A runner with run_request's signature that executes `steps` instead of routing the request (`note` is
    added to the report, `tier` overrides the tier: 0 for steps taken from the conversation, no model)."""

    def runner(
        request,
        inputs,
        out_dir,
        config=None,
        registry=None,
        router=None,
        layer_infos=None,
        progress=None,
        cancel_event=None,
        **_ignored,
    ):
        report = run_steps(steps, request, inputs, out_dir, config, registry, progress, cancel_event)
        if note:
            report.notes.insert(0, note)
        if tier is not None:
            report.tier = tier
        return report

    return runner


def run_steps(steps, request, inputs, out_dir, config=None, registry=None, progress=None, cancel_event=None) -> Report:
    """Execute tool-call steps in order (or one code step in the sandbox); errors become the report's."""
    has_code = any("code" in s for s in steps)
    report = Report(request=request, route="codegen" if has_code else "function", tier=2 if has_code else 1)
    report.model = getattr(config, "model", None)
    started = time.perf_counter()
    ctx = None
    try:
        ctx, _ = build_context(inputs, out_dir, progress)
        if cancel_event is not None:
            ctx.cancel_event = cancel_event
        answers = []
        for step in steps:
            ctx.check_cancelled()
            if "code" in step:
                answers.append(_run_code(step["code"], ctx, config, report))
                continue
            report.steps.append({"tool": step["tool"], "params": step.get("params", {})})
            result = run_tool(registry, step["tool"], step.get("params", {}), ctx)
            answers.append(result.answer or result.summary)
        report.outputs = [o.to_json() for o in ctx.outputs]
        report.answer = "\n".join(a for a in answers if a)
        report.status = "ok"
    except CancelledError as exc:
        report.status, report.error, report.outputs = "error", exc.user_text(), []
    except GeoClerkError as exc:
        report.status, report.error = "error", exc.user_text()
    except (KeyError, TypeError) as exc:
        report.status, report.error = (
            "error",
            f"An edited step is malformed ({exc}). Each step needs 'tool' and 'params'.",
        )
    if ctx is not None:
        report.notes.extend(ctx.notes)
    report.timings_ms["total"] = (time.perf_counter() - started) * 1000
    return report


def _run_code(code: str, ctx, config, report) -> str:
    """Run edited code in the sandbox on copies of the inputs; its files become this report's outputs."""
    try:
        from ..codegen.api import exec_script
    except ImportError as exc:
        raise SandboxError(
            "The code sandbox is not available in this installation.",
            fix="Update GeoClerk; edited code cannot be re-run without it.",
        ) from exc
    work = Path(tempfile.mkdtemp(prefix="geoclerk-rerun-"))
    try:
        script = work / "edited_script.py"
        script.write_text(code, encoding="utf-8")
        inputs = [e.path for e in (ctx.layers.get(n) for n in ctx.layers.names()) if e.path]
        result = exec_script(script, work / "run", inputs, timeout=float(getattr(config, "timeout_s", 60.0) or 60.0))
        report.steps.append({"code": code, "ok": bool(result.get("ok"))})
        if not result.get("ok"):
            raise SandboxError("The edited code failed: " + str(result.get("error")), fix="Fix the code and re-run.")
        for out in result.get("outputs", []):
            path = Path(out["path"])
            path = path if path.is_absolute() else work / "run" / path
            if path.exists():
                target = ctx.unique_path(path.stem, path.suffix)
                shutil.copy2(path, target)
                ctx.add_output(target, name=target.stem)
        return (result.get("stdout") or "")[-2000:]
    finally:
        shutil.rmtree(work, ignore_errors=True)
