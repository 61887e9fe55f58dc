"""Rules of Keine lahme Agame, one test per rule paragraph of seeds/keine-lahme-agame.md (§ in docstrings).

Positions come from ``new_game`` and the direct state builder ``position`` (which checks that every
card of the game is in exactly one place); no test hunts for a seed.
"""

from __future__ import annotations

import itertools
import json
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from engines.core import IllegalMove, InvalidOptions, Move, move_from_json
from engines.keine_lahme_agame import ENGINE
from engines.keine_lahme_agame.cards import colour_index, full_deck, sort_cards, strength
from engines.keine_lahme_agame.moves import Catch, DiscardSingle, PassCatch, Place, Trick
from engines.keine_lahme_agame.options import PROVISIONAL_RULES
from engines.keine_lahme_agame.state import CATCHING, LEAD, OVER, PLACE, TRICK, TRICK_LEAD, Caught, Play, State
from tests.engines.keine_lahme_agame import reference
from tests.engines.keine_lahme_agame.test_properties import OPTION_SETS
from tests.playout import playout
from tests.test_move_coverage import assert_covers

E = ENGINE


# --- builders ------------------------------------------------------------------------------------------


def position(
    players: int = 3,
    hands: Mapping[int, Sequence[str]] | None = None,
    rows: Mapping[int, Sequence[str]] | None = None,
    discard: Sequence[str] = (),
    leader: int = 0,
    phase: str = LEAD,
    current: int | None = None,
    trick: Sequence[tuple[int, Sequence[str]]] = (),
    caught: Sequence[tuple[int, str, int | None]] = (),
    options: Mapping[str, Any] | None = None,
) -> State:
    """A position: the given hands, rows, pile, trick and caught cards. Every card of the game not
    placed anywhere goes to the hand of its colour's owner when that hand was not given, else to the
    first seat whose hand was not given, so that every card is in exactly one place."""
    state = E.new_game(players, dict(options or {}), "test")
    given = {s: list(h) for s, h in (hands or {}).items()}
    rows = {s: list(r) for s, r in (rows or {}).items()}
    placed = [c for h in given.values() for c in h] + [c for r in rows.values() for c in r] + list(discard)
    placed += [c for _, cards in trick for c in cards] + [c for _, c, _ in caught]
    rest = Counter(full_deck(players, state.config.card_set))
    rest.subtract(Counter(placed))
    assert all(v >= 0 for v in rest.values()), f"cards used twice or not in the game: {-rest}"
    spare = [s for s in range(players) if s not in given]
    hands_out = {s: list(h) for s, h in given.items()}
    for card in sorted(rest.elements()):
        owner = colour_index(card)
        target = owner if owner not in given else (spare[0] if spare else None)
        assert target is not None, f"card {card} is not placed anywhere"
        hands_out.setdefault(target, []).append(card)
    state = state.replace(
        hands=tuple(sort_cards(hands_out.get(s, [])) for s in range(players)),
        rows=tuple(sort_cards(rows.get(s, [])) for s in range(players)),
        discard=tuple(discard),
        leader=leader,
        phase=phase,
        current=leader if current is None else current,
        trick=tuple(Play(s, tuple(cards)) for s, cards in trick),
        caught=tuple(Caught(s, c, f) for s, c, f in caught),
    )
    check_conservation(state)
    return state


def check_conservation(state: State) -> None:
    """Conservation: every card of the game is in exactly one place."""
    everywhere = [c for h in state.hands for c in h] + [c for r in state.rows for c in r] + list(state.discard)
    everywhere += [c for p in state.trick for c in p.cards] + [c.card for c in state.caught]
    assert Counter(everywhere) == Counter(full_deck(state.config.players, state.config.card_set))


def play(state: State, *moves: tuple[int, Move]) -> State:
    for seat, move in moves:
        state = E.apply(state, seat, move)
        check_conservation(state)
    return state


def refused(state: State, seat: int, move: Move, reason: str) -> None:
    with pytest.raises(IllegalMove) as exc:
        E.apply(state, seat, move)
    assert exc.value.reason == reason


def T(*cards: str) -> Trick:  # noqa: N802 - reads like the move
    return Trick(cards=tuple(cards))


# --- §1 components, colours, codes, dealing ------------------------------------------------------------


def test_each_player_takes_the_cards_of_his_colour() -> None:
    """§1: seat i plays the i-th colour and starts with its 9 playing cards (H2), codes colour-value."""
    state = E.new_game(3, {}, "s")
    assert state.hands[0] == ("red-1", "red-1", "red-2", "red-3", "red-5", "red-8", "red-13", "red-21", "red-hat")
    assert state.hands[1][0] == "yellow-1" and state.hands[2][-1] == "green-hat"
    assert all(len(h) == 9 for h in state.hands)
    assert state.rows == ((), (), ()) and state.discard == ()
    assert [p["colour"] for p in E.view(state, 0)["players"]] == ["red", "yellow", "green"]


def test_card_set_h1_adds_a_34() -> None:
    """§1: card set H1 has 10 playing cards per colour, with a 34; the row gets a 34 position."""
    state = E.new_game(2, {"card_set": "H1"}, "s")
    assert len(state.hands[0]) == 10 and "red-34" in state.hands[0]
    assert E.view(state, 0)["row_slots"] == ["1", "1", "2", "3", "5", "8", "13", "21", "34"]


def test_the_deal_from_any_deck_order_is_the_same() -> None:
    """§1: every card goes to the owner of its colour, whatever the order of the fixed deck."""
    deck = list(reversed(full_deck(4, "H2")))
    assert E.new_game(4, {}, "s", deck=deck) == E.new_game(4, {}, "s")


