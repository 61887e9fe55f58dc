"""The move reader (service/move_reader.py) reads a move body once, and answers exactly as the game's
move schema followed by ``move_from_json`` would: the same loaded body (so the same idempotency
fingerprint), the same move, the same refusals with the same 422 messages."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from marshmallow import ValidationError

from engines import REGISTRY
from engines.core import IllegalMove, move_from_json
from schemas import SCHEMAS
from schemas.common import build
from service.move_reader import MoveReader

READERS = {gid: MoveReader(engine, build(engine, SCHEMAS[gid])) for gid, engine in REGISTRY.items()}


def _legal_bodies(gid: str, seed: str = "reader", moves: int = 300) -> list[dict[str, Any]]:
    """Move bodies of listed moves along a random game, as a client posts them."""
    engine = REGISTRY[gid]
    rng = random.Random(seed)
    state = engine.new_game(engine.players.start + 1 if engine.players.stop > engine.players.start + 1
                            else engine.players.start, {}, seed)
    bodies: list[dict[str, Any]] = []
    for _ in range(moves):
        if engine.result(state) is not None:
            break
        seat = engine.to_move(state)[0]
        listed = engine.legal_moves(state, seat)
        bodies += [{"move": m.to_json()} for m in listed[:5]]
        state = engine.apply(state, seat, listed[int(rng.random() * len(listed))])
    return bodies


LEGAL = {gid: _legal_bodies(gid) for gid in REGISTRY}


def _by_schema(reader: MoveReader, data: Any) -> tuple[str, Any, Any]:
    """What the schema and ``move_from_json`` make of ``data``: ("refused", errors, None) or
    ("loaded", body, move or the IllegalMove's (reason, message))."""
    try:
        body = reader.schema.load(data)
    except ValidationError as exc:
        return "refused", exc.messages, None
    try:
        return "loaded", body, move_from_json(reader.kinds, body["move"])
    except IllegalMove as exc:
        return "loaded", body, (exc.reason, exc.message)


def _by_reader(reader: MoveReader, data: Any) -> tuple[str, Any, Any]:
    try:
        read = reader.read(data)
    except ValidationError as exc:
        return "refused", exc.messages, None
    try:
        return "loaded", read.body, read.move()
    except IllegalMove as exc:
        return "loaded", read.body, (exc.reason, exc.message)


@pytest.mark.parametrize("gid", list(REGISTRY))
def test_every_game_s_move_schema_is_compiled(gid: str) -> None:
    assert READERS[gid].compiled


@pytest.mark.parametrize("gid", list(REGISTRY))
def test_a_listed_move_is_read_without_the_schema_and_as_the_schema_reads_it(gid: str, monkeypatch) -> None:
    reader = READERS[gid]
    expected = [_by_schema(reader, body) for body in LEGAL[gid]]
    assert expected and all(kind == "loaded" and not isinstance(move, tuple) for kind, _, move in expected)

    def no_schema(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a well-formed move went through the schema")

    monkeypatch.setattr(reader.schema, "load", no_schema)
    for body, want in zip(LEGAL[gid], expected, strict=True):
        assert _by_reader(reader, body) == want
        assert _by_reader(reader, {**body, "version": 7}) == ("loaded", {**want[1], "version": 7}, want[2])


#: Values that sit on the edges of the move fields' checks: types JSON confuses, lengths at the limits.
EDGES = (None, True, False, 0, -1, 1, 2**40, 0.5, 1.0, "", "AS", "x" * 64, "x" * 65, [], ["AS"], [["AS"]],
         ["AS"] * 200, ["AS"] * 201, [None], [1], [True], {}, {"type": "draw"})


@pytest.mark.parametrize("gid", list(REGISTRY))
def test_each_field_set_to_each_edge_value_or_left_out_gets_the_schema_s_answer(gid: str) -> None:
    reader = READERS[gid]
    samples = {body["move"]["type"]: body for body in LEGAL[gid]}.values()  # one listed move per type
    cases: list[Any] = [value for value in EDGES]
    for body in samples:
        move = body["move"]
        for key in (*move, "extra"):
            cases += [{**body, "move": {**move, key: value}} for value in EDGES]
            cases.append({**body, "move": {k: v for k, v in move.items() if k != key}})
        cases += [{**body, "version": value} for value in EDGES] + [{**body, "extra": 1}, {"version": 0}]
    for case in cases:
        assert _by_reader(reader, case) == _by_schema(reader, case), case


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 3) | st.sampled_from([2**40, -1, 0.5, 1.0])
    | st.text(max_size=3) | st.sampled_from(["x" * 64, "x" * 65, "AS", "10H", "JK", "draw"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=2),
    max_leaves=6,
)


@st.composite
def mangled(draw: st.DrawFn) -> tuple[str, Any]:
    """A listed move's body, broken (or not) in one or two places."""
    gid = draw(st.sampled_from(sorted(REGISTRY)))
    body: Any = {"move": dict(draw(st.sampled_from(LEGAL[gid]))["move"])}
    for _ in range(draw(st.integers(1, 2))):
        where = draw(st.sampled_from(["move", "body"]))
        target = body["move"] if where == "move" and isinstance(body.get("move"), dict) else body
        action = draw(st.sampled_from(["set", "drop", "add", "long_list", "replace"]))
        keys = sorted(target) or ["type"]
        if action == "set":
            target[draw(st.sampled_from(keys))] = draw(JSON_VALUES)
        elif action == "drop" and target:
            target.pop(draw(st.sampled_from(keys)), None)
        elif action == "add":
            target[draw(st.sampled_from(["version", "extra", "type", "cards", "card", "seat"]))] = draw(JSON_VALUES)
        elif action == "long_list":
            target[draw(st.sampled_from(keys))] = ["AS"] * draw(st.sampled_from([200, 201]))
        elif action == "replace":
            body = draw(JSON_VALUES)
            break
    return gid, body


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mangled())
def test_a_mangled_move_gets_the_schema_s_answer(case: tuple[str, Any]) -> None:
    gid, body = case
    reader = READERS[gid]
    assert _by_reader(reader, body) == _by_schema(reader, body)
