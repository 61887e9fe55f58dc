"""The coverage guarantee of Kanaster's listed moves (seeds/kanaster.md section 13).

Hand-built edge positions checked with ``assert_covers`` (every legal kind and card the
reference enumerator finds is offered), and the going-out guarantee: whenever some move leaves
exactly one card (the discard then goes out), a listed move of that kind does too.
"""

from __future__ import annotations

import itertools

import pytest

from engines.kanaster import ENGINE as E
from engines.kanaster.moves import Discard, LayOff, MeldCards, TakePile, TakePileLayOff, Tuck
from engines.kanaster.state import PLAY
from tests.engines.kanaster import reference as ref
from tests.engines.kanaster.helpers import deck_for, meld, position
from tests.playout import playout
from tests.test_move_coverage import assert_covers, covered


def leaves_one(state, seat, move) -> bool:
    after = E.apply(state, seat, move)
    return not after.over and after.current == seat and len(after.hands[seat]) == 1


def assert_offered(state, seat, move) -> None:
    """``move`` is accepted, and the listed moves of its kind show every card it uses."""
    E.apply(state, seat, move)
    assert ref.coverage_keys(move) <= covered(ref, E.legal_moves(state, seat))


def assert_going_out_offered(state, seat) -> None:
    listed = E.legal_moves(state, seat)
    for kind in ref.going_out_moves(state, seat):
        assert any(m.type == kind and leaves_one(state, seat, m) for m in listed), f"no listed {kind} goes out"


def test_take_the_pile_with_a_first_meld_between_the_top_meld_and_everything():
    """§5.2/§8 (a position the listing once missed): 5C 5D + the opening 5S is 15 points, under the minimum; with the
    four aces it is 95, and everything at once leaves no card to discard. The take is offered."""
    hand = ["5C", "5D", "AC", "AD", "AH", "AS", "KC", "KD", "KH", "KS", "QC", "QD", "QH"]
    s = E.new_game(2, {}, "issue", deck=deck_for(2, {1: hand}, opening=["5S"]))
    assert s.current == 1 and s.pile == ("5S",) and sorted(s.hands[1]) == sorted(hand)
    assert_offered(s, 1, TakePile((("5S", "5C", "5D"), ("AC", "AD", "AH", "AS"))))
    assert any(isinstance(m, TakePile) for m in E.legal_moves(s, 1))
    assert_covers(E, s, 1)


def test_first_meld_of_three_ranks_from_a_hand_of_low_cards():
    """§8 (a position the listing once missed): 4444 + 5555 + 666 is 55 points; the 7s alone or with them all would be
    below the minimum or leave no discard. The first meld is offered."""
    hand = ["4C", "4D", "4H", "4S", "5C", "5D", "5H", "5S", "6C", "6D", "6H", "7C", "7D", "7H"]
    s = position(hands=[hand, ["9C"] * 3], phase=PLAY)
    assert_offered(s, 0, MeldCards((("4C", "4D", "4H", "4S"), ("5C", "5D", "5H", "5S"), ("6C", "6D", "6H"))))
    assert_covers(E, s, 0)


def test_going_out_with_a_first_meld_in_one_move_is_offered():
    """§9: melding all cards but one (with a canasta) and discarding the last is offered at once."""
    hand = ["KC", "KD", "KH", "KS", "KC", "KD", "JK", "QC", "QD", "QH", "5C"]
    s = position(hands=[hand, ["9C"] * 3], phase=PLAY)
    out = [m for m in E.legal_moves(s, 0) if isinstance(m, MeldCards) and leaves_one(s, 0, m)]
    assert out
    after = E.apply(s, 0, out[0])
    (last,) = after.hands[0]
    assert E.apply(after, 0, Discard(last)).last_hand.went_out == 0
    assert_covers(E, s, 0)
    assert_going_out_offered(s, 0)


def test_black_threes_going_out_are_offered():
    """§6: black 3s are melded only in the move that leaves the last card; that move is listed."""
    canasta = meld(0, "AC", "AD", "AH", "AS", "AC", "AD", "AH")
    s = position(hands=[["3C", "3S", "3C", "QC", "QD", "QH", "9D"], ["9C"] * 3], phase=PLAY, melds=[canasta])
    listed = E.legal_moves(s, 0)
    assert any(isinstance(m, MeldCards) and "3C" in m.melds[-1] for m in listed)
    assert_covers(E, s, 0)
    assert_going_out_offered(s, 0)
    four = position(hands=[["3C", "3C", "3S", "3S"], ["9C"] * 3], phase=PLAY, melds=[canasta])
    assert MeldCards((("3C", "3S", "3C"),)) in E.legal_moves(four, 0)
    assert_covers(E, four, 0)
    assert_going_out_offered(four, 0)