def test_a_fixed_deck_must_be_exactly_the_cards_in_play() -> None:
    """§1: a deck with a card of a colour not in play, or missing a card, is refused."""
    deck = list(full_deck(2, "H2"))
    with pytest.raises(InvalidOptions):
        E.new_game(2, {}, "s", deck=deck[:-1] + ["green-1"])
    with pytest.raises(InvalidOptions):
        E.new_game(2, {}, "s", deck=deck[:-1])
    with pytest.raises(InvalidOptions):
        E.new_game(2, {"card_set": "H1"}, "s", deck=deck)


def test_two_to_five_players() -> None:
    """§1: one player per colour, 2 to 5 players."""
    for n in (2, 5):
        assert len(E.new_game(n, {}, "s").hands) == n
    for n in (1, 6):
        with pytest.raises(InvalidOptions):
            E.new_game(n, {}, "s")


def test_options_are_validated_and_have_defaults() -> None:
    """§8: unknown options and bad values are refused; null sections_per_game means one per player."""
    with pytest.raises(InvalidOptions):
        E.new_game(3, {"card_set": "H3"}, "s")
    with pytest.raises(InvalidOptions):
        E.new_game(3, {"sections_per_game": 0}, "s")
    with pytest.raises(InvalidOptions):
        E.new_game(3, {"colours": 5}, "s")
    assert E.new_game(3, {}, "s").config.sections_per_game == 3
    assert E.new_game(3, {"sections_per_game": 2}, "s").config.sections_per_game == 2


# --- §2 structure ---------------------------------------------------------------------------------------


def test_first_leader_is_seat0_or_drawn_from_the_seed() -> None:
    """§2: the first leader is seat 0 by default; with first_leader=random a seat from the seed."""
    assert E.to_move(E.new_game(4, {}, "s")) == (0,)
    leaders = {E.new_game(4, {"first_leader": "random"}, f"seed{i}").leader for i in range(12)}
    assert leaders <= {0, 1, 2, 3} and len(leaders) > 1
    a = E.new_game(4, {"first_leader": "random"}, "x")
    assert E.new_game(4, {"first_leader": "random"}, "x").leader == a.leader


def test_play_goes_clockwise_and_the_winner_leads() -> None:
    """§2, §4.4: followers play clockwise from the leader's left; the trick winner leads next."""
    state = position(3, leader=1)
    state = play(state, (1, T("yellow-13")))
    assert E.to_move(state) == (2,)
    state = play(state, (2, T("green-21")))
    assert E.to_move(state) == (0,)
    state = play(state, (0, T("red-1")))
    assert state.phase == LEAD and state.leader == 2 and E.to_move(state) == (2,)
    assert state.last_trick is not None and state.last_trick.winner == 2


# --- §4 the trick ---------------------------------------------------------------------------------------


def test_a_play_is_one_or_two_cards_of_any_colours() -> None:
    """§4.1: one or two cards, any value and colour; three or none are refused."""
    state = position(2, hands={0: ["red-1", "yellow-2", "red-13"]})
    refused(state, 0, T("red-1", "yellow-2", "red-13"), "bad_card_count")
    refused(state, 0, T(), "bad_card_count")
    refused(state, 0, T("yellow-13"), "card_not_in_hand")
    after = play(state, (0, T("red-1", "yellow-2")))
    assert after.trick == (Play(0, ("red-1", "yellow-2")),) and after.hands[0] == ("red-13",)


def test_the_hat_is_always_played_alone() -> None:
    """§4.1: the hat never goes with a second card, neither leading nor following."""
    state = position(2)
    refused(state, 0, T("red-hat", "red-1"), "hat_not_alone")
    assert T("red-hat") in E.legal_moves(state, 0)
    assert not any(isinstance(m, Trick) and len(m.cards) == 2 and "red-hat" in m.cards for m in E.legal_moves(state, 0))
    state = play(state, (0, T("red-13")))
    refused(state, 1, T("yellow-hat", "yellow-1"), "hat_not_alone")


def test_only_the_leader_may_not_play_a_single_digit_card_alone() -> None:
    """§4.1: the leader leads a lone 13, 21 or hat, or two cards, never a lone 1-8; followers may."""
    state = position(2)
    for card in ("red-1", "red-2", "red-3", "red-5", "red-8"):
        refused(state, 0, T(card), "lone_single_digit_lead")
        assert T(card) not in E.legal_moves(state, 0)
    lone = {m.cards for m in E.legal_moves(state, 0) if isinstance(m, Trick) and len(m.cards) == 1}
    assert lone == {("red-13",), ("red-21",), ("red-hat",)}
    state = play(state, (0, T("red-1", "red-2")))
    assert T("yellow-1") in E.legal_moves(state, 1)
    play(state, (1, T("yellow-1")))


def test_two_cards_count_their_sum() -> None:
    """§4.2: the highest value wins; two cards count their sum (8 + 5 = 13 beats 8 + 3 = 11)."""
    state = position(3)
    state = play(state, (0, T("red-8", "red-3")), (1, T("yellow-8", "yellow-5")), (2, T("green-1", "green-2")))
    assert state.last_trick is not None and state.last_trick.winner == 1


def test_the_hat_beats_every_sum_and_the_first_hat_wins() -> None:
    """§4.2: the hat beats all (21 + 13); of several hats the first played wins."""
    state = position(3)
    after = play(state, (0, T("red-21", "red-13")), (1, T("yellow-hat")), (2, T("green-hat")))
    assert after.last_trick is not None and after.last_trick.winner == 1


