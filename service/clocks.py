"""The clocks of a table and what happens when one runs out: pure functions of the stored record
(``service.records``), the seats to move and the time, with no store or request (``written`` alone
asks the game's engine who is to move, and encodes its state).

A game may be played on time (``clock`` on create): ``fischer``, a bank per person that runs while
the seat is to move and gains an increment when its turn ends, or ``per_move``, the same time for each
turn (correspondence). A turn is a seat's run of moves while it stays to move (a draw and then its
discard are one turn). Bots have no clock, and a waiting game's clocks do not run.

The record keeps what is needed to know the time at any moment, never "time left": each person's
bank (``clocks[seat].remaining_ms``) and consecutive timeouts, and, for each person to move, the
absolute time its clock runs out (``running``: seat -> epoch ms), set by every commit that brings
the seat to move (``settle``). ``due`` is the earliest moment the service must act on the game on its
own: the first running deadline, or when the game counts as abandoned (``idle_at``: no move for
CARDTABLE_IDLE_DAYS); it is the score of the game in the store's set of due games.

``decide`` says what a passed deadline does; ``service.deadlines`` does it through the same
compare-and-set as a move.
"""

from __future__ import annotations

import time
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import orjson

from schemas.clocks import DEFAULT_MAX_TIMEOUTS, DEFAULT_POLICY
from service.records import timestamp
from service.seats import any_open


def now_ms() -> int:
    """The time now, in ms since the epoch: what deadlines are written in."""
    return int(time.time() * 1000)


def spec(given: Mapping[str, Any]) -> dict[str, Any]:
    """The clock as the record keeps it, from a create's validated ``clock``: its kind, its times and
    its policy, with the defaults filled in."""
    out: dict[str, Any] = {"kind": given["kind"], "on_timeout": given.get("on_timeout", DEFAULT_POLICY),
                           "max_timeouts": given.get("max_timeouts", DEFAULT_MAX_TIMEOUTS)}
    if given["kind"] == "fischer":
        out.update(initial_seconds=given["initial_seconds"], increment_seconds=given.get("increment_seconds", 0))
    else:
        out["seconds"] = given["seconds"]
    return out


def fresh(clock: Mapping[str, Any] | None, players: int) -> list[dict[str, Any]] | None:
    """Every seat's clock at the start: a full bank and no timeout (a bot's is kept but never runs)."""
    if clock is None:
        return None
    bank = clock["initial_seconds"] * 1000 if clock["kind"] == "fischer" else None
    return [{"remaining_ms": bank, "timeouts": 0} for _ in range(players)]


def _timed(seat: Mapping[str, Any]) -> bool:
    """A seat whose clock may run: a person's (a bot, a replaced seat and an open seat have none)."""
    return not seat.get("bot") and not seat.get("open")


def _turn_ms(clock: Mapping[str, Any], mine: Mapping[str, Any]) -> int:
    return int(mine["remaining_ms"] or 0) if clock["kind"] == "fischer" else clock["seconds"] * 1000


def running(record: Mapping[str, Any]) -> dict[int, int]:
    """The running deadlines: seat -> epoch ms."""
    return {int(s): int(at) for s, at in (record.get("running") or {}).items()}


def settle(record: Mapping[str, Any], to_move: Collection[int], movers: Sequence[int], now: int, idle_ms: int,
           active: bool, own: int | None = None, turn_over: Collection[int] = ()) -> dict[str, Any]:
    """``record`` after a commit that made the moves of ``movers`` (their seats, in order; bots too),
    leaving ``to_move`` to move (``active``: the game runs). A seat's turn ends when it is no longer to
    move, when it moved and another seat moved after it, or when it is in ``turn_over`` (it timed out):
    a fischer bank keeps what was left and gains the increment. A person who comes to move gets a
    deadline (``now`` plus the bank, or the time per move); one whose turn goes on keeps its own. ``own``:
    the seat that moved itself (its timeouts in a row start again from 0). Sets ``running``,
    ``idle_at`` and ``due``."""
    return _settled(dict(record), to_move, movers, now, idle_ms, active, own, turn_over)


def _settled(out: dict[str, Any], to_move: Collection[int], movers: Sequence[int], now: int, idle_ms: int,
             active: bool, own: int | None, turn_over: Collection[int]) -> dict[str, Any]:
    """``settle``, done to ``out``, a record of the caller's own (a new dict), which it returns."""
    clock = out.get("clock")
    now_running: dict[int, int] = {}
    if clock is not None and out.get("clocks"):
        clocks = [dict(c) for c in out["clocks"]]
        seats = out["seats"]
        if own is not None:
            clocks[own]["timeouts"] = 0
        for seat, deadline in running(out).items():
            others = any(m != seat for m in movers)
            goes_on = (active and seat in to_move and _timed(seats[seat]) and seat not in turn_over
                       and not (seat in movers and others))
            if goes_on:
                now_running[seat] = deadline
            elif clock["kind"] == "fischer":
                left = max(0, deadline - now)
                clocks[seat]["remaining_ms"] = left + (clock["increment_seconds"] * 1000 if active else 0)
        if active:
            for seat in to_move:
                if seat not in now_running and _timed(seats[seat]):
                    now_running[seat] = now + _turn_ms(clock, clocks[seat])
        out["clocks"] = clocks
    out["running"] = {str(s): at for s, at in sorted(now_running.items())} if now_running else {}
    idle_at = out["idle_at"] = now + idle_ms if active and idle_ms > 0 else None
    out["due"] = _first(now_running.values(), idle_at) if active else None
    return out


