"""How an object of a state shows in a view, worked out once and kept with the object.

A state is a value: a move builds a new state, but the parts it does not touch (the melds already on
the table, the record of the last hand) are the very same objects in the state after it. A view of
the next state (the next request of the game, on a worker that kept the state it wrote) shows them
again; ``keep`` stores what they show as (their JSON) on the object itself, beside its fields, so
that it is worked out once per object and let go with it (no table to look it up in, nothing kept
longer than the object). The codec, equality, hashing and ``repr`` of a dataclass read only its
fields, so a kept answer changes none of them; a copy made by ``engines.core.evolve`` leaves it
behind (the copy's fields may differ).

What is kept is shared by every caller: JSON for a view or an event, read and encoded, never changed.
"""

from __future__ import annotations

from typing import TypeVar

V = TypeVar("V")

#: The name the JSON is kept under, on the object (no field has it): ``obj.__dict__.get(SHOWN)`` reads
#: it back (None when nothing is kept), with no call on the way (a view reads it per meld).
SHOWN = "_shown"


def keep(obj: object, answer: V) -> V:
    """Keep ``answer`` (JSON, never changed) on the frozen dataclass ``obj``; answers it."""
    object.__setattr__(obj, SHOWN, answer)
    return answer