def test_equal_values_the_earliest_play_wins() -> None:
    """§4.2: of equal highest values the earliest play wins (13 alone, then 8 + 5)."""
    state = position(3, leader=1)
    after = play(state, (1, T("yellow-8", "yellow-5")), (2, T("green-13")), (0, T("red-1")))
    assert after.last_trick is not None and after.last_trick.winner == 1
    state = position(3, leader=2)
    after = play(state, (2, T("green-1", "green-2")), (0, T("red-13")), (1, T("yellow-8", "yellow-5")))
    assert after.last_trick is not None and after.last_trick.winner == 0


def test_a_leader_with_one_single_digit_card_discards_it() -> None:
    """§4.3: with exactly one single-digit card the leader cannot lead and must put it face up on the
    pile; his hand is then empty and the section ends (§7.1)."""
    state = position(2, hands={0: ["red-3"]}, rows={0: ["red-1", "red-1", "red-2"]},
                     options={"sections_per_game": 1})
    moves = E.legal_moves(state, 0)
    assert DiscardSingle("red-3") in moves and not any(isinstance(m, Trick) for m in moves)
    refused(state, 0, T("red-3"), "lone_single_digit_lead")
    refused(state, 0, DiscardSingle("red-5"), "card_not_in_hand")
    after = play(state, (0, DiscardSingle("red-3")))
    assert after.discard[-1] == "red-3" and after.phase == OVER
    assert after.last_section is not None and after.last_section.emptied == (0,)


def test_discard_single_only_when_no_lead_is_possible() -> None:
    """§4.3: a leader who can lead (two cards, or a lone 13) may not discard instead."""
    state = position(2, hands={0: ["red-3", "red-1"]}, rows={})
    assert not any(isinstance(m, DiscardSingle) for m in E.legal_moves(state, 0))
    refused(state, 0, DiscardSingle("red-3"), "discard_single_not_allowed")
    state = position(2, hands={0: ["red-13"]}, rows={0: ["red-1"]}, discard=["red-1", "red-2", "red-3", "red-5",
                                                                            "red-8", "red-21", "red-hat"])
    assert E.legal_moves(state, 0) == (T("red-13"),)


def test_followers_must_play() -> None:
    """§4.1: a follower has no pass; his moves are plays of 1 or 2 cards."""
    state = play(position(2), (0, T("red-13")))
    moves = E.legal_moves(state, 1)
    assert moves and all(isinstance(m, Trick) for m in moves)
    refused(state, 1, PassCatch(), "wrong_phase")


# --- §5 catching ----------------------------------------------------------------------------------------


def test_the_leaders_catch_opens_the_catching_round() -> None:
    """§5.1: only the leader opens a catching round, by catching first; then his left neighbour."""
    state = position(3, rows={1: ["yellow-5"]})
    refused(state, 1, Catch("yellow-5", ("green-5",), None), "not_your_turn")
    after = play(state, (0, Catch("yellow-5", ("red-5",), 1)))
    assert after.phase == CATCHING and E.to_move(after) == (1,)
    assert after.caught == (Caught(0, "yellow-5", 1),) and after.rows[1] == ()


def test_catch_targets_are_other_displays_and_the_pile_top() -> None:
    """§5.2: any card of another player's display, or the top of the pile -- not a lower pile card."""
    state = position(3, rows={1: ["yellow-5"], 2: ["green-8"]}, discard=["yellow-13", "green-3"])
    targets = {(m.card, m.from_seat) for m in E.legal_moves(state, 0) if isinstance(m, Catch)}
    assert targets == {("yellow-5", 1), ("green-8", 2), ("green-3", None)}
    refused(state, 0, Catch("yellow-13", ("red-21",), None), "not_catchable")
    refused(state, 0, Catch("green-5", ("red-5",), 2), "not_catchable")
    after = play(state, (0, Catch("green-3", ("red-3",), None)))
    assert after.discard == ("yellow-13", "red-3")


def test_a_player_does_not_catch_from_his_own_display() -> None:
    """§5.2: the own display is not a target."""
    state = position(2, rows={0: ["red-5"]})
    refused(state, 0, Catch("red-5", ("red-8",), 0), "own_display")


def test_a_card_caught_this_round_is_not_caught_again() -> None:
    """§5.2: the caught card lies beside the catcher's display; no one catches it in this round."""
    state = position(3, rows={1: ["yellow-5"]})
    state = play(state, (0, Catch("yellow-5", ("red-5",), 1)))
    targets = E.view(state, 1)["catch_targets"]
    assert {"card": "yellow-5", "from_seat": 0, "value": 5} not in targets
    refused(state, 1, Catch("yellow-5", ("yellow-8",), 0), "not_catchable")


def test_the_caught_card_must_fit_the_catchers_display() -> None:
    """§5.3, §6.1: a 5 does not fit a row whose 5 position is taken."""
    state = position(3, rows={0: ["green-5"], 1: ["yellow-5"]})
    refused(state, 0, Catch("yellow-5", ("red-8",), 1), "does_not_fit")
    assert not any(isinstance(m, Catch) for m in E.legal_moves(state, 0))


@pytest.mark.parametrize("payment", [("red-5", "red-3"), ("red-8",), ("red-2", "red-8"), ("red-21",), ("red-13",),
                                     ("red-13", "red-5")])
def test_worked_example_an_8_is_caught_with_at_least_8(payment: tuple[str, ...]) -> None:
    """§5.4 worked example: an 8 can be caught with 5+3, 8, 2+8, 21, 13 or 13+5."""
    state = position(2, rows={1: ["yellow-8"]})
    after = play(state, (0, Catch("yellow-8", payment, 1)))
    assert after.discard == payment
    assert Counter(after.hands[0]) == Counter(state.hands[0]) - Counter(payment)


