"""Event types: each kind of event a game reports, declared once, with its public and private fields.

A game declares its event vocabulary in ``engines/<game>/events.py`` as small classes, one per
event type (``EVENT_TYPES``), the way it declares its moves: a ``type`` tag and typed fields, each
with a one-line description. Every ``engines.core.Event`` a game emits is built from one of them
(``EventType.event``), so a game cannot report a field its declaration does not name; the wire
schemas of the events are generated from the same declarations (``schemas.events.event_schemas``).

A field is one of three kinds, named by how it is declared:

- ``public("...")``: everyone at the table and the spectator see it;
- ``private("...")``: a ``Mapping`` of seat -> value, each seat named sees its value (a drawn card
  to its drawer, each new hand to its holder), nobody else sees the field; ``overrides="cards"``
  instead shows those seats their value in place of the public field ``cards``;
- ``spread("...")``: a JSON object (a ``TypedDict``) whose keys are public fields of the event: the
  summary of a finished deal or round, which the game's view shows too.

A nested object of a field is a ``Record`` (declared like an event type, without a tag). Field
types are ``int``, ``str``, ``bool``, ``Literal`` choices, ``X | None``, sequences, records and
``TypedDict`` objects; ``Annotated[str, Length(1, 64)]`` bounds a text's length, and a game's
``Annotated[str, CARDS]`` (``engines.cards.CardCodes``) says the text is one of its card codes.
``mismatches`` checks an emitted event against its declaration (the tests run it on every game).
"""

from __future__ import annotations

import dataclasses
import re
import types
import typing
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Annotated, Any, ClassVar, Literal, dataclass_transform

from engines.cards import CardCodes
from engines.core import JSON, Event, Result

#: How a field of an event is shown (the ``kind`` in a field's metadata).
PUBLIC, PRIVATE, SPREAD = "public", "private", "spread"
#: The class attribute that keeps a class's ``declared_fields`` (no field is named so).
_PLAN = "_declared_fields"


def public(doc: str) -> Any:
    """A field everyone at the table and the spectator see."""
    return dataclasses.field(metadata={"doc": doc, "kind": PUBLIC})


def private(doc: str, *, overrides: str | None = None) -> Any:
    """A field shown only to the seats it names: its value is a ``Mapping`` of seat -> what that seat
    sees. With ``overrides``, those seats see their value in place of that public field."""
    return dataclasses.field(metadata={"doc": doc, "kind": PRIVATE, "overrides": overrides})


def spread(doc: str) -> Any:
    """A JSON object (a ``TypedDict``) whose keys are public fields of the event itself."""
    return dataclasses.field(metadata={"doc": doc, "kind": SPREAD})


@dataclass(frozen=True)
class Length:
    """Bounds on the length of a text field: ``Annotated[str, Length(1, 64)]``."""

    min: int | None = None
    max: int | None = None


@dataclass(frozen=True)
class DeclaredField:
    """One field of a record or event type, read off its declaration."""

    name: str  # the attribute
    wire: str  # the key a viewer sees (a private field with ``overrides``: the public field it replaces)
    kind: str  # PUBLIC, PRIVATE or SPREAD
    hint: Any  # the type of what a viewer sees (of a private field: of one seat's value)
    doc: str
    convert: Callable[[Any], Any] | None  # to JSON-native data; None: the value is already


@dataclass_transform(frozen_default=True, field_specifiers=(public, private, spread))
class Record:
    """A nested object of an event (a meld laid, a card caught): its fields are public, declared with
    ``public``. A subclass is made a frozen dataclass as it is defined."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        dataclasses.dataclass(frozen=True)(cls)

    def to_json(self) -> dict[str, JSON]:
        """The record as JSON-native data, one key per field."""
        out: dict[str, JSON] = {}
        for f in declared_fields(type(self)):
            value = getattr(self, f.name)
            out[f.wire] = value if f.convert is None else f.convert(value)
        return out


class EventType(Record):
    """Base of every event type: a frozen dataclass with a ``type`` tag; ``event()`` is the
    ``engines.core.Event`` it reports."""

    type: ClassVar[str] = ""

    def event(self) -> Event:
        """The event, with its public part and each seat's private part."""
        public_part: dict[str, JSON] = {}
        private_part: dict[int, dict[str, JSON]] = {}
        for f in declared_fields(type(self)):
            value = getattr(self, f.name)
            if f.kind == PUBLIC:
                public_part[f.wire] = value if f.convert is None else f.convert(value)
            elif f.kind == SPREAD:
                public_part.update(value)
            else:
                for seat, seen in value.items():
                    private_part.setdefault(seat, {})[f.wire] = seen if f.convert is None else f.convert(seen)
        return Event(self.type, public_part, private_part)


