"""The `geoclerk` command line: route, run, exec and tools on the same core as the plugin."""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

from ..agent.llm_errors import safe_url
from ..errors import GeoClerkError, ValidationError
from ..lang import language, language_from_env, set_language
from .common import EXIT_USAGE, CliUsageError, _check_inputs, _check_out_dir, _emit_error, stdout_to_stderr
from .route import cmd_route


class OneLineParser(argparse.ArgumentParser):
    """argparse that reports usage errors in one line instead of a usage block."""

    def error(self, message):
        raise CliUsageError(f"{self.prog}: {message} (see '{self.prog} --help')")


def _answer_pair(text: str) -> tuple[str, str]:
    """`--answer ID=CHOICE` as (id, choice); anything else is a usage error."""
    from ..agent.holes import parse_answers

    try:
        return next(iter(parse_answers([text]).items()))
    except ValidationError as exc:
        raise argparse.ArgumentTypeError(exc.user_text()) from exc


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(prog="geoclerk", description="Plain-language GIS requests, answered on your data.")
    sub = parser.add_subparsers(dest="command", parser_class=OneLineParser)

    p = sub.add_parser("route", help="classify a request: route, confidence, ranked tools, tier-0 plan")
    p.add_argument("request", nargs="?", help="the request text")
    p.add_argument("--input", "-i", action="append", default=[], metavar="PATH", help="an input layer file")
    p.add_argument("--batch", metavar="FILE.jsonl", help='one {"request", "inputs"} object per line')
    p.add_argument("--json", action="store_true", help="print JSON")

    p = sub.add_parser("run", help="run a request and write its outputs")
    p.add_argument("request")
    p.add_argument("--input", "-i", action="append", default=[], metavar="PATH")
    p.add_argument("--out-dir", "-o", required=True, metavar="DIR")
    p.add_argument("--offline", action="store_true", help="never contact a model")
    p.add_argument("--base-url", metavar="URL", help="OpenAI-compatible endpoint")
    p.add_argument("--model", metavar="NAME")
    p.add_argument("--route", choices=["auto", "function", "codegen"], default="auto")
    p.add_argument("--architecture", choices=["react", "planner"], default="react")
    p.add_argument("--codegen-mode", choices=["react", "planner"], default="react",
                   help="tier 2: one agent that inspects and writes the script, or a planner's subtasks")  # fmt: skip
    p.add_argument("--candidates", type=int, default=3, metavar="K",
                   help="tier 2: alternatives (≤ 3) tried on a sample after two failed attempts; 0: off")  # fmt: skip
    p.add_argument("--threshold", type=float, default=None, help="tier-0 confidence threshold (0-1)")
    p.add_argument("--no-tier0", action="store_true", help="always ask the model, even when the router has a plan")
    p.add_argument(
        "--local-model",
        nargs="?",
        const="",
        metavar="GGUF",
        help="serve a local GGUF model for this request (default: the one `make model` made)",
    )
    p.add_argument(
        "--trust-tier0",
        action="store_true",
        help="with a model: run a complete no-model plan without the model's one-round confirmation",
    )
    p.add_argument(
        "--engine",
        choices=["auto", "qgis", "geopandas"],
        default="auto",
        help="run library tools with QGIS Processing where possible (auto) or GeoPandas only",
    )
    p.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="run library tools on large inputs on this Dask scheduler (tcp://HOST:8786) instead of a local cluster "
        "(default: GEOCLERK_DASK_SCHEDULER)",
    )
    p.add_argument("--timeout", type=float, default=60.0, help="model request timeout in seconds")
    p.add_argument("--save-model", metavar="PATH.model3",
                   help="save a tier-0 plan as a QGIS Processing model (needs PyQGIS)")  # fmt: skip
    p.add_argument("--answer", action="append", default=[], metavar="ID=CHOICE", type=_answer_pair,
                   help='answer a question of status "ask" (repeatable): the same request resumes with it')  # fmt: skip
    p.add_argument(
        "--lang",
        metavar="LOCALE",
        help="language of answers and errors: en, de or zh_CN (default: GEOCLERK_LANG, else LC_ALL/LANG; "
        "JSON keys and machine fields stay English)",
    )
    p.add_argument("--json", action="store_true")

    p = sub.add_parser("exec", help="run a script in the code-generation sandbox")
    p.add_argument("script")
    p.add_argument("--work-dir", required=True, metavar="DIR")
    p.add_argument("--input", "-i", action="append", default=[], metavar="PATH")
    p.add_argument("--timeout", type=float, default=60.0, metavar="SECONDS")
    p.add_argument("--json", action="store_true")

    p = sub.add_parser("model", help="the local model: `geoclerk model serve` starts it on 127.0.0.1")
    p.add_argument("action", choices=["serve", "check"])
    p.add_argument("--port", type=int, default=None, help="port on 127.0.0.1 (default: a free one)")
    p.add_argument("--gguf", metavar="PATH", help="a GGUF model file (default: the one `make model` made)")

    p = sub.add_parser("tools", help="list every tool: name, half and purpose")
    p.add_argument("--json", action="store_true")
    return parser