def test_payment_is_one_or_two_cards_worth_at_least_the_catch() -> None:
    """§5.4: 5+2 is too little for an 8; three cards are too many; a hat pays for anything."""
    state = position(2, rows={1: ["yellow-8"]})
    refused(state, 0, Catch("yellow-8", ("red-5", "red-2"), 1), "payment_too_low")
    refused(state, 0, Catch("yellow-8", ("red-5", "red-2", "red-1"), 1), "bad_payment_count")
    refused(state, 0, Catch("yellow-8", (), 1), "bad_payment_count")
    refused(state, 0, Catch("yellow-8", ("yellow-13",), 1), "card_not_in_hand")
    play(state, (0, Catch("yellow-8", ("red-hat",), 1)))


def test_hat_payment_forbidden_option() -> None:
    """§5.4: with hut_payment=forbidden a hat may not be paid, nor is it listed."""
    state = position(2, rows={1: ["yellow-8"]}, options={"hut_payment": "forbidden"})
    refused(state, 0, Catch("yellow-8", ("red-hat",), 1), "hat_payment_forbidden")
    assert not any(isinstance(m, Catch) and "red-hat" in m.payment for m in E.legal_moves(state, 0))


def test_payment_goes_on_the_pile_in_order_and_can_be_caught() -> None:
    """§5.4: the caught top card is taken first, the payment put on in the listed order;
    a later catcher of the same round may catch the paid top card."""
    state = position(3, discard=["green-13"], rows={})
    state = play(state, (0, Catch("green-13", ("red-8", "red-5"), None)))
    assert state.discard == ("red-8", "red-5")
    state = play(state, (1, Catch("red-5", ("yellow-5",), None)))
    assert state.discard == ("red-8", "yellow-5")
    assert state.caught == (Caught(0, "green-13", None), Caught(1, "red-5", None))


def test_the_others_may_catch_or_pass_in_turn() -> None:
    """§5.5: after the leader each other player clockwise may catch, but need not."""
    state = position(3, rows={2: ["green-5"]})
    state = play(state, (0, Catch("green-5", ("red-5",), 2)))
    assert PassCatch() in E.legal_moves(state, 1)
    state = play(state, (1, PassCatch()))
    assert E.to_move(state) == (2,) and state.phase == CATCHING


def test_caught_cards_enter_the_displays_at_the_end_of_the_round() -> None:
    """§5.6-§5.7: when the last player has acted, the caught cards go into the catchers' rows and
    the leader leads the trick; he may not catch again."""
    state = position(3, rows={1: ["yellow-5"], 2: ["green-8"]}, leader=1)
    state = play(state, (1, Catch("green-8", ("yellow-8",), 2)))
    state = play(state, (2, Catch("yellow-5", ("green-5",), 1)))
    assert state.rows == ((), (), ()) and len(state.caught) == 2
    state = play(state, (0, PassCatch()))
    assert state.rows == ((), ("green-8",), ("yellow-5",)) and state.caught == ()
    assert state.phase == TRICK_LEAD and E.to_move(state) == (1,)
    moves = E.legal_moves(state, 1)
    assert moves and all(isinstance(m, Trick) for m in moves)
    refused(state, 1, Catch("yellow-8", ("yellow-13",), None), "wrong_phase")


def test_leading_without_catching_skips_the_round() -> None:
    """§5.1: a leader who leads directly opens no catching round."""
    state = position(3, rows={1: ["yellow-5"]})
    state = play(state, (0, T("red-13")))
    assert state.phase == TRICK and state.caught == ()
    refused(state, 1, Catch("yellow-5", ("yellow-8",), 1), "wrong_phase")


# --- §6 fit and trick cards (provisional) ---------------------------------------------------------------


def test_a_row_holds_two_ones_and_one_of_every_other_value() -> None:
    """§6.1: a card fits when a position of its value is free; two 1 positions."""
    state = position(3, rows={0: ["green-1"], 1: ["yellow-1", "yellow-1"], 2: ["green-8"]})
    targets = {(m.card, m.from_seat) for m in E.legal_moves(state, 0) if isinstance(m, Catch)}
    assert ("yellow-1", 1) in targets and ("green-8", 2) in targets
    after = play(state, (0, Catch("yellow-1", ("red-1",), 1)), (1, PassCatch()), (2, PassCatch()))
    assert after.rows[0] == ("yellow-1", "green-1")
    targets = {(m.card, m.from_seat) for m in E.legal_moves(after.replace(phase=LEAD), 0) if isinstance(m, Catch)}
    assert ("green-8", 2) in targets and not any(card.endswith("-1") for card, _ in targets)


def test_own_colour_fits_unless_the_option_says_otherwise() -> None:
    """§6.1: with row_accepts_own_colour=false a player's own colour does not fit his row."""
    state = position(2, rows={1: ["red-8", "yellow-5"]}, hands={0: ["red-13", "red-21"]})
    assert {m.card for m in E.legal_moves(state, 0) if isinstance(m, Catch)} == {"red-8", "yellow-5"}
    state = position(2, rows={1: ["red-8", "yellow-5"]}, hands={0: ["red-13", "red-21"]},
                     options={"row_accepts_own_colour": False})
    refused(state, 0, Catch("red-8", ("red-13",), 1), "does_not_fit")
    assert {m.card for m in E.legal_moves(state, 0) if isinstance(m, Catch)} == {"yellow-5"}