class GameOver(EventType):
    """The game is over: the last event of its last move (core adds it, ``game_over_event``). A game
    narrows ``status`` to the endings it has and says what its ``scores`` count, in a subclass."""

    type = "game_over"
    status: str = public("how the game ended: `finished` (played out) or `aborted` (a safety cap ended it)")
    winners: tuple[int, ...] = public("the seats that won")
    losers: tuple[int, ...] = public("the seats that lost")
    scores: tuple[int, ...] | None = public("points per seat, or null where the game scores none")


def game_over_event(result: Result, kind: type[GameOver] = GameOver) -> Event:
    """The last event of every game's last move: how it ended (the result), for everyone."""
    return kind(status=result.status, winners=result.winners, losers=result.losers, scores=result.scores).event()


# --- reading a declaration -------------------------------------------------------------------------


def declared_fields(kind: type[Record]) -> tuple[DeclaredField, ...]:
    """Every field of a record or event type as declared, in order (read once per class)."""
    plan: tuple[DeclaredField, ...] | None = kind.__dict__.get(_PLAN)
    if plan is None:
        plan = _declare(kind)
        setattr(kind, _PLAN, plan)
    return plan


def _declare(cls: type[Record]) -> tuple[DeclaredField, ...]:
    hints = typing.get_type_hints(cls, include_extras=True)
    out = []
    for f in dataclasses.fields(cls):  # type: ignore[arg-type]
        kind = f.metadata.get("kind")
        assert kind is not None, f"{cls.__name__}.{f.name}: declare it with public, private or spread"
        hint = hints[f.name]
        wire = f.name
        if kind == PRIVATE:
            assert typing.get_origin(hint) is Mapping, f"{cls.__name__}.{f.name}: a private field maps seats"
            hint = typing.get_args(hint)[1]
            wire = f.metadata["overrides"] or f.name
        elif kind == SPREAD:
            assert typing.is_typeddict(hint), f"{cls.__name__}.{f.name}: a spread field is a TypedDict"
        out.append(DeclaredField(f.name, wire, kind, hint, f.metadata["doc"], _converter(hint)))
    assert issubclass(cls, EventType) or all(d.kind == PUBLIC for d in out), (
        f"{cls.__name__}: every field of a record is public")
    names = {d.wire for d in out if d.kind == PUBLIC}
    for d in out:
        if d.kind == PRIVATE and d.wire != d.name:
            assert d.wire in names, f"{cls.__name__}.{d.name} overrides no public field {d.wire!r}"
    return tuple(out)


def _optional(hint: Any) -> Any | None:
    """``X`` for ``X | None``; None for any other hint."""
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(hint) if a is not type(None)]
        if len(args) == 1:
            return args[0]
    return None


def _item(hint: Any) -> Any | None:
    """The item type of a sequence hint (``tuple[X, ...]``, ``Sequence[X]``, ``list[X]``); else None."""
    origin = typing.get_origin(hint)
    if origin is tuple:
        args = typing.get_args(hint)
        assert len(args) == 2 and args[1] is Ellipsis, f"a tuple field is tuple[X, ...], not {hint!r}"
        return args[0]
    if origin in (list, Sequence):
        return typing.get_args(hint)[0]
    return None


def _is_record(hint: Any) -> bool:
    return isinstance(hint, type) and issubclass(hint, Record)


