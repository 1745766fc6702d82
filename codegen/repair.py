"""The code worker's repair loop: generate, check, run in the sandbox, feed the root cause back, up to N attempts."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from ..errors import CancelledError, GeoClerkError
from ..function_lib.context import output_kind
from ..lang import tr
from . import apicheck, docs_index, prompt
from .budget import RepairContext, prompt_budget
from .candidates import CandidateSearch, CandidateSettings
from .explore import Explorer, Inspection, inspection_message
from .hints import import_name_hints, raster_hints, schema_hints
from .replies import read_reply

MISSING_HINT = (
    "Write every asked result into the current folder (a layer with to_file, a chart with savefig) and print the "
    "asked numbers with their units."
)
STDOUT_FEEDBACK = 2000
ERROR_FEEDBACK = 1500
ANSWER_LIMIT = 4000
NOTHING_GIVEN = "its answer, printed, or its result written to a file (the script printed nothing and wrote no file)"
TRIAL_TIMEOUT = 60.0  # a candidate's dry run on a sample of the data


@dataclass
class Attempt:
    """One try: the code, whether it worked, its error, what it printed."""

    code: str
    ok: bool
    error: str | None = None
    stdout: str = ""

    def as_tuple(self) -> tuple:
        return (self.code, self.ok, self.error)


@dataclass
class Outcome:
    """The result of a code-generation request."""

    ok: bool
    code: str | None = None
    attempts: list[Attempt] = field(default_factory=list)
    outputs: list[dict] = field(default_factory=list)
    answer: str = ""
    error: str | None = None
    stdout: str = ""
    rejected: bool = False  # the reviewer refused to run the code, or the model refused the task (answer: why)
    missing: list[str] = field(default_factory=list)  # asked outputs the code did not give, after one reminder
    inspections: list[Inspection] = field(default_factory=list)  # the cells that looked at the data first
    plan: list[str] = field(default_factory=list)  # the code planner's subtasks (codegen_mode "planner")
    candidates: list[dict] = field(default_factory=list)  # each candidate search: asked, received, winner, why
    usage: dict = field(default_factory=lambda: {"llm_calls": 0, "prompt_tokens": 0, "completion_tokens": 0})

    def steps(self) -> list[dict]:
        """The report's steps: the inspection cells ({"code", "ok", "inspect": true}), then one per attempt."""
        looks = [{"code": c.code, "ok": c.ok, "inspect": True} for c in self.inspections]
        return looks + [{"code": a.code, "ok": bool(a.ok)} for a in self.attempts]


def truncate_tail(text: str, limit: int = STDOUT_FEEDBACK) -> str:
    """Keep the end (where results and the last messages are); say how much was cut."""
    if len(text) <= limit:
        return text
    return f"[... {len(text) - limit} characters cut ...]\n" + text[-limit:]


def truncate_error(text: str, limit: int = ERROR_FEEDBACK) -> str:
    """Keep the start (the root cause, the failing line) and the end (the innermost frame)."""
    if len(text) <= limit:
        return text
    head = limit * 2 // 3
    return text[:head] + f" [... {len(text) - limit} characters cut ...] " + text[-(limit - head) :]


def error_signature(error: str | None) -> str:
    """The failing approach without its details: exception type plus message with numbers and quotes blurred."""
    if not error:
        return ""
    first = error.split(" (line ")[0].split(" [raised in ")[0]
    first = re.sub(r"\d+(\.\d+)?", "N", first)
    return re.sub(r"\s+", " ", first).strip().lower()[:200]


