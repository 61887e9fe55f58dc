"""``POST .../moves`` (submit a move) and ``POST .../moves/check`` (would it be accepted now?).

A move body is read once (``service.move_reader``), after the game and the seat: a stranger learns
nothing from 422s. The checks come in one order, shared by both: the version named, the game still
running, room in the log, the seat to move; then the engine's rules. A submitted move, and every
bot move after it (``play_bots``), is written with one compare-and-set; the answer is the mover's
new view with ``entries``, the log entries the request wrote as the mover sees them in the log, kept
with the Idempotency-Key when one came (a replay answers the same, with its own ``server_time``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from flask import Response, current_app
from marshmallow import ValidationError

from engines.core import Event, IllegalMove, Move
from service import clocks, log, observability, presence, table, view
from service.bots import MAX_BOT_MOVES, RequestBots, seat_level
from service.errors import ApiError
from service.move_reader import ReadMove
from service.presence import UNKNOWN, Presence
from service.records import dumps, fingerprint
from service.runtime import Game, Runtime, check_log_room, runtime
from service.versions import Stored
from service.wire import (
    cache_headers,
    etag,
    idempotency_key,
    json_body,
    json_response,
    replayed,
    schema_errors,
    view_response,
)

#: A commit that lost the race is tried again (only when the client sent no `version`).
COMMIT_ATTEMPTS = 3


def read_move(game: Game) -> ReadMove:
    """The request's move body, read once: 400 when it is not JSON, 422 ``validation_error``
    naming each field when it does not match the game's move schema."""
    data = json_body()
    try:
        return game.moves.read(data)
    except ValidationError as exc:
        raise schema_errors(exc) from None


def judge(game: Game, stored: Stored, seat: int, read: ReadMove,
          rt: Runtime | None = None) -> tuple[Move, Any, tuple[Event, ...]]:
    """The move, the state after it and its events, if ``seat`` may make the move of ``read`` now:
    409 ``stale_version``/``game_over``/``game_not_started``/``seat_replaced``/``log_full``/
    ``deadline_passed`` (the seat's turn ran out of time and went on without it)/``not_your_turn`` or
    422 ``illegal_move`` otherwise. ``rt``: the runtime, when the caller has it."""
    engine = game.engine
    version = read.body.get("version")
    if version is not None and version != stored.version:
        raise ApiError(409, "stale_version", f"The game is at version {stored.version}, not {version}.",
                       current_version=stored.version)
    state = stored.state
    if engine.result(state) is not None or stored.record.get("ended") is not None:
        raise ApiError(409, "game_over", "The game has finished.", current_version=stored.version)
    if table.waiting(stored.record):
        raise table.not_started(stored.version)
    if stored.record["seats"][seat].get("replaced"):
        raise seat_replaced(stored.version)
    check_log_room(stored.version, 1, rt)
    if seat not in engine.to_move(state):
        if clocks.timed_out_turn(stored.record, seat):
            raise ApiError(409, "deadline_passed", f"Seat {seat}'s time ran out: its turn went on without it.",
                           current_version=stored.version)
        raise ApiError(409, "not_your_turn", f"Seat {seat} is not to move.", current_version=stored.version)
    try:
        move = read.move()
        after, events = engine.apply_events(state, seat, move)
    except IllegalMove as exc:
        raise ApiError(422, "illegal_move", exc.message, reason=exc.reason) from None
    return move, after, events


def seat_replaced(version: int) -> ApiError:
    return ApiError(409, "seat_replaced", "A bot has taken this seat over (it resigned or ran out of time): its "
                    "token still reads the game but makes no move.", current_version=version)


def play_bots(game: Game, record: Mapping[str, Any], state: Any, version: int,
              levels: Mapping[int, str] | None = None, limit: int = MAX_BOT_MOVES) -> tuple[Any, list[bytes]]:
    """Let every bot seat that is to move play at its level, until a human is to move or the game
    ends; all of them within the request's bound (``service.bots.RequestBots``). ``levels``: the seats
    that play and their levels (default: the record's bots); ``limit``: moves at most. Returns the
    state after them and their log entries."""
    engine = game.engine
    if levels is None:
        levels = {i: level for i, s in enumerate(record["seats"]) if (level := seat_level(s)) is not None}
    if not levels:
        return state, []
    request_bots = RequestBots(runtime().bot_policy)
    entries: list[bytes] = []
    for _ in range(limit):
        if engine.result(state) is not None:
            break
        movers = [s for s in engine.to_move(state) if s in levels]
        if not movers:
            break
        seat = movers[0]
        move = request_bots.choose(engine, state, seat, levels[seat], record["seed"], version + len(entries))
        after, events = engine.apply_events(state, seat, move)
        entries.append(log.entry(game, seat, move, events, True, version + len(entries) + 1, record["players"]))
        state = after
    if request_bots.fallbacks or request_bots.capped:
        current_app.logger.info("bots of %s: %d strong moves played greedy (request bound), %d searches capped",
                                record["game_id"], request_bots.fallbacks, request_bots.capped)
    return state, entries


