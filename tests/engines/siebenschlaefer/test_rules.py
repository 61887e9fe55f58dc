"""Rules of Siebenschläfer, one test (or a few) per section of seeds/siebenschlaefer.md.

Positions come from a fixed deck (``deck_for``) or a direct state (``table``); never from a hunted seed.
"""

from __future__ import annotations

import dataclasses
from collections import Counter

import pytest

from engines.cards import shuffled
from engines.core import IllegalMove, InvalidOptions
from engines.siebenschlaefer import ENGINE
from engines.siebenschlaefer.moves import Draw, Pass, Play
from engines.siebenschlaefer.rules import draw_lots, round_locked
from engines.siebenschlaefer.state import FULL_DECK, State

from .builders import deck_for, table

E = ENGINE


def play(state: State, seat: int, a: str, b: str) -> State:
    return E.apply(state, seat, Play(cards=(a, b)))


def refused(state: State, seat: int, move: object, reason: str) -> None:
    with pytest.raises(IllegalMove) as err:
        E.apply(state, seat, move)  # type: ignore[arg-type]
    assert err.value.reason == reason


def cards_on_table(s: State) -> Counter[str]:
    return Counter([c for h in s.hands for c in h] + list(s.stock) + list(s.pile))


# --- section 1: components ---------------------------------------------------------------


def test_components_two_decks_104_cards_ten_each() -> None:
    """Section 1/2: 104 cards, every code twice; 10 cards each; the rest is the stock."""
    assert len(FULL_DECK) == 104 and all(v == 2 for v in Counter(FULL_DECK).values())
    for n in range(2, 9):
        s = E.new_game(n, {}, f"c{n}")
        assert [len(h) for h in s.hands] == [10] * n
        assert len(s.stock) == 104 - 10 * n and s.pile == ()
        assert cards_on_table(s) == Counter(FULL_DECK)


@pytest.mark.parametrize("n", [0, 1, 9, 10])
def test_components_two_to_eight_players(n: int) -> None:
    """Section 1: 2 to 8 players."""
    with pytest.raises(InvalidOptions) as err:
        E.new_game(n, {}, "x")
    assert "players" in err.value.errors


def test_components_fixed_deck_must_be_the_104_cards() -> None:
    """Section 2: a fixed deck is exactly the two decks."""
    with pytest.raises(InvalidOptions):
        E.new_game(3, {}, "x", list(FULL_DECK[:-1]))
    with pytest.raises(InvalidOptions):
        E.new_game(3, {}, "x", list(FULL_DECK[:-1]) + ["AC"])


# --- section 2: dealing -----------------------------------------------------------------------


def test_dealing_one_card_at_a_time_from_seat_zero_rest_is_stock() -> None:
    """Section 2: seat s gets deck[s], deck[N+s], ...; the stock is deck[10N:], top first
    (one 2-holder, so no lot shuffle)."""
    deck = deck_for([["2C"], [], []])
    s = E.new_game(3, {}, "x", deck)
    for seat in range(3):
        assert Counter(s.hands[seat]) == Counter(deck[seat:30:3])
    assert s.stock == tuple(deck[30:])
    assert s.opener == 0 and s.current == 0 and s.lots == ()
    assert s.target is None and s.pile == ()


def test_dealing_from_seed_equals_dealing_the_shuffled_deck() -> None:
    """Section 2: no deck means the deck shuffled(FULL_DECK, seed, "deal")."""
    for seed in ("a", "b", "c"):
        deck = shuffled(FULL_DECK, seed, "deal")
        assert E.new_game(4, {}, seed) == E.new_game(4, {}, seed, list(deck))


# --- section 3: who opens ---------------------------------------------------------------------


def test_opener_single_holder_of_a_two_opens() -> None:
    """Section 3: the only holder of a 2 opens; no lots are drawn."""
    s = E.new_game(4, {}, "x", deck_for([[], [], ["2H", "2S"], []]))
    assert s.opener == 2 and E.to_move(s) == (2,) and s.lots == ()


def test_opener_several_holders_draw_lots_lowest_number_opens() -> None:
    """Section 3: only the 2-holders draw, in seat order; the lowest number opens."""
    deck = deck_for([["2C"], [], ["2D"], []], stock_top=["9H", "4S"])
    s = E.new_game(4, {}, "x", deck)
    assert s.lots == ((0, "9H"), (2, "4S"))
    assert s.opener == 2 and E.to_move(s) == (2,)


def test_opener_face_cards_and_aces_are_redrawn() -> None:
    """Section 3: a drawn face card or ace is set aside and the same player draws again."""
    deck = deck_for([["2C"], ["2D"]], stock_top=["KH", "AS", "8H", "QC", "5S"])
    s = E.new_game(2, {}, "x", deck)
    assert s.lots == ((0, "KH"), (0, "AS"), (0, "8H"), (1, "QC"), (1, "5S"))
    assert s.opener == 1


def test_opener_ties_draw_again() -> None:
    """Section 3: the players tied for the lowest number draw again, in seat order."""
    deck = deck_for([["2C"], ["2D"], ["2H"]], stock_top=["4H", "9C", "4S", "6D", "3C"])
    s = E.new_game(3, {}, "x", deck)
    assert s.lots == ((0, "4H"), (1, "9C"), (2, "4S"), (0, "6D"), (2, "3C"))
    assert s.opener == 2


def test_opener_nobody_holds_a_two_everybody_draws() -> None:
    """Section 3: no 2 in any hand: all players draw lots."""
    deck = deck_for([[], [], []], stock_top=["8C", "6H", "10S"])
    s = E.new_game(3, {}, "x", deck)
    assert s.lots == ((0, "8C"), (1, "6H"), (2, "10S"))
    assert s.opener == 1


