"""Conquian rules, one test per paragraph of seeds/conquian.md (section numbers in the names/docstrings).

Positions come from fixed decks (``new``) or are written down directly (``position``).
"""

from __future__ import annotations

import json

import pytest

from engines.cards import shuffled
from engines.conquian import ENGINE
from engines.conquian.melds import DECK, RANK_INDEX, meld_kind, sort_hand
from engines.conquian.rules import _deal
from engines.core import IllegalMove, InvalidOptions
from tests.test_move_coverage import assert_covers

from .helpers import SEED, all_cards, listed, listed_melds, new, play, position

H0 = ["5H", "6H", "AC", "3D", "4S", "7C", "JD", "QS", "KC", "2S"]
H1 = ["AD", "2D", "4D", "5D", "6D", "JS", "QD", "KD", "3C", "4C"]


def refused(state, seat, data, reason):
    """Assert the move is refused with ``reason`` (it leaves nothing behind: states are values,
    tests/test_contract.py)."""
    with pytest.raises(IllegalMove) as info:
        play(state, seat, data)
    assert info.value.reason == reason, info.value.message


# --- 1. Cards and rank order ----------------------------------------------------------------------


def test_1_deck_is_40_cards_without_8_9_10():
    assert len(DECK) == 40 == len(set(DECK))
    assert not [c for c in DECK if c[:-1] in ("8", "9", "10")]
    assert {c[:-1] for c in DECK} == {"A", "2", "3", "4", "5", "6", "7", "J", "Q", "K"}


@pytest.mark.parametrize(
    ("cards", "valid"),
    [
        (("AH", "2H", "3H"), True),
        (("6S", "7S", "JS"), True),
        (("JD", "QD", "KD"), True),
        (("QC", "KC", "AC"), False),
        (("KH", "AH", "2H"), False),
    ],
)
def test_1_sequence_validator_seven_jack_adjacent_ace_low_only(cards, valid):
    """seeds/conquian.md 1: A-2-3, 6-7-J, J-Q-K are sequences; Q-K-A and K-A-2 are not."""
    assert (meld_kind(cards) == "sequence") is valid


def test_1_sequences_through_the_engine():
    """The same five examples as meld moves: the valid ones apply, Q-K-A and K-A-2 are refused."""
    hand = ["2H", "3H", "6S", "JS", "QD", "KD", "QC", "KC", "KH", "2C"]

    def turned(card):
        return position(hands=(hand, None), phase="turned", face_up=card)

    for meld in (["AH", "2H", "3H"], ["6S", "7S", "JS"], ["JD", "QD", "KD"]):
        face_up = {"AH", "7S", "JD"}.intersection(meld).pop()
        after = play(turned(face_up), 0, {"type": "meld", "melds": [meld]})
        assert after.phase == "discard"
        assert after.melds[0] == (tuple(sort_hand_seq(meld)),)
    refused(turned("AC"), 0, {"type": "meld", "melds": [["QC", "KC", "AC"]]}, "invalid_meld")
    refused(turned("AH"), 0, {"type": "meld", "melds": [["KH", "AH", "2H"]]}, "invalid_meld")


def sort_hand_seq(meld):
    return sorted(meld, key=lambda c: RANK_INDEX[c[:-1]])


# --- 2. Setup ---------------------------------------------------------------------------------------


def test_2_1_first_dealer_is_the_lower_card_of_the_cut():
    for seed in ("a", "b", "c", "d", "e", "f"):
        state = ENGINE.new_game(2, {}, seed)
        cut = state.cut
        assert cut == shuffled(DECK, seed, "cut")[: len(cut)]
        pairs = [(RANK_INDEX[cut[i][:-1]], RANK_INDEX[cut[i + 1][:-1]]) for i in range(0, len(cut), 2)]
        assert all(a == b for a, b in pairs[:-1]) and pairs[-1][0] != pairs[-1][1]
        a, b = pairs[-1]
        assert state.dealer == (0 if a < b else 1)
        assert state.turn == 1 - state.dealer
        assert ENGINE.view(state, None)["cut"] == list(cut)


def test_2_1_fixed_first_dealer_options():
    assert ENGINE.new_game(2, {"first_dealer": "seat0"}, "x").dealer == 0
    state = ENGINE.new_game(2, {"first_dealer": "seat1"}, "x")
    assert state.dealer == 1 and state.cut == () and ENGINE.to_move(state) == (0,)


