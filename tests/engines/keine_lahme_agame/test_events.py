"""Events of Keine lahme Agame (seeds/keine-lahme-agame.md §12): what each move reports, in
order, and who sees what; and the view keeping the last finished section (§10, §12).

Positions are built with ``position`` from the rule tests; every card of the game is in exactly one place.
"""

from __future__ import annotations

from typing import Any

from engines.core import Event, Move
from engines.keine_lahme_agame import ENGINE
from engines.keine_lahme_agame.moves import Catch, DiscardSingle, PassCatch, Place
from engines.keine_lahme_agame.state import LEAD, PLACE, TRICK_LEAD, State
from tests.engines.keine_lahme_agame.test_rules import T, check_conservation, position

E = ENGINE


def step(state: State, seat: int, move: Move) -> tuple[State, tuple[Event, ...]]:
    after, events = E.apply_events(state, seat, move)
    assert after == E.apply(state, seat, move)
    check_conservation(after)
    return after, events


def types(events: tuple[Event, ...]) -> list[str]:
    return [e.type for e in events]


def seen_alike(event: Event, players: int) -> dict[str, Any]:
    """The event as the spectator sees it, after checking that every seat sees exactly the same
    (§12: every move of the game is made face up)."""
    shown = event.for_viewer(None)
    for seat in range(players):
        assert event.for_viewer(seat) == shown, (event.type, seat)
    return shown


# --- §5 catching ---------------------------------------------------------------------------------------


def test_a_catch_reports_the_card_its_source_and_the_payment_in_pile_order() -> None:
    """§5.2, §5.4, §12 `caught`: the card, whose row (null = the pile top) and the payment as put on the
    pile, the same for every viewer (the payment is paid face up)."""
    state = position(3, rows={1: ["yellow-8"]}, discard=["green-13"])
    state, events = step(state, 0, Catch("yellow-8", ("red-3", "red-5"), 1))
    assert types(events) == ["caught"]
    assert seen_alike(events[0], 3) == {"type": "caught", "seat": 0, "card": "yellow-8", "from_seat": 1,
                                        "payment": ["red-3", "red-5"]}
    assert state.discard[-2:] == ("red-3", "red-5")
    state, events = step(state, 1, Catch("red-5", ("yellow-5",), None))
    assert events[0].for_viewer(2)["from_seat"] is None and events[0].for_viewer(2)["card"] == "red-5"


def test_a_pass_is_reported_and_the_round_end_puts_the_caught_cards_into_rows() -> None:
    """§5.5, §5.6, §12 `passed`, `catching_ended`: after the player right of the leader acts, the event
    lists every caught card in the order caught; they are in their catchers' rows."""
    state = position(3, rows={1: ["yellow-8"], 2: ["green-5"]})
    state, _ = step(state, 0, Catch("yellow-8", ("red-13",), 1))
    state, events = step(state, 1, PassCatch())
    assert [e.for_viewer(1) for e in events] == [{"type": "passed", "seat": 1}]
    state, events = step(state, 2, Catch("red-13", ("green-21",), None))
    assert types(events) == ["caught", "catching_ended"]
    assert seen_alike(events[1], 3)["caught"] == [{"seat": 0, "card": "yellow-8", "from_seat": 1},
                                                  {"seat": 2, "card": "red-13", "from_seat": None}]
    assert state.phase == TRICK_LEAD and "yellow-8" in state.rows[0] and "red-13" in state.rows[2]


# --- §4, §6 the trick -------------------------------------------------------------------------------------


def test_a_play_reports_its_cards_its_value_and_whether_it_leads() -> None:
    """§4.1, §4.2, §12 `played`: cards as given, their sum (null for the hat), `lead` for the leader."""
    state = position(3)
    state, events = step(state, 0, T("red-5", "red-3"))
    assert [seen_alike(e, 3) for e in events] == [{"type": "played", "seat": 0, "cards": ["red-5", "red-3"],
                                                   "value": 8, "lead": True}]
    state, events = step(state, 1, T("yellow-hat"))
    assert seen_alike(events[0], 3) == {"type": "played", "seat": 1, "cards": ["yellow-hat"], "value": None,
                                        "lead": False}


def test_the_last_play_reports_the_trick_won_and_where_its_cards_went() -> None:
    """§4.2, §6.2 (row_then_hand, auto), §12 `trick_won`, `placed`: the winner and his value, every card
    in play order; the fitting cards went to his row, the rest to his hand."""
    state = position(3, rows={1: ["red-1", "red-1"]})
    state, _ = step(state, 0, T("red-5", "red-3"))
    state, _ = step(state, 1, T("yellow-13"))
    state, events = step(state, 2, T("green-5", "green-1"))
    assert types(events) == ["played", "trick_won", "placed"]
    assert seen_alike(events[1], 3) == {"type": "trick_won", "seat": 1, "value": 13,
                                        "cards": ["red-5", "red-3", "yellow-13", "green-5", "green-1"]}
    placed = seen_alike(events[2], 3)
    assert placed == {"type": "placed", "seat": 1, "cards": ["red-5", "red-3", "yellow-13"],
                      "rest": ["green-5", "green-1"], "rest_to": "hand"}
    assert set(placed["cards"]) <= set(state.rows[1]) and {"green-5", "green-1"} <= set(state.hands[1])


