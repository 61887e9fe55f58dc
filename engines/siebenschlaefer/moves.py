"""The moves of Siebenschläfer (seeds/siebenschlaefer.md section 5): lay a pair, draw, pass."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, ClassVar

from engines.cards import RANKS, standard_codes
from engines.core import Move

#: The codes of Siebenschläfer's cards (seeds/siebenschlaefer.md section 1), and a field that holds one.
CARDS = standard_codes(RANKS, jokers=False, description=(
    "A card of Siebenschläfer's two 52-card decks, as its code: the rank (`A`, `2` to `10`, `J`, `Q`, `K`), "
    "then the suit (`C` clubs, `D` diamonds, `H` hearts, `S` spades), e.g. `6H`, `QC`. Equal cards of the "
    "two decks share a code, so a code may appear twice in a hand or a pair. No jokers."))
Card = Annotated[str, CARDS]


@dataclass(frozen=True)
class Play(Move):
    """Lay two cards from the hand that exceed the value on the table (or any legal pair when it is free)."""

    type: ClassVar[str] = "play"
    cards: tuple[Card, ...] = field(
        metadata={
            "doc": "Exactly two card codes from the mover's hand, in either order, e.g. ['6H', '7C']; "
            "the same code twice needs both copies in the hand (two decks)."
        }
    )


@dataclass(frozen=True)
class Draw(Move):
    """Draw two cards from the stock because no pair can be laid (then play if now able, else pass).

    The log shows everyone how many cards were drawn, and the drawer which ones, as the move's
    ``drew`` event does (section 13)."""

    type: ClassVar[str] = "draw"
    shown_by: ClassVar[tuple[str, tuple[str, ...]] | None] = ("drew", ("count", "cards"))


@dataclass(frozen=True)
class Pass(Move):
    """Pass after drawing (or when nothing is left to draw); the turn goes to the next player."""

    type: ClassVar[str] = "pass"


MOVE_TYPES: tuple[type[Move], ...] = (Play, Draw, Pass)
