"""The moves of Siebenschläfer (seeds/siebenschlaefer.md section 5): lay a pair, draw, pass."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from engines.core import Move


@dataclass(frozen=True)
class Play(Move):
    """Lay two cards from the hand that exceed the value on the table (or any legal pair when it is free)."""

    type: ClassVar[str] = "play"
    cards: tuple[str, ...] = field(
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
