"""`geoclerk route`: one request or a JSON-lines batch, read by the router, printed as its JSON."""

from __future__ import annotations

import json
from pathlib import Path

from ..errors import GeoClerkError
from .common import CliUsageError, _check_inputs, stdout_to_stderr


def cmd_route(args) -> int:
    from ..function_lib import load_registry
    from ..router import load_router

    if bool(args.batch) == (args.request is not None):
        raise CliUsageError("geoclerk route: give either a REQUEST or --batch FILE.jsonl (see 'geoclerk route --help')")
    if args.request is not None and not args.request.strip():
        raise CliUsageError("geoclerk route: the request is empty")
    with stdout_to_stderr():
        router = load_router(load_registry())
    if args.batch:
        return _route_batch(router, args.batch, args.json)
    with stdout_to_stderr():
        infos = _describe_all(_check_inputs(args.input), {})
        decision = router.route(args.request, infos)
    _print_route(decision.to_json(), args.json)
    return 0


def _route_batch(router, batch_path: str, as_json: bool) -> int:
    if not Path(batch_path).exists():
        raise CliUsageError(f"geoclerk route: batch file not found: {batch_path}")
    cache: dict = {}
    with open(batch_path, encoding="utf-8") as handle:
        lines = handle.read().splitlines()
    while lines and not lines[-1].strip():
        lines.pop()
    # One result per input line, in order, whatever a line holds: a bad line gets an error object.
    for number, line in enumerate(lines, 1):
        try:
            request, inputs = _batch_item(line)
            with stdout_to_stderr():
                infos = _describe_all(inputs, cache)
                result = router.route(request, infos).to_json()
        except (ValueError, KeyError, TypeError) as exc:
            result = {"error": f"line {number}: {exc}"}
        except GeoClerkError as exc:
            result = {"error": f"line {number}: {exc.user_text()}"}
        except Exception as exc:  # noqa: BLE001 - one bad line must not end the batch
            result = {"error": f"line {number}: {type(exc).__name__}: {exc}"}
        if as_json:
            print(json.dumps(result, ensure_ascii=False), flush=True)
        else:
            _print_route(result, False)
    return 0


def _batch_item(line: str) -> tuple[str, list[str]]:
    """The request and input paths of one batch line; ValueError says what is wrong with it."""
    from ..function_lib.tables import is_url

    if not line.strip():
        raise ValueError('empty line; expected a {"request", "inputs"} object')
    item = json.loads(line)
    if not isinstance(item, dict):
        raise ValueError('expected a {"request", "inputs"} object')
    request = item.get("request")
    if not isinstance(request, str) or not request.strip():
        raise ValueError('"request" must be a non-empty string')
    inputs = item.get("inputs") or []
    if isinstance(inputs, str):
        inputs = [inputs]
    if not isinstance(inputs, list) or not all(isinstance(p, str) for p in inputs):
        raise ValueError('"inputs" must be a list of file paths')
    missing = [p for p in inputs if not Path(p).exists() and not is_url(p)]
    if missing:
        raise ValueError(f"input file not found: {missing[0]}")
    return request, inputs


def _describe_all(paths: list[str], cache: dict) -> list:
    """The inputs as `run` names them: each layer of a multi-layer file on its own, a repeated stem numbered."""
    from ..function_lib.context import LayerStore
    from ..function_lib.describe import describe_entry

    store = LayerStore()
    for path in paths:
        store.add_path(path)
    infos = []
    for entry in (store.get(n) for n in store.names()):
        key = (entry.path, entry.name, entry.layer)
        if key not in cache:
            cache[key] = describe_entry(entry)
        infos.append(cache[key])
    return infos


def _print_route(data: dict, as_json: bool) -> None:
    if as_json:
        print(json.dumps(data, ensure_ascii=False))
        return
    if "error" in data:
        print(data["error"])
        return
    print(f"route: {data['route']} (confidence {data['confidence']:.2f})")
    print("tools: " + ", ".join(f"{t['name']} {t['score']:.2f}" for t in data["tools"][:5]))
    plan = data.get("plan")
    if plan:
        state = "complete" if plan["complete"] else "missing " + ", ".join(plan["missing"])
        print(f"plan:  {plan['tool']}({json.dumps(plan['params'], ensure_ascii=False)}) [{state}]")
