"""Kanaster's events, one test per event rule of seeds/kanaster.md section 18 (and the view's
``last_hand``, section 14): what each move reports, in which order, and who sees which cards.

Positions come from ``position`` or a fixed ``deck=``; every test also checks that ``apply_events``
returns the very state ``apply`` does.
"""

from __future__ import annotations

from dataclasses import replace

from engines.cards import shuffled
from engines.core import Event
from engines.kanaster import ENGINE as E
from engines.kanaster import rules
from engines.kanaster.moves import Discard, Draw, EndHand, LayOff, MeldCards, TakePile, TakePileLayOff, Tuck
from engines.kanaster.state import FINISHED, KanasterState
from tests.engines.kanaster.helpers import deck_for, meld, position


def events_of(state: KanasterState, seat: int, move) -> tuple[KanasterState, tuple[Event, ...]]:
    after, events = E.apply_events(state, seat, move)
    assert after == E.apply(state, seat, move)
    return after, events


def seen(events: tuple[Event, ...], viewer: int | None) -> list[dict]:
    return [e.for_viewer(viewer) for e in events]


def public_to_all(events: tuple[Event, ...], players: int) -> list[dict]:
    """The events as the spectator sees them, after checking every seat sees exactly the same."""
    shown = seen(events, None)
    for viewer in range(players):
        assert seen(events, viewer) == shown
    return shown


# --- drawing and red 3s (sections 4, 5.1) -------------------------------------------------------


def test_drew_shows_the_card_to_the_drawer_and_only_the_count_to_the_others():
    """§18 `drew`: the drawer sees which card, the other seats and the spectator how many."""
    s = position(hands=[["KC", "QD", "5S"], ["4C", "4D", "4H"]], talon=["8H", "9H"])
    _, events = events_of(s, 0, Draw())
    assert seen(events, 0) == [{"type": "drew", "seat": 0, "count": 1, "cards": ["8H"]}]
    assert seen(events, 1) == seen(events, None) == [{"type": "drew", "seat": 0, "count": 1}]


def test_a_drawn_red_three_is_laid_out_in_public_and_its_replacement_stays_private():
    """§4/§18 `red_three` (source talon): the red 3 is face up for all; the replacement only to its seat."""
    s = position(hands=[["KC", "QD", "5S"], ["4C", "4D", "4H"]], talon=["3D", "8H", "9H"])
    _, events = events_of(s, 0, Draw())
    assert seen(events, 0) == [
        {"type": "drew", "seat": 0, "count": 1, "cards": ["3D"]},
        {"type": "red_three", "seat": 0, "cards": ["3D"], "count": 1, "source": "talon", "replacements": ["8H"]},
    ]
    for viewer in (1, None):
        assert seen(events, viewer) == [
            {"type": "drew", "seat": 0, "count": 1},
            {"type": "red_three", "seat": 0, "cards": ["3D"], "count": 1, "source": "talon"},
        ]


def test_red_threes_of_the_dealt_hand_are_reported_when_the_players_first_turn_begins():
    """§4/§18 `red_three` (source hand): laid out after the discard that passes the turn; a
    replacement that is a red 3 again is laid out by the next event (source talon)."""
    s = position(hands=[["KC", "QD", "5S"], ["3H", "4D", "4H"]], talon=["8H", "3D", "QC", "9H"],
                 started=[True, False])
    s, _ = events_of(s, 0, Draw())
    after, events = events_of(s, 0, Discard("8H"))
    assert seen(events, 1) == [
        {"type": "discarded", "seat": 0, "card": "8H"},
        {"type": "red_three", "seat": 1, "cards": ["3H"], "count": 1, "source": "hand", "replacements": ["3D"]},
        {"type": "red_three", "seat": 1, "cards": ["3D"], "count": 1, "source": "talon", "replacements": ["QC"]},
    ]
    assert [e.get("replacements") for e in seen(events, 0)] == [None, None, None]
    assert [e.get("replacements") for e in seen(events, None)] == [None, None, None]
    assert after.red_threes[1] == ("3H", "3D") and "QC" in after.hands[1]


