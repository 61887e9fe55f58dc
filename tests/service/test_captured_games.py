"""Upgrades keep every game in flight: games captured from earlier releases, loaded into a real
Redis under the current code (tests/captured/, written by ``tests.captured.capture``).

For every captured file: its raw keys (the stored key names, the snapshot envelope, the log and
the idempotency records, exactly as that release wrote them) are restored; every seat's and the
spectator's view and log still say what they said then (new fields may be added by a format step or
a release, and a field a release renamed is looked for under its new name: tests/captured/renamed.py);
every move listed then is still accepted by ``moves/check``; the idempotent request answers as it
did; the next commit writes the current formats; and the game plays on to its end with listed moves.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
import redis
from flask.testing import FlaskClient

from engines import REGISTRY
from service.records import SCHEMA_VERSION
from tests.captured.capture import whole_log
from tests.captured.renamed import in_current_names
from tests.service.test_api import auth, untimed

CAPTURED = Path(__file__).resolve().parent.parent / "captured"
FILES = sorted(CAPTURED.glob("*/format-*/*.json"))
#: Moves a captured game may take to its end (Siebenschläfer rounds are heavy-tailed).
PLAY_ON_CAP = 20_000

#: View fields that a later release computes differently on purpose, by game: they are judged by the
#: rules of the current release, not compared with what the old one showed. ``legal_moves`` is
#: always so (listing improves; every move listed then is still checked legal below).
RECOMPUTED: dict[str, set[str]] = {
    "sten": {"state.fits"},  # seeds/sten.md 12.8: during the opening only the hearts 7 fits
}


#: View fields that a format step changes on purpose, by (game, format written): the migration's
#: ruling, written in the game's seeds file.
MIGRATED: dict[tuple[str, int], set[str]] = {
    # seeds/kanaster.md: a match is bounded by hands now; the old default turn cap 3000 is dropped
    ("kanaster", 1): {"state.max_turns"},
    # seeds/siebenschlaefer.md 16, format 4: the last move's events in the log's vocabulary (each the
    # same thing: tests/engines/siebenschlaefer/test_migrations.py)
    **{("siebenschlaefer", f): {"state.events"} for f in (1, 2, 3)},
}


def _cards_named(value: Any) -> int:
    if isinstance(value, str):
        return 1
    if isinstance(value, list):
        return sum(_cards_named(v) for v in value)
    if isinstance(value, dict):
        return sum(_cards_named(v) for k, v in value.items() if k != "type")
    return 0


def _play_on(legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """Mostly the first listed move that sheds the most cards (games end in hundreds of moves, not
    tens of thousands as with random play), sometimes a random one."""
    if rng.random() < 0.15:
        return legal[rng.randrange(len(legal))]
    most = max(_cards_named(m) for m in legal)
    return next(m for m in legal if _cards_named(m) == most)


def _restore(r: redis.Redis, keys: dict[str, Any]) -> None:
    for name, stored in keys.items():
        r.delete(name)  # exactly what was captured, whatever an earlier run left under the name
        if stored["type"] == "hash":
            r.hset(name, mapping=stored["value"])
        elif stored["type"] == "list":
            r.rpush(name, *stored["value"])
        else:
            r.set(name, stored["value"])
        r.expire(name, 3600)


def assert_still_shows(old: Any, new: Any, path: str, skip: set[str]) -> None:
    """Everything ``old`` showed, ``new`` shows the same; ``new`` may add object fields."""
    if path in skip:
        return
    if isinstance(old, dict):
        assert isinstance(new, dict), path
        for key, value in old.items():
            assert key in new, f"{path}.{key} is gone"
            assert_still_shows(value, new[key], f"{path}.{key}".lstrip("."), skip)
    elif isinstance(old, list):
        assert isinstance(new, list) and len(new) == len(old), f"{path}: {old!r} became {new!r}"
        for i, (a, b) in enumerate(zip(old, new, strict=True)):
            assert_still_shows(a, b, f"{path}[{i}]", skip)
    else:
        assert old == new, f"{path}: {old!r} became {new!r}"


@pytest.fixture()
def captured_store(redis_server) -> redis.Redis:
    """The session's Redis. Not flushed: the apps and servers sharing it keep the server secret they
    read from it, and a new one written after a flush would make their idempotent creates disagree."""
    return redis.Redis.from_url(redis_server.url)


@pytest.mark.parametrize("path", FILES, ids=[f"{p.parts[-3]}/{p.parts[-2]}/{p.stem}" for p in FILES])
def test_a_captured_game_reads_as_it_did_and_plays_to_its_end(client: FlaskClient, captured_store: redis.Redis,
                                                                path: Path) -> None:
    cap = json.loads(path.read_text())
    game, gid, tokens = cap["game"], cap["game_id"], cap["tokens"]
    _restore(captured_store, cap["keys"])
    base = f"/v1/{game}/games/{gid}"
    skip = {"legal_moves"} | RECOMPUTED.get(game, set()) | MIGRATED.get((game, cap["format"]), set())
    for viewer, seen in cap["seen"].items():
        headers = {} if viewer == "spectator" else auth(tokens[int(viewer)])
        view = client.get(base, headers=headers)
        assert view.status_code == 200, view.json
        shown = {**seen["view"], "state": in_current_names(game, seen["view"]["state"])}  # renamed fields
        assert_still_shows(shown, view.json, "", skip)
        assert_still_shows(seen["log"], whole_log(client, base, headers), "", skip)
        for move in seen["view"]["legal_moves"]:
            r = client.post(f"{base}/moves/check", json={"version": seen["view"]["version"], "move": move},
                            headers=headers)
            assert r.status_code == 200, (move, r.json)

    idem = cap["idempotent"]
    if idem is not None:
        again = client.post(f"{base}/moves", json=idem["body"],
                            headers={**auth(tokens[idem["seat"]]), "Idempotency-Key": idem["key"]})
        assert again.status_code == 200 and again.headers["Idempotent-Replayed"] == "true"
        assert untimed(again.json) == idem["answer"]  # as kept then, with the time of this answer

    # Play on with listed moves; the first commit writes the current formats.
    engine = REGISTRY[game]
    rng = random.Random(str(path.relative_to(CAPTURED)))  # the same wherever the repository lies
    first_commit = True
    for _ in range(PLAY_ON_CAP):
        views = [(seat, client.get(base, headers=auth(t)).json) for seat, t in enumerate(tokens) if t]
        movers = [(seat, v) for seat, v in views if v["legal_moves"]]
        if views[0][1]["status"] == "finished":
            break
        assert movers, "a running game has no human seat to move and no bot moved"
        seat, view = movers[rng.randrange(len(movers))]
        move = _play_on(view["legal_moves"], rng)
        r = client.post(f"{base}/moves", json={"version": view["version"], "move": move}, headers=auth(tokens[seat]))
        assert r.status_code == 200, r.json
        if first_commit:
            record = json.loads(captured_store.hget(f"cardtable:game:{{{gid}}}", "s"))
            assert (record["schema"], record["format"]) == (SCHEMA_VERSION, engine.format)
            newest = json.loads(captured_store.lindex(f"cardtable:log:{{{gid}}}", -1))
            assert newest["format"] == engine.format
            first_commit = False
    else:
        raise AssertionError(f"{path.name}: no end after {PLAY_ON_CAP} moves")
    assert client.get(base).json["result"]["status"] in {"finished", "aborted"}


def test_there_are_captured_games_of_every_game_in_every_format_it_wrote() -> None:
    """Every format a game's code ever wrote (1 .. its current format) has captured games."""
    for game, engine in REGISTRY.items():
        formats = {int(p.parent.name.removeprefix("format-")) for p in FILES if p.parts[-3] == game}
        assert formats == set(range(1, engine.format + 1)), (game, formats)
        assert len([p for p in FILES if p.parts[-3] == game and p.parent.name == f"format-{engine.format}"]) >= 2
