"""Rules of Kanaster, one test per rule paragraph of seeds/kanaster.md (section in each docstring).

Positions come from a fixed ``deck=`` (``deck_for``) or a direct state builder (``position``);
no test hunts for a seed. The worked checks of seeds/kanaster.md sections 8 and 9 are
``test_worked_check_*``.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest

from engines.cards import shuffled
from engines.core import IllegalMove, InvalidOptions
from engines.kanaster import ENGINE, rules
from engines.kanaster.melds import card_points, is_wild, lay_off, meld_rank, points
from engines.kanaster.moves import Discard, Draw, EndHand, LayOff, MeldCards, TakePile, TakePileLayOff, Tuck
from engines.kanaster.scoring import minimum_meld, score_hand
from engines.kanaster.state import ABORTED, DRAW, FINISHED, PLAY, Meld
from tests.engines.kanaster.helpers import PLAIN_TALON, deck_for, full_deck, meld, position

E = ENGINE


def reason(state, seat, move) -> str:
    with pytest.raises(IllegalMove) as exc:
        E.apply(state, seat, move)
    return exc.value.reason


# --- 2. cards and points ----------------------------------------------------------------------


def test_card_points_follow_the_standard_table():
    """§2: joker 50, 2 and ace 20, K..8 10, 7..4 and black 3 5 (the text's 3 aces = 60, K K joker = 70)."""
    assert card_points("JK") == 50
    assert card_points("2D") == card_points("AS") == 20
    assert {card_points(c) for c in ("KH", "QC", "JD", "10S", "9H", "8C")} == {10}
    assert {card_points(c) for c in ("7H", "6C", "5D", "4S", "3C", "3S")} == {5}
    assert points(["AC", "AD", "AH"]) == 60
    assert points(["KC", "KD", "JK"]) == 70


def test_two_packs_for_two_or_three_players_three_for_four_or_five():
    """§2: 52 cards + 2 jokers per pack; 2 packs (108 cards) for 2-3 players, 3 (162) for 4-5."""
    for players, size in ((2, 108), (3, 108), (4, 162), (5, 162)):
        deck = full_deck(players)
        assert len(deck) == size
        assert Counter(deck)["JK"] == size // 54 * 2
        assert Counter(deck)["KH"] == size // 54
    assert len(full_deck(2, decks=3)) == 162
    assert Counter(full_deck(4, jokers_per_deck=0))["JK"] == 0


def test_jokers_and_twos_are_wild():
    """§2: wild cards are jokers and all 2s; 3s are not."""
    assert all(is_wild(c) for c in ("JK", "2C", "2D", "2H", "2S"))
    assert not any(is_wild(c) for c in ("3C", "3H", "AS", "KD"))


# --- 3. the deal ------------------------------------------------------------------------------


def test_deal_order_from_a_fixed_deck():
    """§3: 13 cards one at a time from the top, starting left of the dealer (seat 0 deals the first
    hand); the next card opens the pile; the rest is the talon; the player left of the dealer begins."""
    plain = [c for c in full_deck(3) if not is_wild(c) and c not in ("3D", "3H")]
    special = [c for c in full_deck(3) if is_wild(c) or c in ("3D", "3H")]
    deck = plain[:-1] + special + plain[-1:]  # no wild card at the cut face, no red 3 dealt
    s = E.new_game(3, {}, "s", deck=deck)
    assert s.dealer == 0 and s.cutter == 2 and s.current == 1
    assert Counter(s.hands[1]) == Counter(deck[0:39:3])
    assert Counter(s.hands[2]) == Counter(deck[1:39:3])
    assert Counter(s.hands[0]) == Counter(deck[2:39:3])
    assert s.pile == (deck[39],)
    assert s.talon == tuple(deck[40:])
    assert s.cut == ()  # a plain card at the cut face: nothing kept


def test_fixed_deck_deals_exactly_like_the_seeded_shuffle():
    """§3: a fixed deck is dealt exactly as shuffled(full deck, seed, "deal") is."""
    for players in (2, 3, 4, 5):
        deck = shuffled(full_deck(players), "abc", "deal")
        assert E.new_game(players, {}, "abc", deck=list(deck)) == E.new_game(players, {}, "abc")


def test_cutter_keeps_wild_cards_at_the_cut_and_gets_fewer_dealt():
    """§3: the deck's bottom card is the cut face; while it is a 2 or joker the cutter (the player
    before the dealer) keeps it; he is dealt that many fewer cards and holds 13 like everyone."""
    deck = deck_for(4, cut=["JK", "2H", "2C"], opening=["9D"])
    s = E.new_game(4, {}, "s", deck=deck)
    assert s.cutter == 3
    assert s.cut == ("JK", "2H", "2C")
    assert Counter(s.hands[3])["JK"] >= 1 and Counter(s.hands[3])["2H"] >= 1
    assert [len(h) for h in s.hands] == [13, 13, 13, 13]
    # dealing skipped the full cutter: seat 3 got its 10 dealt cards from rounds 1-10 only
    assert Counter(s.hands[3]) - Counter(["JK", "2H", "2C"]) == Counter(deck[2:40:4])
    assert E.view(s, 0)["cut_cards"] == ["JK", "2H", "2C"]
    off = E.new_game(4, {"cut_bonus": False}, "s", deck=deck)
    assert off.cut == () and off.talon[-1] == "JK"


def test_opening_card_is_covered_while_wild_or_red_three():
    """§3: a 2, a joker or (ruling) a red 3 turned as the opening card is covered by the next card."""
    deck = deck_for(2, opening=["2S", "3H", "JK", "8D"])
    s = E.new_game(2, {}, "s", deck=deck)
    assert s.pile == ("2S", "3H", "JK", "8D")
    deck = deck_for(2, opening=["3C"])
    assert E.new_game(2, {}, "s", deck=deck).pile == ("3C",)  # a black 3 stays (it blocks)


def test_every_player_holds_thirteen_after_the_deal_and_red_three_replacement():
    """§3/§4: hand sizes are 13 for everyone, cutter included, after red 3s are replaced."""
    for players in (2, 3, 4, 5):
        for seed in ("a", "b", "c"):
            s = E.new_game(players, {}, seed)
            assert len(s.hands[s.current]) == 13
            assert all(len(h) == 13 for h in s.hands)


def test_cards_per_player_option():
    """§12: cards_per_player changes the deal size."""
    s = E.new_game(2, {"cards_per_player": 15}, "s")
    assert [len(h) for h in s.hands] == [15, 15]


def test_bad_options_and_decks_are_refused():
    """§12: options are validated; a fixed deck must be exactly the game's cards."""
    with pytest.raises(InvalidOptions):
        E.new_game(6, {}, "s")
    with pytest.raises(InvalidOptions):
        E.new_game(2, {"target": 0}, "s")
    with pytest.raises(InvalidOptions):
        E.new_game(2, {"sperr_scope": "mine"}, "s")
    with pytest.raises(InvalidOptions):
        E.new_game(2, {}, "s", deck=list(full_deck(2))[:-1])
    with pytest.raises(InvalidOptions):
        E.new_game(2, {}, "s", deck=list(full_deck(2))[:-1] + ["AC"])
    assert E.new_game(2, {"target": 10000}, "s").rules.target == 10000
    assert E.new_game(2, {"target": 777}, "s").rules.target == 777


# --- 4. red 3s --------------------------------------------------------------------------------


def test_red_threes_are_laid_out_and_replaced_at_the_first_turn():
    """§4: at his first turn a player lays out every red 3 and replaces it from the talon; a player
    whose turn has not come yet still holds his."""
    deck = deck_for(3, dealt={1: ["3H", "3D"], 2: ["3H"]}, opening=["9D"], talon_top=["KC", "KD"])
    s = E.new_game(3, {}, "s", deck=deck)
    assert s.current == 1
    assert s.red_threes[1] == ("3D", "3H")
    assert Counter(s.hands[1])["KC"] == 1 and Counter(s.hands[1])["KD"] == 1
    assert len(s.hands[1]) == 13 and "3H" not in s.hands[1]
    assert "3H" in s.hands[2] and s.red_threes[2] == ()
    s = E.apply(s, 1, Draw())
    s = E.apply(s, 1, Discard(s.hands[1][0]))
    assert s.current == 2 and s.red_threes[2] == ("3H",) and len(s.hands[2]) == 13


def test_a_red_three_drawn_as_replacement_is_replaced_again():
    """§4: a replacement that is itself a red 3 is laid out and replaced too."""
    deck = deck_for(2, dealt={1: ["3D"]}, opening=["9D"], talon_top=["3H", "QC"])
    s = E.new_game(2, {}, "s", deck=deck)
    assert s.red_threes[1] == ("3D", "3H")
    assert "QC" in s.hands[1] and len(s.hands[1]) == 13


def test_a_red_three_drawn_later_is_laid_out_and_replaced():
    """§4: a red 3 drawn from the talon is laid out at once and replaced."""
    s = position(hands=[["KC", "QD", "5S"], ["4C"] * 3], talon=["3D", "8H", "9H"])
    s = E.apply(s, 0, Draw())
    assert s.red_threes[0] == ("3D",)
    assert "8H" in s.hands[0] and len(s.hands[0]) == 4
    assert s.talon == ("9H",) and s.phase == PLAY


def test_red_threes_taken_with_the_pile_are_laid_out_without_replacement():
    """§4: a red 3 in the pile (a covered opening card) goes to the red-3 area, not replaced."""
    s = position(hands=[["KC", "KD", "5S", "6S"], ["4C"] * 3], pile=["3H", "JK", "KS"],
                 melds=[meld(0, "AC", "AD", "AH")])
    s = E.apply(s, 0, TakePile((("KS", "KC", "KD"),)))
    assert s.red_threes[0] == ("3H",)
    assert sorted(s.hands[0]) == sorted(["5S", "6S", "JK"])
    assert s.talon == PLAIN_TALON


def test_red_threes_are_never_melded():
    """§4/§6: red 3s cannot be melded (and so never reach the pile)."""
    with pytest.raises(IllegalMove) as exc:
        meld_rank(["3H", "3D", "3H"])
    assert exc.value.reason == "red_three_not_meldable"


def test_red_three_as_the_last_talon_card_ends_the_hand():
    """§11: when the draw finds only a red 3 and the talon is then empty, the hand ends at once."""
    s = position(hands=[["KC", "QD", "5S"], ["4C", "4D", "4H"]], talon=["3D"], max_hands=1)
    s = E.apply(s, 0, Draw())
    assert s.phase == FINISHED and s.last_hand is not None and s.last_hand.went_out is None
    assert s.red_threes[0] == ("3D",)
    assert s.last_hand.seats[0].red_threes == -100  # no canasta


def test_red_threes_of_a_player_without_a_turn_count_as_laid_out():
    """§4 ruling: red 3s still in the hand of a player who never had his first turn are laid out for
    the count (never counted as hand cards)."""
    s = position(hands=[["KC", "QD", "5S"], ["3H", "4D", "4H"]], talon=["3D"], started=[True, False], max_hands=1)
    s = E.apply(s, 0, Draw())
    assert s.red_threes[1] == ("3H",)
    assert s.last_hand.seats[1].red_threes == -100 and s.last_hand.seats[1].hand == -10


# --- 5. the turn ------------------------------------------------------------------------------


def test_draw_then_discard_passes_the_turn():
    """§5.1/§5.4: draw one talon card (it may be discarded at once); one discard ends the turn."""
    s = position(hands=[["KC", "QD", "5S"], ["4C", "4D", "4H"]], talon=["8H", "9H"])
    s = E.apply(s, 0, Draw())
    assert "8H" in s.hands[0] and s.phase == PLAY
    s = E.apply(s, 0, Discard("8H"))
    assert s.pile[-1] == "8H" and s.current == 1 and s.phase == DRAW and s.turns == 1
    assert reason(s, 0, MeldCards((("KC", "QD", "5S"),))) == "not_your_turn"  # "Jetzt darf nicht mehr rausgelegt"
    assert sorted(s.hands[0]) == sorted(["KC", "QD", "5S"])


def test_a_turn_starts_with_the_draw_and_has_exactly_one():
    """§5: melding or discarding before drawing is refused; so is a second draw."""
    s = position(hands=[["KC", "KD", "KH", "5S"], ["4C", "4D", "4H"]])
    assert reason(s, 0, Discard("5S")) == "must_draw_first"
    assert reason(s, 0, MeldCards((("KC", "KD", "KH"),))) == "must_draw_first"
    assert reason(s, 1, Draw()) == "not_your_turn"
    s = E.apply(s, 0, Draw())
    assert reason(s, 0, Draw()) == "already_drawn"
    assert reason(s, 0, TakePile((("9C", "KC", "KD"),))) == "already_drawn"


def test_take_the_pile_with_two_natural_cards():
    """§5.2: the top card is melded with two hand cards; then the whole rest of the pile is taken."""
    s = position(hands=[["AC", "AD", "5S", "6S"], ["4C"] * 3], pile=["7C", "8D", "AS"], scores=(0, 0))
    s2 = E.apply(s, 0, TakePile((("AS", "AC", "AD"),)))
    assert s2.melds == (Meld(0, "A", ("AC", "AD", "AS")),)
    assert sorted(s2.hands[0]) == sorted(["5S", "6S", "7C", "8D"])
    assert s2.pile == () and s2.phase == PLAY and s2.took_pile
    assert s2.pile_taken == ("7C", "8D")


def test_take_the_pile_with_a_natural_and_a_wild_card():
    """§5.2 ruling: one natural and one wild card from the hand also take the pile."""
    s = position(hands=[["AC", "JK", "5S", "6S"], ["4C"] * 3], pile=["7C", "AS"])
    s2 = E.apply(s, 0, TakePile((("AS", "AC", "JK"),)))  # 20 + 20 + 50 = 90 >= 50
    assert s2.melds[0].cards == ("AC", "AS", "JK")


def test_take_the_pile_onto_an_own_meld():
    """§5.2: the top card may instead be laid onto one of the player's own melds."""
    m = meld(0, "9C", "9D", "9H")
    s = position(hands=[["5S", "6S"], ["4C"] * 3], pile=["7C", "9S"], melds=[m, meld(1, "9C", "9D", "9S")])
    assert reason(s, 0, TakePileLayOff(1)) == "not_own_meld"
    s2 = E.apply(s, 0, TakePileLayOff(0))
    assert s2.melds[0].cards == ("9C", "9D", "9H", "9S")
    assert sorted(s2.hands[0]) == sorted(["5S", "6S", "7C"])


def test_the_top_card_must_be_melded_to_take_the_pile():
    """§5.2: a take_pile whose melds do not contain the top card is refused; a wrong meld too."""
    s = position(hands=[["QC", "QD", "QH", "KC", "KD"], ["4C"] * 3], pile=["7C", "KS"], scores=(0, 0))
    assert reason(s, 0, TakePile((("QC", "QD", "QH"),))) == "top_card_not_melded"
    assert reason(s, 0, TakePile((("KS", "KC", "QD"),))) == "mixed_ranks"
    assert reason(s, 0, TakePile((("KS", "KC"),))) == "meld_too_small"
    assert reason(s, 0, TakePileLayOff(0)) == "no_such_meld"




def test_taking_the_pile_must_leave_a_card_to_discard():
    """§5.2/§6: a take that would leave no card for the discard is refused."""
    s = position(hands=[["QC", "QD"], ["4C"] * 3], pile=["QS"], melds=[meld(0, "AC", "AD", "AH")])
    assert reason(s, 0, TakePile((("QS", "QC", "QD"),))) == "must_keep_a_card"
    assert E.legal_moves(s, 0) == (Draw(),)
    assert reason(replace(s, pile=("5C", "QS")), 0, TakePile((("QS", "QC", "QD"),))) == "canasta_needed_to_go_out"
    s = replace(s, pile=("5C", "6C", "QS"))
    assert E.apply(s, 0, TakePile((("QS", "QC", "QD"),))).hands[0] == ("5C", "6C")


def test_first_meld_with_the_pile_counts_the_top_card_but_not_the_rest():
    """§8: taking the pile as a first meld needs the minimum from the cards of the move, the top card
    included, the rest of the pile not; further melds from the hand may be combined in the move."""
    hand = ["5C", "5D", "KC", "KD", "KH", "9S", "9D", "9H", "4C"]
    s = position(hands=[hand, ["4C"] * 3], pile=["AC", "AD", "5S"])
    assert reason(s, 0, TakePile((("5S", "5C", "5D"),))) == "below_minimum_meld"  # 15
    assert reason(s, 0, TakePile((("5S", "5C", "5D"), ("KC", "KD", "KH")))) == "below_minimum_meld"  # 45
    s2 = E.apply(s, 0, TakePile((("5S", "5C", "5D"), ("KC", "KD", "KH"), ("9S", "9D", "9H"))))  # 75
    assert len(s2.melds) == 3 and sorted(s2.hands[0]) == sorted(["4C", "AC", "AD"])
    assert s2.first_meld_turn


def test_melding_after_taking_the_pile_and_the_strict_option():
    """§5.3 ruling: after taking the pile the player may still meld before discarding; option
    meld_after_taking_pile=false allows only tucks and the discard."""
    s = position(hands=[["QC", "QD", "8C", "8D", "8H", "5S"], ["4C"] * 3], pile=["7C", "QS"],
                 melds=[meld(0, "AC", "AD", "AH")])
    s2 = E.apply(s, 0, TakePile((("QS", "QC", "QD"),)))
    s3 = E.apply(s2, 0, MeldCards((("8C", "8D", "8H"),)))
    assert len(s3.melds) == 3
    strict = replace(s2, rules=replace(s2.rules, meld_after_taking_pile=False))
    assert reason(strict, 0, MeldCards((("8C", "8D", "8H"),))) == "no_meld_after_taking_pile"
    assert reason(strict, 0, LayOff(0, ("8C",))) == "no_meld_after_taking_pile"
    assert not any(isinstance(m, MeldCards | LayOff) for m in E.legal_moves(strict, 0))
    E.apply(strict, 0, Discard("5S"))


# --- 5.7 worked checks and 8. the minimum ------------------------------------------------------


def _first_meld(melds, score=0):
    cards = [c for m in melds for c in m]
    s = position(hands=[cards + ["4C", "4D"], ["4C"] * 3], phase=PLAY, scores=(score, 0))
    return E.apply(s, 0, MeldCards(tuple(tuple(m) for m in melds)))


@pytest.mark.parametrize(
    ("melds", "ok"),
    [
        ([["KC", "KD", "JK"]], True),  # 70
        ([["AC", "AD", "AH"]], True),  # 60
        ([["5C", "5D", "5H"]], False),  # 15
        ([["5C", "5D", "5H"], ["KC", "KD", "KH"]], False),  # 45
        ([["7C", "7D", "7H"], ["8C", "8D", "8H"], ["AC", "AD", "2S"]], True),  # 15 + 30 + 60 = 105
    ],
)
def test_worked_check_first_meld_minimum_at_score_zero(melds, ok):
    """Worked check, §8: at score 0 the first meld needs 50: K K Jkr 70 yes, A A A 60
    yes, 5 5 5 15 no, 5 5 5 + K K K 45 no, 7 7 7 + 8 8 8 + A A 2 105 yes (several melds in one move)."""
    if ok:
        s = _first_meld(melds)
        assert len(s.melds) == len(melds) and s.first_meld_turn
    else:
        with pytest.raises(IllegalMove) as exc:
            _first_meld(melds)
        assert exc.value.reason == "below_minimum_meld"


def test_minimum_depends_on_the_written_score():
    """§8: 50; 90 from 1,500; 120 from 3,000 (inclusive); a negative total needs 50 (option, standard 15)."""
    r = E.new_game(2, {}, "s").rules
    assert [minimum_meld(x, r) for x in (0, 1499, 1500, 2999, 3000, 12000, -40)] == [50, 50, 90, 90, 120, 120, 50]
    assert minimum_meld(-40, replace(r, negative_score_minimum=15)) == 15
    with pytest.raises(IllegalMove):
        _first_meld([["AC", "AD", "AH"]], score=1500)  # 60 < 90
    assert _first_meld([["AC", "AD", "AH"], ["KC", "KD", "KH"]], score=1500).melds  # 90
    with pytest.raises(IllegalMove):
        _first_meld([["AC", "AD", "AH"], ["KC", "KD", "KH"]], score=3000)  # 90 < 120
    assert _first_meld([["AC", "AD", "AH"], ["KC", "KD", "JK"]], score=3000).melds  # 130


def test_the_minimum_applies_only_to_the_first_meld_of_the_hand():
    """§8: once a player has melded this hand, further melds need no minimum."""
    s = position(hands=[["5C", "5D", "5H", "9S", "9D"], ["4C"] * 3], phase=PLAY, melds=[meld(0, "AC", "AD", "AH")])
    assert E.apply(s, 0, MeldCards((("5C", "5D", "5H"),))).melds[1].rank == "5"


def test_the_minimum_applies_to_a_concealed_going_out_unless_exempted():
    """§8/§9 ruling: going out in the turn of the first meld still needs the minimum; option
    concealed_exempt_from_minimum waives it for a first meld from the hand that goes out."""
    hand = ["5C", "5D", "5H", "5S", "5C", "5D", "5H", "9D"]
    s = position(hands=[hand, ["4C"] * 3], phase=PLAY, max_hands=1)
    move = MeldCards((("5C", "5D", "5H", "5S", "5C", "5D", "5H"),))  # 35 points
    assert reason(s, 0, move) == "below_minimum_meld"
    free = replace(s, rules=replace(s.rules, concealed_exempt_from_minimum=True))
    s2 = E.apply(E.apply(free, 0, move), 0, Discard("9D"))
    assert s2.last_hand.went_out == 0 and s2.last_hand.seats[0].going_out == 200
    assert s2.last_hand.seats[0].total == 35 + 500 + 200
    taken = replace(free, took_pile=True)
    assert reason(taken, 0, move) == "below_minimum_meld"  # no exemption after taking the pile


# --- 6. melds ---------------------------------------------------------------------------------


def test_a_meld_is_three_or_more_cards_of_one_rank():
    """§6: at least three cards, one natural rank (4 to ace); 2s and jokers alone are no meld."""
    assert meld_rank(["KC", "KD", "KH"]) == "K"
    assert meld_rank(["4C", "4D", "4H", "4S", "4C"]) == "4"
    for cards, why in ((["KC", "KD"], "meld_too_small"), (["KC", "KD", "QH"], "mixed_ranks"),
                       (["JK", "2C", "2D"], "no_natural_card")):
        with pytest.raises(IllegalMove) as exc:
            meld_rank(cards)
        assert exc.value.reason == why


def test_wild_cards_are_always_strictly_fewer_than_natural_cards():
    """§6: "Es dürfen nie gleichviel oder mehr Joker sein als normale Spielkarten", for 2s
    too, at creation and after every lay-off: K K Jkr yes, K K Jkr 2 no; a 7-card canasta holds at
    most 3 wild cards, a 9-card meld 4."""
    assert meld_rank(["KC", "KD", "JK"]) == "K"
    with pytest.raises(IllegalMove) as exc:
        meld_rank(["KC", "KD", "JK", "2C"])
    assert exc.value.reason == "too_many_wild_cards"
    m = Meld(0, "K", ("KC", "KD", "JK"))
    with pytest.raises(IllegalMove):
        lay_off(m, ["2S"])
    assert lay_off(m, ["KH", "2S"]) == ("KC", "KD", "KH", "2S", "JK")
    assert meld_rank(["KC", "KD", "KH", "KS", "JK", "JK", "2C"]) == "K"
    with pytest.raises(IllegalMove):
        meld_rank(["KC", "KD", "KH", "JK", "JK", "2C", "2D"])
    assert meld_rank(["KC", "KD", "KH", "KS", "KC", "JK", "JK", "2C", "2D"]) == "K"
    s = position(hands=[["2S", "5C", "6C"], ["4C"] * 3], phase=PLAY, melds=[m])
    assert reason(s, 0, LayOff(0, ("2S",))) == "too_many_wild_cards"


def test_several_melds_and_canastas_of_one_rank():
    """§6: a player may hold several melds, and several canastas, of the same rank."""
    s = position(hands=[["KC", "KD", "KH", "5S", "6S"], ["4C"] * 3], phase=PLAY,
                 melds=[meld(0, "KC", "KD", "KH", "KS", "KC", "KD", "KH")])
    s2 = E.apply(s, 0, MeldCards((("KC", "KD", "KH"),)))
    assert [m.rank for m in s2.melds] == ["K", "K"]


def test_only_own_melds_take_lay_offs():
    """§6 ruling: cards are never laid off onto another player's meld."""
    s = position(hands=[["KS", "5S", "6S"], ["4C"] * 3], phase=PLAY,
                 melds=[meld(1, "KC", "KD", "KH"), meld(0, "AC", "AD", "AH")])
    assert reason(s, 0, LayOff(0, ("KS",))) == "not_own_meld"
    assert reason(s, 0, LayOff(1, ("KS",))) == "card_does_not_fit"
    assert reason(s, 0, LayOff(7, ("KS",))) == "no_such_meld"
    assert reason(s, 0, LayOff(-1, ("KS",))) == "no_such_meld"


def test_black_threes_are_melded_only_when_going_out():
    """§6 ruling: black 3s (three or more, no wild cards) only in the move that leaves the final
    discard, which needs a canasta; option black3_meld_on_going_out=false: never."""
    canasta = meld(0, "9C", "9D", "9H", "9S", "9C", "9D", "9H")
    s = position(hands=[["3C", "3S", "3C", "5D", "6D", "2C"], ["4C"] * 3], phase=PLAY, melds=[canasta])
    assert reason(s, 0, MeldCards((("3C", "3S", "3C"),))) == "black_threes_only_going_out"
    assert reason(s, 0, MeldCards((("3C", "3S", "2C"),))) == "black_threes_alone"
    s = position(hands=[["3C", "3S", "3C", "5D"], ["4C"] * 3], phase=PLAY, melds=[canasta], max_hands=1)
    out = E.apply(E.apply(s, 0, MeldCards((("3C", "3C", "3S"),))), 0, Discard("5D"))
    assert out.last_hand.went_out == 0
    assert out.last_hand.seats[0].table == 70 + 15
    never = replace(s, rules=replace(s.rules, black3_meld_on_going_out=False))
    assert reason(never, 0, MeldCards((("3C", "3S", "3C"),))) == "black_threes_not_meldable"
    bare = position(hands=[["3C", "3S", "3C", "5D"], ["4C"] * 3], phase=PLAY, melds=[meld(0, "9C", "9D", "9H")])
    assert reason(bare, 0, MeldCards((("3C", "3S", "3C"),))) == "canasta_needed_to_go_out"


def test_a_card_must_stay_for_the_discard():
    """§6/§9: melds and lay-offs must leave a card to discard; leaving exactly one (going out) needs
    a canasta."""
    canasta = meld(0, "9C", "9D", "9H", "9S", "9C", "9D", "9H")
    s = position(hands=[["9S", "9D"], ["4C"] * 3], phase=PLAY, melds=[canasta])
    assert reason(s, 0, LayOff(0, ("9S", "9D"))) == "must_keep_a_card"
    assert E.apply(s, 0, LayOff(0, ("9S",))).hands[0] == ("9D",)
    s = position(hands=[["9S", "5D"], ["4C"] * 3], phase=PLAY, melds=[meld(0, "9C", "9D", "9H")])
    assert reason(s, 0, LayOff(0, ("9S",))) == "canasta_needed_to_go_out"


def test_discard_any_card():
    """§5.4: any hand card may be discarded, wild cards and black 3s included; a card not held is refused."""
    s = position(hands=[["JK", "3C", "5S"], ["4C"] * 3], phase=PLAY)
    assert E.apply(s, 0, Discard("JK")).pile[-1] == "JK"
    assert E.apply(s, 0, Discard("3C")).pile[-1] == "3C"
    assert reason(s, 0, Discard("AS")) == "card_not_in_hand"
    assert reason(s, 0, Discard("ZZ")) == "unknown_card"


# --- 7. blocking cards, the frozen pile, tucking -----------------------------------------------


def test_a_rank_with_a_canasta_blocks_the_pile():
    """§7: a top card of a rank with a canasta on the table (anyone's) is a Sperrkarte: the
    pile cannot be taken; option sperr_scope=own counts only the mover's canastas."""
    canasta = meld(1, "KC", "KD", "KH", "KS", "KC", "KD", "KH")
    s = position(hands=[["KS", "KD", "5S", "6S"], ["4C"] * 3], pile=["7C", "KS"],
                 melds=[canasta, meld(0, "AC", "AD", "AH"), meld(1, "AC", "AD", "AH")])
    assert reason(s, 0, TakePile((("KS", "KS", "KD"),))) == "pile_blocked"
    assert E.view(s, 0)["pile_blocked"] and E.view(s, 0)["blocking_ranks"] == ["K"]
    own = replace(s, rules=replace(s.rules, sperr_scope="own"))
    assert E.apply(own, 0, TakePile((("KS", "KS", "KD"),))).took_pile
    own1 = replace(own, current=1, hands=(own.hands[1], own.hands[0]))
    assert reason(own1, 1, TakePile((("KS", "KS", "KD"),))) == "pile_blocked"


def test_a_black_three_or_a_wild_card_on_top_blocks_the_pile():
    """§7: a black 3 on top blocks the pile ("die selbe Regel gilt für schwarze 3er"); by ruling a
    wild card on top too (it has no rank to meld with)."""
    for top in ("3C", "3S", "JK", "2H"):
        s = position(hands=[["3C", "3S", "JK", "2H", "KC", "KD"], ["4C"] * 3], pile=["KS", top],
                     melds=[meld(0, "3C", "3S", "3C"), meld(0, "KH", "KD", "KC")])
        assert reason(s, 0, TakePile(((top, "KC", "KD"),))) == "pile_blocked"
        assert reason(s, 0, TakePileLayOff(1)) == "pile_blocked"
        assert not any(isinstance(m, TakePile | TakePileLayOff) for m in E.legal_moves(s, 0))
    s = position(hands=[["KC", "KD", "AC", "AD", "AH", "5C"], ["4C"] * 3], pile=["JK", "KS"])
    assert E.apply(s, 0, TakePile((("KS", "KC", "KD"), ("AC", "AD", "AH")))).hands[0] == ("5C", "JK")


def test_frozen_pile_option():
    """§7 option wild_discard_freezes_pile: with a wild card in the pile, only a new meld with two
    natural hand cards of the top card's rank takes it."""
    hand = ["QC", "QD", "2C", "5S", "6S"]
    s = position(hands=[hand, ["4C"] * 3], pile=["JK", "5C", "QS"], melds=[meld(0, "QH", "QD", "QC")],
                 wild_discard_freezes_pile=True)
    assert E.view(s, 0)["pile_frozen"]
    assert reason(s, 0, TakePile((("QS", "QC", "2C"),))) == "pile_frozen"
    assert reason(s, 0, TakePileLayOff(0)) == "pile_frozen"
    assert E.apply(s, 0, TakePile((("QS", "QC", "QD"),))).took_pile
    thawed = replace(s, rules=replace(s.rules, wild_discard_freezes_pile=False))
    assert E.apply(thawed, 0, TakePile((("QS", "QC", "2C"),))).took_pile
    assert E.apply(thawed, 0, TakePileLayOff(0)).took_pile


def test_blocking_cards_from_the_pile_are_tucked_under_a_canasta_without_effect():
    """§7: the player who took the pile may tuck the blocking cards that came with it under a
    canasta of their rank (anyone's); they count neither for size nor natural status, and score 0."""
    canasta = meld(1, "KC", "KD", "KH", "KS", "KC", "KD", "JK")
    s = position(hands=[["QC", "QD", "KH", "5S", "6S"], ["4C"] * 3], pile=["KS", "KD", "QS"],
                 melds=[canasta, meld(0, "AC", "AD", "AH")], max_hands=1)
    assert reason(s, 0, Tuck(0, ("KH",))) == "must_draw_first"
    s = E.apply(s, 0, TakePile((("QS", "QC", "QD"),)))
    assert Tuck(0, ("KD", "KS")) in E.legal_moves(s, 0)
    assert reason(s, 0, Tuck(0, ("KH", "KS", "KD"))) == "not_from_pile"  # the KH was held before
    assert reason(s, 0, Tuck(1, ("KS",))) == "not_a_canasta"
    t = E.apply(s, 0, Tuck(0, ("KS", "KD")))
    assert t.melds[0].tucked == ("KD", "KS") and t.melds[0].cards == canasta.cards
    assert sorted(t.hands[0]) == sorted(["KH", "5S", "6S"]) and t.pile_taken == ()
    assert reason(t, 0, Tuck(0, ("KH",))) == "not_from_pile"
    own = replace(s, rules=replace(s.rules, tuck_scope="own_canasta"))
    assert reason(own, 0, Tuck(0, ("KS",))) == "not_own_meld"
    seats = score_hand(2, t.melds, t.hands, t.red_threes, None, False, t.rules)
    assert seats[1].table == points(canasta.cards) and seats[1].canastas == 300
    counted = score_hand(2, t.melds, t.hands, t.red_threes, None, False, replace(t.rules, tuck_points="card_points"))
    assert counted[1].table == points(canasta.cards) + 20


def test_tucking_needs_the_pile_taken_this_turn():
    """§7: only in the turn the player took the pile."""
    canasta = meld(0, "KC", "KD", "KH", "KS", "KC", "KD", "KH")
    s = position(hands=[["KS", "5S", "6S"], ["4C"] * 3], phase=PLAY, melds=[canasta], pile_taken=["KS"])
    assert reason(s, 0, Tuck(0, ("KS",))) == "pile_not_taken"


# --- 9. going out and the count -----------------------------------------------------------------


def test_worked_check_winner_920_and_loser_minus_225():
    """Worked check, §9: the winner with 7 natural aces (140 + 500), K K K Jkr (80),
    one red 3 (100) and going out (100) scores 920; a loser without a canasta with Q Q Q (30),
    Jkr + 5 in hand (-55) and two red 3s (-200) scores -225."""
    aces = meld(0, "AC", "AD", "AH", "AS", "AC", "AD")
    s = position(
        hands=[["AH"], ["JK", "5C"]],
        talon=["8C", "9C"],
        melds=[aces, meld(0, "KC", "KD", "KH", "JK"), meld(1, "QC", "QD", "QH")],
        red_threes=[["3H"], ["3D", "3H"]],
        max_hands=1,
    )
    s = E.apply(s, 0, Draw())
    s = E.apply(s, 0, LayOff(0, ("AH",)))
    s = E.apply(s, 0, Discard("8C"))
    assert s.phase == FINISHED
    win, lose = s.last_hand.seats
    assert (win.table, win.canastas, win.red_threes, win.going_out, win.hand, win.total) == (220, 500, 100, 100, 0, 920)
    assert (lose.table, lose.canastas, lose.red_threes, lose.hand, lose.total) == (30, 0, -200, -55, -225)
    assert s.scores == (920, -225)
    assert E.result(s).winners == (0,) and E.result(s).losers == (1,)


def test_going_out_in_the_turn_of_the_first_meld_scores_200():
    """§9: "das Erstemal rauslegen und gleich fertig machen" = 200; later 100 (previous test)."""
    s = position(hands=[["KC", "KC", "KD", "KD", "KH", "KH", "KS"], ["4C"] * 3], talon=["5D"], max_hands=1)
    s = E.apply(s, 0, Draw())
    s = E.apply(s, 0, MeldCards((("KC", "KC", "KD", "KD", "KH", "KH", "KS"),)))
    assert s.first_meld_turn
    s = E.apply(s, 0, Discard("5D"))
    assert s.last_hand.concealed and s.last_hand.seats[0].going_out == 200
    assert s.last_hand.seats[0].total == 70 + 500 + 200


def test_going_out_needs_a_canasta_and_a_final_discard():
    """§9: all cards but one melded, that one discarded; a canasta is required."""
    s = position(hands=[["9S"], ["4C"] * 3], talon=["5D"], melds=[meld(0, "9C", "9D", "9H")])
    s = E.apply(s, 0, Draw())
    assert reason(s, 0, LayOff(0, ("9S",))) == "canasta_needed_to_go_out"
    assert reason(s, 0, LayOff(0, ("9S", "5D"))) == "card_does_not_fit"


def test_losers_red_threes_count_plus_only_with_a_canasta():
    """§9: the others score table plus, hand minus; red 3s +100 each with a canasta of their own,
    else -100 each; canasta bonuses count for them too."""
    r = E.new_game(3, {}, "s").rules
    melds = [meld(1, "5C", "5D", "5H", "5S", "5C", "5D", "JK"), meld(2, "6C", "6D", "6H")]
    seats = score_hand(3, melds, [[], ["4C"], ["AC"]], [[], ["3H"], ["3D"]], None, False, r)
    assert seats[1].red_threes == 100 and seats[1].canastas == 300 and seats[1].table == 80 and seats[1].hand == -5
    assert seats[1].total == 80 + 300 + 100 - 5
    assert seats[2].red_threes == -100 and seats[2].total == 15 - 20 - 100


def test_canasta_bonus_values_and_options():
    """§2/§9: natural canasta 500, mixed 300 (options)."""
    r = E.new_game(2, {"natural_canasta_bonus": 600, "mixed_canasta_bonus": 250}, "s").rules
    melds = [meld(0, *["7C"] * 7), meld(0, *(["8C"] * 6 + ["2D"]))]
    seats = score_hand(2, melds, [["4C"], []], [[], []], None, False, r)
    assert seats[0].canastas == 850
    seats = score_hand(2, melds, [["4C"], []], [[], []], None, False, E.new_game(2, {}, "s").rules)
    assert seats[0].canastas == 800


def test_all_red_threes_bonus_option():
    """§9 option red3_all_bonus: all red 3s of the game with one player count 200 each."""
    r = E.new_game(2, {}, "s").rules
    reds = [["3D", "3D", "3H", "3H"], []]
    assert score_hand(2, [meld(0, *["7C"] * 7)], [[], []], reds, 0, False, r)[0].red_threes == 400
    r2 = replace(r, red3_all_bonus=True)
    assert score_hand(2, [meld(0, *["7C"] * 7)], [[], []], reds, 0, False, r2)[0].red_threes == 800
    assert score_hand(2, [], [[], []], reds, None, False, r2)[0].red_threes == -800


# --- 10. the match ----------------------------------------------------------------------------


def test_the_next_hand_is_dealt_automatically_and_scores_accumulate():
    """§10: when a hand ends the next is dealt at once (shuffle purpose deal/<n>, the dealer moves one
    seat on); totals accumulate and decide the next first-meld minimum; the view shows the last hand."""
    s = position(hands=[["AC"], ["4C"]], talon=(), scores=(1450, 0))
    s = replace(s, melds=(meld(0, "AD", "AH", "AS", "AD", "AH", "AS", "AC"),))
    s = E.apply(s, 0, EndHand())
    assert s.hand_number == 2 and s.dealer == 1 and s.phase == DRAW and s.current == 0
    assert s.scores == (1450 + 140 + 500 - 20, -5) and s.history == ((620, -5),)
    hands, talon, pile, _ = rules.deal(2, s.rules, shuffled(rules.full_deck(s.rules), s.seed, "deal/2"), 1)
    assert s.hands[1] == hands[1] and s.pile == pile
    v = E.view(s, 1)
    assert v["players"][0]["minimum"] == 90 and v["players"][1]["minimum"] == 50
    assert v["scores"] == list(s.scores)
    assert v["last_hand"]["went_out"] is None and v["last_hand"]["seats"][0]["total"] == 620
    assert v["melds"] == [] and v["hands_played"] == 1


def test_the_match_ends_at_the_target_and_the_highest_total_wins():
    """§10: after the hand in which a total reaches the target (5,000 default, any positive value),
    the highest total wins; equal totals are co-winners."""
    s = position(hands=[["AC"], ["4C"]], talon=(), scores=(4990, 0))
    s = E.apply(s, 0, EndHand())
    assert s.hand_number == 2 and not s.over  # 4990 - 20 < 5000
    s = position(hands=[["4C"], ["4D"]], talon=(), scores=(5010, 5010))
    s = E.apply(s, 0, EndHand())
    res = E.result(s)
    assert s.phase == FINISHED and res.status == "finished" and res.winners == (0, 1) and res.losers == ()
    assert res.detail["reason"] == "target" and res.scores == (5005, 5005)
    s = position(hands=[["4C"], ["4D"]], talon=(), scores=(700, 5100), target=800)
    res = E.result(E.apply(s, 0, EndHand()))
    assert res.winners == (1,) and res.losers == (0,)


def test_max_hands_ends_the_match():
    """§10 option max_hands: the match ends after that many hands, highest total winning."""
    s = position(hands=[["4C"], ["KD"]], talon=(), max_hands=1)
    res = E.result(E.apply(s, 0, EndHand()))
    assert res.detail == {"reason": "max_hands", "hands_played": 1, "target": 5000, "hand_scores": [[-5, -10]]}
    assert res.winners == (0,)


def test_hand_cap_aborts_a_match_that_has_not_reached_the_target():
    """§10 option hand_cap: after that many hands without a total at the target the match
    ends aborted, without winners; the default is 500 hands and no turn cap."""
    default = E.new_game(2, {}, "s").rules
    assert default.hand_cap == 500 and default.max_turns is None
    s = position(hands=[["4C"], ["KD"]], talon=(), hand_cap=1)
    res = E.result(E.apply(s, 0, EndHand()))
    assert res.status == "aborted" and res.winners == () and res.detail["reason"] == "hand_cap"
    s = position(hands=[["4C"], ["KD"]], talon=(), hand_cap=2)
    assert not E.apply(s, 0, EndHand()).over
    reached = position(hands=[["4C"], ["KD"]], talon=(), hand_cap=1, target=1, scores=[100, 0])
    assert E.result(E.apply(reached, 0, EndHand())).detail["reason"] == "target"  # the target wins the tie


def test_players_who_never_meld_lose_points_every_hand_until_the_hand_cap():
    """§10: totals can fall, so only the hand cap ends a match of players who only draw and discard."""
    s = E.new_game(2, {"hand_cap": 3}, "never")
    while not s.over:
        if s.phase == DRAW:
            s = E.apply(s, s.current, Draw() if s.talon else EndHand())
        else:
            s = E.apply(s, s.current, Discard(s.hands[s.current][0]))
    assert len(s.history) == 3 and all(h[i] < 0 for h in s.history for i in range(2))
    assert E.result(s).detail["reason"] == "hand_cap"


def test_a_hand_cannot_stall_every_turn_uses_up_a_talon_card_or_melds_one_for_good():
    """§10: each turn draws from the talon or takes the pile, whose top card stays melded; so a hand
    has at most about as many turns as there are cards, and only hands need a cap, not turns."""
    import random

    for players in (2, 5):
        rng = random.Random(f"stall/{players}")
        s = E.new_game(players, {"max_hands": 1}, "stall")
        while not s.over:
            seat = s.current
            talon, table = len(s.talon), sum(len(m.cards) for m in s.melds)
            legal = E.legal_moves(s, seat)
            s = E.apply(s, seat, legal[int(rng.random() * len(legal))])
            if s.phase == PLAY and not s.over:
                assert len(s.talon) < talon or sum(len(m.cards) for m in s.melds) > table


def test_max_turns_aborts_the_match():
    """§10 option max_turns: an optional cap on turns; the match ends aborted, without winners."""
    s = E.new_game(2, {"max_turns": 1}, "s")
    s = E.apply(s, s.current, Draw())
    s = E.apply(s, s.current, Discard(s.hands[s.current][0]))
    res = E.result(s)
    assert s.phase == ABORTED and res.status == "aborted" and res.winners == () and res.detail["reason"] == "max_turns"
    assert E.to_move(s) == () and E.legal_moves(s, 0) == E.legal_moves(s, 1) == ()
    assert reason(s, 0, Draw()) == "game_over"


# --- 11. the talon runs out ---------------------------------------------------------------------


def test_with_the_talon_empty_the_player_takes_the_pile_or_the_hand_ends():
    """§11: an empty talon: take the pile if possible, or end_hand; the hand then ends without
    a going-out bonus and everybody is counted like a loser."""
    s = position(hands=[["QC", "QD", "5S"], ["4C"] * 3], pile=["7C", "QS"], talon=(),
                 melds=[meld(0, "AC", "AD", "AH")], red_threes=[["3H"], []], max_hands=1)
    assert reason(s, 0, Draw()) == "talon_empty"
    legal = E.legal_moves(s, 0)
    assert EndHand() in legal and TakePile((("QS", "QC", "QD"),)) in legal and Draw() not in legal
    assert E.apply(s, 0, TakePile((("QS", "QC", "QD"),))).took_pile
    end = E.apply(s, 0, EndHand())
    assert end.last_hand.went_out is None and all(x.going_out == 0 for x in end.last_hand.seats)
    assert end.last_hand.seats[0].red_threes == -100  # no canasta
    s2 = position(hands=[["5S"], ["4C"]])
    assert reason(s2, 0, EndHand()) == "talon_not_empty"


def test_forced_lay_off_option_when_the_talon_is_empty():
    """§11 option stock_exhausted=forced_lay_off: a player whose meld takes the top card must take the pile."""
    s = position(hands=[["5S", "6S"], ["4C"] * 3], pile=["7C", "AS"], talon=(),
                 melds=[meld(0, "AC", "AD", "AH")], stock_exhausted="forced_lay_off")
    assert reason(s, 0, EndHand()) == "must_take_pile"
    assert E.legal_moves(s, 0) == (TakePileLayOff(0),)
    s = replace(s, pile=("7C", "KS"))
    assert E.legal_moves(s, 0) == (EndHand(),)


# --- 13. listed moves ---------------------------------------------------------------------------


def test_listed_moves_in_the_draw_phase():
    """§13: before drawing: draw, and the concrete ways to take the pile found from the hand."""
    s = position(hands=[["QC", "QD", "QH", "2C", "AC", "AD", "AH"], ["4C"] * 3], pile=["7C", "QS"])
    legal = E.legal_moves(s, 0)
    assert legal[0] == Draw()
    takes = [m for m in legal if isinstance(m, TakePile)]
    assert takes and all(E.apply(s, 0, m).took_pile for m in takes)
    assert all(points([c for mm in m.melds for c in mm]) >= 50 for m in takes)


def test_listed_moves_in_the_play_phase():
    """§13: after drawing: a first meld reaching the minimum when the hand has one, lay-offs, and
    every distinct discard."""
    s = position(hands=[["AC", "AD", "AH", "5C", "5C", "9D"], ["4C"] * 3], phase=PLAY)
    legal = E.legal_moves(s, 0)
    assert MeldCards((("AC", "AD", "AH"),)) in legal
    assert [m for m in legal if isinstance(m, Discard)] == [Discard(c) for c in ("5C", "9D", "AC", "AD", "AH")]
    s = position(hands=[["AS", "2C", "5C", "9D"], ["4C"] * 3], phase=PLAY, melds=[meld(0, "AC", "AD", "AH")])
    legal = E.legal_moves(s, 0)
    assert LayOff(0, ("AS",)) in legal and LayOff(0, ("2C",)) in legal


def test_every_listed_move_applies_and_the_mover_always_has_one():
    """§13: over random play with every option variant, each listed move applies and the list is never empty."""
    import random

    variants = [{}, {"wild_discard_freezes_pile": True, "sperr_scope": "own"},
                {"stock_exhausted": "forced_lay_off", "meld_after_taking_pile": False, "tuck_scope": "own_canasta"},
                {"black3_meld_on_going_out": False, "concealed_exempt_from_minimum": True, "cut_bonus": False}]
    for k, opts in enumerate(variants):
        for players in (2, 3, 4, 5):
            rng = random.Random(f"{k}/{players}")
            s = E.new_game(players, {**opts, "max_hands": 1}, f"v{k}")
            while not s.over:
                seat = s.current
                legal = E.legal_moves(s, seat)
                assert legal
                for m in rng.sample(legal, min(4, len(legal))):
                    E.apply(s, seat, m)
                s = E.apply(s, seat, rng.choice(legal))


# --- 14. view ---------------------------------------------------------------------------------


def test_a_view_shows_only_the_viewers_hand():
    """§14: own hand only; other hands and the talon as counts; a spectator sees no hand; no seed."""
    s = E.new_game(3, {}, "secret-seed")
    for seat in (0, 1, 2):
        v = E.view(s, seat)
        assert v["hand"] == list(s.hands[seat])
        assert v["hand_counts"] == [len(h) for h in s.hands]
        assert v["stock_count"] == len(s.talon) and "talon" not in v
        assert "secret-seed" not in str(v)
    assert E.view(s, None)["hand"] is None
    other = E.shuffle_hidden(s, 0, "x")
    assert other.hands[0] == s.hands[0] and other != s
    assert E.view(other, 0) == E.view(s, 0)


def test_the_log_shows_moves_as_posted():
    """§14: no move hides anything: a draw names no card."""
    s = E.new_game(2, {}, "s")
    assert E.redact_move(s, s.current, Draw(), 0) == {"type": "draw"}
    assert E.redact_move(s, 1, Discard("5C"), None) == {"type": "discard", "card": "5C"}