class CodegenWorker:
    """Writes and repairs code through `chat(messages) -> (text, usage)`, runs it in a `Sandbox`."""

    def __init__(self, chat: Callable, sandbox, max_attempts: int = 5, review: Callable[[str], bool] | None = None,
                 timeout: float | None = None, progress: Callable[[str], None] | None = None,
                 context_tokens: int | None = None, reply_tokens: int | None = None,
                 check: Callable[[list[dict], str], list[str]] | None = None, keep_state: bool = False,
                 candidates: CandidateSettings | None = None, api_check: bool = True,
                 api_docs: bool = True, explore: bool = True):  # fmt: skip
        self.chat = chat
        self.explore = explore  # inspection cells (# INSPECT) offered and run; off: one script per reply
        self.api_check, self.api_docs = api_check, api_docs  # codegen/apicheck.py, codegen/docs_index.py
        self.candidates = candidates  # alternatives for a step that failed twice (None: off)
        self.keep_state = keep_state  # a conversation's sandbox: earlier requests' variables stay
        self.check = check  # (outputs, stdout) -> what the request asked that a run did not give
        self.budget = prompt_budget(context_tokens, reply_tokens)  # the model's context, less the reply's share
        self.progress = progress or (lambda text: None)  # the stage, for the dock's progress line
        self.sandbox = sandbox
        self.max_attempts = max(1, int(max_attempts))
        self.review = review
        self.timeout = timeout

    def solve(self, request: str, layer_infos, work_dir, inputs=(), cancel_event=None) -> Outcome:
        """Serve one request; failures end in an Outcome with a clear error, cancellation raises CancelledError."""
        work_dir = Path(work_dir)
        copies = self.sandbox.prepare(work_dir, inputs)
        if not self.keep_state:
            self.sandbox.reset()
        state = self.sandbox.names() if self.keep_state else []  # what earlier requests of the conversation left
        extra = sorted(p.name for p in work_dir.iterdir() if p.is_file()) if work_dir.is_dir() else []
        base = prompt.build_messages(request, list(layer_infos or []), copies, extra, state=state, explore=self.explore)
        conversation = RepairContext(base, self.budget, self.max_attempts)
        return self.run_goal(conversation, self.explorer(work_dir, copies), layer_infos, cancel_event)

    def explorer(self, work_dir: Path, copies: dict) -> Explorer:
        """The goal's inspection cells: MAX_INSPECTIONS, none when exploring is off."""
        explorer = Explorer(self.sandbox, Path(work_dir), copies)
        if not self.explore:
            explorer.limit = 0
        return explorer

    def run_goal(self, conversation: RepairContext, explorer: Explorer, layer_infos, cancel_event=None,
                 check_outputs: bool = True) -> Outcome:  # fmt: skip
        """The protocol loop for one goal (the request, or a planner's subtask): inspect, refuse, or write and
        repair the script, up to max_attempts attempts plus the explorer's inspection cells. `check_outputs`: hold
        a run to what the request asks for (not for a planner's intermediate subtasks)."""
        work_dir, copies = explorer.work_dir, explorer.copies
        check = self.check if check_outputs else None
        outcome = Outcome(ok=False)
        search = self._search(explorer, check, outcome, layer_infos)
        seen: dict[str, int] = {}  # error signature -> first attempt that hit it
        codes: dict[str, int] = {}  # code -> attempt number
        repeats = 0
        lacking = None  # the run that lacked an asked output, sent back once: (code, outputs, stdout, missing)
        number = 0
        while number < self.max_attempts:
            _check_cancel(cancel_event)
            stage = "writing" if number == 0 else "repairing"
            self.progress(f"{stage} the script (attempt {number + 1}/{self.max_attempts})")
            if search is not None and search.due():  # failed twice: alternatives, the best of them goes on
                text = search.propose(conversation.messages(), next(reversed(codes), ""), codes, cancel_event)
            else:
                text = self._ask(conversation.messages(), outcome)
            if text is None:
                return outcome
            reply = read_reply(text)
            if reply.kind == "inspect" and not self.explore:  # not offered: a copied '# INSPECT' is a comment
                reply.kind = "final"
            if reply.kind == "refuse":  # 'REFUSE: no population field' ends the request refused, with the reason
                return _refused(outcome, reply.reason)
            if reply.kind == "inspect" and explorer.left > 0:
                self._inspect(text, reply.code, explorer, conversation, outcome, cancel_event)
                continue
            number += 1
            code = reply.code  # an inspection with no cells left is not run: its printout would pass for an answer
            if code is None or reply.kind in ("inspect", "empty"):
                error = ("The reply contained no Python code." if code is None
                         else "The code block held only comments, so nothing was run." if reply.kind == "empty"
                         else "No inspection cells are left; this reply was not run. Send the final script, "
                              "without the # INSPECT line.")  # fmt: skip
                outcome.attempts.append(Attempt(code or "", False, error))
                conversation.add(text, error, "", ["Reply with the complete script in a single ```python block."],
                                 number)  # fmt: skip
                continue
            if code in codes:
                error = f"This is the same code as attempt {codes[code]}, which failed."
                outcome.attempts.append(Attempt(code, False, error))
                repeats += 1
                if repeats >= 2:  # told once to change the approach and still repeating: more rounds will not help
                    break
                conversation.add(text, error, "", ["Do not send it again: change the approach."], number)
                continue
            codes[code] = number
            # API check: certain mistakes (unknown names, methods, keywords, files) go back to the model unrun
            earlier = list(getattr(self.sandbox, "history", ())) + [a.code for a in outcome.attempts]
            found = apicheck.before_run(code, self.sandbox, work_dir, layer_infos, copies, earlier, self.api_docs) \
                if self.api_check else None  # fmt: skip
            if found:
                outcome.attempts.append(Attempt(code, False, found[0]))
                conversation.add(text, found[0], "", found[1], number)
                continue
            if self.review is not None and not self.review(code):
                outcome.attempts.append(Attempt(code, False, "The code was not approved to run."))
                outcome.code, outcome.rejected = code, True
                outcome.error = "The generated code was not approved, so it was not run."
                return outcome
            self.progress(f"running the script (attempt {number}/{self.max_attempts})")
            result, outputs = self.execute(code, work_dir, copies, cancel_event)
            missing = check(outputs, result.stdout) if result.ok and check else []
            if result.ok and check_outputs and not missing and not outputs and not result.stdout.strip():
                missing = [NOTHING_GIVEN]  # a run that says nothing and writes nothing answers no request
            gap = f"The script ran, but the request also asks for {'; and '.join(missing)}." if missing else None
            outcome.attempts.append(Attempt(code, result.ok and not missing, result.error or gap, result.stdout))
            if missing and lacking is None and number < self.max_attempts:  # once: name what is missing, then judge
                lacking = (code, outputs, result.stdout, missing)
                conversation.add(text, gap, truncate_tail(result.stdout), [MISSING_HINT], number)
                continue
            if missing:
                return _partial(outcome, code, outputs, result.stdout, missing)
            if result.ok:  # only this attempt's files: a failed attempt's partial files are not results
                outcome.outputs = outputs
                outcome.ok, outcome.code, outcome.stdout, outcome.error = True, code, result.stdout, None
                outcome.answer = _answer(result.stdout, outcome.outputs)
                return outcome
            notes = self._notes(result.error or "", number, seen, layer_infos, code)
            error = truncate_error(result.error or "unknown error")
            conversation.add(text, error, truncate_tail(result.stdout), notes, number)
        if lacking is not None:  # the reminded run's results stand, as partial: the repairs after it failed
            return _partial(outcome, *lacking)
        outcome.code = next((a.code for a in reversed(outcome.attempts) if a.code), None)
        outcome.error = _final_error(outcome.attempts, self.max_attempts, search.summary() if search else "")
        return outcome

    def execute(self, code: str, work_dir: Path, copies: dict, cancel_event=None, trial: bool = False):
        """Run a script (not an inspection cell) in the sandbox: the one place every script passes before it runs.
        Returns the run's result and its output files (with input copies it wrote over). `trial`: a candidate's dry
        run on a sample (at most TRIAL_TIMEOUT s; the variables it binds are dropped)."""
        stamps = _stamps(copies.values())
        timeout = min(self.timeout or TRIAL_TIMEOUT, TRIAL_TIMEOUT) if trial else self.timeout
        result = self.sandbox.run(code, work_dir, timeout=timeout, cancel_event=cancel_event,
                                  exclude=copies.values(), keep=not trial)  # fmt: skip
        if result.stage == "cancelled":
            raise CancelledError()
        return result, (list(result.outputs) + _overwritten(stamps) if result.ok else [])

    def _search(self, explorer: Explorer, check, outcome: Outcome, layer_infos) -> CandidateSearch | None:
        """The goal's candidate search; none when switched off or when the user reviews code (a dry run would run
        code before it was approved)."""
        if self.candidates is None or not self.candidates.on or self.review is not None:
            return None
        return CandidateSearch(self, explorer, check, outcome, self.candidates, layer_infos)

    def _inspect(self, text: str, code: str, explorer: Explorer, conversation: RepairContext, outcome: Outcome,
                 cancel_event) -> None:  # fmt: skip
        """Run an inspection cell; the exchange joins the conversation's stable part (facts about the data)."""
        number = len(explorer.cells) + 1
        self.progress(f"inspecting the data (cell {number}/{explorer.limit})")
        cell = explorer.inspect(code, cancel_event)
        outcome.inspections.append(cell)
        conversation.base += [{"role": "assistant", "content": text}, inspection_message(cell, number, explorer.left)]

    def _ask(self, messages: list[dict], outcome: Outcome) -> str | None:
        try:
            text, usage = self.chat(messages)
        except CancelledError:
            raise
        except GeoClerkError as exc:
            outcome.error = exc.user_text()
            return None
        usage = usage or {}
        outcome.usage["llm_calls"] += 1
        outcome.usage["prompt_tokens"] += int(usage.get("prompt_tokens") or 0)
        outcome.usage["completion_tokens"] += int(usage.get("completion_tokens") or 0)
        return text or ""

    def _notes(self, error: str, number: int, seen: dict[str, int], layer_infos, code: str = "") -> list[str]:
        """Error memory and schema look-ups added to the feedback."""
        notes = []
        signature = error_signature(error)
        if signature in seen:
            notes.append(
                f"Attempt {seen[signature]} failed with the same error. That approach does not work: "
                "do not retry it with small changes; use a different method or check the data first."
            )
        else:
            seen[signature] = number
        notes += schema_hints(error, layer_infos) + raster_hints(error) + import_name_hints(error)
        if self.api_docs:  # the installed libraries' documentation of the failing calls (codegen/docs_index.py)
            notes += docs_index.notes(code, error, self.sandbox)
        if "Blocked by the sandbox" in error or "refused the code" in error:
            notes.append(
                "Stay within the allowed packages and the current folder; do not try to work around the sandbox."
            )
        return notes