@pytest.mark.parametrize("dealer", [0, 1])
def test_2_2_dealing_order_from_a_fixed_deck(dealer):
    """One at a time, non-dealer first; deck[20] is the top of the stock; no upcard."""
    deck = list(shuffled(DECK, "any", "x"))
    state = ENGINE.new_game(2, {"first_dealer": f"seat{dealer}"}, "s", deck)
    pone = 1 - dealer
    assert state.hands[pone] == sort_hand(deck[0:20:2])
    assert state.hands[dealer] == sort_hand(deck[1:20:2])
    assert state.stock == tuple(deck[20:])
    assert state.offer is None and state.face_up is None and state.dead == ()


def test_2_2_shuffled_deal_equals_the_same_deck_given_as_fixed_deck():
    seeded = ENGINE.new_game(2, {"first_dealer": "seat1"}, "s1")
    fixed = ENGINE.new_game(2, {"first_dealer": "seat1"}, "s1", shuffled(DECK, "s1", "deal"))
    assert seeded == fixed


def test_2_3_later_deals_shuffle_from_the_seed():
    nxt = play(win_position(), 0, WIN)
    assert nxt.deal == 2 and nxt.dealer == 0 and nxt.turn == 1 and nxt.phase == "choose"
    hands, stock = _deal(shuffled(DECK, SEED, "deal/2"), 0)
    assert nxt.hands == hands and nxt.stock == stock
    assert nxt.melds == ((), ()) and nxt.offer is None and nxt.dead == ()


# --- 3. Melds ---------------------------------------------------------------------------------------


def test_3_1_groups_are_three_or_four_of_a_rank():
    assert meld_kind(("QH", "QS", "QD")) == "group"
    assert meld_kind(("QH", "QS", "QD", "QC")) == "group"
    assert meld_kind(("QH", "QS")) is None
    assert meld_kind(("QH", "QS", "KS")) is None


def test_3_2_sequences_one_suit_no_gaps_no_cap_by_default():
    assert meld_kind(("AH", "2H", "3H", "4H", "5H", "6H", "7H", "JH", "QH", "KH")) == "sequence"
    assert meld_kind(("AH", "2H", "3D")) is None
    assert meld_kind(("AH", "2H", "4H")) is None
    assert meld_kind(("5H", "6H", "7H", "JH"), max_sequence_len=3) is None


def test_3_2_max_sequence_len_option():
    state = position(
        hands=(["JC", "AH", "2D", "QS", "KS", "5D", "6D"], None),
        melds=([["4C", "5C", "6C"]], []),
        phase="turned",
        face_up="7C",
        options={"max_sequence_len": 3},
    )
    assert listed_melds(state, 0) == []
    refused(state, 0, {"type": "meld", "melds": [["4C", "5C", "6C", "7C"]]}, "sequence_too_long")
    # with a cap the card does not fit the melds, so a reject opens no force window
    assert play(state, 0, {"type": "reject"}).phase == "choose"


def rearrange_position(phase, **kw):
    """The example of the original rules (3.3): J-7-6 of spades melded, two jacks in hand, the 5 of spades to meld."""
    hand = ["JH", "JD", "AC", "3D", "3S", "2C", "QH"]
    return position(hands=(hand, None), melds=([["JS", "7S", "6S"]], []), phase=phase, **kw)


@pytest.mark.parametrize("phase", ["turned", "choose"])
def test_3_3_rearranging_own_melds_the_jack_seven_six_example(phase):
    """J-7-6 + 5: meld 5-6-7 and move the jack to a group of three jacks (the rules' example). Both the
    lay-off and that rearrangement are listed (4.3 (a) and (c)), and the rearrangement applies."""
    kw = {"face_up": "5S"} if phase == "turned" else {"offer": "5S"}
    state = rearrange_position(phase, **kw)
    assert listed_melds(state, 0) == [[["5S", "6S", "7S", "JS"]], [["5S", "6S", "7S"], ["JD", "JH", "JS"]]]
    assert_covers(ENGINE, state, 0)
    after = play(state, 0, {"type": "meld", "melds": [["JD", "JS", "JH"], ["7S", "6S", "5S"]]})
    assert after.melds[0] == (("5S", "6S", "7S"), ("JD", "JH", "JS"))
    assert after.hands[0] == sort_hand(["AC", "3D", "3S", "2C", "QH"])
    assert after.phase == "discard" and after.offer is None and after.face_up is None


