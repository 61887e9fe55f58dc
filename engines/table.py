"""The events of the table itself, the same in every game: what happens around the cards rather than
with them (a seat claimed, the game started or called off), declared like a game's events
(``engines.eventtypes``).

The service writes them in log entries of their own, entries that carry no move (``move`` is null),
and counts each such entry as a version, so that a view's ETag, a long poll and an event stream see
people sit down as they see moves. A replay of a game's moves skips these entries: no game's rules
make them. Time and leaving write their own: a seat that ran out of time (``timed_out``, followed by
the bot move played for it, an ordinary move entry), a seat that resigned (``resigned``) and a game
nobody moved in for too long (``game_abandoned``). Pure, as every engine module.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Annotated, Any, Literal

from engines.eventtypes import EventType, Length, public

Name = Annotated[str, Length(1, 24)]


class SeatTaken(EventType):
    """A person claimed an open seat (with the invite, from the lobby, or for a rematch)."""

    type = "seat_taken"
    seat: int = public("the seat claimed")
    name: Name = public("the name the person gave (text a person typed: show it as text)")


class BotSeated(EventType):
    """An open seat was given to a bot when a seated person started the game without waiting for it."""

    type = "bot_seated"
    seat: int = public("the seat the server plays from now on")
    level: str = public("the bot's level")


class GameStarted(EventType):
    """Every seat is taken: the game that waited for its people starts, and its seats to move may move."""

    type = "game_started"


class GameAborted(EventType):
    """A seated person called the waiting game off before it started: it is over, unplayed."""

    type = "game_aborted"
    seat: int = public("who called it off")


class TimedOut(EventType):
    """A person's clock ran out while the seat was to move. What follows depends on the game's policy:
    a bot plays the seat's turn (``bot_moves``; the bot's moves follow as entries of their own), a bot
    takes the seat over for the rest of the game (``replaced``: the seat timed out too many turns in a
    row; ``forfeited``: it gave its place up under ``forfeit`` and is ranked last), or the seat lost a
    two-player game (``lost``)."""

    type = "timed_out"
    seat: int = public("the seat whose time ran out")
    outcome: Literal["bot_moves", "replaced", "forfeited", "lost"] = public(
        "`bot_moves`: a bot plays this turn; `replaced`: a bot plays the seat from now on (it timed out too many "
        "turns in a row); `forfeited`: a bot plays the seat from now on and the seat is ranked last; `lost`: "
        "the game is over and the seat lost it")


class Resigned(EventType):
    """A person gave the game up: a two-player game ends (``lost``), in a larger one a bot takes the seat
    over and the others play on (``replaced``); either way the seat is ranked last."""

    type = "resigned"
    seat: int = public("the seat that resigned")
    outcome: Literal["replaced", "lost"] = public(
        "`replaced`: a bot plays the seat from now on; `lost`: the game is over and the seat lost it")


class GameAbandoned(EventType):
    """Nobody moved for the service's idle limit: the game is over, without a winner."""

    type = "game_abandoned"


#: Every event of the table, in the order the spec lists them.
EVENT_TYPES: tuple[type[EventType], ...] = (SeatTaken, BotSeated, GameStarted, GameAborted, TimedOut, Resigned,
                                            GameAbandoned)


def ended_result(players: int, termination: str, loser: int | None, forfeited: Collection[int]) -> dict[str, Any]:
    """The result of a game the table ended before its rules did. Called off (``aborted``) or left idle
    (``abandoned``): nobody won, every seat shares the one place. Lost by resigning or running out of
    time (``resignation``, ``timeout``; a two-player game): the other seat won, the seat that left lost
    and is forfeited."""
    gave_up = sorted(set(forfeited))
    if loser is None:
        return {"status": "aborted", "winners": [], "losers": [], "scores": None, "detail": None,
                "termination": termination, "ranking": [list(range(players))], "forfeited": gave_up}
    others = [s for s in range(players) if s != loser]
    return {"status": "finished", "winners": others, "losers": [loser], "scores": None, "detail": None,
            "termination": termination, "ranking": [others, [loser]], "forfeited": sorted({*gave_up, loser})}


def with_forfeits(result: Mapping[str, Any], forfeited: Collection[int]) -> dict[str, Any]:
    """A played-out game's result (``Result.to_json``) with the seats that gave the game up ranked last,
    sharing the last place, after every seat that played it out, and never among the winners."""
    out = dict(result)
    gave_up = sorted(set(forfeited))
    if not gave_up:
        return out
    places: Sequence[Sequence[int]] = out["ranking"]
    kept = [[s for s in place if s not in gave_up] for place in places]
    out["ranking"] = [*(p for p in kept if p), gave_up]
    out["winners"] = [s for s in out["winners"] if s not in gave_up]
    out["losers"] = sorted({*out["losers"], *gave_up})
    out["forfeited"] = gave_up
    return out


def read_leaving(events: Sequence[Mapping[str, Any]], forfeited: set[int]) -> tuple[str, int | None] | None:
    """What the table's events of one entry say about leaving: the seats that gave the game up are added
    to ``forfeited``; the answer is how the table ended the game (termination and the seat that lost,
    if any), or None when it goes on."""
    ended: tuple[str, int | None] | None = None
    for event in events:
        kind, outcome = event.get("type"), event.get("outcome")
        if kind == "resigned" or (kind == "timed_out" and outcome in ("forfeited", "lost")):
            forfeited.add(int(event["seat"]))
        if outcome == "lost":
            ended = ("resignation" if kind == "resigned" else "timeout", int(event["seat"]))
        elif kind == "game_abandoned":
            ended = ("abandoned", None)
    return ended
