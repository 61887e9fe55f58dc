"""A hung Redis costs a request at most one store timeout, and what does not need the store never waits.

The service's guard (``service.guard``): after the store failed to answer, a worker's circuit breaker
refuses store calls at once for CARDTABLE_BREAKER_SECONDS (503 with Retry-After), then lets one probe
through; the rate limiter shares the breaker and fails open without asking a store that just failed;
nothing retries after a timeout. Proven against a real redis-server frozen with SIGSTOP (and resumed
in a ``finally``), under one gunicorn gevent worker, so that every request meets the same breaker.
The pieces are also checked on their own, with a fake clock.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Iterator

import pytest

from service.guard import Breaker, Gate, Late, Shared
from service.store import RedisStore, StoreUnavailable
from tests.http import Client, Reply
from tests.servers import RedisServer, gunicorn

#: CARDTABLE_STORE_TIMEOUT of the frozen-Redis test. A request that waits for the store takes at least
#: this long; one that does not is judged "at once" below half of it, a bound that a loaded 2-core
#: machine's slowest answers must stay within (with 1 s, a catalogue read once took 0.51 s there).
TIMEOUT = 2.0
OPEN = 4.0  # CARDTABLE_BREAKER_SECONDS there: long enough to send every request below while it is open


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_the_breaker_opens_on_a_failure_refuses_then_lets_one_probe_through() -> None:
    clock = Clock()
    breaker = Breaker(open_seconds=2.0, probe_seconds=5.0, clock=clock)
    assert breaker.closed and breaker.admit()
    assert breaker.failed(started=clock.now)
    clock.now += 1.0
    assert not breaker.admit() and breaker.refuses()
    clock.now += 1.5  # past the open time: half-open
    assert not breaker.refuses(probe=True)
    assert breaker.refuses(probe=False) and not breaker.admit(probe=False), "the rate limiter never probes"
    assert breaker.admit(), "the first caller goes as the probe"
    assert not breaker.admit() and breaker.refuses(), "the others wait for the probe's outcome"
    assert breaker.failed(started=clock.now)  # the probe failed: open again
    clock.now += 2.5
    assert breaker.admit()
    breaker.answered()  # the probe got an answer: closed
    assert breaker.closed and breaker.admit() and breaker.admit(probe=False)


def test_a_lost_probe_is_replaced_after_its_bound() -> None:
    clock = Clock()
    breaker = Breaker(open_seconds=1.0, probe_seconds=3.0, clock=clock)
    breaker.failed(started=clock.now)
    clock.now += 1.0
    assert breaker.admit()  # a probe that never reports
    clock.now += 2.0
    assert not breaker.admit()
    clock.now += 1.5
    assert breaker.admit(), "a probe that never reported must not keep the breaker open for ever"


def test_a_failure_does_not_open_the_breaker_when_the_store_answered_since_the_call_began() -> None:
    """A worker busy on CPU times out calls whose replies wait in its sockets; the store is fine."""
    clock = Clock()
    breaker = Breaker(open_seconds=1.0, probe_seconds=3.0, clock=clock)
    started = clock.now
    clock.now += 0.5
    breaker.answered()
    clock.now += 0.6
    assert not breaker.failed(started) and breaker.closed
    assert breaker.failed(clock.now) and not breaker.closed


def test_the_gate_admits_its_size_and_hands_a_freed_place_to_the_longest_waiter() -> None:
    gate = Gate(2)
    assert gate.enter(0) and gate.enter(0)
    assert not gate.enter(0.01), "a third caller must wait, and gives up after its wait"
    order: list[str] = []
    entered = threading.Event()

    def wait(name: str) -> None:
        if gate.enter(5):
            order.append(name)
            entered.set()

    first = threading.Thread(target=wait, args=("first",))
    first.start()
    while gate.waiting < 1:
        time.sleep(0.001)
    second = threading.Thread(target=wait, args=("second",))
    second.start()
    while gate.waiting < 2:
        time.sleep(0.001)
    gate.leave()
    assert entered.wait(5)
    assert order == ["first"]
    gate.leave()
    second.join(5)
    first.join(5)
    assert order == ["first", "second"]


class Stopped(BaseException):
    """What a killed greenlet sees (gevent's GreenletExit is a BaseException too)."""


def test_a_waiter_stopped_while_it_waits_leaves_no_place_behind(monkeypatch) -> None:
    gate = Gate(1)
    assert gate.enter(0)

    class StoppedWhileWaiting(threading.Event):
        def wait(self, timeout: float | None = None) -> bool:
            raise Stopped

    monkeypatch.setattr("service.guard.threading.Event", StoppedWhileWaiting)
    with pytest.raises(Stopped):
        gate.enter(5)
    monkeypatch.undo()
    assert gate.waiting == 0
    gate.leave()
    assert gate.enter(0), "the place went to a waiter that was gone"


def test_a_shared_read_whose_leader_stopped_fails_its_followers_and_frees_the_key() -> None:
    shared = Shared()
    release_first, started_first = threading.Event(), threading.Event()
    outcomes: dict[str, object] = {}

    def first_read() -> int:
        started_first.set()
        release_first.wait(5)
        return 1

    def stopped_read() -> int:
        raise Stopped

    def ask(name: str, read) -> None:
        try:
            outcomes[name] = shared.run("k", read, 5)
        except (Stopped, Late) as exc:
            outcomes[name] = type(exc)

    first = threading.Thread(target=ask, args=("first", first_read))
    first.start()
    started_first.wait(5)
    # asked while the first read runs: the leader of the next read, and a caller sharing it
    leader = threading.Thread(target=ask, args=("leader", stopped_read))
    leader.start()
    time.sleep(0.05)
    follower = threading.Thread(target=ask, args=("follower", lambda: 99))
    follower.start()
    time.sleep(0.05)
    release_first.set()
    for t in (first, leader, follower):
        t.join(5)
    assert outcomes == {"first": 1, "leader": Stopped, "follower": Late}
    assert shared.run("k", lambda: 3, 5) == 3, "the key must work again"


def test_identical_reads_at_once_share_one_round_trip_begun_after_each_asked() -> None:
    shared = Shared()
    calls: list[int] = []
    release = threading.Event()
    results: list[int] = []

    def read() -> int:
        calls.append(len(calls))
        release.wait(5)
        return len(calls)

    def ask() -> None:
        results.append(shared.run("k", read, 5))

    leader = threading.Thread(target=ask)
    leader.start()
    while not calls:
        time.sleep(0.001)
    # asked while the first read runs: they must not get its answer (it began before they asked)
    later = [threading.Thread(target=ask) for _ in range(20)]
    for t in later:
        t.start()
    time.sleep(0.05)
    release.set()
    for t in [leader, *later]:
        t.join(5)
    assert len(calls) == 2, "twenty-one equal reads cost two round trips"
    assert sorted(results) == [1] + [2] * 20


def test_a_shared_read_passes_its_failure_to_every_caller_and_is_bounded() -> None:
    shared = Shared()
    go = threading.Event()

    def failing() -> int:
        go.wait(5)
        raise StoreUnavailable("down")

    errors: list[BaseException] = []

    def ask() -> None:
        try:
            shared.run("k", failing, 5)
        except StoreUnavailable as exc:
            errors.append(exc)

    threads = [threading.Thread(target=ask) for _ in range(5)]
    for t in threads:
        t.start()
    time.sleep(0.05)
    go.set()
    for t in threads:
        t.join(5)
    assert len(errors) == 5
    stuck = threading.Event()
    holder = threading.Thread(target=shared.run, args=("s", lambda: stuck.wait(5), 5))
    holder.start()
    time.sleep(0.02)
    follower = threading.Thread(target=shared.run, args=("s", lambda: None, 5))
    follower.start()  # waits for the stuck read to finish before its own begins
    time.sleep(0.02)
    with pytest.raises(Late):
        shared.run("s", lambda: None, 0.05)
    stuck.set()
    holder.join(5)
    follower.join(5)


def test_a_full_pool_answers_503_without_opening_the_breaker(redis_server) -> None:
    """Waiting in line is this worker's own congestion, not a failure of the store: a burst must
    never trip the breaker (it would turn every request into a 503)."""
    store = RedisStore.from_url(redis_server.url, timeout=0.2, pool_size=1)
    assert store.load("nothing-here") is None
    assert store.gate.enter(0)  # the one connection is taken
    try:
        started = time.monotonic()
        with pytest.raises(StoreUnavailable, match="no connection"):
            store.load("nothing-here")
        assert time.monotonic() - started < 2.0
        assert store.breaker("cardtable:game:{nothing-here}").closed
    finally:
        store.gate.leave()
    assert store.load("nothing-here") is None


@pytest.fixture()
def own_redis() -> Iterator[RedisServer]:
    server = RedisServer()
    server.start()
    yield server
    server.cleanup()


def _timed(client: Client, method: str, path: str, **kw: object) -> tuple[Reply, float]:
    started = time.monotonic()
    reply = client.request(method, path, **kw)  # type: ignore[arg-type]
    return reply, time.monotonic() - started


def _assert_store_unavailable(reply: Reply, what: str) -> None:
    assert reply.status == 503, (what, reply.status, reply.body[:200])
    assert reply.content_type == "application/problem+json" and reply.json["code"] == "store_unavailable"
    assert int(reply.headers["retry-after"]) > 0


@pytest.mark.slow  # real timeouts of a frozen Redis
def test_a_frozen_redis_costs_one_timeout_then_answers_at_once_and_play_resumes(own_redis: RedisServer) -> None:
    env = {"CARDTABLE_STORE_TIMEOUT": str(TIMEOUT), "CARDTABLE_BREAKER_SECONDS": str(OPEN),
           "CARDTABLE_RETRY_AFTER": "1", "CARDTABLE_RATE_LIMIT": "1000/s"}  # the limiter counts in Redis
    with gunicorn(own_redis.url, workers=1, extra_env=env) as url:
        client = Client(url)
        created = client.post("/v1/sten/games", {"players": 2}).json
        gid, tokens = created["game_id"], [s["token"] for s in created["seats"]]
        path = f"/v1/sten/games/{gid}"
        token, view = next((t, v) for t in tokens if (v := client.get(path, token=t).json)["legal_moves"])
        move = {"version": view["version"], "move": view["legal_moves"][0]}
        assert own_redis.proc is not None
        os.kill(own_redis.proc.pid, signal.SIGSTOP)
        try:
            # the first request that needs the store waits one timeout (its rate-limit count), not more
            reply, took = _timed(client, "GET", path, token=token)
            _assert_store_unavailable(reply, "first")
            assert took < 2 * TIMEOUT, f"the first request took {took:.2f} s: timeouts were repeated"
            # the breaker is open: every store request answers at once
            for method, target, body in [("GET", path, None), ("POST", f"{path}/moves", move),
                                         ("GET", f"{path}/log", None), ("GET", f"{path}/events", None),
                                         ("POST", "/v1/sten/games", {"players": 2}), ("GET", "/readyz", None)]:
                reply, took = _timed(client, method, target, body=body, token=token)
                _assert_store_unavailable(reply, target)
                assert took < TIMEOUT / 2, f"{method} {target} waited {took:.2f} s for a store known to be down"
            # routes that need no store never wait, while the breaker is open and after (the rate
            # limiter, which counts in Redis, neither waits nor probes)
            until = time.monotonic() + OPEN + 1.0
            while time.monotonic() < until:
                for target in ("/v1/games", "/healthz", "/openapi.json", "/docs", "/play/"):
                    reply, took = _timed(client, "GET", target)
                    assert reply.status == 200, (target, reply.status)
                    assert took < TIMEOUT / 2, f"{target} waited {took:.2f} s for the store"
                time.sleep(0.05)
        finally:
            os.kill(own_redis.proc.pid, signal.SIGCONT)
        # play resumes: the next request past the breaker's time probes, and the breaker closes
        deadline = time.monotonic() + 20
        while (again := client.get(path, token=token)).status != 200:
            assert again.status == 503, again.status
            assert time.monotonic() < deadline, "play did not resume after Redis did"
            time.sleep(0.2)
        assert again.json["version"] == view["version"]
        moved = client.post(f"{path}/moves", move, token=token)
        assert moved.status == 200 and moved.json["version"] == view["version"] + 1
