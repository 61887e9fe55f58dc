"""Shared checks of the bot hooks (``heuristic_move``, ``evaluate``, ``determinize``) for
the per-game strategy tests: seeded positions from mixed play, and small seeded matches.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from engines.core import Engine


def positions(engine: Engine, players: int, options: dict[str, Any], seed: str,
              max_moves: int = 400) -> Iterator[tuple[Any, int]]:
    """(state, seat to move) along one seeded game in which every seat plays the greedy move or,
    one time in three, a random listed move: realistic positions with some variety. Bounded by
    ``max_moves``; the game need not end."""
    rng = random.Random(f"positions/{seed}")
    state = engine.new_game(players, options, seed)
    for _ in range(max_moves):
        movers = engine.to_move(state)
        if not movers:
            return
        seat = movers[0]
        yield state, seat
        if rng.random() < 1 / 3:
            legal = engine.legal_moves(state, seat)
            move = legal[int(rng.random() * len(legal))]
        else:
            move = engine.heuristic_move(state, seat, rng)
        state = engine.apply(state, seat, move)


def greedy_or_random(engine: Engine, state: Any, seat: int, greedy: int | None, rng: random.Random) -> Any:
    """The move of ``seat``: the heuristic's at seat ``greedy``, a random listed move elsewhere."""
    if seat == greedy:
        return engine.heuristic_move(state, seat, rng)
    moves = engine.legal_moves(state, seat)
    return moves[int(rng.random() * len(moves))]


def one_greedy_seat(engine: Engine, players: int, options: dict[str, Any], seed: str, greedy: int | None,
                    rng: random.Random) -> Iterator[tuple[Any, int]]:
    """The positions of one game (greedy at seat ``greedy``, None: nowhere; random listed moves at the
    others), each with its seat to move; the final state last, with seat -1."""
    state = engine.new_game(players, options, seed)
    while engine.result(state) is None:
        seat = engine.to_move(state)[0]
        yield state, seat
        state = engine.apply(state, seat, greedy_or_random(engine, state, seat, greedy, rng))
    yield state, -1


def greedy_vs_random(engine: Engine, players: int, games: int, options: dict[str, Any] | None = None,
                     max_moves: int = 20_000) -> tuple[int, int, int]:
    """Seeded games of one greedy seat (rotating over the seats) against random listed moves at the
    others: (greedy wins, greedy losses, finished games). A game that does not finish within
    ``max_moves`` (or is aborted) counts in neither."""
    wins = losses = finished = 0
    for g in range(games):
        hero = g % players
        rng = random.Random(f"match/{engine.id}/{players}/{g}")
        state = engine.new_game(players, options or {}, f"match/{g}")
        for _ in range(max_moves):
            movers = engine.to_move(state)
            if not movers:
                break
            seat = movers[0]
            state = engine.apply(state, seat, greedy_or_random(engine, state, seat, hero, rng))
        result = engine.result(state)
        if result is None or result.status != "finished":
            continue
        finished += 1
        wins += hero in result.winners
        losses += hero in result.losers
    return wins, losses, finished


def assert_hooks_on(engine: Engine, players: int, options: dict[str, Any], seed: str, every: int = 3) -> int:
    """Along a seeded game, at every ``every``-th position: the greedy move is listed; it is the same
    when the cards hidden from the mover are dealt differently (``shuffle_hidden``); ``evaluate`` is
    in [0, 1] for every seat; a determinized state shows the mover the very view of the real one.
    Returns how many positions were checked (so a test can insist the game got going)."""
    checked = 0
    for k, (state, seat) in enumerate(positions(engine, players, options, seed)):
        if k % every:
            continue
        checked += 1
        legal = engine.legal_moves(state, seat)
        move = engine.heuristic_move(state, seat, random.Random(k))
        assert move in legal, f"greedy move {move} is not listed at position {k}"
        other = engine.shuffle_hidden(state, seat, f"{seed}/hidden/{k}")
        assert engine.heuristic_move(other, seat, random.Random(k)) == move, (
            f"the greedy move at position {k} depends on cards hidden from seat {seat}")
        for s in range(players):
            assert 0.0 <= engine.evaluate(state, s) <= 1.0
        sample = engine.determinize(state, seat, random.Random(k))
        assert engine.view(sample, seat) == engine.view(state, seat)
        assert engine.legal_moves(sample, seat) == legal
    return checked