def test_red_threes_still_in_a_hand_at_the_count_are_laid_out_before_the_hand_ends():
    """§4 ruling/§18 `red_three` (source hand_end): a player whose first turn never came shows his red
    3s for the count; a last talon card that is a red 3 ends the hand (no replacement left)."""
    s = position(hands=[["KC", "QD", "5S"], ["3H", "4D", "4H"]], talon=["3D"], started=[True, False], max_hands=1)
    after, events = events_of(s, 0, Draw())
    shown = seen(events, None)
    assert [e["type"] for e in shown] == ["drew", "red_three", "red_three", "hand_ended", "game_over"]
    assert shown[1] == {"type": "red_three", "seat": 0, "cards": ["3D"], "count": 0, "source": "talon"}
    assert shown[2] == {"type": "red_three", "seat": 1, "cards": ["3H"], "count": 0, "source": "hand_end"}
    assert shown[3]["went_out"] is None and shown[3]["table"]["red_threes"] == [["3D"], ["3H"]]
    assert after.phase == FINISHED


# --- taking the pile, melding, laying off, tucking, discarding (sections 5-7) ----------------------


def test_taking_the_pile_melds_its_top_card_then_takes_the_rest_and_lays_out_its_red_threes():
    """§5.2/§18: `melded` (the top card in the new meld, with its id), `took_pile` (the rest into the
    hand), `red_three` (source pile, not replaced); all face up, the same for every viewer."""
    s = position(hands=[["KC", "KD", "5S", "6S"], ["4C"] * 3], pile=["3H", "JK", "KS"],
                 melds=[meld(0, "AC", "AD", "AH")])
    _, events = events_of(s, 0, TakePile((("KS", "KC", "KD"),)))
    assert public_to_all(events, 2) == [
        {"type": "melded", "seat": 0, "melds": [{"id": 1, "rank": "K", "cards": ["KC", "KD", "KS"], "canasta": False}]},
        {"type": "took_pile", "seat": 0, "top": "KS", "cards": ["JK"]},
        {"type": "red_three", "seat": 0, "cards": ["3H"], "count": 0, "source": "pile"},
    ]


def test_taking_the_pile_onto_an_own_meld_lays_off_its_top_card():
    """§5.2/§18: `take_pile_lay_off` reports `laid_off` (the top card, the meld a canasta now) and `took_pile`."""
    s = position(hands=[["5S", "6S"], ["4C"] * 3], pile=["9D", "QS"], melds=[meld(0, *["QC", "QD", "QH"] * 2)])
    _, events = events_of(s, 0, TakePileLayOff(0))
    assert public_to_all(events, 2) == [
        {"type": "laid_off", "seat": 0, "meld": 0, "cards": ["QS"], "canasta": True},
        {"type": "took_pile", "seat": 0, "top": "QS", "cards": ["9D"]},
    ]


def test_melds_lay_offs_tucks_and_discards_are_reported_face_up():
    """§6/§7/§5.4/§18: `melded` with each new meld's id, `laid_off`, `tucked`, `discarded`."""
    canasta = meld(1, *["KC", "KD", "KH", "KS", "KC", "KD", "KH"])
    s = position(hands=[["KS", "9C", "9D", "9H", "AC", "AD", "AH", "2C", "5S", "6S"], ["4C"] * 3],
                 melds=[canasta], phase="play", took_pile=True, pile_taken=["KS"], pile=())
    s, events = events_of(s, 0, MeldCards((("9C", "9D", "9H"), ("AC", "AD", "AH"))))
    assert public_to_all(events, 2) == [{"type": "melded", "seat": 0, "melds": [
        {"id": 1, "rank": "9", "cards": ["9C", "9D", "9H"], "canasta": False},
        {"id": 2, "rank": "A", "cards": ["AC", "AD", "AH"], "canasta": False}]}]
    s, events = events_of(s, 0, LayOff(2, ("2C",)))
    assert public_to_all(events, 2) == [{"type": "laid_off", "seat": 0, "meld": 2, "cards": ["2C"], "canasta": False}]
    s, events = events_of(s, 0, Tuck(0, ("KS",)))
    assert public_to_all(events, 2) == [{"type": "tucked", "seat": 0, "meld": 0, "cards": ["KS"]}]
    s, events = events_of(s, 0, Discard("5S"))
    assert public_to_all(events, 2) == [{"type": "discarded", "seat": 0, "card": "5S"}]
    assert s.current == 1


