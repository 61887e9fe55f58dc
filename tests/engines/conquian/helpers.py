"""Position builders for the Conquian rules tests (seeds/conquian.md).

Positions come from fixed decks (``deck_for``) or are written down directly (``position``); no test
hunts for a seed.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any

from engines.conquian import ENGINE
from engines.conquian.melds import DECK, canonical, sort_hand
from engines.conquian.state import ConquianState
from engines.core import Move, move_from_json

SEED = "conquian-test"


def deck_for(hand0: Sequence[str], hand1: Sequence[str], stock_top: Sequence[str] = ()) -> list[str]:
    """A full deck, top first, that deals ``hand0`` to the non-dealer and ``hand1`` to the dealer
    (seeds/conquian.md 2.2); the stock starts with ``stock_top``, the other cards follow in DECK order."""
    assert len(hand0) == len(hand1) == 10
    used = [*hand0, *hand1, *stock_top]
    assert len(set(used)) == len(used)
    rest = [c for c in DECK if c not in used]
    return [c for pair in zip(hand0, hand1, strict=True) for c in pair] + list(stock_top) + rest


def new(hand0: Sequence[str], hand1: Sequence[str], stock_top: Sequence[str] = (), **options: Any) -> ConquianState:
    """A new match whose first deal gives seat 0 (non-dealer, moves first) ``hand0`` and seat 1 ``hand1``."""
    opts = {"first_dealer": "seat1", **options}
    return ENGINE.new_game(2, opts, SEED, deck_for(hand0, hand1, stock_top))


def position(
    *,
    hands: tuple[Iterable[str] | None, Iterable[str] | None],
    melds: tuple[Iterable[Iterable[str]], Iterable[Iterable[str]]] = ((), ()),
    phase: str = "choose",
    turn: int = 0,
    offer: str | None = None,
    face_up: str | None = None,
    stock_top: Sequence[str] = (),
    stock_size: int | None = None,
    dead: Sequence[str] = (),
    **fields: Any,
) -> ConquianState:
    """A mid-deal position (seat 1 dealt). A hand given as None is filled with the first cards (in DECK
    order) placed nowhere else, up to ``10 - melded``. The stock is ``stock_top`` followed by the cards
    placed nowhere else (cut to ``stock_size`` if given, the cut cards going to ``dead``), so all 40 cards
    are accounted for. ``fields`` sets further state fields (scores, ...); options go in ``options=``."""
    rules = fields.pop("options", {})
    base = ENGINE.new_game(2, {"first_dealer": "seat1", **rules}, SEED)
    m0, m1 = (canonical(m) for m in melds)
    placed = [*(c for h in hands if h is not None for c in h), *(c for m in m0 for c in m)]
    placed += [*(c for m in m1 for c in m), *stock_top, *dead]
    placed += [c for c in (offer, face_up) if c is not None]
    filled = []
    for hand, meld in zip(hands, (m0, m1), strict=True):
        if hand is None:
            hand = [c for c in DECK if c not in placed][: 10 - sum(len(m) for m in meld)]
            placed += hand
        filled.append(sort_hand(hand))
    h0, h1 = filled
    assert len(set(placed)) == len(placed), "a card is placed twice"
    stock = list(stock_top) + [c for c in DECK if c not in placed]
    dead = list(dead)
    if stock_size is not None:
        dead += stock[stock_size:]
        stock = stock[:stock_size]
    return replace(
        base,
        hands=(h0, h1),
        melds=(m0, m1),
        phase=phase,
        turn=turn,
        offer=offer,
        face_up=face_up,
        stock=tuple(stock),
        dead=tuple(dead),
        **fields,
    )


def mv(data: dict[str, Any]) -> Move:
    return move_from_json(ENGINE.move_types, data)


def play(state: ConquianState, seat: int, data: dict[str, Any]) -> ConquianState:
    """Apply a move given as its JSON body."""
    return ENGINE.apply(state, seat, mv(data))


def listed(state: ConquianState, seat: int) -> list[dict[str, Any]]:
    return [m.to_json() for m in ENGINE.legal_moves(state, seat)]


def listed_melds(state: ConquianState, seat: int) -> list[list[list[str]]]:
    return [m["melds"] for m in listed(state, seat) if m["type"] == "meld"]


def all_cards(state: ConquianState) -> list[str]:
    """Every card of the current deal, wherever it is (for the conservation invariant)."""
    cards = [*state.stock, *state.dead, *state.hands[0], *state.hands[1]]
    cards += [c for a in state.melds for m in a for c in m]
    cards += [c for c in (state.offer, state.face_up) if c is not None]
    return cards
