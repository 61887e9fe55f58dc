"""Request ids, structured JSON logs and Prometheus metrics.

All of it sits in one WSGI middleware around the Flask app (cheaper per request than
Flask's before/after hooks). Every response carries ``X-Request-Id``: always the server's
own, unique id, so that no client can give its request the id of another; a sane id the
client sent is kept beside it, as ``client_request_id`` in the log lines. Each request is
written as one JSON line without headers or bodies, so tokens never reach a log; a streamed
body (no Content-Length: the event stream) is logged when it closes, with its real duration.
Access lines are buffered and written at least once a second (and at exit), application
warnings and errors at once, both with the request id.

Metrics are served at ``/metrics``; under gunicorn they are summed across workers through
``PROMETHEUS_MULTIPROC_DIR`` (set by ``deploy/gunicorn.conf.py``). Every label comes from a
closed set (the methods the API uses, the app's URL rules, the HTTP statuses), whatever a
client sends: an open label would grow the metrics files, and the time to read them, with
every new method name.

The busiest series (requests, their latency, moves applied) are counted in plain numbers per
process and written to prometheus_client's values in batches (under gunicorn each write is an
mmap'd file's, under a lock: a few microseconds, four of them a move): before the process answers
a scrape, so its own counts are exact; every ``FLUSH_SECONDS`` (1 s) from a ``Flusher`` that every
gunicorn worker (and ``cardtable serve``) starts, so a scrape another worker answers sees them at
most that late, which is well inside any scrape interval; and at exit. The flusher writes the
buffered access lines too. A worker killed with SIGKILL loses at most its last
second's counts, as it does its last second's access lines. A new series shows at once, at zero.
"""

from __future__ import annotations

import atexit
import http
import logging
import math
import os
import sys
import threading
import time
from bisect import bisect_left
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TextIO

import orjson
from flask import Flask, Request, Response, has_request_context, request
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Gauge, Histogram, generate_latest

from service.loops import WorkerLoop

REQUESTS = Counter("cardtable_requests_total", "HTTP requests answered", ["method", "endpoint", "status"])
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
LATENCY = Histogram("cardtable_request_duration_seconds", "Time to answer a request", ["method", "endpoint"],
                    buckets=LATENCY_BUCKETS)
MOVES = Counter("cardtable_moves_applied_total", "Moves applied (bot moves included)", ["game"])
CONFLICTS = Counter("cardtable_conflicts_total", "409 answers", ["code"])
CREATED = Counter("cardtable_games_created_total", "Games created", ["game"])
FINISHED = Counter("cardtable_games_finished_total", "Games that reached their end", ["game"])
ACTIVE = Gauge("cardtable_active_games", "Games created and not yet finished (expiry aside)", ["game"],
               multiprocess_mode="sum")

REQUEST_ID = "cardtable.request_id"  # environ keys
CLIENT_REQUEST_ID = "cardtable.client_request_id"
RULE = "cardtable.rule"

#: The ``method`` label: these, else ``other``.
METHODS = frozenset({"GET", "POST", "OPTIONS", "HEAD"})
#: The ``status`` label: a status HTTP defines, else ``other``.
STATUSES = frozenset(str(s.value) for s in http.HTTPStatus)
#: The ``endpoint`` label of a request that matched no URL rule.
UNMATCHED = "unmatched"

#: The histogram's buckets as observe() finds them: the first bound at or above the duration.
BOUNDS = (*LATENCY_BUCKETS, math.inf)
#: At most this late, the request, latency and move counts of one worker reach a scrape served by another.
FLUSH_SECONDS = 1.0


