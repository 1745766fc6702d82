"""Endpoint failures in plain words: each openai exception becomes an LLMError that says what to do."""

from __future__ import annotations

import re

from ..errors import GeoClerkError, LLMError

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


def _explain(exc, settings) -> LLMError:
    import openai

    if isinstance(exc, LLMError):
        return exc
    if isinstance(exc, GeoClerkError):
        return LLMError(exc.message, fix=exc.fix, details=exc.details)
    base, model = safe_url(settings.base_url), settings.model
    if type(exc).__name__ == "IncompleteStreamError":
        return LLMError(
            f"The server at {base} closed the connection before its reply was complete.",
            fix="Try again; if it keeps happening, check the server's log (it may be crashing on this request).",
        )
    if isinstance(exc, openai.APITimeoutError):
        return LLMError(
            f"The server at {base} is not answering: no reply within {settings.timeout_s:g} s.",
            fix="Check that the server is running and not overloaded, or raise the timeout.",
        )
    if isinstance(exc, openai.APIConnectionError):
        cause = exc.__cause__ or exc.__context__
        closed = cause is not None and any(
            w in repr(cause).lower() for w in ("disconnect", "closed", "incomplete", "remote")
        )
        if closed:
            return LLMError(
                f"The server at {base} closed the connection before its reply was complete.",
                fix="Try again; if it keeps happening, check the server's log (it may be crashing on this request).",
            )
        return LLMError(
            f"The server at {base} is not answering.",
            fix="Check the base URL and that the server is running (for Ollama: `ollama serve`).",
        )
    status = getattr(exc, "status_code", None)
    text = redact(_server_message(exc), settings)
    if status in (401, 403):
        return LLMError(
            f"The endpoint at {base} refused the key (HTTP {status}).",
            fix="Check the API key: in QGIS, GeoClerk's settings (Open settings); on the command line, "
            "GEOCLERK_API_KEY or OPENAI_API_KEY.",
        )
    if status == 404:
        if settings.provider == "ollama" or "pull" in text.lower():
            return LLMError(f"Model {model} is not pulled in Ollama.", fix=f"Run `ollama pull {model}` and try again.")
        return LLMError(
            f"The endpoint at {base} does not know model {model} (HTTP 404). {text}".strip(),
            fix="Check the model name, and that the base URL ends with /v1.",
        )
    if status == 429:
        return LLMError(
            f"The endpoint at {base} is rate-limiting requests (HTTP 429) and kept doing so after retries.",
            fix="Wait a minute, or check the quota of your account.",
        )
    if status is not None and status >= 500:
        return LLMError(
            f"The server at {base} failed (HTTP {status}). {text}".strip(),
            fix="Try again later; if it persists, check the server's log.",
        )
    if status in (400, 422):
        err = LLMError(
            f"The endpoint at {base} rejected the request (HTTP {status}): {text}",
            fix="Check the model name and that it supports this kind of request"
            + (" (for a model without tool calling, set GEOCLERK_TOOL_MODE=json)." if "tool" in text.lower() else "."),
        )
        err.tools_unsupported = bool(_TOOLS_UNSUPPORTED.search(text))
        err.temperature_unsupported = "temperature" in text.lower()
        return err
    if isinstance(exc, (ValueError, openai.APIResponseValidationError)) or "json" in type(exc).__name__.lower():
        return LLMError(
            f"The reply from {base} was not valid JSON.",
            fix="Is this an OpenAI-compatible /v1 endpoint? Check the base URL.",
        )
    if status is not None:
        return LLMError(f"The endpoint at {base} answered HTTP {status}. {text}".strip(), fix="Check the settings.")
    return LLMError(f"Calling the model at {base} failed: {type(exc).__name__}.", fix="Check the endpoint settings.")
