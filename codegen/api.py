"""`geoclerk exec`: run one script in the sandbox exactly as generated code is run, and report in the CLI shape."""

from __future__ import annotations

import ast
from pathlib import Path

from ..errors import GeoClerkError
from .policy import ChildPolicy
from .sandbox import Sandbox, check_root
from .workdir import check_apart, claim_work_dir, mark_work_dir


def exec_script(script_path, work_dir, inputs=(), timeout: float = 60, python: str | None = None) -> dict:
    """Copy the inputs into `work_dir`, run the script there in a fresh sandbox, return the exec contract.

    Returns {"ok": bool, "error": str | None, "stdout": str, "outputs": [{"path", "kind"}]}; errors of the code, of the
    inputs or of the sandbox itself are reported in "error", never raised. The work dir must be new, empty or one an
    earlier exec filled, and must not be (or hold, or sit inside) an input's folder: the code may change every file in
    it, so the user's own files never go there.
    """
    try:
        code = Path(script_path).read_text(encoding="utf-8")
    except OSError as exc:
        return _failed(f"The script '{script_path}' cannot be read: {exc.strerror or exc}.")
    work = Path(work_dir).expanduser().resolve()
    try:
        check_root(work)
        check_apart(inputs, work)
        earlier = claim_work_dir(work)
        preload = preload_for(code)
        with Sandbox(root=work, timeout=timeout, python=python, respawn=False, preload=preload) as sandbox:
            copies = sandbox.prepare(work, inputs, replace=earlier)
            mark_work_dir(work, copies)
            result = sandbox.run(code, work, timeout=timeout, exclude=copies.values())
    except GeoClerkError as exc:
        return _failed(exc.user_text())
    except OSError as exc:
        return _failed(f"The work dir '{work}' cannot be used: {exc.strerror or exc}.")
    return result.to_json()


def preload_for(code: str) -> list[str]:
    """The usual preload, minus scikit-learn (a second of cold start) when the script never imports it."""
    default = ChildPolicy(root="", tmp_dir="").preload
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return default  # the static check reports it
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module.split(".")[0])
    return [name for name in default if name != "sklearn" or "sklearn" in names]


def _failed(error: str) -> dict:
    return {"ok": False, "error": error, "stdout": "", "outputs": []}
