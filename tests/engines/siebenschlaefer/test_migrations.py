"""Snapshot format steps of Siebenschläfer (engines/siebenschlaefer/migrations.py).

``format1_game.json`` was written by the format-1 engine (commit 08b55a4, before the stalled-round rule
of seeds/siebenschlaefer.md section 12): a 3-player match of 2 rounds after its first round, 25 further
moves, and the state after them, each as that engine encoded it.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from engines.core import migrate as core_migrate
from engines.core import move_from_json
from engines.siebenschlaefer import ENGINE
from engines.siebenschlaefer.migrations import FORMAT, MIGRATIONS, state_1_to_2, state_2_to_3

E = ENGINE
FIXTURE = json.loads((Path(__file__).parent / "format1_game.json").read_text())


def migrate(data: dict[str, Any], version: int = 1) -> dict[str, Any]:
    """Run the chain from ``version`` to the current format, as the service does on load."""
    return core_migrate(data, version, E.format, E.migrations)


def test_the_engine_writes_format_three_and_migrates_from_one_and_two() -> None:
    """The engine names the format it writes and the step from every older one."""
    assert E.format == FORMAT == 3
    assert E.migrations == MIGRATIONS == {1: state_1_to_2, 2: state_2_to_3}


def test_a_format_one_game_keeps_its_options_hands_and_turn() -> None:
    """Section 12: an old game gets stalled_round=count_hands (the new default), keeps its stored
    max_turns (the old default 2000) and every other option, its hands and whose turn it is; its finished
    round went out."""
    old = FIXTURE["start"]
    assert "stalled_round" not in old["settings"] and old["history"] and "reason" not in old["history"][0]
    state = E.decode(migrate(old))
    assert state.settings.stalled_round == "count_hands"
    assert state.settings.max_turns == old["settings"]["max_turns"] == 2000
    assert state.settings.aa_rule == "value_22" and state.settings.rounds == 2
    assert [list(h) for h in state.hands] == old["hands"] and state.current == old["current"]
    (first,) = state.history
    assert first.reason == "went_out" and first.winners == (old["history"][0]["winner"],)
    assert E.encode(state) == migrate(old)  # the migrated data is exactly what this code writes


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


def test_a_format_two_round_keeps_its_summary_and_gets_no_made_up_table() -> None:
    """Section 16 (format 3): a round finished before format 3 kept its table gets ``table`` null in the
    view's ``last_round``; everything else it showed stays, the breakdown is counted from its hands."""
    two = state_1_to_2(FIXTURE["start"])
    assert "top" not in two["history"][0]
    state = E.decode(state_2_to_3(two))
    shown = E.view(state, None)["last_round"]
    assert shown["table"] is None
    assert shown["hands"] == two["history"][0]["hands"] and shown["hand_values"] == two["history"][0]["hand_values"]
    assert [b["total"] for b in shown["breakdown"]] == shown["hand_values"]
    assert E.encode(state) == state_2_to_3(two)


def test_the_format_two_step_is_pure() -> None:
    """The step 2 -> 3 leaves its input untouched."""
    two = state_1_to_2(FIXTURE["start"])
    kept = copy.deepcopy(two)
    state_2_to_3(two)
    assert two == kept
