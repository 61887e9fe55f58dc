"""What lets the listing of legal moves stop early on a long match's large hand (seeds/kanaster.md
section 13): the cards the new melds' candidates can show (``candidates.candidate_cards``), and
lay-offs onto an own meld like one offered before. The listing must stay the very listing that
offers every candidate (``test_listing.listed_from_every_candidate``); these tests check the facts
its shortcuts rest on, over the positions where they matter: first-listed-move play, which takes
large piles and owns many melds of few ranks.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from engines.core import IllegalMove, Move
from engines.kanaster import ENGINE as E
from engines.kanaster import candidates, rules
from engines.kanaster.moves import LayOff, MeldCards, TakePile
from engines.kanaster.state import DRAW, PLAY, KanasterState, Meld

from .helpers import position
from .test_listing import listed_from_every_candidate


def _positions(policy: str, players: int, count: int) -> Iterator[tuple[KanasterState, int]]:
    rng = random.Random(f"bounds/{policy}/{players}")
    s = E.new_game(players, {}, f"bounds/{policy}/{players}")
    for _ in range(count):
        if s.over:
            return
        seat = s.current
        yield s, seat
        listed = E.legal_moves(s, seat)
        s = E.apply(s, seat, listed[0] if policy == "first" else listed[int(rng.random() * len(listed))])


def _held_after(s: KanasterState, seat: int, melds: candidates.Melds) -> int | None:
    move = TakePile(melds) if s.phase == DRAW else MeldCards(melds)
    try:
        return rules._CHECKS[type(move)](s, seat, move)
    except IllegalMove:
        return None


@pytest.mark.parametrize("policy", ["first", "random"])
def test_the_new_melds_hold_only_the_cards_candidate_cards_names(policy):
    """Those that keep two cards hold only ``keep_two``'s cards; a legal one that keeps one card only
    ``keep_one``'s; and where ``going_out`` says none can, none leaves exactly one card."""
    compared = large = cannot = 0
    for s, seat in _positions(policy, 4, 3000):
        hand = s.hands[seat]
        if s.phase == DRAW:
            if rules.pile_block(s, seat):
                continue
            top, after = s.pile[-1], rules._pile_normal_count(s)
        elif s.took_pile and not s.rules.meld_after_taking_pile:
            continue
        else:
            top, after = None, 0
        groups = candidates.Groups.of(hand)
        cards = candidates.candidate_cards(groups, len(hand) + after, top)
        keep_two, keep_one = candidates.new_meld_candidates_by_budget(hand, after, top, groups)
        for melds in keep_two:
            assert cards.keep_two.issuperset(c for m in melds for c in m)
        for melds in keep_one:
            held = _held_after(s, seat, melds)
            if held is not None:
                assert cards.keep_one.issuperset(c for m in melds for c in m)
            if not cards.going_out:
                assert held != 1
        compared += 1
        large += len(hand) >= 30
        cannot += not cards.going_out
    assert compared > 1000 and cannot > 0 and (large > 0 or policy == "random")


def test_lay_offs_onto_melds_alike_are_offered_once_and_listed_as_when_each_is_offered():
    """Own melds of one rank, size and wild cards, and one of that rank with another shape: the
    lay-offs are offered onto the first of each shape only, and listed exactly as offering every
    candidate onto every meld lists them. The joker alone goes onto neither meld with two wild
    cards (it would make three of six), so it is offered onto each meld that could take it."""
    full = Meld(0, "K", ("KC", "KD", "KH", "JK", "2H"))
    hand = ["KS", "JK", "5C", "5D", "5H", "9S", "9D"]
    melds = [full, Meld(1, "K", ("KH", "KS", "KD")), full, Meld(0, "K", ("KC", "KD", "KH")), full]
    s = position(hands=[hand, ["4C"] * 3], phase=PLAY, melds=melds, max_hands=1)
    listed = E.legal_moves(s, 0)
    assert listed == listed_from_every_candidate(s, 0)
    assert LayOff(3, ("JK",)) in listed and LayOff(0, ("KS", "JK")) in listed
    offered = _Offered(s, 0)
    rules._play_phase(s, 0, offered)
    assert offered.onto == {0, 3} and tuple(offered.moves) == listed


class _Offered(rules._Listing):
    """The listing, noting the melds its lay-offs were offered onto."""

    def __init__(self, state: KanasterState, seat: int) -> None:
        super().__init__(state, seat)
        self.onto: set[int] = set()

    def offer(self, move: Move, plain: bool = False) -> bool:
        if isinstance(move, LayOff):
            self.onto.add(move.meld)
        return super().offer(move, plain)


@pytest.mark.parametrize("players", [2, 4])
def test_large_hands_list_what_offering_every_candidate_lists(players):
    """The positions the shortcuts are for: first-listed-move play, hands of 30 cards and more."""
    compared = 0
    for s, seat in _positions("first", players, 3000):
        if len(s.hands[seat]) >= 30:
            assert E.legal_moves(s, seat) == listed_from_every_candidate(s, seat)
            compared += 1
    assert compared > 20
