"""Conquian's events (seeds/conquian.md 11) and the kept summary of the last deal (6.4), from fixed
positions: what each move reports, in which order, and who sees what.

Every Conquian event is public except the new hands of ``dealt``; so most tests check that each
seat and the spectator get the very same event, and ``dealt`` that each seat gets only its own hand.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from engines.conquian import ENGINE
from engines.conquian.state import ConquianState
from engines.core import Event

from .helpers import mv, new, play, position
from .test_rules import H0, H1, WIN, f1_position, f2_position, rearrange_position, win_position

VIEWERS = (None, 0, 1)


def events(state: ConquianState, seat: int, data: dict[str, Any]) -> tuple[ConquianState, tuple[Event, ...]]:
    """``apply_events`` of a move given as its JSON body; its state is checked to be ``apply``'s."""
    after, evs = ENGINE.apply_events(state, seat, mv(data))
    assert after == ENGINE.apply(state, seat, mv(data))
    return after, evs


def public(evs: tuple[Event, ...]) -> list[dict[str, Any]]:
    """The events as every viewer sees them, asserted to be the same for the seats and the spectator."""
    shown = [e.for_viewer(None) for e in evs]
    for viewer in (0, 1):
        assert [e.for_viewer(viewer) for e in evs] == shown, f"seat {viewer} sees other events"
    return shown


# --- the moves' own events -----------------------------------------------------------------------------


def test_11_turned_the_first_draw_turns_the_top_stock_card_face_up_for_everyone():
    state = new(H0, H1, ["7H", "AS"])
    after, evs = events(state, 0, {"type": "draw"})
    assert public(evs) == [{"type": "turned", "seat": 0, "card": "7H", "stock_count": 19}]
    assert after.face_up == "7H" and len(after.stock) == 19


def test_11_buried_the_offer_nobody_took_is_reported_before_the_turned_card():
    state = position(hands=(H0, H1), phase="choose", turn=0, offer="QC", stock_top=["7H"])
    after, evs = events(state, 0, {"type": "draw"})
    assert public(evs) == [
        {"type": "buried", "seat": 0, "card": "QC"},
        {"type": "turned", "seat": 0, "card": "7H", "stock_count": len(state.stock) - 1},
    ]
    assert after.dead[-1] == "QC"


def test_11_rejected_a_card_that_fits_nobody_becomes_the_offer_without_a_force_window():
    state = position(hands=(H0, H1), phase="turned", turn=0, face_up="7H")
    after, evs = events(state, 0, {"type": "reject"})
    assert public(evs) == [{"type": "rejected", "seat": 0, "card": "7H"}]
    assert after.offer == "7H" and after.turn == 1 and after.phase == "choose"


def test_11_rejected_card_that_fits_opens_f2_and_declining_it_opens_f1():
    """JC fits seat 0's jacks (F2: seat 1 decides) and then seat 1's 5-6-7 of clubs (F1: seat 0 decides)."""
    state, evs = events(f2_position(), 0, {"type": "reject"})
    assert public(evs) == [
        {"type": "rejected", "seat": 0, "card": "JC"},
        {"type": "force_window", "seat": 1, "player": 0, "card": "JC", "window": "reject"},
    ]
    state, evs = events(state, 1, {"type": "decline_force"})
    assert public(evs) == [
        {"type": "force_declined", "seat": 1, "player": 0, "card": "JC"},
        {"type": "force_window", "seat": 0, "player": 1, "card": "JC", "window": "offer"},
    ]
    assert state.phase == "force_offer" and state.offer == "JC"
    _, evs = events(state, 0, {"type": "decline_force"})
    assert public(evs) == [{"type": "force_declined", "seat": 0, "player": 1, "card": "JC"}]


def test_11_discarded_card_that_fits_opens_f1_then_forced_and_the_forced_lay_off():
    state, evs = events(f1_position(), 0, {"type": "discard", "card": "7C"})
    assert public(evs) == [
        {"type": "discarded", "seat": 0, "card": "7C"},
        {"type": "force_window", "seat": 0, "player": 1, "card": "7C", "window": "offer"},
    ]
    state, evs = events(state, 0, {"type": "force"})
    assert public(evs) == [{"type": "forced", "seat": 0, "player": 1, "card": "7C"}]
    state, evs = events(state, 1, {"type": "meld", "melds": [["4C", "5C", "6C", "7C"]]})
    assert public(evs) == [{"type": "laid_off", "seat": 1, "card": "7C", "source": "forced", "cards": ["7C"],
                            "melds": [["4C", "5C", "6C", "7C"]], "melded_count": 4}]


