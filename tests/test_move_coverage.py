"""The coverage guarantee of ``legal_moves``, checked against a slow reference enumerator per game.

Whenever the seat to move has a legal move of some kind, ``legal_moves`` lists at least one
move of that kind, and every card that some legal move of a kind plays, melds, lays off or
catches appears in at least one listed move of that kind (Keine lahme Agame: every catchable
card with every distinct payment). Each game's ``tests/engines/<game>/reference.py`` holds:

- ``reference_moves(state, seat)``: every legal move, built from every candidate of every move
  shape over the seat's cards and judged by the engine's own ``apply`` (slow on purpose: it
  shares no code with ``legal_moves``);
- ``coverage_keys(move)``: what a move covers, ``(type,)`` and ``(type, card)`` pairs and any
  finer key the game promises (a catch's payment);
- ``LIST_BOUND``: the documented most moves ``legal_moves`` ever lists.

The positions are reached by random playouts of listed moves at every player count; each
game's own tests add hand-built edge positions.
"""

from __future__ import annotations

import importlib
import itertools
from collections.abc import Hashable
from typing import Any

import pytest

from engines import REGISTRY
from engines.core import Engine, Move
from tests.playout import playout

ENGINES = sorted(REGISTRY.values(), key=lambda e: e.id)
IDS = [e.id for e in ENGINES]

#: Random reachable positions checked per game (spread over the player counts).
POSITIONS = 2000
#: Every STRIDE-th position of a playout is checked, so that the positions come from many games.
STRIDE = 3


def reference(engine: Engine) -> Any:
    return importlib.import_module(f"tests.engines.{engine.id.replace('-', '_')}.reference")


def covered(ref: Any, moves: Any) -> set[Hashable]:
    return set().union(*(ref.coverage_keys(m) for m in moves)) if moves else set()


def assert_covers(engine: Engine, state: Any, seat: int) -> None:
    """The listed moves of ``seat`` cover every kind and card the reference finds legal."""
    ref = reference(engine)
    listed: tuple[Move, ...] = engine.legal_moves(state, seat)
    assert len(listed) <= ref.LIST_BOUND, f"{len(listed)} moves listed, above the bound {ref.LIST_BOUND}"
    assert len(set(listed)) == len(listed), "a move is listed twice"
    assert engine.legal_moves(engine.decode(engine.encode(state)), seat) == listed, "listing is not deterministic"
    missing = covered(ref, list(ref.reference_moves(state, seat))) - covered(ref, listed)
    assert not missing, f"legal but never offered: {sorted(map(repr, missing))[:10]}"


def positions(engine: Engine, count: int) -> Any:
    """``count`` positions (state, seat to move) from random playouts over every player count."""
    seen = 0
    for n in itertools.count():
        players = list(engine.players)[n % len(engine.players)]
        for i, step in enumerate(playout(engine, players, f"coverage/{n}")):
            if i % STRIDE:
                continue
            yield step.state, step.seat
            seen += 1
            if seen >= count:
                return


@pytest.mark.slow
@pytest.mark.parametrize("engine", ENGINES, ids=IDS)
def test_listed_moves_cover_every_legal_kind_and_card(engine: Engine) -> None:
    for state, seat in positions(engine, POSITIONS):
        assert_covers(engine, state, seat)
