"""Stored formats: every format a release wrote is read through pure migration steps;
a newer format is refused, never misread. Engine-free: a toy engine stands for a game whose
state went through two format steps."""

from __future__ import annotations

import orjson
import pytest

from engines import REGISTRY
from engines.core import NewerFormat, migrate
from service.records import SCHEMA_VERSION, UnknownSnapshot, loads_entry, loads_record


class Toy:
    """Format 1 kept ``score``; format 2 renamed it ``points``; format 3 added ``bonus``. (The parts of
    an engine the service's loading reads.)"""

    id = "toy"
    format = 3
    migrations = {
        1: lambda d: {"points": d["score"]},
        2: lambda d: {**d, "bonus": 0},
    }
    entry_migrations = {2: lambda e: {**e, "events": []}}


def _record(schema: int | None, state: dict, fmt: int | None = None, game: str = "toy") -> bytes:
    record = {"game": game, "game_id": "g", "players": 2, "seats": [], "state": state}
    if schema is not None:
        record["schema"] = schema
    if fmt is not None:
        record["format"] = fmt
    return orjson.dumps(record)


def test_migration_steps_run_in_order_from_the_written_format() -> None:
    assert migrate({"score": 7}, 1, 3, Toy.migrations) == {"points": 7, "bonus": 0}
    assert migrate({"points": 7}, 2, 3, Toy.migrations) == {"points": 7, "bonus": 0}
    assert migrate({"points": 7, "bonus": 1}, 3, 3, Toy.migrations) == {"points": 7, "bonus": 1}


def test_a_newer_or_nonsense_format_is_refused() -> None:
    for written in (4, 0, None, "1", True):
        with pytest.raises(NewerFormat):
            migrate({}, written, 3, Toy.migrations)  # type: ignore[arg-type]


def test_a_missing_step_is_a_bug_not_a_refusal() -> None:
    with pytest.raises(AssertionError, match="format 1 to 2"):
        migrate({"score": 1}, 1, 3, {2: Toy.migrations[2]})


def test_a_first_release_record_is_read_in_the_current_formats() -> None:
    """Release 1 wrote envelope 1 without ``format``: its state is format 1 of its game."""
    record = loads_record(_record(1, {"score": 5}), Toy())
    assert (record["schema"], record["format"], record["state"]) == (SCHEMA_VERSION, 3, {"points": 5, "bonus": 0})


def test_a_record_written_before_times_were_kept_has_none() -> None:
    """Envelope 2 kept no times: a game's creation and last change read as unknown (None)."""
    record = loads_record(_record(2, {"points": 5, "bonus": 0}, 3), Toy())
    assert (record["schema"], record["created_at"], record["updated_at"]) == (SCHEMA_VERSION, None, None)
    assert record["state"] == {"points": 5, "bonus": 0}


def test_a_record_of_the_current_formats_is_left_as_it_is() -> None:
    state = {"points": 5, "bonus": 2}
    assert loads_record(_record(SCHEMA_VERSION, state, 3), Toy())["state"] == state


@pytest.mark.parametrize("raw", [_record(SCHEMA_VERSION + 1, {}, 1), _record(SCHEMA_VERSION, {}, 4),
                                 _record(None, {}), b"[1, 2]"])
def test_a_record_newer_than_this_release_is_refused(raw: bytes) -> None:
    with pytest.raises(UnknownSnapshot):
        loads_record(raw, Toy())


def test_a_record_of_another_game_is_not_migrated_by_this_one() -> None:
    record = loads_record(_record(1, {"score": 5}, game="other"), Toy())
    assert record["state"] == {"score": 5}


def test_log_entries_follow_the_steps_that_changed_them_and_keep_the_others() -> None:
    first = loads_entry(orjson.dumps({"version": 1, "seat": 0, "bot": False, "move": {}, "redacted": {}}), Toy())
    assert first["format"] == 3 and first["events"] == [] and first["at"] is None
    with pytest.raises(UnknownSnapshot):
        loads_entry(orjson.dumps({"format": 4, "version": 1}), Toy())


@pytest.mark.parametrize("engine", sorted(REGISTRY.values(), key=lambda e: e.id), ids=sorted(REGISTRY))
def test_every_engine_has_a_state_step_from_each_older_format(engine) -> None:
    assert set(engine.migrations) == set(range(1, engine.format))
