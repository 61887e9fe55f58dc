"""What a seat (or a spectator) may see of a game of Siebenschläfer (seeds/siebenschlaefer.md section 13).

A seat sees its own hand, every hand's size, the stock's size, the played pile's size and its
top pair, the value to beat and the public record (lots, events, finished rounds). Nobody sees
the stock's order, another hand or the seed. ``hidden`` says where the cards a seat cannot see lie.
"""

from __future__ import annotations

from engines.core import JSON
from engines.hidden import Hidden
from engines.siebenschlaefer.events import round_json
from engines.siebenschlaefer.rules import pass_threshold
from engines.siebenschlaefer.state import State, sort_hand


def view(state: State, seat: int | None) -> dict[str, JSON]:
    """The ``state`` part of ``seat``'s view (None = spectator: the table only). The played pile is the
    game's discard pile (``discard_count``, ``discard_top``); the match totals are its ``scores``
    (the fewest points win); the value to exceed is ``to_beat`` (``target`` names a match target in
    other games)."""
    active = state.status == "active"
    own = seat is not None and 0 <= seat < state.players
    hand = list(state.hands[seat]) if seat is not None and own else None
    return {
        "round": state.round + 1,
        "rounds": state.settings.rounds,
        "status": state.status,
        "current": state.current if active else None,
        "opener": state.opener,
        "lots": [{"seat": s, "card": c} for s, c in state.lots],
        "hand": hand,
        "hand_counts": [len(h) for h in state.hands],
        "stock_count": len(state.stock),
        "discard_count": len(state.pile),
        "discard_top": state.pile[-1] if state.pile else None,
        "top": list(state.pile[-2:]) if len(state.pile) >= 2 else None,
        "top_kind": None if state.top_kind == "none" else state.top_kind,
        "to_beat": state.target,
        "free": state.target is None,
        "has_drawn": state.has_drawn,
        "drawn": drawn(state, seat) if own and active and seat == state.current and state.has_drawn else None,
        "passes": state.passes,
        "pass_threshold": pass_threshold(state),
        "moves": state.moves,
        "max_turns": state.settings.max_turns,
        "stalled_round": state.settings.stalled_round,
        "scores": list(state.totals),
        "paid": list(state.paid),
        "last_round": round_json(state.history[-1]) if state.history else None,
        "events": [e.for_viewer(seat) for e in state.events],
    }


def drawn(state: State, seat: int) -> list[str]:
    """The cards ``seat`` drew this turn, as its ``drew`` event shows them to it (section 13)."""
    for e in state.events:
        if e.type == "drew" and e.public["reason"] == "draw" and e.public["seat"] == seat:
            return list(e.for_viewer(seat).get("cards", []))
    return []


def hidden(state: State, seat: int | None) -> tuple[Hidden, ...]:
    """Where the cards hidden from ``seat`` lie (``engines.hidden``): the other hands and the stock.
    The played pile is public: every pair was laid face up."""
    others = tuple(Hidden("hands", s, order=sort_hand) for s in range(state.players) if s != seat)
    return (*others, Hidden("stock"))


def seat_facts(state: State) -> tuple[tuple[int, int | None], ...]:
    """Each seat's cards in hand and its counted points so far (section 11: the fewest win)."""
    return tuple((len(hand), total) for hand, total in zip(state.hands, state.totals, strict=True))
