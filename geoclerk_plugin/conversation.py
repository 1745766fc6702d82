"""The conversation kept in the project file (opt-in): requests and reports, never a key."""

from __future__ import annotations

import json

from qgis.core import QgsProject

SCOPE = "GeoClerk"
KEY = "conversation"
MAX_TURNS = 200
SECRET_FIELDS = ("api_key", "authcfg", "password", "token")


def _clean(obj):
    if isinstance(obj, dict):
        return {k: _clean(v) for k, v in obj.items() if k.lower() not in SECRET_FIELDS}
    if isinstance(obj, list):
        return [_clean(v) for v in obj]
    return obj


def save(project: QgsProject, turns: list[dict], secrets: tuple[str, ...] = ()) -> None:
    """Write the turns ({request, route, report}) into the project; secrets are scrubbed first."""
    text = json.dumps(_clean(turns[-MAX_TURNS:]), ensure_ascii=False, default=str)
    for secret in secrets:
        if secret:
            text = text.replace(secret, "***")
    project.writeEntry(SCOPE, KEY, text)


def load(project: QgsProject) -> list[dict]:
    text, ok = project.readEntry(SCOPE, KEY, "")
    if not ok or not text:
        return []
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        return []
    return data if isinstance(data, list) else []


def clear(project: QgsProject) -> None:
    project.removeEntry(SCOPE, KEY)
