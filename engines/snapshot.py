"""Generic snapshot codec for frozen dataclass states.

``encode`` turns a dataclass of tuples, ints, strs, bools, None, enums and nested
dataclasses into JSON-native data; ``decode`` rebuilds it from the type hints, so
``decode(cls, encode(s)) == s``. Engines may use it or write their own codec.

Both directions are compiled once per type into plain closures (the type hints are
read once, not per value), because a snapshot is decoded and encoded on every request.
"""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from collections.abc import Callable, Mapping
from functools import cache
from typing import Any, TypeVar

T = TypeVar("T")
Codec = Callable[[Any], Any]


def _identity(value: Any) -> Any:
    return value


def _encode_any(value: Any) -> Any:
    """Encode by the value's runtime type (for fields whose hint says little)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return _class_encoder(type(value))(value)
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, tuple | list):
        return [_encode_any(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _encode_any(v) for k, v in value.items()}
    return value


@cache
def _class_encoder(cls: type) -> Codec:
    hints = typing.get_type_hints(cls)
    parts = [(f.name, _encoder(hints[f.name])) for f in dataclasses.fields(cls)]

    def encode_instance(value: Any) -> dict[str, Any]:
        return {name: enc(getattr(value, name)) for name, enc in parts}

    return encode_instance


@cache
def _encoder(tp: Any) -> Codec:
    origin = typing.get_origin(tp)
    if tp in (str, int, bool, float, type(None)):
        return _identity
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(tp) if a is not type(None)]
        if len(args) == 1:
            inner = _encoder(args[0])
            if inner is _identity:
                return _identity
            return lambda v: None if v is None else inner(v)
        return _encode_any
    if origin is tuple:
        args = typing.get_args(tp)
        if len(args) == 2 and args[1] is Ellipsis:
            inner = _encoder(args[0])
            if inner is _identity:
                return list
            return lambda v: [inner(x) for x in v]
        encs = [_encoder(a) for a in args]
        return lambda v: [e(x) for e, x in zip(encs, v, strict=True)]
    if origin in (dict, Mapping, typing.Mapping):
        _, vt = typing.get_args(tp)
        venc = _encoder(vt)
        return lambda v: {str(k): venc(x) for k, x in v.items()}
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        return _class_encoder(tp)
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return lambda v: v.value
    return _encode_any


@cache
def _decoder(tp: Any) -> Codec:
    origin = typing.get_origin(tp)
    if tp in (str, int, bool, float, type(None)) or tp is Any:
        return _identity
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(tp) if a is not type(None)]
        if len(args) != 1:
            return _identity
        inner = _decoder(args[0])
        if inner is _identity:
            return _identity
        return lambda d: None if d is None else inner(d)
    if origin is tuple:
        args = typing.get_args(tp)
        if len(args) == 2 and args[1] is Ellipsis:
            inner = _decoder(args[0])
            if inner is _identity:
                return tuple
            return lambda d: tuple([inner(x) for x in d])
        decs = [_decoder(a) for a in args]
        return lambda d: tuple([f(x) for f, x in zip(decs, d, strict=True)])
    if origin in (dict, Mapping, typing.Mapping):
        kt, vt = typing.get_args(tp)
        vdec = _decoder(vt)
        key = int if kt is int else _identity
        return lambda d: {key(k): vdec(x) for k, x in d.items()}
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        hints = typing.get_type_hints(tp)
        parts = [(f.name, _decoder(hints[f.name])) for f in dataclasses.fields(tp) if f.init]
        return lambda d: tp(**{name: dec(d[name]) for name, dec in parts})
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return tp
    return _identity


def encode(value: Any) -> Any:
    """JSON-native data for ``value`` (a dataclass state, usually)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return _class_encoder(type(value))(value)
    return _encode_any(value)


def decode(tp: Any, data: Any) -> Any:
    """Rebuild a value of type ``tp`` from ``encode``'s output."""
    return _decoder(tp)(data)


def from_json(cls: type[T], data: Mapping[str, Any]) -> T:
    return decode(cls, data)  # type: ignore[no-any-return]
