"""The slow reference enumerator of Keine lahme Agame for ``tests/test_move_coverage.py``.

It builds every candidate of every move shape from the position itself -- every card of every
display and the top of the pile, each with every 1- or 2-card payment from the mover's hand;
every play of one or two hand cards; every hand card as a forced discard; every set of won cards
as a placement; the pass -- and keeps those ``ENGINE.apply`` accepts. It shares nothing with
``legal_moves`` (seeds/keine-lahme-agame.md §9). The only pruning: a candidate names cards that
are where it says (a caught card in its display or on top of the pile, paid and played cards in
the hand, placed cards in the trick), and candidates with the same card codes are tried once.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator
from itertools import combinations

from engines.core import IllegalMove, Move
from engines.keine_lahme_agame import ENGINE
from engines.keine_lahme_agame.cards import VALUES, strength
from engines.keine_lahme_agame.moves import Catch, DiscardSingle, PassCatch, Place, Trick
from engines.keine_lahme_agame.state import State


def _subsets(cards: tuple[str, ...], sizes: tuple[int, ...]) -> list[tuple[str, ...]]:
    """Every distinct choice (by codes, in the given order) of ``sizes`` cards out of ``cards``."""
    out: dict[tuple[str, ...], None] = {}
    for k in sizes:
        for combo in combinations(cards, k):
            out.setdefault(combo, None)
    return list(out)


def _candidates(state: State, seat: int) -> Iterator[Move]:
    hand = state.hands[seat]
    pairs = _subsets(hand, (1, 2))
    # Both orders of a two-card payment: the order decides which card ends on top of the pile.
    payments = pairs + [p[::-1] for p in pairs if len(p) == 2 and p[0] != p[1]]
    targets: list[tuple[str, int | None]] = [(state.discard[-1], None)] if state.discard else []
    for owner, row in enumerate(state.rows):
        targets += [(card, owner) for card in dict.fromkeys(row)]
    for card, source in targets:
        for pay in payments:
            yield Catch(card=card, payment=pay, from_seat=source)
    yield PassCatch()
    for cards in pairs:
        yield Trick(cards=cards)
        if len(cards) == 2 and cards[0] != cards[1]:
            yield Trick(cards=cards[::-1])
    for card in dict.fromkeys(hand):
        yield DiscardSingle(card=card)
    won = tuple(c for play in state.trick for c in play.cards)
    for k in range(len(won) + 1):
        for cards in dict.fromkeys(combinations(won, k)):
            yield Place(cards=cards)


def reference_moves(state: State, seat: int) -> Iterator[Move]:
    """Every legal move of ``seat``: each candidate that ``ENGINE.apply`` accepts."""
    if ENGINE.to_move(state) != (seat,):
        return
    for move in _candidates(state, seat):
        try:
            ENGINE.apply(state, seat, move)
        except IllegalMove:
            continue
        yield move


def coverage_keys(move: Move) -> set[Hashable]:
    """What a move covers: its kind; each card it plays, catches, discards or places; a trick card
    with the number of cards played with it; a catch's target with its payment as a multiset of
    values (seeds §9: every catchable card is listed with every distinct payment)."""
    keys: set[Hashable] = {(move.type,)}
    if isinstance(move, Catch):
        keys.add(("catch", move.card))
        keys.add(("catch", move.card, move.from_seat, tuple(sorted(strength(c) for c in move.payment))))
    elif isinstance(move, Trick):
        for card in move.cards:
            keys.add(("trick", card))
            keys.add(("trick", len(move.cards), card))
    elif isinstance(move, DiscardSingle):
        keys.add(("discard_single", move.card))
    elif isinstance(move, Place):
        keys.update(("place", card) for card in move.cards)
    return keys


def list_bound() -> int:
    """The most moves ``legal_moves`` can list (seeds §9), from the largest game: 5 colours of
    card set H1 (50 cards, 9 strengths 1 2 3 5 8 13 21 34 hat), rows with a hat position (10 each).

    A mover holding ``h`` cards lists at most ``h + C(h, 2)`` trick plays (one per card and per
    pair of cards); at most ``t = min(41, 50 - h)`` catch targets (each is a card of one of the 4
    other rows, 10 positions each, or the pile top, none in the hand); per target at most one
    payment per multiset of 1 or 2 values: ``s + C(s, 2) + min(h - s, s)`` for ``s = min(h, 9)``
    distinct strengths; and one ``pass_catch`` or ``discard_single``. A placement list is smaller:
    at most 10 won cards."""
    best = 0
    for h in range(51):
        s = min(h, len(set(VALUES["H1"])) + 1)
        payments = s + s * (s - 1) // 2 + min(h - s, s)
        targets = min(4 * (len(VALUES["H1"]) + 1) + 1, 50 - h)
        best = max(best, targets * payments + h * (h + 1) // 2 + 1)
    return best


#: The documented bound of ``legal_moves`` (seeds §9); ``list_bound`` derives it.
LIST_BOUND = 1906