def test_the_hat_fits_no_row_unless_it_has_a_hat_position() -> None:
    """§6.1: by default a hat on the pile cannot be caught; with hut_has_slot only a hat pays."""
    state = position(2, discard=["yellow-hat"])
    refused(state, 0, Catch("yellow-hat", ("red-hat",), None), "does_not_fit")
    state = position(2, discard=["yellow-hat"], options={"hut_has_slot": True})
    refused(state, 0, Catch("yellow-hat", ("red-21", "red-13"), None), "payment_too_low")
    after = play(state, (0, Catch("yellow-hat", ("red-hat",), None)), (1, PassCatch()))
    assert after.rows[0] == ("yellow-hat",)


def test_trick_cards_go_to_the_row_then_the_hand() -> None:
    """§6.2 (default row_then_hand, auto): fitting won cards enter the winner's row, earliest first;
    the rest (another 5, the hat) go to his hand."""
    state = position(3, rows={1: ["red-1", "red-1"]})
    state = play(state, (0, T("red-5", "red-3")), (1, T("yellow-hat")), (2, T("green-5", "green-1")))
    assert state.rows[1] == ("red-1", "red-1", "red-3", "red-5")
    assert state.last_trick is not None
    assert state.last_trick.placed == ("red-5", "red-3") and state.last_trick.rest_to == "hand"
    assert Counter(state.last_trick.rest) == Counter(["yellow-hat", "green-5", "green-1"])
    assert {"yellow-hat", "green-5", "green-1"} <= set(state.hands[1])
    assert len(state.hands[1]) == 8 + 3


def test_trick_cards_row_then_discard_option() -> None:
    """§6.2: with row_then_discard the unplaced cards go onto the pile in play order."""
    state = position(3, options={"trick_capture": "row_then_discard"})
    state = play(state, (0, T("red-5", "red-3")), (1, T("yellow-hat")), (2, T("green-5", "green-1")))
    assert state.rows[1] == ("red-3", "red-5", "green-1")
    assert state.discard == ("yellow-hat", "green-5")
    assert len(state.hands[1]) == 8


def test_trick_placement_choose_option() -> None:
    """§6.2: with trick_placement=choose the winner picks the won cards for his row (move place)."""
    state = position(2, options={"trick_placement": "choose"})
    state = play(state, (0, T("red-5", "red-3")), (1, T("yellow-13")))
    assert state.phase == PLACE and E.to_move(state) == (1,)
    listed = {m.cards for m in E.legal_moves(state, 1)}
    assert {(), ("red-3",), ("red-5",), ("yellow-13",), ("red-3", "red-5", "yellow-13")} <= listed
    refused(state, 1, Place(("red-5", "red-5")), "card_not_in_trick")
    refused(state, 1, T("yellow-1"), "wrong_phase")
    after = play(state, (1, Place(("yellow-13", "red-3"))))
    assert after.rows[1] == ("red-3", "yellow-13") and "red-5" in after.hands[1]
    assert after.phase == LEAD and after.leader == 1
    taken = position(2, rows={0: ["yellow-5"]}, options={"trick_placement": "choose"})
    taken = play(taken, (0, T("red-5", "red-21")), (1, T("yellow-1")))
    assert taken.phase == PLACE and E.to_move(taken) == (0,)
    refused(taken, 0, Place(("red-5",)), "does_not_fit")
    assert all("red-5" not in m.cards for m in E.legal_moves(taken, 0))


# --- §7 section end, scoring, game end (provisional) ----------------------------------------------------


def test_a_catch_that_empties_a_hand_ends_the_section() -> None:
    """§7.1: the round stops with that catch; the caught cards enter the rows before scoring."""
    state = position(3, hands={0: ["red-hat", "red-1"], 1: ["yellow-5"]}, rows={2: ["green-5", "green-8"]},
                     options={"sections_per_game": 2})
    state = play(state, (0, Catch("green-8", ("red-hat",), 2)), (1, Catch("green-5", ("yellow-5",), 2)))
    assert state.section == 1 and state.last_section is not None
    assert state.last_section.emptied == (1,)
    assert state.last_section.points == (10, 10, 0)
    assert state.scores == (10, 10, 0) and state.history == ((10, 10, 0),)


def test_a_trick_is_finished_even_when_a_player_plays_his_last_card() -> None:
    """§7.1: the leader's last cards do not stop the trick; it ends the section after disposal."""
    state = position(2, hands={0: ["red-13"]}, rows={0: ["red-1", "red-1", "red-2", "red-3", "red-5", "red-8"]},
                     discard=["red-21", "red-hat"], options={"sections_per_game": 1})
    state = play(state, (0, T("red-13")))
    assert state.phase == TRICK and E.to_move(state) == (1,)
    state = play(state, (1, T("yellow-21")))
    assert state.phase == OVER and state.last_section is not None and state.last_section.emptied == (0,)


def test_a_hand_refilled_by_the_trick_is_not_empty() -> None:
    """§7.1: a player who plays his last card but wins, taking unplaceable cards, plays on."""
    state = position(2, hands={0: ["red-21"]}, rows={0: ["red-1", "red-1", "red-2", "red-3", "red-5", "red-8",
                                                        "red-13"]}, discard=["red-hat"])
    state = play(state, (0, T("red-21")), (1, T("yellow-13", "yellow-5")))
    assert state.section == 0 and state.phase == LEAD and state.leader == 0
    assert state.hands[0] == ("yellow-5", "yellow-13") and "red-21" in state.rows[0]