def test_opener_lot_cards_go_back_and_the_stock_is_shuffled() -> None:
    """Section 3: every lot card returns; the stock is shuffled(dealt stock, seed, "lots/0")."""
    deck = deck_for([["2C"], ["2D"]], stock_top=["9H", "4S"])
    s = E.new_game(2, {}, "seed-1", deck)
    assert s.stock == shuffled(deck[20:], "seed-1", "lots/0")
    assert cards_on_table(s) == Counter(FULL_DECK)


def test_opener_stock_exhausted_during_lots_lowest_seat_in_contention() -> None:
    """Section 3 [new]: if the stock runs out before the lot is decided, the lowest seat still in
    contention opens."""
    assert draw_lots([1, 3], ["KC", "QD", "JS"]) == (1, ((1, "KC"), (1, "QD"), (1, "JS")))
    assert draw_lots([0, 1, 2], ["5C", "9D", "5H", "KS"]) == (0, ((0, "5C"), (1, "9D"), (2, "5H"), (0, "KS")))


def test_opener_need_not_lay_the_two() -> None:
    """Section 3: the opener may lay any legal pair on the free table."""
    s = table([["2C", "9H", "10S"], ["5D", "6D"]])
    moves = E.legal_moves(s, 0)
    assert Play(cards=("9H", "10S")) in moves
    after = play(s, 0, "10S", "9H")
    assert after.target == 19 and after.hands[0] == ("2C",)


# --- section 4: the pair rule ---------------------------------------------------------------------


def test_pair_number_plus_number_is_the_sum() -> None:
    """Section 4: number + number = the sum."""
    s = play(table([["4C", "9D", "5S"], ["3C", "3D"]]), 0, "4C", "9D")
    assert s.target == 13 and s.pile[-2:] == ("4C", "9D") and s.top_kind == "play"


@pytest.mark.parametrize("face", ["JH", "QS", "KC"])
def test_pair_face_card_doubles_the_number(face: str) -> None:
    """Section 4: face card + number = twice the number."""
    s = play(table([[face, "8D", "5S"], ["3C", "3D"]]), 0, face, "8D")
    assert s.target == 16


def test_pair_two_face_cards_never() -> None:
    """Section 4: two face cards may not be laid together."""
    s = table([["JH", "QS", "5S"], ["3C", "3D"]])
    refused(s, 0, Play(cards=("JH", "QS")), "two_face_cards")
    assert all(set(m.cards) != {"JH", "QS"} for m in E.legal_moves(s, 0) if isinstance(m, Play))


@pytest.mark.parametrize("other", ["9C", "KD"])
def test_pair_ace_only_with_an_ace(other: str) -> None:
    """Section 4: an ace with a number or face card is refused."""
    s = table([["AH", other, "5S"], ["3C", "3D"]])
    refused(s, 0, Play(cards=("AH", other)), "ace_with_other_card")


def test_pair_must_exceed_strictly() -> None:
    """Section 4: a pair must be greater than the value on the table."""
    s = table([["6C", "6D", "9S"], ["3C", "3D"]], target=12)
    refused(s, 0, Play(cards=("6C", "6D")), "too_low")
    assert play(s, 0, "6C", "9S").target == 15


def test_pair_aces_free_the_table_for_the_next_player() -> None:
    """Section 4: a pair of aces is legal on any value; the next player lays any legal pair."""
    s = table([["AC", "AD", "5S"], ["2C", "3D", "KS"], ["9C"]], target=20)
    s = play(s, 0, "AC", "AD")
    assert s.target is None and s.current == 1
    assert set(E.legal_moves(s, 1)) == {Play(cards=("2C", "3D")), Play(cards=("2C", "KS")), Play(cards=("3D", "KS"))}
    s = play(s, 1, "2C", "3D")
    assert s.target == 5


def test_pair_same_code_twice_needs_both_copies() -> None:
    """Section 4: two decks: the same code twice is a pair only when both copies are held."""
    s = table([["6H", "7C"], ["3C", "3D"]])
    refused(s, 0, Play(cards=("6H", "6H")), "card_not_in_hand")
    s2 = table([["6H", "6H", "7C"], ["3C", "3D"]])
    assert play(s2, 0, "6H", "6H").target == 12


def test_pair_exactly_two_known_cards() -> None:
    """Section 4/5: a play is exactly two card codes from the hand."""
    s = table([["6H", "7C", "8C"], ["3C", "3D"]])
    refused(s, 0, Play(cards=("6H",)), "pair_required")
    refused(s, 0, Play(cards=("6H", "7C", "8C")), "pair_required")
    refused(s, 0, Play(cards=("6H", "1X")), "unknown_card")
    refused(s, 0, Play(cards=("6H", "9C")), "card_not_in_hand")


def test_pair_one_card_can_never_play() -> None:
    """Section 4: a hand of one card has no pair; it must draw."""
    s = table([["9C"], ["3C", "3D"]], stock=["2D", "3H"])
    assert E.legal_moves(s, 0) == (Draw(),)


@pytest.mark.parametrize(
    ("rule", "target", "legal"),
    [("value_22", 20, True), ("value_22", None, True), ("value_2", 20, False), ("value_2", None, True)],
)
def test_pair_aces_option_aa_rule(rule: str, target: int | None, legal: bool) -> None:
    """Section 10 (aa_rule): a pair of aces counting 22 or 2 must exceed the value like any pair."""
    s = table([["AC", "AD", "KS"], ["3C", "3D"]], target=target, aa_rule=rule)
    assert (Play(cards=("AC", "AD")) in E.legal_moves(s, 0)) is legal
    if legal:
        assert play(s, 0, "AD", "AC").target is None
    else:
        refused(s, 0, Play(cards=("AC", "AD")), "too_low")


