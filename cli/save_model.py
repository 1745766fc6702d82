"""`geoclerk run … --save-model PATH`: the run's tier-0 plan written as a QGIS Processing model (.model3)."""

from __future__ import annotations

from .common import CliUsageError, stdout_to_stderr


def check_pyqgis(option: str) -> None:
    try:
        from ..geoclerk_plugin.qgis_env import ensure_qgis
    except ImportError as exc:
        message = f"geoclerk run: {option} needs PyQGIS (QGIS's Python), which is not importable ({exc})"
        raise CliUsageError(message) from exc
    status = ensure_qgis()
    if not status:
        raise CliUsageError(f"geoclerk run: {option} needs PyQGIS, which does not start here ({status.reason})")


def save_model(data: dict, inputs: list[str], registry, path: str) -> int:
    """Write the run's plan as a Processing model: listed in outputs with kind "model"; when the plan cannot be
    one, the results stay and `error` says which step and why (exit status 1)."""
    from ..geoclerk_plugin.model_writer import ModelError, save_run_model

    try:
        with stdout_to_stderr():
            saved = save_run_model(data, inputs, registry, path)
    except ModelError as exc:
        data["error"] = exc.user_text()
        return 1
    data["outputs"].append({"path": saved.path, "kind": "model"})
    return 0
