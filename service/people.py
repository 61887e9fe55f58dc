"""The people of a waiting game: ``POST .../join`` claims an open seat with the invite (or in a listed
game without it), ``POST .../start`` starts the game at once with bots in the seats still open, and
``POST .../abort`` calls it off (``service.table`` says where a table stands).

Each is one compare-and-set on the game's version, like a move: the seat claimed, the bots seated,
the game started or called off are one log entry of the table (``service.log.table_entry``, its
events ``engines.table``'s), so that two joins racing for one seat never both get it, and streams,
long polls and ETags see people sit down as they see moves. The entry that starts the game is
followed, in the same write, by the bot moves that are then due.

A join's token is shown once: with an Idempotency-Key it is derived from the key, the caller's
address, the game and the server secret (as a create's tokens are: ``service.create``), so that a
retry answers it again though the store keeps only its hash.
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Callable, Mapping
from typing import Any

from flask import Response

from engines.core import Event
from engines.table import BotSeated, GameAborted, GameStarted, SeatTaken
from schemas.people import JoinRequest
from service import auth, clocks, lobby, log, observability, presence, table
from service.bots import DEFAULT_LEVEL
from service.create import caller
from service.errors import ApiError
from service.moves import answered, play_bots
from service.records import dumps, fingerprint, timestamp
from service.runtime import Game, check_log_room, runtime
from service.seats import is_open
from service.versions import Stored
from service.view import timed
from service.wire import cache_headers, etag, idempotency_key, json_response, load_body, replayed

_JOIN = JoinRequest()


def claimable(record: Mapping[str, Any]) -> list[int]:
    """The open seats anyone with the invite may claim (a seat kept for a person of the game before a
    rematch is not one of them)."""
    return [i for i, s in enumerate(record["seats"]) if is_open(s) and not s.get("reserved")]


def check_invite(record: Mapping[str, Any], invite: str | None) -> None:
    """403 ``bad_invite`` unless ``invite`` is the game's, or the game is listed and none came."""
    kept = record.get("invite")
    if invite is None:
        if record.get("listed"):
            return
        raise ApiError(403, "bad_invite", "Joining this game needs its invite.")
    if kept is None or not hmac.compare_digest(auth.token_hash(invite), kept):
        raise ApiError(403, "bad_invite", "This is not the game's invite.")


def not_waiting(stored: Stored) -> ApiError:
    return ApiError(409, "game_not_waiting", "The game does not wait for people any more: it has started or is "
                    "over.", current_version=stored.version)


def _join_token(secret: bytes, key: str, game_id: str, seat: int, nonce: str) -> str:
    return auth.naming(game_id, auth.derived(secret, "join", game_id, str(seat), nonce, key))


def _seated(record: Mapping[str, Any], seat: int, new: dict[str, Any]) -> dict[str, Any]:
    """``record`` with ``seat`` replaced by ``new`` (a new record: one handed out is never changed)."""
    seats = [dict(s) for s in record["seats"]]
    seats[seat] = new
    return {**record, "seats": seats}


def commit_table(game: Game, stored: Stored, record: dict[str, Any], seat: int, events: list[Event],
                 idem: str | None = None, idem_value: bytes | None = None
                 ) -> tuple[bool, dict[str, Any], Any, list[bytes]]:
    """Write ``record`` (the table changed by ``seat``) as the next version of ``stored``: one entry of
    the table with ``events``, then, when the game no longer waits, ``game_started`` and the bot moves
    that are due. One compare-and-set: False when another write came first (nothing written). Returns
    whether it was written, the record, the state and the entries."""
    rt = runtime()
    engine = game.engine
    state = stored.state
    started = table.waiting(stored.record) and not table.waiting(record) and record.get("ended") is None
    if started:
        events = [*events, GameStarted().event()]
    entries = [log.table_entry(game, seat, events, stored.version + 1)]
    if started:
        state, bot_entries = play_bots(game, record, state, stored.version + 1)
        entries += bot_entries
    check_log_room(stored.version, len(entries))
    record = clocks.written(engine, record, state, entries, rt.idle_ms)  # a game that starts: its clocks run
    unlisted = None
    if table.waiting(stored.record) and not table.waiting(record):  # its wait is over: out of the lobby
        unlisted = lobby.unlisting(stored.record)
        record["lobby"] = None
    over = engine.result(state) is not None
    written = rt.store.commit(record["game_id"], stored.version, dumps(record), entries,
                              table.ttl(record, rt.game_ttl, rt.finished_ttl, over), idem, idem_value, unlisted,
                              record["due"])
    if written and started:
        observability.moves_applied(engine.id, len(entries) - 1, engine.result(state) is not None)
    return written, record, state, entries


