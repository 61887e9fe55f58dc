"""A worker keeps the game versions it has just read or written (service/versions.py): a version is
used again only for the very same stored bytes, what it answers is what reading it anew answers,
and the number kept is bounded."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient

from engines import REGISTRY
from service.versions import Stored, Versions

STEN = REGISTRY["sten"]


def _stored(version: int, snapshot: bytes) -> Stored:
    return Stored(version, snapshot, {"game": "sten"}, STEN)


def test_a_version_is_used_again_only_for_the_very_same_stored_bytes() -> None:
    versions = Versions(4)
    versions.keep("g", _stored(3, b"first"))
    assert versions.get("g", 3, b"first", STEN) is not None
    # the game expired and was created again under its id: the same number, other bytes
    assert versions.get("g", 3, b"second", STEN) is None
    assert versions.get("g", 3, b"first", STEN) is None, "bytes that did not match are forgotten"
    versions.keep("g", _stored(3, b"first"))
    assert versions.get("g", 3, b"first", REGISTRY["conquian"]) is None, "another game's engine"


def test_a_game_keeps_only_its_last_version() -> None:
    """An older version of a game is never asked for again once a newer one is read: keeping the
    newer one lets the older go."""
    versions = Versions(4)
    versions.keep("g", _stored(1, b"1"))
    versions.keep("g", _stored(2, b"2"))
    assert len(versions) == 1
    assert versions.get("g", 1, b"1", STEN) is None
    assert versions.get("g", 2, b"2", STEN) is not None
    assert versions.get("g", 3, b"3", STEN) is None, "a newer version read is not the one kept"
    assert versions.get("g", 2, b"2", STEN) is not None, "asking for another version forgets nothing"


def test_the_games_kept_are_bounded_and_the_least_recently_used_go_first() -> None:
    versions = Versions(3)
    for n in range(3):
        versions.keep(f"g{n}", _stored(n, b"%d" % n))
    assert versions.get("g0", 0, b"0", STEN) is not None  # used: now the most recent
    versions.keep("g3", _stored(3, b"3"))
    assert len(versions) == 3
    assert versions.get("g1", 1, b"1", STEN) is None, "the least recently used went"
    assert versions.get("g0", 0, b"0", STEN) is not None
    none_kept = Versions(0)
    none_kept.keep("g", _stored(0, b"0"))
    assert len(none_kept) == 0


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _untimed(data: bytes) -> bytes:
    """An answer without its last field, ``server_time`` (the time of each answer)."""
    body, found, _ = data.rpartition(b',"server_time":')
    assert found, data[-80:]
    return body


def _view_of_answer(data: bytes) -> bytes:
    """A move's answer without what follows the view: ``entries`` and ``server_time``."""
    body, found, _ = data.rpartition(b',"entries":')
    assert found, data[-80:]
    return body


def test_views_from_kept_versions_are_the_views_read_anew(app: Flask, client: FlaskClient) -> None:
    """The mover's answer is kept as its view of the version the move wrote, and every view is kept
    once rendered: each is byte for byte what a worker that keeps nothing answers (but for the time
    of the answer, ``server_time``, and a move answer's ``entries``)."""
    created = client.post("/v1/sten/games", json={"players": 3, "seed": "kept"}).json
    gid, tokens = created["game_id"], [s["token"] for s in created["seats"]]
    path = f"/v1/sten/games/{gid}"
    versions = app.extensions["cardtable"].versions
    for _ in range(12):
        views = [client.get(path, headers=_auth(t)) for t in tokens]
        mover = next(i for i, v in enumerate(views) if v.json["legal_moves"])
        moved = client.post(f"{path}/moves", json={"move": views[mover].json["legal_moves"][0]},
                            headers=_auth(tokens[mover]))
        assert moved.status_code == 200
        kept = [client.get(path, headers=_auth(t)) for t in tokens] + [client.get(path)]
        assert _untimed(kept[mover].data) == _view_of_answer(moved.data)
        versions.clear()
        anew = [client.get(path, headers=_auth(t)) for t in tokens] + [client.get(path)]
        assert [_untimed(r.data) for r in kept] == [_untimed(r.data) for r in anew]
        assert [r.headers["ETag"] for r in kept] == [r.headers["ETag"] for r in anew]
