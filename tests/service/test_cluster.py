"""Scale-out: the service on a real three-master Redis Cluster (redis-py's cluster client).

Hash-tagged keys keep a game's snapshot, log and idempotency records on one slot, so the
compare-and-set scripts run on a cluster exactly as on one server.
"""

from __future__ import annotations

import random
import time

import pytest
import redis
from redis.cluster import RedisCluster

from engines import REGISTRY
from schemas.common import LOG_LIMIT_MAX
from tests.http import Client
from tests.playout import short_options
from tests.servers import RedisClusterServers, gunicorn

pytestmark = pytest.mark.slow  # a real three-master cluster


@pytest.fixture(scope="module")
def cluster():
    servers = RedisClusterServers()
    servers.start()
    yield servers
    servers.cleanup()


@pytest.fixture(scope="module")
def cluster_url(cluster):
    with gunicorn(cluster.url, workers=2, extra_env={"REDIS_CLUSTER": "1"}) as url:
        yield url


@pytest.mark.parametrize("game", sorted(REGISTRY))
def test_games_play_to_their_end_on_a_redis_cluster(cluster, cluster_url, game: str) -> None:
    engine = REGISTRY[game]
    client = Client(cluster_url)
    created = client.post(f"/v1/{game}/games", {"players": engine.players.start, "options": short_options(engine)},
                          headers={"Idempotency-Key": f"cluster-{game}"})
    assert created.status == 201, created.json
    gid, tokens = created.json["game_id"], [s["token"] for s in created.json["seats"]]
    rng = random.Random(game)
    path = f"/v1/{game}/games/{gid}"
    for _ in range(5000):
        spectator = client.get(path).json
        if spectator["status"] == "finished":
            break
        seat = spectator["to_move"][0]
        view = client.get(path, token=tokens[seat]).json
        move = view["legal_moves"][int(rng.random() * len(view["legal_moves"]))]
        reply = client.post(path + "/moves", {"version": view["version"], "move": move}, token=tokens[seat],
                            headers={"Idempotency-Key": f"m{view['version']}"})
        assert reply.status == 200, reply.json
        stale = client.post(path + "/moves", {"version": view["version"], "move": move}, token=tokens[seat])
        assert stale.status == 409
    else:
        raise AssertionError("no end")
    assert len(client.get(path + f"/log?limit={LOG_LIMIT_MAX}").json["entries"]) == spectator["version"]
    nodes = RedisCluster.from_url(cluster.url)
    keys = [f"cardtable:game:{{{gid}}}", f"cardtable:log:{{{gid}}}", f"cardtable:idem:{{{gid}}}:create"]
    assert len({nodes.keyslot(k) for k in keys}) == 1
    assert all(nodes.exists(k) for k in keys)
    # the games really are spread over the masters
    assert redis.Redis.from_url(cluster.url).cluster("info")["cluster_known_nodes"] == "3"


def test_the_cluster_spreads_games_over_every_master(cluster, cluster_url) -> None:
    client = Client(cluster_url)
    ids = [client.post("/v1/sten/games", {"players": 2}).json["game_id"] for _ in range(30)]
    nodes = RedisCluster.from_url(cluster.url)
    owners = {nodes.get_node_from_key(f"cardtable:game:{{{gid}}}").port for gid in ids}
    assert len(owners) == 3


