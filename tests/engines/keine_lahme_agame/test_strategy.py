"""The greedy level, the evaluation and the determinization of Keine lahme Agame
(seeds/keine-lahme-agame.md "Bots")."""

from __future__ import annotations

import random

import pytest

from engines.keine_lahme_agame import ENGINE
from engines.keine_lahme_agame.moves import Catch, PassCatch, Trick
from engines.keine_lahme_agame.state import CATCHING, TRICK
from tests.engines.keine_lahme_agame.test_properties import OPTION_SETS
from tests.engines.keine_lahme_agame.test_rules import position
from tests.strategy_checks import assert_hooks_on, greedy_vs_random

E = ENGINE


@pytest.mark.parametrize("options", OPTION_SETS)
@pytest.mark.parametrize("players", [2, 3, 5])
def test_greedy_move_is_listed_and_blind_to_hidden_cards(players: int, options: dict[str, object]) -> None:
    """The greedy move is listed and depends only on the seat's view; a determinized sample shows the
    seat its very view."""
    assert assert_hooks_on(E, players, options, f"kla/{players}") >= 5


def test_determinize_keeps_the_hands_every_player_can_follow_and_drops_the_seed() -> None:
    """Seeds §12: every card moves face up, so the real hands are the only consistent ones."""
    state = E.new_game(3, {"first_leader": "random"}, "secret-seed")
    sample = E.determinize(state, 1, random.Random(0))
    assert sample.hands == state.hands
    assert "secret-seed" not in sample.seed
    assert E.view(sample, 1) == E.view(state, 1)


def test_greedy_catches_the_card_that_completes_its_row() -> None:
    state = position(2, hands={0: ["red-8", "red-13", "red-hat"]},
                     rows={0: ["yellow-1", "yellow-1", "yellow-2", "yellow-3", "yellow-5", "yellow-8", "yellow-13"],
                           1: ["red-21"]})
    move = E.heuristic_move(state, 0, random.Random(0))
    assert isinstance(move, Catch) and move.card == "red-21" and "red-hat" not in move.payment


def test_greedy_passes_when_a_catch_costs_more_than_it_brings() -> None:
    state = position(3, hands={1: ["yellow-hat"]}, rows={0: ["red-1"]}, phase=CATCHING, current=1,
                     caught=[(0, "green-1", None)])
    assert E.heuristic_move(state, 1, random.Random(0)) == PassCatch()


def test_greedy_leads_the_hat_which_wins_every_trick() -> None:
    state = position(2, hands={0: ["red-1", "red-2", "red-13", "red-hat"]})
    assert E.heuristic_move(state, 0, random.Random(0)) == Trick(("red-hat",))


def test_greedy_gives_the_cheapest_card_to_a_trick_it_cannot_win() -> None:
    state = position(2, hands={1: ["yellow-1", "yellow-13", "yellow-21"]}, phase=TRICK, leader=0, current=1,
                     trick=[(0, ["red-hat"])])
    assert E.heuristic_move(state, 1, random.Random(0)) == Trick(("yellow-1",))


@pytest.mark.parametrize("players", [2, 4])
def test_greedy_beats_random_play(players: int) -> None:
    """Measured over 20 seeded games: greedy wins 20/20 at 2 and at 4 players; asserted: 70%."""
    wins, _, finished = greedy_vs_random(E, players, 20)
    assert finished == 20
    assert wins >= 14


def test_evaluate_follows_the_totals_and_the_rows() -> None:
    state = position(2, rows={0: ["yellow-1", "yellow-2", "yellow-3"], 1: ["red-1"]})
    assert 0.5 < E.evaluate(state, 0) < 1.0
    assert 0.0 < E.evaluate(state, 1) < 0.5
    ahead = state.replace(scores=(0, 150))
    assert E.evaluate(ahead, 1) > E.evaluate(state, 1)
