"""Losing the Redis primary (SIGKILL) in the middle of play loses no acknowledged move (issue 15).

With CARDTABLE_MIN_REPLICA_ACKS=1 a move is answered 200 only after a replica acknowledged it
(WAIT), so the replica that the failover promotes holds every acknowledged move. Four players
play through gunicorn; the primary is killed; once the failover is done the dead node comes back
as a replica (as a supervisor would restart it). Every acknowledged move must then be in its
game's log, play must resume within 30 s, and nothing may be half-written.

Both on Sentinel (a primary, a replica, three Sentinels) and on a Redis Cluster of three masters
with a replica each; short timeouts keep each test to seconds.
"""

from __future__ import annotations

import json
import threading
import time

import pytest
import redis
from redis.cluster import RedisCluster

from engines import REGISTRY
from engines.core import move_from_json
from tests.faults import lost_moves, resume_seconds, run_players, stop_players, wait_for_acks
from tests.servers import RedisClusterServers, SentinelServers, gunicorn

#: Settings of the service under test: 503s come quickly while the primary is gone.
FAST = {"CARDTABLE_STORE_TIMEOUT": "0.5", "CARDTABLE_RETRY_AFTER": "1"}


def _replays(client: redis.Redis | RedisCluster, gid: str) -> bool:
    """The stored snapshot is what the stored log replays to: nothing half-written."""
    record = json.loads(client.hget(f"cardtable:game:{{{gid}}}", "s"))
    engine = REGISTRY[record["game"]]
    state = engine.new_game(record["players"], record["options"], record["seed"], record["deck"])
    entries = client.lrange(f"cardtable:log:{{{gid}}}", 0, -1)
    for raw in entries:
        entry = json.loads(raw)
        state = engine.apply(state, entry["seat"], move_from_json(engine.move_types, entry["move"]))
    return (engine.encode(state) == record["state"]
            and int(client.hget(f"cardtable:game:{{{gid}}}", "v")) == len(entries))


@pytest.fixture()
def sentinels():
    servers = SentinelServers()
    servers.start()
    yield servers
    servers.cleanup()


def test_killing_the_primary_under_sentinel_loses_no_acknowledged_move(sentinels) -> None:
    # REDIS_URL points nowhere: with REDIS_SENTINELS set it must be ignored.
    env = {**sentinels.env, **FAST}
    with gunicorn("redis://127.0.0.1:1/0", workers=2, extra_env=env) as url:
        stop = threading.Event()
        players = run_players(url, 4, stop)
        try:
            wait_for_acks(players, 5)
            killed = time.monotonic()
            promoted = sentinels.kill_primary_and_recover()
            wait_for_acks(players, 5, since=killed, timeout=45)
        finally:
            stop_players(players, stop)
        resumed = resume_seconds(players, killed)
        lost = lost_moves(url, players)
        acked = sum(len(p.acks) for p in players)
        statuses = sum((p.statuses for p in players), start=type(players[0].statuses)())
        print(f"\nsentinel failover: promoted after {promoted:.2f} s, play resumed after {resumed:.2f} s, "
              f"{acked} moves acknowledged, {len(lost)} lost, answers {dict(statuses)}")
        assert lost == []
        assert resumed < 30
        assert set(statuses) <= {200, 201, 409, 503}, statuses
        assert statuses[503] > 0, "the kill was not noticed: the test proved nothing"
        assert all(p.given_up == 0 for p in players)
        primary = redis.Redis(port=sentinels.primary.port)
        assert primary.info("replication")["role"] == "master"
        games = {a.game for p in players for a in p.acks}
        assert all(_replays(primary, gid) for gid in games)


@pytest.fixture()
def replicated_cluster():
    servers = RedisClusterServers(masters=3, replicas=1, node_timeout_ms=1000)
    servers.start()
    yield servers
    servers.cleanup()


def test_killing_a_cluster_master_loses_no_acknowledged_move(replicated_cluster) -> None:
    cluster = replicated_cluster
    env = {"REDIS_CLUSTER": "1", "CARDTABLE_MIN_REPLICA_ACKS": "1", **FAST}
    with gunicorn(cluster.url, workers=2, extra_env=env) as url:
        stop = threading.Event()
        players = run_players(url, 4, stop)
        try:
            wait_for_acks(players, 5)
            # the master of a game in play, so that the kill is felt
            victim = cluster.master_of(f"cardtable:game:{{{players[0].acks[-1].game}}}")
            assert victim is not None
            killed = time.monotonic()
            victim.kill()
            deadline = killed + 30
            while cluster.master_of(f"cardtable:game:{{{players[0].acks[-1].game}}}") in (victim, None):
                assert time.monotonic() < deadline, "the cluster did not fail over"
                time.sleep(0.05)
            promoted = time.monotonic() - killed
            victim.start()  # it rejoins as a replica of the master that replaced it
            wait_for_acks(players, 5, since=killed, timeout=45)
        finally:
            stop_players(players, stop)
        resumed = resume_seconds(players, killed)
        lost = lost_moves(url, players)
        acked = sum(len(p.acks) for p in players)
        statuses = sum((p.statuses for p in players), start=type(players[0].statuses)())
        print(f"\ncluster failover: promoted after {promoted:.2f} s, play resumed after {resumed:.2f} s, "
              f"{acked} moves acknowledged, {len(lost)} lost, answers {dict(statuses)}")
        assert lost == []
        assert resumed < 30
        assert set(statuses) <= {200, 201, 409, 503}, statuses
        assert all(p.given_up == 0 for p in players)
        nodes = RedisCluster(host="127.0.0.1", port=next(n.port for n in cluster.nodes if n is not victim))
        games = {a.game for p in players for a in p.acks}
        assert all(_replays(nodes, gid) for gid in games)
