"""Conquian's cards and combinations ("Sortierungen"): ranks, groups, sequences, arrangements.

Rules: seeds/conquian.md sections 1 and 3. The deck is the 52-card deck without 8, 9 and 10; in a
sequence the 7 and the jack are neighbours and the ace is low only (A-2-3 and 6-7-J are sequences,
Q-K-A and K-A-2 are not). A player's melds ("arrangement") are a set of disjoint valid combinations.

Everything here is a pure function of card codes; the engine's rules call it to validate a
submitted arrangement and to build the listed meld moves.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from functools import lru_cache
from itertools import combinations

from engines.cards import SUITS, rank_of, standard_deck, suit_of

#: The sequence order of the ten ranks: 7 and J are adjacent, the ace is low only (seeds/conquian.md 1).
ORDER: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "J", "Q", "K")
RANK_INDEX: dict[str, int] = {r: i for i, r in enumerate(ORDER)}
SUIT_INDEX: dict[str, int] = {s: i for i, s in enumerate(SUITS)}

#: The 40-card deck in a fixed order (suits C, D, H, S; ranks in ORDER).
DECK: tuple[str, ...] = standard_deck(ORDER)
CARDS: frozenset[str] = frozenset(DECK)

Meld = tuple[str, ...]
Arrangement = tuple[Meld, ...]

GROUP = "group"
SEQUENCE = "sequence"


def card_key(card: str) -> tuple[int, int]:
    """Sort key: rank in sequence order, then suit."""
    return RANK_INDEX[rank_of(card)], SUIT_INDEX[card[-1]]  # no joker in Conquian: the suit is the last letter


def sort_hand(cards: Iterable[str]) -> tuple[str, ...]:
    """A hand in display order: suit, then rank in sequence order (so runs sit together)."""
    return tuple(sorted(cards, key=lambda c: (SUIT_INDEX[c[-1]], RANK_INDEX[c[:-1]])))


def meld_kind(cards: Sequence[str], max_sequence_len: int | None = None) -> str | None:
    """``group``, ``sequence`` or None for a set of distinct Conquian cards (seeds/conquian.md 3).

    A group is 3 or 4 cards of one rank; a sequence is 3 or more cards of one suit whose ranks are
    consecutive in ORDER (at most ``max_sequence_len`` cards when that option is set).
    """
    n = len(cards)
    if n < 3 or len(set(cards)) != n:
        return None
    ranks = {rank_of(c) for c in cards}
    if len(ranks) == 1:
        return GROUP if n <= 4 else None
    if len({suit_of(c) for c in cards}) != 1:
        return None
    idx = sorted(RANK_INDEX[r] for r in ranks)
    if len(idx) != n or idx[-1] - idx[0] != n - 1:
        return None
    if max_sequence_len is not None and n > max_sequence_len:
        return None
    return SEQUENCE


def is_long_sequence(cards: Sequence[str]) -> bool:
    """True when ``cards`` would be a sequence if there were no length cap (for the refusal reason)."""
    return meld_kind(cards, None) == SEQUENCE


def canonical_meld(cards: Iterable[str]) -> Meld:
    """One meld in canonical order: rank in sequence order, then suit."""
    return tuple(sorted(cards, key=card_key))


def canonical(melds: Iterable[Iterable[str]]) -> Arrangement:
    """An arrangement in canonical order: every meld sorted, the melds sorted by their cards.

    Two arrangements are the same table position exactly when their canonical forms are equal.
    """
    sorted_melds = [canonical_meld(m) for m in melds]
    return tuple(sorted(sorted_melds, key=lambda m: [card_key(c) for c in m]))


def melded_cards(melds: Arrangement) -> tuple[str, ...]:
    return tuple(c for m in melds for c in m)


def extends(meld: Meld, card: str, max_sequence_len: int | None) -> bool:
    """True when ``card`` can be laid off on ``meld`` as it stands (group 3 -> 4, sequence at an end)."""
    return _extends(tuple(meld), card, max_sequence_len)


@lru_cache(maxsize=1 << 16)
def _extends(meld: Meld, card: str, max_sequence_len: int | None) -> bool:
    """``extends``, cached: a pure function asked very often by the listed moves and the bots'
    evaluation (a meld holds at most 10 of 40 cards, so the working set is small)."""
    return meld_kind((*meld, card), max_sequence_len) is not None


def fits_simple(melds: Arrangement, card: str, max_sequence_len: int | None) -> bool:
    """The forcing test of seeds/conquian.md 5: ``card`` extends one of the existing melds."""
    return any(extends(m, card, max_sequence_len) for m in melds)


def layoffs(melds: Arrangement, card: str, max_sequence_len: int | None) -> list[Arrangement]:
    """Every arrangement that adds ``card`` to one existing meld and leaves the rest unchanged."""
    out = []
    for i, m in enumerate(melds):
        if extends(m, card, max_sequence_len):
            out.append(canonical((*melds[:i], (*m, card), *melds[i + 1 :])))
    return out


def _runs_containing(card: str, pool: Iterable[str], max_sequence_len: int | None) -> Iterator[Meld]:
    """Every sequence that contains ``card`` and otherwise only cards of ``pool``, shortest first."""
    suit = suit_of(card)
    have = {RANK_INDEX[rank_of(c)] for c in pool if suit_of(c) == suit}
    i = RANK_INDEX[rank_of(card)]
    lo = i
    while lo - 1 in have:
        lo -= 1
    hi = i
    while hi + 1 in have:
        hi += 1
    cap = len(ORDER) if max_sequence_len is None else max_sequence_len
    for length in range(3, min(hi - lo + 1, cap) + 1):
        for start in range(max(lo, i - length + 1), min(i, hi - length + 1) + 1):
            yield tuple(f"{ORDER[k]}{suit}" for k in range(start, start + length))


def _groups_containing(card: str, pool: Iterable[str]) -> Iterator[Meld]:
    """Every group that contains ``card`` and otherwise only cards of ``pool``, smallest first."""
    rank = rank_of(card)
    mates = sorted((c for c in pool if c != card and rank_of(c) == rank), key=card_key)
    for size in (2, 3):
        for combo in combinations(mates, size):
            yield (card, *combo)


def melds_containing(card: str, pool: Iterable[str], max_sequence_len: int | None) -> list[Meld]:
    """Every valid meld made of ``card`` and cards of ``pool`` (groups first, then sequences)."""
    pool = tuple(pool)
    found = (*_groups_containing(card, pool), *_runs_containing(card, pool, max_sequence_len))
    return [canonical_meld(m) for m in found]


def find_arrangement(
    mandatory: Iterable[str], optional: Iterable[str], max_sequence_len: int | None
) -> Arrangement | None:
    """One arrangement into valid melds of all ``mandatory`` cards plus any of the ``optional`` ones.

    Depth-first: the lowest uncovered mandatory card is put in each meld it can form with the
    remaining cards, in the order of ``melds_containing``; the first complete cover is returned
    (canonical), or None if there is none. Used for the rearrangement test of forcing and for the
    fallback entry of the listed meld moves (seeds/conquian.md 4.3).
    """
    must = frozenset(mandatory)
    opt = frozenset(optional) - must
    failed: set[tuple[frozenset[str], frozenset[str]]] = set()

    def search(left: frozenset[str], spare: frozenset[str]) -> list[Meld] | None:
        if not left:
            return []
        if (left, spare) in failed:
            return None
        first = min(left, key=card_key)
        for meld in melds_containing(first, left | spare, max_sequence_len):
            used = frozenset(meld)
            rest = search(left - used, spare - used)
            if rest is not None:
                return [meld, *rest]
        failed.add((left, spare))
        return None

    found = search(must, opt)
    return None if found is None else canonical(found)