def test_rows_score_100_when_complete_else_10_per_card() -> None:
    """§7.2: a complete row scores 100, otherwise 10 per card (or 0 with complete100_only)."""
    rows = {0: ["red-1", "red-1", "red-2", "red-3", "red-5", "red-8", "red-13", "yellow-21"], 1: ["yellow-1"]}
    for scoring, expected in (("complete100_else_10_per_card", (100, 10)), ("complete100_only", (100, 0))):
        state = position(2, hands={0: ["red-21", "red-hat"], 1: ["yellow-3"]}, rows=rows,
                         discard=["yellow-1", "yellow-2", "yellow-5", "yellow-8", "yellow-13", "yellow-hat"],
                         options={"section_scoring": scoring, "sections_per_game": 1}, leader=1)
        state = play(state, (1, DiscardSingle("yellow-3")))
        assert state.scores == expected
        view = E.view(state, 0)
        assert view["players"][0]["row_complete"] and view["last_section"]["points"] == list(expected)


def test_a_new_section_returns_every_card_to_its_owner() -> None:
    """§7.3 (full): hands are each player's own cards again, rows and pile empty; the first leader
    rotates clockwise."""
    state = position(3, hands={0: ["red-3"], 1: ["yellow-hat", "green-1"]}, rows={0: ["yellow-1"]},
                     discard=["yellow-5"])
    state = play(state, (0, DiscardSingle("red-3")))
    fresh = E.new_game(3, {}, "test")
    assert state.section == 1 and state.hands == fresh.hands
    assert state.rows == ((), (), ()) and state.discard == ()
    assert state.leader == 1 and state.phase == LEAD


def test_rows_persist_option() -> None:
    """§7.3 (rows_persist): rows stay; every other card returns to its owner."""
    state = position(3, hands={0: ["red-3"], 1: ["yellow-hat", "green-1"]}, rows={0: ["yellow-1"]},
                     discard=["yellow-5"], options={"section_reset": "rows_persist"})
    state = play(state, (0, DiscardSingle("red-3")))
    assert state.rows == (("yellow-1",), (), ())
    assert state.hands[1].count("yellow-1") == 1 and len(state.hands[1]) == 8
    assert len(state.hands[0]) == 9 and state.discard == ()


def test_the_game_ends_after_its_sections_and_the_highest_total_wins() -> None:
    """§7.4: after sections_per_game sections the highest total wins, ties shared, the rest lose."""
    state = position(3, hands={0: ["red-3"]}, rows={1: ["red-1"], 2: ["red-2"]},
                     options={"sections_per_game": 1})
    assert E.result(state) is None
    state = play(state, (0, DiscardSingle("red-3")))
    result = E.result(state)
    assert result is not None and result.status == "finished"
    assert result.winners == (1, 2) and result.losers == (0,) and result.scores == (0, 10, 10)
    assert result.detail == {"reason": "sections_complete", "sections_played": 1, "section_points": [[0, 10, 10]]}
    assert E.to_move(state) == () and E.legal_moves(state, 0) == ()
    refused(state, 0, DiscardSingle("red-3"), "game_over")


def test_max_turns_ends_the_game_as_aborted() -> None:
    """§7.5: the hat can circulate forever (seat 0 wins it back each trick under row_then_hand);
    after max_turns moves the game is aborted with no winner."""
    state = E.new_game(2, {"max_turns": 10}, "s")
    for _ in range(2):
        state = play(state, (0, T("red-13" if state.turn == 0 else "red-21")), (1, T("yellow-1")))
    for _ in range(3):
        state = play(state, (0, T("red-hat")))
        assert E.result(state) is None
        state = play(state, (1, E.legal_moves(state, 1)[0]))
    assert "red-hat" in state.hands[0] and state.turn == 10
    result = E.result(state)
    assert result is not None and result.status == "aborted"
    assert result.winners == () and result.losers == () and result.scores == (0, 0)
    assert result.detail["reason"] == "max_turns" and result.detail["sections_played"] == 0
    refused(state, 0, T("red-hat"), "game_over")


def test_max_turns_cap_aborts_a_running_section() -> None:
    """§7.5: the cap counts every move; the 10th move of a running section aborts the game."""
    state = position(2, options={"max_turns": 10})
    state = state.replace(turn=9)
    state = play(state, (0, T("red-13")))
    result = E.result(state)
    assert result is not None and result.status == "aborted" and result.scores == (0, 0)


@pytest.mark.parametrize("players", [2, 5])
def test_row_then_discard_shrinks_the_hands_every_round_so_games_end(players: int) -> None:
    """§8 (endless games): with trick_capture=row_then_discard no card returns to a hand, so every
    completed trick leaves fewer hand cards than the round began with, and random games finish."""
    for k in range(6):
        state = E.new_game(players, {"trick_capture": "row_then_discard"}, f"shrink{k}")
        start = sum(map(len, state.hands))
        for step in playout(E, players, f"shrink{k}", {"trick_capture": "row_then_discard"}):
            state = E.apply(step.state, step.seat, step.move)
            if state.section != step.state.section or state.phase == OVER:
                start = sum(map(len, state.hands))
            elif step.state.phase == TRICK and state.phase in (LEAD, PLACE):
                now = sum(map(len, state.hands))
                assert now <= start - players
                start = now
        assert E.result(state) is not None and E.result(state).status == "finished"  # type: ignore[union-attr]


# --- §9 listing ----------------------------------------------------------------------------------------


def listed_payments(state: State, seat: int, card: str, source: int | None) -> list[tuple[str, ...]]:
    return [m.payment for m in E.legal_moves(state, seat)
            if isinstance(m, Catch) and (m.card, m.from_seat) == (card, source)]


