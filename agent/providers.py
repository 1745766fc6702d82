"""Provider presets for OpenAI-compatible endpoints, and the settings a model client is built from."""

from __future__ import annotations

import os
from dataclasses import dataclass

# Default base URLs of the OpenAI-compatible APIs GeoClerk knows. Azure needs the resource name,
# so its preset is a template; "custom" needs an explicit URL.
PRESETS: dict[str, dict] = {
    "openai": {"label": "OpenAI", "base_url": "https://api.openai.com/v1", "needs_key": True},
    "azure": {"label": "Azure OpenAI", "base_url": "https://{resource}.openai.azure.com/openai/v1", "needs_key": True},
    "ollama": {"label": "Ollama", "base_url": "http://localhost:11434/v1", "needs_key": False},
    "lmstudio": {"label": "LM Studio", "base_url": "http://localhost:1234/v1", "needs_key": False},
    "llamacpp": {"label": "llama.cpp server", "base_url": "http://localhost:8080/v1", "needs_key": False},
    "vllm": {"label": "vLLM", "base_url": "http://localhost:8000/v1", "needs_key": False},
    "deepseek": {"label": "DeepSeek", "base_url": "https://api.deepseek.com/v1", "needs_key": True},
    "qwen": {
        "label": "Qwen (DashScope)",
        "base_url": "https://dashscope.aliyuncs.com/compatible-mode/v1",
        "needs_key": True,
    },
    "glm": {"label": "GLM (Zhipu)", "base_url": "https://open.bigmodel.cn/api/paas/v4", "needs_key": True},
    "custom": {"label": "Custom OpenAI-compatible", "base_url": "", "needs_key": False},
    # A GGUF file on disk: GeoClerk starts llama-server for it on a free loopback port (agent/local_model.py).
    "local_gguf": {"label": "Local model file (GGUF)", "base_url": "", "needs_key": False, "local": True},
}

# Local servers accept any key; the client library still wants a non-empty one.
PLACEHOLDER_KEY = "not-needed"


@dataclass
class LLMSettings:
    """Everything needed to talk to one model. `api_key` is never written to logs or reports."""

    base_url: str
    model: str
    api_key: str | None = None
    provider: str = "custom"
    timeout_s: float = 60.0
    max_retries: int = 3
    backoff_s: float = 0.5  # first retry delay; doubles each time, capped at 8 s
    stream: bool = False
    tool_mode: str = "auto"  # auto (native, falling back to text JSON), native, json
    temperature: float | None = 0.0
    # A cap on each reply (a tool round needs far less): a small local model can otherwise generate until its context
    # is full (the 1.5B model wrote 1,600+ tokens of one reply, two minutes on a CPU). Not sent to OpenAI/Azure, whose
    # reasoning models count their hidden reasoning in the cap and reject `max_tokens`.
    max_tokens: int | None = 2048
    host: str = "cli"  # where the user fixes the connection: "qgis" (the plugin's settings) or "cli" (the environment)
    # The model's context window in tokens when known (a managed local server's -c); else the client asks the server.
    context_tokens: int | None = None

    def __repr__(self) -> str:  # keep the key out of any accidental print or log line
        return f"LLMSettings(provider={self.provider!r}, base_url={self.base_url!r}, model={self.model!r})"


def guess_provider(base_url: str) -> str:
    """The preset a base URL most likely belongs to (used for provider-specific error advice)."""
    url = (base_url or "").lower()
    for name, marker in (
        ("ollama", ":11434"),
        ("lmstudio", ":1234"),
        ("azure", ".openai.azure.com"),
        ("openai", "api.openai.com"),
        ("deepseek", "deepseek.com"),
        ("qwen", "dashscope"),
        ("glm", "bigmodel.cn"),
        ("vllm", ":8000"),
        ("llamacpp", ":8080"),
    ):
        if marker in url:
            return name
    return "custom"


def resolve_base_url(provider: str, base_url: str | None, resource: str | None = None) -> str:
    """An explicit URL wins; otherwise the provider's preset (Azure filled with its resource name)."""
    from ..errors import LLMError

    if base_url:
        return base_url.rstrip("/")
    preset = PRESETS.get(provider)
    if preset is None:
        raise LLMError(f"Unknown provider '{provider}'.", fix="Choose one of: " + ", ".join(PRESETS) + ".")
    url = preset["base_url"]
    if "{resource}" in url:
        if not resource:
            raise LLMError("Azure OpenAI needs the resource name.", fix="Give the endpoint URL of your Azure resource.")
        url = url.format(resource=resource)
    if not url:
        raise LLMError("A custom provider needs a base URL.", fix="Give the server's URL, ending in /v1.")
    return url


def key_from_env() -> str | None:
    """The API key from GEOCLERK_API_KEY, else OPENAI_API_KEY."""
    return os.environ.get("GEOCLERK_API_KEY") or os.environ.get("OPENAI_API_KEY") or None


def resolve_key(key) -> str | None:
    """The API key: a string, or a callable that reads it only now (the plugin's key sits behind QGIS's master
    password, which must not be asked for by a request that never calls a model)."""
    return key() if callable(key) else key


def settings_from_config(config) -> LLMSettings:
    """LLM settings from an AgentConfig; optional extras (provider, stream, tool_mode...) read when present."""
    provider = getattr(config, "provider", None) or (guess_provider(config.base_url) if config.base_url else "openai")
    base_url = resolve_base_url(provider, config.base_url, getattr(config, "azure_resource", None))
    return LLMSettings(
        base_url=base_url,
        model=config.model or "default",
        api_key=resolve_key(config.api_key) or key_from_env(),
        provider=provider,
        timeout_s=float(config.timeout_s),
        max_retries=int(getattr(config, "max_retries", 3)),
        backoff_s=float(getattr(config, "backoff_s", 0.5)),
        stream=bool(getattr(config, "stream", False)),
        tool_mode=getattr(config, "tool_mode", None) or os.environ.get("GEOCLERK_TOOL_MODE", "auto"),
        host=getattr(config, "host", "cli"),
    )