def test_streams_on_a_cluster_use_sharded_pub_sub_and_miss_nothing(cluster, cluster_url) -> None:
    """Games on every master: each stream hears its game's entries through the sharded channel of
    the game's slot (no broadcast), at once, on both workers."""
    from tests.sse import EventStream

    client = Client(cluster_url)
    games = []
    for n in range(6):  # enough games to land on every master
        created = client.post("/v1/sten/games", {"players": 2, "seed": f"cluster-stream-{n}", "bots": [1]}).json
        games.append((created["game_id"], created["seats"][0]["token"]))
    streams = [EventStream(cluster_url, f"/v1/sten/games/{gid}/events", token=token) for gid, token in games]
    for stream in streams:
        assert stream.next().comment == "connected"
    for (gid, token), stream in zip(games, streams, strict=True):
        view = client.get(f"/v1/sten/games/{gid}", token=token).json
        after = client.post(f"/v1/sten/games/{gid}/moves", {"move": view["legal_moves"][0]}, token=token).json
        answered = time.monotonic()
        got = []
        while not got or got[-1] < after["version"]:
            frame = stream.next()
            assert frame is not None and frame.comment != "keep-alive", "the entry was not pushed"
            if frame.event == "entry":
                got.append(frame.json["version"])
        # pushed: a stream re-reads the log only after a keep-alive (none came before the entry, above),
        # 15 s apart; the bound is that, not a measure of speed
        assert time.monotonic() - answered < 10.0
        assert got == list(range(view["version"] + 1, after["version"] + 1))
        stream.close()
    masters = {RedisCluster.from_url(cluster.url).get_node_from_key(f"cardtable:game:{{{gid}}}").port
               for gid, _ in games}
    assert len(masters) > 1


def test_the_lobby_is_right_on_a_cluster_where_it_lives_on_another_slot_than_its_games(cluster, cluster_url) -> None:
    """The lobby's set and the games lie on different slots (and masters): the set changes just
    before a listed game is written and just after its wait ends, and the reader checks each member
    against its game, dropping the stale ones."""
    import json

    from service.lobby import SETTLING, member

    client = Client(cluster_url)
    game = "siebenschlaefer"  # no other test lists one
    lobby = f"cardtable:lobby:{{{game}}}"
    nodes = RedisCluster.from_url(cluster.url)
    made = [client.post(f"/v1/{game}/games", {"players": 2, "listed": True,
                                              "seats": [{"name": f"C{n}"}, {"open": True}]}).json for n in range(8)]
    assert {nodes.keyslot(f"cardtable:game:{{{g['game_id']}}}") for g in made} != {nodes.keyslot(lobby)}

    def listed() -> list[str]:
        out, cursor = [], None
        while True:
            page = client.get(f"/v1/{game}/games?limit=3" + (f"&cursor={cursor}" if cursor else "")).json
            out += [g["game_id"] for g in page["games"]]
            cursor = page["next_cursor"]
            if cursor is None:
                return out

    ids = [g["game_id"] for g in made]
    assert [i for i in listed() if i in ids] == ids[::-1]
    joined = made[0]
    assert client.post(f"/v1/{game}/games/{joined['game_id']}/join", {"name": "Bo"}).status == 201
    assert joined["game_id"] not in listed()
    # members gone stale however it came about: a game expired, a removal that never ran after a start
    expired, started = made[1], made[2]
    record = json.loads(nodes.hget(f"cardtable:game:{{{started['game_id']}}}", "s"))
    start = client.post(f"/v1/{game}/games/{started['game_id']}/start", {}, token=started["seats"][0]["token"])
    assert start.status == 200
    nodes.zadd(lobby, {record["lobby"]: 0})  # as if the removal after the start had failed
    expired_member = json.loads(nodes.hget(f"cardtable:game:{{{expired['game_id']}}}", "s"))["lobby"]
    nodes.delete(f"cardtable:game:{{{expired['game_id']}}}")
    settling = member("NotYetWritten1", time.time())  # a game written just after its member: not yet there
    old = member("NeverWritten22", time.time() - SETTLING - 5)
    nodes.zadd(lobby, {settling: 0, old: 0})
    shown = listed()
    assert not {expired["game_id"], started["game_id"], "NotYetWritten1", "NeverWritten22"} & set(shown)
    assert [i for i in shown if i in ids] == [g["game_id"] for g in made[3:]][::-1]
    assert nodes.zscore(lobby, record["lobby"]) is None  # its game does not wait: dropped
    assert nodes.zscore(lobby, old) is None  # its game never came: dropped
    # a member younger than SETTLING whose game is not there is passed over, not dropped: it may still come
    assert nodes.zscore(lobby, settling) is not None and nodes.zscore(lobby, expired_member) is not None
