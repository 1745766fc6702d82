"""Typed plugin settings under one `GeoClerk/` prefix; the API key lives in QgsAuthManager."""

from __future__ import annotations

import os
from dataclasses import dataclass, fields

from qgis.core import QgsApplication, QgsAuthMethodConfig, QgsSettings

from ..agent.providers import PRESETS  # noqa: F401 - re-exported for the dialog
from ..compat import OLD_SETTINGS_PREFIX

PREFIX = "GeoClerk/"
AUTH_METHOD = "APIHeader"  # only used as a container for the secret; we never send it through QGIS

ARCHITECTURES = ("react", "planner")  # the function tier (tier 1)
CODEGEN_MODES = ("react", "planner")  # the code worker (tier 2): one agent, or a planner's subtasks


def migrate_old_settings(store) -> int:
    """Copy the settings kept under GeoAgent/ (the name before GeoClerk) once, when GeoClerk/ has none; how many."""
    if any(key.startswith(PREFIX) for key in store.allKeys()):
        return 0
    old = [key for key in store.allKeys() if key.startswith(OLD_SETTINGS_PREFIX)]
    for key in old:
        store.setValue(PREFIX + key[len(OLD_SETTINGS_PREFIX) :], store.value(key))
    return len(old)


@dataclass
class GeoClerkSettings:
    """Everything the user can set; read() and write() map it to QgsSettings keys."""

    preset: str = "custom"
    base_url: str = ""
    model: str = ""
    authcfg: str = ""  # id of the QgsAuthManager entry holding the API key; never the key
    gguf_path: str = ""  # the 'Local model file (GGUF)' provider: the model file ('' = the `make model` one)
    llama_server: str = ""  # and the llama-server binary ('' = the built one, else llama-server on PATH)
    sandbox_python: str = ""  # the Python that runs generated code ('' = found next to QGIS, or GEOCLERK_PYTHON)
    architecture: str = "react"
    codegen_mode: str = "react"
    tier0: bool = True
    trust_tier0: bool = False  # with a model: skip the model's confirmation of a no-model plan
    threshold: float = 0.7
    review_code: bool = False
    max_repairs: int = 5
    timeout_s: float = 60.0
    keep_conversation: bool = False
    dask_scheduler: str = ""  # large inputs run on this Dask scheduler (tcp://HOST:8786); '' = a local cluster

    @classmethod
    def read(cls) -> GeoClerkSettings:
        store = QgsSettings()
        migrate_old_settings(store)
        values = {}
        for f in fields(cls):
            default = f.default
            raw = store.value(PREFIX + f.name, default)
            values[f.name] = _coerce(raw, type(default))
        return cls(**values)

    def write(self) -> None:
        store = QgsSettings()
        for f in fields(self):
            store.setValue(PREFIX + f.name, getattr(self, f.name))

    def api_key(self) -> str:
        """The API key from the auth database ('' when none is stored or the database is locked)."""
        return read_api_key(self.authcfg)

    def agent_config(self, route: str = "auto"):
        """The core's AgentConfig (environment variables fill gaps for headless runs; the key stays in memory)."""
        from ..agent.pipeline import AgentConfig
        from ..function_lib.dask_engine import configure

        if self.dask_scheduler.strip():  # large inputs on this cluster; the environment's choice stays otherwise
            configure(scheduler=self.dask_scheduler.strip())
        common = dict(
            route=route,
            architecture=self.architecture,
            codegen_mode=self.codegen_mode,
            tier0=self.tier0,
            trust_tier0=self.trust_tier0,
            threshold=self.threshold,
            max_repairs=self.max_repairs,
            timeout_s=self.timeout_s,
            review_code=self.review_code,
            sandbox_python=self.sandbox_python or None,
        )
        if self.preset == "local_gguf":  # GeoClerk starts llama-server for the file when a model is first needed
            common["timeout_s"] = max(self.timeout_s, 300.0)  # a CPU model takes minutes
            return AgentConfig(
                model="local", local_model=self.gguf_path, local_server=self.llama_server or None, host="qgis", **common
            )
        base_url = self.base_url or os.environ.get("GEOCLERK_BASE_URL", "")
        model = self.model or os.environ.get("GEOCLERK_MODEL", "")
        return AgentConfig(
            base_url=base_url or None,
            model=model or None,
            api_key=StoredKey(self.authcfg) if (base_url or model) else None,
            offline=not (base_url or model),
            host="qgis",
            **common,
        )


class StoredKey:
    """The API key, read from the auth database (else GEOCLERK_API_KEY / OPENAI_API_KEY) when a model is first
    called, never before: opening the database can ask for QGIS's master password, which a request served
    without a model must not do. Called from the request's thread; the value is kept for the request."""

    def __init__(self, authcfg: str):
        self.authcfg = authcfg
        self.read = False
        self.value = ""

    def __call__(self) -> str:
        if not self.read:
            self.value = read_api_key(self.authcfg) or os.environ.get("GEOCLERK_API_KEY") or ""
            self.value = self.value or os.environ.get("OPENAI_API_KEY") or ""
            self.read = True
        return self.value

    def __repr__(self) -> str:  # never the key in a log line
        return f"StoredKey(authcfg={self.authcfg!r}, read={self.read})"


def secrets_of(config) -> tuple[str, ...]:
    """The secrets a request may have used, to blank out of what is stored (a key never read is not known)."""
    key = getattr(config, "api_key", None)
    if isinstance(key, StoredKey):
        return (key.value,) if key.read and key.value else ()
    return (key,) if isinstance(key, str) and key else ()


def _coerce(raw, kind):
    if kind is bool:
        return raw if isinstance(raw, bool) else str(raw).lower() in ("true", "1", "yes")
    try:
        return kind(raw)
    except (TypeError, ValueError):
        return kind()


def store_api_key(key: str, authcfg: str = "") -> str:
    """Store (or update) the API key in QgsAuthManager; returns the authcfg id to keep in settings."""
    manager = QgsApplication.authManager()
    config = QgsAuthMethodConfig()
    if authcfg:
        manager.loadAuthenticationConfig(authcfg, config, True)
    config.setName("GeoClerk API key")
    config.setMethod(AUTH_METHOD)
    config.setConfig("key", "Authorization")
    config.setConfig("value", key)
    if config.id():
        manager.updateAuthenticationConfig(config)
    else:
        manager.storeAuthenticationConfig(config)
    return config.id()


def read_api_key(authcfg: str) -> str:
    if not authcfg:
        return ""
    config = QgsAuthMethodConfig()
    if not QgsApplication.authManager().loadAuthenticationConfig(authcfg, config, True):
        return ""
    return config.config("value", "")


def remove_api_key(authcfg: str) -> None:
    if authcfg:
        QgsApplication.authManager().removeAuthenticationConfig(authcfg)
