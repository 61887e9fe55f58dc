"""The one snapshot codec of every game: frozen dataclass states to JSON-native data and back.

``encoder(cls)`` turns a dataclass of tuples, ints, strs, bools, None, enums, mappings and nested
dataclasses into JSON-native data; ``decoder(cls)`` rebuilds it from the type hints, so that
``decoder(cls)(encoder(cls)(s)) == s``. A nested dataclass is stored as an object of its fields in
their order, or, when decorated with ``@row``, as the list of its fields' values (a compact form for
the many small records of a table: melds, plays, catches).

A record that mostly stays the same from one state to the next and is costly to build (``@kept``: the
last hand's record, the rules) is neither written out nor built again while it stays the same: the
encoder keeps each instance's JSON on the instance (as shown, ``engines.memo``: its text is written
once), and the decoder answers the instance it built before from the same stored text.

Both directions are compiled once per class into the Python source a hand-written codec would be
(``{"hands": [list(x) for x in v.hands], ...}``), because a snapshot is decoded and encoded on every
request: the type hints are read once, not per value, and no call is spent per field.
"""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from collections.abc import Callable, Mapping
from functools import cache
from itertools import count
from typing import Any, TypeVar

import orjson

from engines.memo import Kept, ShownArray, ShownObject

T = TypeVar("T")
Codec = Callable[[Any], Any]

_ROW = "__snapshot_row__"
_SCALARS = (str, int, bool, float, type(None))
_SCALAR_TYPES = frozenset(_SCALARS)


def row(cls: type[T]) -> type[T]:
    """Store instances of the dataclass ``cls`` as the list of their field values, in field order."""
    setattr(cls, _ROW, True)
    return cls


def _is_row(cls: type) -> bool:
    return bool(getattr(cls, _ROW, False))


_SHARED = "__snapshot_shared__"


def shared(size: int) -> Callable[[type[T]], type[T]]:
    """Decode equal instances of the dataclass ``cls`` (its fields hashable: ints, strs, tuples) to
    one instance, the one decoded first, for as long as it is among the last ``size`` kept: a small
    record that stays the same from one stored state to the next (a meld on the table) is then the
    same object in every state decoded, with what a view kept on it (``engines.memo``). The value is
    immutable, so an equal one is as good; only a cache by identity can tell them apart. (Its fields
    must not hold values that are equal across types, as ``1 == True``: the stored JSON keeps them
    apart, the lookup would not.)

    A tuple of them (the melds on a table) decodes to the tuple decoded before from the same stored
    text, as long as it is among the last ``size`` kept: a state decoded anew holds the very tuple of
    melds the one before held, and what is kept by its identity (a view's table) is found.
    Such a tuple is written out once, while it is among the last encoded (``_tuple_writer``)."""
    def mark(cls: type[T]) -> type[T]:
        setattr(cls, _SHARED, size)
        return cls

    return mark


#: Per ``shared`` class, its instances by their fields' values and what builds a new one.
_SHARED_TABLES: dict[type, tuple[dict[tuple[Any, ...], Any], Callable[[tuple[Any, ...]], Any]]] = {}


def forget_shared() -> None:
    """Let go of every ``shared`` and ``kept`` instance kept: the next decode builds each record anew
    (a test that compares what a view keeps with what it works out from nothing)."""
    for table, _ in _SHARED_TABLES.values():
        table.clear()
    for kept_table in _KEPT_TABLES.values():
        kept_table.clear()
    for tuples in _SHARED_TUPLES:
        tuples.clear()
    for encoded in _ENCODED_TUPLES:
        encoded.clear()


def _sharer(cls: type, names: tuple[str, ...], table: dict[tuple[Any, ...], Any], size: int
            ) -> Callable[[tuple[Any, ...]], Any]:
    """The instance of ``cls`` with the field values ``key``, kept in ``table`` (at most ``size``)."""
    def build(key: tuple[Any, ...]) -> Any:
        value: Any = object.__new__(cls)
        object.__setattr__(value, "__dict__", dict(zip(names, key, strict=True)))
        if len(table) >= size:
            table.clear()
        table[key] = value
        return value

    return build


