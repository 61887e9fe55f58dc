"""What a move of Sten ("Stein") causes, as events (seeds/sten.md section 13).

Everything in Sten happens face up, so every event is public, but for one: a failed play-all
declaration shows the others only the cards laid before the first that did not fit, and the
declarer his whole list (section 9).
"""

from __future__ import annotations

from collections.abc import Sequence

from engines.core import JSON, Event


def played(seat: int, card: str, from_hand: bool) -> Event:
    """A card placed on the layout, from the hand or the open remainder (section 5.1)."""
    return Event("played", {"seat": seat, "card": card, "source": "hand" if from_hand else "remainder"})


def passed(seat: int) -> Event:
    """The seat said "Stein" (section 5.2)."""
    return Event("passed", {"seat": seat})


def declared(seat: int, laid: Sequence[str], success: bool, declared_cards: Sequence[str] = ()) -> Event:
    """A play-all declaration (section 6): the cards laid (all of them in their order on success;
    on failure those laid before the mistake), and to the declarer, on failure, his whole list."""
    private = {} if success else {seat: {"cards": list(declared_cards)}}
    return Event("declared", {"seat": seat, "success": success, "cards": list(laid)}, private)


def took_stone(seat: int, previous: int | None) -> Event:
    """The stone changed hands (section 5.2)."""
    return Event("took_stone", {"seat": seat, "previous_holder": previous})


def deal_ended(summary: dict[str, JSON]) -> Event:
    """The game ended: the hands laid open and the reckoning (section 13, ``rules.ended_summary``)."""
    return Event("deal_ended", summary)
