"""The moves of Keine lahme Agame (seeds/keine-lahme-agame.md §3-§6): small frozen dataclasses with a
``type`` tag."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, ClassVar

from engines.cards import CardCodes
from engines.core import Move

from .cards import COLOURS, HAT, VALUES

#: The codes of the game's own cards (seeds/keine-lahme-agame.md §1), and a field that holds one.
CARDS = CardCodes(
    pattern=f"^({'|'.join(COLOURS)})-({'|'.join(str(v) for v in sorted(set(VALUES['H1'])))}|{HAT})$",
    description=(
        "A card of Keine lahme Agame, as its code `<colour>-<value>`, e.g. `red-13`, `blue-1`, `green-hat`. "
        "The colour is a seat's: `red` (seat 0), `yellow`, `green`, `blue`, `purple` (seat 4). The value is "
        "one of `1`, `2`, `3`, `5`, `8`, `13`, `21` (and `34` with card set H1) or `hat`, the hat, which beats "
        "every sum. A colour's two 1s share the code `<colour>-1`."))
Card = Annotated[str, CARDS]


def _doc(text: str) -> dict[str, str]:
    return {"doc": text}


@dataclass(frozen=True)
class Catch(Move):
    """Catch one card ("Fangen") and pay for it with one or two hand cards.

    Posted by the leader in phase ``lead`` it opens the catching round with his own catch.
    """

    type: ClassVar[str] = "catch"
    card: Card = field(metadata=_doc("the card caught, e.g. `blue-8`"))
    payment: tuple[Card, ...] = field(
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
    cards: tuple[Card, ...] = field(metadata=_doc("1 or 2 hand cards; the hat only alone"))


@dataclass(frozen=True)
class DiscardSingle(Move):
    """The leader whose hand is a single single-digit card puts it face up on the discard pile."""

    type: ClassVar[str] = "discard_single"
    card: Card = field(metadata=_doc("the leader's only hand card"))


@dataclass(frozen=True)
class Place(Move):
    """Option trick_placement=choose: the trick winner puts these won cards into his row."""

    type: ClassVar[str] = "place"
    cards: tuple[Card, ...] = field(metadata=_doc("won cards that fit the row (may be empty)"))


MOVE_TYPES: tuple[type[Move], ...] = (Catch, PassCatch, Trick, DiscardSingle, Place)