# --- section 15: the worked examples ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("a", "b", "ok", "value"),
    [
        ("6H", "7C", True, 13),
        ("KD", "6S", False, "too_low"),
        ("QH", "7S", True, 14),
        ("10C", "3D", True, 13),
        ("JC", "QD", False, "two_face_cards"),
        ("AH", "9C", False, "ace_with_other_card"),
        ("AC", "AS", True, None),
    ],
)
def test_example_on_twelve(a: str, b: str, ok: bool, value: object) -> None:
    """Section 15: the value 12 on the table."""
    hand = ["6H", "7C", "KD", "6S", "QH", "7S", "10C", "3D", "JC", "QD", "AH", "9C", "AC", "AS"]
    s = table([hand, ["2C", "2D"], ["4C", "4D"]], target=12, stock=["5C", "5D", "8C", "8D"])
    listed = Play(cards=(a, b)) in E.legal_moves(s, 0) or Play(cards=(b, a)) in E.legal_moves(s, 0)
    assert listed is ok
    if not ok:
        refused(s, 0, Play(cards=(a, b)), value)  # type: ignore[arg-type]
        return
    after = play(s, 0, a, b)
    assert after.target == value
    if "7" in (a[0], b[0]):  # a single 7: the next player draws two and misses his turn
        assert len(after.hands[1]) == 4 and after.current == 2
    else:
        assert len(after.hands[1]) == 2 and after.current == 1


def test_example_on_nineteen_only_twenty_or_aces() -> None:
    """Section 15: on 19 only 10+10, face+10 (both 20) and A+A are legal."""
    hand = ["10C", "10D", "KH", "9S", "9H", "QC", "AC", "AD", "8S"]
    s = table([hand, ["2C", "2D"]], target=19)
    assert set(E.legal_moves(s, 0)) == {
        Play(cards=("10C", "10D")),
        Play(cards=("10C", "KH")),
        Play(cards=("10D", "KH")),
        Play(cards=("10C", "QC")),
        Play(cards=("10D", "QC")),
        Play(cards=("AC", "AD")),
    }
    assert play(s, 0, "KH", "10C").target == 20
    assert play(s, 0, "10C", "10D").target == 20


def test_example_on_twenty_only_aces_else_everyone_passes_and_a_reset_follows() -> None:
    """Section 15: on 20 only A+A; without aces everybody draws, passes, and the
    reset flips a new start value."""
    s = table([["10C", "KD", "AC", "AD"], ["2C", "2D"]], target=20)
    assert E.legal_moves(s, 0) == (Play(cards=("AC", "AD")),)
    s = table(
        [["10C", "KD"], ["10H", "QD"]],
        target=20,
        stock=["3C", "4C", "5C", "6C", "8C", "9D"],
        pile=["10S", "KS"],
    )
    s = E.apply(s, 0, Draw())  # 3C 4C: 7 < 20
    s = E.apply(s, 0, Pass())
    s = E.apply(s, 1, Draw())  # 5C 6C
    s = E.apply(s, 1, Pass())  # second pass of two players: flip 8C 9D
    assert s.target == 17 and s.pile[-2:] == ("8C", "9D") and s.top_kind == "start"
    assert s.current == 0 and s.passes == 0


# --- section 5: the turn ---------------------------------------------------------------------


def test_turn_must_lay_when_able() -> None:
    """Section 5: a player who can lay may neither draw nor pass; only plays are listed."""
    s = table([["9C", "5D"], ["3C", "3D"]], target=12, stock=["2C", "2D"])
    assert E.legal_moves(s, 0) == (Play(cards=("5D", "9C")),)
    refused(s, 0, Draw(), "must_play")
    refused(s, 0, Pass(), "must_play")


def test_turn_unable_draws_two_then_lays_in_the_same_turn() -> None:
    """Section 5: unable -> draw two; now able -> must lay in the same turn."""
    s = table([["2C", "3D"], ["3C", "3H"]], target=12, stock=["10C", "9H", "4S"])
    assert E.legal_moves(s, 0) == (Draw(),)
    refused(s, 0, Pass(), "must_draw_first")
    s = E.apply(s, 0, Draw())
    assert s.current == 0 and s.has_drawn and E.view(s, 0)["drawn"] == ["9H", "10C"]
    assert s.hands[0] == ("2C", "3D", "9H", "10C") and s.stock == ("4S",)
    assert E.legal_moves(s, 0) == (Play(cards=("3D", "10C")), Play(cards=("9H", "10C")))
    refused(s, 0, Pass(), "must_play")
    s = play(s, 0, "10C", "9H")
    assert s.target == 19 and s.current == 1 and not s.has_drawn and E.view(s, 0)["drawn"] is None


def test_turn_still_unable_after_drawing_passes_without_drawing_again() -> None:
    """Section 5: still unable after the draw: pass, no second draw."""
    s = table([["2C", "3D"], ["3C", "3H"], ["4C", "4H"]], target=12, stock=["2H", "3S", "4S"])
    s = E.apply(s, 0, Draw())
    assert E.legal_moves(s, 0) == (Pass(),)
    refused(s, 0, Draw(), "already_drawn")
    s = E.apply(s, 0, Pass())
    assert s.current == 1 and s.passes == 1 and s.target == 12 and len(s.hands[0]) == 4


