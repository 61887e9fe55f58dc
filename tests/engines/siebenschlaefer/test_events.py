"""Events of Siebenschläfer (seeds/siebenschlaefer.md section 16): what each move caused, in order, as each
viewer sees it. Positions are built with fixed hands, stock and pile (``builders.table``)."""

from __future__ import annotations

from engines.core import Event
from engines.siebenschlaefer import ENGINE
from engines.siebenschlaefer.moves import Draw, Pass, Play
from tests.engines.siebenschlaefer.builders import table

E = ENGINE


def shown(events: tuple[Event, ...], viewer: int | None) -> list[dict[str, object]]:
    return [e.for_viewer(viewer) for e in events]


def test_a_single_seven_makes_the_next_seat_draw_and_miss_his_turn() -> None:
    """Sections 6, 16: ``played`` (with its value), then the victim's ``drew`` (reason seven: he sees the
    cards, the others and the spectator only the count), then ``skipped``."""
    state = table([["7H", "6C", "9D", "9S"], ["3D", "4D", "5D", "8D"], ["3S", "4S", "5S", "8S"]],
                  stock=["2C", "3C", "4C", "5C"])
    after, events = E.apply_events(state, 0, Play(("7H", "6C")))
    assert after == E.apply(state, 0, Play(("7H", "6C")))
    assert [e.type for e in events] == ["played", "drew", "skipped"]
    assert events[0].for_viewer(None) == {"type": "played", "seat": 0, "cards": ["6C", "7H"], "value": 13}
    assert events[1].for_viewer(1) == {"type": "drew", "seat": 1, "count": 2, "reason": "seven",
                                       "cards": ["2C", "3C"]}
    for viewer in (None, 0, 2):
        assert events[1].for_viewer(viewer) == {"type": "drew", "seat": 1, "count": 2, "reason": "seven"}
    assert events[2].for_viewer(None) == {"type": "skipped", "seat": 1}


def test_two_sevens_make_every_other_seat_draw_in_turn() -> None:
    """Sections 6, 16: a pair of 7s: each other seat draws two, clockwise, each seeing only his own."""
    state = table([["7H", "7C", "9D", "9S"], ["3D", "4D", "5D", "8D"], ["3S", "4S", "5S", "8S"]],
                  stock=["2C", "3C", "4C", "5C"])
    _, events = E.apply_events(state, 0, Play(("7H", "7C")))
    assert [(e.type, e.public.get("seat")) for e in events] == [("played", 0), ("drew", 1), ("drew", 2)]
    assert events[1].private == {1: {"cards": ["2C", "3C"]}}
    assert events[2].private == {2: {"cards": ["4C", "5C"]}}


def test_a_draw_shows_the_drawer_his_cards_and_everyone_the_count_after_a_reshuffle() -> None:
    """Sections 5, 8, 16: with the stock empty the pile under its top pair is reshuffled (``reshuffled``,
    its count), then ``drew`` (reason draw) shows the drawer which cards, the others how many."""
    state = table([["2C", "3D"], ["4D", "5D"]], target=20, pile=["4C", "5C", "6C", "8C", "KD", "10D"])
    after, events = E.apply_events(state, 0, Draw())
    assert [e.type for e in events] == ["reshuffled", "drew"]
    assert events[0].for_viewer(None) == {"type": "reshuffled", "count": 4}
    assert events[1].for_viewer(0) == {"type": "drew", "seat": 0, "count": 2, "reason": "draw",
                                       "cards": E.view(after, 0)["drawn"]}
    assert events[1].for_viewer(1) == events[1].for_viewer(None) == {"type": "drew", "seat": 0, "count": 2,
                                                                     "reason": "draw"}


def test_the_last_pass_in_a_row_flips_a_new_start_value() -> None:
    """Sections 7, 16: ``passed``, then ``reset`` with the flipped cards and the new value to beat."""
    state = table([["2C", "3D"], ["4D", "5D"]], target=20, stock=["5C", "6D", "8H", "9H"], has_drawn=True,
                  passes=1)
    _, events = E.apply_events(state, 0, Pass())
    assert shown(events, None) == [{"type": "passed", "seat": 0},
                                   {"type": "reset", "cards": ["5C", "6D"], "value": 11}]


def test_a_round_end_lays_the_hands_open_with_the_breakdown_then_deals_the_next_round() -> None:
    """Sections 9, 11, 16: ``round_ended`` shows every hand, the breakdown per seat (numbers, faces, aces)
    summing to the counted values, the table with the winning pair; then ``dealt`` shows each seat only its
    own new hand; no ``game_over`` while the match goes on."""
    state = table([["5C", "6D"], ["KH", "AS", "3C", "9D"]], stock=["2C", "3C"] * 2, rounds=2)
    after, events = E.apply_events(state, 0, Play(("5C", "6D")))
    kinds = [e.type for e in events]
    assert kinds[:3] == ["played", "round_ended", "dealt"] and set(kinds[3:]) <= {"lot"}
    end = events[1].for_viewer(None)
    assert events[1].private == {}
    assert end["hands"] == [[], ["AS", "3C", "9D", "KH"]]
    assert end["breakdown"] == [{"numbers": 0, "faces": 0, "aces": 0, "total": 0},
                                {"numbers": 12, "faces": 12, "aces": 11, "total": 35}]
    assert [b["total"] for b in end["breakdown"]] == end["hand_values"] == [0, 35]
    assert (end["winner"], end["winners"], end["payers"], end["reason"]) == (0, [0], [1], "went_out")
    assert end["table"] == {"top": ["5C", "6D"], "target": 11, "pile_count": 2, "stock_count": 4}
    assert (end["totals"], end["paid"]) == ([0, 35], [0, 1])
    dealt = events[2]
    assert dealt.public == {"round": 2, "opener": after.opener, "hand_counts": [10, 10],
                            "stock_count": len(after.stock)}
    for seat in (0, 1):
        assert dealt.for_viewer(seat)["cards"] == list(after.hands[seat])
    assert "cards" not in dealt.for_viewer(None)
    assert [(e.public["seat"], e.public["card"]) for e in events[3:]] == list(after.lots)


def test_the_view_keeps_the_last_finished_round_until_the_next_one_ends() -> None:
    """Sections 13, 16: after the next round is dealt, ``last_round`` still shows the finished round as its
    ``round_ended`` event did (hands, breakdown, table), for every viewer."""
    state = table([["5C", "6D"], ["KH", "AS", "3C", "9D"]], stock=["2C", "3C"] * 2, rounds=2)
    after, events = E.apply_events(state, 0, Play(("5C", "6D")))
    end = {k: v for k, v in events[1].for_viewer(None).items() if k not in ("type", "totals", "paid")}
    assert after.round == 1 and after.status == "active"
    for viewer in (None, 0, 1):
        assert E.view(after, viewer)["last_round"] == end
    nxt = E.encode(E.decode(E.encode(after)))
    assert E.view(E.decode(nxt), None)["last_round"] == end


def test_the_match_end_reports_game_over_last() -> None:
    """Sections 9, 16: a one-round game: ``played``, ``round_ended``, ``game_over`` (the result) last."""
    state = table([["5C", "6D"], ["KH", "AS", "3C", "9D"]], stock=["2C", "3C"])
    after, events = E.apply_events(state, 0, Play(("5C", "6D")))
    assert [e.type for e in events] == ["played", "round_ended", "game_over"]
    res = E.result(after)
    assert res is not None
    assert events[-1].for_viewer(None) == {"type": "game_over", "status": "finished", "winners": [0],
                                           "losers": [1], "scores": [0, 35]}
