"""A gunicorn worker killed with SIGKILL under load.

Four players keep three workers busy; two workers are killed, one after the other, while
requests are in flight. Every answer must be 200/201, 409 or 503, or the connection drops
(the request died with its worker; the player retries it with the same Idempotency-Key). Nothing
may be half-written: every game's stored snapshot is what its stored log replays to, and every
acknowledged move is in its game's log.
"""

from __future__ import annotations

import os
import signal
import threading
import time

import pytest
import redis

from tests.faults import lost_moves, replays_to_stored_state, run_players, stop_players, wait_for_acks
from tests.servers import gunicorn

pytestmark = pytest.mark.slow  # workers killed under load


def test_a_worker_killed_under_load_leaves_nothing_half_written(redis_server) -> None:
    with gunicorn(redis_server.url, workers=3) as url:
        stop = threading.Event()
        players = run_players(url, 4, stop)
        killed: list[int] = []
        try:
            wait_for_acks(players, 5)
            for _ in range(2):
                before = time.monotonic()
                victim = url.workers()[0]
                os.kill(victim, signal.SIGKILL)
                killed.append(victim)
                wait_for_acks(players, 5, since=before, timeout=45)  # play goes on
        finally:
            stop_players(players, stop)
        statuses = sum((p.statuses for p in players), start=type(players[0].statuses)())
        lost = lost_moves(url, players)
        print(f"\nworker kills: {len(killed)}, {sum(len(p.acks) for p in players)} moves acknowledged, "
              f"{len(lost)} lost, answers {dict(statuses)} (0 = dropped connection)")
        assert set(statuses) <= {0, 200, 201, 409, 503}, statuses
        assert lost == []
        assert all(p.given_up == 0 for p in players)
        assert not set(killed) & set(url.workers()), "gunicorn did not replace the killed workers"
        r = redis.Redis.from_url(redis_server.url)
        games = {g for p in players for g in p.tokens}
        assert games and all(replays_to_stored_state(r, gid) for gid in games)