# --- the end of a hand, the next deal, the match (sections 9-11) ---------------------------------


def winner_920() -> KanasterState:
    """The worked check of §9 (seat 0 goes out and scores 920, seat 1 -225), one discard from the end."""
    aces = meld(0, "AC", "AD", "AH", "AS", "AC", "AD")
    s = position(hands=[["AH"], ["JK", "5C"]], talon=["8C", "9C"],
                 melds=[aces, meld(0, "KC", "KD", "KH", "JK"), meld(1, "QC", "QD", "QH")],
                 red_threes=[["3H"], ["3D", "3H"]], max_hands=1)
    s = E.apply(s, 0, Draw())
    return E.apply(s, 0, LayOff(0, ("AH",)))


def test_hand_ended_reveals_the_hands_the_final_table_and_a_breakdown_that_sums_to_the_scores():
    """§9/§18 `hand_ended`: the cards left in each hand are shown (they count against it), the final
    table (melds, red 3s, the pile with the going-out discard), each seat's items summing to its
    total, the totals; public, the same object as the view's `last_hand`; then `game_over` last."""
    after, events = events_of(winner_920(), 0, Discard("8C"))
    shown = public_to_all(events, 2)
    assert [e["type"] for e in shown] == ["discarded", "hand_ended", "game_over"]
    ended = shown[1]
    assert ended["went_out"] == 0 and ended["concealed"] is False and ended["number"] == 1
    assert [seat["hand_cards"] for seat in ended["seats"]] == [[], ["5C", "JK"]]
    for seat in ended["seats"]:
        parts = seat["table"] + seat["canastas"] + seat["red_threes"] + seat["hand"] + seat["going_out"]
        assert parts == seat["total"]
    assert [seat["total"] for seat in ended["seats"]] == [920, -225]
    assert ended["totals"] == [920, -225] == list(after.scores)
    table = ended["table"]
    assert table["pile"][-1] == "8C" and table["talon_count"] == 1
    assert table["red_threes"] == [["3H"], ["3D", "3H"]]
    assert [(m["id"], m["owner"], m["rank"], len(m["cards"]), m["canasta"]) for m in table["melds"]] == [
        (0, 0, "A", 7, True), (1, 0, "K", 4, False), (2, 1, "Q", 3, False)]
    assert {k: v for k, v in ended.items() if k != "type"} == E.view(after, 1)["last_hand"]
    assert shown[2] == {"type": "game_over", "status": "finished", "winners": [0], "losers": [1],
                        "scores": [920, -225]}


def test_the_next_deal_gives_each_seat_its_hand_privately_and_turns_the_opening_card():
    """§3/§10/§18: after `hand_ended` the next hand is `dealt` (the cut and the sizes public, each
    hand only to its seat), then `turned` (the opening cards), then the first player's red 3s."""
    s = position(hands=[["AC"], ["4C"]], talon=(), scores=(1450, 0))
    s = replace(s, melds=(meld(0, "AD", "AH", "AS", "AD", "AH", "AS", "AC"),))
    after, events = events_of(s, 0, EndHand())
    hands, talon, pile, cut = rules.deal(2, s.rules, shuffled(rules.full_deck(s.rules), s.seed, "deal/2"), 1)
    types = [e.type for e in events]
    assert types[:3] == ["hand_ended", "dealt", "turned"] and "game_over" not in types
    spectator = seen(events, None)
    assert spectator[1] == {"type": "dealt", "hand_number": 2, "dealer": 1, "cutter": 0, "cut_cards": list(cut),
                            "counts": [13, 13]}
    for seat in (0, 1):
        assert seen(events, seat)[1] == {**spectator[1], "cards": list(hands[seat])}
    assert spectator[2] == {"type": "turned", "cards": list(pile), "talon_count": len(talon)}
    reds = [c for c in hands[0] if c in ("3D", "3H")]
    if reds:
        assert spectator[3]["type"] == "red_three" and spectator[3]["source"] == "hand"
        assert spectator[3]["cards"] == reds and "replacements" not in spectator[3]
    else:
        assert len(events) == 3
    assert spectator[0]["totals"] == list(after.scores) == [1450 + 620, -5]


