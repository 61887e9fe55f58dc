"""The seats of a view (``seats``): who sits at each seat of the table and what every table shows of it,
the same shape for every game, so that a frontend draws the ring of seats without knowing the game.

Who sits there comes from the stored record (a person, a bot and its level, or an open seat; the name
given on create or join); the hand size and running score from the game (``Engine.seat_facts``); whether
a person is at the table now from presence (``service.presence``). A seat nobody named is named by
``default_name``: "Player 1" ... for people and open seats, the level's name for a bot ("Greedy bot").
A seat a bot took over (``replaced``) is a bot's (``kind`` ``bot``), with why (``replaced_because``); a
person's clock comes from ``service.clocks``.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any

from service.bots import seat_level

#: What a seat's ``kind`` may be: a person, a server bot, or a seat nobody has taken yet.
KINDS = ("human", "bot", "open")
#: What a seat's ``status`` may be: waiting to be taken, in play, or taken over by a bot.
STATUSES = ("waiting", "playing", "replaced")
#: Why a seat was taken over by a bot.
REPLACED_BECAUSE = ("resigned", "timed_out")


def default_name(seat: int, level: str | None) -> str:
    """The name of a seat nobody named: ``Player <seat + 1>`` for a person, the bot's level name
    (``Greedy bot``) for a bot."""
    return f"Player {seat + 1}" if level is None else f"{level.capitalize()} bot"


def is_open(stored: Mapping[str, Any]) -> bool:
    """A stored seat nobody has claimed yet (``{"hash": null, "bot": false, "open": true}``)."""
    return bool(stored.get("open"))


def any_open(stored: Sequence[Mapping[str, Any]]) -> bool:
    """A seat of the game waits for its person (``is_open``): the game has not started, unless it
    was called off."""
    for seat in stored:  # noqa: SIM110 -- any() over a generator costs more, and every move asks
        if is_open(seat):
            return True
    return False


def kind(stored: Mapping[str, Any]) -> str:
    """``human``, ``bot`` or ``open``: who plays a stored seat."""
    if stored.get("bot"):
        return "bot"
    return "open" if is_open(stored) else "human"


def name(seat: int, stored: Mapping[str, Any]) -> str:
    """The seat's name: the one given, else ``default_name``."""
    given = stored.get("name")
    return given if given else default_name(seat, seat_level(stored))


def status(stored: Mapping[str, Any]) -> str:
    """``waiting`` (open), ``replaced`` (a bot took it over) or ``playing``."""
    if is_open(stored):
        return "waiting"
    return "replaced" if stored.get("replaced") else "playing"


def seats(stored: Sequence[dict[str, Any]], facts: Sequence[tuple[int, int | None]],
          present: Collection[int] | None = None, clocks: Sequence[Any] | None = None) -> list[dict[str, Any]]:
    """The view's ``seats``: one object per seat, from the record's ``seats`` (``service.records``),
    the game's ``seat_facts`` and ``present``, the seats whose person is at the table now (None: not
    known) and ``clocks``, each seat's clock (``service.clocks.seat_clock``; None: no clocks).
    ``connected`` is a person's only: null for a bot and an open seat."""
    # ``kind``, ``name`` and ``status`` spelled out as one (every view draws every seat): each stored
    # field read once
    out = []
    for seat, (entry, (hand_count, score)) in enumerate(zip(stored, facts, strict=True)):
        level = seat_level(entry)  # None but for a bot
        waiting = entry.get("open")
        replaced = entry.get("replaced")
        who = "bot" if level is not None else "open" if waiting else "human"
        given = entry.get("name")
        out.append({"seat": seat, "name": given if given else default_name(seat, level), "kind": who,
                    "level": level, "status": "waiting" if waiting else "replaced" if replaced else "playing",
                    "replaced_because": replaced,
                    "connected": None if who != "human" or present is None else seat in present,
                    "hand_count": hand_count, "score": score, "clock": None if clocks is None else clocks[seat]})
    return out
