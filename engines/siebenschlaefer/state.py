"""The state of Siebenschläfer, a pub shedding game where every play is a pair.

Rules as implemented, and every ruling with its reason: seeds/siebenschlaefer.md (section numbers
below refer to it).
The state is a value: frozen dataclasses of tuples, ints, strs and bools, changed only by
building a new one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engines.cards import RANK_VALUE, SUITS, rank_of, standard_deck
from engines.core import Event

from .options import Settings

#: Two 52-card decks, no jokers (section 1): 104 cards, every code twice.
FULL_DECK: tuple[str, ...] = standard_deck() * 2
HAND_SIZE = 10  # section 2: "an jeden Mitspieler 10 Karten"

#: Number cards 2..10 (face value); "Bildkarten" J/Q/K double a number; aces only pair with aces.
NUMBER_RANKS = frozenset({"2", "3", "4", "5", "6", "7", "8", "9", "10"})
FACE_RANKS = frozenset({"J", "Q", "K"})
ACE = "A"
SEVEN = "7"

#: End-of-round count (section 9, seed "Anmerkung"): J/Q/K 12, A 11, numbers face value.
COUNT_VALUE: dict[str, int] = {r: (int(r) if r in NUMBER_RANKS else 12) for r in RANK_VALUE} | {ACE: 11}

#: A pair of aces: "the next player may lay any value" -- its value is no number.
ACES = -1

#: Aces in the two decks: they leave a hand only as a pair of aces (section 12's stall).
ACE_COUNT = sum(rank_of(c) == "A" for c in FULL_DECK)


def card_key(card: str) -> tuple[int, int]:
    """Canonical order of cards: rank A, 2 ... 10, J, Q, K, then suit C, D, H, S."""
    return (RANK_VALUE[rank_of(card)], SUITS.index(card[-1]))


#: ``card_key`` of every card, looked up: every move sorts every hand (``sort_hand``).
_KEYS: dict[str, tuple[int, int]] = {c: card_key(c) for c in standard_deck()}


def sort_hand(cards: Sequence[str]) -> tuple[str, ...]:
    """A hand (or pair) in canonical order, so that equal multisets are equal tuples."""
    return tuple(sorted(cards, key=_KEYS.__getitem__))


def pair_value(a: str, b: str) -> int | str:
    """The value of laying ``a`` and ``b`` together (section 4), or the reason it is no pair.

    number + number = sum; face + number = 2 x number; ace + ace = ``ACES`` (frees the table);
    an ace with any other card and two face cards are refused.
    """
    ra, rb = rank_of(a), rank_of(b)
    if ra == ACE or rb == ACE:
        return ACES if ra == rb else "ace_with_other_card"
    a_face, b_face = ra in FACE_RANKS, rb in FACE_RANKS
    if a_face and b_face:
        return "two_face_cards"
    if a_face:
        return 2 * int(rb)
    if b_face:
        return 2 * int(ra)
    return int(ra) + int(rb)


def count_value(hand: tuple[str, ...]) -> int:
    """The points left in a hand at the end of a round (section 9)."""
    return sum(COUNT_VALUE[rank_of(c)] for c in hand)


@dataclass(frozen=True)
class RoundSummary:
    """A finished round: who went out (or that it stalled), the counted hands, who pays (sections 9, 12)."""

    round: int  # 1-based
    winner: int | None  # the seat that went out; None when the round stalled
    payers: tuple[int, ...]
    hand_values: tuple[int, ...]  # per seat; the winner's is 0
    hands: tuple[tuple[str, ...], ...]  # the hands laid open for counting
    reason: str = "went_out"  # "went_out" | "stalled" (section 12)
    winners: tuple[int, ...] = ()  # (winner,) when went out; the fewest points when stalled
    # the table as the round ended (section 16; None: ended before snapshot format 3 kept it)
    top: tuple[str, ...] | None = None  # the pile's top pair (the winning pair when one went out); () if empty
    target: int | None = None  # the value to beat then (None: free)
    pile_count: int | None = None
    stock_count: int | None = None


@dataclass(frozen=True)
class State:
    """One match of Siebenschläfer (one or more rounds, section 11).

    ``pile`` is the played pile bottom first: its last two cards are the top pair.
    ``target`` is the value to exceed, or None when the table is free (round start, after a
    pair of aces, or a start value that could not be flipped). ``has_drawn`` says the seat to move
    has drawn this turn (possibly fewer than two cards); which cards, only its ``drew`` event in
    ``events`` tells (to that seat). ``events`` are what the last move caused, as the log shows them
    (section 16; the deal's for a game no move has been made in), without the closing ``game_over``.
    """

    players: int
    settings: Settings
    seed: str
    round: int  # 0-based index of the round being played
    hands: tuple[tuple[str, ...], ...]  # per seat, canonical order (sort_hand)
    stock: tuple[str, ...]  # face down, top first
    pile: tuple[str, ...]
    top_kind: str  # "none" (empty pile), "play" or "start" (a flipped start value)
    target: int | None
    current: int
    has_drawn: bool
    passes: int  # consecutive passes since the last play or reset
    reshuffles: int  # counter for the purpose of the next pile reshuffle
    opener: int
    lots: tuple[tuple[int, str], ...]  # this round's lot draws: (seat, card), in order
    moves: int  # moves applied in this round (safety cap, section 12)
    totals: tuple[int, ...]  # counted points over the finished rounds
    paid: tuple[int, ...]  # rounds each seat had to pay
    history: tuple[RoundSummary, ...]
    events: tuple[Event, ...]  # what the last move caused (section 16)
    status: str  # "active", "finished" or "aborted"

    @property
    def over(self) -> bool:
        return self.status != "active"