def test_a_deal_with_red_threes_for_the_first_player_reports_them_after_the_opening_card():
    """§4/§18: the first player of a new hand lays out his red 3s at once; the deal's events end with
    those `red_three`s (source hand, then talon for a replacement red 3), the replacements his alone.
    The deal from a fixed deck is the one ``_end_hand`` makes (``_start_hand``)."""
    base = position(hands=[["AC"], ["4C"]], talon=())
    deck = deck_for(2, dealt={0: ["3H", "3D"]}, opening=["9D"], talon_top=["KC", "3H", "QD"], dealer=1)
    events: list[Event] = []
    after = rules._start_hand(base, 2, 1, deck, events)
    assert after == rules._start_hand(base, 2, 1, deck)
    assert [e.type for e in events] == ["dealt", "turned", "red_three", "red_three"]
    assert events[0].for_viewer(0)["cards"][:2] == ["3D", "3H"] and "cards" not in events[0].for_viewer(None)
    assert events[0].for_viewer(1)["cards"] == list(after.hands[1])
    assert seen(events, 0)[2:] == [
        {"type": "red_three", "seat": 0, "cards": ["3D", "3H"], "count": 2, "source": "hand",
         "replacements": ["KC", "3H"]},
        {"type": "red_three", "seat": 0, "cards": ["3H"], "count": 1, "source": "talon", "replacements": ["QD"]},
    ]
    assert seen(events, 1)[2:] == seen(events, None)[2:] == [
        {"type": "red_three", "seat": 0, "cards": ["3D", "3H"], "count": 2, "source": "hand"},
        {"type": "red_three", "seat": 0, "cards": ["3H"], "count": 1, "source": "talon"},
    ]
    assert after.red_threes[0] == ("3D", "3H", "3H") and len(after.hands[0]) == 13


def test_a_match_aborted_by_the_turn_cap_ends_with_game_over():
    """§10/§18: the discard that reaches max_turns reports `discarded`, then `game_over` (aborted)."""
    s = position(hands=[["KC", "QD", "5S"], ["4C", "4D", "4H"]], talon=["8H", "9H"], max_turns=1)
    s = E.apply(s, 0, Draw())
    _, events = events_of(s, 0, Discard("8H"))
    assert seen(events, None) == [{"type": "discarded", "seat": 0, "card": "8H"},
                                  {"type": "game_over", "status": "aborted", "winners": [], "losers": [],
                                   "scores": [0, 0]}]


# --- the view keeps the last finished hand (section 14) ------------------------------------------


def test_the_view_keeps_the_last_hand_with_its_final_table_until_the_next_hand_ends():
    """§14: after a hand ends the next is dealt in the same move, yet `last_hand` still shows the
    finished hand's table, hands and breakdown, through the next hand's moves and a snapshot, until
    the next hand ends."""
    s = position(hands=[["AC", "9S"], ["4C", "5C"]], talon=(), red_threes=[["3D"], []])
    s = replace(s, melds=(meld(0, "AD", "AH", "AS", "AD", "AH", "AS", "AC"), meld(1, "6C", "6D", "6H")))
    s = E.apply(s, 0, EndHand())
    assert s.hand_number == 2 and s.melds == ()
    for viewer in (None, 0, 1):
        last = E.view(s, viewer)["last_hand"]
        assert last["number"] == 1 and last["went_out"] is None
        assert [m["cards"] for m in last["table"]["melds"]] == [
            ["AC", "AD", "AD", "AH", "AH", "AS", "AS"], ["6C", "6D", "6H"]]
        assert last["table"]["red_threes"] == [["3D"], []] and last["table"]["pile"] == ["9C"]
        assert [x["hand_cards"] for x in last["seats"]] == [["9S", "AC"], ["4C", "5C"]]
        assert last["totals"] == list(s.scores)
    kept = E.view(s, None)["last_hand"]
    s = E.decode(E.encode(s))
    s = E.apply(s, s.current, rules.legal_moves(s, s.current)[0])
    assert E.view(s, None)["last_hand"] == kept
    s = replace(s, talon=(), phase="draw", hands=(("4S",), ("5S",)), melds=())
    s = E.apply(s, s.current, EndHand())
    assert E.view(s, None)["last_hand"]["number"] == 2 and E.view(s, None)["last_hand"] != kept
