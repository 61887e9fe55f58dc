"""Request ids, structured JSON logs and Prometheus metrics.

All of it sits in one WSGI middleware around the Flask app (cheaper per request than
Flask's before/after hooks). Every response carries ``X-Request-Id`` (the client's, when
it sent a sane one). Each request is written as one JSON line without headers or bodies,
so tokens never reach a log; access lines are buffered and written at least once a second
(and at exit), application warnings and errors at once, both with the request id.
Metrics are served at ``/metrics``; under gunicorn they are summed across workers through
``PROMETHEUS_MULTIPROC_DIR`` (set by ``deploy/gunicorn.conf.py``).
"""

from __future__ import annotations

import atexit
import logging
import os
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterable
from typing import Any, TextIO

import orjson
from flask import Flask, Request, Response, has_request_context, request
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Gauge, Histogram, generate_latest

REQUESTS = Counter("cardtable_requests_total", "HTTP requests answered", ["method", "endpoint", "status"])
LATENCY = Histogram("cardtable_request_duration_seconds", "Time to answer a request", ["method", "endpoint"],
                    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5))
MOVES = Counter("cardtable_moves_applied_total", "Moves applied (bot moves included)", ["game"])
CONFLICTS = Counter("cardtable_conflicts_total", "409 answers", ["code"])
CREATED = Counter("cardtable_games_created_total", "Games created", ["game"])
FINISHED = Counter("cardtable_games_finished_total", "Games that reached their end", ["game"])
ACTIVE = Gauge("cardtable_active_games", "Games created and not yet finished (expiry aside)", ["game"],
               multiprocess_mode="sum")

REQUEST_ID = "cardtable.request_id"  # environ keys
RULE = "cardtable.rule"


class RuleRecordingRequest(Request):
    """Flask's request, also noting its URL rule in the WSGI environ for the middleware."""

    _rule: Any = None

    @property  # type: ignore[override]
    def url_rule(self) -> Any:
        return self._rule

    @url_rule.setter
    def url_rule(self, rule: Any) -> None:
        self._rule = rule
        self.environ[RULE] = None if rule is None else rule.rule


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message, the request id and extras."""

    FIELDS = ("method", "path", "endpoint", "status", "duration_ms", "code")

    def format(self, record: logging.LogRecord) -> str:
        data: dict[str, Any] = {
            "ts": round(record.created, 3),
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": record.getMessage(),
        }
        if has_request_context():
            data["request_id"] = request.environ.get(REQUEST_ID)
        for name in self.FIELDS:
            if hasattr(record, name):
                data[name] = getattr(record, name)
        if record.exc_info:
            data["exc"] = self.formatException(record.exc_info)
        return orjson.dumps(data).decode()


def configure_logging(level: str = "INFO") -> None:
    """JSON lines on stderr for the ``cardtable`` loggers (idempotent)."""
    root = logging.getLogger("cardtable")
    if any(isinstance(h.formatter, JsonFormatter) for h in root.handlers):
        return
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter())
    root.addHandler(handler)
    root.setLevel(level.upper())
    root.propagate = False


class AccessLog:
    """One JSON line per request, buffered: written when 32 KiB are waiting, when the last
    write is a second old, and at exit (a worker killed with SIGKILL loses at most that)."""

    def __init__(self, stream: TextIO | None = None, max_bytes: int = 32 * 1024, max_age: float = 1.0) -> None:
        self.stream = stream
        self.max_bytes, self.max_age = max_bytes, max_age
        self._lines: list[str] = []
        self._size = 0
        self._written = time.monotonic()
        self._lock = threading.Lock()
        atexit.register(self.flush)

    def write(self, entry: dict[str, Any]) -> None:
        line = orjson.dumps(entry).decode() + "\n"
        with self._lock:
            self._lines.append(line)
            self._size += len(line)
            due = self._size >= self.max_bytes or time.monotonic() - self._written >= self.max_age
        if due:
            self.flush()

    def flush(self) -> None:
        with self._lock:
            lines, self._lines, self._size = self._lines, [], 0
            self._written = time.monotonic()
        if lines:
            stream = self.stream or sys.stderr
            stream.write("".join(lines))
            stream.flush()


_series: dict[tuple[str, str, str], tuple[Any, Any]] = {}


def _observe(method: str, rule: str, status: str, elapsed: float) -> None:
    """Count and time one request; the labelled series are looked up once and kept."""
    key = (method, rule, status)
    series = _series.get(key)
    if series is None:
        series = _series[key] = (REQUESTS.labels(method, rule, status), LATENCY.labels(method, rule))
    series[0].inc()
    series[1].observe(elapsed)


def _request_id(given: str) -> str:
    if 0 < len(given) <= 64 and given.isascii() and given.isprintable():
        return given
    return uuid.uuid4().hex


class Middleware:
    """Request id, metrics and the access line for every request, errors included."""

    def __init__(self, app: Callable[..., Iterable[bytes]], access: AccessLog | None) -> None:
        self.app = app
        self.access = access

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        started = time.perf_counter()
        rid = environ[REQUEST_ID] = _request_id(environ.get("HTTP_X_REQUEST_ID", ""))
        status = ["500"]

        def start(code: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            headers.append(("X-Request-Id", rid))
            status[0] = code[:3]
            return start_response(code, headers, exc_info)

        body = self.app(environ, start)
        elapsed = time.perf_counter() - started
        rule = environ.get(RULE) or "unmatched"
        method = environ.get("REQUEST_METHOD", "")
        _observe(method, rule, status[0], elapsed)
        if self.access is not None:
            self.access.write({"ts": round(time.time(), 3), "level": "info", "logger": "cardtable.access",
                               "msg": "request", "request_id": rid, "method": method,
                               "path": environ.get("PATH_INFO", ""), "endpoint": rule, "status": int(status[0]),
                               "duration_ms": round(elapsed * 1000, 3)})
        return body


def game_created(game: str, finished: bool) -> None:
    CREATED.labels(game).inc()
    if finished:
        FINISHED.labels(game).inc()
    else:
        ACTIVE.labels(game).inc()


def moves_applied(game: str, count: int, finished: bool) -> None:
    MOVES.labels(game).inc(count)
    if finished:
        FINISHED.labels(game).inc()
        ACTIVE.labels(game).dec()


def conflict(code: str) -> None:
    CONFLICTS.labels(code).inc()


def init(app: Flask, access_log: bool) -> AccessLog | None:
    """Install the middleware and /metrics; returns the access log (None when off)."""
    configure_logging(os.environ.get("CARDTABLE_LOG_LEVEL", "INFO"))
    app.request_class = RuleRecordingRequest
    access = AccessLog() if access_log else None
    app.wsgi_app = Middleware(app.wsgi_app, access)  # type: ignore[method-assign]

    @app.get("/metrics")
    def metrics() -> Response:
        if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
            from prometheus_client import multiprocess

            registry = CollectorRegistry()
            multiprocess.MultiProcessCollector(registry)
            body = generate_latest(registry)
        else:
            body = generate_latest()
        return Response(body, headers={"Content-Type": CONTENT_TYPE_LATEST})

    return access
