"""Token counting: the API's usage when it reports one, else cl100k_base (tiktoken offline, or bpe_openai)."""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import threading
from functools import lru_cache

# Per-message overhead of the chat format (role markers), as OpenAI's cookbook counts it.
MESSAGE_OVERHEAD = 4
REPLY_PRIMING = 3


CL100K_URL = "https://openaipublic.blob.core.windows.net/encodings/cl100k_base.tiktoken"


def _tiktoken_cached() -> bool:
    """Whether tiktoken has cl100k_base in its cache (else it would try the network, which may hang)."""
    cache = os.environ.get("TIKTOKEN_CACHE_DIR") or os.environ.get("DATA_GYM_CACHE_DIR")
    cache = cache or os.path.join(tempfile.gettempdir(), "data-gym-cache")
    return os.path.exists(os.path.join(cache, hashlib.sha1(CL100K_URL.encode(), usedforsecurity=False).hexdigest()))


_LOAD_LOCK = threading.Lock()


def encoding():
    """cl100k_base from tiktoken when it loads offline (cached table), else from bpe_openai (bundled)."""
    with _LOAD_LOCK:  # the warm-up thread and a first count must not load it twice
        return _load()


@lru_cache(maxsize=1)
def _load():
    if _tiktoken_cached():
        try:
            import tiktoken

            enc = tiktoken.get_encoding("cl100k_base")
            enc.encode("probe")
            return enc
        except Exception:  # noqa: BLE001 - a broken cache or a missing package: use the bundled tokenizer
            pass
    import bpe_openai

    return bpe_openai.get_encoding("cl100k_base")


def warm_up() -> None:
    """Load the tokenizer in the background (it takes seconds), so the first count does not wait."""
    threading.Thread(target=encoding, daemon=True, name="geoclerk-tokenizer").start()


def count_text(text: str) -> int:
    """Tokens in a piece of text."""
    if not text:
        return 0
    return len(encoding().encode(text, disallowed_special=()))


def count_messages(messages: list[dict], tools: list[dict] | None = None) -> int:
    """Prompt tokens of a chat request: every message's text and tool calls, plus the tool schemas."""
    total = REPLY_PRIMING
    for msg in messages:
        total += MESSAGE_OVERHEAD
        content = msg.get("content")
        if isinstance(content, list):  # content parts
            content = " ".join(str(p.get("text", "")) for p in content if isinstance(p, dict))
        total += count_text(content or "")
        for call in msg.get("tool_calls") or []:
            fn = call.get("function", {})
            total += count_text(fn.get("name", "")) + count_text(fn.get("arguments", ""))
    if tools:
        total += count_text(json.dumps(tools, separators=(",", ":")))
    return total


def count_reply(content: str | None, tool_calls: list | None = None) -> int:
    """Completion tokens of a reply: its text and the names and arguments of its tool calls."""
    total = count_text(content or "")
    for call in tool_calls or []:
        total += count_text(call.name) + count_text(call.arguments or "")
    return total