def _converter(hint: Any) -> Callable[[Any], Any] | None:
    """How a value of ``hint`` becomes JSON-native data (sequences lists, records objects); None when
    it already is (scalars, choices, JSON objects)."""
    if typing.get_origin(hint) is Annotated:
        return _converter(typing.get_args(hint)[0])
    inner = _optional(hint)
    if inner is not None:
        convert = _converter(inner)
        return None if convert is None else (lambda v: None if v is None else convert(v))
    item = _item(hint)
    if item is not None:
        each = _converter(item)
        return list if each is None else (lambda v: [each(x) for x in v])
    if _is_record(hint):
        return lambda v: v.to_json()
    return None


# --- checking an event against its declaration ------------------------------------------------------


def mismatches(kinds: Sequence[type[EventType]], event: Event) -> list[str]:
    """What in ``event`` its game's declarations (``kinds``) do not say: an undeclared type, a field
    missing or not declared, a value of another type, a private part for no seat. [] when it conforms."""
    kind = next((k for k in kinds if k.type == event.type), None)
    if kind is None:
        return [f"event type {event.type!r} is not declared"]
    out = []
    shown: dict[str, Any] = {}
    for f in declared_fields(kind):
        if f.kind == PUBLIC:
            shown[f.wire] = f.hint
        elif f.kind == SPREAD:
            shown.update(typing.get_type_hints(f.hint))
    for name in sorted(set(shown) ^ set(event.public)):
        out.append(f"{event.type}: public field {name!r} is {'missing' if name in shown else 'not declared'}")
    for name, value in event.public.items():
        if name in shown and not _matches(value, shown[name]):
            out.append(f"{event.type}: public {name} = {value!r} is not {shown[name]!r}")
    secret = {f.wire: f.hint for f in declared_fields(kind) if f.kind == PRIVATE}
    for seat, part in event.private.items():
        if type(seat) is not int or seat < 0:
            out.append(f"{event.type}: a private part for {seat!r}, not a seat")
        for name, value in part.items():
            if name not in secret:
                out.append(f"{event.type}: private field {name!r} is not declared")
            elif not _matches(value, secret[name]):
                out.append(f"{event.type}: private {name} = {value!r} is not {secret[name]!r}")
    return out


def _matches(value: Any, hint: Any) -> bool:
    """Whether JSON-native ``value`` is what ``hint`` declares (sequences as lists, records and
    TypedDicts as objects with exactly their keys)."""
    if hint is Any:
        return True
    origin = typing.get_origin(hint)
    if origin is Annotated:
        base, *marks = typing.get_args(hint)
        bounds = [m for m in marks if isinstance(m, Length)]
        codes = [m for m in marks if isinstance(m, CardCodes)]
        return _matches(value, base) and all(
            (b.min is None or len(value) >= b.min) and (b.max is None or len(value) <= b.max) for b in bounds
        ) and all(re.search(c.pattern, value) is not None for c in codes)
    inner = _optional(hint)
    if inner is not None:
        return value is None or _matches(value, inner)
    if origin is Literal:
        return any(value == choice and type(value) is type(choice) for choice in typing.get_args(hint))
    if hint in (int, str, bool):
        return type(value) is hint
    item = _item(hint)
    if item is not None:
        return isinstance(value, list) and all(_matches(v, item) for v in value)
    if _is_record(hint):
        fields = {f.wire: f.hint for f in declared_fields(hint)}
        return isinstance(value, dict) and set(value) == set(fields) and all(
            _matches(v, fields[k]) for k, v in value.items())
    if typing.is_typeddict(hint):
        fields = typing.get_type_hints(hint)
        return (isinstance(value, dict) and hint.__required_keys__ <= set(value) <= set(fields)
                and all(_matches(v, fields[k]) for k, v in value.items()))
    if origin in (dict, Mapping):
        key, val = typing.get_args(hint)
        return isinstance(value, dict) and all(_matches(k, key) and _matches(v, val) for k, v in value.items())
    raise AssertionError(f"no check for a field of type {hint!r}")

