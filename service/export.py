"""After the game: ``GET .../export``, a finished game as one replayable document
(``cardtable-replay/1``), and ``GET .../positions``, its positions one by one with every hand open
(the web table's "watch again").

Both answer only once the game is over (409 ``game_not_finished`` before): the export holds the seed,
which decides every later shuffle, and every move and event unredacted; a position shows every hand.
Neither needs a seat token (anyone who knows the game may look back at it); a token that comes is
checked, so that a seat is counted for its own rate limit. Both cost what a log read of as many
entries costs (``ratelimit.replaying``). ``engines.replay`` replays an export through the engine;
docs/api.md describes the format.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from flask import Response

from engines.core import IllegalMove, InvalidOptions, move_from_json
from engines.replay import FORMAT
from schemas.replay import POSITIONS_LIMIT, POSITIONS_LIMIT_MAX
from service import ratelimit, seats, view
from service.errors import ApiError
from service.log import PAGE
from service.records import UnknownSnapshot, loads_entry, timestamp
from service.runtime import Game, runtime
from service.table import result_json as table_result
from service.versions import Stored
from service.wire import json_response, matches, query_int

#: What an export keeps of each of the view's ``seats``: who sat where, not how the table stood.
SEAT_FIELDS = ("seat", "name", "kind", "level")


def export_seats(game: Game, stored: Stored) -> list[dict[str, Any]]:
    """The export's seats, ``{"seat", "name", "kind", "level"}``: who sat where, named as every view
    names them (``service.seats``)."""
    table = seats.seats(stored.record["seats"], game.engine.seat_facts(stored.state))
    return [{name: seat[name] for name in SEAT_FIELDS} for seat in table]


def finished(game: Game, game_id: str) -> tuple[Stored, int | None]:
    """The stored game and the caller's seat (None without a token), once the game is over: 409
    ``game_not_finished`` while it runs (nothing of it is shown then)."""
    stored = game.load(game_id)
    seat = game.seat(stored.record, required=False)
    ended = stored.record.get("ended")
    played = ended is not None and ended["termination"] != "aborted"  # resigned, timed out, abandoned
    if game.engine.result(stored.state) is None and not played:
        raise ApiError(409, "game_not_finished", "The game is still running: its export and positions "
                       "are there once it is over.", current_version=stored.version)
    return stored, seat


def _entries(game_id: str, version: int) -> list[bytes]:
    """The whole log of a finished game: 404 ``game_not_found`` when it expired meanwhile."""
    raws = runtime().store.log(game_id, 0, version) if version else []
    if len(raws) != version:
        raise ApiError(404, "game_not_found", "No such game (it may have expired).")
    return raws


def document(game: Game, stored: Stored, raws: list[bytes]) -> dict[str, Any]:
    """The export of a finished game: how it was set up, every entry unredacted, and the result."""
    engine = game.engine
    record = stored.record
    players = record["players"]
    options = {o.name: o.default for o in engine.options} | dict(record["options"])
    entries = []
    for n, raw in enumerate(raws):
        if n and n % PAGE == 0:
            time.sleep(0)  # cooperative, as a log page: the worker serves its other requests meanwhile
        try:
            e = loads_entry(raw, engine)
        except UnknownSnapshot as exc:
            raise ApiError(409, "unknown_snapshot_version", f"The stored log cannot be read: {exc}.") from None
        entries.append({"version": e["version"], "seat": e["seat"], "bot": e["bot"], "at": e["at"],
                        "move": e["move"], "events": e["events"]})
    result = table_result(engine, record, stored.state)
    assert result is not None, "only a finished game is exported"
    return {
        "format": FORMAT,
        "game": engine.id,
        "game_id": record["game_id"],
        "created_at": record["created_at"],
        "players": players,
        "options": options,
        "seats": export_seats(game, stored),
        "seed": record["seed"],
        "deck": _deck(game, record, options),
        "entries": entries,
        "result": result,
    }


def _deck(game: Game, record: Mapping[str, Any], options: Mapping[str, Any]) -> list[str]:
    """The first deal's deck as dealt: the fixed deck the game was created with, else its cards as the
    seed shuffled them."""
    try:
        return list(game.engine.first_deck(record["players"], options, record["seed"], record.get("deck")))
    except InvalidOptions as exc:
        raise _not_replayable(0, str(exc)) from None


def export(game: Game, game_id: str) -> Response:
    """``GET .../export``: the finished game's export; its ETag names the version (it never changes)."""
    stored, seat = finished(game, game_id)
    tag = f'"{stored.version}.export"'
    headers = {"ETag": tag, "Cache-Control": "public, no-cache"}
    if matches(tag):
        response = Response(status=304)
        response.headers.update(headers)
        return response
    ratelimit.replaying(stored.version, "")  # a request per page of entries, as a log read of them all
    raws = _entries(game_id, stored.version)
    return json_response(document(game, stored, raws), 200, headers)


def positions(game: Game, game_id: str) -> Response:
    """``GET .../positions?start=V&limit=N``: the finished game's positions from version ``V`` on,
    each the spectator's view and every seat's hand. The game is played again from its start up to
    the last position asked for, so the request costs what a log read of that many entries does."""
    start = query_int("start", 0, 0, None)
    limit = query_int("limit", POSITIONS_LIMIT, 1, POSITIONS_LIMIT_MAX)
    stored, _seat = finished(game, game_id)
    last = min(stored.version, start + limit - 1)
    ratelimit.replaying(max(1, last), "ask for earlier positions or fewer (start, limit), or ")
    out = []
    if start <= stored.version:
        raws = _entries(game_id, stored.version)[:last]
        out = _positions(game, stored, raws, start)
    return json_response({"game_id": game_id, "version": stored.version, "positions": out,
                          "next_start": last + 1 if last < stored.version else None})


def _positions(game: Game, stored: Stored, raws: list[bytes], start: int) -> list[dict[str, Any]]:
    """The positions ``start`` .. ``len(raws)`` of the game, replayed from its setup: each the
    spectator's view as it was then (``updated_at`` the time of the move that led there, ``server_time``
    this answer's) and every seat's hand."""
    engine = game.engine
    record = stored.record
    players = record["players"]
    now = timestamp()
    try:
        state = engine.new_game(players, record["options"], record["seed"], record.get("deck"))
    except InvalidOptions as exc:
        raise _not_replayable(0, str(exc)) from None
    out = []
    at = record["created_at"]
    for version in range(len(raws) + 1):
        if version and version % PAGE == 0:
            time.sleep(0)
        if version >= start:
            # before the last entry the game ran: no ending of the table's, no clock to show running
            then = record if version == len(raws) else {**record, "ended": None, "running": {}}
            shown = {**view.body(game, then, version, state, None), "updated_at": at, "server_time": now}
            out.append({"version": version, "view": shown,
                        "hands": [engine.view(state, seat).get("hand") for seat in range(players)]})
        if version == len(raws):
            break
        try:
            e = loads_entry(raws[version], engine)
            if e["move"] is not None:  # an entry of the table changes no card (engines.table)
                state = engine.apply(state, e["seat"], move_from_json(engine.move_types, e["move"]))
        except (IllegalMove, UnknownSnapshot) as exc:
            raise _not_replayable(version + 1, str(exc)) from None
        at = e["at"]
    return out


def _not_replayable(version: int, why: str) -> ApiError:
    return ApiError(409, "not_replayable", f"The stored game does not play again under this release's rules "
                    f"(at version {version}: {why}); its export still holds it as it was played.")