#: Per field that holds a tuple of ``shared`` records, the tuples decoded, by their stored JSON text.
_SHARED_TUPLES: list[dict[bytes, tuple[Any, ...]]] = []


def _tuple_reader(item: type, size: int) -> Codec:
    """The decoder of a tuple of ``shared`` records (``item``): the tuple decoded before from the same
    JSON text (compact orjson: equal text, equal records), else a new one of the instances its items
    decode to (each ``shared``), kept (at most ``size``). Most moves leave the table as it was, and
    looking its text up is cheaper than looking up each record's fields."""
    src = _Source()
    y = src.var()
    plain = src.compile("decode_items", f"tuple([{src.dec(item, y)} for {y} in _v])")
    table: dict[bytes, tuple[Any, ...]] = {}
    _SHARED_TUPLES.append(table)
    return _keeping_decoder(plain, table, size)  # the tuple decoded before from the same text


#: Per field that holds a tuple of ``shared`` records, the JSON written for the last tuples encoded.
_ENCODED_TUPLES: list[Kept[tuple[Any, ...], ShownArray]] = []


def _tuple_writer(item: type) -> Codec:
    """The encoder of a tuple of ``shared`` records (``item``), keeping what it wrote for each tuple (by
    its identity, the last 64: a worker's games in play) as shown (``engines.memo.ShownArray``): a
    state's melds are the very tuple of the state before it as long as no move changes them
    (``engines.core.evolve`` copies the field; a state decoded anew holds the tuple decoded before), so
    they are written out once, and a writer that knows it writes their text once too (the stored
    snapshot). (Few are kept: every one is a few dozen lists the garbage collector walks.)"""
    src = _Source()
    y = src.var()
    plain = src.compile("encode_items", f"[{src.enc(item, y)} for {y} in _v]")
    written: Kept[tuple[Any, ...], ShownArray] = Kept(64)
    _ENCODED_TUPLES.append(written)

    def encode_tuple(items: tuple[Any, ...]) -> ShownArray:
        data = written.get(items)
        if data is None:
            data = written.put(items, ShownArray(plain(items)))
        return data

    return encode_tuple


_KEPT = "__snapshot_kept__"
#: The name an instance's stored JSON is kept under, on the instance itself (no field has it; the
#: codec, equality, hashing and ``repr`` of a dataclass read only its fields).
STORED = "_stored"
#: Per ``kept`` class, its instances by their stored JSON text.
_KEPT_TABLES: dict[type, dict[bytes, Any]] = {}


def kept(size: int) -> Callable[[type[T]], type[T]]:
    """Mark the dataclass ``cls`` (with a ``__dict__``: no slots) as a record that mostly stays the
    same from one stored state to the next and is costly to write and build: the encoder keeps each
    instance's JSON on the instance (``STORED``), so an unchanged record is written out once, and
    the decoder keeps the instances it built by their JSON text (at most ``size``), so the same
    stored record decodes to the instance built before. Encoded output then shares the JSON kept:
    it is read and written out, never changed (copy it first, as a migration step does)."""
    def mark(cls: type[T]) -> type[T]:
        if hasattr(cls, "__slots__"):
            raise TypeError(f"{cls.__name__}: a kept record keeps its JSON in its __dict__")
        setattr(cls, _KEPT, size)
        return cls

    return mark


def _kept_size(cls: Any) -> int | None:
    size: int | None = cls.__dict__.get(_KEPT) if isinstance(cls, type) else None
    return size