def test_turn_nothing_to_draw_passes_at_once() -> None:
    """Section 5/8: no card can be reached: pass is offered at once, draw refused."""
    s = table([["2C", "3D"], ["3C", "3H"]], target=12, stock=[], pile=["5C", "7D"])
    assert E.legal_moves(s, 0) == (Pass(),)
    refused(s, 0, Draw(), "nothing_to_draw")
    assert E.apply(s, 0, Pass()).current == 1


def test_turn_voluntary_pass_option() -> None:
    """Section 10 (allow_voluntary_pass): an able player may draw and pass instead."""
    s = table([["9C", "5D"], ["3C", "3D"]], target=12, stock=["2C", "2D"], allow_voluntary_pass=True)
    assert E.legal_moves(s, 0) == (Play(cards=("5D", "9C")), Draw())
    s = E.apply(s, 0, Draw())
    assert E.legal_moves(s, 0) == (Play(cards=("5D", "9C")), Pass())
    assert E.apply(s, 0, Pass()).current == 1


def test_turn_wrong_seat_and_listing_lower_card_first_without_duplicates() -> None:
    """Section 5: only the seat to move moves; each distinct pair listed once, lower card first."""
    s = table([["6H", "6H", "7C", "KS"], ["3C", "3D"]], target=11)
    refused(s, 1, Play(cards=("3C", "3D")), "not_your_turn")
    assert E.legal_moves(s, 1) == ()
    assert E.legal_moves(s, 0) == (
        Play(cards=("6H", "6H")),
        Play(cards=("6H", "7C")),
        Play(cards=("6H", "KS")),
        Play(cards=("7C", "KS")),
    )


# --- section 6: the 7s -----------------------------------------------------------------------------


def test_seven_single_next_player_draws_two_and_misses_his_turn() -> None:
    """Section 6: one 7 in the pair: the next player draws two at once and is skipped."""
    s = table([["7C", "6D", "2S"], ["3C", "3D"], ["4C", "4D"]], target=12, stock=["5H", "8H", "9H"])
    s = play(s, 0, "7C", "6D")
    assert s.hands[1] == ("3C", "3D", "5H", "8H") and s.stock == ("9H",)
    assert s.current == 2 and s.target == 13
    assert s.passes == 0  # the missed turn is no pass
    assert [(e.type, e.public["seat"]) for e in s.events] == [("played", 0), ("drew", 1), ("skipped", 1)]
    assert s.events[1].public["reason"] == "seven"


def test_seven_with_a_face_card_is_a_single_seven() -> None:
    """Section 6: face + 7 = 14 and triggers the single-7 effect."""
    s = table([["7C", "QD", "2S"], ["3C", "3D"], ["4C", "4D"]], target=12, stock=["5H", "8H"])
    s = play(s, 0, "QD", "7C")
    assert s.target == 14 and len(s.hands[1]) == 4 and s.current == 2


def test_seven_single_with_two_players_the_layer_moves_again_on_his_own_value() -> None:
    """Section 6: with two players the skip brings the turn back to the layer, who must exceed
    his own pair."""
    s = table([["7C", "6D", "2S", "3S"], ["3C", "3D"]], target=12, stock=["5H", "8H", "4H", "4S"])
    s = play(s, 0, "7C", "6D")
    assert s.current == 0 and s.target == 13 and len(s.hands[1]) == 4
    assert E.legal_moves(s, 0) == (Draw(),)


def test_seven_pair_every_other_player_draws_and_the_layer_plays_again_above_fourteen() -> None:
    """Section 6: 7+7: all others draw two, clockwise from the layer's left; the layer moves
    again and must exceed 14."""
    s = table(
        [["2C", "3C"], ["7C", "7H", "9D", "6D", "KS"], ["4D", "4H"]],
        target=12,
        current=1,
        stock=["2D", "2H", "3D", "3H", "5S"],
    )
    s = play(s, 1, "7C", "7H")
    assert s.hands[2] == ("2D", "2H", "4D", "4H") and s.hands[0] == ("2C", "3C", "3D", "3H")
    assert s.current == 1 and s.target == 14 and s.passes == 0
    assert set(E.legal_moves(s, 1)) == {Play(cards=("6D", "9D")), Play(cards=("9D", "KS"))}
    refused(s, 1, Play(cards=("6D", "KS")), "too_low")  # 12 < 14
    assert play(s, 1, "KS", "9D").current == 2


def test_seven_pair_layer_unable_draws_then_passes() -> None:
    """Section 6: after 7+7 a layer who cannot exceed 14 draws, then lays or passes."""
    s = table([["7C", "7H", "2D"], ["2C", "3C"]], target=12, stock=["4C", "4D", "3H", "3S"])
    s = play(s, 0, "7C", "7H")
    assert E.legal_moves(s, 0) == (Draw(),)
    s = E.apply(s, 0, Draw())
    assert E.legal_moves(s, 0) == (Pass(),)
    s = E.apply(s, 0, Pass())
    assert s.current == 1 and s.passes == 1


def test_seven_skip_counts_as_pass_option() -> None:
    """Section 10 (skip_counts_as_pass): the missed turn adds one to the run of passes."""
    s = table([["7C", "6D", "2S"], ["3C", "3D"], ["4C", "4D"]], target=12, stock=["5H", "8H"], skip_counts_as_pass=True)
    assert play(s, 0, "7C", "6D").passes == 1