def test_3_3_rearrangement_must_leave_only_valid_melds():
    state = rearrange_position("turned", face_up="5S")
    refused(state, 0, {"type": "meld", "melds": [["5S", "6S", "7S"], ["JS"]]}, "invalid_meld")
    refused(state, 0, {"type": "meld", "melds": [["5S", "6S", "7S"], ["JS", "JH"]]}, "invalid_meld")
    refused(state, 0, {"type": "meld", "melds": [["5S", "6S", "7S"]]}, "melded_card_missing")
    refused(state, 0, {"type": "meld", "melds": [["5S", "6S", "7S"], ["JS", "JH", "JC"]]}, "card_not_in_hand")
    refused(state, 0, {"type": "meld", "melds": [["5S", "6S", "7S", "JS"], ["JS", "JH", "JD"]]}, "duplicate_card")
    refused(state, 0, {"type": "meld", "melds": [["6S", "7S", "JS"], ["JH", "JD", "JC"]]}, "card_not_melded")
    refused(state, 0, {"type": "meld", "melds": [["5S", "6S", "7S", "8S"], ["JS", "JH", "JD"]]}, "unknown_card")
    refused(state, 0, {"type": "meld", "melds": [["5S", "6S", "7S", "JS"], []]}, "invalid_meld")


# --- 4. A turn ---------------------------------------------------------------------------------------


def test_4_2_non_dealer_turns_the_first_card_and_it_never_enters_the_hand():
    state = new(H0, H1, ["7H", "AS"])
    assert ENGINE.to_move(state) == (0,)
    assert listed(state, 0) == [{"type": "draw"}]
    assert listed(state, 1) == []
    refused(state, 0, {"type": "meld", "melds": [["5H", "6H", "7H"]]}, "no_offer")
    refused(state, 1, {"type": "draw"}, "not_your_turn")
    turned = play(state, 0, {"type": "draw"})
    assert turned.phase == "turned" and turned.face_up == "7H"
    assert turned.hands[0] == state.hands[0] and len(turned.stock) == 19
    assert listed(turned, 0) == [{"type": "meld", "melds": [["5H", "6H", "7H"]]}, {"type": "reject"}]
    refused(turned, 0, {"type": "discard", "card": "AC"}, "wrong_phase")


def test_4_2_meld_the_turned_card_then_discard_which_is_offered():
    state = play(new(H0, H1, ["7H", "AS"]), 0, {"type": "draw"})
    melded = play(state, 0, {"type": "meld", "melds": [["5H", "6H", "7H"]]})
    assert melded.phase == "discard" and len(melded.hands[0]) == 8
    assert {m["card"] for m in listed(melded, 0)} == set(melded.hands[0])
    refused(melded, 0, {"type": "discard", "card": "AD"}, "card_not_in_hand")
    after = play(melded, 0, {"type": "discard", "card": "KC"})
    assert after.phase == "choose" and after.turn == 1 and after.offer == "KC"
    assert len(after.hands[0]) + 3 == 10
    # seat 1 cannot meld the king of clubs, so turning the stock is its only listed move
    assert listed(after, 1) == [{"type": "draw"}]
    refused(after, 1, {"type": "meld", "melds": [["KC", "QD", "KD"]]}, "invalid_meld")


def test_4_2_turning_the_stock_buries_the_offer_and_reject_needs_no_discard():
    state = play(new(H0, H1, ["7H", "AS"]), 0, {"type": "draw"})
    state = play(play(state, 0, {"type": "meld", "melds": [["5H", "6H", "7H"]]}), 0, {"type": "discard", "card": "KC"})
    turned = play(state, 1, {"type": "draw"})
    assert turned.dead == ("KC",) and turned.offer is None and turned.face_up == "AS"
    assert listed(turned, 1) == [{"type": "reject"}]
    rejected = play(turned, 1, {"type": "reject"})
    assert rejected.hands[1] == turned.hands[1]
    assert rejected.turn == 0 and rejected.phase == "choose" and rejected.offer == "AS" and rejected.face_up is None


def test_4_2_take_the_offer_only_by_melding_it():
    h1 = ["QD", "KD", "AC", "2S", "3H", "4C", "5S", "6C", "AS", "2C"]
    state = position(hands=(None, h1), phase="choose", turn=1, offer="JD")
    assert listed(state, 1) == [{"type": "meld", "melds": [["JD", "QD", "KD"]]}, {"type": "draw"}]
    after = play(state, 1, {"type": "meld", "melds": [["KD", "JD", "QD"]]})
    assert after.melds[1] == (("JD", "QD", "KD"),) and after.offer is None and after.phase == "discard"
    assert play(after, 1, {"type": "discard", "card": "AC"}).offer == "AC"


