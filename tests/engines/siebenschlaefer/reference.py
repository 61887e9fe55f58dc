"""The slow reference enumerator of Siebenschläfer's legal moves (tests/test_move_coverage.py,
seeds/siebenschlaefer.md section 5).

Every candidate of every move shape is built from the mover's cards and judged by ``ENGINE.apply``
alone: a candidate is legal iff ``apply`` does not raise ``IllegalMove``. Nothing here is shared
with ``legal_moves``. Candidates: every two cards of the hand (each pair of hand positions, in both
orders; the same code twice only when the hand holds it twice), ``draw`` and ``pass``.
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable, Iterable, Iterator

from engines.core import IllegalMove, Move
from engines.siebenschlaefer import ENGINE
from engines.siebenschlaefer.moves import Draw, Pass, Play
from engines.siebenschlaefer.state import State

#: seeds/siebenschlaefer.md section 5: every distinct legal pair of the 52 codes is listed -- at most
#: 10 pairs of aces + 666 number pairs + 12 x 36 face-and-number pairs = 1108 -- plus ``draw`` or ``pass``.
LIST_BOUND = 1109


def _candidates(state: State, seat: int) -> Iterator[Move]:
    seen: set[tuple[str, str]] = set()
    for a, b in itertools.permutations(state.hands[seat], 2):
        if (a, b) not in seen:  # the second copy of a code (two decks) makes the same move
            seen.add((a, b))
            yield Play(cards=(a, b))
    yield Draw()
    yield Pass()


def reference_moves(state: State, seat: int) -> Iterable[Move]:
    """Every candidate move of ``seat`` that ``ENGINE.apply`` accepts."""
    out: list[Move] = []
    for move in _candidates(state, seat):
        try:
            ENGINE.apply(state, seat, move)
        except IllegalMove:
            continue
        out.append(move)
    return out


def coverage_keys(move: Move) -> set[Hashable]:
    """``(type,)``, ``(type, card)`` for each card laid, and -- since section 5 promises every distinct
    legal pair -- ``(type, pair)`` with the pair as an order-free multiset of codes."""
    keys: set[Hashable] = {(move.type,)}
    if isinstance(move, Play):
        keys.update((move.type, c) for c in move.cards)
        keys.add((move.type, tuple(sorted(move.cards))))
    return keys