def test_11_forced_back_after_f2_reports_the_forcer_and_the_forced_player():
    state, _ = events(f2_position(), 0, {"type": "reject"})
    _, evs = events(state, 1, {"type": "force"})
    assert public(evs) == [{"type": "forced", "seat": 1, "player": 0, "card": "JC"}]


def test_11_discarded_card_that_fits_nobody_opens_no_force_window():
    _, evs = events(f1_position(forcing_enabled=False), 0, {"type": "discard", "card": "7C"})
    assert public(evs) == [{"type": "discarded", "seat": 0, "card": "7C"}]


def test_11_laid_off_extending_a_meld_as_it_stands():
    state = rearrange_position("turned", face_up="5S")
    _, evs = events(state, 0, {"type": "meld", "melds": [["5S", "6S", "7S", "JS"]]})
    assert public(evs) == [{"type": "laid_off", "seat": 0, "card": "5S", "source": "turned", "cards": ["5S"],
                            "melds": [["5S", "6S", "7S", "JS"]], "melded_count": 4}]


def test_11_melded_a_rearrangement_names_the_card_the_hand_cards_and_the_new_melds():
    """The example of the original rules (3.3): J-7-6 + the offered 5, the jack moved to a new group
    with two hand jacks."""
    state = rearrange_position("choose", offer="5S")
    _, evs = events(state, 0, {"type": "meld", "melds": [["JD", "JS", "JH"], ["7S", "6S", "5S"]]})
    assert public(evs) == [{"type": "melded", "seat": 0, "card": "5S", "source": "offer", "cards": ["5S", "JD", "JH"],
                            "melds": [["5S", "6S", "7S"], ["JD", "JH", "JS"]], "melded_count": 6}]


def test_11_melded_a_new_meld_beside_the_old_ones_is_not_a_lay_off():
    state = rearrange_position("turned", face_up="JC")
    _, evs = events(state, 0, {"type": "meld", "melds": [["6S", "7S", "JS"], ["JC", "JD", "JH"]]})
    assert [e["type"] for e in public(evs)] == ["melded"]


def test_11_melded_hand_cards_alone_under_the_option_have_no_card_and_source_hand():
    hand = ["QH", "QS", "QD", "AC", "3D", "4S", "7C", "JD", "KC", "5D"]
    state = position(hands=(hand, None), phase="turned", face_up="2H", options={"meld_from_hand_without_upcard": True})
    _, evs = events(state, 0, {"type": "meld", "melds": [["QH", "QS", "QD"]]})
    assert public(evs) == [{"type": "melded", "seat": 0, "card": None, "source": "hand", "cards": ["QD", "QH", "QS"],
                            "melds": [["QD", "QH", "QS"]], "melded_count": 3}]


# --- the end of a deal, the next deal, the end of the match -----------------------------------------------


def test_11_deal_ended_a_won_deal_shows_the_table_no_hand_and_a_breakdown_summing_to_the_scores():
    state = win_position(scores=(1, 2))
    after, evs = events(state, 0, WIN)
    assert [e.type for e in evs] == ["melded", "deal_ended", "dealt"]
    ended = evs[1]
    assert ended.private == {}  # all public: every viewer gets the same
    shown = ended.for_viewer(None)
    assert all(ended.for_viewer(v) == shown for v in (0, 1))
    assert shown["outcome"] == "won" and shown["winner"] == 0 and shown["stake"] == 1
    assert shown["melds"] == [[["AH", "2H", "3H"], ["4C", "5C", "6C", "7C", "JC"], ["KD", "KH", "KS"]], []]
    assert shown["hand_counts"] == [0, len(state.hands[1])]
    # no hand is shown: the winner's is empty, the loser's is never revealed, not even a card of it
    assert shown["hands"] == [[], None]
    assert not set(state.hands[1]) & {c for v in shown.values() if isinstance(v, list) for c in _flat(v)}
    assert shown["dead"] == list(state.dead) and shown["discard"] is None
    assert shown["stock_left"] == len(state.stock)
    assert shown["breakdown"] == [{"won_deal": 1}, {"won_deal": 0}]
    assert [sum(b.values()) for b in shown["breakdown"]] == shown["points"] == [1, 0]
    assert [s + p for s, p in zip(state.scores, shown["points"], strict=True)] == shown["scores"] == [2, 2]
    assert list(after.scores) == shown["scores"]


