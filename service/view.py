"""``GET .../games/<id>``: a seat's view (with its token) or the spectator's, with its ETag; a 304
when If-None-Match names it, and long polling with ``?wait=``: the answer comes as soon as the
version moves on (or a 304 once the wait is over).

A view is the same for every request of one version and viewer, so a worker renders it once
(``service.versions``); only ``server_time``, the time of the answer, differs, and it is added to the
rendered bytes as the answer leaves (``timed``)."""

from __future__ import annotations

import time
from collections.abc import Collection, Mapping
from typing import Any

from flask import Response

from service import clocks, presence, seats, slots, table
from service.errors import ApiError
from service.presence import Presence
from service.records import dumps, timestamp
from service.runtime import Game, runtime
from service.versions import Stored
from service.wire import cache_headers, etag, matches, query_int, view_response

#: ``?wait=`` of a long poll: at most this many seconds.
LONG_POLL_MAX = 30


def body(game: Game, record: Mapping[str, Any], version: int, state: Any, seat: int | None,
         present: Collection[int] | None = None) -> dict[str, Any]:
    """The view of ``state`` at ``version`` for ``seat`` (None: the spectator): the game's facts,
    the table's seats (``present``: the seats whose person is at the table now, None when not known),
    the engine's view, and the seat's legal moves when it is to move. Without ``server_time``
    (``timed`` adds it to each answer)."""
    engine = game.engine
    result = table.result_json(engine, record, state)
    status = table.status(record, result)
    to_move = engine.to_move(state) if status == "active" else ()
    seat_clocks = None
    if record.get("clock"):
        now = clocks.now_ms()
        seat_clocks = [clocks.seat_clock(record, s, now) for s in range(record["players"])]
    deadline = clocks.deadline(record) if status == "active" else None
    # Only a seat to move in a running game has moves: the engine lists () for any other.
    legal = [m.to_json() for m in engine.legal_moves(state, seat)] if seat in to_move else []
    return {
        "game_id": record["game_id"],
        "game": engine.id,
        "version": version,
        "status": status,
        "players": record["players"],
        "seat": seat,
        "to_move": list(to_move),
        "seats": seats.seats(record["seats"], engine.seat_facts(state), present, seat_clocks),
        "state": engine.view(state, seat),
        "legal_moves": legal,
        "result": result,
        "provisional": engine.provisional,
        "created_at": record["created_at"],
        "updated_at": record["updated_at"],
        "deadline": None if deadline is None else timestamp(deadline / 1000),
        "next_game_id": record.get("next_game_id"),
    }


def timed(rendered: bytes) -> bytes:
    """A rendered JSON object (a view, a move's answer) with ``server_time``, the time of this
    answer, added as its last field: the bytes a worker keeps never hold a time."""
    return b'%s,"server_time":"%s"}' % (rendered[:-1], timestamp().encode())


def tag_of(stored: Stored, seat: int | None, here: Presence) -> str:
    """The ETag of ``seat``'s view of ``stored`` with ``here`` at the table: the version, the viewer, the
    shape, who is present and whether a rematch exists; none of the latter two moves the version."""
    rematched = "n" if stored.record.get("next_game_id") else ""
    return etag(stored.version, seat, f"p{here.mark}{rematched}")


def rendered(game: Game, stored: Stored, seat: int | None, here: Presence) -> bytes:
    """``seat``'s view of ``stored``, encoded once per version, viewer and presence (but while a clock
    runs: its ``remaining_ms`` is as of the answer)."""
    def encode() -> bytes:
        return dumps(body(game, stored.record, stored.version, stored.state, seat, here.present))

    return encode() if stored.record.get("running") else stored.view((seat, here.mark), encode)


def view(game: Game, game_id: str) -> Response:
    wait = query_int("wait", 0, 0, LONG_POLL_MAX)
    stored, seat, here = game.open(game_id, required=False)  # the caller's seat marked, who is there read
    tag = tag_of(stored, seat, here)
    if matches(tag):
        wait_s = min(wait, runtime().long_poll_max_seconds)
        if not (wait and long_poll(game, game_id, seat, tag, wait_s)):
            response = Response(status=304)
            response.headers.update({"ETag": tag, **cache_headers(seat)})
            return response
        stored, here = game.look(game_id)
        tag = tag_of(stored, seat, here)
    return view_response(timed(rendered(game, stored, seat, here)), tag, seat)


def long_poll(game: Game, game_id: str, seat: int | None, seen: str, wait: float) -> bool:
    """``changed``, holding a stream slot of the caller while it waits (429 ``too_many_streams``), and
    the caller's seat at the table for as long."""
    with slots.long_poll(wait):
        if seat is not None:
            presence.touch(runtime().store, game_id, seat, presence.PRESENCE_SECONDS + wait)
        return changed(game, game_id, seat, seen, wait)


def changed(game: Game, game_id: str, seat: int | None, seen: str, wait: float) -> bool:
    """Long polling: whether the ETag of ``seat``'s view moved on from ``seen`` within ``wait``
    seconds: a new version, someone come or gone (a mark ending wakes it too), a rematch. The
    caller reads the game once after."""
    deadline = time.monotonic() + wait
    with runtime().store.hub.subscribe(game_id) as bell:
        while True:
            try:
                stored, here = game.look(game_id)  # after subscribing: nothing slips between
            except ApiError:
                return True  # gone (or unreadable): the view says so
            if tag_of(stored, seat, here) != seen:
                return True
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            # a mark that ends changes the ETag without a message: look again then
            bell.wait(left if here.changes_in is None else min(left, here.changes_in + 0.05))
