"""What the service does at a table by itself, and a seat that leaves: a clock that runs out, a game
left idle, ``POST .../resign``.

Every request that loads a game (``Game.load``) applies a passed deadline first (``enforce``), so a
late move never applies (409 ``deadline_passed``) and every answer shows the game as it stands; the
deadlines also fire with nobody asking (``service.sweeper``). Either way the change is one
compare-and-set on the game's version, like a move, so two workers never apply one timeout twice; it
is logged (the table's entry, then the bot's moves) and published like a move, and the commit sets
the game's next due time (the store's set of due games).

``service.clocks`` decides what a deadline does; this module does it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Response

from engines.core import Event
from engines.table import GameAbandoned, Resigned, TimedOut
from service import clocks, log, observability, presence, table
from service.bots import DEFAULT_LEVEL
from service.errors import ApiError
from service.moves import answered, kept_answer, play_bots, replay_kept, seat_replaced
from service.records import dumps, fingerprint, loads, timestamp
from service.runtime import Game, runtime
from service.seats import name
from service.versions import Stored
from service.view import timed
from service.wire import cache_headers, etag, idempotency_key, json_response

#: Tries of a deadline's commit: each lost race reloads the game, which may no longer be due.
ATTEMPTS = 3
#: Moves a bot plays for a timed-out seat's one turn at most (a turn is a few moves: a draw, a discard).
TURN_MOVES = 200


def replaced(record: Mapping[str, Any], seat: int, because: str, forfeited: bool) -> dict[str, Any]:
    """``record`` with a bot of the default level in ``seat`` for the rest of the game. The seat keeps
    its token's hash (it still reads the game) and its name."""
    seats = [dict(s) for s in record["seats"]]
    was = seats[seat]
    seats[seat] = {**was, "name": name(seat, was), "bot": True, "level": DEFAULT_LEVEL, "replaced": because,
                   "forfeited": forfeited}
    return {**record, "seats": seats}


def _ended(record: Mapping[str, Any], termination: str, seat: int | None) -> dict[str, Any]:
    ended: dict[str, Any] = {"termination": termination, "at": timestamp()}
    if seat is not None:
        ended["seat"] = seat
    return {**record, "ended": ended}


def play_turn(game: Game, record: Mapping[str, Any], state: Any, seat: int, version: int) -> tuple[Any, list[bytes]]:
    """A bot of the default level plays ``seat``'s turn (its moves while it stays to move) for a person
    whose time ran out; their entries (``bot`` true) follow ``version``."""
    return play_bots(game, record, state, version, levels={seat: DEFAULT_LEVEL}, limit=TURN_MOVES)


def apply(game: Game, stored: Stored, now: int) -> tuple[dict[str, Any], Any, list[bytes]] | None:
    """What a passed deadline of ``stored`` does at ``now`` (``clocks.decide``): the record, the state
    and the log entries to write; None when nothing is due."""
    engine = game.engine
    record = stored.record
    state = stored.state
    active = table.status(record, engine.result(state)) == "active"
    action = clocks.decide(record, engine.to_move(state) if active else (), now, active)
    if action is None:
        return None
    version = stored.version
    turn_over: tuple[int, ...] = ()
    if isinstance(action, clocks.Abandon):
        record = _ended(record, "abandoned", None)
        entries = [log.table_entry(game, None, [GameAbandoned().event()], version + 1)]
    else:
        seat = action.seat
        turn_over = (seat,)
        counts = [dict(c) for c in record["clocks"]]
        counts[seat]["timeouts"] += 1
        record = {**record, "clocks": counts}
        event: Event = TimedOut(seat=seat, outcome=action.outcome).event()  # type: ignore[arg-type]
        entries = [log.table_entry(game, seat, [event], version + 1)]
        if action.outcome == "lost":
            record = _ended(record, "timeout", seat)
        else:
            if action.outcome in ("replaced", "forfeited"):
                record = replaced(record, seat, "timed_out", action.forfeited)
            state, more = play_turn(game, record, state, seat, version + len(entries))
            entries += more
            state, more = play_bots(game, record, state, version + len(entries))
            entries += more
    record = clocks.written(engine, record, state, entries, runtime().idle_ms, turn_over=turn_over, now=now)
    return record, state, entries


