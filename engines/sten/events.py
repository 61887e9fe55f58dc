"""What a move of Sten ("Stein") causes, as events (seeds/sten.md section 13): its event types
(``EVENT_TYPES``, ``engines.eventtypes``).

Everything in Sten happens face up, so every event is public, but for one: a failed play-all
declaration shows the others only the cards laid before the first that did not fit, and the
declarer his whole list (section 9).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Literal, TypedDict

from engines import eventtypes
from engines.eventtypes import EventType, private, public, spread

from .moves import Card


class Played(EventType):
    """A card placed on the layout (section 5.1)."""

    type = "played"
    seat: int = public("who placed it")
    card: Card = public("the card placed")
    source: Literal["hand", "remainder"] = public("from the mover's hand or the open remainder")


class Passed(EventType):
    """A seat said "Stein" (section 5.2): nothing placed, the turn passes."""

    type = "passed"
    seat: int = public("who said Stein")


class TookStone(EventType):
    """The stone changed hands (after "Stein" or a failed declaration, sections 5.2 and 6)."""

    type = "took_stone"
    seat: int = public("the new holder")
    previous_holder: int | None = public("who held it before; null: it lay in the middle")


class Declared(EventType):
    """A declaration to lay the whole hand (section 6): laid and won, or failed."""

    type = "declared"
    seat: int = public("the declarer")
    success: bool = public("the declaration won: every card was laid")
    cards: Sequence[Card] = public(
        "success: every card, in the order laid; failure: for the others the cards laid before the first that "
        "did not fit, for the declarer his whole list")
    declared: Mapping[int, Sequence[Card]] = private(
        "on failure, to the declarer: his whole list, in place of the cards laid", overrides="cards")


class Ended(TypedDict):
    """The end of the game as the table shows it (section 13, ``rules.ended_summary``): the view's
    ``ended`` and the ``deal_ended`` event."""

    reason: str
    winner: int | None
    losers: list[int]
    stone_holder: int | None
    hands: list[list[str]]
    cards_left: list[int]
    dead: list[str]
    layout: list[list[str]]
    remainder: list[str]


class DealEnded(EventType):
    """The game (one deal) ended: the hands left laid open, the final table, the reckoning (section 7)."""

    type = "deal_ended"
    summary: Ended = spread("the end as the view's `ended` shows it")


class GameOver(eventtypes.GameOver):
    """The game is over: the last event of its last move."""

    status: Literal["finished", "aborted"] = public(
        "how the game ended: `finished` (played out) or `aborted` (the safety cap ended it)")
    scores: tuple[int, ...] | None = public("always null: Sten has no points")


EVENT_TYPES: tuple[type[EventType], ...] = (Played, Passed, TookStone, Declared, DealEnded, GameOver)