def test_seven_a_skip_neither_counts_nor_breaks_a_run_of_passes() -> None:
    """Section 7: passes before and after a missed turn are one run."""
    s = table(
        [["2C", "3C"], ["7D", "6D", "KS", "QS"], ["2D", "3D"]],
        target=10,
        current=1,
        stock=["2H", "3H", "4H", "4S", "5H", "5S", "JH", "JS", "QH", "QC", "9C", "8C"],
    )
    s = play(s, 1, "7D", "6D")  # seat 2 draws 2H 3H and is skipped
    s = E.apply(E.apply(s, 0, Draw()), 0, Pass())  # 4H 4S
    assert s.passes == 1 and s.current == 1
    s = E.apply(E.apply(s, 1, Draw()), 1, Pass())  # 5H 5S
    s = E.apply(E.apply(s, 2, Draw()), 2, Pass())  # JH JS
    assert s.passes == 0 and s.top_kind == "start"  # third pass of three players: flip
    assert s.pile[-2:] == ("9C", "8C") and s.target == 17 and s.current == 0
    assert [e.type for e in s.events] == ["passed", "reset"]
    assert s.events[-1].public["cards"] == ["QH", "QC", "9C", "8C"]  # Q+Q is no pair: flipped again


def test_seven_winning_pair_still_makes_the_others_draw() -> None:
    """Section 6/9: a winning pair with a 7 still deals its draws before counting."""
    s = table([["7C", "6D"], ["3C", "3D"], ["4C"]], target=12, stock=["5H", "8H"])
    r = E.result(play(s, 0, "7C", "6D"))
    assert r is not None and r.detail["hand_values"] == [0, 19, 4]
    off = table([["7C", "6D"], ["3C", "3D"], ["4C"]], target=12, stock=["5H", "8H"], apply_final_penalties=False)
    r = E.result(play(off, 0, "7C", "6D"))
    assert r is not None and r.detail["hand_values"] == [0, 6, 4]


def test_seven_pair_winning_all_others_draw() -> None:
    """Section 6/9: a winning 7+7 makes every other player draw two before counting."""
    s = table([["7C", "7D"], ["3C"], ["4C"]], target=12, stock=["5H", "8H", "2S", "KH"])
    r = E.result(play(s, 0, "7C", "7D"))
    assert r is not None and r.detail["hand_values"] == [0, 16, 18]


# --- section 7: everybody passed ---------------------------------------------------------------------


def _all_pass(s: State) -> State:
    for _ in range(s.players):
        (seat,) = E.to_move(s)
        if not s.has_drawn and Draw() in E.legal_moves(s, seat):
            s = E.apply(s, seat, Draw())
        s = E.apply(s, seat, Pass())
    return s


def test_reset_all_players_pass_flips_two_stock_cards_as_the_start_value() -> None:
    """Section 7: N passes in a row flip two cards; play goes on after the last passer."""
    stock = ["2C", "2D", "3C", "3D", "4C", "4D", "9H", "JD"]
    s = table([["5C"], ["5D"], ["5H"]], target=20, stock=stock, current=1)
    s = _all_pass(s)
    assert s.pile[-2:] == ("9H", "JD") and s.target == 18 and s.top_kind == "start"
    assert s.current == 1 and s.passes == 0 and s.stock == ()


def test_reset_threshold_option_all_other_players() -> None:
    """Section 10 (pass_reset_threshold): N-1 passes suffice."""
    s = table(
        [["5C"], ["5D"], ["5H"]],
        target=20,
        stock=["2C", "2D", "3C", "3D", "9H", "9D"],
        pass_reset_threshold="all_other_players",
    )
    for seat in (0, 1):
        s = E.apply(E.apply(s, seat, Draw()), seat, Pass())
    assert s.target == 18 and s.current == 2


def test_reset_sevens_in_the_start_value_have_no_effect() -> None:
    """Section 7: a flipped 7 makes nobody draw."""
    s = table([["5C"], ["5D"]], target=20, stock=["2C", "2D", "3C", "3D", "7H", "7S", "9C"])
    s = _all_pass(s)
    assert s.target == 14 and [len(h) for h in s.hands] == [3, 3] and s.current == 0


def test_reset_aces_flipped_free_the_table() -> None:
    """Section 7: a flipped pair of aces: the table is free."""
    s = table([["5C"], ["5D"]], target=20, stock=["2C", "2D", "3C", "3D", "AH", "AS"])
    s = _all_pass(s)
    assert s.target is None and s.pile[-2:] == ("AH", "AS")


def test_reset_illegal_flip_is_flipped_again() -> None:
    """Section 7 (reflip): K+Q or A+5 stay on the pile and two more are flipped."""
    s = table([["5C"], ["5D"]], target=20, stock=["2C", "2D", "3C", "3D", "KH", "QS", "AD", "5S", "6C", "8C"])
    s = _all_pass(s)
    assert s.target == 14 and s.pile[-6:] == ("KH", "QS", "AD", "5S", "6C", "8C")


def test_reset_illegal_flip_counted_with_counting_values_option() -> None:
    """Section 10 (reset_illegal_pair=sum_count_values): K+Q counts 24; only aces beat it."""
    s = table(
        [["5C"], ["5D"]],
        target=20,
        stock=["2C", "2D", "3C", "3D", "KH", "QS", "6C"],
        reset_illegal_pair="sum_count_values",
    )
    s = _all_pass(s)
    assert s.target == 24 and s.pile[-2:] == ("KH", "QS")


def test_reset_nothing_to_flip_frees_the_table() -> None:
    """Section 7 [new]: fewer than two reachable cards: the table becomes free."""
    s = table([["5C", "JD"], ["5D", "QD"]], target=20, stock=[], pile=["10S", "KS"])
    s = E.apply(s, 0, Pass())
    s = E.apply(s, 1, Pass())
    assert s.target is None and s.current == 0
    assert E.legal_moves(s, 0) == (Play(cards=("5C", "JD")),)


