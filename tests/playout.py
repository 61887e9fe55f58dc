"""Shared helpers for tests: random legal playouts over any engine, and the wire schemas."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

from engines.core import Engine, Move
from schemas import SCHEMAS
from schemas.common import BuiltSchemas, build

_BUILT: dict[str, BuiltSchemas] = {}


def built(engine: Engine) -> BuiltSchemas:
    if engine.id not in _BUILT:
        _BUILT[engine.id] = build(engine, SCHEMAS[engine.id])
    return _BUILT[engine.id]


#: Options that keep random playouts of long matches short in tests, per option name: one
#: deal/hand/section, and a safety cap of 600 moves (above Sten's bound of 52 x 8 turns for
#: forced play; a random Siebenschlaefer round can run to tens of thousands of moves before it ends).
SHORT_MATCH = {"max_hands": 1, "max_deals": 1, "max_rounds": 1, "rounds": 1, "sections_per_game": 1,
               "max_turns": 600}


def short_options(engine: Engine) -> dict[str, Any]:
    """Options that make one random playout a single deal/hand where the game allows it."""
    names = {o.name: o for o in engine.options}
    out: dict[str, Any] = {}
    for name, value in SHORT_MATCH.items():
        opt = names.get(name)
        if opt is None:
            continue
        if opt.check(value) is None:
            out[name] = value
    return out


@dataclass
class Step:
    state: Any
    seat: int
    move: Move
    legal: tuple[Move, ...]


def playout(engine: Engine, players: int, seed: str, options: dict[str, Any] | None = None,
            max_steps: int = 100_000) -> Iterator[Step]:
    """Play random listed moves until the game ends, yielding each position before its move."""
    rng = random.Random(f"playout/{seed}")
    state = engine.new_game(players, options if options is not None else short_options(engine), seed)
    for _ in range(max_steps):
        if engine.result(state) is not None:
            return
        movers = engine.to_move(state)
        assert movers, "a running game has no seat to move"
        seat = movers[int(rng.random() * len(movers))]
        legal = engine.legal_moves(state, seat)
        assert legal, f"seat {seat} is to move but has no legal move"
        move = legal[int(rng.random() * len(legal))]
        yield Step(state, seat, move, legal)
        state = engine.apply(state, seat, move)
    raise AssertionError(f"{engine.id}: no end after {max_steps} moves")


def final_state(engine: Engine, players: int, seed: str, options: dict[str, Any] | None = None) -> Any:
    state = engine.new_game(players, options if options is not None else short_options(engine), seed)
    for step in playout(engine, players, seed, options):
        state = engine.apply(step.state, step.seat, step.move)
    return state


def served_view(engine: Engine, state: Any, viewer: int | None, version: int = 0) -> dict[str, Any]:
    """The view the service answers ``viewer`` (``service.view.body``, as GET .../games/<id> sends it,
    with its time) of a game at ``state`` whose seats are all people's, as JSON."""
    from service.view import body  # the service's own code, so that the schemas are checked against it

    players = len(engine.seat_facts(state))
    record = {"game_id": "g", "players": players, "seats": [{"hash": "", "bot": False}] * players,
              "created_at": "2026-01-01T10:00:00.000Z", "updated_at": "2026-01-01T10:05:00.000Z"}
    view = body(SimpleNamespace(engine=engine), record, version, state, viewer)  # type: ignore[arg-type]
    return json.loads(json.dumps({**view, "server_time": "2026-01-01T10:05:01.000Z"}))  # type: ignore[no-any-return]


def canonical(data: Any) -> str:
    return json.dumps(data, sort_keys=True)
