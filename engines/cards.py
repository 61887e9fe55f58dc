"""Standard cards, their codes, decks, and the one seeded shuffle every game uses.

Card codes are rank then suit (``7H``, ``10S``, ``QD``, ``AC``); a joker is ``JK``.
Equal cards of several decks have equal codes, so hands and piles are tuples of codes.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TypeVar

T = TypeVar("T")

RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS: tuple[str, ...] = ("C", "D", "H", "S")
JOKER = "JK"

#: Rank code -> number, ace low (A=1 ... K=13).
RANK_VALUE: dict[str, int] = {r: i + 1 for i, r in enumerate(RANKS)}
SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}


@dataclass(frozen=True)
class CardCodes:
    """The card codes of one game, as its wire documents them: a regular expression every code of the
    game matches (``pattern``) and what its ranks, suits and jokers are (``description``).

    A game marks each text field of its moves and events that holds one of its cards as
    ``Annotated[str, CARDS]`` (its ``Card``); the wire schemas then name the game's card schema
    (``<Game>Card``) for that field."""

    pattern: str
    description: str = field(repr=False)


def standard_codes(ranks: Sequence[str], jokers: bool, description: str) -> CardCodes:
    """The codes of a game played with standard cards of ``ranks`` in the four suits (and ``JK``
    when it has jokers): ``description`` says what the game's deck is."""
    cards = f"({'|'.join(ranks)})[{''.join(SUITS)}]"
    return CardCodes(f"^({cards}|{JOKER})$" if jokers else f"^{cards}$", description)


def code(rank: str, suit: str) -> str:
    return f"{rank}{suit}"


def rank_of(card: str) -> str:
    """Rank part of a code (``10H`` -> ``10``); a joker's rank is ``JK``."""
    return card if card == JOKER else card[:-1]


def suit_of(card: str) -> str | None:
    """Suit part of a code; None for a joker."""
    return None if card == JOKER else card[-1]


#: Every well-formed code: the 52 standard cards and the joker.
CODES: frozenset[str] = frozenset([*(code(r, s) for s in SUITS for r in RANKS), JOKER])


def is_card(card: object) -> bool:
    """True for a well-formed standard code or ``JK``."""
    return isinstance(card, str) and card in CODES


def standard_deck(ranks: Sequence[str] = RANKS, jokers: int = 0) -> tuple[str, ...]:
    """One deck in a fixed order: suits C, D, H, S, each in ``ranks`` order, then jokers."""
    return tuple(code(r, s) for s in SUITS for r in ranks) + (JOKER,) * jokers


def shuffled(items: Sequence[T], seed: str, purpose: str) -> tuple[T, ...]:
    """Fisher-Yates shuffle of ``items`` driven by ``Random(f"{seed}/{purpose}").random()``.

    Only ``random()`` is promised stable across Python versions (not ``shuffle``), so the
    swap indices are derived from it here. ``purpose`` names the draw ("deal",
    "reshuffle/3", ...) so that independent draws from one seed never correlate.
    """
    rng = random.Random(f"{seed}/{purpose}")
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = int(rng.random() * (i + 1))
        out[i], out[j] = out[j], out[i]
    return tuple(out)


def remove_cards(hand: Sequence[str], cards: Sequence[str]) -> tuple[str, ...] | None:
    """``hand`` minus one copy of each of ``cards`` (multiset), or None if any is missing."""
    rest = list(hand)
    for c in cards:
        try:
            rest.remove(c)
        except ValueError:
            return None
    return tuple(rest)


def sort_cards(cards: Sequence[str]) -> tuple[str, ...]:
    """A stable display order: by suit (C, D, H, S, joker last), then rank A..K."""

    def key(c: str) -> tuple[int, int]:
        s = suit_of(c)
        return (SUITS.index(s) if s else 4, RANK_VALUE.get(rank_of(c), 0))

    return tuple(sorted(cards, key=key))
