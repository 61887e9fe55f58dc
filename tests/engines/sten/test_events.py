"""Events of Sten (seeds/sten.md section 13): what each move caused, as each viewer sees it.

Positions come from the builders of ``test_rules`` (fixed hands and layouts, every card accounted for).
"""

from __future__ import annotations

from engines.core import Event
from engines.sten import ENGINE
from engines.sten.moves import Play, PlayAll, Stein
from tests.engines.sten.test_rules import LATE, PA_HANDS, deck_for, position

E = ENGINE


def shown(events: tuple[Event, ...], viewer: int | None) -> list[dict[str, object]]:
    return [e.for_viewer(viewer) for e in events]


def test_a_play_reports_the_card_and_where_it_came_from() -> None:
    """seeds/sten.md 5.1, 13: ``played`` names the seat, the card and its source (hand or open remainder)."""
    state = E.new_game(3, None, "ev", deck=deck_for(3, {0: ["7H"]}, rest=["8H"]))
    after, events = E.apply_events(state, 0, Play("7H"))
    assert shown(events, None) == [{"type": "played", "seat": 0, "card": "7H", "source": "hand"}]
    assert after == E.apply(state, 0, Play("7H"))
    _, events = E.apply_events(after, 1, Play("8H"))
    assert shown(events, 2) == [{"type": "played", "seat": 1, "card": "8H", "source": "remainder"}]


def test_stein_reports_the_pass_and_the_stone_changing_hands() -> None:
    """seeds/sten.md 5.2, 13: "Stein" is ``passed``; ``took_stone`` names the new and the previous holder,
    and is left out when the sayer holds the stone already."""
    # hearts lie from 5 to 10: seat 0 (2H, QH) has no card that fits
    blocked = position([["2H", "QH"], ["JH", "KH", "AH", "3H", "4H"]], {**LATE, "H": (5, 10)}, stone=1)
    after, events = E.apply_events(blocked, 0, Stein())
    assert shown(events, None) == [
        {"type": "passed", "seat": 0},
        {"type": "took_stone", "seat": 0, "previous_holder": 1},
    ]
    again = position([["2H", "QH"], ["JH", "KH", "AH", "3H", "4H"]], {**LATE, "H": (5, 10)}, stone=0)
    _, events = E.apply_events(again, 0, Stein())
    assert shown(events, 1) == [{"type": "passed", "seat": 0}]
    assert after.stone == 0


def test_failed_declaration_shows_the_declarer_his_list_and_the_others_the_laid_cards() -> None:
    """seeds/sten.md 6, 9, 13: a failed ``declared`` shows the others (and the spectator) only the cards
    laid before the mistake, the declarer his whole list; then the stone changes hands."""
    state = position(PA_HANDS, LATE, stone=1)
    move = PlayAll(("10H", "JH", "3H", "4H"))
    _, events = E.apply_events(state, 0, move)
    assert [e.type for e in events] == ["declared", "took_stone"]
    assert events[0].for_viewer(0) == {"type": "declared", "seat": 0, "success": False,
                                       "cards": ["10H", "JH", "3H", "4H"]}
    for viewer in (1, None):
        assert events[0].for_viewer(viewer) == {"type": "declared", "seat": 0, "success": False,
                                                "cards": ["10H", "JH"]}
    assert events[1].for_viewer(None) == {"type": "took_stone", "seat": 0, "previous_holder": 1}


def test_winning_declaration_reports_the_cards_in_the_order_laid_then_the_end() -> None:
    """seeds/sten.md 6, 13: a winning ``declared`` shows every card in the order laid (any_order: the order
    found), then ``deal_ended`` and ``game_over`` last."""
    state = position(PA_HANDS, LATE, stone=1, options={"play_all_validation": "any_order"})
    after, events = E.apply_events(state, 0, PlayAll(("3H", "4H", "10H", "JH")))
    assert [e.type for e in events] == ["declared", "deal_ended", "game_over"]
    laid = events[0].for_viewer(None)["cards"]
    assert sorted(laid) == sorted(["3H", "4H", "10H", "JH"]) and laid[0] != "3H"
    res = E.result(after)
    assert res is not None
    assert events[-1].for_viewer(1) == {"type": "game_over", "status": "finished", "winners": [0],
                                        "losers": [1], "scores": None}


def test_the_end_reveals_every_hand_left_the_final_table_and_the_reckoning() -> None:
    """seeds/sten.md 7.3, 13: ``deal_ended`` lays the hands left open (and the dead cards), shows the final
    layout, and the reckoning: winner, losers (the stone holder), cards each seat kept."""
    state = position(
        [["4H", "JH", "QH"], ["KH", "2H", "AH"]],
        LATE,
        dead=["10H", "3H"],
        stone=1,
        options={"remainder_policy": "dead"},
    )
    after, events = E.apply_events(state, 0, Play("4H"))
    assert [e.type for e in events] == ["played", "deal_ended", "game_over"]
    end = events[1]
    assert end.private == {}
    for viewer in (None, 0, 1):
        got = end.for_viewer(viewer)
        assert got["hands"] == [["JH", "QH"], ["KH", "2H", "AH"]]
        assert got["dead"] == ["3H", "10H"]
        assert got["cards_left"] == [len(h) for h in got["hands"]] == [2, 3]
        assert (got["reason"], got["winner"], got["losers"], got["stone_holder"]) == ("stalled", 0, [1], 1)
        assert got["layout"][2] == ["4H", "5H", "6H", "7H", "8H", "9H"]
        assert got["layout"][0][0] == "AC" and len(got["layout"][0]) == 13
        assert got["remainder"] == []


def test_the_view_keeps_the_end_after_the_game() -> None:
    """seeds/sten.md 9, 13: the view's ``ended`` is null while the game runs and then holds the same
    summary as the ``deal_ended`` event, for every viewer."""
    state = position(PA_HANDS, LATE, stone=1)
    assert E.view(state, None)["ended"] is None
    after, events = E.apply_events(state, 0, PlayAll(("10H", "JH", "4H", "3H")))
    end = {k: v for k, v in events[1].for_viewer(None).items() if k != "type"}
    for viewer in (None, 0, 1):
        assert E.view(after, viewer)["ended"] == end
    assert end["hands"][0] == [] and end["hands"][1] == list(state.hands[1])


def test_an_aborted_game_ends_with_the_hands_laid_open_too() -> None:
    """seeds/sten.md 7.4, 13: the safety cap ends the deal as well: ``deal_ended`` (reason max_turns, no
    winner, no loser), then ``game_over`` with status aborted."""
    state = position(PA_HANDS, LATE, options={"max_turns": 11})
    _, events = E.apply_events(state, 0, Play("10H"))
    assert [e.type for e in events] == ["played", "deal_ended", "game_over"]
    end = events[1].for_viewer(None)
    assert (end["reason"], end["winner"], end["losers"]) == ("max_turns", None, [])
    assert events[2].for_viewer(None)["status"] == "aborted"
