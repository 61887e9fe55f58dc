"""Deadlines that fire with nobody asking: the store's set of due games, claimed by the workers' sweepers
(``service.sweeper``), on a real Redis, under gunicorn with two workers, across a restart of every
worker, on a Redis Cluster, and in the in-process store of ``cardtable serve``. Each check reads the
store itself, never the game over the API (a request would apply the deadline on its own)."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator

import pytest
import redis

from service.app import create_app
from service.config import Settings
from service.deadlines import enforced
from service.store import DEADLINES_KEY, MemoryStore
from service.sweeper import LEASE_MS, Sweeper, settle_due
from tests.http import Client
from tests.servers import RedisClusterServers, RedisServer, gunicorn
from tests.sse import EventStream


@pytest.fixture(scope="module")
def redis_server() -> Iterator[RedisServer]:
    """This module's own Redis. The suite's shared one has long-lived gunicorn workers on it (the
    fuzzing's, for one), and every worker sweeps for due games: they would apply these tests'
    deadlines before the sweepers under test, or while "every worker" is down."""
    server = RedisServer()
    server.start()
    yield server
    server.cleanup()


#: Ann against a bot, one second a turn, and a bot for good after one timeout: the game has exactly one
#: timeout, and then the bots play it out.
ONE_TIMEOUT = {"players": 2, "seats": [{"name": "Ann"}, {"bot": "greedy"}],
               "clock": {"kind": "per_move", "seconds": 1, "max_timeouts": 1}}


def _timeouts(entries: list[bytes]) -> list[dict]:
    return [e for e in map(json.loads, entries) if any(ev["type"] == "timed_out" for ev in e["events"])]


def _until(check: Callable[[], bool], seconds: float) -> bool:
    """Whether ``check`` holds within ``seconds`` (looked at every tenth of a second; bounded)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if check():
            return True
        time.sleep(0.1)
    return check()


def _redis_log(url: str, game_id: str) -> list[bytes]:
    return redis.Redis.from_url(url).lrange(f"cardtable:log:{{{game_id}}}", 0, -1)


def _app(**settings):
    settings = {"allow_fixed_deals": True, "store_timeout": 5.0, "request_log": False, **settings}
    return create_app(Settings(**settings))


def test_a_game_joins_the_due_set_at_its_deadline_and_leaves_it_when_it_is_over(redis_server) -> None:
    app = _app(redis_url=redis_server.url, idle_days=0)
    client = app.test_client()
    created = client.post("/v1/sten/games", json={**ONE_TIMEOUT, "clock": {"kind": "per_move", "seconds": 60}}).json
    r = redis.Redis.from_url(redis_server.url)
    view = client.get(f"/v1/sten/games/{created['game_id']}").json
    score = r.zscore(DEADLINES_KEY, created["game_id"])
    assert score is not None and abs(score - _ms(view["deadline"])) < 1
    token = created["seats"][0]["token"]
    client.post(f"/v1/sten/games/{created['game_id']}/resign", headers={"Authorization": f"Bearer {token}"})
    assert r.zscore(DEADLINES_KEY, created["game_id"]) is None


def test_two_sweepers_racing_on_one_due_game_apply_its_timeout_once(redis_server) -> None:
    apps = [_app(redis_url=redis_server.url), _app(redis_url=redis_server.url)]
    created = apps[0].test_client().post("/v1/sten/games", json={
        **ONE_TIMEOUT, "clock": {"kind": "per_move", "seconds": 1, "max_timeouts": 3}}).json
    game_id = created["game_id"]
    time.sleep(1.2)
    start = threading.Barrier(2)
    applied: list[bool] = []

    def race(app) -> None:
        with app.app_context():
            start.wait(5)
            applied.append(settle_due(game_id, 0))  # both as if each had claimed it

    threads = [threading.Thread(target=race, args=(a,)) for a in apps]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert sorted(applied) == [False, True]
    assert len(_timeouts(_redis_log(redis_server.url, game_id))) == 1


def test_a_sweeper_that_lost_the_race_does_not_count_the_deadline_the_other_applied(redis_server) -> None:
    """The loser of the race above, made certain: it read the game while the deadline was due, the
    other sweeper applied it first, so its commit loses and it reads the game again, newer; that
    version is not its doing."""
    apps = [_app(redis_url=redis_server.url), _app(redis_url=redis_server.url)]
    created = apps[0].test_client().post("/v1/sten/games", json={
        **ONE_TIMEOUT, "clock": {"kind": "per_move", "seconds": 1, "max_timeouts": 3}}).json
    game_id = created["game_id"]
    time.sleep(1.2)
    late = apps[1]
    with late.app_context():
        game = late.extensions["cardtable"].games["sten"]
        stale = game.read(game_id)  # read while due, before the other sweeper wrote
    with apps[0].app_context():
        assert settle_due(game_id, 0)
    with late.app_context():
        now, wrote = enforced(game, game_id, stale)
    assert not wrote and now.version > stale.version
    assert len(_timeouts(_redis_log(redis_server.url, game_id))) == 1


def test_a_claim_leases_a_due_game_so_a_second_sweep_does_not_take_it_again(redis_server) -> None:
    app = _app(redis_url=redis_server.url)
    with app.app_context():
        store = app.extensions["cardtable"].store
        store.schedule("lease-probe", 1_000)
        now = 10_000_000
        assert store.claim(now, LEASE_MS, 1000).count(("lease-probe", now + LEASE_MS)) == 1
        assert "lease-probe" not in [g for g, _ in store.claim(now + 1, LEASE_MS, 1000)]
        assert "lease-probe" in [g for g, _ in store.claim(now + LEASE_MS, LEASE_MS, 1000)]  # the lease is over
        assert store.reschedule("lease-probe", now + 2 * LEASE_MS, None)


def test_with_two_gunicorn_workers_a_deadline_fires_with_no_client_asking_exactly_once(redis_server) -> None:
    with gunicorn(redis_server.url, workers=2) as url:
        created = Client(url).post("/v1/sten/games", ONE_TIMEOUT).json
        game_id = created["game_id"]
        fired = _until(lambda: bool(_timeouts(_redis_log(redis_server.url, game_id))), 15)
        assert fired, "no timeout within 15 s"
        time.sleep(2)  # time for a second, wrong application, if there were one
        timeouts = _timeouts(_redis_log(redis_server.url, game_id))
    assert len(timeouts) == 1
    assert timeouts[0]["events"] == [{"type": "timed_out", "public": {"seat": 0, "outcome": "replaced"},
                                      "private": {}}]


def test_a_stream_sees_the_timeout_at_once_and_a_game_lost_on_time_ends_it(redis_server) -> None:
    with gunicorn(redis_server.url, workers=2) as url:
        created = Client(url).post("/v1/sten/games", {
            "players": 2, "clock": {"kind": "per_move", "seconds": 1, "on_timeout": "forfeit"}}).json
        stream = EventStream(url, f"/v1/sten/games/{created['game_id']}/events", timeout=15)
        try:
            entries, end = stream.entries_until_end(15)
        finally:
            stream.close()
    assert [e["events"][0]["type"] for e in entries] == ["timed_out"]
    assert entries[0]["events"][0]["outcome"] == "lost"
    assert end is not None and end.json == {"version": entries[0]["version"]}


def test_a_deadline_that_passed_while_every_worker_was_down_fires_when_they_come_back(redis_server) -> None:
    with gunicorn(redis_server.url, workers=2) as url:
        created = Client(url).post("/v1/sten/games", {
            **ONE_TIMEOUT, "clock": {"kind": "per_move", "seconds": 2, "max_timeouts": 1}}).json
        game_id = created["game_id"]
    # every worker is gone; the deadline passes meanwhile
    time.sleep(2.5)
    assert _timeouts(_redis_log(redis_server.url, game_id)) == []
    with gunicorn(redis_server.url, workers=2):
        fired = _until(lambda: bool(_timeouts(_redis_log(redis_server.url, game_id))), 15)
    assert fired and len(_timeouts(_redis_log(redis_server.url, game_id))) == 1


def test_the_in_process_store_of_cardtable_serve_fires_deadlines_with_its_own_loop() -> None:
    store = MemoryStore()
    app = create_app(Settings(allow_fixed_deals=True, request_log=False, sweep_seconds=0.1), store=store)
    from service.sweeper import start

    sweeper = start(app)
    assert sweeper is not None
    try:
        created = app.test_client().post("/v1/sten/games", json=ONE_TIMEOUT).json
        game_id = created["game_id"]
        assert _until(lambda: bool(_timeouts(store.log(game_id))), 10)
        assert len(_timeouts(store.log(game_id))) == 1
    finally:
        sweeper.stop()


def test_sweeping_off_means_no_loop() -> None:
    from service.sweeper import start

    assert start(create_app(Settings(request_log=False, sweep_seconds=0), store=MemoryStore())) is None


@pytest.mark.slow
def test_on_a_redis_cluster_due_games_fire_once_and_the_set_is_kept_on_its_own_slot() -> None:
    servers = RedisClusterServers()
    servers.start()
    try:
        apps = [_app(redis_url=servers.url, redis_cluster=True) for _ in range(2)]
        ids = []
        for _ in range(3):
            created = apps[0].test_client().post("/v1/sten/games", json=ONE_TIMEOUT)
            assert created.status_code == 201, created.json
            ids.append(created.json["game_id"])
        time.sleep(1.2)
        sweepers = [Sweeper(app, 0.1, 2) for app in apps]  # two at a time: both sweepers get work
        threads = [threading.Thread(target=s.sweep) for s in sweepers]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        for _ in range(3):  # what a full batch left
            sweepers[0].sweep()
        store = apps[0].extensions["cardtable"].store
        for game_id in ids:
            assert len(_timeouts(store.log(game_id))) == 1, game_id
    finally:
        servers.cleanup()


def _ms(at: str) -> int:
    from datetime import datetime

    return int(datetime.fromisoformat(at.replace("Z", "+00:00")).timestamp() * 1000)


def test_the_sweeper_backs_off_while_the_store_is_down_and_goes_on_when_it_is_back() -> None:
    from service.sweeper import start
    from tests.servers import RedisServer

    server = RedisServer(persist=True)
    server.start()
    app = _app(redis_url=server.url, sweep_seconds=0.1, store_timeout=1.0)
    sweeper = start(app)
    assert sweeper is not None
    try:
        created = app.test_client().post("/v1/sten/games", json={
            **ONE_TIMEOUT, "clock": {"kind": "per_move", "seconds": 2, "max_timeouts": 1}}).json
        server.stop()
        time.sleep(2.5)  # the deadline passes while the store is down; the loop keeps trying, slower
        assert sweeper.thread is not None and sweeper.thread.is_alive()
        server.start()
        assert _until(lambda: bool(_timeouts(_redis_log(server.url, created["game_id"]))), 20)
    finally:
        sweeper.stop()
        server.cleanup()


def test_an_app_that_is_not_the_service_gets_no_sweeper(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bench's floor app runs under the same gunicorn config, whose workers start the sweeper:
    an app with no games to sweep gets none and boots (it failed with a KeyError)."""
    from flask import Flask

    from bench.floor_app import create_app as floor_app
    from service import sweeper

    monkeypatch.setenv("REDIS_URL", "redis://127.0.0.1:1")  # never asked: nothing is swept
    assert sweeper.start(floor_app()) is None
    assert sweeper.start(Flask("other")) is None
