"""Golden exports: games really played through the service, with bots at every level, replay through
the engine entry by entry (``engines.replay``). A change of the rules that changes one of these games
fails here, at the first entry that differs; re-record with ``python -m tests.golden.exports`` only
when the change is intended, and review the diff.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from marshmallow import ValidationError

from bots import LEVELS
from engines import REGISTRY
from engines.replay import replay
from schemas.replay import build_replay
from tests.golden.exports import EPOCH, HERE, TABLES, normalised
from tests.playout import built

FILES = sorted(HERE.glob("*/export-*.json"))


@pytest.mark.parametrize("game", sorted(REGISTRY))
def test_every_game_has_golden_exports_with_every_bot_level(game: str) -> None:
    exports = [json.loads(p.read_text()) for p in (HERE / game).glob("export-*.json")]
    assert len(exports) == len(TABLES[game]) >= 2, f"record them: python -m tests.golden.exports {game}"
    levels = {s["level"] for e in exports for s in e["seats"] if s["kind"] == "bot"}
    assert levels == set(LEVELS), f"{game}: no golden export has a bot of level {set(LEVELS) - levels}"


@pytest.mark.parametrize("path", FILES, ids=[f"{p.parent.name}/{p.name}" for p in FILES])
def test_golden_export_replays_entry_by_entry_to_its_result(path: Path) -> None:
    export = json.loads(path.read_text())
    replayed = replay(export)
    assert replayed.ok, f"{path.name}: {replayed.summary()}"
    assert replayed.entries == len(export["entries"]) > 0


@pytest.mark.parametrize("path", FILES, ids=[f"{p.parent.name}/{p.name}" for p in FILES])
def test_golden_export_matches_its_schema_in_the_spec(path: Path) -> None:
    export = json.loads(path.read_text())
    engine = REGISTRY[export["game"]]
    schema = build_replay(engine, built(engine)).export()
    try:
        schema.load(export)
    except ValidationError as exc:
        raise AssertionError(f"{path.name}: {exc.messages}") from None


def test_recording_fixes_the_game_id_and_the_times_and_keeps_missing_times_missing() -> None:
    export = {"game_id": "Xy12", "created_at": "2031-05-06T07:08:09.123Z",
              "entries": [{"version": 1, "at": "2031-05-06T07:08:10.001Z"}, {"version": 2, "at": None}]}
    fixed = normalised(export, "sten-2p")
    assert fixed["game_id"] == "golden-sten-2p"
    assert fixed["created_at"] == EPOCH.strftime("%Y-%m-%dT%H:%M:%S.000Z") == "2026-01-01T00:00:00.000Z"
    assert [e["at"] for e in fixed["entries"]] == ["2026-01-01T00:00:01.000Z", None]
    assert export["game_id"] == "Xy12", "the export itself is left as it was"
