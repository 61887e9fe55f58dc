"""Where a table stands, for every game alike: ``waiting`` for the people of its open seats, ``active``,
or ``finished`` (played out, or called off while it waited), read off the stored record and the game.

A game with open seats is dealt when it is created but waits: no move is accepted (409
``game_not_started``) and no bot moves until its last open seat is claimed, or a seated person
starts it (``service.people``). A waiting game called off (``abort``) is finished without being
played: the record keeps ``ended`` (``{"termination": "aborted", "at"}``) and its result says so.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engines.core import Engine
from service.errors import ApiError
from service.seats import is_open

#: How long a waiting game lives after its last change, in seconds (its keys' TTL): a day.
WAITING_TTL = 24 * 3600


def waiting(record: Mapping[str, Any]) -> bool:
    """The game waits for the people of its open seats (and was not called off)."""
    return record.get("ended") is None and any(is_open(s) for s in record["seats"])


def status(record: Mapping[str, Any], result: Any) -> str:
    """``waiting``, ``active`` or ``finished``, with the game's ``result`` (None while it runs)."""
    if result is not None or record.get("ended") is not None:
        return "finished"
    return "waiting" if waiting(record) else "active"


def result_json(engine: Engine, record: Mapping[str, Any], state: Any) -> dict[str, Any] | None:
    """The view's ``result``: the game's, or, for a game called off while it waited, one that says so
    (nobody won or lost, every seat shares the one place, no detail); None while the game runs."""
    ended = record.get("ended")
    if ended is not None:
        players = record["players"]
        return {"status": "aborted", "winners": [], "losers": [], "scores": None, "detail": None,
                "termination": ended["termination"], "ranking": [list(range(players))], "forfeited": []}
    result = engine.result(state)
    return None if result is None else result.to_json()


def ttl(record: Mapping[str, Any], game_ttl: int) -> int:
    """How long the game's keys live after this write: a day while it waits (and once it was called
    off: it was never played), else ``game_ttl``."""
    short = waiting(record) or record.get("ended") is not None
    return min(game_ttl, WAITING_TTL) if short else game_ttl


def not_started(version: int) -> ApiError:
    return ApiError(409, "game_not_started", "The game waits for the people of its open seats: no move is "
                    "accepted before it starts.", current_version=version)
