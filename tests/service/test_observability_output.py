"""What the request middleware writes is what it wrote before it was made cheaper: the access
line byte for byte, and request ids of the same form, never shared."""

from __future__ import annotations

import io
import os
import random
import time
from collections.abc import Iterator
from pathlib import Path

import orjson
import pytest
from flask import Flask, Response, jsonify

from service import observability

ROOT = Path(__file__).resolve().parents[2]


class _Clock:
    """The clocks the middleware reads, set by the test: one wall-clock instant per request and
    a monotonic clock that advances by ``step`` nanoseconds at every reading."""

    def __init__(self, walls: list[int], start: int, step: int) -> None:
        self.walls = iter(walls)
        self.now = start
        self.step = step
        self.readings: list[int] = []

    def perf_counter_ns(self) -> int:
        self.now += self.step
        self.readings.append(self.now)
        return self.now

    def time_ns(self) -> int:
        return next(self.walls)

    def monotonic(self) -> float:
        return time.monotonic()


def _line_as_before(wall_ns: int, started_ns: int, ended_ns: int, rid: str, method: str, path: str,
                    endpoint: str, status: int, given: str | None) -> str:
    """The access line as the middleware wrote it from float seconds (``time.time()`` and
    ``time.perf_counter()`` rounded with ``round(x, 3)``), for the same instants."""
    entry = {"ts": round(wall_ns / 1e9, 3), "level": "info", "logger": "cardtable.access",
             "msg": "request", "request_id": rid, "method": method[:32], "path": path, "endpoint": endpoint,
             "status": status, "duration_ms": round((ended_ns / 1e9 - started_ns / 1e9) * 1000, 3)}
    if given is not None:
        entry["client_request_id"] = given
    return orjson.dumps(entry).decode() + "\n"


@pytest.fixture()
def small_app() -> Iterator[Flask]:
    app = Flask("observed")

    @app.get("/ok/<name>")
    def ok(name: str) -> Response:
        return jsonify(name=name)

    @app.get("/stream")
    def stream() -> Response:
        return Response((f"data: {i}\n\n" for i in range(3)), mimetype="text/event-stream")

    @app.get("/boom")
    def boom() -> Response:
        raise RuntimeError("a bug")

    access = app.extensions["cardtable.access_log"] = observability.init(app, True)
    assert access is not None
    access.stream = io.StringIO()
    yield app
    access.flush()


def _away_from_ties(rng: random.Random, unit: int) -> int:
    """A count of nanoseconds at least a microsecond away from half a ``unit``: there a float
    rounds either way, and neither way is the right one."""
    value = rng.randrange(unit)
    return value if abs(value - unit // 2) > 1000 else value + 2000


def test_the_access_line_is_byte_for_byte_the_line_written_before(small_app: Flask, monkeypatch) -> None:
    """Every kind of request (an answer, a stream logged when it closes, an unhandled error, no
    route and a non-ASCII path, a client's id) at random instants: the same keys, order, numbers
    and formatting as when both times were float seconds rounded to three decimals."""
    rng = random.Random(7)
    requests = [("/ok/a", {}, 200, "/ok/<name>"), ("/stream", {"X-Request-Id": "follow-1"}, 200, "/stream"),
                ("/boom", {}, 500, "/boom"), ("/caf\u00e9/\u2603", {"X-Request-Id": "trace 42"}, 404, "unmatched"),
                ("/ok/b", {"X-Request-Id": "x" * 65}, 200, "/ok/<name>")] * 40
    walls = [1_764_000_000 * 10**9 + rng.randrange(10**12) // 10**6 * 10**6 + _away_from_ties(rng, 10**6)
             for _ in requests]
    walls[:2] = [1_764_108_000_100_000_000, 1_764_108_000_000_000_000]  # 1764108000.1 and 1764108000.0
    clock = _Clock(walls, start=5_000 * 10**9, step=0)
    monkeypatch.setattr(observability, "time", clock)
    access = small_app.extensions["cardtable.access_log"]
    client = small_app.test_client()
    expected = []
    for (path, headers, status, endpoint), wall in zip(requests, walls, strict=True):
        # two steps to the access line: the sub-microsecond rest below or above half, never half
        clock.step = rng.randrange(1_500_000) * 1000 + rng.choice((0, 260)) + rng.randrange(190)
        clock.readings.clear()
        reply = client.get(path, headers=headers)
        reply.get_data()
        reply.close()
        assert reply.status_code == status
        rid = reply.headers["X-Request-Id"]
        given = headers.get("X-Request-Id") if len(headers.get("X-Request-Id", "")) <= 64 else None
        wsgi_path = path.encode().decode("latin-1")  # PATH_INFO: the URL's bytes, one character each
        expected.append(_line_as_before(wall, clock.readings[0], clock.readings[-1], rid, "GET", wsgi_path,
                                        endpoint, status, given))
    access.flush()
    assert access.stream.getvalue() == "".join(expected)
    assert '"ts":1764108000.1,' in expected[0] and '"ts":1764108000.0,' in expected[1]


def test_the_histogram_and_the_access_line_time_the_same_request(small_app: Flask, monkeypatch) -> None:
    """A stream's access line is written when it closes; the histogram times it to its headers."""
    clock = _Clock([1_764_108_000_000_000_000], start=10**12, step=1_500_000)
    monkeypatch.setattr(observability, "time", clock)
    observed: list[float] = []
    monkeypatch.setattr(observability, "_observe", lambda m, r, s, elapsed: observed.append(elapsed))
    reply = small_app.test_client().get("/stream", buffered=False)
    b"".join(reply.response)
    reply.close()
    assert observed == [0.0015]  # the second reading
    access = small_app.extensions["cardtable.access_log"]
    access.flush()
    assert '"duration_ms":3.0}' in access.stream.getvalue()  # the third, at the close


def test_request_ids_are_random_version_4_uuids_each_handed_out_once() -> None:
    ids = [observability.request_id() for _ in range(3 * observability.ID_BATCH + 5)]
    assert len(set(ids)) == len(ids)
    for rid in ids:
        assert len(rid) == 32 and set(rid) <= set("0123456789abcdef"), rid
        assert rid[12] == "4" and rid[16] in "89ab", rid


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_a_forked_worker_never_hands_out_its_parents_ids() -> None:
    """gunicorn forks its workers: the ids a parent made before the fork stay the parent's."""
    observability._forget_ids()
    observability.request_id()  # the rest of a new batch is waiting
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: its first ids, then out at once
        try:
            os.write(write, "".join(observability.request_id() for _ in range(8)).encode())
        finally:
            os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as pipe:
        child = pipe.read().decode()
    os.waitpid(pid, 0)
    parents = {observability.request_id() for _ in range(observability.ID_BATCH)}
    child_ids = {child[i:i + 32] for i in range(0, len(child), 32)}
    assert len(child_ids) == 8 and not child_ids & parents
