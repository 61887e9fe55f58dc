"""What a move of Siebenschläfer causes, as events (seeds/siebenschlaefer.md section 16).

The event types the rules emit while they apply a move (``EVENT_TYPES``, ``engines.eventtypes``),
and the JSON form of a finished round shared by the ``round_ended`` event, the view's ``last_round``
and the result. Every pair is laid face up, so almost everything is public: the cards a seat draws
are shown only to it (everyone else sees how many), and a new round's hands each only to its holder.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Literal, TypedDict

from engines import eventtypes
from engines.cards import rank_of
from engines.core import JSON
from engines.eventtypes import EventType, private, public, spread

from .moves import Card
from .state import COUNT_VALUE, FACE_RANKS, NUMBER_RANKS, RoundSummary


class Played(EventType):
    """A pair laid face up (sections 4, 5)."""

    type = "played"
    seat: int = public("who laid it")
    cards: Sequence[Card] = public("the pair, in canonical order")
    value: int | None = public("the value it sets; null for a pair of aces (the table is free)")


class Drew(EventType):
    """Cards drawn from the stock: by a ``draw`` or because of a 7 (sections 5, 6)."""

    type = "drew"
    seat: int = public("who drew")
    count: int = public("how many (0 to 2)")
    reason: Literal["draw", "seven"] = public("draw = the move draw; seven = the penalty of a 7")
    cards: Mapping[int, Sequence[Card]] = private("which cards, sorted: only for the drawer")


class Skipped(EventType):
    """A single 7: the next seat misses this turn (section 6)."""

    type = "skipped"
    seat: int = public("who misses the turn")


class Passed(EventType):
    """A seat passed (section 5)."""

    type = "passed"
    seat: int = public("who passed")


class Reshuffled(EventType):
    """The played pile under its top pair became the new stock (section 8)."""

    type = "reshuffled"
    count: int = public("cards shuffled into the stock")


class Reset(EventType):
    """Everybody passed: a new start value was flipped (section 7)."""

    type = "reset"
    cards: Sequence[Card] = public("the cards flipped from the stock, in order; the last two are the start value")
    value: int | None = public("the value to beat now; null: free")


class RoundJSON(TypedDict):
    """A finished round as JSON (sections 9 and 12, ``round_json``): the view's ``last_round``, the
    result's ``round_results`` and the ``round_ended`` event."""

    round: int
    reason: str
    winner: int | None
    winners: list[int]
    payers: list[int]
    hand_values: list[int]
    hands: list[list[str]]
    breakdown: list[dict[str, int]]
    table: dict[str, JSON] | None


class RoundEnded(EventType):
    """A round ended (sections 9, 12): the hands laid open, the table, the count and the match so far."""

    type = "round_ended"
    round: RoundJSON = spread("the round as the view's `last_round` shows it")
    totals: Sequence[int] = public("counted points per seat over the finished rounds, this one included")
    paid: Sequence[int] = public("rounds each seat had to pay, this one included")


class Dealt(EventType):
    """The next round of a match was dealt (sections 2, 3, 11): each seat sees only its own new hand."""

    type = "dealt"
    round: int = public("the round dealt, from 1")
    opener: int = public("who opens (by the 2, or by the lot draw reported next)")
    hand_counts: Sequence[int] = public("cards per seat")
    stock_count: int = public("cards in the stock")
    cards: Mapping[int, Sequence[Card]] = private("the viewer's new hand, sorted: only for that seat")


class Lot(EventType):
    """A card drawn in the lot for the opener (section 3), face up."""

    type = "lot"
    seat: int = public("who drew it")
    card: Card = public("the card drawn")


class GameOver(eventtypes.GameOver):
    """The game is over: the last event of its last move."""

    status: Literal["finished", "aborted"] = public(
        "how the match ended: `finished` (played out) or `aborted` (the safety cap ended a round)")
    scores: tuple[int, ...] | None = public("counted points (one round) or the match totals")


EVENT_TYPES: tuple[type[EventType], ...] = (Played, Drew, Skipped, Passed, Reshuffled, Reset, RoundEnded, Dealt, Lot,
                                            GameOver)


def round_json(r: RoundSummary) -> RoundJSON:
    """A finished round as JSON (sections 9 and 12), for the result and the view."""
    return {
        "round": r.round,
        "reason": r.reason,
        "winner": r.winner,
        "winners": list(r.winners),
        "payers": list(r.payers),
        "hand_values": list(r.hand_values),
        "hands": [list(h) for h in r.hands],
        "breakdown": [hand_breakdown(h) for h in r.hands],
        "table": None if r.top is None else {"top": list(r.top) or None, "target": r.target,
                                             "pile_count": r.pile_count, "stock_count": r.stock_count},
    }


def hand_breakdown(hand: Sequence[str]) -> dict[str, int]:
    """How a hand counts at a round's end (section 9), per scoring item: number cards at face value,
    J/Q/K 12 each, aces 11 each; ``total`` is their sum (the seat's ``hand_values`` entry, 0 for the
    winner, whose hand is empty)."""
    numbers = faces = aces = 0
    for c in hand:
        r = rank_of(c)
        if r in NUMBER_RANKS:
            numbers += int(r)
        elif r in FACE_RANKS:
            faces += COUNT_VALUE[r]
        else:
            aces += COUNT_VALUE[r]
    return {"numbers": numbers, "faces": faces, "aces": aces, "total": numbers + faces + aces}