def test_4_2_hand_cards_are_melded_only_together_with_the_face_up_card():
    hand = ["QH", "QS", "QD", "AC", "3D", "4S", "7C", "JD", "KC", "5D"]
    state = position(hands=(hand, None), phase="turned", face_up="2H")
    refused(state, 0, {"type": "meld", "melds": [["QH", "QS", "QD"]]}, "card_not_melded")
    assert listed_melds(state, 0) == []


def test_4_2_hand_cards_may_join_anywhere_in_the_same_move():
    """seeds/conquian.md 4.2: the melds after the move are old melds + the card + any hand cards."""
    hand = ["QH", "QS", "QD", "AH", "2H", "7C", "JD"]
    state = position(hands=(hand, None), melds=([["4C", "5C", "6C"]], []), phase="turned", face_up="3H")
    after = play(
        state, 0, {"type": "meld", "melds": [["4C", "5C", "6C", "7C"], ["AH", "2H", "3H"], ["QH", "QS", "QD"]]}
    )
    assert after.hands[0] == ("JD",) and after.phase == "discard"


def test_4_2_empty_hand_plays_on_until_the_eleventh_card():
    melds = [["AH", "2H", "3H"], ["4C", "5C", "6C"], ["KD", "KH", "KS"]]
    state = position(hands=(["QS"], None), melds=(melds, []), phase="turned", face_up="7C")
    after = play(state, 0, {"type": "meld", "melds": [*melds[:1], ["4C", "5C", "6C", "7C"], melds[2]]})
    after = play(after, 0, {"type": "discard", "card": "QS"})
    assert after.hands[0] == () and after.deal == 1 and after.turn == 1 and after.phase == "choose"
    ten = [["AH", "2H", "3H"], ["4C", "5C", "6C", "7C"], ["KD", "KH", "KS"]]
    empty = position(hands=((), None), melds=(ten, []), phase="choose", turn=0, offer="2S", stock_top=["JC"])
    assert listed(empty, 0) == [{"type": "draw"}]
    turned = play(empty, 0, {"type": "draw"})
    assert listed_melds(turned, 0) == [[["AH", "2H", "3H"], ["4C", "5C", "6C", "7C", "JC"], ["KD", "KH", "KS"]]]
    won = play(turned, 0, {"type": "meld", "melds": listed_melds(turned, 0)[0]})
    assert won.last_deal.winner == 0 and won.deal == 2


def test_4_3_listed_melds_layoffs_new_melds_and_nothing_else():
    hand = ["2C", "AC", "3H", "3S", "QD", "KH", "7S"]
    state = position(hands=(None, hand), melds=([], [["4C", "5C", "6C"]]), phase="choose", turn=1, offer="3C")
    assert listed(state, 1) == [
        {"type": "meld", "melds": [["3C", "4C", "5C", "6C"]]},
        {"type": "meld", "melds": [["3C", "3H", "3S"], ["4C", "5C", "6C"]]},
        {"type": "meld", "melds": [["AC", "2C", "3C"], ["4C", "5C", "6C"]]},
        {"type": "draw"},
    ]
    # an unlisted but legal meld: lay off the 3 and add the 2 and the ace from the hand
    after = play(state, 1, {"type": "meld", "melds": [["AC", "2C", "3C", "4C", "5C", "6C"]]})
    assert after.melds[1] == (("AC", "2C", "3C", "4C", "5C", "6C"),)


def test_4_3_listed_fallback_rearrangement_when_nothing_simpler_fits():
    melds = [["2H", "2C", "2D"], ["3H", "3C", "3D"], ["4H", "4C", "4D"]]
    state = position(hands=(None, ["KS"]), melds=([], melds), phase="choose", turn=1, offer="AH")
    assert listed_melds(state, 1) == [[["AH", "2H", "3H", "4H"], ["2C", "3C", "4C"], ["2D", "3D", "4D"]]]
    after = play(state, 1, {"type": "meld", "melds": listed_melds(state, 1)[0]})
    assert after.phase == "discard" and after.hands[1] == ("KS",)


def test_4_3_meld_rule_hint_in_the_view():
    state = rearrange_position("turned", face_up="5S")
    assert ENGINE.view(state, 0)["meld_rule"] == {"card": "5S", "card_required": True, "hand_cards": True}
    assert ENGINE.view(state, 1)["meld_rule"] is None
    assert ENGINE.view(state, None)["meld_rule"] is None


def test_4_4_discard_is_free_any_hand_card():
    state = position(
        hands=(["7C", "AH", "2D", "QS"], None),
        melds=([["KH", "KS", "KD"], ["AS", "2S", "3S", "4S"]], [["4C", "5C", "6C"]]),
        phase="discard",
        turn=0,
    )
    assert [m["card"] for m in listed(state, 0)] == list(state.hands[0])
    for card in state.hands[0]:
        play(state, 0, {"type": "discard", "card": card})


