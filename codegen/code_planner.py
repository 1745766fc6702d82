"""Planner–Worker for code (GeoJSON Agents): a Planner splits the request into at most MAX_SUBTASKS short subtasks;
the code worker writes (and repairs) one cell per subtask in the same sandbox, each building on the variables the
earlier cells left. Selected with codegen_mode = "planner"; "react" is the single-agent loop (CodegenWorker.solve).
"""

from __future__ import annotations

import re
from pathlib import Path

from . import prompt
from .budget import RepairContext
from .explore import Explorer
from .repair import CodegenWorker, Outcome, _answer, _refused
from .replies import read_reply

MAX_SUBTASKS = 5
PLANNER_SYSTEM = f"""You plan a GIS analysis that a Python worker carries out step by step in one session.
Split the request into at most {MAX_SUBTASKS} short subtasks, in order, one per line, numbered (1. 2. ...). Each
subtask is a small piece of code: read the data, compute, write the result file, print the answer. Name the layers,
fields and values to use. The last subtask writes the results and prints the answer. Reply with the numbered list
only. If the data cannot answer the request, reply REFUSE: <the reason> instead."""
_STEP = re.compile(r"^\s*(?:step\s*)?(\d+)\s*[.):]\s*(.+?)\s*$", re.IGNORECASE | re.MULTILINE)


def parse_plan(text: str) -> list[str]:
    """The numbered subtasks of a plan reply, at most MAX_SUBTASKS (the rest are folded into the last)."""
    steps = [re.sub(r"[*_`]+", "", m.group(2)).strip() for m in _STEP.finditer(text or "")]
    steps = [s for s in steps if s]
    if len(steps) > MAX_SUBTASKS:
        steps = steps[: MAX_SUBTASKS - 1] + ["; then ".join(steps[MAX_SUBTASKS - 1 :])]
    return steps


def subtask_text(plan: list[str], index: int) -> str:
    """The user message's tail for subtask `index`: the whole plan, what is done, and what to write now."""
    lines = ["", "Plan:"] + [f"{i + 1}. {step}" for i, step in enumerate(plan)]
    if index:
        lines.append(f"Subtasks 1-{index} are done; their variables still exist in this session.")
    lines.append(f"Now write the code for subtask {index + 1} only: {plan[index]}")
    if index + 1 == len(plan):
        lines.append("This is the last subtask: write the result files and print the answer.")
    else:
        lines.append("Do not write result files yet; print a short check of what you computed.")
    return "\n".join(lines)


class CodePlanner:
    """Serves a request as a plan of subtasks, each solved by the worker's protocol loop in one sandbox state."""

    def __init__(self, worker: CodegenWorker):
        self.worker = worker

    def solve(self, request: str, layer_infos, work_dir, inputs=(), cancel_event=None) -> Outcome:
        worker, work_dir = self.worker, Path(work_dir)
        copies = worker.sandbox.prepare(work_dir, inputs)
        if not worker.keep_state:
            worker.sandbox.reset()
        state = worker.sandbox.names() if worker.keep_state else []
        base = prompt.build_messages(request, list(layer_infos or []), copies, state=state, planner=True,
                                     explore=worker.explore)  # fmt: skip
        outcome = Outcome(ok=False)
        worker.progress("planning the subtasks")
        text = worker._ask([{"role": "system", "content": PLANNER_SYSTEM}, base[1]], outcome)
        if text is None:
            return outcome
        reply = read_reply(text)
        if reply.kind == "refuse":
            return _refused(outcome, reply.reason)
        outcome.plan = parse_plan(text) or [request.strip()]
        explorer = worker.explorer(work_dir, copies)
        return self._run_plan(outcome, base, explorer, layer_infos, cancel_event)

    def _run_plan(self, outcome: Outcome, base: list[dict], explorer: Explorer, layer_infos, cancel_event) -> Outcome:
        outputs, cells, printed = {}, [], []
        for index, step in enumerate(outcome.plan):
            last = index + 1 == len(outcome.plan)
            user = {"role": "user", "content": base[1]["content"] + "\n" + subtask_text(outcome.plan, index)}
            conversation = RepairContext([base[0], user], self.worker.budget, self.worker.max_attempts)
            self.worker.progress(f"subtask {index + 1}/{len(outcome.plan)}: {step}")
            part = self.worker.run_goal(conversation, explorer, layer_infos, cancel_event, check_outputs=last)
            outcome.attempts += part.attempts
            outcome.candidates += part.candidates
            outcome.inspections = list(explorer.cells)
            outcome.usage = _added(outcome.usage, part.usage)
            if part.rejected or not (part.ok or (last and part.missing)):
                outcome.rejected, outcome.answer = part.rejected, part.answer
                outcome.error = part.error if part.rejected else f"Subtask {index + 1} ({step}) failed. {part.error}"
                return outcome
            cells.append(f"# Subtask {index + 1}: {step}\n{part.code}")
            printed.append(part.stdout.strip())
            outputs.update({o["path"]: o for o in part.outputs})
            if part.missing:  # the last cell lacked an asked output: partial, as in the single-agent loop
                outcome.missing, outcome.error = part.missing, part.error
        outcome.code = "\n\n".join(cells)
        outcome.outputs = list(outputs.values())
        outcome.stdout = "\n".join(p for p in printed if p)
        outcome.answer = _answer(printed[-1] or outcome.stdout, outcome.outputs)
        outcome.ok = not outcome.missing
        return outcome


def _added(total: dict, part: dict) -> dict:
    return {key: total.get(key, 0) + part.get(key, 0) for key in ("llm_calls", "prompt_tokens", "completion_tokens")}
