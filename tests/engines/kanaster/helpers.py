"""Position builders for Kanaster's rule tests (seeds/kanaster.md).

``deck_for`` builds a whole fixed deck (top card first) that deals the given hands, opening
cards, talon top and cut cards, following the dealing order of seeds/kanaster.md section 3.
``position`` builds a mid-hand state directly from a new match by replacing its table; such
positions need not conserve cards (they test one rule at a time). ``played`` walks the positions of
a seeded match, as the listing tests compare them.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace
from typing import Any

from engines.core import Move
from engines.kanaster import ENGINE, rules
from engines.kanaster.melds import is_black_three, is_red_three, is_wild, natural_rank, sort_hand
from engines.kanaster.state import DRAW, KanasterState, Meld

#: A talon of plain cards (no wild card, no 3), long enough for any test.
PLAIN_TALON: tuple[str, ...] = tuple(f"{r}{s}" for r in ("5", "6", "7", "9", "10", "J") for s in "CDHS") * 2


def full_deck(players: int, **options: Any) -> tuple[str, ...]:
    return rules.full_deck(ENGINE.new_game(players, options, "x").rules)


def deck_for(
    players: int,
    dealt: Mapping[int, Sequence[str]] | None = None,
    opening: Sequence[str] = (),
    talon_top: Sequence[str] = (),
    cut: Sequence[str] = (),
    dealer: int = 0,
    cards_per_player: int = 13,
    **options: Any,
) -> list[str]:
    """A fixed deck, top card first, that deals ``dealt[seat]`` (the first cards each seat gets,
    in dealing order), then ``opening`` as the pile's opening card(s), then ``talon_top``; its
    last cards are ``cut`` (``cut[0]`` the very last: the cut face). Unnamed cards are filled
    from the rest of the deck: plain cards first, wild cards and 3s deep in the talon."""
    dealt = dict(dealt or {})
    rest = Counter(full_deck(players, **options))
    named = [c for cs in dealt.values() for c in cs] + list(opening) + list(talon_top) + list(cut)
    rest.subtract(named)
    assert all(v >= 0 for v in rest.values()), "more copies named than the deck holds"
    plain = sorted((c for c in rest.elements() if natural_rank(c)), key=lambda c: (natural_rank(c) in ("8", "K"), c))
    special = sorted(c for c in rest.elements() if not natural_rank(c))
    filler = plain[:-6] + special + plain[-6:]
    cutter = (dealer - 1) % players
    counts = [0] * players
    counts[cutter] = len(cut)
    sequence: list[int] = []
    seat = (dealer + 1) % players
    while any(n < cards_per_player for n in counts):
        if counts[seat] < cards_per_player:
            sequence.append(seat)
            counts[seat] += 1
        seat = (seat + 1) % players
    wanted = {s: list(cs) for s, cs in dealt.items()}
    deck: list[str] = []
    for s in sequence:
        deck.append(wanted[s].pop(0) if wanted.get(s) else filler.pop(0))
    assert not any(wanted.values()), "a seat was named more cards than it is dealt"
    deck += list(opening) + list(talon_top)
    bottom = list(reversed(cut))
    assert not filler or not is_wild(filler[-1])
    return deck + filler + bottom


def position(
    players: int = 2,
    *,
    hands: Sequence[Sequence[str]],
    pile: Sequence[str] = ("9C",),
    talon: Sequence[str] = PLAIN_TALON,
    melds: Sequence[Meld] = (),
    current: int = 0,
    phase: str = DRAW,
    scores: Sequence[int] | None = None,
    red_threes: Sequence[Sequence[str]] | None = None,
    started: Sequence[bool] | None = None,
    took_pile: bool = False,
    pile_taken: Sequence[str] = (),
    first_meld_turn: bool = False,
    **options: Any,
) -> KanasterState:
    """A mid-hand state of a fresh match with the given table."""
    base = ENGINE.new_game(players, options, "position")
    return replace(
        base,
        hands=tuple(sort_hand(h) for h in hands),
        pile=tuple(pile),
        talon=tuple(talon),
        melds=tuple(melds),
        current=current,
        phase=phase,
        scores=tuple(scores) if scores is not None else (0,) * players,
        red_threes=tuple(tuple(r) for r in red_threes) if red_threes is not None else ((),) * players,
        started=tuple(started) if started is not None else (True,) * players,
        took_pile=took_pile,
        pile_taken=sort_hand(pile_taken),
        first_meld_turn=first_meld_turn,
    )


def meld(owner: int, *cards: str) -> Meld:
    """A meld on the table (rank from its first natural card)."""
    rank = next((natural_rank(c) or ("3" if is_black_three(c) else None) for c in cards if not is_wild(c)), None)
    assert rank and not any(is_red_three(c) for c in cards)
    return Meld(owner, rank, sort_hand(cards))


def played(name: str, variant: int, options: Mapping[str, Any], players: int, policy: str,
           limit: int) -> Iterator[tuple[KanasterState, int, tuple[Move, ...]]]:
    """The positions of a match with ``options`` (variant number ``variant`` of the caller's list),
    each with its seat to move and its listed moves, at most ``limit`` and until the match ends; after
    each the seat plays the first listed move (``policy`` "first", as ``bench.http`` does) or a seeded
    random one. The match and the random moves are seeded from ``name``, the variant, the players and
    the policy, so each test walks its own positions, the same every run."""
    rng = random.Random(f"{name}/{variant}/{players}/{policy}")
    s = ENGINE.new_game(players, dict(options), f"{name}{variant}/{players}/{policy}")
    for _ in range(limit):
        if s.over:
            return
        seat = s.current
        listed = ENGINE.legal_moves(s, seat)
        yield s, seat, listed
        s = ENGINE.apply(s, seat, listed[0] if policy == "first" else listed[int(rng.random() * len(listed))])