def _keeping_encoder(plain: Codec) -> Codec:
    """``plain`` (a kept class's compiled encoder), answering the JSON kept on the instance if any: kept
    as shown (``engines.memo.ShownObject``, ``ShownArray``), so that a writer that knows it writes its
    text once too (the stored snapshot, which holds it move after move)."""
    def encode_kept(value: Any) -> Any:
        data = value.__dict__.get(STORED)
        if data is None:
            data = plain(value)
            data = value.__dict__[STORED] = ShownArray(data) if isinstance(data, list) else ShownObject(data)
        return data

    return encode_kept


def _keeping_decoder(plain: Codec, table: dict[bytes, Any], size: int) -> Codec:
    """``plain`` (a kept class's compiled decoder), answering the instance built before from the same
    JSON text (compact orjson: equal text, equal record)."""
    def decode_kept(data: Any) -> Any:
        key = orjson.dumps(data)
        value = table.get(key)
        if value is None:
            if len(table) >= size:
                table.clear()
            value = table[key] = plain(data)
        return value

    return decode_kept


def encode_any(value: Any) -> Any:
    """Encode by the value's runtime type (for fields whose hint says little: ``Any``, a union)."""
    if value.__class__ in _SCALAR_TYPES:  # most values, asked first (exactly these types)
        return value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return encoder(type(value))(value)
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, tuple | list):
        return [encode_any(v) for v in value]
    if isinstance(value, dict):
        return {str(k): encode_any(v) for k, v in value.items()}
    return value


def _optional(tp: Any) -> Any | None:
    """``X`` for a hint ``X | None``; None for any other hint."""
    if typing.get_origin(tp) in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(tp) if a is not type(None)]
        if len(args) == 1 and len(typing.get_args(tp)) == 2:
            return args[0]
    return None


