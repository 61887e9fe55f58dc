"""What a move of Siebenschläfer causes, as events (seeds/siebenschlaefer.md section 16).

Builders of the events the rules emit while they apply a move, and the JSON form of a finished round
shared by the ``round_ended`` event, the view's ``last_round`` and the result. Every pair is laid face up, so
almost everything is public: the cards a seat draws are shown only to it (everyone else sees how
many), and a new round's hands each only to its holder.
"""

from __future__ import annotations

from collections.abc import Sequence

from engines.cards import rank_of
from engines.core import JSON, Event

from .state import COUNT_VALUE, FACE_RANKS, NUMBER_RANKS, RoundSummary


def played(seat: int, pair: Sequence[str], value: int | None) -> Event:
    """A pair laid face up (sections 4, 5), and the value it sets (None: a pair of aces frees the table)."""
    return Event("played", {"seat": seat, "cards": list(pair), "value": value})


def drew(seat: int, cards: Sequence[str], reason: str) -> Event:
    """``seat`` drew ``cards`` (sorted): by the move ``draw`` or because of a 7 (``seven``, section 6)."""
    return Event("drew", {"seat": seat, "count": len(cards), "reason": reason}, {seat: {"cards": list(cards)}})


def skipped(seat: int) -> Event:
    """A single 7: ``seat`` misses this turn (section 6)."""
    return Event("skipped", {"seat": seat})


def passed(seat: int) -> Event:
    """``seat`` passed (section 5)."""
    return Event("passed", {"seat": seat})


def reshuffled(count: int) -> Event:
    """The played pile under its top pair (``count`` cards) became the new stock (section 8)."""
    return Event("reshuffled", {"count": count})


def reset(cards: Sequence[str], value: int | None) -> Event:
    """Everybody passed: ``cards`` were flipped from the stock, the last two the new start value (section 7)."""
    return Event("reset", {"cards": list(cards), "value": value})


def round_ended(summary: RoundSummary, totals: Sequence[int], paid: Sequence[int]) -> Event:
    """A round ended (sections 9, 12): the hands laid open, the table, the count and the match so far."""
    return Event("round_ended", {**round_json(summary), "totals": list(totals), "paid": list(paid)})


def dealt(round_index: int, opener: int, hands: Sequence[Sequence[str]], stock_count: int) -> Event:
    """Round ``round_index + 1`` was dealt (sections 2, 3, 11): each seat sees only its own new hand."""
    return Event("dealt", {"round": round_index + 1, "opener": opener, "hand_counts": [len(h) for h in hands],
                           "stock_count": stock_count},
                 {s: {"cards": list(h)} for s, h in enumerate(hands)})


def lot(seat: int, card: str) -> Event:
    """A card drawn face up in the lot for the opener (section 3)."""
    return Event("lot", {"seat": seat, "card": card})


def round_json(r: RoundSummary) -> dict[str, JSON]:
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
