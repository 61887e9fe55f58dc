"""The moves of Conquian (seeds/conquian.md 4): small frozen dataclasses with a ``type`` tag."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Any, ClassVar

from engines.cards import standard_codes
from engines.core import Move

from .melds import ORDER

#: The codes of Conquian's cards (seeds/conquian.md 1), and a field that holds one.
CARDS = standard_codes(ORDER, jokers=False, description=(
    "A card of Conquian's 40-card deck, as its code: the rank (`A`, `2` to `7`, `J`, `Q`, `K`: no 8, 9 or "
    "10), then the suit (`C` clubs, `D` diamonds, `H` hearts, `S` spades), e.g. `7H`, `JS`. In a sequence "
    "the 7 and the jack are neighbours and the ace is low only. Every card exists once. No jokers."))
Card = Annotated[str, CARDS]


def _move_field(doc: str) -> Any:
    return field(metadata={"doc": doc})


@dataclass(frozen=True)
class ConquianDraw(Move):
    """Turn the top stock card face up (phase ``choose``); the offered card, if any, is buried."""

    type: ClassVar[str] = "draw"


@dataclass(frozen=True)
class ConquianMeld(Move):
    """Meld: the player's complete new set of melds (phases ``choose``, ``turned``, ``forced``).

    It must hold every card already melded, the card to be melded (the offered card in ``choose``,
    the face-up card in ``turned``/``forced``) and otherwise only hand cards; every meld must be a
    valid group or sequence. The melds and the cards within them may be given in any order.
    """

    type: ClassVar[str] = "meld"
    melds: tuple[tuple[Card, ...], ...] = _move_field(
        "The player's complete new melds: a list of melds, each a list of card codes. It contains all"
        " previously melded cards (rearranged as wished), the offered or face-up card, and any hand cards"
        " melded with it."
    )


@dataclass(frozen=True)
class ConquianReject(Move):
    """Reject the turned card (phase ``turned``): it becomes the card offered to the opponent."""

    type: ClassVar[str] = "reject"


@dataclass(frozen=True)
class ConquianDiscard(Move):
    """Discard a hand card after melding (phase ``discard``): it is offered to the opponent."""

    type: ClassVar[str] = "discard"
    card: Card = _move_field("The hand card to discard.")


@dataclass(frozen=True)
class ConquianPass(Move):
    """Decline the offered card when the stock is empty (phase ``choose``): the deal is drawn."""

    type: ClassVar[str] = "pass"


@dataclass(frozen=True)
class ConquianForce(Move):
    """Force the opponent to add the card to his melds and discard (phases ``force_offer``/``force_reject``)."""

    type: ClassVar[str] = "force"


@dataclass(frozen=True)
class ConquianDeclineForce(Move):
    """Do not force (phases ``force_offer``/``force_reject``)."""

    type: ClassVar[str] = "decline_force"


MOVE_TYPES: tuple[type[Move], ...] = (
    ConquianDraw,
    ConquianMeld,
    ConquianReject,
    ConquianDiscard,
    ConquianPass,
    ConquianForce,
    ConquianDeclineForce,
)