# --- 5. Forcing --------------------------------------------------------------------------------------


def f1_position(**options):
    """Seat 0 must discard and holds 7C, which extends seat 1's 4-5-6 of clubs."""
    return position(
        hands=(["7C", "AH", "2D", "QS", "3H", "5H", "6S", "QC"], ["JC", "KC", "AD", "2S", "3D", "JH", "QH"]),
        melds=([["KH", "KS", "KD"]], [["4C", "5C", "6C"]]),
        phase="discard",
        turn=0,
        options=options,
    )


def test_5_f1_the_discarder_may_force_the_opponent_to_add_his_discard():
    state = play(f1_position(), 0, {"type": "discard", "card": "7C"})
    assert state.phase == "force_offer" and state.turn == 1 and state.offer == "7C"
    assert ENGINE.to_move(state) == (0,)
    assert listed(state, 0) == [{"type": "force"}, {"type": "decline_force"}]
    assert listed(state, 1) == []
    refused(state, 1, {"type": "draw"}, "not_your_turn")
    forced = play(state, 0, {"type": "force"})
    assert forced.phase == "forced" and forced.face_up == "7C" and forced.offer is None
    assert ENGINE.to_move(forced) == (1,)
    assert listed(forced, 1) == [{"type": "meld", "melds": [["4C", "5C", "6C", "7C"]]}]
    refused(forced, 1, {"type": "meld", "melds": [["4C", "5C", "6C", "7C", "JC"]]}, "hand_cards_not_allowed")
    refused(forced, 1, {"type": "draw"}, "wrong_phase")
    added = play(forced, 1, {"type": "meld", "melds": [["4C", "5C", "6C", "7C"]]})
    assert added.phase == "discard" and added.turn == 1
    # his discard KC fits seat 0's kings: now seat 1 may force seat 0 (F1 again)
    back = play(added, 1, {"type": "discard", "card": "KC"})
    assert back.phase == "force_offer" and back.turn == 0 and ENGINE.to_move(back) == (1,)


def test_5_f1_declined_force_leaves_the_normal_choice():
    state = play(play(f1_position(), 0, {"type": "discard", "card": "7C"}), 0, {"type": "decline_force"})
    assert state.phase == "choose" and state.turn == 1 and state.offer == "7C"
    assert {"type": "draw"} in listed(state, 1)
    assert {"type": "meld", "melds": [["4C", "5C", "6C", "7C"]]} in listed(state, 1)
    assert play(state, 1, {"type": "draw"}).dead[-1] == "7C"


def test_5_forced_player_may_meld_extra_cards_with_the_option():
    state = play(
        play(f1_position(forced_may_meld_extra=True), 0, {"type": "discard", "card": "7C"}), 0, {"type": "force"}
    )
    after = play(state, 1, {"type": "meld", "melds": [["4C", "5C", "6C", "7C", "JC"]]})
    assert after.melds[1] == (("4C", "5C", "6C", "7C", "JC"),)


def test_5_forcing_disabled():
    state = play(f1_position(forcing_enabled=False), 0, {"type": "discard", "card": "7C"})
    assert state.phase == "choose" and state.turn == 1


def f2_position(**options):
    """Seat 0 has turned JC, which fits both his jacks and seat 1's 5-6-7 of clubs (7 and J adjacent)."""
    return position(
        hands=(["AH", "2D", "QS", "3H", "5H", "6S", "QC"], ["KC", "AD", "2S", "3D", "KH", "QH", "4S"]),
        melds=([["JH", "JS", "JD"]], [["5C", "6C", "7C"]]),
        phase="turned",
        face_up="JC",
        options=options,
    )


def test_5_f2_a_rejected_card_that_fits_may_be_forced_back():
    state = play(f2_position(), 0, {"type": "reject"})
    assert state.phase == "force_reject" and state.turn == 0 and state.face_up == "JC"
    assert ENGINE.to_move(state) == (1,) and listed(state, 1) == [{"type": "force"}, {"type": "decline_force"}]
    forced = play(state, 1, {"type": "force"})
    assert forced.phase == "forced" and ENGINE.to_move(forced) == (0,)
    added = play(forced, 0, {"type": "meld", "melds": [["JC", "JD", "JH", "JS"]]})
    assert added.phase == "discard" and added.turn == 0
    assert play(added, 0, {"type": "discard", "card": "AH"}).turn == 1


