"""Record golden games (OpenSpiel's playthroughs): ``python -m tests.golden.record <game-id>``.

Each file ``tests/golden/<game>/<players>p-<seed>.jsonl`` holds a header line, then one
line per move with the mover's view, the spectator view, the mover's legal moves and the
move played, then a line with the result. ``tests/test_golden.py`` replays every file
and compares line by line, so any change of rules, views or legal moves shows up.
Re-record only when a change of behaviour is intended, and review the diff.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from engines import REGISTRY
from engines.core import Engine
from tests.playout import playout, short_options

HERE = Path(__file__).parent


def lines(engine: Engine, players: int, seed: str, options: dict[str, Any]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = [{"game": engine.id, "players": players, "seed": seed, "options": options}]
    last = None
    for n, step in enumerate(playout(engine, players, seed, options)):
        out.append({
            "n": n,
            "seat": step.seat,
            "view": engine.view(step.state, step.seat),
            "spectator": engine.view(step.state, None),
            "legal": [m.to_json() for m in step.legal],
            "move": step.move.to_json(),
        })
        last = step
    assert last is not None
    end = engine.apply(last.state, last.seat, last.move)
    result = engine.result(end)
    assert result is not None
    out.append({"result": result.to_json(), "spectator": engine.view(end, None)})
    return out


def path_for(game: str, players: int, seed: str) -> Path:
    return HERE / game / f"{players}p-{seed}.jsonl"


def record(engine: Engine, players: int, seed: str) -> Path:
    path = path_for(engine.id, players, seed)
    path.parent.mkdir(parents=True, exist_ok=True)
    options = short_options(engine)
    with path.open("w") as f:
        for line in lines(engine, players, seed, options):
            f.write(json.dumps(line, sort_keys=True, separators=(",", ":")) + "\n")
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("game", choices=sorted(REGISTRY))
    parser.add_argument("--players", type=int, nargs="*", help="default: the smallest and largest count")
    parser.add_argument("--seed", default="golden")
    args = parser.parse_args()
    engine = REGISTRY[args.game]
    for players in args.players or sorted({engine.players.start, engine.players.stop - 1}):
        print(record(engine, players, args.seed))


if __name__ == "__main__":
    main()
