"""The request, latency and move counts are written to prometheus_client in batches: a scrape
reads its own process's counts exactly, the same numbers observe() and inc() would have made; a
process writes what it counted when it exits; another process's scrape sees them within the
flusher's interval; the flusher flushes once an interval, survives errors and stops."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from flask import Flask, jsonify
from prometheus_client import CollectorRegistry, Histogram
from prometheus_client.multiprocess import MultiProcessCollector

from service import observability

ROOT = Path(__file__).resolve().parents[2]
#: Durations that fall in every bucket, on bounds too, and past the last one.
DURATIONS = [0.0004, 0.001, 0.0017, 0.0025, 0.003, 0.0049, 0.007, 0.01, 0.02, 0.05, 0.09, 0.2, 0.5, 0.7, 1.0,
             2.0, 2.5, 3.7, 0.0009, 0.0123] * 7


def _as_observe_makes_it(durations: list[float]) -> dict[str, float]:
    """The histogram's samples (le -> bucket, _count, _sum) as Histogram.observe makes them (not the
    time it was made, which a multiprocess scrape leaves out)."""
    reference = Histogram("reference", "", buckets=observability.LATENCY_BUCKETS, registry=CollectorRegistry())
    for d in durations:
        reference.observe(d)
    return _histogram(reference.collect(), "reference")


def _histogram(families, name: str, **labels: str) -> dict[str, float]:
    samples = {}
    for family in families:
        for s in family.samples:
            wanted = all(s.labels.get(k) == v for k, v in labels.items())
            if wanted and s.name.startswith(name) and not s.name.endswith("_created"):
                samples[s.name[len(name):] + s.labels.get("le", "")] = s.value
    return samples


def _scraped(text: str, series: str) -> float:
    match = re.search(rf"^{re.escape(series)} (\S+)$", text, re.MULTILINE)
    return float(match.group(1)) if match else 0.0


def test_a_scrape_reads_its_own_processes_counts_exactly() -> None:
    """Nothing flushed them: the scrape itself writes this process's pending counts first."""
    app = Flask("batched")

    @app.get("/batched-<name>")
    def batched(name: str):
        observability.moves_applied("batched-game", 2, False)
        return jsonify(name=name)

    observability.init(app, False)
    client = app.test_client()
    requests = 'cardtable_requests_total{endpoint="/batched-<name>",method="GET",status="200"}'
    moves = 'cardtable_moves_applied_total{game="batched-game"}'
    before = client.get("/metrics").get_data(as_text=True)
    for n in range(25):
        assert client.get(f"/batched-{n}").status_code == 200
    after = client.get("/metrics").get_data(as_text=True)
    assert _scraped(after, requests) - _scraped(before, requests) == 25
    assert _scraped(after, moves) - _scraped(before, moves) == 50
    count = 'cardtable_request_duration_seconds_count{endpoint="/batched-<name>",method="GET"}'
    assert _scraped(after, count) - _scraped(before, count) == 25


def test_the_batched_histogram_is_the_one_observe_makes() -> None:
    """The same buckets, count and sum (the same float: the same additions in the same order, also
    over many flushes)."""
    for n, d in enumerate(DURATIONS):
        observability._observe("GET", "/same-as-observe", "200", d)
        if n % 9 == 0:
            observability.flush()
    observability.flush()
    ours = _histogram(observability.LATENCY.collect(), "cardtable_request_duration_seconds",
                      endpoint="/same-as-observe")
    reference = _as_observe_makes_it(DURATIONS)
    assert ours == reference and ours["_count"] == len(DURATIONS)


def test_a_flush_that_fails_half_way_writes_nothing_twice(monkeypatch) -> None:
    """The next flush writes what the failed one did not, and only that."""
    for d in DURATIONS:
        observability._observe("GET", "/half-flush", "200", d)
    child = observability.LATENCY.labels("GET", "/half-flush")
    failing = child._buckets[5]
    monkeypatch.setattr(failing, "inc", lambda amount: (_ for _ in ()).throw(OSError("no room")))
    with pytest.raises(OSError):
        observability.flush()
    monkeypatch.undo()
    observability.flush()
    ours = _histogram(observability.LATENCY.collect(), "cardtable_request_duration_seconds", endpoint="/half-flush")
    assert ours == _as_observe_makes_it(DURATIONS)


WORKER = """
import json, os, sys, time
from service import observability
durations = json.loads(sys.argv[1])
if sys.argv[2] == "flusher":
    observability.Flusher(interval=0.05).start()
for d in durations:
    observability._observe("POST", "/worker", "200", d)
observability.moves_applied("worker-game", 3, False)
if sys.argv[2] == "fork":  # the child counts one more request of its own; nothing of its parent's
    pid = os.fork()
    if pid == 0:
        observability._observe("POST", "/worker", "200", 0.5)
        sys.exit(0)  # a normal exit: its atexit flush
    os.waitpid(pid, 0)
print("counted", flush=True)
sys.stdin.read()  # until the test closes it; then out, without a flush of its own
"""


