"""Golden games: every recorded game of every engine replays identically, line by line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engines import REGISTRY
from tests.golden.record import HERE, lines

FILES = sorted(HERE.glob("*/*.jsonl"))


@pytest.mark.parametrize("game", sorted(REGISTRY))
def test_every_game_has_golden_games(game: str) -> None:
    assert list((HERE / game).glob("*.jsonl")), f"no golden game for {game}: python -m tests.golden.record {game}"


@pytest.mark.parametrize("path", FILES, ids=[f"{p.parent.name}/{p.name}" for p in FILES])
def test_golden_game_replays_identically(path: Path) -> None:
    recorded = [json.loads(line) for line in path.read_text().splitlines()]
    header = recorded[0]
    engine = REGISTRY[header["game"]]
    replayed = [json.loads(json.dumps(x, sort_keys=True)) for x in
                lines(engine, header["players"], header["seed"], header["options"])]
    assert len(replayed) == len(recorded), "the game took a different number of moves"
    for n, (want, got) in enumerate(zip(recorded, replayed, strict=True)):
        assert got == want, f"{path.name}: line {n + 1} differs"