class RuleRecordingRequest(Request):
    """Flask's request, also noting its URL rule in the WSGI environ for the middleware."""

    _rule: Any = None

    @property
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
            if (given := request.environ.get(CLIENT_REQUEST_ID)) is not None:
                data["client_request_id"] = given
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
    write is a second old, every second by the process's ``Flusher`` (an idle worker's last lines
    too), and at exit (a worker killed with SIGKILL loses at most that)."""

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


def labels(method: str, rule: str | None, status: str) -> tuple[str, str, str]:
    """The metric labels of a request, each from a closed set: ``rule`` is one of the app's URL
    rules (the router set it) or None."""
    return (method if method in METHODS else "other", rule or UNMATCHED, status if status in STATUSES else "other")


class _Count:
    """A labelled counter and what this process added to it since the last flush."""

    __slots__ = ("child", "n")

    def __init__(self, child: Any) -> None:
        self.child, self.n = child, 0

    def write(self) -> None:
        if self.n:
            self.child.inc(self.n)
            self.n = 0


class _Timing:
    """A labelled histogram: the observations since the last flush, counted per bucket, and its sum
    as observe() would have made it (the same additions in the same order, so the very same float)."""

    __slots__ = ("child", "total", "buckets")

    def __init__(self, child: Any) -> None:
        self.child = child
        self.total = child._sum.get()
        self.buckets = [0] * len(BOUNDS)

    def write(self) -> None:
        if any(self.buckets):
            # Histogram.observe has no batch form: its sum and (non-cumulative) bucket values are
            # written here as observe() writes them, one by one (test_batched_metrics compares).
            self.child._sum.set(self.total)
            for i, (value, n) in enumerate(zip(self.child._buckets, self.buckets, strict=True)):
                if n:
                    value.inc(n)
                    self.buckets[i] = 0  # one by one: a flush that fails half-way writes nothing twice


class _Batch:
    """This process's pending metric changes, one entry per labelled series (closed label sets:
    bounded), behind one lock (gthread workers)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.requests: dict[tuple[str, str, str], tuple[_Count, _Timing]] = {}
        self.timings: dict[tuple[str, str], _Timing] = {}
        self.moves: dict[str, _Count] = {}

    def request_series(self, key: tuple[str, str, str]) -> tuple[_Count, _Timing]:
        """A request's counter and histogram, made on first use (under the lock): the series shows
        in /metrics at once, at zero, as it did when it was counted at once."""
        timing = self.timings.get(key[:2])
        if timing is None:
            timing = self.timings[key[:2]] = _Timing(LATENCY.labels(key[0], key[1]))
        series = self.requests[key] = (_Count(REQUESTS.labels(*key)), timing)
        return series

    def flush(self) -> None:
        with self.lock:
            for count, _ in self.requests.values():
                count.write()
            for timing in self.timings.values():
                timing.write()
            for moves in self.moves.values():
                moves.write()


_batch = _Batch()


def flush() -> None:
    """Write this process's pending counts to prometheus_client's values (in multiprocess mode its
    files): before a scrape, at exit, and every ``FLUSH_SECONDS`` from a ``Flusher``."""
    _batch.flush()


def _forget_batch() -> None:
    """A forked child starts with nothing pending: what the parent counted is the parent's to write
    (and the child's histogram sums start again from its own files, as prometheus_client's do)."""
    global _batch
    _batch = _Batch()


atexit.register(flush)
os.register_at_fork(after_in_child=_forget_batch)


def _observe(method: str, rule: str, status: str, elapsed: float) -> None:
    """Count and time one request, in this process's batch."""
    batch = _batch
    key = (method, rule, status)
    with batch.lock:
        series = batch.requests.get(key)
        if series is None:
            series = batch.request_series(key)
        series[0].n += 1
        timing = series[1]
        timing.total += elapsed
        timing.buckets[bisect_left(BOUNDS, elapsed)] += 1


class Flusher(WorkerLoop):
    """A process's loop that flushes its metric counts and its access lines (``access``, when it
    writes them) every ``interval`` seconds, so that a scrape served by another worker sees this one's
    counts, and the log its lines, at most that late, idle or not. One flush per interval, errors
    logged and survived (``service.loops``)."""

    name = "cardtable-flush"

    def __init__(self, access: AccessLog | None = None, interval: float = FLUSH_SECONDS) -> None:
        super().__init__(interval)
        self.access = access

    def run(self) -> None:
        while not self.stopped.wait(self.interval):
            try:
                flush()
                if self.access is not None:
                    self.access.flush()
            except Exception:
                logging.getLogger("cardtable").exception("flushing the metrics or the access log failed; again "
                                                         "in %.1f s", self.interval)


_flusher: Flusher | None = None


def start_flusher(app: Any) -> Flusher | None:
    """Start this process's flusher (once) when ``app`` counts its requests here: each gunicorn worker
    when it starts, ``cardtable serve`` before it serves (``bench.floor_app``, run by the same gunicorn
    config, has no metrics to flush)."""
    global _flusher
    if not isinstance(getattr(app, "wsgi_app", None), Middleware):
        return None
    if _flusher is None or _flusher.stopped.is_set():
        _flusher = Flusher(app.extensions.get("cardtable.access_log")).start()
    return _flusher


#: Request ids made at once from one ``os.urandom`` call: each is as random as one made alone.
ID_BATCH = 256
_V4 = bytes(b & 0x0F | 0x40 for b in range(256))  # byte 6: version 4
_VARIANT = bytes(b & 0x3F | 0x80 for b in range(256))  # byte 8: the RFC 4122 variant
_ids: Iterator[str] = iter(())


