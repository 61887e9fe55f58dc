"""Each game's card codes are declared once (``engines.cards.CardCodes``: the pattern and the meaning the
spec shows as ``<Game>Card``), every field of its moves and events that holds a card is marked with
them, and the cards the game really deals and plays match the pattern.

The events' cards are checked against the pattern wherever events are checked against their
declarations (``engines.eventtypes.mismatches``, tests/test_event_types.py); the moves' here.
"""

from __future__ import annotations

import re
import typing
from collections.abc import Iterator
from typing import Annotated, Any

import pytest

from engines import REGISTRY
from engines.cards import CardCodes
from engines.eventtypes import declared_fields
from tests.playout import playout

ENGINES = sorted(REGISTRY.values(), key=lambda e: e.id)
IDS = [e.id for e in ENGINES]


def _codes_in(hint: Any) -> Iterator[CardCodes]:
    """Every ``CardCodes`` mark inside a type hint."""
    if typing.get_origin(hint) is Annotated:
        yield from (m for m in typing.get_args(hint)[1:] if isinstance(m, CardCodes))
    for arg in typing.get_args(hint):
        yield from _codes_in(arg)


def _marks(engine: Any) -> dict[str, CardCodes]:
    """``"<kind>.<field>"`` -> its card codes, for every card field of the game's moves and events."""
    out = {}
    for kind in engine.move_types:
        for name, hint in typing.get_type_hints(kind, include_extras=True).items():
            for codes in _codes_in(hint):
                out[f"{kind.type}.{name}"] = codes
    for kind in engine.event_types:
        for f in declared_fields(kind):
            for codes in _codes_in(f.hint):
                out[f"event {kind.type}.{f.name}"] = codes
    return out


def _card_values(move: Any) -> Iterator[tuple[str, Any]]:
    hints = typing.get_type_hints(type(move), include_extras=True)
    for name, hint in hints.items():
        if name != "type" and any(True for _ in _codes_in(hint)):
            yield name, getattr(move, name)


def _flat(value: Any) -> Iterator[Any]:
    if isinstance(value, tuple | list):
        for v in value:
            yield from _flat(v)
    else:
        yield value


@pytest.mark.parametrize("engine", ENGINES, ids=IDS)
def test_a_game_marks_its_card_fields_with_one_declaration(engine: Any) -> None:
    marks = _marks(engine)
    assert marks, "a game's moves and events carry cards"
    assert len({id(c) for c in marks.values()}) == 1, f"one CardCodes per game: {marks}"
    codes = next(iter(marks.values()))
    assert codes.pattern.startswith("^") and codes.pattern.endswith("$")
    assert len(codes.description) > 80


@pytest.mark.parametrize("engine", ENGINES, ids=IDS)
def test_every_card_a_listed_move_names_matches_the_games_pattern(engine: Any) -> None:
    codes = next(iter(_marks(engine).values()))
    seen = set()
    for players in (engine.players.start, engine.players.stop - 1):
        for step in playout(engine, players, f"card-codes/{players}"):
            for move in step.legal:
                for name, value in _card_values(move):
                    for card in _flat(value):
                        assert isinstance(card, str) and re.search(codes.pattern, card), (move, name, card)
                        seen.add(card)
    assert len(seen) >= 10, seen


@pytest.mark.parametrize(("game", "good", "bad"), [
    ("sten", ["7H", "10S", "AC", "KD"], ["JK", "1H", "11S", "7h", "7X", "H7", "10", ""]),
    ("conquian", ["7H", "JS", "AC"], ["8H", "9C", "10S", "JK", "1H"]),
    ("siebenschlaefer", ["6H", "QC", "10D"], ["JK", "0S", "BH"]),
    ("kanaster", ["KH", "10S", "3D", "JK"], ["JKK", "1S", "XS", "jk"]),
    ("keine-lahme-agame", ["red-13", "blue-1", "green-hat", "purple-34"],
     ["red-4", "orange-1", "7H", "red-", "-hat", "red-13 "]),
])
def test_a_pattern_takes_the_games_cards_and_nothing_else(game: str, good: list[str], bad: list[str]) -> None:
    codes = next(iter(_marks(REGISTRY[game]).values()))
    assert all(re.search(codes.pattern, c) for c in good), codes.pattern
    assert not any(re.search(codes.pattern, c) for c in bad), [c for c in bad if re.search(codes.pattern, c)]
