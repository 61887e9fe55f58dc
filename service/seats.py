"""The seats of a view (``seats``): who sits at each seat of the table and what every table shows of
it, the same shape for every game, so that a frontend draws the ring of seats without knowing the game.

Who sits there comes from the stored record (a person or a bot, and the bot's level); the hand size
and running score from the game (``Engine.seat_facts``). Until people can name themselves, a seat is
named by ``default_name``: "Player 1" ... for people, the level's name for a bot ("Greedy bot").
Nobody is marked present or absent yet (``connected`` is null) and there are no clocks (``clock`` is
null); every seat of a game is taken when it is created (``status`` ``playing``).
"""

from __future__ import annotations

from collections.abc import Sequence
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


def seats(stored: Sequence[dict[str, Any]], facts: Sequence[tuple[int, int | None]]) -> list[dict[str, Any]]:
    """The view's ``seats``: one object per seat, from the record's ``seats`` (``service.records``)
    and the game's ``seat_facts``."""
    levels = [seat_level(entry) for entry in stored]
    return [{"seat": seat, "name": default_name(seat, level), "kind": "human" if level is None else "bot",
             "level": level, "status": "playing", "replaced_because": None, "connected": None,
             "hand_count": hand_count, "score": score, "clock": None}
            for seat, (level, (hand_count, score)) in enumerate(zip(levels, facts, strict=True))]