def answered(game: Game, record: Mapping[str, Any], version: int, state: Any, seat: int,
             entries: list[bytes], here: Presence = UNKNOWN,
             made: Sequence[Mapping[str, Any]] = ()) -> tuple[dict[str, Any], bytes, bytes]:
    """The answer to a request that wrote ``entries`` (a move and the bot moves after it; a seat
    claimed; a start): the seat's new view (``here``: who is at the table), that view encoded, and the
    answer's bytes, the view with ``entries`` as the log shows them to the seat (``server_time`` is
    added as it leaves). ``made``: what the first entries hold (``log.made``), shown without reading
    their bytes back."""
    answer = view.body(game, record, version, state, seat, here.present)
    view_bytes = dumps(answer)
    shown = dumps([log.shown(made[i], seat) if i < len(made) else log.entry_for(game, raw, seat)
                   for i, raw in enumerate(entries)])
    return answer, view_bytes, b'%s,"entries":%s}' % (view_bytes[:-1], shown)


def kept_answer(body_print: str, answer_bytes: bytes, tag: str) -> bytes:
    """What an Idempotency-Key keeps of a seat's answer that wrote entries (a move, a resign):
    ``{"fingerprint", "view", "etag"}``, the answer embedded as encoded once."""
    return b'{"fingerprint":%s,"view":%s,"etag":%s}' % (dumps(body_print), answer_bytes, dumps(tag))


def replay_kept(game_id: str, idem: str, body_print: str, seat: int) -> Response | None:
    """The answer kept under ``idem`` (``kept_answer``) sent again, when a first request with this key
    was applied; 422 ``idempotency_conflict`` when it came with another body or seat."""
    kept = runtime().store.idempotent(game_id, idem)
    if kept is None:
        return None
    first = replayed(kept, body_print)
    return json_response(view.timed(dumps(first["view"])), 200,
                         {"ETag": first["etag"], "Idempotent-Replayed": "true", **cache_headers(seat)})


def check(game: Game, game_id: str) -> Response:
    """Would the move be accepted now? The same answers as ``submit``, and nothing is written:
    the applied state is thrown away, so the answer says no more than "legal"."""
    stored = game.load(game_id)
    seat = game.seat(stored.record, required=True)
    assert seat is not None
    judge(game, stored, seat, read_move(game))
    return json_response({"legal": True})


def submit(game: Game, game_id: str) -> Response:
    """The move, and the bot moves after it, in one write that renews the mover's mark at the table too
    when it needs it (``service.presence``); a request that proved its seat and wrote nothing (a
    refusal, a replay) renews it on its way out, when it needs it."""
    rt = runtime()
    engine = game.engine
    key = idempotency_key()
    idem = None if key is None else f"move:{key}"
    read: ReadMove | None = None
    body_print = ""
    seat: int | None = None
    committed = False
    fresh = False  # the mover's mark needs no renewing (``service.presence.fresh``)
    try:
        for _ in range(COMMIT_ATTEMPTS):
            stored, seat, seen = game.open(game_id, required=True, mark=False, rt=rt)
            record = stored.record
            assert seat is not None
            fresh = not presence.needs_mark(seen, seat)
            here = presence.with_seat(seen, seat)  # the mover is at the table; the answer shows who else is
            if read is None:  # after the game and the seat: a stranger learns nothing from 422s
                read = read_move(game)
            if idem is not None:
                body_print = fingerprint([seat, read.body])
                again = replay_kept(game_id, idem, body_print, seat)
                if again is not None:
                    return again
            move, after, events = judge(game, stored, seat, read, rt)
            first = log.made(game, seat, move, events, False, stored.version + 1, record["players"])
            entries = [dumps(first)]
            after, bot_entries = play_bots(game, record, after, stored.version + 1)
            entries += bot_entries
            check_log_room(stored.version, len(entries), rt)
            new_version = stored.version + len(entries)
            # the version read stays as it was
            record = clocks.written(engine, record, after, entries, rt.idle_ms, own=seat)
            answer, view_bytes, answer_bytes = answered(game, record, new_version, after, seat, entries, here, (first,))
            mark = here.mark
            tag = etag(new_version, seat, f"p{mark}")
            # The kept answer embeds the view as encoded once: {"fingerprint", "view", "etag"}.
            idem_value = None if idem is None else kept_answer(body_print, answer_bytes, tag)
            snapshot = dumps(record)
            ttl = table.ttl(record, rt.game_ttl, rt.finished_ttl, answer["status"] == "finished")
            committed = rt.store.commit(game_id, stored.version, snapshot, entries, ttl, idem, idem_value,
                                        due=record["due"], mark=None if fresh else (seat, presence.ttl_ms()))
            if committed:
                observability.moves_applied(engine.id, len(entries), answer["status"] == "finished")
                written = Stored(new_version, snapshot, record, engine, after)  # the next request starts here
                written.views[(seat, mark)] = view_bytes
                rt.versions.keep(game_id, written)
                return view_response(view.timed(answer_bytes), tag, seat)
            if read.body.get("version") is not None:
                current = rt.store.load(game_id)
                now = current.version if current else stored.version
                raise ApiError(409, "stale_version", f"Another move was applied first; the game is at version {now}.",
                               current_version=now)
        raise ApiError(409, "stale_version", "The game changed while the move was applied; fetch the view and retry.")
    finally:
        if seat is not None and not committed and not fresh:
            presence.touch(rt.store, game_id, seat)
