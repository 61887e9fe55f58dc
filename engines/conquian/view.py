"""What a seat (or a spectator) may see of a Conquian match (seeds/conquian.md 7).

A seat sees its own hand; the opponent's hand and the stock only as counts. Everything else is on
the table: both players' melds, the offered card, the face-up card, the dead discards, the cut, the
score and the stake. The seed and the stock order never appear. Every move is public once made (a
meld shows its cards, a discard its card), so the log shows moves as they were posted.
``hidden`` says where the cards a seat cannot see lie.
"""

from __future__ import annotations

from typing import Any

from engines.hidden import Hidden

from .events import deal_summary_json
from .melds import Arrangement, melded_cards, sort_hand
from .rules import _meld_target, stake, to_move
from .state import OVER, ConquianState


def _arrangement(a: Arrangement) -> list[list[str]]:
    return [list(m) for m in a]


def _meld_rule(state: ConquianState, seat: int | None) -> dict[str, Any] | None:
    """A hint for building unlisted meld moves: which card the melds must include, and whether hand
    cards may join (seeds/conquian.md 4.3). None unless ``seat`` is to move and may meld."""
    if seat is None or seat not in to_move(state):
        return None
    card, hand_ok, required = _meld_target(state)
    if card is None:
        return None
    return {"card": card, "card_required": required, "hand_cards": hand_ok}


def view(state: ConquianState, seat: int | None) -> dict[str, Any]:
    """The ``state`` part of a view for ``seat`` (None = spectator). ``current`` is the stored ``turn``:
    the seat whose turn it is, under the name every game gives it (in the force phases its opponent
    decides, so the view's ``to_move`` names the opponent then)."""
    ld = state.last_deal
    r = state.rules
    return {
        "deal": state.deal,
        "dealer": state.dealer,
        "cut": list(state.cut),
        "phase": state.phase,
        "current": None if state.phase == OVER else state.turn,
        "stake": stake(state),
        "draws_in_a_row": state.draws_in_a_row,
        "drawn_deals": state.drawn_deals,
        "scores": list(state.scores),
        "target": r.target,
        "max_deals": r.max_deals,
        "stock_count": len(state.stock),
        "offer": state.offer,
        "face_up": state.face_up,
        "dead": list(state.dead),
        "melds": [_arrangement(a) for a in state.melds],
        "melded_counts": [len(melded_cards(a)) for a in state.melds],
        "hand_counts": [len(h) for h in state.hands],
        "hand": None if seat is None else list(state.hands[seat]),
        "meld_rule": _meld_rule(state, seat),
        "last_deal": None if ld is None else deal_summary_json(ld),
        "end": state.end if state.phase == OVER else None,
    }


def hidden(state: ConquianState, seat: int | None) -> tuple[Hidden, ...]:
    """Where the cards hidden from ``seat`` lie (``engines.hidden``): the opponent's hand (both hands
    for a spectator) and the stock. Nothing else is: every card that leaves a hand is shown, and no
    card enters a hand face up (seeds/conquian.md, "Bots"), so nothing more is known of a hand than
    its size."""
    return (*(Hidden("hands", s, order=sort_hand) for s in (0, 1) if s != seat), Hidden("stock"))


def seat_facts(state: ConquianState) -> tuple[tuple[int, int | None], ...]:
    """Each seat's cards in hand and its units won so far in the match (seeds/conquian.md 6)."""
    return tuple((len(hand), score) for hand, score in zip(state.hands, state.scores, strict=True))
