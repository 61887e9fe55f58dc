"""A full Redis refuses writes and the service answers 503, never evicting a game.

deploy/compose.yaml runs Redis with ``maxmemory`` and ``maxmemory-policy noeviction``: once the
memory is used up, every write is refused with an OOM error. Here a real redis-server gets a
maxmemory just above what it uses empty, and a client on loopback creates games through gunicorn
until it is full.
"""

from __future__ import annotations

import re

from tests.http import Client
from tests.servers import RedisServer, gunicorn

HEADROOM = 512 * 1024  # bytes of maxmemory above what the empty server uses: a few hundred games


def _used_memory(server: RedisServer) -> int:
    return int(re.search(r"^used_memory:(\d+)", server.cli("info", "memory"), re.M).group(1))  # type: ignore[union-attr]


def test_a_full_redis_answers_503_store_unavailable_and_keeps_every_game() -> None:
    server = RedisServer(extra=("--maxmemory-policy", "noeviction"))
    server.start()
    try:
        with gunicorn(server.url, workers=1, extra_env={"CARDTABLE_RETRY_AFTER": "3"}) as url:
            client = Client(url)
            assert client.get("/readyz").status == 200
            server.cli("config", "set", "maxmemory", str(_used_memory(server) + HEADROOM))
            games: list[tuple[str, list[str]]] = []
            refused = None
            for _ in range(3000):  # ~3 KiB a game: full after a few hundred
                answer = client.post("/v1/sten/games", {"players": 2})
                if answer.status != 201:
                    refused = answer
                    break
                games.append((answer.json["game_id"], [s["token"] for s in answer.json["seats"]]))
            assert refused is not None, "3000 games did not fill 512 KiB"
            assert len(games) > 10
            assert refused.status == 503 and refused.content_type == "application/problem+json"
            assert refused.json["code"] == "store_unavailable" and refused.headers["retry-after"] == "3"
            # kept full from here on: Redis's own use moves by a few KiB as requests come and go (a
            # client's buffers), which once made room for one more game just after a refusal
            server.cli("config", "set", "maxmemory", str(_used_memory(server) - 64 * 1024))
            # still full: writes are refused, reads go on, and no game was evicted to make room
            assert client.post("/v1/sten/games", {"players": 2}).json["code"] == "store_unavailable"
            gid, tokens = games[0]
            mover = tokens[client.get(f"/v1/sten/games/{gid}").json["to_move"][0]]
            view = client.get(f"/v1/sten/games/{gid}", token=mover).json
            move = {"version": view["version"], "move": view["legal_moves"][0]}
            moved = client.post(f"/v1/sten/games/{gid}/moves", move, token=mover)
            assert moved.status == 503 and moved.json["code"] == "store_unavailable"
            assert client.get(f"/v1/sten/games/{gid}").json["version"] == view["version"]
            assert all(client.get(f"/v1/sten/games/{g}").status == 200 for g, _ in games)
            assert "evicted_keys:0" in server.cli("info", "stats")
            assert client.get("/healthz").status == 200
    finally:
        server.cleanup()
