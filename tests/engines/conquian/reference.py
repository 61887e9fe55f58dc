"""Slow reference enumerator of Conquian's legal moves, the independent judge of the coverage guarantee.

``tests/test_move_coverage.py`` checks that ``ENGINE.legal_moves`` covers every move kind and every
melded card that this module finds legal (seeds/conquian.md 4.3). Nothing here comes from
``engines.conquian.rules`` or ``engines.conquian.melds``: candidates are built from the seat's cards
with this module's own rank order and judged by ``ENGINE.apply`` alone -- a candidate is legal iff
``apply`` does not raise ``IllegalMove``.

Meld candidates: every set of pairwise disjoint melds drawn from the pool (the seat's melded cards,
the offered or face-up card, the hand) that keeps every melded card (the move posts the complete new
melds, so one that drops a melded card is not of the move's shape). A "meld" candidate is any 3 or
4 cards of one rank, or any run of 3 or more cards of one suit that are consecutive in ``ORDER``, of
any length: the sequence cap (``max_sequence_len``), which card must be included, whether hand cards
may join and whether the move adds anything are all left to ``apply``.

The only shortcut: one meld candidate is tried first, and when ``apply`` refuses it for a reason that
does not depend on the melds posted (the seat is not to move, the phase takes no meld, nothing is
offered, the match is over), no other meld candidate is built.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Iterator
from itertools import combinations

from engines.conquian import ENGINE
from engines.conquian.moves import (
    ConquianDeclineForce,
    ConquianDiscard,
    ConquianDraw,
    ConquianForce,
    ConquianMeld,
    ConquianPass,
    ConquianReject,
)
from engines.conquian.state import ConquianState
from engines.core import IllegalMove, Move

#: seeds/conquian.md 4.3: at most 45 meld moves plus one other move without
#: ``meld_from_hand_without_upcard``, at most 132 moves with it; discards are at most 10.
LIST_BOUND = 132

#: Sequence order of seeds/conquian.md 1, written out again on purpose (7 and J adjacent, ace low).
ORDER = "A234567JQK"

#: Refusals of a meld that hold whatever melds are posted: no meld candidate can apply.
CLOSED = frozenset({"not_your_turn", "game_over", "wrong_phase", "no_offer"})


def _legal(state: ConquianState, seat: int, move: Move) -> bool:
    try:
        ENGINE.apply(state, seat, move)
    except IllegalMove:
        return False
    return True


def _candidate_melds(pool: Iterable[str]) -> list[frozenset[str]]:
    """Every group (3 or 4 of a rank) and every run (3+ consecutive cards of a suit) within ``pool``."""
    cards = set(pool)
    out: list[frozenset[str]] = []
    for rank in ORDER:
        same = sorted(c for c in cards if c[:-1] == rank)
        for size in (3, 4):
            out += [frozenset(g) for g in combinations(same, size)]
    for suit in "CDHS":
        for lo in range(len(ORDER)):
            for hi in range(lo + 3, len(ORDER) + 1):
                run = [f"{r}{suit}" for r in ORDER[lo:hi]]
                if not all(c in cards for c in run):
                    break
                out.append(frozenset(run))
    return out


def _arrangements(pool: list[str], keep: frozenset[str]) -> Iterator[list[frozenset[str]]]:
    """Every set of disjoint candidate melds over ``pool`` that contains every card of ``keep``.

    The cards are decided in a fixed order: the first undecided card is either left out (not for a
    ``keep`` card) or put in each candidate meld containing it whose other cards all come later and
    are not used yet, so every set is produced exactly once.
    """
    order = sorted(pool)
    place = {c: i for i, c in enumerate(order)}
    melds = _candidate_melds(order)
    by_card = {c: [m for m in melds if c in m and min(place[x] for x in m) == place[c]] for c in order}

    def walk(i: int, used: frozenset[str], chosen: list[frozenset[str]]) -> Iterator[list[frozenset[str]]]:
        while i < len(order) and order[i] in used:
            i += 1
        if i == len(order):
            yield list(chosen)
            return
        card = order[i]
        if card not in keep:
            yield from walk(i + 1, used, chosen)
        for m in by_card[card]:
            if not m & used:
                chosen.append(m)
                yield from walk(i + 1, used | m, chosen)
                chosen.pop()

    yield from walk(0, frozenset(), [])


def reference_moves(state: ConquianState, seat: int) -> Iterator[Move]:
    """Every legal move of ``seat``: every candidate of every move shape, judged by ``ENGINE.apply``."""
    simple: list[Move] = [ConquianDraw(), ConquianPass(), ConquianReject(), ConquianForce(), ConquianDeclineForce()]
    simple += [ConquianDiscard(card=c) for c in state.hands[seat]]
    for move in simple:
        if _legal(state, seat, move):
            yield move
    melded = [c for m in state.melds[seat] for c in m]
    probe = ConquianMeld(melds=tuple(tuple(m) for m in state.melds[seat]))
    try:
        ENGINE.apply(state, seat, probe)
    except IllegalMove as refusal:
        if refusal.reason in CLOSED:
            return
    pool = [*melded, *state.hands[seat], *(c for c in (state.offer, state.face_up) if c is not None)]
    for arrangement in _arrangements(pool, frozenset(melded)):
        move = ConquianMeld(melds=tuple(tuple(sorted(m)) for m in arrangement))
        if _legal(state, seat, move):
            yield move


def coverage_keys(move: Move) -> set[Hashable]:
    """``(type,)`` plus ``(type, card)`` for every card a meld holds or a discard plays.

    A meld move posts all of the seat's melds, so its already melded cards are keyed too; they are in
    every legal meld of that position, so they add nothing to cover beyond the newly melded cards.
    """
    keys: set[Hashable] = {(move.type,)}
    if isinstance(move, ConquianMeld):
        keys |= {(move.type, c) for m in move.melds for c in m}
    elif isinstance(move, ConquianDiscard):
        keys.add((move.type, move.card))
    return keys
