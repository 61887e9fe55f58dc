"""The moves of Kanaster (seeds/kanaster.md section 5).

A turn is: ``draw`` (from the talon) or ``take_pile`` / ``take_pile_lay_off`` (the pile, its top
card melded at once); then any number of ``meld``, ``lay_off`` and (after taking the pile)
``tuck``; then one ``discard``. With the talon empty, ``end_hand`` declines the pile and ends
the hand. Red 3s are laid out by the engine itself, never by a move.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, ClassVar

from engines.cards import RANKS, standard_codes
from engines.core import Move

#: The codes of Kanaster's cards (seeds/kanaster.md section 1), and a field that holds one.
CARDS = standard_codes(RANKS, jokers=True, description=(
    "A card of Kanaster's packs, as its code: the rank (`A`, `2` to `10`, `J`, `Q`, `K`), then the suit "
    "(`C` clubs, `D` diamonds, `H` hearts, `S` spades), e.g. `KH`, `10S`; a joker is `JK`. A match plays "
    "with several 52-card packs and their jokers (options `decks` and `jokers_per_deck`), so equal cards "
    "share a code and a code may repeat in a hand or a meld. Jokers and 2s are wild; the red 3s (`3D`, "
    "`3H`) are laid out, never melded; the black 3s (`3C`, `3S`) block the pile."))
Card = Annotated[str, CARDS]


@dataclass(frozen=True)
class Draw(Move):
    """Take the top card of the talon into the hand (a red 3 is laid out and replaced at once)."""

    type: ClassVar[str] = "draw"


@dataclass(frozen=True)
class TakePile(Move):
    """Take the discard pile: its top card goes into a new meld with at least two hand cards
    (plus, for a first meld, any further new melds from the hand to reach the minimum);
    the rest of the pile goes into the hand."""

    type: ClassVar[str] = "take_pile"
    melds: tuple[tuple[Card, ...], ...] = field(
        metadata={
            "doc": "New melds, each a list of card codes; one of them contains the pile's top card "
            "(listed by its code, taken from the pile), all other cards come from the hand."
        }
    )


@dataclass(frozen=True)
class TakePileLayOff(Move):
    """Take the discard pile by laying its top card onto one of the mover's own melds."""

    type: ClassVar[str] = "take_pile_lay_off"
    meld: int = field(metadata={"doc": "Id of the mover's meld (same rank as the top card)."})


@dataclass(frozen=True)
class MeldCards(Move):
    """Lay out new melds from the hand; a first meld of the hand is one such move and must reach
    the minimum count."""

    type: ClassVar[str] = "meld"
    melds: tuple[tuple[Card, ...], ...] = field(metadata={"doc": "New melds, each a list of hand card codes."})


@dataclass(frozen=True)
class LayOff(Move):
    """Add hand cards to one of the mover's own melds."""

    type: ClassVar[str] = "lay_off"
    meld: int = field(metadata={"doc": "Id of the mover's meld."})
    cards: tuple[Card, ...] = field(metadata={"doc": "Hand cards to add: its rank or wild cards."})


@dataclass(frozen=True)
class Tuck(Move):
    """Tuck blocking cards taken with the pile this turn under a canasta of their rank
    (no effect on the game; seeds/kanaster.md section 7)."""

    type: ClassVar[str] = "tuck"
    meld: int = field(metadata={"doc": "Id of a canasta of the cards' rank."})
    cards: tuple[Card, ...] = field(metadata={"doc": "Natural cards of that rank that came with the pile."})


@dataclass(frozen=True)
class Discard(Move):
    """Discard one hand card onto the pile; ends the turn (the last card: going out)."""

    type: ClassVar[str] = "discard"
    card: Card = field(metadata={"doc": "Code of the hand card to discard."})


@dataclass(frozen=True)
class EndHand(Move):
    """With the talon empty: do not take the pile; the hand ends without a winner."""

    type: ClassVar[str] = "end_hand"


MOVE_TYPES: tuple[type[Move], ...] = (Draw, TakePile, TakePileLayOff, MeldCards, LayOff, Tuck, Discard, EndHand)