def _worker(folder: str, how: str) -> subprocess.Popen[str]:
    env = {**os.environ, "PROMETHEUS_MULTIPROC_DIR": folder, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-c", WORKER, json.dumps(DURATIONS), how], cwd=ROOT, env=env,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stdout.readline() == "counted\n"
    return proc


def _files(folder: str) -> tuple[dict[str, float], float, float]:
    """What a multiprocess scrape reads: the /worker histogram, its requests and the moves."""
    registry = CollectorRegistry()
    MultiProcessCollector(registry, folder)
    families = list(registry.collect())
    histogram = _histogram(families, "cardtable_request_duration_seconds", endpoint="/worker")
    requests = _histogram(families, "cardtable_requests_total", endpoint="/worker").get("", 0.0)
    moves = _histogram(families, "cardtable_moves_applied_total", game="worker-game").get("", 0.0)
    return histogram, requests, moves


def test_a_process_writes_its_counts_when_it_exits() -> None:
    with tempfile.TemporaryDirectory() as folder:
        proc = _worker(folder, "plain")
        histogram, requests, _ = _files(folder)
        assert requests == 0 and histogram["_count"] == 0  # no flusher, no scrape: all pending
        proc.communicate("", timeout=60)
        assert proc.returncode == 0
        assert _files(folder) == (_as_observe_makes_it(DURATIONS), len(DURATIONS), 3)


def test_another_process_sees_a_live_workers_counts_within_the_flushers_interval() -> None:
    """The worker stays idle and alive after its requests: its flusher writes them."""
    with tempfile.TemporaryDirectory() as folder:
        proc = _worker(folder, "flusher")
        try:
            deadline = time.monotonic() + 30  # the interval is 0.05 s; a busy machine may be slower
            while _files(folder)[1] < len(DURATIONS) and time.monotonic() < deadline:
                time.sleep(0.02)
            assert proc.poll() is None
            assert _files(folder) == (_as_observe_makes_it(DURATIONS), len(DURATIONS), 3)
        finally:
            proc.communicate("", timeout=60)


def test_a_forked_child_never_writes_its_parents_pending_counts() -> None:
    """gunicorn forks its workers: what the parent counted is written once, by the parent."""
    with tempfile.TemporaryDirectory() as folder:
        proc = _worker(folder, "fork")
        proc.communicate("", timeout=60)
        assert proc.returncode == 0
        assert _files(folder) == (_as_observe_makes_it([*DURATIONS, 0.5]), len(DURATIONS) + 1, 3)


def test_the_flusher_flushes_once_an_interval_survives_errors_and_stops(monkeypatch, caplog) -> None:
    calls: list[float] = []

    def flaky() -> None:
        calls.append(time.monotonic())
        if len(calls) == 1:
            raise OSError("the metrics file went away")

    monkeypatch.setattr(observability, "flush", flaky)
    interval = 0.02
    started = time.monotonic()
    flusher = observability.Flusher(interval=interval).start()
    deadline = started + 30
    while len(calls) < 4 and time.monotonic() < deadline:
        time.sleep(0.01)
    flusher.stop()
    elapsed = time.monotonic() - started
    assert flusher.thread is not None and not flusher.thread.is_alive()
    assert len(calls) >= 4, "the flusher stopped after its error"
    assert len(calls) <= elapsed / interval + 1, "more than one flush an interval"
    assert "flushing the metrics or the access log failed" in caplog.text
    after = len(calls)
    time.sleep(3 * interval)
    assert len(calls) == after, "a stopped flusher flushed again"


def test_only_the_service_starts_a_flusher() -> None:
    """bench.floor_app runs under the same gunicorn config and has no metrics to flush."""
    assert observability.start_flusher(Flask("not-the-service")) is None


def test_the_flusher_writes_an_idle_processs_access_lines_within_its_interval() -> None:
    """The access log writes its buffer when a later request finds it a second old; with no later
    request (an idle worker, a developer's one request to ``cardtable serve``) the flusher does."""
    stream = io.StringIO()
    access = observability.AccessLog(stream, max_age=3600)
    access.write({"msg": "request", "path": "/v1/games"})
    assert stream.getvalue() == "", "buffered: no write is due yet"
    flusher = observability.Flusher(access, interval=0.02).start()
    try:
        deadline = time.monotonic() + 30
        while not stream.getvalue() and time.monotonic() < deadline:
            time.sleep(0.01)
    finally:
        flusher.stop()
    assert json.loads(stream.getvalue()) == {"msg": "request", "path": "/v1/games"}
