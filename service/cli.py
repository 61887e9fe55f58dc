"""The ``cardtable`` command: ``cardtable serve``, ``cardtable openapi`` and ``cardtable replay FILE``."""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any


def quiet_request_handler() -> type:
    """werkzeug's request handler without its own line per request: the app already writes one
    (JSON, with the request id: service/observability.py), and two lines per request say nothing
    more. werkzeug's error lines (a malformed request) stay."""
    from werkzeug.serving import WSGIRequestHandler

    class QuietRequestHandler(WSGIRequestHandler):
        def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
            pass

    return QuietRequestHandler


def spec_document() -> dict:
    """The OpenAPI document of the app, as served at /openapi.json."""
    from service.app import create_app
    from service.config import Settings
    from service.store import MemoryStore

    app = create_app(Settings(), store=MemoryStore())
    with app.app_context():
        spec: dict[str, Any] = app.extensions["flask-smorest"]["apis"][""]["ext_obj"].spec.to_dict()
        return spec


def spec_text() -> str:
    return json.dumps(spec_document(), indent=2, sort_keys=True) + "\n"


def replay_file(path: str) -> int:
    """``cardtable replay FILE``: replay an export (``-``: standard input) through its game's engine
    (``engines.replay``). Exit 0 with a one-line summary when every entry and the result reproduce,
    1 with the first entry that differs, 2 when the file is no export."""
    from engines.replay import MalformedExport, replay

    try:
        with (sys.stdin if path == "-" else open(path, encoding="utf-8")) as f:
            export = json.load(f)
        replayed = replay(export)
    except (OSError, ValueError) as exc:  # unreadable, not JSON (a ValueError), or MalformedExport
        what = "not an export" if isinstance(exc, MalformedExport) else "cannot read it"
        print(f"cardtable replay: {path}: {what}: {exc}", file=sys.stderr)
        return 2
    print(replayed.summary())
    return 0 if replayed.ok else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="cardtable", description="Five card games behind one REST API.")
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="run the development server")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    spec = sub.add_parser("openapi", help="print the OpenAPI document")
    spec.add_argument("--output", "-o", help="write to this file instead of standard output")
    again = sub.add_parser("replay", help="replay an exported game (GET .../export) and check that it reproduces")
    again.add_argument("file", help="the export, a JSON file (- for standard input)")
    args = parser.parse_args(argv)

    if args.command == "replay":
        return replay_file(args.file)

    if args.command == "openapi":
        text = spec_text()
        if args.output:
            with open(args.output, "w") as f:
                f.write(text)
        else:
            sys.stdout.write(text)
        return 0

    from service.app import create_app
    from service.config import Settings

    # The dev server allows fixed deals (seed/deck) unless the environment says otherwise.
    overrides: dict[str, object] = {} if "CARDTABLE_ALLOW_FIXED_DEALS" in os.environ else {"allow_fixed_deals": True}
    settings = Settings.from_env(None, **overrides)
    app = create_app(settings)
    store = app.extensions["cardtable"].store
    if store.kind == "memory":
        print("cardtable: REDIS_URL is not set; using the in-process store (games live only in this process)",
              file=sys.stderr)
    else:
        from urllib.parse import urlsplit

        where = urlsplit(settings.redis_url or "")
        print(f"cardtable: using Redis at {where.hostname}:{where.port or 6379}"  # never the password
              + (" (cluster)" if settings.redis_cluster else ""), file=sys.stderr)
    from service.observability import start_flusher
    from service.sweeper import start

    start(app)  # deadlines fire with nobody asking: a daemon thread (CARDTABLE_SWEEP_SECONDS=0: off)
    start_flusher(app)  # access lines and metric counts written within a second, requests or none
    print(f"cardtable: serving on http://{args.host}:{args.port}  (API docs at /docs)", file=sys.stderr)
    app.run(host=args.host, port=args.port, threaded=True, request_handler=quiet_request_handler())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