def due(record: Mapping[str, Any], active: bool = True) -> int | None:
    """When the service must next act on the game by itself (epoch ms), None when never."""
    if not active:
        return None
    return _first(running(record).values(), record.get("idle_at"))


def _first(deadlines: Collection[int], idle_at: int | None) -> int | None:
    """The first of the running ``deadlines`` and ``idle_at`` (epoch ms), None when there is none."""
    first = None if idle_at is None else int(idle_at)
    for at in deadlines:  # most games have none: no list made and searched
        if first is None or int(at) < first:
            first = int(at)
    return first


def deadline(record: Mapping[str, Any], seat: int | None = None) -> int | None:
    """The running deadline (epoch ms) of ``seat``, or the first of any seat when None."""
    if not record.get("running"):  # no clock runs (most games: every view asks)
        return None
    kept = running(record)
    if seat is not None:
        return kept.get(seat)
    return min(kept.values(), default=None)


def seat_clock(record: Mapping[str, Any], seat: int, now: int) -> dict[str, Any] | None:
    """A view's ``seats[].clock``: ``{"remaining_ms", "running"}`` as of ``now`` for a person's seat of a
    game on time, None for a bot's (and a replaced seat), an open one and a game without a clock."""
    clock = record.get("clock")
    clocks = record.get("clocks")
    if clock is None or not clocks or not _timed(record["seats"][seat]):
        return None
    at = running(record).get(seat)
    if at is not None:
        return {"remaining_ms": max(0, at - now), "running": True}
    return {"remaining_ms": _turn_ms(clock, clocks[seat]), "running": False}


@dataclass(frozen=True)
class Timeout:
    """``seat``'s clock ran out: ``outcome`` is ``bot_moves``, ``replaced``, ``forfeited`` or ``lost``
    (``engines.table.TimedOut``); ``forfeited``: the seat is ranked last."""

    seat: int
    outcome: str
    forfeited: bool


@dataclass(frozen=True)
class Abandon:
    """Nobody moved for the idle limit: the game ends ``abandoned``."""


def decide(record: Mapping[str, Any], to_move: Collection[int], now: int, active: bool) -> Timeout | Abandon | None:
    """What the service does on its own at ``now``: the first passed deadline of a seat to move
    (the policy says what), else abandonment once the game was idle for too long, else nothing."""
    if not active:
        return None
    passed = sorted((at, seat) for seat, at in running(record).items() if at <= now and seat in to_move)
    if passed:
        seat = passed[0][1]
        clock = record["clock"]
        if clock["on_timeout"] == "forfeit":
            return Timeout(seat, "lost" if record["players"] == 2 else "forfeited", True)
        timeouts = record["clocks"][seat]["timeouts"] + 1
        return Timeout(seat, "replaced" if timeouts >= clock["max_timeouts"] else "bot_moves", False)
    idle_at = record.get("idle_at")
    if idle_at is not None and now >= idle_at:
        return Abandon()
    return None


def timed_out_turn(record: Mapping[str, Any], seat: int) -> bool:
    """The seat's last turn ran out of time (a move of it now comes too late: 409 ``deadline_passed``)."""
    clocks = record.get("clocks")
    if not clocks:
        return False
    return bool(clocks[seat]["timeouts"] > 0 and not record["seats"][seat].get("bot"))


def written(engine: Any, record: Mapping[str, Any], state: Any, entries: Sequence[bytes], idle_ms: int,
            own: int | None = None, turn_over: Collection[int] = (), now: int | None = None) -> dict[str, Any]:
    """``record`` as a commit that wrote ``entries`` (stored log entries) and left the game at ``state``
    stores it: the state encoded, ``updated_at`` now, and the clocks settled (``settle``; whether the
    game runs and who is to move come from ``engine``)."""
    out = {**record, "state": engine.encode(state), "updated_at": timestamp()}
    active = out.get("ended") is None and engine.result(state) is None and not any_open(out["seats"])
    to_move = engine.to_move(state) if active else ()
    movers = [m for m in (orjson.loads(e)["seat"] for e in entries) if m is not None] if out.get("clock") else []
    return _settled(out, to_move, movers, now_ms() if now is None else now, idle_ms, active, own, turn_over)
