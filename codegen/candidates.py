"""Candidates (issue 15, item 4): when a step has failed twice, the model writes up to MAX_K alternative scripts in
one reply; they are ranked by the static checks and a dry run on a sample of the inputs (their first SAMPLE_ROWS
rows, in a scratch work dir of the same sandbox, outputs and variables discarded), and the best one is handed back
to the repair loop, which runs it on the full data like any other attempt.

One request for k variants rather than k requests: the prompt (system, request, schema, the failed attempt) is
paid once instead of k times, and the model sees its earlier variants, so they differ (bench/candidate_tokens.py).
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass, field
from pathlib import Path

from ..model_text.tokens import count_messages, count_text
from . import apicheck, static_check
from .extract import code_blocks

MAX_K = 3
SAMPLE_ROWS = 200
VECTOR_DRIVERS = {".gpkg": "GPKG", ".geojson": "GeoJSON", ".json": "GeoJSON", ".shp": "ESRI Shapefile",
                  ".fgb": "FlatGeobuf"}  # fmt: skip


@dataclass
class CandidateSettings:
    """The search's knobs: k alternatives (off below 2), searches per goal, and the tokens one search may cost."""

    k: int = MAX_K
    rounds: int = 1
    tokens: int = 8000  # the request's prompt plus k scripts the size of the last one; k shrinks to fit, else no search
    sample_rows: int = SAMPLE_ROWS

    @property
    def on(self) -> bool:
        return min(self.k, MAX_K) >= 2 and self.rounds > 0


@dataclass
class Candidate:
    """One alternative script and how it ranked."""

    index: int  # 1-based, in the order of the reply
    code: str
    findings: list[str] = field(default_factory=list)  # the static check's and the API check's
    ran: bool = False  # tried on the sample
    ok: bool = False  # ran on the sample without an error
    missing: list[str] = field(default_factory=list)  # asked outputs its sample run did not give
    error: str | None = None

    def rank(self) -> tuple:
        return (not self.ok, len(self.missing), len(self.findings), self.index)

    def verdict(self) -> str:
        if self.ok and not self.missing:
            return "ran on the sample"
        if self.ok:
            return f"ran on the sample but did not give {'; '.join(self.missing)}"
        first = (self.error or "failed").strip().splitlines()[0]
        return first[:160]

    def to_json(self) -> dict:
        return {"index": self.index, "ok": self.ok, "findings": len(self.findings), "verdict": self.verdict()}


def candidate_request(messages: list[dict], k: int) -> list[dict]:
    """The conversation so far, its last message asking for k different versions of the code instead of one fix."""
    ask = (
        f"\n\nTwo attempts have failed. Instead of one fix, write {k} different versions of the code asked for, each "
        "complete on its own, with its imports, and using a different method (other functions or another approach, "
        "not small edits of one version). They are first tried on a sample of the data (the input files cut to their "
        "first rows). "
        f"Reply with exactly {k} ```python blocks, one per version."
    )
    return [*messages[:-1], {**messages[-1], "content": messages[-1]["content"] + ask}]


def sample_inputs(copies: dict[str, str], scratch: Path, rows: int = SAMPLE_ROWS) -> dict[str, str]:
    """Each input copy into `scratch` under its own name, vector layers and CSV tables cut to their first `rows`
    rows (other files, rasters and multi-layer files whole); returns {copy: sample}."""
    from .workdir import copy_inputs

    samples = {}
    for copy in copies.values():
        source, target = Path(copy), scratch / Path(copy).name
        if not _cut(source, target, rows):
            target = Path(copy_inputs([str(source)], scratch)[str(source)])
        samples[copy] = str(target)
    return samples


def _cut(source: Path, target: Path, rows: int) -> bool:
    """Write the first `rows` rows of a vector layer or CSV table; False when the file is left to a whole copy."""
    suffix = source.suffix.lower()
    try:
        if suffix in (".csv", ".txt", ".tsv"):
            with source.open(encoding="utf-8", newline="") as handle:
                lines = [line for _, line in zip(range(rows + 1), handle)]
            target.write_text("".join(lines), encoding="utf-8", newline="")
            return True
        if suffix in VECTOR_DRIVERS:
            import geopandas as gpd

            if len(gpd.list_layers(source)) != 1:
                return False
            head = gpd.read_file(source, rows=rows + 1)
            if len(head) <= rows:
                return False  # small already: the copy is the sample
            head.iloc[:rows].to_file(target, driver=VECTOR_DRIVERS[suffix])
            return True
    except (OSError, ValueError, UnicodeDecodeError, RuntimeError, ImportError):
        target.unlink(missing_ok=True)
    return False


