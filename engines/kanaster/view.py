"""What a seat (or a spectator) sees of a match of Kanaster (seeds/kanaster.md section 14).

Own hand only; other hands and the talon as counts; the talon's order and the seed never.
The discard pile is shown whole: every card in it was face up when it was put there.
"""

from __future__ import annotations

from dataclasses import replace

from engines.cards import shuffled
from engines.core import JSON, Move

from .melds import hand_order, is_canasta, is_natural, points, sort_hand
from .rules import has_canasta, has_melded, pile_block, pile_frozen
from .scoring import minimum_meld
from .state import HandRecord, KanasterState


def _hand_record(record: HandRecord | None) -> dict[str, JSON] | None:
    if record is None:
        return None
    return {
        "number": record.number,
        "went_out": record.went_out,
        "concealed": record.concealed,
        "seats": [
            {
                "table": s.table,
                "canastas": s.canastas,
                "red_threes": s.red_threes,
                "hand": s.hand,
                "going_out": s.going_out,
                "total": s.total,
                "hand_cards": list(s.hand_cards),
            }
            for s in record.seats
        ],
    }


def view(state: KanasterState, seat: int | None) -> dict[str, JSON]:
    """The ``state`` part of a view for ``seat`` (None = spectator)."""
    rules = state.rules
    running = not state.over
    canasta_ranks = sorted({m.rank for m in state.melds if is_canasta(m)}, key=lambda r: hand_order(r + "C"))
    return {
        "hand_number": state.hand_number,
        "dealer": state.dealer,
        "cutter": state.cutter,
        "cut_cards": list(state.cut),
        "current": state.current if running else None,
        "phase": state.phase,
        "hand": list(state.hands[seat]) if seat is not None else None,
        "seats": [
            {
                "seat": s,
                "hand_count": len(state.hands[s]),
                "score": state.scores[s],
                "minimum": minimum_meld(state.scores[s], rules),
                "melded": has_melded(state, s),
                "canasta": has_canasta(state, s),
                "red_threes": list(state.red_threes[s]),
            }
            for s in range(state.players)
        ],
        "talon_count": len(state.talon),
        "pile": list(state.pile),
        "pile_top": state.pile[-1] if state.pile else None,
        "pile_blocked": running and pile_block(state, state.current) is not None,
        "pile_frozen": pile_frozen(state),
        "blocking_ranks": canasta_ranks,
        "melds": [
            {
                "id": i,
                "owner": m.owner,
                "rank": m.rank,
                "cards": list(m.cards),
                "tucked": list(m.tucked),
                "canasta": is_canasta(m),
                "natural": is_natural(m),
                "points": points(m.cards),
            }
            for i, m in enumerate(state.melds)
        ],
        "turn": {
            "took_pile": state.took_pile,
            "pile_cards": list(state.pile_taken),
            "first_meld": state.first_meld_turn,
        },
        "target": rules.target,
        "max_hands": rules.max_hands,
        "hand_cap": rules.hand_cap,
        "max_turns": rules.max_turns,
        "turns": state.turns,
        "hands_played": len(state.history),
        "history": [list(h) for h in state.history],
        "last_hand": _hand_record(state.last_hand),
    }


def redact_move(state_before: KanasterState, seat: int, move: Move, viewer: int | None) -> dict[str, JSON]:
    """Every Kanaster move is public as posted: a draw names no card, melds and discards are
    laid face up (red 3s laid out by the engine show in the view, not in the log)."""
    return move.to_json()


def shuffle_hidden(state: KanasterState, seat: int | None, seed: str) -> KanasterState:
    """Test hook: permute the cards hidden from ``seat`` -- the other hands and the talon --
    among those places, each keeping its size."""
    hidden = [s for s in range(state.players) if s != seat]
    pool = [c for s in hidden for c in state.hands[s]] + list(state.talon)
    mixed = list(shuffled(pool, seed, "shuffle_hidden"))
    hands = list(state.hands)
    for s in hidden:
        n = len(state.hands[s])
        hands[s] = sort_hand(mixed[:n])
        del mixed[:n]
    assert len(mixed) == len(state.talon)
    return replace(state, hands=tuple(hands), talon=tuple(mixed))
