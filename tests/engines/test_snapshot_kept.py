"""A record that mostly stays the same from one state to the next (``snapshot.kept``: Kanaster's rules
and last hand) is written out once per instance and built once per stored text: what the codec answers
from what it kept is exactly what it works out anew, and a record that changed is never answered with
the JSON of the one before."""

from __future__ import annotations

import json
from dataclasses import dataclass, replace

import pytest

from engines import REGISTRY, snapshot
from engines.core import evolve
from engines.kanaster.state import HandRecord

KANASTER = REGISTRY["kanaster"]


def _after_a_hand() -> object:
    """A Kanaster match of two players played on until its first hand is over."""
    state = KANASTER.new_game(2, {}, "kept-record")
    for _ in range(3000):
        if state.last_hand is not None:
            return state
        seat = KANASTER.to_move(state)[0]
        state = KANASTER.apply(state, seat, KANASTER.legal_moves(state, seat)[0])
    raise AssertionError("no hand ended: the test checks nothing")


def _anew(data: object) -> object:
    snapshot.forget_shared()
    return KANASTER.decode(json.loads(json.dumps(data)))


def test_the_same_stored_record_decodes_to_the_instance_built_before() -> None:
    data = KANASTER.encode(_after_a_hand())
    first = KANASTER.decode(json.loads(json.dumps(data)))
    second = KANASTER.decode(json.loads(json.dumps(data)))
    assert first.last_hand is second.last_hand and first.rules is second.rules
    anew = _anew(data)
    assert anew == first and anew.last_hand is not first.last_hand


def test_the_json_kept_on_a_record_is_what_the_encoder_writes_anew() -> None:
    state = _after_a_hand()
    written = json.dumps(KANASTER.encode(state))
    assert state.last_hand.__dict__.get(snapshot.STORED) is not None, "nothing was kept: the test checks nothing"
    assert json.dumps(KANASTER.encode(state)) == written
    assert json.dumps(KANASTER.encode(_anew(json.loads(written)))) == written


@pytest.mark.parametrize("copy", [evolve, replace], ids=["evolve", "replace"])
def test_a_changed_record_is_written_from_its_own_fields(copy) -> None:
    state = _after_a_hand()
    KANASTER.encode(state)  # the last hand's JSON is now kept on it
    changed: HandRecord = copy(state.last_hand, number=state.last_hand.number + 1)
    assert snapshot.STORED not in changed.__dict__
    assert KANASTER.encode(evolve(state, last_hand=changed))["last_hand"]["number"] == state.last_hand.number + 1


def test_a_record_with_slots_cannot_be_kept() -> None:
    @dataclass(frozen=True, slots=True)
    class Slotted:
        value: int

    with pytest.raises(TypeError, match="__dict__"):
        snapshot.kept(4)(Slotted)


def test_a_tables_melds_are_written_once_per_tuple_and_as_written_anew() -> None:
    """The melds of a table (a tuple of ``shared`` records) are written out once while the tuple stays
    the same (``snapshot._tuple_writer``), as what writing them anew gives; a move that changes the
    table is written from its own melds."""
    state = _after_a_hand()
    while len(state.melds) < 2:
        seat = KANASTER.to_move(state)[0]
        state = KANASTER.apply(state, seat, KANASTER.legal_moves(state, seat)[0])
    first = KANASTER.encode(state)["melds"]
    assert KANASTER.encode(evolve(state, turns=state.turns + 1))["melds"] is first
    snapshot.forget_shared()
    assert json.dumps(KANASTER.encode(state)["melds"]) == json.dumps(first)
    fewer = KANASTER.encode(evolve(state, melds=state.melds[:-1]))["melds"]
    assert json.dumps(fewer) == json.dumps(first[:-1])
