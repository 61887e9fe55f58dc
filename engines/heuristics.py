"""Small pieces the games' ``greedy`` strategies share (``engines/<game>/strategy.py``):
picking the best-scored move with seeded ties, and the heuristic's order of the listed moves that
``ranked_moves`` answers (``engines.contract.GameEngine.ranked_moves``, ``bots.search``)."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from typing import TypeVar

M = TypeVar("M")


def best_move(moves: Sequence[M], key: Callable[[M], float], rng: random.Random) -> M:
    """The move with the highest ``key``; exact ties broken by ``rng`` (deterministic per seed)."""
    scored = [(key(m), m) for m in moves]
    top = max(s for s, _ in scored)
    best = [m for s, m in scored if s == top]
    return best[0] if len(best) == 1 else best[int(rng.random() * len(best))]


def heuristic_first(first: M, moves: Iterable[M], score: Callable[[M], float] | None = None) -> list[M]:
    """``first`` (the heuristic's own move), then the other ``moves`` by falling ``score`` (ties and
    no ``score``: as listed)."""
    rest = [m for m in moves if m != first]
    if score is not None:
        rest.sort(key=score, reverse=True)
    return [first, *rest]
