"""The moves of Keine lahme Agame (seeds/keine-lahme-agame.md §3-§6): small frozen dataclasses with a
``type`` tag."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from engines.core import Move


def _doc(text: str) -> dict[str, str]:
    return {"doc": text}


@dataclass(frozen=True)
class Catch(Move):
    """Catch one card ("Fangen") and pay for it with one or two hand cards.

    Posted by the leader in phase ``lead`` it opens the catching round with his own catch.
    """

    type: ClassVar[str] = "catch"
    card: str = field(metadata=_doc("the card caught, e.g. `blue-8`"))
    payment: tuple[str, ...] = field(
        metadata=_doc("1 or 2 hand cards with total value at least the caught card's; put on the pile in this order")
    )
    from_seat: int | None = field(
        default=None,
        metadata=_doc("the seat whose display the card is caught from; null = the top of the discard pile"),
    )


@dataclass(frozen=True)
class PassCatch(Move):
    """Do not catch in this catching round ("müssen das aber nicht tun")."""

    type: ClassVar[str] = "pass_catch"


@dataclass(frozen=True)
class Trick(Move):
    """Play one or two cards to the trick ("Stich"); as leader this leads it."""

    type: ClassVar[str] = "trick"
    cards: tuple[str, ...] = field(metadata=_doc("1 or 2 hand cards; the hat only alone"))


@dataclass(frozen=True)
class DiscardSingle(Move):
    """The leader whose hand is a single single-digit card puts it face up on the discard pile."""

    type: ClassVar[str] = "discard_single"
    card: str = field(metadata=_doc("the leader's only hand card"))


@dataclass(frozen=True)
class Place(Move):
    """Option trick_placement=choose: the trick winner puts these won cards into his row."""

    type: ClassVar[str] = "place"
    cards: tuple[str, ...] = field(metadata=_doc("won cards that fit the row (may be empty)"))


MOVE_TYPES: tuple[type[Move], ...] = (Catch, PassCatch, Trick, DiscardSingle, Place)