def _commit(game: Game, stored: Stored, record: dict[str, Any], state: Any, entries: list[bytes],
            idem: str | None = None, idem_value: bytes | None = None) -> Stored | None:
    """Write ``record`` as the next version of ``stored`` (one compare-and-set); the version written,
    or None when another write came first."""
    rt = runtime()
    engine = game.engine
    over = record.get("ended") is not None or engine.result(state) is not None
    snapshot = dumps(record)
    ttl = table.ttl(record, rt.game_ttl, rt.finished_ttl, over)
    if not rt.store.commit(record["game_id"], stored.version, snapshot, entries, ttl, idem, idem_value,
                           due=record.get("due")):
        return None
    observability.moves_applied(engine.id, sum(1 for e in entries if loads(e)["move"] is not None), over)
    written = Stored(stored.version + len(entries), snapshot, record, engine, state)
    rt.versions.keep(record["game_id"], written)
    return written


def enforce(game: Game, game_id: str, stored: Stored) -> Stored:
    """``stored`` with every passed deadline applied (each its own commit); a commit that lost the race
    reads the game again, which another worker may have brought up to date."""
    return enforced(game, game_id, stored)[0]


def enforced(game: Game, game_id: str, stored: Stored) -> tuple[Stored, bool]:
    """``enforce``, and whether this call wrote a deadline's action itself (a version read after a
    lost race may be newer because another worker wrote it: that one applied the deadline)."""
    wrote = False
    for _ in range(ATTEMPTS):
        due = stored.record.get("due")
        now = clocks.now_ms()
        if due is None or due > now:
            return stored, wrote
        applied = apply(game, stored, now)
        if applied is None:
            return stored, wrote
        written = _commit(game, stored, *applied)
        wrote = wrote or written is not None
        stored = written if written is not None else game.read(game_id)
    return stored, wrote


def resign(game: Game, game_id: str) -> Response:
    """``POST .../resign`` (a person's seat token): a two-player game ends (``resignation``, the seat
    loses); in a larger one a bot takes the seat over (``replaced``, ``resigned``) and the others play on.
    Either way the seat is ranked last (``forfeited``). The answer is the caller's view with the entries
    written; an Idempotency-Key makes a retry answer the same."""
    rt = runtime()
    engine = game.engine
    key = idempotency_key()
    idem = None if key is None else f"resign:{key}"
    for _ in range(ATTEMPTS):
        stored = game.load(game_id)
        record = stored.record
        seat = game.seat(record, required=True, mark=False)
        assert seat is not None
        here = presence.touch(rt.store, game_id, seat)
        body_print = fingerprint([seat, "resign"])
        if idem is not None:
            again = replay_kept(game_id, idem, body_print, seat)
            if again is not None:
                return again
        state = stored.state
        if engine.result(state) is not None or record.get("ended") is not None:
            raise ApiError(409, "game_over", "The game has finished.", current_version=stored.version)
        if table.waiting(record):
            raise table.not_started(stored.version)
        if record["seats"][seat].get("replaced"):
            raise seat_replaced(stored.version)
        version = stored.version
        if record["players"] == 2:
            record = _ended(record, "resignation", seat)
            entries = [log.table_entry(game, seat, [Resigned(seat=seat, outcome="lost").event()], version + 1)]
        else:
            record = replaced(record, seat, "resigned", True)
            entries = [log.table_entry(game, seat, [Resigned(seat=seat, outcome="replaced").event()], version + 1)]
            state, more = play_bots(game, record, state, version + 1)
            entries += more
        record = clocks.written(engine, record, state, entries, rt.idle_ms, turn_over=(seat,))
        new_version = version + len(entries)
        _, _, answer_bytes = answered(game, record, new_version, state, seat, entries, here)
        tag = etag(new_version, seat, f"p{here.mark}")
        idem_value = None if idem is None else kept_answer(body_print, answer_bytes, tag)
        if _commit(game, stored, record, state, entries, idem, idem_value) is not None:
            return json_response(timed(answer_bytes), 200, {"ETag": tag, **cache_headers(seat)})
    raise ApiError(409, "stale_version", "The game kept changing while this was written; fetch the view and retry.")
