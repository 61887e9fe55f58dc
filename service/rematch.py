"""``POST .../rematch``: play a finished game again, the same people at the same table.

The next game is the same game with the same options, player count, names and bot levels; whoever sat
at seat s sits at seat (s + 1) mod players, and the deal is fresh. Its id is derived from the finished
game's id and the server secret, so that every person of the finished game names the same next game
without asking anyone: the first call creates it (``store.create`` writes only a free id, so two first
calls at once create it once), each later call takes the caller's seat in it. The caller's token in
the next game is derived from the caller's token in the finished one and the secret: a repeated call
answers the same token again, and the store keeps only its hash.

The seats of the finished game's other people wait for them (open seats ``reserved`` for them: an
invite cannot claim them), so the next game is ``waiting`` until every person has called rematch or
one of them starts it (``service.people``: the seats still waiting then get bots). Bots sit down at
once. The finished game names its next one (``next_game_id``, a write of its record at the same
version: the view's ETag says it, ``service.view.tag_of``).
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from typing import Any

from flask import Response, request

from engines.table import SeatTaken
from service import auth, clocks, observability, seats, table
from service.errors import ApiError
from service.moves import play_bots
from service.people import commit_table
from service.records import SCHEMA_VERSION, dumps, timestamp
from service.runtime import Game, check_log_room, runtime
from service.versions import Stored
from service.wire import json_response


def next_game_id(secret: bytes, game_id: str) -> str:
    """The id of the game after ``game_id``: the same for everyone who asks, unguessable without the secret."""
    return auth.derived(secret, "rematch", game_id, size=16)


def rematch_token(secret: bytes, new_game_id: str, old_token: str) -> str:
    """The caller's token in the next game: derived from its token in the finished one."""
    return auth.naming(new_game_id, auth.derived(secret, "rematch-seat", new_game_id, old_token))


def rematch(game: Game, game_id: str) -> Response:
    rt = runtime()
    stored = game.load(game_id)
    old_seat = game.seat(stored.record, required=True)
    assert old_seat is not None
    token = auth.bearer(request.headers.get("Authorization")) or ""  # a seat's: game.seat checked it
    ended = stored.record.get("ended")
    called_off = ended is not None and ended["termination"] == "aborted"
    if game.engine.result(stored.state) is None and (ended is None or called_off):
        raise ApiError(409, "game_not_finished", "The game was called off before it was played: there is nothing "
                       "to play again." if called_off else "The game is still running: play it to its end first.",
                       current_version=stored.version)
    secret = rt.store.secret()
    new_id = next_game_id(secret, game_id)
    players = stored.record["players"]
    seat = (old_seat + 1) % players
    new_token = rematch_token(secret, new_id, token)
    if _create(game, stored, new_id, seat, new_token):
        _link(game, game_id, new_id)
        return json_response({"game_id": new_id, "seat": seat, "token": new_token}, 201)
    _take(game, new_id, seat, new_token)
    _link(game, game_id, new_id)
    return json_response({"game_id": new_id, "seat": seat, "token": new_token}, 200)


def _next_seats(old: list[Mapping[str, Any]], caller: int, token: str) -> list[dict[str, Any]]:
    """The finished game's seats moved one on: bots as they were, the caller with the hash of his token,
    every other person's seat kept open for that person."""
    players = len(old)
    out: list[dict[str, Any]] = [{} for _ in range(players)]
    for s, was in enumerate(old):
        moved = (s + 1) % players
        if was.get("bot") and not was.get("replaced"):  # a person a bot stood in for comes back a person
            seat: dict[str, Any] = {"hash": None, "bot": True, "level": was.get("level")}
            if seat["level"] is None:
                del seat["level"]  # a bot from before levels: it stays what it was
        elif moved == caller:
            seat = {"hash": auth.token_hash(token), "bot": False}
        else:
            seat = {"hash": None, "bot": False, "open": True, "reserved": True}
        if was.get("name"):
            seat["name"] = was["name"]
        out[moved] = seat
    return out


def _create(game: Game, stored: Stored, new_id: str, seat: int, token: str) -> bool:
    """Write the next game with the caller seated; False when it exists already."""
    rt = runtime()
    engine = game.engine
    old = stored.record
    seed = secrets.token_hex(16)
    state = engine.new_game(old["players"], old["options"], seed)
    record: dict[str, Any] = {
        "schema": SCHEMA_VERSION, "format": engine.format, "game": engine.id, "game_id": new_id,
        "players": old["players"], "options": old["options"], "seed": seed, "deck": None,
        "seats": _next_seats(old["seats"], seat, token), "state": None, "created_at": timestamp(),
        "updated_at": None, "listed": False, "invite": None, "lobby": None, "ended": None, "next_game_id": None,
        "clock": old.get("clock"), "clocks": clocks.fresh(old.get("clock"), old["players"]), "running": {},
        "idle_at": None, "due": None,
    }
    entries: list[bytes] = []
    if not table.waiting(record):  # nobody else to wait for: it starts, and its bots move
        state, entries = play_bots(game, record, state, 0)
        check_log_room(0, len(entries))
    record = clocks.written(engine, record, state, entries, rt.idle_ms)
    over = engine.result(state) is not None
    created = rt.store.create(new_id, dumps(record), entries, table.ttl(record, rt.game_ttl, rt.finished_ttl, over),
                              due=record["due"])
    if created:
        observability.game_created(engine.id, engine.result(state) is not None)
    return created


def _take(game: Game, new_id: str, seat: int, token: str) -> None:
    """Sit the caller down in the next game at ``seat`` (kept for him): done already when the seat holds
    his token's hash; 409 ``no_open_seat`` when the game started without him."""
    digest = auth.token_hash(token)
    for _ in range(8):
        stored = game.load(new_id)
        kept = stored.record["seats"][seat]
        if kept.get("hash") == digest:
            return
        if not (seats.is_open(kept) and kept.get("reserved")):
            raise ApiError(409, "no_open_seat", "The next game started without you: your seat has a bot now.",
                           current_version=stored.version)
        name = seats.name(seat, kept)
        taken = {"hash": digest, "bot": False, **({"name": kept["name"]} if kept.get("name") else {})}
        new_seats = [dict(s) for s in stored.record["seats"]]
        new_seats[seat] = taken
        written, *_ = commit_table(game, stored, {**stored.record, "seats": new_seats}, seat,
                                   [SeatTaken(seat=seat, name=name).event()])
        if written:
            return
    raise ApiError(409, "stale_version", "The next game kept changing while your seat was taken; call again.")


def _link(game: Game, game_id: str, new_id: str) -> None:
    """The finished game names its next one (``next_game_id``): its record written again at the same
    version (only the link changes, and every caller writes the same one)."""
    rt = runtime()
    for _ in range(3):
        stored = game.load(game_id)
        if stored.record.get("next_game_id") == new_id:
            return
        record = {**stored.record, "state": game.engine.encode(stored.state), "next_game_id": new_id}
        if rt.store.commit(game_id, stored.version, dumps(record), [], rt.finished_ttl):
            return