def test_a_hat_wins_with_no_value_and_unplaced_cards_go_to_the_pile_with_row_then_discard() -> None:
    """§4.2, §6.2 (row_then_discard), §12: the hat's value is null; the rest goes onto the pile."""
    state = position(3, options={"trick_capture": "row_then_discard"})
    state, _ = step(state, 0, T("red-5", "red-3"))
    state, _ = step(state, 1, T("yellow-hat"))
    state, events = step(state, 2, T("green-5", "green-1"))
    assert seen_alike(events[1], 3)["value"] is None
    assert seen_alike(events[2], 3) == {"type": "placed", "seat": 1, "cards": ["red-5", "red-3", "green-1"],
                                        "rest": ["yellow-hat", "green-5"], "rest_to": "discard"}
    assert state.discard[-2:] == ("yellow-hat", "green-5")


def test_with_trick_placement_choose_the_placement_is_reported_by_the_place_move() -> None:
    """§6.2 (choose), §12: the last play reports `trick_won` only; the winner's `place` reports `placed`."""
    state = position(2, options={"trick_placement": "choose"})
    state, _ = step(state, 0, T("red-5", "red-3"))
    state, events = step(state, 1, T("yellow-13"))
    assert types(events) == ["played", "trick_won"] and state.phase == PLACE
    state, events = step(state, 1, Place(("yellow-13", "red-3")))
    assert [seen_alike(e, 2) for e in events] == [{"type": "placed", "seat": 1, "cards": ["yellow-13", "red-3"],
                                                   "rest": ["red-5"], "rest_to": "hand"}]
    assert state.phase == LEAD


# --- §7 section end, next deal, game end ------------------------------------------------------------------


def test_a_forced_discard_ends_the_section_and_the_next_one_is_dealt() -> None:
    """§4.3, §7.1, §7.3, §12 `discarded`, `section_ended`, `dealt`, in this order."""
    state = position(3, hands={0: ["red-3"]}, rows={1: ["red-1"]}, discard=["yellow-5"])
    state, events = step(state, 0, DiscardSingle("red-3"))
    assert types(events) == ["discarded", "section_ended", "dealt"]
    assert seen_alike(events[0], 3) == {"type": "discarded", "seat": 0, "cards": ["red-3"], "forced": True}
    assert state.section == 1


def test_the_section_end_reveals_the_hands_the_final_table_and_a_breakdown_that_sums_to_the_scores() -> None:
    """§7.2, §12 `section_ended`: every hand revealed to everybody, the rows as scored and the pile; per
    seat 100 for a complete row or 10 per card, the items summing to the points and totals."""
    rows = {0: ["red-1", "red-1", "red-2", "red-3", "red-5", "red-8", "red-13", "yellow-21"], 1: ["yellow-1"]}
    discard = ["yellow-1", "yellow-2", "yellow-5", "yellow-8", "yellow-13", "yellow-hat"]
    for scoring, per_card in (("complete100_else_10_per_card", 10), ("complete100_only", 0)):
        state = position(2, hands={0: ["red-21", "red-hat"], 1: ["yellow-3"]}, rows=rows, discard=discard,
                         options={"section_scoring": scoring, "sections_per_game": 2}, leader=1)
        state = state.replace(scores=(5, 7), history=((5, 7),), section=1, first_leader=0)
        state, events = step(state, 1, DiscardSingle("yellow-3"))
        ended = seen_alike(events[1], 2)
        assert ended["hands"] == [["red-21", "red-hat"], []]
        assert ended["rows"] == [rows[0], ["yellow-1"]]
        assert ended["discard"] == [*discard, "yellow-3"]
        assert ended["section"] == 2 and ended["emptied"] == [1] and ended["complete"] == [True, False]
        assert ended["breakdown"] == [
            {"seat": 0, "row_cards": 8, "complete": True, "complete_points": 100, "card_points": 0, "points": 100},
            {"seat": 1, "row_cards": 1, "complete": False, "complete_points": 0, "card_points": per_card,
             "points": per_card},
        ]
        assert [b["complete_points"] + b["card_points"] for b in ended["breakdown"]] == ended["points"]
        assert ended["points"] == [100, per_card]
        assert ended["scores"] == [105, 7 + per_card] == list(state.scores)
        assert types(events) == ["discarded", "section_ended", "game_over"]


