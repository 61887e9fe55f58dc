"""The three moves of Sten (seeds/sten.md section 5): ``play``, ``stein`` and ``play_all``."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, ClassVar

from engines.cards import RANKS, standard_codes
from engines.core import Move

#: The codes of Sten's cards (seeds/sten.md section 1), and a field that holds one.
CARDS = standard_codes(RANKS, jokers=False, description=(
    "A card of Sten's one 52-card deck, as its code: the rank (`A`, `2` to `10`, `J`, `Q`, `K`), then the "
    "suit (`C` clubs, `D` diamonds, `H` hearts, `S` spades), e.g. `7H`, `10S`, `QD`. Every card exists "
    "once, so a code names one card. No jokers."))
Card = Annotated[str, CARDS]


@dataclass(frozen=True)
class Play(Move):
    """Place one card on the layout: from the mover's hand, or (policy ``open``) from the open
    remainder. A card exists once in the deck, so its code alone says where it comes from."""

    type: ClassVar[str] = "play"
    card: Card = field(
        metadata={"doc": "Code of the card to place, e.g. '8H'; taken from the hand, or from the open remainder."}
    )


@dataclass(frozen=True)
class Stein(Move):
    """Say "Stein" ("stone"): no card fits; the sayer takes the stone and the turn passes."""

    type: ClassVar[str] = "stein"


@dataclass(frozen=True)
class PlayAll(Move):
    """Declare that every hand card can be laid in one turn, in the order given.

    A failed declaration shows the others only the cards laid before the first that did not fit
    (seeds/sten.md section 9): the log shows each viewer the cards as the ``declared`` event does."""

    type: ClassVar[str] = "play_all"
    shown_by: ClassVar[tuple[str, tuple[str, ...]] | None] = ("declared", ("cards",))
    cards: tuple[Card, ...] = field(
        metadata={
            "doc": "Every card of the hand, each once, in the order they are laid (with option "
            "play_all_may_use_remainder also open-remainder cards that bridge gaps)."
        }
    )


MOVE_TYPES: tuple[type[Move], ...] = (Play, Stein, PlayAll)