def _refused(outcome: Outcome, reason: str) -> Outcome:
    """The model ended the request with a refusal: `rejected`, like the function tier's reject_task (no step)."""
    outcome.rejected, outcome.answer = True, reason
    outcome.error = tr("The request was refused: {reason}").format(reason=reason)
    return outcome


def _partial(outcome: Outcome, code: str, outputs: list[dict], stdout: str, missing: list[str]) -> Outcome:
    """A run that worked but lacked an asked output: its files and answer are kept, and it is not `ok`."""
    outcome.ok, outcome.code, outcome.outputs, outcome.stdout, outcome.missing = False, code, outputs, stdout, missing
    outcome.answer = _answer(stdout, outputs)
    outcome.error = f"Only part of the request was done: the code ran but did not give {'; nor '.join(missing)}."
    return outcome


def _stamps(paths) -> dict[str, tuple]:
    """(mtime, size) of each input copy, to see which ones a script rewrote."""
    out = {}
    for p in paths:
        try:
            st = Path(p).stat()
            out[str(p)] = (st.st_mtime_ns, st.st_size)
        except OSError:
            out[str(p)] = None
    return out


def _overwritten(before: dict[str, tuple]) -> list[dict]:
    """Input copies the script wrote its result over: outputs flagged `input_overwritten` (the user's file is safe)."""
    return [
        {"path": p, "kind": output_kind(Path(p)), "input_overwritten": True}
        for p, stamp in before.items()
        if Path(p).is_file() and _stamps([p])[p] != stamp
    ]


