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
from engines.table import ended_result, with_forfeits
from service.errors import ApiError
from service.seats import any_open

#: How long a waiting game lives after its last change, in seconds (its keys' TTL): a day.
WAITING_TTL = 24 * 3600


def waiting(record: Mapping[str, Any]) -> bool:
    """The game waits for the people of its open seats (and was not called off)."""
    return record.get("ended") is None and any_open(record["seats"])


def status(record: Mapping[str, Any], result: Any) -> str:
    """``waiting``, ``active`` or ``finished``, with the game's ``result`` (None while it runs)."""
    if result is not None or record.get("ended") is not None:
        return "finished"
    return "waiting" if waiting(record) else "active"


def result_json(engine: Engine, record: Mapping[str, Any], state: Any) -> dict[str, Any] | None:
    """The view's ``result``: the game's, or one the table wrote (``ended``: called off, lost by
    resigning or on time, abandoned: ``engines.table.ended_result``); None while the game runs. Seats
    that gave the game up (``forfeited``) are ranked last in every game (``with_forfeits``)."""
    ended = record.get("ended")
    if ended is not None:
        return ended_result(record["players"], ended["termination"], ended.get("seat"), forfeited_seats(record))
    result = engine.result(state)
    if result is None:
        return None
    return with_forfeits(result.to_json(), forfeited_seats(record))


def forfeited_seats(record: Mapping[str, Any]) -> list[int]:
    """The seats that gave the game up (resigned, or timed out under ``forfeit``), in seat order."""
    return [i for i, s in enumerate(record["seats"]) if s.get("forfeited")]


def ttl(record: Mapping[str, Any], game_ttl: int, finished_ttl: int | None = None, over: bool = False) -> int:
    """How long the game's keys live after this write: a day while it waits (and once it was called
    off: it was never played), ``finished_ttl`` (CARDTABLE_FINISHED_DAYS) once it is ``over`` (or
    ``ended``), else ``game_ttl``."""
    ended = record.get("ended")
    if waiting(record) or (ended is not None and ended["termination"] == "aborted"):
        return min(game_ttl, WAITING_TTL)
    if finished_ttl is not None and (over or ended is not None):
        return finished_ttl
    return game_ttl


def not_started(version: int) -> ApiError:
    return ApiError(409, "game_not_started", "The game waits for the people of its open seats: no move is "
                    "accepted before it starts.", current_version=version)
