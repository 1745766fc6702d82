"""`geoagent exec`: run one script in the sandbox exactly as generated code is run, and report in the CLI shape."""

from __future__ import annotations

from pathlib import Path

from ..errors import GeoAgentError
from .sandbox import Sandbox


def exec_script(script_path, work_dir, inputs=(), timeout: float = 60, python: str | None = None) -> dict:
    """Copy the inputs into `work_dir`, run the script there in a fresh sandbox, return the exec contract.

    Returns {"ok": bool, "error": str | None, "stdout": str, "outputs": [{"path", "kind"}]}; errors of the code, of the
    inputs or of the sandbox itself are reported in "error", never raised.
    """
    try:
        code = Path(script_path).read_text(encoding="utf-8")
    except OSError as exc:
        return _failed(f"The script '{script_path}' cannot be read: {exc.strerror or exc}.")
    work = Path(work_dir).expanduser().resolve()
    try:
        work.mkdir(parents=True, exist_ok=True)
        with Sandbox(root=work, timeout=timeout, python=python, respawn=False) as sandbox:
            copies = sandbox.prepare(work, inputs)
            result = sandbox.run(code, work, timeout=timeout, exclude=copies.values())
    except GeoAgentError as exc:
        return _failed(exc.user_text())
    except OSError as exc:
        return _failed(f"The work dir '{work}' cannot be used: {exc.strerror or exc}.")
    return result.to_json()


def _failed(error: str) -> dict:
    return {"ok": False, "error": error, "stdout": "", "outputs": []}