def _answer(stdout: str, outputs: list[dict]) -> str:
    text = stdout.strip()
    if text:
        return truncate_tail(text, ANSWER_LIMIT)
    if outputs:
        return "Done. Wrote " + ", ".join(Path(o["path"]).name for o in outputs) + "."
    return "The code ran but printed no answer and wrote no file."


def _final_error(attempts: list[Attempt], max_attempts: int, candidates: str = "") -> str:
    # the last error of code that ran: 'the same code as attempt 1' or 'no code' says nothing about the data
    ran = [a.error for a in attempts if a.error and not a.error.startswith(("This is the same code", "The reply"))]
    last = ran[-1] if ran else next((a.error for a in reversed(attempts) if a.error), "unknown error")
    distinct = len({error_signature(a.error) for a in attempts if a.error})
    if len(attempts) < max_attempts:  # stopped early: the model kept sending code that had failed
        return (
            f"The generated code failed, and the model sent the same code again after being asked to change it, "
            f"so GeoClerk stopped after {len(attempts)} of {max_attempts} attempts. Last error: "
            f"{truncate_error(last, 600)} Rephrase the request, check the input layers, or try a stronger model."
        )
    return (
        f"The generated code still failed after {max_attempts} attempt(s) ({distinct} different error(s)). "
        f"Last error: {truncate_error(last, 600)} {candidates + ' ' if candidates else ''}"
        "Rephrase the request, check the input layers, or try a stronger model."
    )


def _check_cancel(cancel_event) -> None:
    if cancel_event is not None and cancel_event.is_set():
        raise CancelledError()