def join(game: Game, game_id: str) -> Response:
    """``POST .../join``: claim an open seat (the one asked for, else the first) with a name; 201 with
    the seat and its token. Racing joins: each tries the compare-and-set again on the game as it now
    is, so each gets a seat of its own or 409 ``no_open_seat``."""
    rt = runtime()
    body = load_body(_JOIN)
    key = idempotency_key()
    secret = rt.store.secret() if key is not None else b""
    # The key is the caller's alone: the same key from another address is another join (service.create).
    idem = None if key is None else "join:" + auth.derived(secret, "join-key", caller(), key, size=16)
    body_print = fingerprint(body)
    stored = game.load(game_id)
    for _ in range(stored.record["players"] + 2):  # each lost race is a seat someone else took
        record = stored.record
        check_invite(record, body.get("invite"))
        if idem is not None:
            kept = rt.store.idempotent(game_id, idem)
            if kept is not None:
                first = replayed(kept, body_print)
                token = _join_token(secret, key or "", game_id, first["seat"], first["nonce"])
                return json_response({"game_id": game_id, "seat": first["seat"], "token": token}, 201,
                                     {"Idempotent-Replayed": "true"})
        seat = _seat_to_claim(stored, body.get("seat"))
        nonce = secrets.token_urlsafe(12)
        token = auth.new_token(game_id) if key is None else _join_token(secret, key, game_id, seat, nonce)
        name = body["name"]
        new = _seated(record, seat, {"hash": auth.token_hash(token), "bot": False, "name": name})
        written, *_ = commit_table(game, stored, new, seat, [SeatTaken(seat=seat, name=name).event()], idem,
                                   None if idem is None else dumps({"fingerprint": body_print, "seat": seat,
                                                                     "nonce": nonce}))
        if written:
            return json_response({"game_id": game_id, "seat": seat, "token": token}, 201)
        stored = game.load(game_id)
    raise ApiError(409, "no_open_seat", "The game's seats were taken while this one was claimed.",
                   current_version=stored.version)


def _seat_to_claim(stored: Stored, asked: int | None) -> int:
    """The seat a join claims: the one asked for or the first open one; 409 ``no_open_seat`` when there is
    none (or the game does not wait), 422 for a seat the table does not have."""
    record = stored.record
    players = record["players"]
    if asked is not None and asked >= players:
        raise ApiError(422, "validation_error", "The request body does not match the schema.",
                       errors={"seat": [f"must be between 0 and {players - 1}"]})
    if not table.waiting(record):
        raise ApiError(409, "no_open_seat", "The game has no open seat: it has started or is over.",
                       current_version=stored.version)
    open_seats = claimable(record)
    if asked is None:
        if not open_seats:
            raise ApiError(409, "no_open_seat", "Every open seat of the game is kept for someone.",
                           current_version=stored.version)
        return open_seats[0]
    if asked not in open_seats:
        raise ApiError(409, "no_open_seat", f"Seat {asked} is not open.", current_version=stored.version)
    return asked


def start(game: Game, game_id: str) -> Response:
    """``POST .../start`` (a seated person's token): every seat still open gets a bot of the default
    level and the game starts; the answer is the caller's view after the bots that were due moved."""
    return _act(game, game_id, _started)


def abort(game: Game, game_id: str) -> Response:
    """``POST .../abort`` (a seated person's token): the waiting game is called off, over unplayed."""
    return _act(game, game_id, _aborted)


def _started(record: dict[str, Any], seat: int) -> tuple[dict[str, Any], list[Event]]:
    seats = [dict(s) for s in record["seats"]]
    events = []
    for i, s in enumerate(seats):
        if is_open(s):
            seats[i] = {"hash": None, "bot": True, "level": DEFAULT_LEVEL}
            events.append(BotSeated(seat=i, level=DEFAULT_LEVEL).event())
    return {**record, "seats": seats}, events


def _aborted(record: dict[str, Any], seat: int) -> tuple[dict[str, Any], list[Event]]:
    return {**record, "ended": {"termination": "aborted", "at": timestamp()}}, [GameAborted(seat=seat).event()]


def _act(game: Game, game_id: str,
         change: Callable[[dict[str, Any], int], tuple[dict[str, Any], list[Event]]]) -> Response:
    """A seated person's change of a waiting game, written with one compare-and-set (tried again when
    another write came first); the answer is the caller's view with the entries written."""
    for _ in range(3):
        stored = game.load(game_id)
        seat = game.seat(stored.record, required=True, mark=False)
        assert seat is not None
        here = presence.touch(runtime().store, game_id, seat)
        if not table.waiting(stored.record):
            raise not_waiting(stored)
        record, events = change(dict(stored.record), seat)
        written, record, state, entries = commit_table(game, stored, record, seat, events)
        if written:
            version = stored.version + len(entries)
            _, _, answer_bytes = answered(game, record, version, state, seat, entries, here)
            tag = etag(version, seat, f"p{here.mark}")
            return json_response(timed(answer_bytes), 200, {"ETag": tag, **cache_headers(seat)})
    raise ApiError(409, "stale_version", "The game kept changing while this was written; fetch the view and retry.")
