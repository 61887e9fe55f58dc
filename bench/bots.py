"""How strong the bot levels are, and what a bot move costs: a win-rate matrix per game.

For every game in ``engines.REGISTRY`` (or ``--game``), at 2 players and at the usual table size
(4, or the most the game allows), three pairings: strong vs random, strong vs greedy, greedy vs
random. In a game of a pairing the two levels take alternate seats (A B A B ...), and the pattern
is shifted by one seat every other game, so that no level keeps the first seat. A game scores 1
for the first-named level when every winner sits on its seats, 0 when every winner sits on the
other's, and 0.5 otherwise (shared wins, no winner, aborted, or unfinished after ``--max-moves``):
draws count as half. The table prints the first-named level's mean score with a 95% Wilson
interval, and the CPU milliseconds per bot move (``time.process_time``) at p50/p95 per level, with
the number of strong searches that hit their CPU cap (which makes a replay differ; it should be 0)
out of the first-named level's moves (``A moves``).

Units: Conquian is scored by matches (default options: played to the target), Kanaster by hands
(``max_hands=1``), the other games by whole games with their default options.

    .venv/bin/python -m bench.bots --games 10 --jobs 2            # small: shows it works
    .venv/bin/python -m bench.bots --games 200 --jobs 2            # the measurement (hours)
    .venv/bin/python -m bench.bots --game conquian --players 2 --games 200

Prints figures; asserts nothing. Every game is bounded by ``--max-moves``.
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from bots import SearchStats, budget_for, choose_move
from engines import REGISTRY
from engines.core import Engine

PAIRINGS: tuple[tuple[str, str], ...] = (("strong", "random"), ("strong", "greedy"), ("greedy", "random"))
#: Options of the measured unit per game option name (Kanaster by hands, as the issue asks).
UNIT_OPTIONS: dict[str, Any] = {"max_hands": 1}


def unit_options(engine: Engine) -> dict[str, Any]:
    names = {o.name for o in engine.options}
    return {k: v for k, v in UNIT_OPTIONS.items() if k in names}


def table_sizes(engine: Engine) -> list[int]:
    return sorted({2, min(4, engine.players.stop - 1)})


@dataclass
class Outcome:
    """One game: the first-named level's score, the CPU ms of each level's moves, strong searches capped."""

    score: float
    ms: dict[str, list[float]] = field(default_factory=dict)
    capped: int = 0
    finished: bool = True
    moves: int = 0


def play_one(game: str, players: int, pair: tuple[str, str], index: int, budget_ms: float, max_moves: int) -> Outcome:
    """One seeded game of ``pair`` (first level on seats index, index+2, ...)."""
    engine = REGISTRY[game]
    seed = f"bench-bots/{game}/{players}/{pair[0]}-{pair[1]}/{index}"
    levels = [pair[(seat + index) % 2] for seat in range(players)]
    state = engine.new_game(players, unit_options(engine), seed)
    budget = budget_for(engine, budget_ms)
    out = Outcome(0.5, {pair[0]: [], pair[1]: []})
    for turn in range(max_moves):
        if engine.result(state) is not None:
            break
        seat = engine.to_move(state)[0]
        stats = SearchStats()
        started = time.process_time()
        move = choose_move(engine, state, seat, levels[seat], seed, turn, budget=budget, stats=stats)
        out.ms[levels[seat]].append((time.process_time() - started) * 1000.0)
        out.capped += stats.capped
        state = engine.apply(state, seat, move)
        out.moves += 1
    result = engine.result(state)
    if result is None:
        out.finished = False
        return out
    winners = {levels[s] for s in result.winners}
    if winners == {pair[0]}:
        out.score = 1.0
    elif winners == {pair[1]}:
        out.score = 0.0
    return out


def wilson(p: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion ``p`` over ``n`` trials."""
    if n == 0:
        return 0.0, 1.0
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _task(args: tuple[str, int, tuple[str, str], int, float, int]) -> tuple[str, int, tuple[str, str], Outcome]:
    game, players, pair, index, budget_ms, max_moves = args
    return game, players, pair, play_one(game, players, pair, index, budget_ms, max_moves)


def run(games: Iterable[str], sizes: list[int] | None, n: int, jobs: int, budget_ms: float, max_moves: int) -> None:
    tasks = []
    for game in games:
        engine = REGISTRY[game]
        for players in sizes or table_sizes(engine):
            if players not in engine.players:
                continue
            for pair in PAIRINGS:
                tasks += [(game, players, pair, i, budget_ms, max_moves) for i in range(n)]
    cells: dict[tuple[str, int, tuple[str, str]], list[Outcome]] = {}
    started = time.perf_counter()
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            results = list(pool.map(_task, tasks, chunksize=1))
    else:
        results = [_task(t) for t in tasks]
    for game, players, pair, outcome in results:
        cells.setdefault((game, players, pair), []).append(outcome)
    print(f"bench.bots: {n} games per cell, budget {budget_ms:g} ms per strong move, {jobs} jobs, "
          f"{time.perf_counter() - started:.0f} s wall")
    print(f"{'game':<18} {'pl':>2} {'pairing':<17} {'games':>5} {'score':>6} {'95% interval':>15} {'unfin':>5} "
          f"{'A ms p50/p95':>13} {'B ms p50/p95':>13} {'capped':>6} {'A moves':>7}")
    for (game, players, pair), outs in cells.items():
        score = statistics.fmean(o.score for o in outs)
        low, high = wilson(score, len(outs))
        a = [m for o in outs for m in o.ms[pair[0]]]
        b = [m for o in outs for m in o.ms[pair[1]]]
        print(f"{game:<18} {players:>2} {pair[0] + ' vs ' + pair[1]:<17} {len(outs):>5} {score:>6.2f} "
              f"{f'[{low:.2f}, {high:.2f}]':>15} {sum(not o.finished for o in outs):>5} "
              f"{f'{pct(a, .5):.1f}/{pct(a, .95):.1f}':>13} {f'{pct(b, .5):.1f}/{pct(b, .95):.1f}':>13} "
              f"{sum(o.capped for o in outs):>6} {len(a):>7}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10, help="games per cell (the issue asks 200+)")
    parser.add_argument("--game", action="append", choices=sorted(REGISTRY), help="only this game (repeatable)")
    parser.add_argument("--players", type=int, action="append", help="only this table size (repeatable)")
    parser.add_argument("--jobs", type=int, default=1, help="processes (2 uses both cores)")
    parser.add_argument("--budget-ms", type=float, default=50.0, help="CPU ms per strong move (as the service's "
                                                                      "CARDTABLE_BOT_BUDGET_MS)")
    parser.add_argument("--max-moves", type=int, default=5000, help="a game still running then counts as a draw")
    args = parser.parse_args()
    run(args.game or sorted(REGISTRY), args.players, args.games, args.jobs, args.budget_ms, args.max_moves)


if __name__ == "__main__":
    main()
