"""Record golden exports: ``python -m tests.golden.exports [game ...]`` (every game without one).

Each file ``tests/golden/<game>/export-<table>.json`` is the export (``GET .../export``) of a game
really played through the service (in-process, the in-process store): seat 0 a person whose moves
this script picks at random among the listed ones (seeded), every other seat a server bot, so that
every bot level plays in some golden game of each game. ``tests/test_golden_exports.py`` replays
every file through the engine (``engines.replay``) and fails at the first entry that differs: any
change of the rules that changes a recorded game shows up there, and in the diff when re-recorded.

Recording is reproducible: the seeds are fixed, the bots' CPU safety nets are lifted (the request
bound, so that no ``strong`` move falls back to ``greedy``, and each search's cap, so that every
search spends its calibrated, counted budget however busy the machine), and the parts of an export that tell
when and where the game was played (its id, its times) are replaced by fixed values. The options
are the short ones (``tests.playout.short_options``): one deal, hand or round where the game has
them, so that the files stay small. Re-record only when a change of behaviour is intended, and
review the diff.
"""

from __future__ import annotations

import argparse
import json
import random
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from unittest.mock import patch

import service.bots
from bots.search import DEFAULT_MS, Budget, budget_for
from engines import REGISTRY
from engines.core import Engine
from service.app import create_app
from service.config import Settings
from service.store import MemoryStore
from tests.playout import short_options

HERE = Path(__file__).parent

#: The tables recorded per game: a name and the server bots' levels of seats 1, 2 ...; seat 0 is the
#: person. At two seats each level plays a game of its own; at more, the levels share one table.
TABLES: dict[str, tuple[tuple[str, tuple[str, ...]], ...]] = {
    "sten": (("2p-strong", ("strong",)), ("4p-levels", ("random", "greedy", "strong"))),
    "conquian": (("2p-random", ("random",)), ("2p-greedy", ("greedy",)), ("2p-strong", ("strong",))),
    "keine-lahme-agame": (("2p-strong", ("strong",)), ("4p-levels", ("random", "greedy", "strong"))),
    "siebenschlaefer": (("2p-strong", ("strong",)), ("4p-levels", ("random", "greedy", "strong"))),
    "kanaster": (("2p-strong", ("strong",)), ("4p-levels", ("random", "greedy", "strong"))),
}
SEED = "golden"
#: The time an export's game is said to have been created at; each entry is a second later than the last.
EPOCH = datetime(2026, 1, 1, tzinfo=UTC)
#: A CPU bound that never ends a search or a request while recording (about 17 minutes).
UNCAPPED_MS = 1_000_000.0


def path_for(game: str, table: str) -> Path:
    return HERE / game / f"export-{table}.json"


def normalised(export: dict[str, Any], name: str) -> dict[str, Any]:
    """``export`` with fixed values where it tells when and where it was played: its game id, and its
    times (where it has them: a release that keeps none leaves them null)."""

    def at(seconds: int) -> str:
        return (EPOCH + timedelta(seconds=seconds)).isoformat(timespec="milliseconds").replace("+00:00", "Z")

    out = {**export, "game_id": f"golden-{name}"}
    if export.get("created_at") is not None:
        out["created_at"] = at(0)
    out["entries"] = [{**e, "at": None if e.get("at") is None else at(e["version"])} for e in export["entries"]]
    return out


def uncapped(engine: Engine, ms: float = DEFAULT_MS) -> Budget:
    """The game's calibrated budget with no CPU cap to speak of: the counted budget alone decides."""
    return replace(budget_for(engine), cpu_ms=UNCAPPED_MS)


def play(engine: Engine, table: str, levels: tuple[str, ...]) -> dict[str, Any]:
    """Play one game through the service to its end and answer its export (as the service wrote it)."""
    with patch.object(service.bots, "budget_for", uncapped):
        return _play(engine, table, levels)


def _play(engine: Engine, table: str, levels: tuple[str, ...]) -> dict[str, Any]:
    settings = Settings(allow_fixed_deals=True, request_log=False, bot_request_seconds=UNCAPPED_MS)
    client = create_app(settings, store=MemoryStore()).test_client()
    base = f"/v1/{engine.id}/games"
    players = len(levels) + 1
    created = client.post(base, json={"players": players, "options": short_options(engine), "seed": SEED,
                                      "bots": [{"seat": s, "level": lv} for s, lv in enumerate(levels, 1)]})
    assert created.status_code == 201, created.json
    game_id, token = created.json["game_id"], created.json["seats"][0]["token"]
    auth = {"Authorization": f"Bearer {token}"}
    rng = random.Random(f"{SEED}/{engine.id}/{table}/person")
    view = client.get(f"{base}/{game_id}", headers=auth).json
    while view["status"] != "finished":
        moves = view["legal_moves"]
        assert moves, f"{engine.id}: the person is not to move, yet no bot moved"
        answer = client.post(f"{base}/{game_id}/moves", headers=auth,
                             json={"version": view["version"], "move": moves[int(rng.random() * len(moves))]})
        assert answer.status_code == 200, answer.json
        view = answer.json
    exported = client.get(f"{base}/{game_id}/export")
    assert exported.status_code == 200, exported.json
    export: dict[str, Any] = exported.json
    return export


def dump(export: dict[str, Any]) -> str:
    """The export as a file: the header a field a line, then one entry a line, so that a diff after
    a change of the rules shows the entries that changed."""
    lines = ["{"]
    for key, value in export.items():
        if key == "entries":
            entries = [json.dumps(e, sort_keys=True, separators=(",", ":")) for e in value]
            lines.append(' "entries": [' + (("\n  " + ",\n  ".join(entries) + "\n ]") if entries else "]") + ",")
        else:
            lines.append(f" {json.dumps(key)}: {json.dumps(value, sort_keys=True, separators=(',', ':'))},")
    lines[-1] = lines[-1].rstrip(",")
    return "\n".join(lines) + "\n}\n"


def record(engine: Engine, table: str, levels: tuple[str, ...]) -> Path:
    path = path_for(engine.id, table)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(dump(normalised(play(engine, table, levels), f"{engine.id}-{table}")))
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", nargs="*", help=f"some of {', '.join(sorted(TABLES))}; default: every game")
    args = parser.parse_args()
    unknown = sorted(set(args.games) - set(TABLES))
    if unknown:
        parser.error(f"no such game: {', '.join(unknown)}")
    for game in args.games or sorted(TABLES):
        for table, levels in TABLES[game]:
            print(record(REGISTRY[game], table, levels))


if __name__ == "__main__":
    main()