class Terminated(KeyboardInterrupt):
    """SIGTERM (`kill`, `timeout`): unwinds like Ctrl-C, so the sandbox child and its work dir are cleaned up."""


def _raise_terminated(signum, frame):
    raise Terminated()


def main(argv: list[str] | None = None) -> int:
    # GDAL keeps statistics it computes (zonal statistics, a raster's min/max) in a '.aux.xml' beside the raster it
    # read: 'mean elevation per district' left dem.tif.aux.xml beside the user's DEM. Inputs are never written to;
    # a user who wants those files back sets GDAL_PAM_ENABLED=YES.
    os.environ.setdefault("GDAL_PAM_ENABLED", "NO")
    previous = None
    if threading.current_thread() is threading.main_thread():
        previous = signal.signal(signal.SIGTERM, _raise_terminated)
    spoken = language()
    try:
        return _main(argv)
    finally:
        set_language(spoken)  # main() may run inside another program (tests, a plugin): leave its language alone
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


def _main(argv: list[str] | None) -> int:
    if argv is None and os.path.basename(sys.argv[0]) == "geoagent":
        print(
            "geoclerk: 'geoagent' is the old name of this command; use 'geoclerk' (the alias goes next release)",
            file=sys.stderr,
        )
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        set_language(getattr(args, "lang", None) or language_from_env())
        if not args.command:
            raise CliUsageError("geoclerk: a command is needed: route, run, exec or tools (see 'geoclerk --help')")
        handlers = {"route": cmd_route, "run": cmd_run, "exec": cmd_exec, "tools": cmd_tools, "model": cmd_model}
        handler = handlers[args.command]
        return handler(args)
    except CliUsageError as exc:
        print(str(exc), file=sys.stderr)
        return EXIT_USAGE
    except GeoClerkError as exc:
        _emit_error(exc.user_text(), getattr(args, "json", False))
        return 1
    except KeyboardInterrupt as exc:
        if isinstance(exc, Terminated):
            print("geoclerk: terminated", file=sys.stderr)
            return 143
        print("geoclerk: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (`geoclerk tools | head`): not an error of ours.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except Exception as exc:  # noqa: BLE001 - a bug still answers in the contract's shape, never a bare traceback
        if os.environ.get("GEOCLERK_DEBUG"):
            raise
        _emit_error(
            f"internal error ({type(exc).__name__}: {exc}); set GEOCLERK_DEBUG=1 for the traceback",
            getattr(args, "json", False) if "args" in locals() else False,
        )
        return 1


# -- run -------------------------------------------------------------------------------------
def cmd_run(args) -> int:
    from ..agent.pipeline import AgentConfig, run_request

    inputs = _check_inputs(args.input)
    if not args.request.strip():
        raise CliUsageError("geoclerk run: the request is empty")
    _check_out_dir(args.out_dir, "--out-dir")
    if args.threshold is not None and not 0 <= args.threshold <= 1:
        raise CliUsageError("geoclerk run: --threshold must be between 0 and 1")
    if not args.timeout > 0:  # also NaN
        raise CliUsageError("geoclerk run: --timeout must be positive")
    if args.scheduler is not None:
        _use_scheduler(args.scheduler)
    if args.base_url is not None:
        parts = urlsplit(args.base_url)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise CliUsageError(
                f"geoclerk run: --base-url {safe_url(args.base_url)} is not a URL "
                "(needs http:// or https://, e.g. http://localhost:11434/v1)"
            )
    if args.save_model:
        if Path(args.save_model).exists():
            raise CliUsageError(f"geoclerk run: --save-model {args.save_model} exists already; give a new file")
        from .save_model import check_pyqgis

        check_pyqgis("--save-model")
    answers = dict(args.answer)
    api_key = os.environ.get("GEOCLERK_API_KEY") or os.environ.get("OPENAI_API_KEY")
    config = AgentConfig(
        base_url=args.base_url,
        model=args.model,
        api_key=api_key,
        offline=args.offline,
        route=args.route,
        architecture=args.architecture,
        codegen_mode=args.codegen_mode,
        codegen_candidates=args.candidates,
        timeout_s=args.timeout,
        tier0=not args.no_tier0,
        trust_tier0=args.trust_tier0,
    )
    if args.threshold is not None:
        config.threshold = args.threshold
    if not args.offline and not (args.base_url or args.model) and args.local_model is None:
        config.offline = True  # nothing to talk to: behave exactly like --offline, and say so below
    local = None
    if args.local_model is not None and not args.offline:
        from ..agent.local_model import LocalModelServer

        local = LocalModelServer(model=args.local_model or None)
        config.base_url, config.model, config.api_key = local.base_url, "local", "none"
        config.timeout_s = max(config.timeout_s, 300.0)  # a CPU model is slow: minutes, not seconds
    try:
        with stdout_to_stderr():
            if local is not None:
                local.start()
            registry = _registry_for(args.engine)
            report = run_request(args.request, inputs, args.out_dir, config, registry=registry, answers=answers)
    finally:
        if local is not None:
            local.stop()
    if not args.offline and config.offline and report.status == "needs_llm":
        # --offline was not given: no model was configured, so say that rather than "offline"
        report.error = report.error.replace(" (offline).", ".") + " Pass --base-url and --model to use a model."
    data = report.to_json()
    status = 0
    if args.save_model:
        from .save_model import save_model

        status = save_model(data, inputs, registry, args.save_model)
    if args.json:
        print(json.dumps(data, ensure_ascii=False, default=str))
    else:
        _print_report(data)
    return status


def _use_scheduler(address: str) -> None:
    """Large inputs go to this Dask scheduler (checked for form here; reached when a large input first needs it)."""
    from ..function_lib.dask_engine import configure

    address = address.strip()
    parts = urlsplit(address if "://" in address else "tcp://" + address)
    if not parts.hostname or parts.scheme not in ("tcp", "tls", "ws", "wss", "inproc", "ucx"):
        raise CliUsageError(f"geoclerk run: --scheduler {address!r} is not a Dask scheduler address (tcp://HOST:8786)")
    configure(scheduler=address if "://" in address else "tcp://" + address)


def _registry_for(engine: str):
    """The registry; Processing tools bound when QGIS is importable and the engine allows it."""
    from ..function_lib import load_registry

    registry = load_registry()
    if engine == "geopandas":
        return registry
    try:
        from ..geoclerk_plugin.processing_tools import bind
        from ..geoclerk_plugin.qgis_env import ensure_qgis
    except ImportError as exc:
        if engine == "qgis":
            raise CliUsageError(f"geoclerk run: --engine qgis needs PyQGIS ({exc})") from exc
        return registry
    if engine == "qgis":
        if not ensure_qgis():
            raise CliUsageError("geoclerk run: --engine qgis needs PyQGIS, which does not start here")
        bind(registry)
        return registry

    def bind_when_needed(reg) -> None:
        if ensure_qgis():
            bind(reg)

    registry.set_binder(bind_when_needed)
    return registry


def _print_report(data: dict) -> None:
    tier = {0: "offline (no model)", 1: "functions", 2: "code"}.get(data["tier"], str(data["tier"]))
    print(f"status: {data['status']}   route: {data['route']}   tier: {tier}")
    for step in data["steps"]:
        if "tool" in step:
            made = f" -> {step['output']}" if step.get("output") else ""  # a step of several: its own result
            print(f"  step: {step['tool']}({json.dumps(step['params'], ensure_ascii=False)}){made}")
        else:
            print(f"  step: code ({'ok' if step.get('ok') else 'failed'})")
    for out in data["outputs"]:
        print(f"  output: {out['path']} [{out['kind']}]")
    if data["answer"]:
        print(f"answer: {data['answer']}")
    for q in data.get("questions") or []:
        print(f"question {q['id']}: {q['text']} [{' | '.join(q['choices'])}]  (answer with --answer {q['id']}=CHOICE)")
    if data["error"]:
        print(f"error: {data['error']}")
    print(f"time: {data['timings_ms'].get('total', 0):.0f} ms")


# -- exec ------------------------------------------------------------------------------------
def cmd_exec(args) -> int:
    from ..codegen.api import exec_script

    if not Path(args.script).exists():
        raise CliUsageError(f"geoclerk exec: script not found: {args.script}")
    if args.timeout <= 0:
        raise CliUsageError("geoclerk exec: --timeout must be positive")
    inputs = _check_inputs(args.input)
    urls = [p for p in inputs if not Path(p).exists()]
    if urls:  # the script reads copies of files; it has no network
        raise CliUsageError(f"geoclerk exec: --input takes files, not URLs ({urls[0]}); download it first")
    _check_out_dir(args.work_dir, "--work-dir", create=False)
    with stdout_to_stderr():
        result = exec_script(args.script, args.work_dir, inputs=inputs, timeout=args.timeout)
    if args.json:
        print(json.dumps(result, ensure_ascii=False, default=str))
    else:
        print(result["stdout"], end="" if result["stdout"].endswith("\n") else "\n")
        for out in result["outputs"]:
            print(f"output: {out['path']} [{out['kind']}]")
        if result["error"]:
            print(f"error: {result['error']}", file=sys.stderr)
    return 0


# -- tools -----------------------------------------------------------------------------------
def cmd_model(args) -> int:
    """`geoclerk model serve`: the local model on 127.0.0.1 until Ctrl-C; `check`: is it built?"""
    from ..agent.local_model import LocalModelServer, default_model, default_server

    if args.action == "check":
        model, server = Path(args.gguf) if args.gguf else default_model(), default_server()
        print(f"model {model}: {'ok' if model.exists() else 'missing'}; server {server}: "
              f"{'ok' if server.exists() else 'missing'}" + ("" if model.exists() and server.exists() else
              " (run `make model`)"))  # fmt: skip
        return 0 if model.exists() and server.exists() else 1
    server = LocalModelServer(model=args.gguf, port=args.port).start()
    print(f"serving {server.model.name} at {server.base_url} (Ctrl-C stops it)", flush=True)
    try:
        while server.process is not None and server.process.poll() is None:
            time.sleep(0.5)
    finally:
        server.stop()
    return 0


def cmd_tools(args) -> int:
    from ..function_lib import load_registry

    started = time.perf_counter()
    with stdout_to_stderr():
        registry = load_registry()
    rows = [
        {"name": s.name, "half": s.half, "category": s.category, "purpose": s.purpose}
        for s in sorted(registry.specs(), key=lambda s: (s.half, s.category, s.name))
    ]
    if args.json:
        print(json.dumps(rows, ensure_ascii=False))
        return 0
    current = None
    for row in rows:
        if (row["half"], row["category"]) != current:
            current = (row["half"], row["category"])
            print(f"\n{row['half']} / {row['category']}")
        print(f"  {row['name']:<34} {row['purpose']}")
    print(f"\n{len(rows)} tools ({(time.perf_counter() - started) * 1000:.0f} ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
