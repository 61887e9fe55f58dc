"""Position builders for the Siebenschläfer rules tests (seeds/siebenschlaefer.md).

``deck_for`` lays out a whole 104-card deck so that ``new_game`` deals the given hands and stock
(section 2); ``table`` builds a mid-round State directly.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from engines.cards import rank_of
from engines.siebenschlaefer import ENGINE
from engines.siebenschlaefer.options import Settings
from engines.siebenschlaefer.state import FULL_DECK, HAND_SIZE, State, sort_hand


def deck_for(hands: Sequence[Sequence[str]], stock_top: Sequence[str] = ()) -> list[str]:
    """A full deck dealing ``hands`` (each topped up to 10 cards with cards that are no 2, 7 or ace)
    and a stock that starts with ``stock_top``; the rest of the stock follows in FULL_DECK order."""
    rest = Counter(FULL_DECK)
    rest.subtract(Counter([c for h in hands for c in h] + list(stock_top)))
    assert all(v >= 0 for v in rest.values()), "more copies than two decks hold"
    spare = [c for c in FULL_DECK if rank_of(c) not in ("2", "7", "A")]
    full_hands = []
    for h in hands:
        h = list(h)
        for c in spare:
            if len(h) == HAND_SIZE:
                break
            if rest[c] > 0:
                rest[c] -= 1
                h.append(c)
        assert len(h) == HAND_SIZE
        full_hands.append(h)
    n = len(hands)
    deck = [full_hands[s][i] for i in range(HAND_SIZE) for s in range(n)]
    deck += list(stock_top)
    for c in FULL_DECK:
        if rest[c] > 0:
            rest[c] -= 1
            deck.append(c)
    assert sorted(deck) == sorted(FULL_DECK)
    return deck


def table(
    hands: Sequence[Sequence[str]],
    *,
    target: int | None = None,
    stock: Sequence[str] = (),
    pile: Sequence[str] | None = None,
    current: int = 0,
    has_drawn: bool = False,
    passes: int = 0,
    seed: str = "t",
    **options: object,
) -> State:
    """A mid-round position: the given hands, stock (top first) and pile (bottom first; by default
    a top pair worth ``target``), with ``current`` to move. Options as in section 10."""
    base = ENGINE.new_game(len(hands), options, seed)  # validates the options
    settings: Settings = base.settings
    if pile is None:
        pile = () if target is None else _pair_worth(target)
    return State(
        players=len(hands),
        settings=settings,
        seed=seed,
        round=0,
        hands=tuple(sort_hand(list(h)) for h in hands),
        stock=tuple(stock),
        pile=tuple(pile),
        top_kind="play" if pile else "none",
        target=target,
        current=current,
        has_drawn=has_drawn,
        passes=passes,
        reshuffles=0,
        opener=0,
        lots=(),
        moves=0,
        totals=(0,) * len(hands),
        paid=(0,) * len(hands),
        history=(),
        events=(),
        status="active",
    )


def _pair_worth(value: int) -> tuple[str, str]:
    """Two cards (no 7s) whose pair value is ``value`` (4..20), for a realistic top pair."""
    if value >= 12 and value % 2 == 0 and value != 14:
        return ("KD", str(value // 2) + "D")
    for a in range(2, 11):
        b = value - a
        if 2 <= b <= 10 and 7 not in (a, b):
            return (f"{a}D", f"{b}C")
    return ("JD", f"{value // 2}D")
