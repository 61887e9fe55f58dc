"""Kanaster's view keeps what a table of melds shows, with the ``players`` rows, by the melds tuple's
identity, and the history by its own (``engines.memo``): a view of the very same melds under other
totals, rules or red 3s, or of another match whose table is as empty (one shared empty tuple), must
show its own rows, as a view worked out anew does (tests/engines/test_kept_views.py compares random
playouts; these are the cases that share a tuple on purpose). A state decoded anew holds the tuple of
melds decoded before (``engines.snapshot.shared``) and totals equal to the ones kept: it shows what
was kept."""

from __future__ import annotations

import json
from dataclasses import replace

from engines import snapshot
from engines.kanaster import ENGINE
from engines.kanaster.state import KanasterState, Meld
from engines.kanaster.view import view

from .helpers import position

MELDS = (Meld(0, "K", ("KC", "KD", "KH", "KS", "KC", "KD", "KH")), Meld(1, "9", ("9C", "9D", "9H")))


def _anew(state: KanasterState, seat: int | None) -> dict[str, object]:
    snapshot.forget_shared()
    return view(ENGINE.decode(json.loads(json.dumps(ENGINE.encode(state)))), seat)


def _players(state: KanasterState) -> list[dict[str, object]]:
    shown = view(state, 0)
    assert shown == _anew(state, 0)
    players = shown["players"]
    assert isinstance(players, list)
    return players


def test_the_same_melds_under_other_red_threes_totals_or_rules_show_their_own_players() -> None:
    state = position(2, hands=[["5C"], ["6C"]], melds=MELDS)
    assert [p["canasta"] for p in _players(state)] == [True, False]
    assert [p["melded"] for p in _players(state)] == [True, True]
    reds = replace(state, red_threes=(("3D",), ()))
    assert reds.melds is state.melds
    assert _players(reds)[0]["red_threes"] == ["3D"]
    assert _players(state)[0]["red_threes"] == []
    richer = replace(state, scores=(3000, 1500))
    assert [p["minimum"] for p in _players(richer)] == [120, 90]
    assert [p["minimum"] for p in _players(state)] == [50, 50]
    negative = replace(state, scores=(-10, 0))
    assert [p["minimum"] for p in _players(negative)] == [50, 50]
    other_rules = replace(negative, rules=replace(state.rules, negative_score_minimum=15))
    assert other_rules.scores is negative.scores
    assert [p["minimum"] for p in _players(other_rules)] == [15, 50]


def test_matches_with_an_empty_table_show_their_own_players_and_history() -> None:
    two = ENGINE.new_game(2, {}, "empty-two")
    four = ENGINE.new_game(4, {"target": 3000}, "empty-four")
    assert two.melds is four.melds  # (the one empty tuple)
    played = replace(four, scores=(1500, 0, 3000, -20), history=((1500, 0, 3000, -20),))
    for state in (two, played, two, four, played):
        for seat in (None, *range(state.players)):
            assert view(state, seat) == _anew(state, seat)
    assert [p["minimum"] for p in view(played, None)["players"]] == [90, 50, 120, 50]
    assert view(played, None)["history"] == [[1500, 0, 3000, -20]]
    assert view(two, None)["history"] == []


def test_a_state_decoded_anew_shows_the_table_kept_for_the_same_melds() -> None:
    state = position(2, hands=[["5C"], ["6C"]], melds=MELDS)
    stored = json.loads(json.dumps(ENGINE.encode(state)))
    first, again = ENGINE.decode(stored), ENGINE.decode(stored)
    assert first.melds is again.melds and first.scores is not again.scores
    shown = view(first, 0)
    assert view(again, 0)["melds"] is shown["melds"]
    assert view(again, 0)["players"] is shown["players"]
    assert view(again, 0) == _anew(state, 0)