def test_reset_only_illegal_pairs_left_stops_with_a_free_table() -> None:
    """Section 7 [new]: when every reachable card is flipped without a legal pair, the table is free."""
    s = table([["5C"], ["5D"]], target=20, stock=["KH", "QS", "JD", "AD"], pile=["10S", "KS"], has_drawn=True, passes=1)
    s = E.apply(s, 0, Pass())
    assert s.target is None and s.pile == ("10S", "KS", "KH", "QS", "JD", "AD") and s.stock == ()
    assert s.events[-1].public == {"cards": ["KH", "QS", "JD", "AD"], "value": None}


# --- section 8: the empty stock ------------------------------------------------------------------


def test_stock_refilled_from_the_pile_keeping_the_top_pair() -> None:
    """Section 8: an empty stock is refilled with the pile but its top pair, shuffled."""
    pile = ["2C", "3C", "4C", "5C", "9D", "10D"]
    s = table([["2D", "3D"], ["4D"]], target=19, stock=["6H"], pile=pile, seed="r")
    s = E.apply(s, 0, Draw())
    refill = shuffled(pile[:-2], "r", "reshuffle/0")
    assert Counter(E.view(s, 0)["drawn"]) == Counter(["6H", refill[0]])
    assert Counter(s.hands[0]) == Counter(["2D", "3D", "6H", refill[0]])
    assert s.stock == refill[1:] and s.pile == ("9D", "10D") and s.reshuffles == 1
    assert [e.type for e in s.events] == ["reshuffled", "drew"]


def test_stock_and_pile_too_small_draw_is_truncated() -> None:
    """Section 8: fewer reachable cards than needed: the draw takes what there is."""
    s = table([["2D", "3D"], ["4D"]], target=19, stock=[], pile=["5C", "9D", "10D"])
    s = E.apply(s, 0, Draw())
    assert s.hands[0] == ("2D", "3D", "5C")
    assert s.pile == ("9D", "10D") and s.stock == () and E.view(s, 0)["drawn"] == ["5C"]
    assert E.legal_moves(s, 0) == (Pass(),)


def test_stock_penalty_draw_is_truncated_too() -> None:
    """Section 6/8: a 7's draw takes what can be reached."""
    s = table([["7C", "6D", "2S"], ["3C"], ["4C", "4D"]], target=12, stock=["5H"], pile=[])
    s = play(s, 0, "7C", "6D")
    assert s.hands[1] == ("3C", "5H") and s.stock == () and s.pile == ("6D", "7C")
    assert s.events[1].public == {"seat": 1, "count": 1, "reason": "seven"}


# --- section 9: end of a round --------------------------------------------------------------------


def test_end_first_empty_hand_wins_others_counted_highest_pays() -> None:
    """Section 9: the first empty hand wins; J/Q/K 12, A 11, numbers face value; highest pays."""
    s = table([["9C", "8D"], ["KC", "AD", "5S"], ["10C", "9H", "2D"]], target=12)
    s = play(s, 0, "9C", "8D")
    assert E.to_move(s) == () and E.legal_moves(s, 1) == ()
    r = E.result(s)
    assert r is not None and r.status == "finished"
    assert r.winners == (0,) and r.losers == (1,) and r.scores == (0, 28, 21)
    assert r.detail["winner"] == 0 and r.detail["payers"] == [1] and r.detail["hand_values"] == [0, 28, 21]
    assert r.detail["round_results"][0]["hands"] == [[], ["AD", "5S", "KC"], ["2D", "9H", "10C"]]
    refused(s, 1, Play(cards=("KC", "5S")), "game_over")


def test_end_ties_for_the_highest_all_pay() -> None:
    """Section 9: all tied for the highest total pay."""
    s = table([["9C", "8D"], ["QC", "10S"], ["10C", "JH"], ["2C"]], target=12)
    r = E.result(play(s, 0, "9C", "8D"))
    assert r is not None and r.losers == (1, 2) and r.detail["payers"] == [1, 2]


def test_end_no_result_while_running() -> None:
    """Section 9: result is None while the round runs."""
    assert E.result(E.new_game(3, {}, "x")) is None


# --- section 10: options ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "options",
    [
        {"aa_rule": "sometimes"},
        {"allow_voluntary_pass": 1},
        {"pass_reset_threshold": 3},
        {"reset_illegal_pair": "none"},
        {"rounds": 0},
        {"rounds": 51},
        {"max_turns": 0},
        {"stalled_round": "ignore"},
        {"bogus": True},
    ],
)
def test_options_are_validated(options: dict[str, object]) -> None:
    """Section 10: bad values and unknown options are refused."""
    with pytest.raises(InvalidOptions):
        E.new_game(3, options, "x")


def test_options_defaults() -> None:
    """Section 10: the documented defaults."""
    defaults = {o.name: o.default for o in E.options}
    assert defaults == {
        "aa_rule": "always",
        "allow_voluntary_pass": False,
        "skip_counts_as_pass": False,
        "pass_reset_threshold": "all_players",
        "reset_illegal_pair": "reflip",
        "apply_final_penalties": True,
        "rounds": 1,
        "max_turns": 100_000,
        "stalled_round": "count_hands",
    }
    assert E.new_game(2, {}, "x").settings == E.new_game(2, defaults, "x").settings


# --- section 11: several rounds --------------------------------------------------------------------


def test_rounds_next_round_dealt_at_once_from_the_seed() -> None:
    """Section 11: a finished round of a match deals the next from shuffled(FULL_DECK, seed, "deal/1")."""
    s = table([["9C", "8D"], ["KC", "5S"]], target=12, rounds=2, seed="m")
    s = play(s, 0, "9C", "8D")
    assert s.status == "active" and s.round == 1 and E.result(s) is None
    fresh = E.new_game(2, {"rounds": 2}, "m", list(shuffled(FULL_DECK, "m", "deal/1")))
    assert s.hands == fresh.hands and s.opener == fresh.opener and s.current == fresh.opener
    assert s.lots == fresh.lots and len(s.stock) == 84 and s.pile == () and s.target is None
    assert s.totals == (0, 17) and s.paid == (0, 1)
    v = E.view(s, 0)
    assert v["round"] == 2 and v["last_round"]["winner"] == 0 and v["scores"] == [0, 17]


