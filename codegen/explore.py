"""Inspection cells: the code worker looks at the data (head, dtypes, values, CRS, bounds, band statistics) and sees
the truncated output before it writes the analysis (GISclaw's schema analysis, as a loop the model drives).

Bounded: at most MAX_INSPECTIONS cells per request, each one's output cut to INSPECT_OUTPUT characters. A cell only
looks: files it writes are removed and input copies it changed are copied again, so no inspection makes a result.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import CancelledError

MAX_INSPECTIONS = 3
INSPECT_OUTPUT = 1500
INSPECT_TIMEOUT = 60.0


@dataclass
class Inspection:
    """One inspection cell and what it printed (already cut)."""

    code: str
    ok: bool
    output: str
    error: str | None = None


@dataclass
class Explorer:
    """Runs a request's inspection cells in its sandbox and work dir, and says what they printed."""

    sandbox: object
    work_dir: Path
    copies: dict[str, str]  # original input -> its copy in the work dir
    limit: int = MAX_INSPECTIONS
    cells: list[Inspection] = field(default_factory=list)

    @property
    def left(self) -> int:
        return self.limit - len(self.cells)

    def inspect(self, code: str, cancel_event=None) -> Inspection:
        """Run one cell; its files are undone. Raises CancelledError when the user cancels."""
        timeout = min(INSPECT_TIMEOUT, self.sandbox.timeout or INSPECT_TIMEOUT)
        before = {c: _stamp(c) for c in self.copies.values()}
        result = self.sandbox.run(code, self.work_dir, timeout=timeout, cancel_event=cancel_event,
                                  exclude=self.copies.values())  # fmt: skip
        if result.stage == "cancelled":
            raise CancelledError()
        wrote = self._undo(result.outputs, before)
        output = cut_output(result.stdout)
        if wrote:
            output += f"\n[files written by an inspection cell were removed: {', '.join(wrote)}]"
        cell = Inspection(code, result.ok, output, result.error)
        self.cells.append(cell)
        return cell

    def _undo(self, outputs: list[dict], before: dict) -> list[str]:
        """Remove what the cell wrote; put back any input copy it changed."""
        names = []
        copies = {str(Path(c).resolve()): o for o, c in self.copies.items()}
        for out in outputs:
            path = Path(out["path"])
            path = (path if path.is_absolute() else self.work_dir / path).resolve()
            names.append(path.name)
            if str(path) in copies:
                shutil.copy2(copies[str(path)], path)
            else:
                path.unlink(missing_ok=True)
        for original, copy in self.copies.items():  # an input copy changed in place is not in `outputs`
            if _stamp(copy) != before.get(copy) and Path(original).is_file():
                shutil.copy2(original, copy)
                names.append(Path(copy).name)
        return sorted(set(names))


def _stamp(path) -> tuple | None:
    try:
        st = Path(path).stat()
    except OSError:
        return None
    return (st.st_mtime_ns, st.st_size)


def cut_output(text: str, limit: int = INSPECT_OUTPUT) -> str:
    """Keep the start (a head, the dtypes) and the end; say how much was cut."""
    text = text.rstrip()
    if len(text) <= limit:
        return text or "(the cell printed nothing: print what you want to see)"
    head = limit * 3 // 4
    return text[:head] + f"\n[... {len(text) - limit} characters cut ...]\n" + text[-(limit - head) :]


def inspection_message(cell: Inspection, number: int, left: int) -> dict:
    """The feedback after an inspection cell: what it printed (or its error), then what to do next."""
    parts = [f"Inspection {number} printed:", cell.output]
    if not cell.ok:
        parts.append(f"Error: {cell.error}")
    if left > 0:
        parts.append(f"Inspect again (at most {left} more cell(s), first line # INSPECT), reply REFUSE: reason if "
                     "the data cannot answer the request, or reply with the final script.")  # fmt: skip
    else:
        parts.append("No inspections left: reply with the final script in a single ```python block.")
    return {"role": "user", "content": "\n".join(parts)}


def state_text(names: list[str]) -> str:
    """The variables earlier requests of this conversation left, for the request message."""
    if not names:
        return ""
    return "Variables still loaded from earlier requests of this conversation (use them or read the files):\n" + (
        "\n".join(f"  {line}" for line in names)
    )