def api_findings(code: str, worker, explorer, layer_infos) -> list[str]:
    """codegen/apicheck.py's findings for a candidate (none when the worker's API check is switched off)."""
    if not getattr(worker, "api_check", True) or not getattr(worker.sandbox, "python", None):
        return []
    earlier = getattr(worker.sandbox, "history", ())
    found = apicheck.precheck(code, worker.sandbox.python, explorer.work_dir, layer_infos, explorer.copies, earlier)
    return [str(f) for f in found]


class CandidateSearch:
    """The candidate search of one goal (the request, or a planner's subtask): asks, ranks, returns the best."""

    def __init__(self, worker, explorer, check, outcome, settings: CandidateSettings, layer_infos=()):  # fmt: skip
        self.worker, self.explorer, self.check, self.outcome = worker, explorer, check, outcome
        self.settings, self.layer_infos = settings, layer_infos
        self.searches = outcome.candidates  # what each search found, for report.codegen

    def due(self) -> bool:
        """After every second failed attempt of this goal, while searches are left."""
        failures = sum(not a.ok for a in self.outcome.attempts)
        return failures >= 2 * (len(self.searches) + 1) and len(self.searches) < self.settings.rounds

    def propose(self, messages: list[dict], last_code: str, tried, cancel_event=None) -> str | None:
        """The reply the repair loop goes on with: the winning candidate as a script (or the best-ranked one when
        none ran on the sample: the full data may still differ); a plain repair request when the search does not
        fit its token budget; None when the model could not be asked (the outcome says why)."""
        k = self._fitting_k(messages, last_code)
        if k < 2:
            self.searches.append({"asked": 0, "skipped": "over the token budget"})
            return self.worker._ask(messages, self.outcome)
        used = dict(self.outcome.usage)
        self.worker.progress(f"asking for {k} alternative scripts")
        text = self.worker._ask(candidate_request(messages, k), self.outcome)
        if text is None:
            return None
        codes = [c for c in dict.fromkeys(code_blocks(text)) if c not in tried][:k]
        found = [self._try(Candidate(i, code), cancel_event) for i, code in enumerate(codes, 1)]
        ranked = sorted(found, key=Candidate.rank)
        best = ranked[0] if ranked else None
        tokens = sum(self.outcome.usage[key] - used[key] for key in ("prompt_tokens", "completion_tokens"))
        self.searches.append({
            "asked": k, "received": len(found), "tokens": tokens,
            "winner": best.index if best is not None and best.ok else None,
            "why": _why(best, ranked), "candidates": [c.to_json() for c in found],
        })  # fmt: skip
        return f"```python\n{best.code}```" if best is not None else text

    def summary(self) -> str:
        """For the final error: what the alternatives did."""
        parts = []
        for search in self.searches:
            if search.get("asked") and search.get("winner") is None:
                tried = "; ".join(f"{c['index']}: {c['verdict']}" for c in search["candidates"]) or "no script"
                parts.append(f"None of {search['received']} alternative script(s) ran on a sample of the data "
                             f"({tried}).")  # fmt: skip
        return " ".join(parts)

    def _fitting_k(self, messages: list[dict], last_code: str) -> int:
        prompt = count_messages(candidate_request(messages, MAX_K))
        if prompt > getattr(self.worker, "budget", prompt):  # the model's context (codegen/budget.py) comes first
            return 0
        per_script = max(200, int(count_text(last_code) * 1.2))
        return min(self.settings.k, MAX_K, (self.settings.tokens - prompt) // per_script)

    def _try(self, candidate: Candidate, cancel_event) -> Candidate:
        """Static checks first (a refused or certainly broken script is not run), then a dry run on the sample."""
        explorer = self.explorer
        candidate.findings = [str(f) for f in static_check.check_code(candidate.code, explorer.work_dir)]
        candidate.findings += api_findings(candidate.code, self.worker, explorer, self.layer_infos)
        if candidate.findings:
            candidate.error = "; ".join(candidate.findings[:3])
            return candidate
        scratch = Path(self.worker.sandbox.new_work_dir("candidate"))
        try:
            samples = sample_inputs(explorer.copies, scratch, self.settings.sample_rows)
            self.worker.progress(f"trying alternative {candidate.index} on a sample of the data")
            result, outputs = self.worker.execute(candidate.code, scratch, samples, cancel_event, trial=True)
        finally:
            shutil.rmtree(scratch, ignore_errors=True)
        candidate.ran, candidate.ok, candidate.error = True, result.ok, result.error
        if result.ok and self.check is not None:
            candidate.missing = self.check(outputs, result.stdout)
        return candidate


def _why(best: Candidate | None, ranked: list[Candidate]) -> str:
    if best is None:
        return "the reply held no new script"
    others = "; ".join(f"{c.index}: {c.verdict()}" for c in ranked[1:])
    lead = f"candidate {best.index} {best.verdict()}" if best.ok else f"none ran on the sample; best: {best.index}"
    return lead + (f" (others: {others})" if others else "")