def _new_ids() -> Iterator[str]:
    raw = bytearray(os.urandom(16 * ID_BATCH))
    raw[6::16] = raw[6::16].translate(_V4)
    raw[8::16] = raw[8::16].translate(_VARIANT)
    text = raw.hex()
    return iter([text[i:i + 32] for i in range(0, len(text), 32)])


def request_id() -> str:
    """A new request id: a random (version 4) UUID as 32 hex digits, as ``uuid.uuid4().hex`` writes
    it, without building a UUID object; taken from a batch (one system call per ``ID_BATCH`` ids).

    A list iterator hands out each id once, also to threads (its ``next`` holds the GIL); two
    threads that find it empty at once each make a batch of their own. A forked worker starts
    with none, so no two processes share a batch."""
    global _ids
    rid = next(_ids, None)
    if rid is None:
        _ids = _new_ids()
        rid = next(_ids)
    return rid


def _forget_ids() -> None:
    global _ids
    _ids = iter(())


os.register_at_fork(after_in_child=_forget_ids)


def client_request_id(given: str) -> str | None:
    """The client's ``X-Request-Id`` when it is sane (1-64 printable ASCII characters), else None."""
    if 0 < len(given) <= 64 and given.isascii() and given.isprintable():
        return given
    return None


class _Streamed:
    """A streamed body: the access line is written when the server closes it (after the last
    byte, or when the client went away), so that it records the request's real duration."""

    def __init__(self, body: Iterable[bytes], finish: Callable[[], None]) -> None:
        self.body = body
        self.finish = finish

    def __iter__(self) -> Iterator[bytes]:
        return iter(self.body)

    def close(self) -> None:
        try:
            close = getattr(self.body, "close", None)
            if close is not None:
                close()
        finally:
            self.finish()


class Middleware:
    """Request id, metrics and the access line for every request, errors included."""

    def __init__(self, app: Callable[..., Iterable[bytes]], access: AccessLog | None) -> None:
        self.app = app
        self.access = access

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        started = time.perf_counter_ns()
        rid = environ[REQUEST_ID] = request_id()
        given = environ[CLIENT_REQUEST_ID] = client_request_id(environ.get("HTTP_X_REQUEST_ID", ""))
        status = ["500"]
        streamed = [False]

        def start(code: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            headers.append(("X-Request-Id", rid))
            status[0] = code[:3]
            streamed[0] = True
            for k, _ in headers:  # a loop: any() over a generator closes it with an exception when it finds one
                if k.lower() == "content-length":
                    streamed[0] = False
                    break
            return start_response(code, headers, exc_info)

        body = self.app(environ, start)
        given_method = environ.get("REQUEST_METHOD", "")
        method, rule, code = labels(given_method, environ.get(RULE), status[0])
        # The histogram is the time to answer (to the headers, for a stream); the access line
        # of a stream is written when it ends.
        _observe(method, rule, code, (time.perf_counter_ns() - started) / 1e9)
        if self.access is None:
            return body
        access = self.access

        def log() -> None:
            # Both times in milliseconds with three decimals, rounded from the clocks' integer
            # nanoseconds: the numbers round(seconds, 3) makes of the same instants (but for an
            # instant within a float's resolution of half a unit), at a third of the cost.
            entry = {"ts": (time.time_ns() + 500_000) // 1_000_000 / 1000, "level": "info",
                     "logger": "cardtable.access", "msg": "request", "request_id": rid,
                     "method": given_method[:32], "path": environ.get("PATH_INFO", ""), "endpoint": rule,
                     "status": int(status[0]), "duration_ms": (time.perf_counter_ns() - started + 500) // 1000 / 1000}
            if given is not None:
                entry["client_request_id"] = given
            access.write(entry)

        if streamed[0]:
            return _Streamed(body, log)
        log()
        return body


def game_created(game: str, finished: bool) -> None:
    CREATED.labels(game).inc()
    if finished:
        FINISHED.labels(game).inc()
    else:
        ACTIVE.labels(game).inc()


def moves_applied(game: str, count: int, finished: bool) -> None:
    batch = _batch
    with batch.lock:
        moves = batch.moves.get(game)
        if moves is None:  # one series per hosted game: a bounded set
            moves = batch.moves[game] = _Count(MOVES.labels(game))
        moves.n += count
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
        flush()  # this worker's own counts, exact
        if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
            from prometheus_client import multiprocess

            registry = CollectorRegistry()
            multiprocess.MultiProcessCollector(registry)
            body = generate_latest(registry)
        else:
            body = generate_latest()
        return Response(body, headers={"Content-Type": CONTENT_TYPE_LATEST})

    return access
