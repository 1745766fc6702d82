"""A stand-in for llama-server: takes its command line (-m FILE --port N …), serves /health and the
OpenAI-compatible API from the replies in $FAKE_LLAMA_REPLIES (a JSON list, tests/scripted_server.py format),
and writes every request body to $FAKE_LLAMA_LOG. Lets tests drive the managed-subprocess path end to end."""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import threading
from pathlib import Path

from geoclerk.tests.scripted_server import ScriptedServer


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("-m", required=True)
    ap.add_argument("--port", type=int, required=True)
    args, _ = ap.parse_known_args()
    if not Path(args.m).exists():
        sys.exit(f"model file {args.m} not found")
    replies = json.loads(os.environ.get("FAKE_LLAMA_REPLIES", "[]"))
    server = ScriptedServer(replies, model=Path(args.m).name, port=args.port).start()
    done = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: done.set())
    done.wait()
    log = os.environ.get("FAKE_LLAMA_LOG")
    if log:
        Path(log).write_text(json.dumps(server.requests))
    server.stop()


if __name__ == "__main__":
    main()
