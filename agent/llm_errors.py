"""Endpoint failures in plain words: each openai exception becomes an LLMError that says what to do."""

from __future__ import annotations

import re

from ..errors import GeoClerkError, LLMError
from ..lang import tr

# Any 400/422 to a request with tools that speaks of tools at all: the model or server cannot take them
# (Ollama "does not support tools", vLLM "auto tool choice requires --enable-auto-tool-choice", llama.cpp
# "tools param requires --jinja", "tools is not supported", "Extra inputs are not permitted: tools", ...).
_TOOLS_UNSUPPORTED = re.compile(r"\btools?\b|tool_choice|tool[ _-]?call|function|jinja", re.I)
_USERINFO = re.compile(r"(?<=://)[^/@\s]+@")
_BEARER = re.compile(r"(Bearer\s+|api[-_]?key\s*[=:]\s*)[^\s,;\"']+", re.I)


def safe_url(url: str | None) -> str:
    """A URL fit to print: no user:password@ and no ?query (either may hold a key)."""
    url = _USERINFO.sub("", str(url or ""))
    return url.split("?", 1)[0].split("#", 1)[0]


def redact(text: str, settings=None) -> str:
    """Server or URL text with the API key, bearer tokens and URL credentials blanked out."""
    text = str(text or "")
    key = getattr(settings, "api_key", None)
    if key and len(key) >= 4:
        text = text.replace(key, "***")
    base = getattr(settings, "base_url", None)
    if base and base != safe_url(base):
        text = text.replace(base, safe_url(base))
    text = _BEARER.sub(lambda m: m.group(1) + "***", text)
    return re.sub(r"(\?|&)(key|api_key|api-key|token|access_token)=[^&\s]+", r"\1\2=***", _USERINFO.sub("", text))


def _server_message(exc) -> str:
    """The error text the server sent, without the request body or any header."""
    body = getattr(exc, "body", None)
    if isinstance(body, dict):
        err = body.get("error", body)
        if isinstance(err, dict):
            return str(err.get("message") or err.get("detail") or "")[:300]
        return str(err)[:300]
    if isinstance(body, str):
        return body[:300]
    return str(getattr(exc, "message", "") or "")[:300]


def explain(exc, settings) -> LLMError:
    """Map any failure of a model call to one LLMError with a user-facing message and a fix."""
    err = _explain(exc, settings)
    err.message = redact(err.message, settings)
    if getattr(err, "fix", None):
        err.fix = redact(err.fix, settings)
    for flag in ("tools_unsupported", "temperature_unsupported"):
        if not hasattr(err, flag):
            setattr(err, flag, False)
    return err


def _key_fix(settings) -> str:
    """Where the user sets the key: the plugin's settings inside QGIS, the environment on the command line."""
    if getattr(settings, "host", "cli") == "qgis":
        return tr("Check the API key in GeoClerk's settings (Open settings).")
    return tr("Check the API key in GEOCLERK_API_KEY or OPENAI_API_KEY.")


def _explain(exc, settings) -> LLMError:
    import openai

    if isinstance(exc, LLMError):
        return exc
    if isinstance(exc, GeoClerkError):
        return LLMError(exc.message, fix=exc.fix, details=exc.details)
    base, model = safe_url(settings.base_url), settings.model
    closed = LLMError(
        tr("The server at {url} closed the connection before its reply was complete.").format(url=base),
        fix=tr("Try again; if it keeps happening, check the server's log (it may be crashing on this request)."),
    )
    if type(exc).__name__ == "IncompleteStreamError":
        return closed
    if isinstance(exc, openai.APITimeoutError):
        return LLMError(
            tr("The server at {url} is not answering: no reply within {seconds} s.").format(
                url=base, seconds=f"{settings.timeout_s:g}"
            ),
            fix=tr("Check that the server is running and not overloaded, or raise the timeout."),
        )
    if isinstance(exc, openai.APIConnectionError):
        cause = exc.__cause__ or exc.__context__
        words = ("disconnect", "closed", "incomplete", "remote")
        if cause is not None and any(w in repr(cause).lower() for w in words):
            return closed
        return LLMError(
            tr("The server at {url} is not answering.").format(url=base),
            fix=tr("Check the base URL and that the server is running (for Ollama: `ollama serve`)."),
        )
    status = getattr(exc, "status_code", None)
    text = redact(_server_message(exc), settings)
    if status in (401, 403):
        return LLMError(
            tr("The endpoint at {url} refused the key (HTTP {status}).").format(url=base, status=status),
            fix=_key_fix(settings),
        )
    if status == 404:
        if settings.provider == "ollama" or "pull" in text.lower():
            return LLMError(
                tr("Model {model} is not pulled in Ollama.").format(model=model),
                fix=tr("Run `ollama pull {model}` and try again.").format(model=model),
            )
        return LLMError(
            tr("The endpoint at {url} does not know model {model} (HTTP 404).").format(url=base, model=model)
            + (f" {text}" if text else ""),
            fix=tr("Check the model name, and that the base URL ends with /v1."),
        )
    if status == 429:
        return LLMError(
            tr("The endpoint at {url} is rate-limiting requests (HTTP 429) and kept doing so after retries.").format(
                url=base
            ),
            fix=tr("Wait a minute, or check the quota of your account."),
        )
    if status is not None and status >= 500:
        return LLMError(
            tr("The server at {url} failed (HTTP {status}).").format(url=base, status=status)
            + (f" {text}" if text else ""),
            fix=tr("Try again later; if it persists, check the server's log."),
        )
    if status in (400, 422):
        fix = (
            tr("Check the model name and that it supports this kind of request (for a model without tool calling, "
               "set GEOCLERK_TOOL_MODE=json).")
            if "tool" in text.lower()
            else tr("Check the model name and that it supports this kind of request.")
        )  # fmt: skip
        err = LLMError(
            tr("The endpoint at {url} rejected the request (HTTP {status}): {text}").format(
                url=base, status=status, text=text
            ),
            fix=fix,
        )
        err.tools_unsupported = bool(_TOOLS_UNSUPPORTED.search(text))
        err.temperature_unsupported = "temperature" in text.lower()
        return err
    if isinstance(exc, (ValueError, openai.APIResponseValidationError)) or "json" in type(exc).__name__.lower():
        return LLMError(
            tr("The reply from {url} was not valid JSON.").format(url=base),
            fix=tr("Is this an OpenAI-compatible /v1 endpoint? Check the base URL."),
        )
    if status is not None:
        return LLMError(
            tr("The endpoint at {url} answered HTTP {status}.").format(url=base, status=status)
            + (f" {text}" if text else ""),
            fix=tr("Check the settings."),
        )
    return LLMError(
        tr("Calling the model at {url} failed: {error}.").format(url=base, error=type(exc).__name__),
        fix=tr("Check the endpoint settings."),
    )
