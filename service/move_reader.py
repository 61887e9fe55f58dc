"""A move body, read once: checked against the game's wire schema and made into the engine's move
in one pass over the JSON.

The schema of a move request (``schemas.common.build``: ``{"version"?, "move": {"type", ...}}``,
one schema per move type, made from the move's dataclass) stays what decides and documents the
wire. ``MoveReader`` is compiled from those very schema objects: per field the same type test
(strict integers and booleans, strings), the same validators (lengths, ranges, choices), the same
required fields and defaults, no unknown field. A body it accepts is what the schema would load,
value for value (so an idempotency fingerprint does not change), and the engine's move is built
from it directly. A body it refuses goes through the schema itself, so that the 422 names each
field exactly as the schema does; a game whose schema uses anything this reader does not know is
read through the schema always. Loading through marshmallow, then ``move_from_json`` over the
loaded dict, read every move twice before the engine saw it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any

from marshmallow import RAISE, Schema, fields, missing, validate

from engines.core import Engine, IllegalMove, Move, move_from_json
from schemas.common import BuiltSchemas, CardField, MoveOneOf, StrictBoolean

#: A compiled check: the loaded value of a JSON value, or ``_Refused``.
Check = Callable[[Any], Any]


class _Refused(Exception):
    """The fast reader does not accept the value; the schema says why."""


class _Unsupported(Exception):
    """A schema uses something the reader does not compile: that game is read by the schema."""


class ReadMove:
    """A move request as read: ``body`` is what the schema loads (``version`` and ``move``, defaults
    filled in), ``move()`` the engine's move, or the IllegalMove(``malformed_move``) that building
    it raises, at the point where the rules would refuse a move."""

    __slots__ = ("body", "_move", "_error")

    def __init__(self, body: dict[str, Any], move: Move | None, error: IllegalMove | None) -> None:
        self.body, self._move, self._error = body, move, error

    def move(self) -> Move:
        if self._error is not None:
            raise self._error
        assert self._move is not None
        return self._move


def _validator(v: Any) -> Callable[[Any], bool]:
    """A marshmallow validator as a test (True: passes)."""
    if type(v) is validate.Length:
        lo, hi, eq = v.min, v.max, v.equal
        if eq is not None:
            return lambda x: len(x) == eq
        return lambda x: (lo is None or len(x) >= lo) and (hi is None or len(x) <= hi)
    if type(v) is validate.Range:
        lo, hi, lo_in, hi_in = v.min, v.max, v.min_inclusive, v.max_inclusive
        return lambda x: ((lo is None or (x >= lo if lo_in else x > lo))
                          and (hi is None or (x <= hi if hi_in else x < hi)))
    if type(v) is validate.OneOf:
        choices = v.choices
        return lambda x: x in choices
    raise _Unsupported(f"validator {v!r}")


def _field(f: fields.Field) -> Check:
    """The check of one field's present value (missing values are the schema's business)."""
    if f.data_key is not None or f.attribute is not None or f.dump_only:
        raise _Unsupported(f"field {f!r}")
    tests = [_validator(v) for v in f.validators]
    kind = type(f)
    if kind is fields.String or kind is CardField:  # a card code loads as any text does
        def base(x: Any) -> Any:
            if type(x) is not str:
                raise _Refused
            return x
    elif kind is StrictBoolean:
        def base(x: Any) -> Any:
            if type(x) is not bool:
                raise _Refused
            return x
    elif kind is fields.Integer and f.strict:  # type: ignore[attr-defined]
        def base(x: Any) -> Any:
            if type(x) is not int:  # not bool, not float
                raise _Refused
            return x
    elif kind is fields.List:
        inner = _field(f.inner)  # type: ignore[attr-defined]

        def base(x: Any) -> Any:
            if type(x) is not list:
                raise _Refused
            return [inner(item) for item in x]
    else:
        raise _Unsupported(f"field {f!r}")
    nullable = f.allow_none

    def check(x: Any) -> Any:
        if x is None:
            if nullable:
                return None
            raise _Refused
        out = base(x)
        for test in tests:
            if not test(out):
                raise _Refused
        return out

    return check


def _schema(schema: Schema, nested: Mapping[str, Check] | None = None) -> Check:
    """The check of an object loaded by ``schema``: no unknown key, every required one, defaults;
    ``nested`` gives the checks of fields compiled apart (the move of a request)."""
    if schema.unknown != RAISE or any(schema._hooks.values()):
        raise _Unsupported(f"schema {schema!r}")
    plan = []
    for name, f in schema.fields.items():
        if nested is not None and name in nested:
            if f.allow_none or f.validators or f.data_key is not None or f.attribute is not None:
                raise _Unsupported(f"field {f!r}")
            plan.append((name, nested[name], f.required, f.load_default))
        else:
            plan.append((name, _field(f), f.required, f.load_default))
    names = frozenset(name for name, *_ in plan)

    def check(data: Any) -> Any:
        if type(data) is not dict or not names.issuperset(data):
            raise _Refused
        out: dict[str, Any] = {}
        for name, field_check, required, default in plan:
            if name in data:
                out[name] = field_check(data[name])
            elif required:
                raise _Refused
            elif default is not missing:
                out[name] = default() if callable(default) else default
        return out

    return check


def _one_of(schema: MoveOneOf) -> Check:
    """The check of a move: its ``type`` picks the schema of that move type."""
    by_type = {tag: _schema(sub() if isinstance(sub, type) else sub) for tag, sub in schema.type_schemas.items()}

    def check(data: Any) -> Any:
        if type(data) is not dict:
            raise _Refused
        kind = data.get(schema.type_field)
        sub = by_type.get(kind) if type(kind) is str else None
        if sub is None:
            raise _Refused
        return sub(data)

    return check


def _request(schema: Schema) -> Check:
    """The check of a move request: its ``move`` through the one-of schema of the game's moves."""
    nested = schema.fields.get("move")
    if type(nested) is not fields.Nested or not isinstance(nested.schema, MoveOneOf):
        raise _Unsupported("a move request without its move one-of")
    return _schema(schema, {"move": _one_of(nested.schema)})


