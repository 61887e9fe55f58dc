"""Generic snapshot codec for frozen dataclass states.

``encode`` turns a dataclass of tuples, ints, strs, bools, None, enums and nested
dataclasses into JSON-native data; ``decode`` rebuilds it from the type hints, so
``decode(cls, encode(s)) == s``. Engines may use it or write their own codec.
"""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from collections.abc import Mapping
from functools import cache
from typing import Any, TypeVar

T = TypeVar("T")


def encode(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: encode(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, tuple | list):
        return [encode(v) for v in value]
    if isinstance(value, dict):
        return {str(k): encode(v) for k, v in value.items()}
    return value


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def decode(tp: Any, data: Any) -> Any:
    """Rebuild a value of type ``tp`` from ``encode``'s output."""
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(tp) if a is not type(None)]
        if data is None:
            return None
        return decode(args[0], data) if len(args) == 1 else data
    if origin is tuple:
        args = typing.get_args(tp)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(decode(args[0], v) for v in data)
        return tuple(decode(a, v) for a, v in zip(args, data, strict=True))
    if origin in (dict, Mapping, typing.Mapping):
        kt, vt = typing.get_args(tp)
        return {(int(k) if kt is int else k): decode(vt, v) for k, v in data.items()}
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        hints = _hints(tp)
        return tp(**{f.name: decode(hints[f.name], data[f.name]) for f in dataclasses.fields(tp) if f.init})
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return tp(data)
    return data


def from_json(cls: type[T], data: Mapping[str, Any]) -> T:
    return decode(cls, data)  # type: ignore[no-any-return]
