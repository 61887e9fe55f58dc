"""How games end at default options: the share that ends ``aborted`` and the moves per game.

``python -m bench.endings [--games N] [--game ID ...] [--players P ...] [--jobs J]``

For every registered game and every allowed player count, plays ``--games`` games (default
1,000) with uniformly random listed moves and as many with a simple greedy policy, engine only,
default options (full matches: Kanaster to its target, Conquian to its target, every round of
Siebenschläfer ...). Prints, per game, player count and policy: how many games ended
``aborted`` (the target is 0 at default options), and the moves per game (median, p99, max).

The greedy policy plays, among the listed moves, one that leaves the mover the fewest cards in
hand (looking one move ahead through its own view), the first listed among equals (a play before
"Stein", the lowest pair first): what a beginner who wants to get rid of his cards does. It knows
no game's rules. A game still running after ``--cap`` moves is counted as
``unended`` (and should not happen: every engine ends its games itself).
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import sys
from collections.abc import Sequence
from typing import Any

from engines import REGISTRY
from engines.core import Engine, Move

POLICIES = ("random", "greedy")


def hand_after(engine: Engine, state: Any, seat: int, move: Move) -> float:
    """How many cards ``seat`` holds after ``move`` (its own view's ``hand``)."""
    hand = engine.view(engine.apply(state, seat, move), seat).get("hand")
    return float("inf") if hand is None else len(hand)


def choose(engine: Engine, state: Any, seat: int, policy: str, legal: Sequence[Move], rng: random.Random) -> Move:
    if policy == "random":
        return legal[int(rng.random() * len(legal))]
    scored = [(hand_after(engine, state, seat, m), i) for i, m in enumerate(legal)]
    return legal[min(scored)[1]]


def play(engine: Engine, players: int, policy: str, seed: str, cap: int) -> tuple[str, int]:
    """One game at default options: its ending (``finished``, ``aborted``, ``unended``) and its moves."""
    rng = random.Random(f"endings/{seed}")
    state = engine.new_game(players, {}, seed)
    for moves in range(cap):
        result = engine.result(state)
        if result is not None:
            return result.status, moves
        movers = engine.to_move(state)
        seat = movers[int(rng.random() * len(movers))]
        state = engine.apply(state, seat, choose(engine, state, seat, policy, engine.legal_moves(state, seat), rng))
    return "unended", cap


def cell(job: tuple[str, int, str, int, int]) -> tuple[str, int, str, dict[str, int], list[int]]:
    game, players, policy, games, cap = job
    engine = REGISTRY[game]
    endings: dict[str, int] = {}
    lengths: list[int] = []
    for n in range(games):
        ending, moves = play(engine, players, policy, f"{game}/{players}/{policy}/{n}", cap)
        endings[ending] = endings.get(ending, 0) + 1
        lengths.append(moves)
    return game, players, policy, endings, lengths


def percentile(sorted_values: list[int], q: float) -> int:
    return sorted_values[min(len(sorted_values) - 1, int(q * len(sorted_values)))]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000, help="games per game, player count and policy")
    parser.add_argument("--game", action="append", choices=sorted(REGISTRY), help="only these games")
    parser.add_argument("--players", type=int, action="append", help="only these player counts")
    parser.add_argument("--jobs", type=int, default=multiprocessing.cpu_count(), help="worker processes")
    parser.add_argument("--cap", type=int, default=200_000, help="moves after which a game counts as unended")
    args = parser.parse_args(argv)
    jobs = [(g, p, policy, args.games, args.cap)
            for g in (args.game or sorted(REGISTRY)) for p in REGISTRY[g].players
            if not args.players or p in args.players for policy in POLICIES]
    print(f"{args.games} games per row, default options, engine only\n")
    print(f"{'game':<18} {'players':>7} {'policy':<7} {'aborted':>8} {'unended':>8} "
          f"{'moves p50':>9} {'p99':>7} {'max':>7}")
    bad = 0
    with multiprocessing.Pool(max(1, args.jobs)) as pool:
        for game, players, policy, endings, lengths in pool.imap(cell, jobs):
            lengths.sort()
            aborted, unended = endings.get("aborted", 0), endings.get("unended", 0)
            bad += aborted + unended
            print(f"{game:<18} {players:>7} {policy:<7} {aborted:>8} {unended:>8} "
                  f"{percentile(lengths, 0.5):>9} {percentile(lengths, 0.99):>7} {lengths[-1]:>7}", flush=True)
    print(f"\n{bad} games ended aborted or unended")
    return 0


if __name__ == "__main__":
    sys.exit(main())