def value_multiset(payment: Sequence[str]) -> tuple[int, ...]:
    return tuple(sorted(strength(c) for c in payment))


@pytest.mark.parametrize("payment", [("red-2", "red-8"), ("red-13", "red-5")])
def test_the_worked_examples_of_overpaying_an_8_are_listed(payment: tuple[str, ...]) -> None:
    """§5.4 worked example, §9: 2+8 and 13+5 pay for an 8 though 8 and 13 alone would do; paying two
    cards sheds one more, so the overpayment is listed, and it applies."""
    state = position(2, hands={0: ["red-1", "red-2", "red-3", "red-5", "red-8", "red-13"]}, rows={1: ["yellow-8"]})
    assert value_multiset(payment) in {value_multiset(p) for p in listed_payments(state, 0, "yellow-8", 1)}
    after = play(state, (0, Catch("yellow-8", payment, 1)))
    assert len(after.hands[0]) == len(state.hands[0]) - 2
    assert_covers(E, state, 0)


def test_every_distinct_payment_by_values_is_listed_once() -> None:
    """§5.4, §9: each catchable card is listed with each multiset of 1 or 2 hand values worth at least
    its value, once; 5+2 (7) is too low for an 8 and is not listed."""
    hand = ["red-1", "red-2", "red-3", "red-5", "red-8", "red-13", "yellow-5", "red-hat"]
    state = position(2, hands={0: hand}, rows={1: ["yellow-8"]})
    pays = listed_payments(state, 0, "yellow-8", 1)
    by_values = [value_multiset(p) for p in pays]
    assert len(by_values) == len(set(by_values))
    strengths = sorted(strength(c) for c in hand)
    expected = {(v,) for v in strengths if v >= 8}
    expected |= {(a, b) for i, a in enumerate(strengths) for b in strengths[i + 1:] if a + b >= 8}
    assert set(by_values) == expected
    assert (5, 5) in expected and (2, 5) not in expected
    assert_covers(E, state, 0)


def test_any_equal_card_and_either_order_of_a_listed_payment_is_accepted() -> None:
    """§9: the listing pays the first card of a value in hand order and two values the lower first
    (the higher ends on top of the pile); an equal card of another colour, or the other order, is
    accepted and only changes which card lies where."""
    state = position(3, hands={0: ["red-3", "red-5", "yellow-5", "red-13"]}, discard=["green-8"])
    pays = listed_payments(state, 0, "green-8", None)
    assert ("red-3", "red-5") in pays and ("red-3", "yellow-5") not in pays
    assert ("red-5", "yellow-5") in pays
    assert play(state, (0, Catch("green-8", ("red-3", "red-5"), None))).discard == ("red-3", "red-5")
    assert play(state, (0, Catch("green-8", ("yellow-5", "red-3"), None))).discard == ("yellow-5", "red-3")
    assert_covers(E, state, 0)


@pytest.mark.parametrize("hut_payment", ["infinite", "forbidden"])
def test_hat_payments_are_listed_unless_forbidden(hut_payment: str) -> None:
    """§5.4, §9: a hat pays alone or with any second card, unless hut_payment=forbidden."""
    state = position(2, hands={0: ["red-1", "red-hat", "yellow-hat"]}, rows={1: ["yellow-13"]},
                     options={"hut_payment": hut_payment})
    by_values = {value_multiset(p) for p in listed_payments(state, 0, "yellow-13", 1)}
    hat = strength("red-hat")
    assert by_values == ({(hat,), (1, hat), (hat, hat)} if hut_payment == "infinite" else set())
    assert_covers(E, state, 0)


def test_a_hat_in_a_hat_position_is_caught_only_with_a_hat() -> None:
    """§6.1 (hut_has_slot), §9: the hat target is listed with every payment holding a hat."""
    state = position(3, hands={0: ["red-8", "red-hat", "yellow-hat"]}, rows={1: ["green-hat"]},
                     options={"hut_has_slot": True, "card_set": "H1"})
    hat = strength("red-hat")
    assert {value_multiset(p) for p in listed_payments(state, 0, "green-hat", 1)} == {(hat,), (8, hat), (hat, hat)}
    assert_covers(E, state, 0)


def test_edge_positions_cover_every_legal_card_of_every_kind() -> None:
    """§9: hand-built edge positions -- a leader with one single-digit card who may still catch
    (catch or discard_single), a follower's lone single-digit card, a placement with a full value,
    the same card code in two displays, two 1s of one code -- list every legal kind and card."""
    lone = position(3, hands={0: ["red-3"]}, rows={1: ["yellow-2"], 2: ["green-1"]}, discard=["yellow-1"])
    kinds = {m.type for m in E.legal_moves(lone, 0)}
    assert kinds == {"catch", "discard_single"}
    assert_covers(E, lone, 0)
    follower = play(position(2, hands={1: ["yellow-1", "yellow-1", "yellow-3"]}), (0, T("red-13")))
    assert T("yellow-1") in E.legal_moves(follower, 1) and T("yellow-1", "yellow-1") in E.legal_moves(follower, 1)
    assert_covers(E, follower, 1)
    choose = position(3, rows={1: ["yellow-5"]}, options={"trick_placement": "choose"})
    choose = play(choose, (0, T("red-5", "red-8")), (1, T("yellow-21")), (2, T("green-5", "green-3")))
    assert choose.phase == PLACE
    assert_covers(E, choose, 1)
    twice = position(4, hands={0: ["blue-21", "green-1", "yellow-1"]},
                     rows={1: ["red-1"], 2: ["red-1"], 3: ["yellow-1", "blue-1"]})
    assert {("red-1", 1), ("red-1", 2)} <= {(m.card, m.from_seat) for m in E.legal_moves(twice, 0)
                                            if isinstance(m, Catch)}
    assert_covers(E, twice, 0)
    big = position(5, hands={0: ["red-1", "yellow-1", "red-2", "red-3", "red-5", "red-8", "red-13", "red-21",
                                 "red-34", "red-hat", "yellow-2", "yellow-3", "yellow-5", "yellow-hat"]},
                   rows={s: [f"{colour}-{v}" for v in ("1", "2", "3", "5", "8", "13", "21", "34", "hat")]
                         for s, colour in ((2, "green"), (3, "blue"), (4, "purple"))},
                   discard=["yellow-8"], options={"card_set": "H1", "hut_has_slot": True})
    listed = E.legal_moves(big, 0)
    assert 500 < len(listed) <= reference.LIST_BOUND
    assert_covers(E, big, 0)


