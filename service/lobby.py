"""The lobby: ``GET /v1/<game>/games?status=waiting``, the listed games of one kind that wait for
people, newest first, a page at a time.

The store keeps one sorted set per kind of game beside the games (``service.store``): a member per
listed waiting game, ``<inverted creation time in µs, 16 digits>:<game id>``, so that the lexical
order of the members is newest first and the member of a page's last game is where the next page
starts (the ``cursor``). A game is added when it is created listed and waiting, and taken out when
its wait ends (its last open seat claimed, a start, an abort), in the same atomic step as the game
where the store allows it. Members older than a day (the life of a waiting game) are dropped.

The reader never trusts a member alone: it reads each page's games and shows a game only while it
is listed, waiting, and the very game of its member (its record names it). A member that fails is
dropped from the set, unless, on a Redis Cluster, where the member goes in just before its game, the
game is not written yet and the member is younger than ``SETTLING`` seconds. So the lobby
answers correctly on a Cluster too, where the set lives on another slot than the games, and after
games expired.
"""

from __future__ import annotations

import re
import time
from collections.abc import Mapping
from typing import Any

from flask import Response, request

from schemas.people import LOBBY_PAGE, LOBBY_PAGE_MAX
from service import seats, table
from service.bots import seat_level
from service.errors import ApiError
from service.records import UnknownSnapshot, loads_record
from service.runtime import Game, runtime
from service.store import Listed
from service.wire import json_response, query_int

#: Reads of the set one page may take while members turn out stale (each reads ``limit + 1``).
ROUNDS = 4
#: Seconds a member may wait for its game (written just after it on a Cluster) before it counts as stale.
SETTLING = 30.0
_EPOCH_US = 10**16  # 16 digits of microseconds: until the year 2286
CURSOR = re.compile(r"^[0-9]{16}:[A-Za-z0-9_-]{1,64}$")


def member(game_id: str, created: float) -> str:
    """The lobby member of a game created at ``created`` (seconds since the epoch)."""
    return f"{_EPOCH_US - 1 - int(created * 1_000_000):016d}:{game_id}"


def _created(member_: str) -> float:
    return (_EPOCH_US - 1 - int(member_[:16])) / 1_000_000


def oldest(now: float) -> str:
    """The greatest member still kept at ``now``: a member greater is more than a day old."""
    return f"{_EPOCH_US - 1 - int((now - table.WAITING_TTL) * 1_000_000):016d}"


def listing(engine_id: str, game_id: str, created: float) -> Listed:
    """How a new listed waiting game goes into its lobby."""
    return Listed(engine_id, member(game_id, created), table.WAITING_TTL, oldest(created))


def unlisting(record: Mapping[str, Any]) -> Listed | None:
    """How a game whose wait ends leaves its lobby (None: it was never in one)."""
    kept = record.get("lobby")
    return None if not kept else Listed(record["game"], kept)


def _cursor() -> str | None:
    given = request.args.get("cursor")
    if given is None:
        return None
    if not CURSOR.fullmatch(given):
        raise ApiError(422, "validation_error", "Query parameter `cursor` must be a `next_cursor` of this list.",
                       errors={"query": {"cursor": ["must be a next_cursor of this list"]}})
    return given


def games(game: Game) -> Response:
    """``GET .../games?status=waiting&limit=N&cursor=C``: a page of the lobby."""
    status = request.args.get("status", "waiting")
    if status != "waiting":
        raise ApiError(422, "validation_error", "Only waiting games are listed: `status=waiting`.",
                       errors={"query": {"status": ["must be waiting"]}})
    limit = query_int("limit", LOBBY_PAGE, 1, LOBBY_PAGE_MAX)
    after = _cursor()
    store = runtime().store
    engine = game.engine
    now = time.time()
    shown: list[dict[str, Any]] = []
    last = after
    more = False
    for _ in range(ROUNDS):
        members = store.lobby(engine.id, last, limit + 1, oldest(now))
        loaded = store.load_many([m.split(":", 1)[1] for m in members])
        for m, got in zip(members, loaded, strict=True):
            if len(shown) == limit:
                more = True
                break
            last = m
            item = _item(game, m, got, now)
            if item is not None:
                shown.append(item)
        if more or len(members) <= limit:
            break
    else:
        more = True  # stale members took every round: the rest comes with the next page
    return json_response({"games": shown, "next_cursor": last if more else None})


def _item(game: Game, member_: str, got: Any, now: float) -> dict[str, Any] | None:
    """A game as the lobby shows it, or None (and the member dropped when it is stale)."""
    engine = game.engine
    listed = Listed(engine.id, member_)
    if got is None:
        store = runtime().store
        if store.atomic_lobby or now - _created(member_) > SETTLING:
            store.unlist(listed)  # expired, or never written
        return None
    try:
        record = loads_record(got.snapshot, engine)
    except UnknownSnapshot:
        return None  # a newer release's: it knows
    if record.get("lobby") != member_ or not record.get("listed") or not table.waiting(record):
        runtime().store.unlist(listed)
        return None
    options = {o.name: o.default for o in engine.options} | dict(record["options"])
    return {"game_id": record["game_id"], "game": engine.id, "players": record["players"],
            "created_at": record["created_at"], "options": options,
            "seats": [{"seat": i, "name": seats.name(i, s), "kind": seats.kind(s), "level": seat_level(s),
                       "status": "waiting" if seats.is_open(s) else "playing"}
                      for i, s in enumerate(record["seats"])]}
