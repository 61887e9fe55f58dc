"""The state of a game of Sten ("Stein"), a Sevens / Fan-Tan layout game with a loser's stone.

Rules as implemented: seeds/sten.md. The state is a value: frozen dataclasses of tuples, ints,
strs and bools, changed only by building a new one (``dataclasses.replace``).
"""

from __future__ import annotations

from dataclasses import dataclass

from engines.cards import RANK_VALUE, SUITS, code, rank_of, suit_of
from engines.sten.options import StenOptions

#: Rank number -> rank code (1 -> "A" ... 13 -> "K").
RANK_CODE: dict[int, str] = {v: r for r, v in RANK_VALUE.items()}

#: The card that opens the game (seeds/sten.md section 3).
OPENING_CARD = "7H"


@dataclass(frozen=True)
class StenState:
    """One game of Sten.

    ``low``/``high`` hold, per suit in ``SUITS`` order (C, D, H, S), the lowest and highest
    rank placed on the layout; 0/0 means the suit's 7 is not on the table yet. A suit's placed
    cards are always the contiguous ranks ``low..high`` (they contain 7).
    """

    players: int
    options: StenOptions
    hands: tuple[tuple[str, ...], ...]  # per seat, sorted (engines.cards.sort_cards)
    remainder: tuple[str, ...]  # the open (face-up) remainder, sorted; policy "open" only
    dead: tuple[str, ...]  # face-down cards out of play; policy "dead" only
    low: tuple[int, ...]
    high: tuple[int, ...]
    current: int  # the seat to move while the game runs
    opening: bool  # the 7H holder has still to open the game
    stone: int | None  # who holds the stone (None: it still lies in the middle)
    stone_before: int | None  # who held it before the current holder took it
    turn: int  # completed turns
    failed_play_all: bool  # the seat to move already failed a declaration this turn
    winner: int | None
    end: str | None  # None while running; "empty_hand" | "play_all" | "stalled" | "max_turns"

    @property
    def over(self) -> bool:
        return self.end is not None


def suit_index(card: str) -> int:
    """Index of a card's suit in ``SUITS``."""
    s = suit_of(card)
    assert s is not None, card
    return SUITS.index(s)


def fits(card: str, low: tuple[int, ...], high: tuple[int, ...]) -> bool:
    """Whether ``card`` may be placed on the layout now (seeds/sten.md section 4).

    A 7 opens its suit when that suit is not on the table yet; otherwise a card fits when it
    is one rank above the upper stack or one rank below the lower stack of its (opened) suit.
    """
    i = suit_index(card)
    r = RANK_VALUE[rank_of(card)]
    if low[i] == 0:
        return r == 7
    return r == high[i] + 1 or r == low[i] - 1


def place(card: str, low: tuple[int, ...], high: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The layout after placing ``card``, which must fit."""
    assert fits(card, low, high), card
    i = suit_index(card)
    r = RANK_VALUE[rank_of(card)]
    lo, hi = list(low), list(high)
    if lo[i] == 0:
        lo[i] = hi[i] = 7
    elif r == hi[i] + 1:
        hi[i] = r
    else:
        lo[i] = r
    return tuple(lo), tuple(hi)


def next_cards(low: tuple[int, ...], high: tuple[int, ...]) -> tuple[str, ...]:
    """Every card that fits the layout now: per suit its 7, or the cards just above and below."""
    out: list[str] = []
    for i, s in enumerate(SUITS):
        if low[i] == 0:
            out.append(code("7", s))
            continue
        if low[i] > 1:
            out.append(code(RANK_CODE[low[i] - 1], s))
        if high[i] < 13:
            out.append(code(RANK_CODE[high[i] + 1], s))
    return tuple(out)