def test_5_f2_declined_then_f1_for_the_rejecting_player():
    state = play(play(f2_position(), 0, {"type": "reject"}), 1, {"type": "decline_force"})
    assert state.phase == "force_offer" and state.turn == 1 and state.offer == "JC" and state.face_up is None
    assert ENGINE.to_move(state) == (0,)
    state = play(state, 0, {"type": "decline_force"})
    assert state.phase == "choose" and state.turn == 1
    assert {"type": "meld", "melds": [["5C", "6C", "7C", "JC"]]} in listed(state, 1)


def test_5_fit_by_rearrangement_only_with_the_option():
    melds = [["2H", "2C", "2D"], ["3H", "3C", "3D"], ["4H", "4C", "4D"]]
    hands = (["AH", "QS", "KS", "5S"], ["KC"])
    plain = position(hands=hands, melds=([["QH", "QC", "QD"], ["JS", "JC", "JD"]], melds), phase="discard", turn=0)
    assert play(plain, 0, {"type": "discard", "card": "AH"}).phase == "choose"
    opt = position(
        hands=hands,
        melds=([["QH", "QC", "QD"], ["JS", "JC", "JD"]], melds),
        phase="discard",
        turn=0,
        options={"force_fit_includes_rearrangement": True},
    )
    state = play(opt, 0, {"type": "discard", "card": "AH"})
    assert state.phase == "force_offer"
    forced = play(state, 0, {"type": "force"})
    assert listed(forced, 1) == [
        {"type": "meld", "melds": [["AH", "2H", "3H", "4H"], ["2C", "3C", "4C"], ["2D", "3D", "4D"]]}
    ]
    assert play(forced, 1, listed(forced, 1)[0]).phase == "discard"


# --- 6. End of a deal and the match ------------------------------------------------------------------


def win_position(**fields):
    """Seat 0 holds two kings with 8 cards melded; the king of hearts is turned: his 11th card."""
    return position(
        hands=(["KS", "KD"], None),
        melds=([["AH", "2H", "3H"], ["4C", "5C", "6C", "7C", "JC"]], []),
        phase="turned",
        face_up="KH",
        **fields,
    )


WIN = {"type": "meld", "melds": [["AH", "2H", "3H"], ["4C", "5C", "6C", "7C", "JC"], ["KS", "KD", "KH"]]}


def test_6_1_exactly_eleven_melded_cards_win_the_deal_without_discard():
    state = win_position()
    assert listed(state, 0) == [
        {"type": "meld", "melds": [["AH", "2H", "3H"], ["4C", "5C", "6C", "7C", "JC"], ["KD", "KH", "KS"]]},
        {"type": "reject"},
    ]
    after = play(state, 0, WIN)
    ld = after.last_deal
    assert (ld.deal, ld.dealer, ld.outcome, ld.winner, ld.stake) == (1, 1, "won", 0, 1)
    assert sum(len(m) for m in ld.melds[0]) == 11
    assert after.scores == (1, 0) and after.draws_in_a_row == 0 and after.deal == 2
    assert ENGINE.result(after) is None
    assert ENGINE.view(after, 1)["last_deal"]["winner"] == 0


def test_6_2_stock_exhausted_the_deal_is_drawn_and_the_next_counts_double():
    state = position(hands=(H0, H1), phase="choose", turn=0, offer="QC", stock_size=0)
    assert {"type": "pass"} in listed(state, 0) and {"type": "draw"} not in listed(state, 0)
    refused(state, 0, {"type": "draw"}, "stock_empty")
    after = play(state, 0, {"type": "pass"})
    assert after.last_deal.outcome == "drawn" and after.last_deal.winner is None and after.last_deal.stake == 1
    assert after.scores == (0, 0) and after.draws_in_a_row == 1 and after.drawn_deals == 1
    assert ENGINE.view(after, 0)["stake"] == 2 and after.deal == 2


def test_6_2_pass_only_with_an_empty_stock():
    state = position(hands=(H0, H1), phase="choose", turn=0, offer="QC")
    refused(state, 0, {"type": "pass"}, "stock_not_empty")


@pytest.mark.parametrize(("multiplier", "stake"), [("additive", 3), ("exponential", 4)])
def test_6_2_stake_after_two_drawn_deals(multiplier, stake):
    state = win_position(draws_in_a_row=2, drawn_deals=2, options={"draw_multiplier": multiplier})
    assert ENGINE.view(state, 0)["stake"] == stake
    after = play(state, 0, WIN)
    assert after.scores == (stake, 0) and after.last_deal.stake == stake and after.draws_in_a_row == 0
    assert ENGINE.view(after, 0)["stake"] == 1