def test_a_catch_that_empties_a_hand_ends_the_round_then_the_section() -> None:
    """§7.1, §12: the cut-short round puts its caught cards into the rows (`catching_ended`) before the
    section is scored, so the final table shows them."""
    state = position(3, hands={0: ["red-hat", "red-1"], 1: ["yellow-5"]}, rows={2: ["green-5", "green-8"]},
                     options={"sections_per_game": 2})
    state, _ = step(state, 0, Catch("green-8", ("red-hat",), 2))
    state, events = step(state, 1, Catch("green-5", ("yellow-5",), 2))
    assert types(events) == ["caught", "catching_ended", "section_ended", "dealt"]
    ended = seen_alike(events[2], 3)
    assert ended["rows"] == [["green-8"], ["green-5"], []] and ended["points"] == [10, 10, 0]
    assert ended["hands"][1] == [] and ended["emptied"] == [1]


def test_the_new_hands_are_dealt_only_to_their_owners() -> None:
    """§7.3, §12 `dealt`: everybody sees the section, its leader and the hand sizes; each seat sees its
    own new hand and nobody else's; the spectator sees no hand."""
    state = position(3, hands={0: ["red-3"]}, rows={1: ["red-1"]})
    state, events = step(state, 0, DiscardSingle("red-3"))
    dealt = events[-1]
    public = {"type": "dealt", "section": 2, "leader": 1, "counts": [9, 9, 9]}
    assert dealt.for_viewer(None) == public
    for seat in range(3):
        assert dealt.for_viewer(seat) == {**public, "cards": list(state.hands[seat])}
    assert "cards" not in dealt.public


def test_a_section_that_starts_without_a_hand_ends_at_once_and_is_reported() -> None:
    """§7.3 (rows_persist, hut_has_slot), §12: a seat whose cards all lie in its row starts without hand
    cards; the new section is dealt, ends at once and is scored unchanged, each in order."""
    yellow = ["yellow-1", "yellow-1", "yellow-2", "yellow-3", "yellow-5", "yellow-8", "yellow-13", "yellow-21",
              "yellow-hat"]
    state = position(2, hands={0: ["red-3"]}, rows={1: yellow},
                     options={"section_reset": "rows_persist", "hut_has_slot": True, "sections_per_game": 2})
    state, events = step(state, 0, DiscardSingle("red-3"))
    assert types(events) == ["discarded", "section_ended", "dealt", "section_ended", "game_over"]
    assert events[2].for_viewer(None)["counts"] == [9, 0] and events[2].for_viewer(1)["cards"] == []
    second = seen_alike(events[3], 2)
    assert second["section"] == 2 and second["emptied"] == [1] and second["points"] == [0, 100]
    assert seen_alike(events[1], 2)["points"] == [0, 100] and second["scores"] == [0, 200]


def test_the_move_that_ends_the_game_reports_game_over_last() -> None:
    """§7.4, §12 `game_over`: after the last `section_ended`, with the result's winners and totals."""
    state = position(3, hands={0: ["red-3"]}, rows={1: ["red-1"], 2: ["red-2"]}, options={"sections_per_game": 1})
    state, events = step(state, 0, DiscardSingle("red-3"))
    assert types(events) == ["discarded", "section_ended", "game_over"]
    assert seen_alike(events[-1], 3) == {"type": "game_over", "status": "finished", "winners": [1, 2],
                                         "losers": [0], "scores": [0, 10, 10]}


def test_the_turn_cap_reports_only_game_over_aborted() -> None:
    """§7.5, §12: the cap scores no section: the move's own event, then `game_over` aborted."""
    state = position(2, options={"max_turns": 10}).replace(turn=9)
    state, events = step(state, 0, T("red-13"))
    assert types(events) == ["played", "game_over"]
    assert seen_alike(events[-1], 2) == {"type": "game_over", "status": "aborted", "winners": [], "losers": [],
                                         "scores": [0, 0]}


# --- §10 the view keeps the last finished section ---------------------------------------------------------


def test_the_view_keeps_the_last_finished_section_until_the_next_one_ends() -> None:
    """§10, §12: `last_section` is the `section_ended` event (without its type) for every viewer,
    through the next deal and its moves, until the next section ends; and after the game's end."""
    state = position(3, hands={0: ["red-3"]}, rows={1: ["red-1", "yellow-13"]}, discard=["yellow-5"],
                     options={"sections_per_game": 2})
    state, events = step(state, 0, DiscardSingle("red-3"))
    summary = {k: v for k, v in events[1].for_viewer(None).items() if k != "type"}
    assert summary["rows"] == [[], ["red-1", "yellow-13"], []] and summary["hands"][0] == []
    state, _ = step(state, 1, T("yellow-13"))
    state, _ = step(state, 2, T("green-21"))
    state, _ = step(state, 0, T("red-1", "red-2"))
    assert state.rows != ((), (), ()) and E.decode(E.encode(state)) == state
    for viewer in (None, 0, 1, 2):
        assert E.view(state, viewer)["last_section"] == summary
    state = position(3, hands={0: ["red-3"]}, rows={1: ["red-1"]}, options={"sections_per_game": 1})
    state, events = step(state, 0, DiscardSingle("red-3"))
    assert E.view(state, None)["last_section"] == {k: v for k, v in events[1].public.items()}
