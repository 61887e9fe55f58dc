"""Request ids, structured JSON logs and Prometheus metrics.

Every response carries ``X-Request-Id`` (the client's, when it sent a sane one). Each
request is logged as one JSON line without headers or bodies, so tokens never reach a
log. Metrics are served at ``/metrics``; under gunicorn they are aggregated across
workers through ``PROMETHEUS_MULTIPROC_DIR`` (set by ``deploy/gunicorn.conf.py``).
"""

from __future__ import annotations

import json
import logging
import os
import sys
import time
import uuid
from typing import Any

from flask import Flask, Response, g, request
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

log = logging.getLogger("cardtable.access")


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message and any ``extra`` fields."""

    FIELDS = ("request_id", "method", "path", "endpoint", "status", "duration_ms", "code")

    def format(self, record: logging.LogRecord) -> str:
        data: dict[str, Any] = {
            "ts": round(record.created, 3),
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": record.getMessage(),
        }
        for name in self.FIELDS:
            if hasattr(record, name):
                data[name] = getattr(record, name)
        if record.exc_info:
            data["exc"] = self.formatException(record.exc_info)
        return json.dumps(data)


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


def _request_id() -> str:
    given = request.headers.get("X-Request-Id", "")
    if 0 < len(given) <= 64 and given.isascii() and given.isprintable():
        return given
    return uuid.uuid4().hex


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


def init(app: Flask, access_log: bool) -> None:
    configure_logging(os.environ.get("CARDTABLE_LOG_LEVEL", "INFO"))

    @app.before_request
    def _start() -> None:
        g.request_id = _request_id()
        g.started = time.perf_counter()

    @app.after_request
    def _finish(response: Response) -> Response:
        started = g.get("started")
        rule = request.url_rule.rule if request.url_rule is not None else "unmatched"
        response.headers["X-Request-Id"] = g.get("request_id") or _request_id()
        if started is None:
            return response
        elapsed = time.perf_counter() - started
        REQUESTS.labels(request.method, rule, response.status_code).inc()
        LATENCY.labels(request.method, rule).observe(elapsed)
        if access_log:
            log.info("request", extra={"request_id": g.request_id, "method": request.method, "path": request.path,
                                       "endpoint": rule, "status": response.status_code,
                                       "duration_ms": round(elapsed * 1000, 3)})
        return response

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
