"""What the request middleware writes is what it wrote before it was made cheaper: request ids
of the same form and never shared, and the same /metrics series and values whether the service
runs in one process or under gunicorn's multiprocess collector."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import orjson
import pytest

from service import observability

ROOT = Path(__file__).resolve().parents[2]


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


_COMPARE_SERIES = textwrap.dedent("""
    import json, os
    from prometheus_client import REGISTRY, CollectorRegistry
    from service import observability as o

    durations = [0.0, 0.0004, 0.001, 0.0010001, 0.0025, 0.007, 0.05, 0.1, 0.2500001, 1.0, 2.5, 2.6, 40.0]
    for i, d in enumerate(durations):
        status = "200" if i % 3 else "409"
        o._observe("POST", "/middleware", status, d)
        o.REQUESTS.labels("POST", "/public", status).inc()
        o.LATENCY.labels("POST", "/public").observe(d)
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
    else:
        registry = REGISTRY
    series = {"/middleware": [], "/public": []}
    for metric in registry.collect():
        for s in metric.samples:
            if s.labels.get("endpoint") in series and not s.name.endswith("_created"):
                labels = {k: v for k, v in s.labels.items() if k != "endpoint"}
                series[s.labels["endpoint"]].append([s.name, sorted(labels.items()), s.value])
    print(json.dumps({k: sorted(v) for k, v in series.items()}))
""")


@pytest.mark.parametrize("multiprocess", [False, True], ids=["one process", "multiprocess files"])
def test_metrics_read_what_the_public_prometheus_calls_would_have_written(tmp_path, multiprocess: bool) -> None:
    """The middleware changes the series' values directly; its counts, sums and buckets (bounds
    themselves included) are those of ``Counter.inc`` and ``Histogram.observe``. A new
    prometheus_client that moves its internals fails here."""
    env = {k: v for k, v in os.environ.items() if k not in ("PROMETHEUS_MULTIPROC_DIR", "prometheus_multiproc_dir")}
    if multiprocess:
        env["PROMETHEUS_MULTIPROC_DIR"] = str(tmp_path)
    out = subprocess.run([sys.executable, "-c", _COMPARE_SERIES], cwd=ROOT, env=env, capture_output=True,
                         text=True, timeout=60, check=True).stdout
    series = orjson.loads(out)
    # two statuses counted; one histogram: its buckets, _count and _sum
    assert len(series["/public"]) == 2 + len(observability.LATENCY._upper_bounds) + 2
    assert series["/middleware"] == series["/public"]
    buckets = {dict(labels)["le"]: value for name, labels, value in series["/public"] if name.endswith("_bucket")}
    assert buckets["0.001"] == 3 and buckets["+Inf"] == 13 and buckets["2.5"] == 11  # a bound is in its bucket
