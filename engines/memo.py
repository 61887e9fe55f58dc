"""How an object of a state shows in a view, worked out once and kept with the object (or, for a
tuple, by its identity).

A state is a value: a move builds a new state, but the parts it does not touch (the melds already on
the table, the record of the last hand) are the very same objects in the state after it. A view of
the next state (the next request of the game, on a worker that kept the state it wrote) shows them
again; ``keep`` stores what they show as (their JSON, with whatever else it was worked out from,
to be checked on the way back) on the object itself, beside its fields, so
that it is worked out once per object and let go with it (no table to look it up in, nothing kept
longer than the object). The codec, equality, hashing and ``repr`` of a dataclass read only its
fields, so a kept answer changes none of them; a copy made by ``engines.core.evolve`` leaves it
behind (the copy's fields may differ).

A tuple holds no attribute: ``Kept`` keeps what tuples show as by their identity instead, each tuple
held with its answer (so that its ``id`` is not reused while the answer is kept), at most ``size`` of
them (then all are let go).

What is kept is shared by every caller: JSON for a view or an event, read and encoded, never changed.
"""

from __future__ import annotations

from typing import Any, Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")

#: The name the JSON is kept under, on the object (no field has it): ``obj.__dict__.get(SHOWN)`` reads
#: it back (None when nothing is kept), with no call on the way (a view reads it per meld).
SHOWN = "_shown"

#: ``keep(obj, SHOWN, answer)`` keeps ``answer`` (JSON, never changed) on the frozen dataclass ``obj``
#: (``object.__setattr__`` itself: a frozen dataclass refuses its own ``setattr``).
keep = object.__setattr__


class Kept(Generic[K, V]):
    """What immutable objects that hold no attribute (tuples) show as, by the object's identity."""

    __slots__ = ("_kept", "_size")

    def __init__(self, size: int = 1024) -> None:
        self._kept: dict[int, tuple[K, V]] = {}
        self._size = size

    def get(self, obj: K) -> V | None:
        """The answer kept for this very object, or None."""
        hit = self._kept.get(id(obj))
        return hit[1] if hit is not None and hit[0] is obj else None

    def put(self, obj: K, answer: V) -> V:
        """Keep ``answer`` for ``obj``; answers it."""
        kept = self._kept
        if len(kept) >= self._size:
            kept.clear()
        kept[id(obj)] = (obj, answer)
        return answer

    def clear(self) -> None:
        """Let go of every answer kept."""
        self._kept.clear()


class ShownObject(dict[str, Any]):
    """A JSON object kept as shown (``keep``, ``Kept``), for every reader a dict like any other. A writer
    that knows it (``service.records.dumps``) writes its text once, keeps it in ``written``, and copies
    that text every time after: a large part of a view that most moves leave as it was (a finished
    hand's count) is then not written out again on every answer. Never to be changed, as all that is
    kept; a copy is a plain dict (a text kept does not follow it)."""

    __slots__ = ("written",)

    def __reduce__(self) -> tuple[type, tuple[dict[str, object]]]:
        return dict, (dict(self),)


class ShownArray(list[Any]):
    """``ShownObject`` for a JSON array (the melds on a table)."""

    __slots__ = ("written",)

    def __reduce__(self) -> tuple[type, tuple[list[object]]]:
        return list, (list(self),)