def test_6_3_match_ends_at_the_target():
    after = play(win_position(scores=(4, 2)), 0, WIN)
    assert after.phase == "over" and ENGINE.to_move(after) == ()
    assert ENGINE.legal_moves(after, 0) == () and ENGINE.legal_moves(after, 1) == ()
    result = ENGINE.result(after)
    assert result.status == "finished" and result.winners == (0,) and result.losers == (1,)
    assert result.scores == (5, 2)
    assert result.detail == {"end": "target", "deals_played": 1, "drawn_deals": 0, "target": 5}
    refused(after, 0, {"type": "draw"}, "game_over")
    assert ENGINE.view(after, None)["end"] == "target"


def test_6_3_max_deals_ends_the_match_tie_without_winners():
    state = position(hands=(H0, H1), phase="choose", offer="QC", stock_size=0, options={"max_deals": 1})
    result = ENGINE.result(play(state, 0, {"type": "pass"}))
    assert result.winners == () and result.losers == () and result.scores == (0, 0)
    assert result.detail["end"] == "max_deals" and result.detail["drawn_deals"] == 1
    lead = position(hands=(H0, H1), phase="choose", offer="QC", stock_size=0, scores=(0, 1), options={"max_deals": 1})
    assert ENGINE.result(play(lead, 0, {"type": "pass"})).winners == (1,)


@pytest.mark.parametrize(("rotation", "dealer"), [("alternate", 0), ("loser_deals", 1), ("winner_deals", 0)])
def test_6_4_dealer_rotation_after_a_won_deal(rotation, dealer):
    after = play(win_position(options={"dealer_rotation": rotation}), 0, WIN)
    assert after.dealer == dealer and after.turn == 1 - dealer


def test_6_4_dealer_rotation_seat1_wins_loser_deals():
    state = position(
        hands=(None, ["KS", "KD"]),
        melds=([], [["AH", "2H", "3H"], ["4C", "5C", "6C", "7C", "JC"]]),
        phase="turned",
        turn=1,
        face_up="KH",
        options={"dealer_rotation": "loser_deals"},
    )
    after = play(state, 1, WIN)
    assert after.last_deal.winner == 1 and after.dealer == 0


@pytest.mark.parametrize("rotation", ["alternate", "loser_deals", "winner_deals"])
def test_6_4_after_a_drawn_deal_the_deal_alternates(rotation):
    state = position(hands=(H0, H1), phase="choose", offer="QC", stock_size=0, options={"dealer_rotation": rotation})
    assert play(state, 0, {"type": "pass"}).dealer == 0


# --- 7. What each player sees ------------------------------------------------------------------------


def quoted(cards):
    return {f'"{c}"' for c in cards}


def test_7_no_seat_sees_the_other_hand_or_the_stock():
    state = play(new(H0, H1, ["7H", "AS"]), 0, {"type": "draw"})
    for seat in (0, 1):
        text = json.dumps(ENGINE.view(state, seat))
        hidden = quoted([*state.hands[1 - seat], *state.stock])
        assert not [c for c in hidden if c in text]
        assert set(ENGINE.view(state, seat)["hand"]) == set(state.hands[seat])
    spectator = json.dumps(ENGINE.view(state, None))
    assert not [c for c in quoted([*state.hands[0], *state.hands[1], *state.stock]) if c in spectator]
    assert SEED not in spectator and ENGINE.view(state, None)["hand"] is None
    view = ENGINE.view(state, 1)
    assert view["hand_counts"] == [10, 10] and view["stock_count"] == 19 and view["face_up"] == "7H"


def test_7_views_and_moves_do_not_depend_on_hidden_cards():
    for seed in ("v1", "v2", "v3"):
        state = ENGINE.new_game(2, {"max_deals": 1}, seed)
        step = 0
        while ENGINE.result(state) is None and step < 60:
            for seat in (0, 1, None):
                other = ENGINE.shuffle_hidden(state, seat, f"h{step}")
                assert ENGINE.view(other, seat) == ENGINE.view(state, seat)
                if seat is not None:
                    assert ENGINE.legal_moves(other, seat) == ENGINE.legal_moves(state, seat)
            (seat,) = ENGINE.to_move(state)
            moves = ENGINE.legal_moves(state, seat)
            state = ENGINE.apply(state, seat, moves[step % len(moves)])
            step += 1


def test_7_log_entries_are_the_moves_as_posted():
    state = new(H0, H1, ["7H"])
    move = ENGINE.legal_moves(state, 0)[0]
    for viewer in (0, 1, None):
        assert ENGINE.redact_move(state, 0, move, viewer) == {"type": "draw"}