class _Source:
    """The generated source of one direction of one class: helper names bound in its namespace."""

    def __init__(self) -> None:
        self.names: dict[str, Any] = {"encode_any": encode_any}
        self._vars = count()

    def bind(self, value: Any) -> str:
        name = f"_h{len(self.names)}"
        self.names[name] = value
        return name

    def var(self) -> str:
        return f"_x{next(self._vars)}"

    # --- encoding -------------------------------------------------------------------------

    def enc(self, tp: Any, x: str) -> str:
        """An expression encoding ``x`` (an expression of type ``tp``); ``x`` may be evaluated once."""
        if tp in _SCALARS:
            return x
        inner = _optional(tp)
        if inner is not None:
            e = self.enc(inner, x)
            return x if e == x else f"(None if {x} is None else {e})"
        origin = typing.get_origin(tp)
        if origin is tuple:
            args = typing.get_args(tp)
            if len(args) == 2 and args[1] is Ellipsis:
                if getattr(args[0], _SHARED, None) is not None:  # written once per tuple (``shared``)
                    return f"{self.bind(_tuple_writer(args[0]))}({x})"
                y = self.var()
                e = self.enc(args[0], y)
                return f"list({x})" if e == y else f"[{e} for {y} in {x}]"
            if all(self.enc(a, "_") == "_" for a in args):
                return f"list({x})"
            return f"{self.bind(encoder_for(tp))}({x})"
        if origin in (dict, Mapping):
            kt, vt = typing.get_args(tp)
            k, w = self.var(), self.var()
            key = k if kt is str else f"str({k})"
            e = self.enc(vt, w)
            return f"dict({x})" if (key == k and e == w) else f"{{{key}: {e} for {k}, {w} in {x}.items()}}"
        if isinstance(tp, type) and dataclasses.is_dataclass(tp):
            if x.isidentifier() and _kept_size(tp) is None:  # an element of a collection: written in place
                return self.enc_fields(tp, x)
            return f"{self.bind(encoder(tp))}({x})"
        if isinstance(tp, type) and issubclass(tp, enum.Enum):
            return f"{x}.value"
        return f"encode_any({x})"

    def enc_fields(self, cls: type, x: str) -> str:
        """An expression encoding the dataclass instance ``x`` (evaluated once per field)."""
        fields = _fields(cls)
        parts = [self.enc(tp, f"{x}.{name}") for name, tp in fields]
        if _is_row(cls):
            return "[" + ", ".join(parts) + "]"
        return "{" + ", ".join(f"{name!r}: {part}" for (name, _), part in zip(fields, parts, strict=True)) + "}"

    # --- decoding -------------------------------------------------------------------------

    def dec(self, tp: Any, d: str) -> str:
        """An expression rebuilding a ``tp`` from ``d`` (an expression); ``d`` may be evaluated twice."""
        if tp in _SCALARS or tp is Any:
            return d
        inner = _optional(tp)
        if inner is not None:
            e = self.dec(inner, d)
            return d if e == d else f"(None if {d} is None else {e})"
        origin = typing.get_origin(tp)
        if origin is tuple:
            args = typing.get_args(tp)
            if len(args) == 2 and args[1] is Ellipsis:
                size = getattr(args[0], _SHARED, None)
                if size is not None:  # a tuple of shared records: the one decoded before (``shared``)
                    return f"{self.bind(_tuple_reader(args[0], size))}({d})"
                y = self.var()
                e = self.dec(args[0], y)
                return f"tuple({d})" if e == y else f"tuple([{e} for {y} in {d}])"
            return f"{self.bind(decoder_for(tp))}({d})"
        if origin in (dict, Mapping):
            kt, vt = typing.get_args(tp)
            k, w = self.var(), self.var()
            key = f"int({k})" if kt is int else k
            e = self.dec(vt, w)
            return f"dict({d})" if (key == k and e == w) else f"{{{key}: {e} for {k}, {w} in {d}.items()}}"
        if isinstance(tp, type) and dataclasses.is_dataclass(tp):
            if d.isidentifier() and _assigns_only(tp) and _kept_size(tp) is None:  # an element: built in place
                return self.dec_fields(tp, d)
            return f"{self.bind(decoder(tp))}({d})"
        if isinstance(tp, type) and issubclass(tp, enum.Enum):
            return f"{self.bind(tp)}({d})"
        return d

    def dec_fields(self, cls: type, d: str) -> str:
        """An expression building the dataclass ``cls`` (``_assigns_only``) from ``d``: a new
        instance handed its fields' dict at once (``object.__new__``, then its ``__dict__`` set),
        written out in place: no call of a function of ours per instance."""
        fields = _fields(cls)
        if _is_row(cls):
            args = [self.dec(tp, f"{d}[{i}]") for i, (_, tp) in enumerate(fields)]
        else:
            args = [self.dec(tp, f"{d}[{name!r}]") for name, tp in fields]
        o = self.var()
        size = getattr(cls, _SHARED, None)
        if size is not None:  # one instance per value (``shared``): looked up by its fields' values
            kept = _SHARED_TABLES.get(cls)
            if kept is None:
                table: dict[tuple[Any, ...], Any] = {}
                kept = _SHARED_TABLES[cls] = (table, _sharer(cls, tuple(name for name, _ in fields), table, size))
            table, build = kept
            key = "(" + ", ".join(args) + ("," if len(args) == 1 else "") + ")"
            return f"({self.bind(table)}.get({o} := {key}) or {self.bind(build)}({o}))"
        items = ", ".join(f"{name!r}: {arg}" for (name, _), arg in zip(fields, args, strict=True))
        return (f"({o} := {self.bind(object.__new__)}({self.bind(cls)}), "
                f"{self.bind(object.__setattr__)}({o}, '__dict__', {{{items}}}))[0]")

    def compile(self, name: str, body: str) -> Codec:
        source = f"def {name}(_v):\n    return {body}\n"
        exec(compile(source, f"<snapshot {name}>", "exec"), self.names)  # noqa: S102 - our own generated source
        fn: Codec = self.names[name]
        return fn


def _fields(cls: type) -> list[tuple[str, Any]]:
    hints = typing.get_type_hints(cls)
    return [(f.name, hints[f.name]) for f in dataclasses.fields(cls) if f.init]


