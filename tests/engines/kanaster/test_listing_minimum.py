"""Before the first meld of a hand the listing asks the new melds' candidates only for those that can
reach the minimum (``candidates.new_meld_candidates_by_budget``'s ``minimum``, from
``rules._Listing.new_meld_minimum``): melds that count too few before they are trimmed to keep two
cards count too few after it. Every candidate so left out must be one the move's check refuses,
under every option variant (one exempts a meld that leaves one card from the minimum), and the rest
must come in the same order.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import pytest

from engines.core import IllegalMove
from engines.kanaster import candidates, rules
from engines.kanaster.melds import held_without, meld_rank, points
from engines.kanaster.moves import MeldCards, TakePile
from engines.kanaster.state import DRAW, PLAY, KanasterState

from .helpers import played, position
from .test_properties import VARIANTS


def _refused(s: KanasterState, seat: int, move: MeldCards | TakePile) -> bool:
    try:
        rules._CHECKS[type(move)](s, seat, move)
    except IllegalMove:
        return True
    return False


def _in_order(some: Sequence[candidates.Melds], every: Sequence[candidates.Melds]) -> bool:
    rest = iter(every)
    return all(melds in rest for melds in some)


def _compare(s: KanasterState, seat: int) -> Counter[str]:
    """Assert that the candidates asked for with the minimum are those asked for without it, in the
    same order, less some the check refuses; count those left out and those asked for (and of these
    the legal ones), per budget (0: keeping two cards, 1: keeping one)."""
    counted: Counter[str] = Counter()
    listing = rules._Listing(s, seat)
    if not listing.minimum:
        return counted
    if s.phase == DRAW:
        if rules.pile_block(s, seat):
            return counted
        kind: type[MeldCards] | type[TakePile] = TakePile
        top, after = s.pile[-1], rules._pile_normal_count(s)
    elif s.took_pile and not s.rules.meld_after_taking_pile:
        return counted
    else:
        kind, top, after = MeldCards, None, 0
    hand = s.hands[seat]
    groups = candidates.Groups.of(hand)
    every = candidates.new_meld_candidates_by_budget(hand, after, top, groups)
    some = candidates.new_meld_candidates_by_budget(hand, after, top, groups, listing.new_meld_minimum(kind))
    for budget, (all_of, asked) in enumerate(zip(every, some, strict=True)):
        all_of, asked = list(all_of), list(asked)  # (those that keep two first, as the listing asks)
        assert _in_order(asked, all_of)
        for melds in set(all_of) - set(asked):
            assert _refused(s, seat, kind(melds)), (kind, melds, listing.minimum)
            counted[f"left out {budget}"] += 1
        counted[f"asked {budget}"] += len(asked)
        counted[f"legal {budget}"] += sum(not _refused(s, seat, kind(melds)) for melds in asked)
    return counted


@pytest.mark.parametrize("policy", ["random", "first"])
@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_the_candidates_left_out_below_the_minimum_are_those_the_checks_refuse(variant, players, policy):
    counted: Counter[str] = Counter()
    for s, seat, _ in played("minimum", variant, VARIANTS[variant], players, policy, 2000):
        counted += _compare(s, seat)
    assert counted["left out 0"] > 0 and counted["legal 0"] > 0  # both kinds of candidate were compared


@pytest.mark.parametrize("exempt", [True, False])
def test_a_concealed_meld_that_goes_out_below_the_minimum_is_asked_for_only_when_exempt(exempt):
    """Seven 5s make a canasta and go out (the 9 kept) with 35 points, below the minimum of 50: legal
    only under option ``concealed_exempt_from_minimum`` (seeds/kanaster.md section 8)."""
    hand = ["5C", "5D", "5H", "5S", "5C", "5D", "5H", "9H"]
    s = position(hands=[hand, ["4C"] * 3], phase=PLAY, concealed_exempt_from_minimum=exempt)
    counted = _compare(s, 0)
    assert counted["legal 1"] == exempt and counted["left out 0"] > 0
    assert (counted["left out 1"] > 0) != exempt


def test_black_threes_that_go_out_are_asked_for_when_they_reach_the_minimum():
    """Seven kings and three black 3s go out (the 9 kept) with 85 points: a first meld above the minimum."""
    hand = ["KC", "KD", "KH", "KS", "KC", "KD", "KH", "3C", "3S", "3C", "9H"]
    counted = _compare(position(hands=[hand, ["4C"] * 3], phase=PLAY), 0)
    assert counted["legal 1"] == 1



def _melds_accepted(s: KanasterState, seat: int) -> list[candidates.Melds]:
    """The play phase's meld candidates (single melds, and new melds asked for without a minimum) whose
    every meld is valid and whose cards the mover holds: what the check judges beyond the minimum."""
    hand = s.hands[seat]
    groups = candidates.Groups.of(hand)
    keep_two, keep_one = candidates.new_meld_candidates_by_budget(hand, 0, None, groups)
    out = []
    for melds in [*candidates.single_meld_candidates(hand, None, groups), *keep_two, *keep_one]:
        try:
            [meld_rank(m) for m in melds]
            held_without(hand, [c for m in melds for c in m])
        except IllegalMove:
            continue
        out.append(melds)
    return out


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_no_meld_is_offered_when_no_melds_of_the_hand_can_reach_the_minimum(variant, players, monkeypatch):
    """``candidates.most_points`` counts at least the points of every valid meld candidate of the hand,
    and the listing of a mover who has not melded, which offers no meld when it counts fewer than the
    minimum, lists the same moves as without that shortcut."""
    skipped = 0
    for s, seat, listed in played("most-points", variant, VARIANTS[variant], players, "first", 1500):
        if s.phase != PLAY:
            continue
        most = candidates.most_points(candidates.Groups.of(s.hands[seat]))
        for melds in _melds_accepted(s, seat):
            assert points([c for m in melds for c in m]) <= most, (melds, most)
        listing = rules._Listing(s, seat)
        if listing.minimum and most < min(listing.new_meld_minimum(MeldCards)):
            skipped += 1
            with monkeypatch.context() as patched:
                patched.setattr(rules, "most_points", lambda groups: 10**9)
                assert rules.legal_moves(s, seat) == listed
    # the shortcut was taken and compared (where a meld that goes out needs no minimum, hardly ever)
    assert skipped > 0 or VARIANTS[variant].get("concealed_exempt_from_minimum")