# --- 8. Options ----------------------------------------------------------------------------------------


def test_8_meld_from_hand_without_upcard_option():
    hand = ["QH", "QS", "QD", "AC", "3D", "4S", "7C", "JD", "KC", "5D"]
    state = position(hands=(hand, None), phase="turned", face_up="2H", options={"meld_from_hand_without_upcard": True})
    assert [["QD", "QH", "QS"]] in listed_melds(state, 0)
    after = play(state, 0, {"type": "meld", "melds": [["QH", "QS", "QD"]]})
    assert after.phase == "turned" and after.face_up == "2H" and len(after.hands[0]) == 7
    refused(after, 0, {"type": "meld", "melds": [["QH", "QS", "QD"]]}, "nothing_melded")
    assert {"type": "reject"} in listed(after, 0)
    assert ENGINE.view(after, 0)["meld_rule"] == {"card": "2H", "card_required": False, "hand_cards": True}
    rejected = play(after, 0, {"type": "reject"})
    assert rejected.turn == 1 and rejected.offer == "2H"


@pytest.mark.parametrize(
    "options",
    [{"nope": 1}, {"max_sequence_len": 2}, {"target": 0}, {"draw_multiplier": "double"}, {"max_deals": "3"}],
)
def test_8_bad_options_are_refused(options):
    with pytest.raises(InvalidOptions):
        ENGINE.new_game(2, options, "s")


def test_8_bad_setup_is_refused():
    with pytest.raises(InvalidOptions):
        ENGINE.new_game(3, {}, "s")
    with pytest.raises(InvalidOptions):
        ENGINE.new_game(2, {}, "s", [*DECK[:-1], "8H"])
    with pytest.raises(InvalidOptions):
        ENGINE.new_game(2, {}, "s", DECK[:-1])


def test_8_options_are_published_with_defaults():
    defaults = {o.name: o.default for o in ENGINE.options}
    assert defaults == {
        "first_dealer": "low_card_draw",
        "dealer_rotation": "alternate",
        "meld_from_hand_without_upcard": False,
        "max_sequence_len": None,
        "forcing_enabled": True,
        "force_fit_includes_rearrangement": False,
        "forced_may_meld_extra": False,
        "draw_multiplier": "additive",
        "target": 5,
        "max_deals": None,
    }


# --- invariants over whole matches ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"meld_from_hand_without_upcard": True, "dealer_rotation": "loser_deals"},
        {"force_fit_includes_rearrangement": True, "forced_may_meld_extra": True, "max_sequence_len": 4},
        {"forcing_enabled": False, "draw_multiplier": "exponential", "first_dealer": "seat0"},
    ],
)
def test_invariants_every_listed_move_applies_and_cards_are_conserved(options):
    """Invariants: 40 cards conserved; hand + melded = 10 between turns; melds only grow and stay
    valid; every listed move applies; a deal ends in a bounded number of moves; the match ends."""
    for game in range(3):
        state = ENGINE.new_game(2, {"max_deals": 4, **options}, f"inv{game}")
        moves_in_deal = 0
        pick = 0
        while ENGINE.result(state) is None:
            seats = ENGINE.to_move(state)
            assert len(seats) == 1
            seat = seats[0]
            moves = ENGINE.legal_moves(state, seat)
            assert moves and ENGINE.legal_moves(state, 1 - seat) == ()
            nexts = [ENGINE.apply(state, seat, m) for m in moves]
            assert ENGINE.decode(json.loads(json.dumps(ENGINE.encode(state)))) == state
            pick = (pick * 7 + 3) % 1000
            nxt = nexts[pick % len(nexts)]
            if nxt.deal == state.deal:
                moves_in_deal += 1
                assert moves_in_deal < 200
                for s in (0, 1):
                    old = [c for m in state.melds[s] for c in m]
                    new = [c for m in nxt.melds[s] for c in m]
                    assert set(old) <= set(new) and len(new) <= 11
                    assert all(meld_kind(m, options.get("max_sequence_len")) for m in nxt.melds[s])
                    extra = 1 if (nxt.phase == "discard" and nxt.turn == s) else 0
                    if nxt.phase == "over" and nxt.last_deal.winner == s:
                        extra = 1  # the match ended with this deal: the winner's 11 melded cards stay
                    assert len(nxt.hands[s]) + len(new) == 10 + extra
                assert sorted(all_cards(nxt)) == sorted(DECK)
            else:
                moves_in_deal = 0
            state = nxt
        assert state.deal <= 4
