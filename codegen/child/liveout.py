"""A cell's stdout that reaches the parent while the code runs, so a timeout or a crash still shows what it printed."""

from __future__ import annotations

import io
import json
import threading
import time

MAX_STDOUT = 1_000_000
FLUSH_EVERY = 0.25  # seconds between shipments of printed text while a cell runs
FLUSH_GAP = 0.05  # print(..., flush=True) ships at once unless it shipped less than this ago (loops that flush)


class Channel:
    """The protocol's output stream with one lock: the flusher thread and the main loop never interleave lines."""

    def __init__(self, stream):
        self.stream = stream
        self.lock = threading.Lock()

    def send(self, message: dict) -> None:
        line = json.dumps(message, default=str) + "\n"
        with self.lock:
            self.stream.write(line)
            self.stream.flush()


class LiveOut(io.TextIOBase):
    """sys.stdout of one cell: keeps the text (its last MAX_STDOUT characters) and ships new text as chunks."""

    def __init__(self, channel: Channel, request_id):
        super().__init__()
        self._channel = channel
        self._id = request_id
        self._text = io.StringIO()
        self._total = 0
        self._pending: list[str] = []
        self._pending_size = 0
        self._lock = threading.Lock()
        self._done = False
        self._shipped_at = 0.0

    def writable(self) -> bool:
        return True

    def write(self, text) -> int:
        if not isinstance(text, str):
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        with self._lock:
            self._text.write(text)
            self._total += len(text)
            if self._text.tell() > 2 * MAX_STDOUT:
                tail = self._text.getvalue()[-MAX_STDOUT:]
                self._text = io.StringIO()
                self._text.write(tail)
            if not self._done:
                self._pending.append(text)
                self._pending_size += len(text)
                if self._pending_size > 2 * MAX_STDOUT:
                    self._pending = ["".join(self._pending)[-MAX_STDOUT:]]
                    self._pending_size = MAX_STDOUT
        return len(text)

    def flush(self) -> None:
        if time.monotonic() - self._shipped_at >= FLUSH_GAP:
            self.ship()

    def ship(self) -> None:
        """Send the text printed since the last shipment (print(..., flush=True) calls this at once)."""
        with self._lock:
            if self._done or not self._pending:
                return
            text = "".join(self._pending)
            self._pending, self._pending_size = [], 0
            self._shipped_at = time.monotonic()
        self._channel.send({"id": self._id, "chunk": text})

    def finish(self) -> tuple[str, bool]:
        """Stop shipping (the reply carries everything); returns the kept text and whether it was cut."""
        with self._lock:
            self._done = True
            self._pending = []
            return self._text.getvalue()[-MAX_STDOUT:], self._total > MAX_STDOUT


class Flusher:
    """One daemon thread for the child's life: ships the running cell's new output every FLUSH_EVERY seconds."""

    def __init__(self):
        self.current: LiveOut | None = None
        threading.Thread(target=self._loop, name="geoclerk-stdout", daemon=True).start()

    def _loop(self) -> None:
        while True:
            time.sleep(FLUSH_EVERY)
            out = self.current
            if out is not None:
                try:
                    out.ship()
                except (OSError, ValueError):
                    return  # the parent went away
