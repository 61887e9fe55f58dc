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

from engines.core import Event, move_from_json
from engines.core import migrate as core_migrate
from engines.siebenschlaefer import ENGINE
from engines.siebenschlaefer.migrations import FORMAT, MIGRATIONS, state_1_to_2, state_2_to_3, state_3_to_4
from tests.captured.renamed import in_current_names

E = ENGINE
FIXTURE = json.loads((Path(__file__).parent / "format1_game.json").read_text())
CAPTURED = sorted((Path(__file__).parents[2] / "captured" / "siebenschlaefer").glob("format-*/*.json"))
#: The view's old event kinds -> the log's event types that replace them (format 4); ``stalled`` is
#: said by its round's ``round_ended`` (``reason: stalled``).
KIND_TO_TYPE = {"play": "played", "draw": "drew", "penalty": "drew", "skip": "skipped", "pass": "passed",
                "reshuffle": "reshuffled", "reset": "reset", "round_end": "round_ended", "deal": "dealt",
                "lot": "lot"}


def migrate(data: dict[str, Any], version: int = 1) -> dict[str, Any]:
    """Run the chain from ``version`` to the current format, as the service does on load."""
    return core_migrate(data, version, E.format, E.migrations)


def test_the_engine_writes_format_four_and_migrates_from_one_two_and_three() -> None:
    """The engine names the format it writes and the step from every older one."""
    assert E.format == FORMAT == 4
    assert E.migrations == MIGRATIONS == {1: state_1_to_2, 2: state_2_to_3, 3: state_3_to_4}


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
    state = E.decode(state_3_to_4(state_2_to_3(two)))
    shown = E.view(state, None)["last_round"]
    assert shown["table"] is None
    assert shown["hands"] == two["history"][0]["hands"] and shown["hand_values"] == two["history"][0]["hand_values"]
    assert [b["total"] for b in shown["breakdown"]] == shown["hand_values"]
    assert E.encode(state) == state_3_to_4(state_2_to_3(two))


def test_the_format_two_step_is_pure() -> None:
    """The step 2 -> 3 leaves its input untouched."""
    two = state_1_to_2(FIXTURE["start"])
    kept = copy.deepcopy(two)
    state_2_to_3(two)
    assert two == kept


def _captured(path: Path) -> tuple[dict[str, Any], dict[str, Any], list[dict[str, Any]]]:
    """A captured game: what it showed then (``seen``), its stored record and its stored log entries."""
    cap = json.loads(path.read_text())
    record = next(json.loads(k["value"]["s"]) for k in cap["keys"].values() if k["type"] == "hash")
    log = next([json.loads(x) for x in k["value"]] for k in cap["keys"].values() if k["type"] == "list")
    return cap["seen"], record, log


def _same_thing(old: dict[str, Any], new: dict[str, Any]) -> bool:
    """A format-3 view event (``kind``) and the format-4 one (``type``) tell of the same thing."""
    if KIND_TO_TYPE[old["kind"]] != new["type"]:
        return False
    if old["kind"] == "round_end":
        return old["seat"] == new["winner"]
    if old["kind"] == "deal":
        return old["count"] == new["round"]
    if old["kind"] in ("play", "reset"):
        return old["cards"] == new["cards"]
    if old["kind"] == "lot":
        return old["seat"] == new["seat"] and old["cards"] == [new["card"]]
    if old["kind"] in ("draw", "penalty", "reshuffle"):
        return old["count"] == new["count"] and old["seat"] == new.get("seat")
    return old["seat"] == new["seat"]


def test_every_captured_game_shows_the_same_last_events_in_the_log_vocabulary() -> None:
    """Section 16 (format 4): a game stored in any older format shows every viewer the events of its
    last move as it did, each now in the log's vocabulary; the rest of the view is untouched (under
    the field names of today's view, which may also show fields a later release added)."""
    assert CAPTURED
    for path in CAPTURED:
        seen, record, _ = _captured(path)
        written = record.get("format", 1)
        state = E.decode(migrate(record["state"], written))
        for viewer, shown in seen.items():
            seat = None if viewer == "spectator" else int(viewer)
            then = in_current_names("siebenschlaefer", shown["view"]["state"])
            now = {k: v for k, v in E.view(state, seat).items() if k in then}
            if written == FORMAT:
                assert now == then
                continue
            old = [e for e in then["events"] if e["kind"] != "stalled"]
            assert len(old) == len(now["events"]) and all(map(_same_thing, old, now["events"])), (path, old, now)
            if written == 3:  # (older formats' steps add fields of their own: tests/service/test_captured_games.py)
                assert {k: v for k, v in now.items() if k != "events"} == {k: v for k, v in then.items()
                                                                           if k != "events"}


def test_a_format_three_game_keeps_the_events_its_log_wrote_for_the_last_move() -> None:
    """Format 4 keeps in the state the very events the log entry of the last move holds (but the
    closing ``game_over``); format 3 did not keep which cards a 7 made a seat draw, so a migrated
    ``drew`` of reason ``seven`` has no private part."""
    def blind(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [{**e, "private": {}} if e["type"] == "drew" and e["public"]["reason"] == "seven" else e
                for e in events if e["type"] != "game_over"]

    threes = [p for p in CAPTURED if p.parent.name == "format-3"]
    assert threes
    for path in threes:
        _, record, log = _captured(path)
        assert record["format"] == 3
        state = E.decode(state_3_to_4(record["state"]))
        assert blind([e.to_json() for e in state.events]) == blind(log[-1]["events"])
        assert all(isinstance(e, Event) for e in state.events)


def test_the_format_three_step_is_pure() -> None:
    """The step 3 -> 4 leaves its input untouched."""
    three = state_2_to_3(state_1_to_2(FIXTURE["end"]))
    kept = copy.deepcopy(three)
    state_3_to_4(three)
    assert three == kept
