"""What every table shows of every game, from the engines alone (no store): each seat's hand size and
running score (``Engine.seat_facts``), and how a finished game ranks its seats (``Result.ranking``,
``termination``, ``forfeited``) by the scoring direction the game declares.
"""

from __future__ import annotations

from typing import Any

import pytest

from engines import REGISTRY
from engines.core import SCORINGS, Result, ranked
from tests.playout import final_state, playout, short_options

ENGINES = sorted(REGISTRY.values(), key=lambda e: e.id)
IDS = [e.id for e in ENGINES]

#: Each game's running score in its own state, as its rules keep it (None: the game keeps none), and
#: which way it wins: Sten has a winner and a loser and no points (seeds/sten.md 7); Keine lahme Agame
#: adds section points, the highest total wins (§7); Conquian counts units won (6.3); Siebenschläfer
#: counts the points left in hands, the fewest win (11); Kanaster adds hand scores to 5,000 (10).
SCORE: dict[str, tuple[str, Any]] = {
    "sten": ("none", lambda state: [None] * len(state.hands)),
    "keine-lahme-agame": ("higher_wins", lambda state: list(state.scores)),
    "conquian": ("higher_wins", lambda state: list(state.scores)),
    "siebenschlaefer": ("lower_wins", lambda state: list(state.totals)),
    "kanaster": ("higher_wins", lambda state: list(state.scores)),
}
#: Seeds tried per table; random play may run into a game's safety cap (a Siebenschläfer round can
#: take thousands of moves), so each table needs only ``FINISHED`` of them played out.
SEEDS = tuple(f"facts-{n}" for n in range(12))
FINISHED = 3


def _tables(engine: Any) -> list[int]:
    return sorted({engine.players.start, engine.players.stop - 1})


def test_every_game_declares_its_scoring_and_what_a_catalogue_shows() -> None:
    assert set(SCORE) == set(REGISTRY)
    for engine in ENGINES:
        assert engine.scoring == SCORE[engine.id][0] and engine.scoring in SCORINGS
        assert 40 <= len(engine.description) <= 400 and engine.description.endswith(".")
        assert 5 <= engine.typical_minutes <= 240


@pytest.mark.parametrize("engine", ENGINES, ids=IDS)
def test_seat_facts_are_each_seats_hand_and_running_score_through_a_played_out_game(engine: Any) -> None:
    score_of = SCORE[engine.id][1]
    for players in _tables(engine):
        positions = [step.state for step in playout(engine, players, f"facts/{players}")]
        positions.append(final_state(engine, players, f"facts/{players}"))
        for state in positions:
            facts = engine.seat_facts(state)
            assert len(facts) == players
            assert [score for _, score in facts] == score_of(state)
            for seat, (hand_count, _) in enumerate(facts):
                assert hand_count == len(engine.view(state, seat)["hand"])


@pytest.mark.parametrize("engine", ENGINES, ids=IDS)
def test_a_finished_game_ranks_every_seat_once_in_its_scoring_direction(engine: Any) -> None:
    for players in _tables(engine):
        finished = 0
        for seed in SEEDS:
            if finished == FINISHED:
                break
            result = engine.result(final_state(engine, players, seed))
            assert result is not None
            if result.status != "finished":
                continue
            finished += 1
            ranking = [list(place) for place in result.ranking]
            assert sorted(s for place in ranking for s in place) == list(range(players)), ranking
            assert all(place for place in ranking)
            assert result.termination == "normal" and result.forfeited == ()
            if result.winners:
                assert ranking[0] == sorted(result.winners), (ranking, result.winners)
            assert not set(result.losers) & set(ranking[0]) or set(result.losers) <= set(result.winners)
            if engine.scoring == "none":
                assert result.scores is None
                if result.losers and not set(result.losers) & set(result.winners):
                    assert ranking[-1] == sorted(result.losers)
                continue
            scores = result.scores
            assert scores is not None
            better = (lambda a, b: a > b) if engine.scoring == "higher_wins" else (lambda a, b: a < b)
            for place in ranking:
                assert len({scores[s] for s in place}) == 1, "tied seats share a place, only tied ones"
            for upper, lower in zip(ranking, ranking[1:], strict=False):
                assert better(scores[upper[0]], scores[lower[0]]), (ranking, scores)
            # the declared direction is the game's own: its winners hold the best score
            best = min(scores) if engine.scoring == "lower_wins" else max(scores)
            assert all(scores[w] == best for w in result.winners), (result.winners, scores)
        assert finished == FINISHED, f"{players} players: only {finished} of {len(SEEDS)} random games finished"


@pytest.mark.parametrize("engine", ENGINES, ids=IDS)
def test_the_result_as_json_carries_the_ranking_termination_and_forfeits(engine: Any) -> None:
    state = final_state(engine, engine.players.start, "facts-json")
    data = engine.result(state).to_json()
    assert data["termination"] == "normal" and data["forfeited"] == []
    assert data["ranking"] == [list(place) for place in engine.result(state).ranking]


def test_a_game_stopped_by_its_safety_cap_ranks_every_seat_equal() -> None:
    """An aborted game has no winner, so no seat ranks above another (even where scores were kept)."""
    stopped = []
    for engine in ENGINES:
        cap = next((o for o in engine.options if o.name == "max_turns"), None)
        if cap is None or cap.minimum is None:
            continue
        players = engine.players.start
        options = {**short_options(engine), "max_turns": cap.minimum}
        result = engine.result(final_state(engine, players, "facts-cap", options))
        if result.status == "aborted":
            stopped.append(engine.id)
            assert result.ranking == (tuple(range(players)),) and result.termination == "normal"
    assert stopped, "no game could be stopped by its cap"


@pytest.mark.parametrize(("scoring", "scores", "want"), [
    ("higher_wins", (5, 7, 5, 1), ((1,), (0, 2), (3,))),
    ("lower_wins", (5, 7, 5, 1), ((3,), (0, 2), (1,))),
    ("higher_wins", (0, 0), ((0, 1),)),
    ("lower_wins", (-3, 4, 4), ((0,), (1, 2))),
])
def test_tied_scores_share_a_place(scoring: str, scores: tuple[int, ...], want: tuple[tuple[int, ...], ...]) -> None:
    assert ranked(Result("finished", scores=scores), scoring, len(scores)) == want


def test_without_scores_winners_come_first_losers_last_and_the_rest_between() -> None:
    assert ranked(Result("finished", (2,), (0,)), "none", 4) == ((2,), (1, 3), (0,))
    assert ranked(Result("finished", (1,), ()), "none", 3) == ((1,), (0, 2))
    # Sten's stone can make the winner a loser too: he still ranks first
    assert ranked(Result("finished", (1,), (1,)), "none", 3) == ((1,), (0, 2))
    assert ranked(Result("finished"), "none", 2) == ((0, 1),)