def test_rounds_match_result_fewest_points_wins() -> None:
    """Section 11: the match result: totals as scores, fewest points win, most lose."""
    s = table([["9C", "8D"], ["KC", "5S"], ["2C", "3C"]], target=12, rounds=2, seed="m")
    s = play(s, 0, "9C", "8D")
    # play round two out with the lowest legal move each time
    while E.result(s) is None:
        (seat,) = E.to_move(s)
        s = E.apply(s, seat, E.legal_moves(s, seat)[0])
    r = E.result(s)
    assert r is not None and r.detail["rounds_played"] == 2 and len(r.detail["round_results"]) == 2
    totals = [a + b for a, b in zip(*(x["hand_values"] for x in r.detail["round_results"]), strict=True)]
    assert list(r.scores or ()) == totals == r.detail["totals"]
    assert r.winners == tuple(i for i, v in enumerate(totals) if v == min(totals))
    assert r.losers == tuple(i for i, v in enumerate(totals) if v == max(totals))


# --- section 12: the safety cap -------------------------------------------------------------------


def test_cap_a_round_of_max_turns_moves_is_aborted() -> None:
    """Section 12: when a round reaches max_turns moves the match ends as aborted."""
    s = table([["2C", "3C"], ["2D", "3D"]], target=20, stock=["4C", "4D", "5C", "5D"], max_turns=3)
    s = E.apply(s, 0, Draw())
    s = E.apply(s, 0, Pass())
    assert E.result(s) is None
    s = E.apply(s, 1, Draw())
    r = E.result(s)
    assert r is not None and r.status == "aborted" and r.winners == () and r.losers == ()
    assert r.detail["reason"] == "max_turns" and r.detail["winner"] is None
    assert E.to_move(s) == () and E.legal_moves(s, 1) == ()
    refused(s, 1, Pass(), "game_over")


def _one_ace_short() -> State:
    """8 players at value 20; seats 1-7 hold one ace each, seat 0 none and cannot lay; the stock's top
    card is the last ace. Counting values: seat 0 4+5 = 9, 1: 11+2 = 13, 2: 11+10 = 21, 3: 11+12 = 23,
    4: 11+12 = 23, 5: 11+3 = 14, 6: 11+4 = 15, 7: 11+6 = 17."""
    hands = [["4C", "5D"], ["AC", "2S"], ["AD", "10S"], ["AH", "KC"], ["AS", "QC"], ["AC", "3S"], ["AD", "4S"],
             ["AH", "6S"]]
    return table(hands, target=20, stock=["AS", "5C", "9H", "9D"])


def test_stall_every_seat_holding_one_lone_ace_is_counted_as_in_the_pub() -> None:
    """Section 12 (stalled_round=count_hands): the draw brings seat 0 the last ace, so each of the 8 seats
    holds exactly one ace and no ace is left to draw: nobody can ever empty his hand. The round ends at
    once: every hand is counted (A 11, J/Q/K 12, numbers face value), the fewest points win, the most pay."""
    s = _one_ace_short()
    assert not round_locked(s.hands)
    s = E.apply(s, 0, Draw())
    assert s.status == "finished" and E.to_move(s) == () and E.legal_moves(s, 0) == ()
    last = s.history[-1]
    assert last.reason == "stalled" and last.winner is None and round_locked(last.hands)
    assert last.hand_values == (9 + 11 + 5, 13, 21, 23, 23, 14, 15, 17)
    assert last.winners == (1,) and last.payers == (0,)  # seat 0 now holds 4C 5D AS 5C = 25 points
    r = E.result(s)
    assert r is not None and r.status == "finished" and r.winners == (1,) and r.losers == (0,)
    assert r.scores == last.hand_values
    assert r.detail["reason"] == "stalled" and r.detail["winner"] is None and r.detail["winners"] == [1]
    assert r.detail["round_results"][0]["reason"] == "stalled"
    assert [e.type for e in s.events] == ["drew", "round_ended"]
    assert s.events[-1].public["reason"] == "stalled"
    v = E.view(s, 3)
    assert v["status"] == "finished" and v["last_round"]["reason"] == "stalled"
    assert v["last_round"]["hand_values"] == list(last.hand_values) and v["stalled_round"] == "count_hands"
    refused(s, 1, Pass(), "game_over")


def test_stall_ties_all_win_or_all_pay_and_equal_hands_pay_nobody() -> None:
    """Sections 9 and 12: all tied for the fewest points win, all tied for the most pay; when every
    hand counts the same there is nobody to pay."""
    hands = [["A" + "CDHS"[i % 4], "5H"] for i in range(8)]
    locked = table(hands[:7] + [["8C", "9C"]], target=20, stock=["AS", "5C"], current=7)
    s = E.apply(locked, 7, Draw())
    last = s.history[-1]
    assert last.hand_values == (16,) * 7 + (11 + 8 + 9 + 5,)
    assert last.winners == tuple(range(7)) and last.payers == (7,)
    same = table(hands[:7] + [["3C", "2C"]], target=20, stock=["AS"], pile=["10C", "10D"], current=7)
    same = E.apply(same, 7, Draw())
    assert same.history[-1].hand_values == (16,) * 8
    assert same.history[-1].winners == tuple(range(8)) and same.history[-1].payers == ()