_ENCODERS: dict[type, Codec] = {}
_DECODERS: dict[type, Codec] = {}


def encoder(cls: type) -> Codec:
    """The compiled encoder of the dataclass ``cls``: an instance -> a dict (a list for a ``@row`` class)."""
    fn = _ENCODERS.get(cls)
    if fn is None:
        fn = _compile_encoder(cls)
        if _kept_size(cls) is not None:
            fn = _keeping_encoder(fn)
        _ENCODERS[cls] = fn
    return fn


def decoder(cls: type) -> Codec:
    """The compiled decoder of the dataclass ``cls``: what ``encoder(cls)`` wrote -> an equal instance."""
    fn = _DECODERS.get(cls)
    if fn is None:
        fn = _compile_decoder(cls)
        size = _kept_size(cls)
        if size is not None:
            fn = _keeping_decoder(fn, _KEPT_TABLES.setdefault(cls, {}), size)
        _DECODERS[cls] = fn
    return fn


def _compile_encoder(cls: type) -> Codec:
    src = _Source()
    return src.compile("encode_row" if _is_row(cls) else "encode_object", src.enc_fields(cls, "_v"))


def _compile_decoder(cls: type) -> Codec:
    src = _Source()
    if _assigns_only(cls):
        return src.compile("decode", src.dec_fields(cls, "_v"))
    fields = _fields(cls)
    if _is_row(cls):
        args = [src.dec(tp, f"_v[{i}]") for i, (_, tp) in enumerate(fields)]
    else:
        args = [src.dec(tp, f"_v[{name!r}]") for name, tp in fields]
    return src.compile("decode", f"{src.bind(cls)}(" + ", ".join(args) + ")")


def _assigns_only(cls: type) -> bool:
    """Whether ``cls``'s ``__init__`` only assigns its fields (the dataclass default: every field an
    ``__init__`` argument, no ``__post_init__``, no ``__slots__``), so that an instance can be built
    with its fields' dict at once (``_Source.dec_fields``): a frozen dataclass's ``__init__`` sets each field
    through ``object.__setattr__``, which is most of decoding a state of many small records."""
    return (dataclasses.is_dataclass(cls) and not hasattr(cls, "__post_init__") and not hasattr(cls, "__slots__")
            and all(f.init for f in dataclasses.fields(cls)))


@cache
def encoder_for(tp: Any) -> Codec:
    """The compiled encoder of any hint (a fixed-size tuple, say), for values nested in a state."""
    src = _Source()
    if typing.get_origin(tp) is tuple and not (len(typing.get_args(tp)) == 2 and typing.get_args(tp)[1] is Ellipsis):
        parts = [src.enc(a, f"_v[{i}]") for i, a in enumerate(typing.get_args(tp))]
        return src.compile("encode_tuple", "[" + ", ".join(parts) + "]")
    return src.compile("encode_value", src.enc(tp, "_v"))


@cache
def decoder_for(tp: Any) -> Codec:
    """The compiled decoder of any hint: ``encoder_for(tp)``'s output -> the value."""
    src = _Source()
    if typing.get_origin(tp) is tuple and not (len(typing.get_args(tp)) == 2 and typing.get_args(tp)[1] is Ellipsis):
        parts = [src.dec(a, f"_v[{i}]") for i, a in enumerate(typing.get_args(tp))]
        return src.compile("decode_tuple", "(" + ", ".join(parts) + ("," if len(parts) == 1 else "") + ")")
    return src.compile("decode_value", src.dec(tp, "_v"))


def encode(value: Any) -> Any:
    """JSON-native data for ``value`` (a dataclass state, usually)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return encoder(type(value))(value)
    return encode_any(value)


def decode(tp: type[T], data: Any) -> T:
    """Rebuild a value of type ``tp`` (a dataclass) from ``encode``'s output."""
    value: T = decoder(tp)(data)
    return value
