"""A game's log: the entry each applied move writes, an entry as one viewer sees it, and
``GET .../log``, the log redacted for the caller (an event stream and a move's answer, ``entries``,
send the very same entries).

A stored entry (``service.records``) keeps the move, the move as each viewer sees it where that
differs (``redacted``, worked out once, when the move is applied) and its events with every
viewer's part, and the time it was applied (``at``); a read picks one viewer's.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from flask import Response

from engines.core import Event, Move
from schemas.common import LOG_LIMIT, LOG_LIMIT_MAX
from service import ratelimit
from service.errors import ApiError
from service.records import UnknownSnapshot, dumps, loads_entry, timestamp
from service.runtime import Game, runtime
from service.wire import cache_headers, json_response, query_int

#: Entries read out between two cooperative pauses (a log page here, a store round trip of a
#: stream catching up): a few microseconds of worker CPU an entry, so a page bounds what one
#: replay adds to the latency of everyone else on the worker (each replay on it takes its turn first).
PAGE = 50


def entry(game: Game, seat: int, move: Move, events: tuple[Event, ...], bot: bool, version: int,
          players: int) -> bytes:
    """The stored log entry of one applied move, made now (``made``, encoded)."""
    return dumps(made(game, seat, move, events, bot, version, players))


def made(game: Game, seat: int, move: Move, events: tuple[Event, ...], bot: bool, version: int,
         players: int) -> dict[str, Any]:
    """What the log entry of one applied move holds, as ``entry`` stores it: the move, as each viewer
    sees it where that differs (read off the move's events, ``Engine.shown_move``), its events with
    every viewer's part (``shown`` picks one viewer's) and the time (``at``). A request that made an
    entry shows it to its caller from this (``shown``), without reading the entry's bytes back."""
    engine = game.engine
    full = move.to_json()
    redacted = {}
    if type(move).shown_by is not None:  # else the move is public as posted: the same for every viewer
        for viewer in (None, *range(players)):
            shown_move = engine.shown_move(move, events, viewer)
            if shown_move != full:
                redacted["spectator" if viewer is None else str(viewer)] = shown_move
    return {"format": engine.format, "version": version, "seat": seat, "bot": bot, "move": full,
            "redacted": redacted, "events": [e.to_json() for e in events], "at": timestamp()}


def table_entry(game: Game, seat: int | None, events: list[Event], version: int) -> bytes:
    """The stored log entry of something the table did, not a move (``engines.table``: a seat claimed,
    the game started or called off): ``seat`` is who did it, ``move`` is null, and ``events`` say
    what happened, the same for every viewer."""
    return dumps({"format": game.engine.format, "version": version, "seat": seat, "bot": False, "move": None,
                  "redacted": {}, "events": [e.to_json() for e in events], "at": timestamp()})


def entry_for(game: Game, raw: bytes, seat: int | None) -> dict[str, Any]:
    """One stored log entry as ``seat`` (None: the spectator) may see it: the same for the log
    and the stream."""
    try:
        e = loads_entry(raw, game.engine)
    except UnknownSnapshot as exc:
        raise ApiError(409, "unknown_snapshot_version", f"The stored log cannot be read: {exc}.") from None
    return shown(e, seat)


def shown(e: Mapping[str, Any], seat: int | None) -> dict[str, Any]:
    """A log entry in this release's format (read, ``loads_entry``, or just ``made``) as ``seat``
    (None: the spectator) may see it."""
    viewer = "spectator" if seat is None else str(seat)
    return {"version": e["version"], "seat": e["seat"], "bot": e["bot"],
            "move": e["redacted"].get(viewer, e["move"]),
            "events": [_event_for(ev, None if seat is None else viewer) for ev in e["events"]], "at": e["at"]}


def _event_for(stored: dict[str, Any], viewer: str | None) -> dict[str, Any]:
    """A stored event (``Event.to_json``) as ``viewer`` (a seat's number as text; None: the
    spectator) sees it: ``Event.for_viewer`` of it, read off the stored JSON without building the
    event again."""
    shown = {"type": stored["type"], **stored["public"]}
    extra = None if viewer is None else stored["private"].get(viewer)
    if extra:
        shown.update(extra)
    return shown


def log(game: Game, game_id: str) -> Response:
    """``GET .../log``: up to ``limit`` entries after ``since``, redacted for the caller."""
    since = query_int("since", 0, 0, None)
    limit = query_int("limit", LOG_LIMIT, 1, LOG_LIMIT_MAX)
    stored = game.load(game_id)
    seat = game.seat(stored.record, required=False)
    ratelimit.replaying(min(limit, stored.version - since))  # a request per page of entries (429 over)
    # Entry of version v is the v-th: those after ``since`` start at index ``since``.
    raws = runtime().store.log(game_id, since, limit + 1) if since < stored.version else []
    entries = []
    for start in range(0, min(len(raws), limit), PAGE):
        if start:
            time.sleep(0)  # cooperative, as a stream's pages: gevent serves the worker's other requests
        entries += [entry_for(game, raw, seat) for raw in raws[start:min(start + PAGE, limit)]]
    more = len(raws) > limit
    return json_response({"game_id": game_id, "version": stored.version, "entries": entries,
                          "next_since": entries[-1]["version"] if more else None}, headers=cache_headers(seat))