def test_going_out_by_laying_off_is_offered():
    """§6/§9: laying off all cards but one onto an own meld that becomes a canasta goes out next."""
    own = meld(0, "KC", "KD", "KH", "KS", "2C")
    s = position(hands=[["KC", "JK", "5D"], ["9C"] * 3], phase=PLAY, melds=[own])
    listed = E.legal_moves(s, 0)
    assert LayOff(0, ("KC", "JK")) in listed and leaves_one(s, 0, LayOff(0, ("KC", "JK")))
    assert_covers(E, s, 0)
    assert_going_out_offered(s, 0)


def test_a_wild_card_that_fits_only_with_a_natural_is_offered():
    """§6: a meld at its wild-card limit takes a further wild card only together with a natural."""
    own = meld(0, "QC", "QD", "JK")
    s = position(hands=[["QH", "2S", "5D", "6D"], ["9C"] * 3], phase=PLAY, melds=[own])
    assert E.apply(s, 0, LayOff(0, ("QH", "2S")))
    assert ("lay_off", "2S") in covered(ref, E.legal_moves(s, 0))
    assert_covers(E, s, 0)


def test_every_suit_of_a_rank_is_offered_in_a_take_and_a_meld():
    """§13: suits never matter, but each card code that can be used is shown in a listed move."""
    hand = ["QC", "QD", "QH", "QS", "AC", "AD", "AH", "5D", "6D"]
    s = position(hands=[hand, ["9C"] * 3], pile=["7C", "QS"])
    assert {("take_pile", c) for c in ("QC", "QD", "QH", "QS")} <= covered(ref, E.legal_moves(s, 0))
    assert_covers(E, s, 0)
    p = position(hands=[hand, ["9C"] * 3], phase=PLAY, melds=[meld(0, "KC", "KD", "KH")])
    assert {("meld", c) for c in ("QC", "QD", "QH", "QS")} <= covered(ref, E.legal_moves(p, 0))
    assert_covers(E, p, 0)


def test_tucks_and_take_pile_lay_off_are_offered():
    """§7: every blocking card from the pile can be tucked in a listed move; the pile is offered onto
    an own meld of its rank."""
    canasta = meld(1, "KC", "KD", "KH", "KS", "KC", "KD", "KH")
    s = position(hands=[["QC", "QD", "KH", "5S", "6S"], ["4C"] * 3], pile=["KS", "KD", "QS"],
                 melds=[canasta, meld(0, "QH", "QH", "2C")])
    assert TakePileLayOff(1) in E.legal_moves(s, 0)
    assert_covers(E, s, 0)
    s = E.apply(s, 0, TakePileLayOff(1))
    listed = E.legal_moves(s, 0)
    assert {Tuck(0, ("KD",)), Tuck(0, ("KS",)), Tuck(0, ("KD", "KS"))} <= set(listed)
    assert_covers(E, s, 0)


@pytest.mark.parametrize("options", [
    {"wild_discard_freezes_pile": True, "sperr_scope": "own"},
    {"meld_after_taking_pile": False, "tuck_scope": "own_canasta", "stock_exhausted": "forced_lay_off"},
    {"concealed_exempt_from_minimum": True, "black3_meld_on_going_out": False, "negative_score_minimum": 15},
], ids=["frozen", "strict", "exempt"])
def test_coverage_and_going_out_under_option_variants(options):
    """§12/§13: the guarantee holds with the options that change what may be melded or taken."""
    options = {**options, "max_hands": 1}
    for n in range(12):
        players = 2 + n % 4
        for step in itertools.islice(playout(E, players, f"variant/{n}", options), 0, None, 3):
            assert_covers(E, step.state, step.seat)
            assert_going_out_offered(step.state, step.seat)


def test_going_out_is_offered_whenever_a_move_goes_out():
    """§9/§13: over random play, whenever some move of a kind leaves exactly one card, a listed move
    of that kind does too."""
    seen = 0
    for n in range(40):
        for step in playout(E, 2 + n % 4, f"going-out/{n}"):
            outs = ref.going_out_moves(step.state, step.seat)
            seen += bool(outs)
            assert_going_out_offered(step.state, step.seat)
    assert seen  # the playouts do reach such positions
