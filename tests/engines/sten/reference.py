"""The slow reference enumerator of Sten's legal moves (tests/test_move_coverage.py, seeds/sten.md section 10).

Every candidate of every move shape is built from the cards and judged by ``ENGINE.apply`` alone:
a candidate is legal iff ``apply`` does not raise ``IllegalMove``. Nothing here is shared with
``legal_moves``. Candidates:

- ``play``: every one of the 52 cards (apply refuses those neither in the hand nor in the open
  remainder, and those that do not fit);
- ``stein``: the one move;
- ``play_all``: the whole hand (a declaration must name every hand card, section 6) plus every
  subset of the open remainder (the only other cards a declaration may name), each in two orders
  (as built and reversed). A declaration that fails is legal (it costs the stone); which cards it
  names, not their order, is what it covers.
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable, Iterable, Iterator

from engines.cards import standard_deck
from engines.core import IllegalMove, Move
from engines.sten import ENGINE
from engines.sten.moves import Play, PlayAll, Stein
from engines.sten.state import StenState

#: seeds/sten.md section 10: at most 8 plays, "Stein" and two declarations.
LIST_BOUND = 11

DECK = standard_deck()


def _candidates(state: StenState, seat: int) -> Iterator[Move]:
    yield from (Play(c) for c in DECK)
    yield Stein()
    hand = state.hands[seat]
    for k in range(len(state.remainder) + 1):
        for extra in itertools.combinations(state.remainder, k):
            cards = hand + extra
            yield PlayAll(cards)
            yield PlayAll(cards[::-1])


def reference_moves(state: StenState, seat: int) -> Iterable[Move]:
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
    """``(type,)`` plus ``(type, card)`` for every card the move places or names."""
    keys: set[Hashable] = {(move.type,)}
    if isinstance(move, Play):
        keys.add((move.type, move.card))
    elif isinstance(move, PlayAll):
        keys.update((move.type, c) for c in move.cards)
    return keys
