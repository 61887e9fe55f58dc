"""Where the cards hidden from a seat lie, and the one way every game deals them anew.

A game declares the places of a state whose cards a seat cannot see (``Hidden``: the other hands,
the stock, a dead pile), with what that seat knows about them: cards known to lie in a place, and
cards a place cannot hold. ``deal`` pools the unknown cards and deals them back, every place keeping
its size and its known cards. Core uses it twice: ``determinize`` (a world a bot may search, with a
seed of its own) and the leak checks' ``shuffle_hidden`` (a view must not change when the hidden
cards lie differently).

The pool is sorted before it is shuffled, so a dealt world depends on what the seat knows and on
the seed, never on how the real hidden cards lie.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar, cast

from engines.cards import remove_cards, shuffled

S = TypeVar("S")


@dataclass(frozen=True)
class Hidden:
    """One place of a state whose cards a seat cannot see.

    ``field`` names the state's field; ``index`` the place within it when the field holds one place
    per seat (``hands``). ``known`` are cards the seat knows lie here (they stay); ``allows`` says
    which cards the place may hold (None: any), e.g. no red 3 in the hand of a player who laid his
    out; ``order`` keeps the place's cards in the game's order (a sorted hand; None: as dealt).
    """

    field: str
    index: int | None = None
    known: tuple[str, ...] = ()
    allows: Callable[[str], bool] | None = None
    order: Callable[[Sequence[str]], tuple[str, ...]] | None = None

    def cards(self, state: Any) -> tuple[str, ...]:
        """The cards this place holds in ``state``."""
        held = getattr(state, self.field)
        cards: tuple[str, ...] = held if self.index is None else held[self.index]
        return cards


def deal(state: S, places: Sequence[Hidden], seed: str, purpose: str) -> S:
    """``state`` with the unknown cards of ``places`` dealt anew by ``shuffled(pool, seed, purpose)``.

    Places that restrict their cards (``allows``) are dealt first, each taking the first cards it
    may hold; the others then take the rest in order, the last of them what is left. The real state
    is one such deal, so restricted places always find their cards when they share one restriction
    (the only kind a game declares).
    """
    if not places:
        return state
    held = [p.cards(state) for p in places]
    unknown = []
    for place, cards in zip(places, held, strict=True):
        rest = remove_cards(cards, place.known)
        assert rest is not None, f"{place.field}: known cards {place.known} are not there"
        unknown.append(rest)
    mixed = list(shuffled(sorted(c for cards in unknown for c in cards), seed, purpose))
    dealt: list[tuple[str, ...]] = [()] * len(places)
    for i in sorted(range(len(places)), key=lambda i: places[i].allows is None):
        place, size = places[i], len(unknown[i])
        allows = place.allows
        if allows is None:
            take, mixed = mixed[:size], mixed[size:]
        else:
            picked = [k for k, c in enumerate(mixed) if allows(c)][:size]
            take = [mixed[k] for k in picked]
            for k in reversed(picked):
                del mixed[k]
        assert len(take) == size, f"{place.field}: {size} cards wanted, {len(take)} found"
        cards = (*place.known, *take)
        dealt[i] = place.order(cards) if place.order is not None else tuple(cards)
    assert not mixed
    changes: dict[str, Any] = {}
    for place, cards in zip(places, dealt, strict=True):
        if place.index is None:
            changes[place.field] = cards
        else:
            changes.setdefault(place.field, list(getattr(state, place.field)))[place.index] = cards
    out: S = dataclasses.replace(cast(Any, state), **{k: tuple(v) if isinstance(v, list) else v
                                                      for k, v in changes.items()})
    return out
