"""Bot players for every game, over the engine contract only (``engines.core``): no game is named here.

Three levels (README, "Bots"):

- ``random``: a uniformly random listed move -- what every bot played before levels existed, so an
  old game whose bot seats carry no level goes on exactly as it began.
- ``greedy``: ``engine.heuristic_move``, a sensible beginner's move, written per game.
- ``strong``: information-set search (``bots.search``): determinized worlds, UCT over the moves,
  short rollouts and ``engine.evaluate`` at the horizon.

A bot sees only what its seat may know: ``random`` and ``greedy`` read the seat's own legal moves
(which depend on the seat's view only, as the conformance suite checks), ``strong`` searches worlds
that ``engine.determinize`` deals from the seat's knowledge. Every choice is deterministic for a
game's seed: the only randomness is ``random.Random(f"{seed}/bot/...")``.
"""

from __future__ import annotations

import random
from typing import Any

from bots.search import Budget, SearchStats, budget_for, search
from engines.core import Engine, Move

#: The levels, weakest first.
LEVELS: tuple[str, ...] = ("random", "greedy", "strong")
#: The level of a bot seat named by a plain seat number on create.
DEFAULT_LEVEL = "greedy"
#: The level of a bot seat stored without one: games created before levels existed played this.
LEGACY_LEVEL = "random"

__all__ = ["DEFAULT_LEVEL", "LEGACY_LEVEL", "LEVELS", "Budget", "SearchStats", "budget_for", "choose_move",
           "level_rng"]


def level_rng(seed: str, level: str, seat: int, turn: int) -> random.Random:
    """The generator of one bot move. ``random`` keeps the key of the bots before levels existed
    (``{seed}/bot/{seat}/{turn}``) so that games in flight replay as they began."""
    if level == "random":
        return random.Random(f"{seed}/bot/{seat}/{turn}")
    return random.Random(f"{seed}/bot/{level}/{seat}/{turn}")


def choose_move(engine: Engine, state: Any, seat: int, level: str, seed: str, turn: int,
                budget: Budget | None = None, stats: SearchStats | None = None) -> Move:
    """The move ``level`` plays for ``seat`` (which is to move) at the game's ``turn`` (its version).

    Deterministic for (state, seat, level, seed, turn, budget) as long as a ``strong`` search does not
    hit its CPU safety cap (``Budget.cpu_ms``; ``stats.capped`` tells). ``budget`` defaults to the
    game's calibrated one (``budget_for``)."""
    moves = engine.legal_moves(state, seat)
    assert moves, f"{engine.id}: seat {seat} is to move but has no legal move"
    rng = level_rng(seed, level, seat, turn)
    if level == "random":
        return moves[int(rng.random() * len(moves))]
    if level == "greedy":
        return engine.heuristic_move(state, seat, rng)
    if level == "strong":
        return search(engine, state, seat, rng, budget or budget_for(engine), stats=stats)
    raise ValueError(f"unknown bot level {level!r}; one of {list(LEVELS)}")
