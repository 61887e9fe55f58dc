"""The service's JSON writer (``service.records.dumps``) writes a part kept as shown
(``engines.memo.ShownObject``, ``ShownArray``: a view's finished hand, a table's melds, a snapshot's
kept record) once and copies its text after: the bytes are exactly what orjson writes of the same data
by itself, and so are those of every other subclass of dict, list, str and int it meets."""

from __future__ import annotations

import collections
import copy
import enum
import json
import pickle
from collections.abc import Iterator
from typing import Any

import orjson
import pytest

from engines import REGISTRY
from engines.memo import ShownArray, ShownObject
from service.records import dumps


class _Suit(enum.StrEnum):
    HEARTS = "H"


class _Rank(enum.IntEnum):
    KING = 13


class _Text(str):
    pass


class _Number(int):
    pass


def test_a_kept_part_is_written_once_and_copied_after_with_the_same_bytes() -> None:
    inner = ShownObject({"y": "z"})
    data = {"hand": ShownObject({"x": [1, 2, inner]}), "melds": ShownArray([1, {"k": ShownArray([2])}])}
    first = dumps(data)
    assert first == orjson.dumps(data)
    assert data["hand"].written == b'{"x":[1,2,{"y":"z"}]}' and data["melds"].written == b'[1,{"k":[2]}]'
    data["hand"].written = b'{"kept":true}'  # what is copied from now on is the text kept
    assert dumps(data).startswith(b'{"hand":{"kept":true},')


def test_other_subclasses_are_written_as_orjson_writes_them() -> None:
    data = {"suit": _Suit.HEARTS, "rank": _Rank.KING, "ordered": collections.OrderedDict(a=1), "text": _Text("t"),
            "number": _Number(5), "flag": True, "none": None, "half": 0.5}
    assert dumps(data) == orjson.dumps(data)
    with pytest.raises(TypeError):
        dumps({"thing": object()})


def test_a_kept_part_is_a_plain_dict_or_list_to_every_other_reader() -> None:
    hand = ShownObject({"x": [1]})
    dumps(hand)
    assert hand == {"x": [1]} and json.dumps(hand) == '{"x": [1]}'
    for copied in (copy.deepcopy(hand), copy.copy(hand), pickle.loads(pickle.dumps(hand))):
        assert type(copied) is dict and copied == hand
    assert type(copy.deepcopy(ShownArray([1]))) is list


def _kanaster_match(players: int) -> Iterator[tuple[Any, int]]:
    """The states of a seeded Kanaster match, the first listed move made each time (700 at most), each
    with the seat that just moved."""
    engine = REGISTRY["kanaster"]
    state = engine.new_game(players, {}, "written-once")
    for _ in range(700):
        if engine.result(state) is not None:
            return
        seat = engine.to_move(state)[0]
        state = engine.apply(state, seat, engine.legal_moves(state, seat)[0])
        yield state, seat


def test_kanaster_views_are_written_as_their_plain_json() -> None:
    """A Kanaster view holds kept parts (its melds, the last hand): written by the service, they are
    the bytes of the same view as plain data, move after move."""
    kept = 0
    for state, seat in _kanaster_match(4):
        view = REGISTRY["kanaster"].view(state, seat)
        kept += isinstance(view["melds"], ShownArray) + isinstance(view["last_hand"], ShownObject)
        assert dumps(view) == dumps(view) == orjson.dumps(json.loads(json.dumps(view)))
    assert kept > 700, "no kept part was written: the test checks nothing"


def test_kanaster_snapshots_are_written_as_their_plain_json() -> None:
    """A Kanaster snapshot holds the records the codec keeps (``engines.snapshot.kept``: the rules, the
    last hand) as shown: written by the service, it is the bytes of the same snapshot as plain data,
    move after move."""
    kept = 0
    state = None
    for state, _ in _kanaster_match(2):
        data = REGISTRY["kanaster"].encode(state)
        kept += isinstance(data["rules"], ShownObject) + isinstance(data["last_hand"], ShownObject)
        assert dumps(data) == dumps(data) == orjson.dumps(json.loads(json.dumps(data)))
    assert state is not None and state.last_hand is not None and kept > 700, "no hand ended: the test checks nothing"
