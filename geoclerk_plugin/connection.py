"""'Test connection': one small call to the configured endpoint, reported in plain words."""

from __future__ import annotations

from qgis.core import QgsTask

from .i18n import tr


def check_connection(base_url: str, model: str, api_key: str, timeout_s: float = 10.0) -> tuple[bool, str]:
    """(ok, message) after listing the server's models and checking that `model` is among them."""
    if not base_url:
        return False, tr("No base URL is set. Choose a provider preset or type the server's URL (ending in /v1).")
    try:
        import openai
    except ImportError:
        return False, tr("The 'openai' package is missing. Install it from the message GeoClerk showed at start-up.")
    client = openai.OpenAI(base_url=base_url, api_key=api_key or "not-needed", timeout=timeout_s, max_retries=0)
    try:
        names = [m.id for m in client.models.list().data]
    except openai.AuthenticationError:
        return False, tr("The server refused the API key. Check the key (and that it belongs to this provider).")
    except openai.NotFoundError:
        return False, tr(
            "The server answered, but {url} is not an OpenAI-compatible API. Check the URL; it usually ends in /v1."
        ).format(url=base_url)
    except openai.APIConnectionError:
        return False, tr("Could not reach {url}. Is the server running, and is the address right?").format(url=base_url)
    except openai.APIError as exc:
        return False, tr("The server answered with an error: {error}").format(error=str(exc)[:200])
    if model and names and model not in names:
        shown = ", ".join(names[:8])
        return False, tr("Connected, but the server has no model called '{model}'. Available: {names}").format(
            model=model, names=shown
        )
    if not model:
        return False, tr("Connected, but no model is set. Available: {names}").format(names=", ".join(names[:8]))
    return True, tr("Connected. Model '{model}' is available.").format(model=model)


def check_local_model(gguf: str, server: str = "") -> tuple[bool, str]:
    """(ok, message) after starting llama-server for the GGUF file (kept running for the requests that follow)."""
    from ..agent.local_model import shared_server
    from ..errors import LLMError

    try:
        running = shared_server(gguf or None, server or None)
    except LLMError as exc:
        return False, exc.user_text()
    if not running.healthy():
        return False, tr("llama-server started but does not answer; see {log}.").format(log=running.log)
    return True, tr("The local model {name} is running at {url}.").format(
        name=running.model.name, url=running.base_url
    )


class ConnectionTask(QgsTask):
    """Runs check_connection off the main thread; on_done(ok, message) is called in finished()."""

    def __init__(self, base_url: str, model: str, api_key: str, on_done, local: tuple[str, str] | None = None):
        super().__init__("GeoClerk: testing the connection", QgsTask.Flag.CanCancel)
        self.args = (base_url, model, api_key)
        self.local = local  # (gguf, llama-server): start the local model instead of calling a URL
        self.on_done = on_done
        self.result = (False, "")

    def run(self) -> bool:
        try:
            self.result = check_local_model(*self.local) if self.local is not None else check_connection(*self.args)
        except Exception as exc:  # noqa: BLE001 - reported in finished()
            self.result = (False, str(exc))
        return self.result[0]

    def finished(self, result: bool) -> None:  # noqa: FBT001
        self.on_done(*self.result)
