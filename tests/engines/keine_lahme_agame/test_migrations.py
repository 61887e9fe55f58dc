"""Snapshot format steps of Keine lahme Agame (engines/keine_lahme_agame/migrations.py).

``format1_game.json`` was written by the format-1 engine (commit e23672b, before the moves' events):
a 3-player game of 2 sections (``trick_capture=row_then_discard``) just after its first section, 12
further moves within the second section, and the state after them, each as that engine encoded it.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from engines.core import migrate as core_migrate
from engines.core import move_from_json
from engines.keine_lahme_agame import ENGINE
from engines.keine_lahme_agame.migrations import FORMAT, MIGRATIONS, state_1_to_2

E = ENGINE
FIXTURE = json.loads((Path(__file__).parent / "format1_game.json").read_text())


def migrate(data: dict[str, Any], version: int = 1) -> dict[str, Any]:
    """Run the chain from ``version`` to the current format, as the service does on load."""
    return core_migrate(data, version, E.format, E.migrations)


def test_the_engine_writes_format_two_and_migrates_from_one() -> None:
    """The engine names the format it writes and the step from every older one."""
    assert E.format == FORMAT == 2
    assert E.migrations == MIGRATIONS == {1: state_1_to_2}


def test_a_format_one_section_keeps_what_it_showed_and_its_unkept_table_is_null() -> None:
    """Seeds §12: a format-1 last_section keeps its number, emptied seats, points and complete rows; the
    final table the old release did not keep (hands, rows, discard, breakdown) shows as null."""
    old = FIXTURE["start"]
    assert len(old["last_section"]) == 4
    state = E.decode(migrate(old))
    assert state.last_section is not None
    shown = E.view(state, None)["last_section"]
    number, emptied, points, complete = old["last_section"]
    assert (shown["section"], shown["emptied"], shown["points"], shown["complete"]) == (
        number + 1, emptied, points, complete)
    assert shown["hands"] is shown["rows"] is shown["discard"] is shown["breakdown"] is None
    assert shown["scores"] == points
    assert [list(h) for h in state.hands] == old["hands"] and state.current == old["current"]
    assert E.encode(state) == migrate(old)  # the migrated data is exactly what this code writes


def test_a_game_without_a_finished_section_is_unchanged() -> None:
    """Format 2 changes only a recorded section: a game still in its first section migrates unchanged."""
    fresh = {**FIXTURE["start"], "last_section": None}
    assert state_1_to_2(fresh) == fresh


def test_a_format_one_game_plays_on_identically() -> None:
    """The migrated game makes the same moves to the same state as the format-1 engine did."""
    state = E.decode(migrate(FIXTURE["start"]))
    for step in FIXTURE["moves"]:
        move = move_from_json(E.move_types, step["move"])
        assert move in E.legal_moves(state, step["seat"])
        state = E.apply(state, step["seat"], move)
    assert E.encode(state) == migrate(FIXTURE["end"])


def test_the_step_is_pure() -> None:
    """A migration step leaves its input untouched."""
    old = copy.deepcopy(FIXTURE["start"])
    state_1_to_2(old)
    assert old == FIXTURE["start"]
