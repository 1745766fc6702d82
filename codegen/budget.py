"""The code worker's context budget: what each repair round shows the model, so the prompt fits the model's context.

Every round sends the same prefix (the system prompt, then the request with the layers' schema), so a server that
caches prompts (llama-server) reuses it, then only the latest attempt in full (its code and its error) with every
older attempt summarised in one line. Kept whole, the history grew past llama-server's 8k context after four rounds
(HTTP 400 'request (8,305 tokens) exceeds the available context'). When even that does not fit, the output, then the
error, then the older lines, then the notes (hints, documentation), then the middle of the code are cut, in that
order.
"""

from __future__ import annotations

from dataclasses import dataclass, field

DEFAULT_CONTEXT = 8192  # llama-server's and LM Studio's usual window: a sane guess when the server does not say
DEFAULT_REPLY = 2048  # tokens kept free for the reply (the client's max_tokens)
MARGIN = 0.9  # counted with cl100k, not the model's own tokenizer: keep a tenth spare
SUMMARY_CHARS = 160


def prompt_budget(context_tokens: int | None = None, reply_tokens: int | None = None) -> int:
    """Tokens a prompt may use: the context minus the reply's share, with a margin for the tokenizer."""
    context = int(context_tokens or DEFAULT_CONTEXT)
    reply = int(reply_tokens or DEFAULT_REPLY)
    reply = min(reply, context // 3)  # a huge reply cap on a small context must not leave no room for the prompt
    return max(512, int((context - reply) * MARGIN))


def summary_line(number: int, error: str | None) -> str:
    """One older attempt in a line: how it failed (the first line of its error, trimmed)."""
    first = (error or "failed").strip().splitlines()[0] if (error or "").strip() else "failed"
    if len(first) > SUMMARY_CHARS:
        first = first[: SUMMARY_CHARS - 3] + "..."
    return f"- Attempt {number}: {first}"


@dataclass
class Round:
    """The latest attempt: the model's reply, and the feedback's parts (built into one message when sent)."""

    reply: str
    error: str
    stdout: str
    notes: list[str]
    number: int


@dataclass
class RepairContext:
    """The conversation of one request, rebuilt for each round within `budget` tokens."""

    base: list[dict]  # system prompt and request: the same, first, in every round
    budget: int
    max_attempts: int
    older: list[str] = field(default_factory=list)  # one line per attempt before the latest
    latest: Round | None = None

    def add(self, reply: str, error: str, stdout: str, notes: list[str], number: int) -> None:
        """Record a failed attempt; the one before it becomes a summary line."""
        if self.latest is not None:
            self.older.append(summary_line(self.latest.number, self.latest.error))
        self.latest = Round(reply, error, stdout, list(notes), number)

    def messages(self) -> list[dict]:
        """The messages of the next round: the stable prefix, then the latest attempt, shrunk until they fit."""
        from ..model_text.tokens import count_messages
        from .prompt import repair_message

        if self.latest is None:
            return list(self.base)
        r = self.latest
        reply, error, stdout, older, notes = r.reply, r.error, r.stdout, list(self.older), list(r.notes)
        for step in range(7):
            messages = [*self.base, {"role": "assistant", "content": reply},
                        repair_message(error, stdout, r.number, self.max_attempts, notes, older)]  # fmt: skip
            if count_messages(messages) <= self.budget:
                return messages
            if step == 0:
                stdout = ""
            elif step == 1:
                error = _cut_middle(error, 600)
            elif step == 2:
                older = older[-2:]
            elif step == 3:  # the hints and documentation entries (codegen/docs_index.py): the first two, cut
                notes = [_cut_middle(n, 300) for n in notes[:2]]
            elif step == 4:
                reply = _cut_middle(reply, max(800, len(reply) // 3))
            elif step == 5:  # last: no notes, the error's gist and the code's ends
                notes, error, reply, older = [], _cut_middle(error, 300), _cut_middle(reply, 500), older[-1:]
        return messages


def _cut_middle(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    head = limit * 2 // 3
    return (
        text[:head]
        + f"\n[... {len(text) - limit} characters cut to fit the model's context ...]\n"
        + text[-(limit - head) :]
    )