def test_the_documented_list_bound_follows_from_the_card_counts() -> None:
    """§9: LIST_BOUND is the bound derived from the largest game and is the number the seeds state."""
    assert reference.list_bound() == reference.LIST_BOUND
    seeds = Path(__file__).parents[3] / "seeds" / "keine-lahme-agame.md"
    assert f"**{reference.LIST_BOUND}**" in seeds.read_text()


@pytest.mark.parametrize("options", OPTION_SETS, ids=[json.dumps(o, sort_keys=True) for o in OPTION_SETS])
def test_listed_moves_cover_every_legal_card_under_every_option_set(options: dict[str, Any]) -> None:
    """§9 under the provisional options (the shared coverage test plays the defaults): 120 random
    positions per option set, over 2 to 5 players, list every kind, card and payment the reference finds."""
    checked = 0
    for n in itertools.count():
        for i, step in enumerate(playout(E, 2 + n % 4, f"kla-coverage/{n}", {**options, "sections_per_game": 1})):
            if i % 7 == 0:
                assert_covers(E, step.state, step.seat)
                checked += 1
                if checked == 120:
                    return


def test_every_listed_move_applies_and_the_mover_always_has_one() -> None:
    """§9: in random games of every size and several option sets, every listed move applies."""
    import random

    for opts in ({}, {"trick_capture": "row_then_discard", "trick_placement": "choose"},
                 {"card_set": "H1", "hut_has_slot": True, "section_reset": "rows_persist"}):
        for n in range(2, 6):
            rng = random.Random(f"{n}{opts}")
            state = E.new_game(n, opts, "play")
            while E.result(state) is None:
                (seat,) = E.to_move(state)
                moves = E.legal_moves(state, seat)
                assert moves
                for m in moves[:: max(1, len(moves) // 5)]:
                    check_conservation(E.apply(state, seat, m))
                state = E.apply(state, seat, rng.choice(moves))
                check_conservation(state)
                for row in state.rows:
                    values = Counter(c.split("-")[1] for c in row)
                    assert values["1"] <= 2 and all(v <= 1 for k, v in values.items() if k != "1")
            assert E.result(state).status == "finished"  # type: ignore[union-attr]


# --- §10 views, hidden information, log ----------------------------------------------------------------


def test_a_seat_sees_only_its_own_hand() -> None:
    """§10: own hand; the others as counts; the spectator sees no hand."""
    state = play(position(3), (0, T("red-13")))
    view = E.view(state, 1)
    assert view["hand"] == list(state.hands[1])
    assert view["hand_counts"] == [8, 9, 9]
    text = json.dumps(view)
    assert "red-21" not in text and "green-21" not in text and "test" not in text
    assert E.view(state, None)["hand"] is None
    assert "yellow-21" not in json.dumps(E.view(state, None))
    assert E.view(E.shuffle_hidden(state, 1, "other"), 1) == view


def test_views_and_catalogue_say_which_rules_are_provisional() -> None:
    """§8, §10: the engine is provisional; every reconstructed option is marked and named in views."""
    assert E.provisional is True
    provisional = {o.name for o in E.options if o.provisional}
    assert provisional == set(PROVISIONAL_RULES) and "max_turns" not in provisional
    assert {"trick_capture", "section_scoring", "section_reset", "sections_per_game", "card_set"} <= provisional
    assert E.view(E.new_game(2, {}, "s"), None)["provisional_rules"] == list(PROVISIONAL_RULES)


def test_the_log_shows_every_move_as_made() -> None:
    """§10: all moves are face up, so the log entry is the move for every viewer."""
    state = position(2, rows={1: ["yellow-8"]})
    move = Catch("yellow-8", ("red-5", "red-3"), 1)
    for viewer in (None, 0, 1):
        assert E.redact_move(state, 0, move, viewer) == move.to_json()


def test_snapshots_and_moves_round_trip() -> None:
    """§3: decode(encode(s)) == s; moves round-trip through JSON, from_seat optional."""
    state = position(3, rows={1: ["yellow-5"]}, discard=["green-3"])
    state = play(state, (0, Catch("yellow-5", ("red-5",), 1)))
    state = play(state, (1, PassCatch()), (2, PassCatch()), (0, T("red-13")))
    assert E.decode(json.loads(json.dumps(E.encode(state)))) == state
    assert move_from_json(E.move_types, {"type": "catch", "card": "green-3", "payment": ["red-3"]}) == Catch(
        "green-3", ("red-3",), None)
    for m in (PassCatch(), T("red-1", "red-2"), DiscardSingle("red-3"), Place(())):
        assert move_from_json(E.move_types, json.loads(json.dumps(m.to_json()))) == m
