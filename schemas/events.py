"""Wire schemas of the events, generated from each game's declared event types (``engines.eventtypes``).

A game declares its events once, in ``engines/<game>/events.py``; ``event_schemas`` makes one schema
per event type from it, the way ``schemas.common.move_schema`` makes the moves': ``<Prefix>Event<Type>``
(``StenEventTookStone``) with the ``type`` tag and a field per declared field, described by its
declaration. A public field is required; a private one is not (only the seats it names see it); a
private field that overrides a public one adds nothing to the shape. A nested record becomes
``<Prefix>Event<Record>``; an object the view shows too (a ``spread`` summary, a record such as a
card caught) is described by the view's own schema, named in ``shapes``: the event's schema extends
it, and the names of its fields must be the declaration's.
"""

from __future__ import annotations

import typing
from collections.abc import Mapping, Sequence
from typing import Annotated, Any, Literal

from marshmallow import Schema, fields, validate

from engines.cards import CardCodes
from engines.eventtypes import PRIVATE, PUBLIC, SPREAD, EventType, Length, Record, declared_fields
from schemas.common import CardField, _described, _named

#: An object declared in an engine (a ``Record`` or ``TypedDict``) -> the schema that describes it.
Shapes = Mapping[Any, type[Schema]]


def event_schemas(prefix: str, kinds: Sequence[type[EventType]], shapes: Shapes | None = None
                  ) -> dict[str, type[Schema]]:
    """Event type -> its schema, for every one of ``kinds`` in order (the union's order)."""
    made: dict[Any, type[Schema]] = {}
    for shape, schema in (shapes or {}).items():
        made[shape] = _checked(shape, schema)
    return {kind.type: _event_schema(prefix, kind, made) for kind in kinds}


def _camel(name: str) -> str:
    return "".join(p.capitalize() for p in name.split("_"))


def _doc(kind: type) -> str | None:
    return (kind.__doc__ or "").strip().split("\n\n")[0] or None


def _checked(shape: Any, schema: type[Schema]) -> type[Schema]:
    """``schema`` as the description of ``shape``, once it is certain both name the same fields."""
    if typing.is_typeddict(shape):
        names = set(typing.get_type_hints(shape))
    else:
        names = {f.wire for f in declared_fields(shape)}
    described = set(schema._declared_fields)
    assert names == described, (f"{schema.__name__} does not describe {shape.__name__}: "
                                f"{sorted(names ^ described)}")
    return schema


def _event_schema(prefix: str, kind: type[EventType], made: dict[Any, type[Schema]]) -> type[Schema]:
    base: type[Schema] = Schema
    attrs: dict[str, Any] = {"type": fields.String(required=True, validate=validate.OneOf([kind.type]), **_described(
        f"Always `{kind.type}`: the kind of event."))}
    for f in declared_fields(kind):
        if f.kind == SPREAD:
            assert base is Schema, f"{kind.__name__}: one spread field at most"
            assert f.hint in made, f"{kind.__name__}.{f.name}: name the view's schema of {f.hint.__name__} in shapes"
            base = made[f.hint]
        elif f.kind == PUBLIC:
            attrs[f.wire] = _field(prefix, f.hint, f.doc, made, required=True)
        elif f.kind == PRIVATE and f.wire == f.name:
            attrs[f.wire] = _field(prefix, f.hint, f.doc, made, required=False)
    return _named(f"{prefix}Event{_camel(kind.type)}", attrs, base=base, doc=_doc(kind))


def event_field(prefix: str, kind: type[EventType], wire: str) -> fields.Field:
    """The wire field ``wire`` of an event of ``kind`` as a viewer may see it (a public field, or the
    private one shown in its place), described by its declaration."""
    found = [f for f in declared_fields(kind) if f.wire == wire and f.kind != SPREAD]
    assert found, f"{kind.__name__} declares no field {wire!r}"
    f = next((f for f in found if f.kind == PUBLIC), found[0])
    return _field(prefix, f.hint, f.doc, {}, required=True)


def _record_schema(prefix: str, record: type[Record], made: dict[Any, type[Schema]]) -> type[Schema]:
    if record not in made:
        attrs = {f.wire: _field(prefix, f.hint, f.doc, made, required=True) for f in declared_fields(record)}
        made[record] = _named(f"{prefix}Event{record.__name__}", attrs, doc=_doc(record))
    return made[record]


def _field(prefix: str, hint: Any, doc: str | None, made: dict[Any, type[Schema]], required: bool = False,
           **kw: Any) -> fields.Field:
    """The wire field of a declared field of type ``hint`` (a list's items: neither required nor described)."""
    if doc:
        kw["metadata"] = {"description": doc}
    if required:
        kw["required"] = True
    origin = typing.get_origin(hint)
    if origin is Annotated:
        base, *marks = typing.get_args(hint)
        for mark in marks:
            if isinstance(mark, Length):
                kw["validate"] = validate.Length(min=mark.min, max=mark.max)
        codes = next((m for m in marks if isinstance(m, CardCodes)), None)
        if codes is not None:
            assert base is str, f"a card code is text, not {base!r}"
            return CardField(prefix, codes, **kw)
        return _field(prefix, base, None, made, **kw)
    if origin in (typing.Union, typing.get_origin(int | None)):
        inner = [a for a in typing.get_args(hint) if a is not type(None)]
        assert len(inner) == 1, f"no wire field for {hint!r}"
        return _field(prefix, inner[0], None, made, allow_none=True, **kw)
    if origin is Literal:
        return fields.String(validate=validate.OneOf(list(typing.get_args(hint))), **kw)
    if origin in (tuple, list, Sequence):
        item = typing.get_args(hint)[0]
        return fields.List(_field(prefix, item, None, made), **kw)
    if origin is dict:
        key, value = typing.get_args(hint)
        return fields.Dict(keys=_field(prefix, key, None, made), values=_field(prefix, value, None, made), **kw)
    if hint is str:
        return fields.String(**kw)
    if hint is bool:
        return fields.Boolean(**kw)
    if hint is int:
        return fields.Integer(strict=True, **kw)
    if isinstance(hint, type) and issubclass(hint, Record):
        return fields.Nested(_record_schema(prefix, hint, made), **kw)
    raise AssertionError(f"no wire field for an event field of type {hint!r}")