def test_stall_option_abort_keeps_playing_until_the_cap() -> None:
    """Section 12 (stalled_round=abort): the locked round is played on; max_turns aborts it, no winner."""
    s = _one_ace_short()
    s = dataclasses.replace(s, settings=dataclasses.replace(s.settings, stalled_round="abort", max_turns=3))
    s = E.apply(s, 0, Draw())
    assert s.status == "active" and round_locked(s.hands) and not s.history
    s = E.apply(s, 0, Pass())
    s = E.apply(s, 1, Draw())
    r = E.result(s)
    assert r is not None and r.status == "aborted" and r.detail["reason"] == "max_turns"


def test_stall_in_a_match_counts_the_round_and_deals_the_next() -> None:
    """Sections 11 and 12: a stalled round of a match adds its counted hands to the totals, its payers
    to ``paid``, and the next round is dealt at once."""
    s = _one_ace_short()
    s = dataclasses.replace(s, settings=dataclasses.replace(s.settings, rounds=2))
    s = E.apply(s, 0, Draw())
    assert s.status == "active" and s.round == 1 and s.moves == 0 and len(s.history) == 1
    assert s.totals == s.history[0].hand_values and s.paid == (1, 0, 0, 0, 0, 0, 0, 0)
    assert E.view(s, None)["last_round"]["winners"] == [1]


def test_stall_only_when_every_ace_is_in_a_hand_one_each() -> None:
    """Section 12: a round is locked only when the 8 aces lie one in each of 8 hands; an ace in the stock,
    a hand with two aces or fewer than 8 players leave a way out."""
    one_each = [["A" + "CDHS"[i % 4], "5H"] for i in range(8)]
    assert round_locked(one_each)
    assert not round_locked(one_each[:7] + [["5C", "5D"]])  # an ace elsewhere
    assert not round_locked(one_each[:6] + [["AC", "AD"], ["5C"]])  # two in one hand
    assert not round_locked(one_each[:7])  # 7 players


def test_stall_a_locked_deal_is_counted_at_once() -> None:
    """Section 12: even the deal can lock a round (each of 8 players dealt one ace): it is counted before
    anyone moves."""
    aces = [c for c in FULL_DECK if c.startswith("A")]
    others = [c for c in FULL_DECK if not c.startswith("A")]
    hands = [[aces[i]] + others[9 * i : 9 * i + 9] for i in range(8)]
    s = E.new_game(8, {}, "lock", deck_for(hands))
    assert s.status == "finished" and s.history[-1].reason == "stalled" and s.moves == 0
    assert E.new_game(8, {"stalled_round": "abort"}, "lock", deck_for(hands)).status == "active"


# --- section 13: views and hidden information ------------------------------------------------


def test_view_shows_own_hand_counts_of_others_never_the_stock_or_seed() -> None:
    """Section 13: a seat sees its hand; others as counts; the stock as a count; no seed."""
    s = E.new_game(3, {}, "secret-seed")
    v = E.view(s, 1)
    assert v["hand"] == list(s.hands[1]) and v["hand_counts"] == [10, 10, 10]
    assert v["stock_count"] == 74 and "secret-seed" not in repr(v)
    assert all(c not in repr({k: x for k, x in v.items() if k not in ("hand", "lots", "events")}) for c in s.stock)
    spectator = E.view(s, None)
    assert spectator["hand"] is None and spectator["drawn"] is None


def test_view_drawn_cards_only_for_the_drawer() -> None:
    """Section 13: the cards just drawn are shown to the drawer only; the log the same way."""
    s = table([["2C", "3D"], ["3C", "3H"]], target=12, stock=["4H", "4S"])
    after = E.apply(s, 0, Draw())
    assert E.view(after, 0)["drawn"] == ["4H", "4S"]
    assert E.view(after, 1)["drawn"] is None and E.view(after, None)["drawn"] is None
    assert E.redact_move(s, 0, Draw(), 0) == {"type": "draw", "count": 2, "cards": ["4H", "4S"]}
    assert E.redact_move(s, 0, Draw(), 1) == {"type": "draw", "count": 2}
    assert E.redact_move(s, 0, Play(cards=("2C", "3D")), None) == {"type": "play", "cards": ["2C", "3D"]}


def test_view_unchanged_when_hidden_cards_are_dealt_differently() -> None:
    """Section 13: view and legal moves of a seat depend only on what it may see."""
    s = table([["2C", "3D"], ["3C", "3H"], ["KS", "9C"]], target=12, stock=["4H", "4S", "JC"])
    s = E.apply(s, 0, Draw())
    for seat in (0, 1, 2, None):
        other = E.shuffle_hidden(s, seat, "other")
        assert E.view(other, seat) == E.view(s, seat)
        if seat is not None:
            assert E.legal_moves(other, seat) == E.legal_moves(s, seat)
    moved = E.shuffle_hidden(s, 0, "other")
    assert moved.hands[0] == s.hands[0] and moved.events == s.events and moved.pile == s.pile
    assert [len(h) for h in moved.hands] == [len(h) for h in s.hands] and len(moved.stock) == len(s.stock)
    assert Counter(moved.hands[1] + moved.hands[2] + moved.stock) == Counter(s.hands[1] + s.hands[2] + s.stock)
    assert any(E.shuffle_hidden(s, 0, f"k{i}").stock != s.stock for i in range(5))


def test_codec_round_trip() -> None:
    """decode(encode(s)) == s, also with history and events."""
    s = table([["9C", "8D"], ["KC", "5S"]], target=12, rounds=2, seed="m")
    s = play(s, 0, "9C", "8D")
    assert E.decode(E.encode(s)) == s
