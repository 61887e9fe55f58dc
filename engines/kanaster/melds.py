"""Cards, card points and meld validation of Kanaster (seeds/kanaster.md sections 2 and 6).

Wild cards are the jokers and all 2s. A meld is three or more cards of one natural rank (4 to
ace) with strictly fewer wild cards than natural cards ("Es dürfen nie gleichviel oder mehr
Joker sein als normale Spielkarten"); black 3s form a meld of their own only when going out.
A canasta ("Kanaster") is a meld of seven or more cards; natural ("echt") without wild cards.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engines.cards import JOKER, SUITS, rank_of
from engines.core import IllegalMove

from .state import Meld

#: Ranks that can be melded naturally, low to high.
NATURAL_RANKS: tuple[str, ...] = ("4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
_NATURAL = frozenset(NATURAL_RANKS)
RED_THREES = frozenset({"3D", "3H"})
BLACK_THREES = frozenset({"3C", "3S"})
BLACK_THREE_RANK = "3"
CANASTA_SIZE = 7
#: The fewest cards of a new meld.
MELD_SIZE = 3
RED_THREE_VALUE = 100

#: The card table the original rules refer to but leave out ("gemäss obiger Tabelle"): the standard
#: canasta values, seeds/kanaster.md section 2.
POINTS: dict[str, int] = {
    JOKER: 50, "2": 20, "A": 20,
    "K": 10, "Q": 10, "J": 10, "10": 10, "9": 10, "8": 10,
    "7": 5, "6": 5, "5": 5, "4": 5,
    "3": 5,  # black 3s only; red 3s are never counted as cards
}

_ORDER = {r: i for i, r in enumerate(("3", *NATURAL_RANKS, "2", JOKER))}
_SUIT = {s: i for i, s in enumerate(SUITS)}

# Every card's facts, looked up once per card code: the listing of legal moves asks them of each
# card of each candidate, many thousand times a second (a lookup, not a string slice and a call).
_CODES: tuple[str, ...] = (*(f"{r}{s}" for r in ("A", "2", "3", *NATURAL_RANKS[:-1]) for s in SUITS), JOKER)
#: code -> its display key as one int (rank, then suit), for ``sort_hand``
_SORT_KEY: dict[str, int] = {c: 5 * _ORDER[rank_of(c)] + (0 if c == JOKER else _SUIT[c[-1]]) for c in _CODES}
_WILD = frozenset(c for c in _CODES if c == JOKER or rank_of(c) == "2")
_NATURAL_RANK: dict[str, str] = {c: rank_of(c) for c in _CODES if rank_of(c) in _NATURAL}
class _Ranks(dict[str, str]):
    """code -> rank, for every code (``rank_of`` works out one that is no card)."""

    def __missing__(self, card: str) -> str:
        return rank_of(card)


_RANK_OF = _Ranks({c: rank_of(c) for c in _CODES})
#: code -> card points (red 3s have none: they are bonus cards)
_POINTS: dict[str, int] = {c: POINTS[rank_of(c)] for c in _CODES if c not in RED_THREES}


def hand_order(card: str) -> tuple[int, int]:
    """Display order of a hand: by rank 3, 4 .. K, A, then 2s and jokers; then suit."""
    if card == JOKER:
        return (_ORDER[JOKER], 0)
    return (_ORDER[card[:-1]], _SUIT[card[-1]])


def sort_hand(cards: Iterable[str]) -> tuple[str, ...]:
    """``cards`` in ``hand_order``."""
    return tuple(sorted(cards, key=_SORT_KEY.__getitem__))


def is_wild(card: str) -> bool:
    """Jokers and 2s are wild (the cut rule names them together: "2er oder Joker")."""
    return card in _WILD


def is_red_three(card: str) -> bool:
    return card in RED_THREES


def is_black_three(card: str) -> bool:
    return card in BLACK_THREES


def natural_rank(card: str) -> str | None:
    """The rank of a card that can be melded naturally (4 .. ace), else None."""
    return _NATURAL_RANK.get(card)


def card_points(card: str) -> int:
    """Card points per the table (section 2); a red 3 is a bonus card, never counted here."""
    assert card not in RED_THREES, card
    return _POINTS[card]


def points(cards: Iterable[str]) -> int:
    try:
        return sum(map(_POINTS.__getitem__, cards))
    except KeyError:  # a red 3 (or no card at all): card_points says which
        for c in cards:
            card_points(c)
        raise


def wild_count(cards: Iterable[str]) -> int:
    return sum(map(_WILD.__contains__, cards))


def is_canasta(meld: Meld) -> bool:
    """Seven or more cards (tucked cards do not count, section 7)."""
    return len(meld.cards) >= CANASTA_SIZE


def is_natural(meld: Meld) -> bool:
    """A natural ("echter") meld has never held a wild card; cards never leave a meld, so this
    is whether it holds one now."""
    return _WILD.isdisjoint(meld.cards)


#: code -> its rank for a natural card (4 .. ace), ``_ANY`` for a wild card (``meld_rank``'s short way)
_ANY = "*"
_MELDS_AS: dict[str, str] = {**_NATURAL_RANK, **dict.fromkeys(_WILD, _ANY)}


def meld_rank(cards: Sequence[str]) -> str:
    """Validate the cards of a new meld and return its rank (section 6).

    Three or more cards; red 3s never; black 3s only among themselves, without wild cards
    (whether they may be melded now is the caller's question); otherwise exactly one natural
    rank and strictly fewer wild cards than natural cards.
    """
    # The short way, for three or more naturals of one rank (4 .. ace) and wild cards only: the
    # listing of legal moves checks dozens of such melds per candidate. Any other cards go the
    # long way, which finds the first reason to refuse them.
    kinds = set(map(_MELDS_AS.get, cards))
    kinds.discard(_ANY)
    if len(kinds) == 1 and len(cards) >= MELD_SIZE:
        (rank,) = kinds
        if rank is not None:
            wild = sum(map(_WILD.__contains__, cards))
            if 2 * wild >= len(cards):
                raise IllegalMove("too_many_wild_cards", "a meld needs strictly more natural than wild cards")
            return rank
    if len(cards) < MELD_SIZE:
        raise IllegalMove("meld_too_small", "a meld needs at least three cards")
    if not RED_THREES.isdisjoint(cards):
        raise IllegalMove("red_three_not_meldable", "red 3s are laid out, never melded")
    if not BLACK_THREES.isdisjoint(cards):
        if not BLACK_THREES.issuperset(cards):
            raise IllegalMove("black_threes_alone", "black 3s can only be melded among themselves, without wild cards")
        return BLACK_THREE_RANK
    naturals = [c for c in cards if c not in _WILD]
    ranks = {_RANK_OF[c] for c in naturals}
    wild = len(cards) - len(naturals)
    if not ranks:
        raise IllegalMove("no_natural_card", "a meld needs natural cards")
    if len(ranks) > 1:
        raise IllegalMove("mixed_ranks", "all natural cards of a meld must have one rank")
    if wild >= len(cards) - wild:
        raise IllegalMove("too_many_wild_cards", "a meld needs strictly more natural than wild cards")
    (rank,) = ranks
    return rank


def lay_off_size(meld: Meld, cards: Sequence[str]) -> int:
    """Check adding ``cards`` to ``meld`` (section 6): natural cards of its rank or wild cards
    (black 3s onto black 3s only), still strictly fewer wild than natural cards; the meld's size
    after it."""
    if not cards:
        raise IllegalMove("no_cards", "name at least one card")
    black = meld.rank == BLACK_THREE_RANK
    for c in cards:
        if c in RED_THREES:
            raise IllegalMove("red_three_not_meldable", "red 3s are laid out, never melded")
        if black:
            if c not in BLACK_THREES:
                raise IllegalMove("card_does_not_fit", "only black 3s go onto a meld of black 3s")
        elif c not in _WILD and rank_of(c) != meld.rank:
            raise IllegalMove("card_does_not_fit", "a card does not match the meld's rank")
    size = len(meld.cards) + len(cards)
    wild = wild_count(meld.cards) + wild_count(cards)
    if wild >= size - wild:
        raise IllegalMove("too_many_wild_cards", "a meld needs strictly more natural than wild cards")
    return size


def lay_off(meld: Meld, cards: Sequence[str]) -> tuple[str, ...]:
    """The cards of ``meld`` after adding ``cards``, checked (``lay_off_size``)."""
    lay_off_size(meld, cards)
    return sort_hand(meld.cards + tuple(cards))


#: The card counts of the last hand asked about (``held_without``): the listing checks its candidates
#: against one hand; a hand's tuple is never changed, and the one kept here cannot be collected
#: meanwhile, so its identity is enough.
_counted: tuple[Sequence[str], dict[str, int]] = ((), {})


def held_without(hand: Sequence[str], cards: Sequence[str]) -> int:
    """How many cards ``hand`` keeps without ``cards`` (a multiset), or IllegalMove("card_not_in_hand")
    (``take`` without building the hand)."""
    global _counted
    seen = _counted
    if seen[0] is not hand:
        counts: dict[str, int] = {}
        for c in hand:
            counts[c] = counts.get(c, 0) + 1
        seen = _counted = (hand, counts)
    have = seen[1]
    if len(cards) < 8:  # a lay-off, a discard, a small meld: counting each card again is cheapest
        for c in cards:
            if have.get(c, 0) < cards.count(c):
                take(hand, cards)  # names the first card missing, as it does
    else:  # a large candidate of the listing (fifty cards from a long match's hand): count once
        need: dict[str, int] = {}
        for c in cards:
            need[c] = need.get(c, 0) + 1
        for c, n in need.items():
            if have.get(c, 0) < n:
                take(hand, cards)
    return len(hand) - len(cards)


def take(hand: Sequence[str], cards: Iterable[str]) -> tuple[str, ...]:
    """``hand`` without ``cards`` (a multiset), or IllegalMove("card_not_in_hand")."""
    rest = list(hand)
    for c in cards:
        try:
            rest.remove(c)
        except ValueError:
            raise IllegalMove("card_not_in_hand", f"{c} is not in your hand (often enough)") from None
    return sort_hand(rest)
