"""What every `geoclerk` command shares: the usage error, stdout kept for JSON, input and output folder checks."""

from __future__ import annotations

import contextlib
import json
import os
import sys
from pathlib import Path

EXIT_USAGE = 2


@contextlib.contextmanager
def stdout_to_stderr():
    """Send everything else written to stdout (Python prints, GDAL/QGIS C-level output) to stderr, so
    stdout carries only the command's JSON."""
    sys.stdout.flush()
    saved = os.dup(1)
    try:
        os.dup2(2, 1)
        with contextlib.redirect_stdout(sys.stderr):
            yield
    finally:
        sys.stdout.flush()
        os.dup2(saved, 1)
        os.close(saved)


class CliUsageError(Exception):
    """A usage error: printed as one line, exit status 2."""


def _emit_error(message: str, as_json: bool) -> None:
    if as_json:
        print(json.dumps({"status": "error", "error": message}))
    else:
        print(f"geoclerk: {message}", file=sys.stderr)


def _check_out_dir(path: str, option: str, create: bool = True) -> None:
    """A usable output folder: not an existing file, creatable, writable; else a one-line usage error."""
    target = Path(path)
    where = f"geoclerk: {option} {path}"
    if target.exists() and not target.is_dir():
        raise CliUsageError(f"{where} is an existing file, not a folder; give a folder (it is created when missing)")
    if create:
        try:
            target.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise CliUsageError(f"{where} cannot be created ({exc.strerror or exc}); give a writable folder") from exc
    probe = target if target.exists() else next((p for p in target.parents if p.exists()), Path("."))
    if not os.access(probe, os.W_OK | os.X_OK):
        raise CliUsageError(f"{where} is not writable; give a folder you can write to")


def _check_inputs(paths: list[str]) -> list[str]:
    """The inputs as given: files that exist, or URLs (GeoJSON, OGC API Features, WFS) GDAL reads."""
    from ..function_lib.tables import is_url

    for path in paths:
        if not is_url(path) and not Path(path).exists():
            raise CliUsageError(f"geoclerk: input file not found: {path}")
    return [p if is_url(p) else str(Path(p)) for p in paths]
