"""One name per concept in the games' ``state``, documented once and described field by field.

- The table "Common names in `state`" of docs/api.md names, for each common name, exactly the games
  whose ``<Game>State`` has that field, and each of those games gives it the same JSON type.
- A name in the state of two games or more is a common name of that table, or it shows an option the
  game is played with (the option's own name, described by the catalogue); no game calls something
  of its own ``seats``, the view's list of seats in every game.
- Every field of every schema a game's schema module writes (its state, the objects nested in it,
  its result detail) has a description, so that the spec explains each one.
"""

from __future__ import annotations

import inspect
import re
from collections import defaultdict
from pathlib import Path
from types import ModuleType

import pytest
from marshmallow import Schema, fields

import schemas.conquian
import schemas.kanaster
import schemas.keine_lahme_agame
import schemas.siebenschlaefer
import schemas.sten
from engines import REGISTRY
from schemas import SCHEMAS
from tests.markdown import code_spans, section, table_rows

API = Path(__file__).resolve().parent.parent / "docs" / "api.md"
MODULES: dict[str, ModuleType] = {
    "sten": schemas.sten,
    "keine-lahme-agame": schemas.keine_lahme_agame,
    "conquian": schemas.conquian,
    "siebenschlaefer": schemas.siebenschlaefer,
    "kanaster": schemas.kanaster,
}
EVERY_GAME = "every game"


def common_names() -> dict[str, set[str]]:
    """The table of docs/api.md: each common name and the games that have it."""
    table: dict[str, set[str]] = {}
    for name, _meaning, games in table_rows(section(API.read_text(encoding="utf-8"), "Common names in `state`")):
        (field,) = code_spans(name)
        table[field] = set(REGISTRY) if games == EVERY_GAME else set(code_spans(games))
    return table


def state_fields() -> dict[str, dict[str, fields.Field]]:
    """Per game, the fields of its ``<Game>State``."""
    return {game: dict(SCHEMAS[game].state._declared_fields) for game in REGISTRY}


def _shape(field: fields.Field) -> str:
    """The JSON type a field gives a value (list items included), for comparing games."""
    if isinstance(field, fields.List):
        return f"list[{_shape(field.inner)}]"
    if isinstance(field, fields.Nested):
        return "object"
    return type(field).__name__


def test_the_modules_checked_here_are_the_games_schema_modules() -> None:
    assert set(MODULES) == set(REGISTRY) == set(SCHEMAS)
    assert all(SCHEMAS[game].state.__module__ == module.__name__ for game, module in MODULES.items())


def test_the_common_names_table_names_exactly_the_games_whose_state_has_the_field() -> None:
    table, states = common_names(), state_fields()
    assert len(table) >= 10, table
    for name, games in table.items():
        assert games and games <= set(REGISTRY), (name, games)
        having = {game for game, fields_ in states.items() if name in fields_}
        assert having == games, f"`{name}`: the table says {sorted(games)}, the states have it in {sorted(having)}"


# Fields whose JSON type differs by game on purpose: the table says each game gives them its own shape.
OWN_SHAPE = {"players", "melds"}


def test_a_common_name_has_one_json_type_in_every_game_that_has_it() -> None:
    states = state_fields()
    for name, games in common_names().items():
        if name in OWN_SHAPE:
            continue
        shapes = {game: _shape(states[game][name]) for game in games}
        assert len(set(shapes.values())) == 1, (name, shapes)


def test_a_name_two_games_share_is_a_common_name_or_the_option_it_shows() -> None:
    table = common_names()
    games_of: dict[str, set[str]] = defaultdict(set)
    for game, fields_ in state_fields().items():
        for name in fields_:
            games_of[name].add(game)
    for name, games in games_of.items():
        if len(games) < 2 or name in table:
            continue
        not_an_option = sorted(g for g in games if name not in {o.name for o in REGISTRY[g].options})
        assert not not_an_option, f"`{name}` is in the state of {sorted(games)} but no common name, " \
                                  f"and no option of {not_an_option}"


def test_no_game_calls_a_list_of_its_own_seats() -> None:
    """``seats`` is the view's list of seats, the same in every game; a game's own per-seat facts are
    its ``players``."""
    assert not [game for game, fields_ in state_fields().items() if "seats" in fields_]


def _schemas_of(module: ModuleType) -> list[type[Schema]]:
    return [cls for cls in vars(module).values()
            if inspect.isclass(cls) and issubclass(cls, Schema) and cls.__module__ == module.__name__]


@pytest.mark.parametrize("game", sorted(MODULES))
def test_every_field_a_games_schemas_declare_has_a_description(game: str) -> None:
    written = _schemas_of(MODULES[game])
    assert SCHEMAS[game].state in written and SCHEMAS[game].result_detail in written
    missing = [f"{cls.__name__}.{name}" for cls in written for name, field in cls._declared_fields.items()
               if not re.search(r"\w", str((field.metadata or {}).get("description", "")))]
    assert not missing, f"fields without a description: {missing}"
