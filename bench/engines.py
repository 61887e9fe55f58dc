"""Per-move cost of every engine in ``engines.REGISTRY``, engine only (no store, no HTTP).

``python -m bench.engines [--seconds S] [--moves N] [--game ID ...]``

For each registered game, plays seeded random games (random listed legal moves, every
allowed player count in turn, default options) and times each call on every position
with ``time.perf_counter_ns``: ``apply``, ``view`` for the mover and for a spectator,
``legal_moves``, ``encode``, ``decode``, the snapshot's ``json.dumps``/``json.loads``
(compact, as the service stores it) and the log redaction of the move for every viewer.
Prints median and p95 in microseconds, the snapshot size in bytes, and the engine work of
one move request as the service does it: decode + apply + encode + view + legal_moves.
Bounded: at most ``--moves`` positions and ``--seconds`` seconds per game.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from engines import REGISTRY
from engines.core import Engine

#: Column name -> what it times (one call on one position).
COLUMNS = ("apply", "view", "view_spec", "legal", "encode", "decode", "dumps", "loads", "redact")
#: What a move request costs in the engine (service/moves.py ``submit``): decode the
#: snapshot, apply the move, encode the new state, the mover's view and legal moves.
REQUEST_PARTS = ("decode", "apply", "encode", "view", "legal")
MAX_MOVES_PER_GAME = 5_000  # a game that has not ended by then is cut off (and counted)

_now = time.perf_counter_ns


def dumps(data: Any) -> bytes:
    """The service's snapshot serialisation (service/records.py ``dumps``)."""
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode()


@dataclass
class Samples:
    """Raw timings (ns) per column, plus per-request engine work and snapshot sizes."""

    game: str
    times: dict[str, list[int]] = field(default_factory=lambda: {c: [] for c in COLUMNS})
    request: list[int] = field(default_factory=list)  # decode+apply+encode+view+legal, per move
    sizes: list[int] = field(default_factory=list)
    games: int = 0
    finished: int = 0
    cut: int = 0

    @property
    def moves(self) -> int:
        return len(self.request)


def percentile(values: Sequence[int | float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100) of ``values``; 0 for an empty list."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(0, min(len(ordered) - 1, int(round(q / 100 * len(ordered) + 0.5)) - 1))
    return float(ordered[rank])


def _timed(fn: Callable[..., Any], *args: Any) -> tuple[Any, int]:
    t0 = _now()
    out = fn(*args)
    return out, _now() - t0


def measure(engine: Engine, seconds: float = 5.0, max_moves: int = 3_000, seed: str = "bench") -> Samples:
    """Play seeded random games of ``engine`` until ``max_moves`` positions or ``seconds``
    have been measured (whichever first), timing every engine call on each position."""
    samples = Samples(engine.id)
    t = samples.times
    counts = list(engine.players)
    deadline = time.monotonic() + seconds
    n = 0
    while samples.moves < max_moves and time.monotonic() < deadline:
        players = counts[n % len(counts)]
        rng = random.Random(f"{seed}/{engine.id}/{n}")
        state = engine.new_game(players, {}, f"{seed}/{engine.id}/{n}")
        samples.games += 1
        n += 1
        for _ in range(MAX_MOVES_PER_GAME):
            if engine.result(state) is not None:
                samples.finished += 1
                break
            if samples.moves >= max_moves or time.monotonic() >= deadline:
                break
            movers = engine.to_move(state)
            seat = movers[int(rng.random() * len(movers))]

            enc, t_enc = _timed(engine.encode, state)
            raw, t_dumps = _timed(dumps, enc)
            back, t_loads = _timed(json.loads, raw)
            _, t_dec = _timed(engine.decode, back)
            legal, t_legal = _timed(engine.legal_moves, state, seat)
            _, t_view = _timed(engine.view, state, seat)
            _, t_spec = _timed(engine.view, state, None)
            move = legal[int(rng.random() * len(legal))]
            after, t_apply = _timed(engine.apply, state, seat, move)
            t0 = _now()
            for viewer in (None, *range(players)):
                engine.redact_move(state, seat, move, viewer)
            t_redact = _now() - t0

            for col, ns in zip(COLUMNS, (t_apply, t_view, t_spec, t_legal, t_enc, t_dec, t_dumps, t_loads,
                                         t_redact), strict=True):
                t[col].append(ns)
            samples.request.append(t_dec + t_apply + t_enc + t_view + t_legal)
            samples.sizes.append(len(raw))
            state = after
        else:
            samples.cut += 1
    return samples


def engine_work(seconds: float = 2.0, max_moves: int = 2_000) -> dict[str, tuple[float, float]]:
    """Per registered game: (median, p95) in microseconds of one move request's engine work."""
    out = {}
    for game_id, engine in REGISTRY.items():
        s = measure(engine, seconds, max_moves)
        out[game_id] = (percentile(s.request, 50) / 1000, percentile(s.request, 95) / 1000)
    return out


def _us(ns: float) -> str:
    us = ns / 1000
    return f"{us:.0f}" if us >= 100 else f"{us:.1f}"


def report(all_samples: Sequence[Samples], out: Any = sys.stdout) -> None:
    width = max([len("game"), *(len(s.game) for s in all_samples)])
    print("Per-move engine cost, microseconds: median / p95 (one call on one position)", file=out)
    head = f"{'game':<{width}} {'moves':>6} " + " ".join(f"{c:>11}" for c in COLUMNS)
    print(head + f" {'snapshot B mean/max':>20}", file=out)
    for s in all_samples:
        cells = " ".join(f"{_us(percentile(s.times[c], 50)) + '/' + _us(percentile(s.times[c], 95)):>11}"
                         for c in COLUMNS)
        size = f"{sum(s.sizes) / max(1, len(s.sizes)):.0f}/{max(s.sizes, default=0)}"
        print(f"{s.game:<{width}} {s.moves:>6} {cells} {size:>20}", file=out)
    print(file=out)
    print("view = view(state, mover); view_spec = view(state, None); dumps/loads = json of the encoded "
          "snapshot (compact);", file=out)
    print("redact = redact_move for the spectator and every seat (one log entry).", file=out)
    print(file=out)
    print(f"Engine work of one move request ({' + '.join(REQUEST_PARTS)}), microseconds:", file=out)
    for s in all_samples:
        med, p95 = _us(percentile(s.request, 50)), _us(percentile(s.request, 95))
        print(f"  {s.game:<{width}} median {med:>7}   p95 {p95:>7}"
              f"   ({s.games} games, {s.finished} finished, {s.cut} cut at {MAX_MOVES_PER_GAME} moves)", file=out)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.engines", description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="time budget per game (default 5)")
    parser.add_argument("--moves", type=int, default=3_000, help="positions measured per game (default 3000)")
    parser.add_argument("--game", action="append", help="only this game id (repeatable)")
    args = parser.parse_args(argv)
    games = args.game or list(REGISTRY)
    unknown = [g for g in games if g not in REGISTRY]
    if unknown:
        parser.error(f"unknown game(s) {unknown}; registered: {list(REGISTRY)}")
    print(f"python {sys.version.split()[0]}; {len(games)} game(s); up to {args.moves} positions or "
          f"{args.seconds:g} s per game; random legal moves, all player counts, default options")
    results = [measure(REGISTRY[g], args.seconds, args.moves) for g in games]
    print()
    report(results)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
