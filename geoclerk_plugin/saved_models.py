"""The dock's "Save as model": a tier-0 answer's plan written into the profile's models folder, in the toolbox."""

from __future__ import annotations

from pathlib import Path

from qgis.core import Qgis, QgsApplication, QgsMessageLog

from ..errors import GeoClerkError
from ..function_lib.context import safe_name
from .i18n import tr


def models_folder() -> Path:
    """Where the Processing model provider reads the user's models: the first models folder Processing is set to
    use, by default the profile's processing/models."""
    try:
        from processing.modeler.ModelerUtils import ModelerUtils

        folders = [f for f in ModelerUtils.modelsFolders() if f]
    except ImportError:  # Processing's Python half is not loaded
        folders = []
    return Path(folders[0]) if folders else Path(QgsApplication.qgisSettingsDirPath()) / "processing" / "models"


def free_model_path(request: str) -> tuple[Path, str]:
    """A new .model3 named after the request, and the model's name: an existing model is never replaced, and a
    second model of the same request is 'request (2)' (the toolbox knows a model by its name)."""
    from .model_writer import model_name

    folder = models_folder()
    stem = safe_name(" ".join(request.split())[:60]) or "geoclerk_model"
    provider = QgsApplication.processingRegistry().providerById("model")
    taken = {alg.displayName() for alg in provider.algorithms()} if provider is not None else set()
    path, name, n = folder / f"{stem}.model3", model_name(request), 2
    while path.exists() or name in taken:
        path, name, n = folder / f"{stem}_{n}.model3", f"{model_name(request)} ({n})", n + 1
    return path, name


def reload_models() -> bool:
    """Have the Model provider read its folder again, so the new model is in the toolbox; False without it."""
    provider = QgsApplication.processingRegistry().providerById("model")
    if provider is None:
        return False
    provider.refreshAlgorithms()
    return True


def save_card_model(card, store, registry) -> str | None:
    """Save the card's tier-0 plan as a model and say so on the card; the model's path, or None (reason shown)."""
    from .model_writer import save_run_model

    report = card.report or {}
    try:
        path, name = free_model_path(report.get("request") or "")
        saved = save_run_model(report, [], registry, path, store=store, name=name)
    except GeoClerkError as exc:
        card.show_model_saved(tr("Not saved as a model: {reason}").format(reason=exc.user_text()), ok=False)
        return None
    listed = reload_models()
    QgsMessageLog.logMessage(f"Saved model {saved.path}", "GeoClerk", Qgis.MessageLevel.Info)
    text = tr("Saved as the Processing model '{name}' ({path}).").format(name=saved.name, path=saved.path)
    if listed:
        text += " " + tr("It is in the Processing Toolbox under Models, and opens in the Model Designer.")
    card.show_model_saved(text, ok=True)
    return saved.path
