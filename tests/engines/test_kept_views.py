"""A view may keep what the unchanged parts of a state show as (``engines.memo``: a meld, the last
hand or trick, the rows), so that the view of the next state works out only what a move changed. A
kept answer must be exactly what a view works out anew: over random playouts of every game and every
table size, each view of a state reached move by move (its parts shown before, kept) equals the view
of the same state decoded afresh (nothing kept), for every seat and the spectator, and stays the same
when asked again. Records decoded as one shared instance per value (``snapshot.shared``), and tuples
of them decoded as the one decoded before, are equal to the ones decoded anew."""

from __future__ import annotations

import json
import random

import pytest

from engines import REGISTRY, snapshot
from engines.core import Engine

ENGINES = sorted(REGISTRY.values(), key=lambda e: e.id)
#: Moves played per game and table size: enough to reach a second deal, section or hand in most.
MOVES = 250


def _fresh(engine: Engine, state: object) -> object:
    """The state decoded anew: no record shared with an earlier decode (``snapshot.shared``), so no
    part of it holds anything a view kept."""
    snapshot.forget_shared()
    return engine.decode(json.loads(json.dumps(engine.encode(state))))


@pytest.mark.parametrize("engine", ENGINES, ids=[e.id for e in ENGINES])
def test_views_of_kept_parts_equal_views_worked_out_anew(engine: Engine) -> None:
    compared = 0
    for players in engine.players:
        rng = random.Random(f"kept/{engine.id}/{players}")
        state = engine.new_game(players, {}, f"kept/{engine.id}/{players}")
        for _ in range(MOVES):
            if engine.result(state) is not None:
                break
            fresh = _fresh(engine, state)
            for viewer in (None, *range(players)):
                shown = engine.view(state, viewer)
                assert shown == engine.view(fresh, viewer)
                assert json.dumps(shown) == json.dumps(engine.view(state, viewer))
            compared += 1
            seat = engine.to_move(state)[0]
            moves = engine.legal_moves(state, seat)
            state = engine.apply(state, seat, moves[int(rng.random() * len(moves))])
    assert compared >= MOVES


def test_a_shared_record_decodes_to_one_instance_equal_to_one_built_anew() -> None:
    engine = REGISTRY["kanaster"]
    state = engine.new_game(2, {}, "shared")
    for _ in range(400):  # until melds lie on the table
        if state.melds:
            break
        seat = engine.to_move(state)[0]
        state = engine.apply(state, seat, engine.legal_moves(state, seat)[0])
    assert state.melds, "no meld was laid: the test checks nothing"
    data = engine.encode(state)
    first, second = engine.decode(json.loads(json.dumps(data))), engine.decode(json.loads(json.dumps(data)))
    assert all(a is b for a, b in zip(first.melds, second.melds, strict=True))
    assert first.melds is second.melds  # (a tuple of shared records: the one decoded before)
    assert first == second == state
    snapshot.forget_shared()
    anew = engine.decode(json.loads(json.dumps(data)))
    assert anew == first and all(a is not b for a, b in zip(anew.melds, first.melds, strict=True))
    assert anew.melds is not first.melds


def test_a_tuple_of_shared_records_is_shared_only_with_the_very_same_records() -> None:
    engine = REGISTRY["kanaster"]
    state = engine.new_game(2, {}, "shared-tuple")
    while len(state.melds) < 2:
        seat = engine.to_move(state)[0]
        state = engine.apply(state, seat, engine.legal_moves(state, seat)[0])
    data = json.loads(json.dumps(engine.encode(state)))
    first = engine.decode(data)
    fewer = engine.decode({**data, "melds": data["melds"][:-1]})
    grown = engine.decode({**data, "melds": [*data["melds"][:-1], [*data["melds"][-1][:2], ["JK"], []]]})
    assert fewer.melds == first.melds[:-1] and grown.melds[:-1] == first.melds[:-1]
    assert grown.melds[-1] != first.melds[-1] and grown.melds is not first.melds
    assert engine.decode(data).melds is first.melds and engine.decode(data) == state
