"""Upgrades over stored games.

A rolling upgrade: workers of the previous release and of this one on one Redis for a while.

The previous release's source is taken from git history (``PREVIOUS_RELEASE``, the last release
that wrote snapshot envelope 1) and run under gunicorn beside the current code. A game the old
worker wrote is read and carried on by the new one; once the new one has written it (in the current
formats), the old worker refuses it with 409 ``unknown_snapshot_version`` and never misreads it,
and the client's retry on a new worker goes through.

Games the last release before "People at the table" and "Time and leaving" wrote (snapshot envelope
3) play on under this one: every game, its seats, log and moves.
"""

from __future__ import annotations

import io
import json
import shutil
import subprocess
import tarfile
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

from engines import REGISTRY
from service.records import SCHEMA_VERSION
from tests.http import Client
from tests.servers import ROOT, gunicorn

pytestmark = pytest.mark.slow  # the previous release from git history under its own gunicorn

#: The last landed release before snapshot envelope 2: it reads and writes envelope 1.
PREVIOUS_RELEASE = "94bd51881ac555243340366119605e81cae78ee6"
#: The last landed release before seats were named and games kept clocks: it writes envelope 3.
ENVELOPE_3_RELEASE = "482b0cd4cbbd88615fbcffc2dd0bf96365d259d5"


def _release(commit: str) -> Iterator[Path]:
    """A landed release's source tree, from this repository's history."""
    try:
        tar = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", commit],
                             capture_output=True, check=True, timeout=60).stdout
    except subprocess.CalledProcessError as exc:
        raise AssertionError(f"release {commit} is not in this clone's history (a shallow clone?): "
                             f"{exc.stderr.decode()[:200]}") from None
    where = Path(tempfile.mkdtemp(prefix="cardtable-previous-"))
    with tarfile.open(fileobj=io.BytesIO(tar)) as archive:
        archive.extractall(where, filter="data")
    yield where
    shutil.rmtree(where, ignore_errors=True)


@pytest.fixture(scope="module")
def previous_release() -> Iterator[Path]:
    yield from _release(PREVIOUS_RELEASE)


@pytest.fixture(scope="module")
def envelope_3_release() -> Iterator[Path]:
    yield from _release(ENVELOPE_3_RELEASE)


def _mover(client: Client, path: str, tokens: list[str]) -> tuple[str, dict] | None:
    """The token of a seat with a move, and its view; None once nobody has one."""
    for token in tokens:
        view = client.get(path, token=token).json
        if view["legal_moves"]:
            return token, view
    return None


def test_old_and_new_workers_share_one_redis_during_an_upgrade(redis_server, previous_release: Path) -> None:
    with gunicorn(redis_server.url, workers=1, root=previous_release) as old_url, \
            gunicorn(redis_server.url, workers=1) as new_url:
        old, new = Client(old_url), Client(new_url)
        created = old.post("/v1/sten/games", {"players": 2, "seed": "upgrade"}).json
        gid, tokens = created["game_id"], [s["token"] for s in created["seats"]]
        path = f"/v1/sten/games/{gid}"
        # The new worker reads what the old one wrote, and shows the same table.
        old_view = old.get(path, token=tokens[0]).json
        new_view = new.get(path, token=tokens[0]).json
        assert new_view["state"]["hand"] == old_view["state"]["hand"]
        assert new_view["to_move"] == old_view["to_move"] and new_view["version"] == old_view["version"] == 0
        mover = new_view["to_move"][0]
        view = new.get(path, token=tokens[mover]).json
        # The new worker commits a move: the game is now stored in the current formats.
        answer = new.post(f"{path}/moves", {"version": 0, "move": view["legal_moves"][0]}, token=tokens[mover])
        assert answer.status == 200
        # The old worker refuses the newer snapshot rather than misread it ...
        for method, url, body in (("GET", path, None), ("POST", f"{path}/moves", {"move": {"type": "stein"}}),
                                  ("GET", f"{path}/log", None)):
            refused = old.request(method, url, body, token=tokens[0])
            assert refused.status == 409, (url, refused.body)
            assert refused.content_type == "application/problem+json"
            assert refused.json["code"] == "unknown_snapshot_version"
        # ... and the client's retry, reaching a new worker, goes through.
        retried = new.get(path, token=tokens[0])
        assert retried.status == 200 and retried.json["version"] == 1


def test_games_the_envelope_3_release_wrote_play_on_under_this_one(redis_server, envelope_3_release: Path) -> None:
    games = []
    with gunicorn(redis_server.url, workers=1, root=envelope_3_release) as old_url:
        old = Client(old_url)
        for game, engine in REGISTRY.items():
            players = engine.players[0]
            created = old.post(f"/v1/{game}/games", {"players": players, "seed": f"envelope-3-{game}"}).json
            path, tokens = f"/v1/{game}/games/{created['game_id']}", [s["token"] for s in created["seats"]]
            for _ in range(3):
                token, view = _mover(old, path, tokens)  # type: ignore[misc]
                assert old.post(f"{path}/moves", {"version": view["version"], "move": view["legal_moves"][0]},
                                token=token).status == 200
            games.append((game, created["game_id"], path, tokens, old.get(path, token=tokens[0]).json))
    store = redis.Redis.from_url(redis_server.url)
    with gunicorn(redis_server.url, workers=1) as new_url:
        new = Client(new_url)
        for game, game_id, path, tokens, before in games:
            key = f"cardtable:game:{{{game_id}}}"
            assert json.loads(store.hget(key, "s"))["schema"] == 3, game  # as the old release wrote it
            after = new.get(path, token=tokens[0]).json
            assert (after["version"], after["state"]["hand"]) == (before["version"], before["state"]["hand"]), game
            assert [s["name"] for s in after["seats"]] == [f"Player {n + 1}" for n in range(len(tokens))]
            assert all(s["clock"] is None and s["status"] == "playing" for s in after["seats"])
            assert after["deadline"] is None
            assert len(new.get(f"{path}/log?since=0").json["entries"]) == before["version"]
            for _ in range(12):  # play on: every move applies, the game now in the current envelope
                found = _mover(new, path, tokens)
                if found is None:
                    break
                token, view = found
                answer = new.post(f"{path}/moves", {"version": view["version"], "move": view["legal_moves"][0]},
                                  token=token)
                assert answer.status == 200, (game, answer.body[:300])
            assert json.loads(store.hget(key, "s"))["schema"] == SCHEMA_VERSION, game