def _flat(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [c for v in value for c in _flat(v)]
    return []


def test_11_dealt_each_seat_sees_only_its_own_new_hand_the_spectator_none():
    after, evs = events(win_position(), 0, WIN)
    dealt = evs[-1]
    assert dealt.type == "dealt"
    common = {"type": "dealt", "deal": 2, "dealer": 0, "turn": 1, "stake": 1, "hand_counts": [10, 10],
              "stock_count": 20}
    assert dealt.for_viewer(None) == common
    assert dealt.for_viewer(0) == {**common, "cards": list(after.hands[0])}
    assert dealt.for_viewer(1) == {**common, "cards": list(after.hands[1])}
    assert not set(after.hands[1]) & set(_flat(list(dealt.public.values())))


def test_11_passed_a_drawn_deal_reports_the_declined_offer_and_raises_the_next_stake():
    state = position(hands=(H0, H1), phase="choose", turn=0, offer="QC", stock_size=0)
    after, evs = events(state, 0, {"type": "pass"})
    shown = public(evs[:2])
    assert shown[0] == {"type": "passed", "seat": 0, "card": "QC"}
    ended = shown[1]
    assert ended["type"] == "deal_ended" and ended["outcome"] == "drawn" and ended["winner"] is None
    assert ended["discard"] == "QC" and ended["dead"] == list(state.dead) and ended["stock_left"] == 0
    assert ended["hands"] == [None, None] and ended["hand_counts"] == [10, 10]
    assert ended["breakdown"] == [{"won_deal": 0}, {"won_deal": 0}] and ended["points"] == [0, 0]
    assert evs[2].type == "dealt" and evs[2].public["stake"] == 2 == ENGINE.view(after, None)["stake"]


def test_11_game_over_is_the_last_event_after_the_deal_ended_and_no_deal_is_dealt():
    after, evs = events(win_position(scores=(4, 2)), 0, WIN)
    assert [e.type for e in evs] == ["melded", "deal_ended", "game_over"]
    assert public(evs)[-1] == {"type": "game_over", "status": "finished", "winners": [0], "losers": [1],
                               "scores": [5, 2]}
    assert ENGINE.result(after).scores == (5, 2)


def test_11_game_over_at_max_deals_after_a_drawn_deal_is_a_tie():
    state = position(hands=(H0, H1), phase="choose", offer="QC", stock_size=0, options={"max_deals": 1})
    _, evs = events(state, 0, {"type": "pass"})
    assert [e.type for e in evs] == ["passed", "deal_ended", "game_over"]
    assert evs[-1].public == {"status": "finished", "winners": [], "losers": [], "scores": [0, 0]}


# --- 6.4 the view keeps the last deal ----------------------------------------------------------------------


def test_6_4_the_view_keeps_the_last_deal_as_the_deal_ended_event_showed_it_until_the_next_deal_ends():
    after, evs = events(win_position(), 0, WIN)
    ended = {k: v for k, v in evs[1].for_viewer(None).items() if k != "type"}
    for viewer in VIEWERS:
        assert ENGINE.view(after, viewer)["last_deal"] == ended
    # play on in the next deal: the summary stays
    state = play(after, 1, {"type": "draw"})
    state = play(state, 1, {"type": "reject"})
    assert state.deal == 2
    for viewer in VIEWERS:
        assert ENGINE.view(state, viewer)["last_deal"] == ended
    assert (state.phase, state.turn) == ("choose", 0) and state.offer is not None
    # the next deal ends (drawn, the stock emptied by hand): now the view shows that one
    later, evs = events(replace(state, stock=()), 0, {"type": "pass"})
    assert ENGINE.view(later, None)["last_deal"] == {k: v for k, v in evs[1].for_viewer(None).items() if k != "type"}
    assert ENGINE.view(later, None)["last_deal"]["deal"] == 2


def test_6_4_the_last_deal_stays_in_the_view_of_a_finished_match():
    after, evs = events(win_position(scores=(4, 2)), 0, WIN)
    assert after.phase == "over"
    for viewer in VIEWERS:
        last = ENGINE.view(after, viewer)["last_deal"]
        assert last == {k: v for k, v in evs[1].for_viewer(viewer).items() if k != "type"}
        assert last["scores"] == [5, 2] and last["points"] == [1, 0]


def test_6_4_the_last_deal_survives_encode_and_decode():
    after, _ = events(win_position(), 0, WIN)
    assert ENGINE.decode(ENGINE.encode(after)) == after
    assert ENGINE.decode(ENGINE.encode(after)).last_deal.dead == after.last_deal.dead