class MoveReader:
    """Reads the move requests of one game (see the module's docstring)."""

    def __init__(self, engine: Engine, built: BuiltSchemas) -> None:
        self.schema = built.move_request()
        self.kinds = tuple(engine.move_types)
        # each move type's class, and the keys its JSON may hold: its fields and ``type``
        self._by_type: Mapping[str, tuple[type[Move], frozenset[str]]] = {
            k.type: (k, frozenset(("type", *(f.name for f in dataclasses.fields(k))))) for k in self.kinds}
        try:
            self._check: Check | None = _request(self.schema)
        except _Unsupported:
            self._check = None

    @property
    def compiled(self) -> bool:
        """Whether bodies are read by the compiled checks (else by the schema alone)."""
        return self._check is not None

    def read(self, data: Any) -> ReadMove:
        """The request ``data`` (parsed JSON) as a ``ReadMove``; ValidationError as the schema
        raises it when the body does not match."""
        body: dict[str, Any] | None = None
        if self._check is not None:
            try:
                body = self._check(data)
            except _Refused:
                body = None
        if body is None:
            body = self.schema.load(data)  # the schema's own errors (or, should it accept, its body)
            return self._built_by_engine(body)
        return self._built(body)

    def _built(self, body: dict[str, Any]) -> ReadMove:
        """The move of a body the compiled checks accepted, as ``move_from_json`` builds it."""
        data = body["move"]
        kind, names = self._by_type.get(data["type"], (None, frozenset()))
        if kind is None or not names.issuperset(data):
            return self._built_by_engine(body)
        try:
            move = kind(**{n: _tuplify(v) for n, v in data.items() if n != "type"})
        except TypeError:
            return self._built_by_engine(body)
        return ReadMove(body, move, None)

    def _built_by_engine(self, body: dict[str, Any]) -> ReadMove:
        try:
            return ReadMove(body, move_from_json(self.kinds, body["move"]), None)
        except IllegalMove as exc:
            return ReadMove(body, None, exc)


def _tuplify(value: Any) -> Any:
    if type(value) is list:
        return tuple(_tuplify(v) for v in value)
    return value
