"""What a move of Conquian causes, as events (seeds/conquian.md 11).

Builders of the events the rules emit while they apply a move, and the JSON form of a finished
deal shared by the ``deal_ended`` event and the view's ``last_deal``. Every event is public (every
card that leaves a hand is shown): only the cards of a new deal are private, to their holder.
"""

from __future__ import annotations

from typing import Any

from engines.core import Event

from .melds import Arrangement
from .state import CHOOSE, FORCED, TURNED, ConquianState, DealSummary


def _is_layoff(old: Arrangement, new: Arrangement) -> bool:
    """Whether ``new`` only adds cards to the melds of ``old``: as many melds, each old meld inside its
    own new one (nothing split, joined or moved)."""
    if not old or len(old) != len(new):
        return False
    home = {c: i for i, m in enumerate(new) for c in m}
    used = set()
    for m in old:
        i = home[m[0]]
        if i in used or any(home[c] != i for c in m):
            return False
        used.add(i)
    return True


_SOURCE = {CHOOSE: "offer", TURNED: "turned", FORCED: "forced"}


def meld(state: ConquianState, seat: int, arrangement: Arrangement, hand_used: tuple[str, ...],
                has_card: bool) -> Event:
    """``laid_off`` when the move only extends the seat's melds, ``melded`` otherwise (seeds/conquian.md 11)."""
    old = state.melds[seat]
    card = (state.offer if state.phase == CHOOSE else state.face_up) if has_card else None
    used = set(hand_used)
    cards = [c for c in state.hands[seat] if c in used]  # in hand order, whatever order was posted
    if card is not None:
        cards.insert(0, card)
    return Event("laid_off" if _is_layoff(old, arrangement) else "melded", {
        "seat": seat,
        "card": card,
        "source": _SOURCE[state.phase] if has_card else "hand",
        "cards": cards,
        "melds": [list(m) for m in arrangement],
        "melded_count": sum(len(m) for m in arrangement),
    })


def buried(seat: int, card: str) -> Event:
    """The offered card nobody took went under: the seat turned the stock instead (section 4)."""
    return Event("buried", {"seat": seat, "card": card})


def turned(seat: int, card: str, stock_count: int) -> Event:
    """The seat turned the top stock card face up."""
    return Event("turned", {"seat": seat, "card": card, "stock_count": stock_count})


def rejected(seat: int, card: str) -> Event:
    """The seat rejected the turned card: it is offered to the opponent."""
    return Event("rejected", {"seat": seat, "card": card})


def force_window(seat: int, player: int, card: str, window: str) -> Event:
    """``seat`` may force ``player`` to add ``card`` to his melds (section 5; ``offer`` or ``reject``)."""
    return Event("force_window", {"seat": seat, "player": player, "card": card, "window": window})


def force_answer(forcing: bool, seat: int, player: int, card: str) -> Event:
    """``seat`` forced ``player`` to meld ``card`` (``forced``), or let it pass (``force_declined``)."""
    return Event("forced" if forcing else "force_declined", {"seat": seat, "player": player, "card": card})


def discarded(seat: int, card: str) -> Event:
    """The seat discarded a hand card after melding: it is offered to the opponent."""
    return Event("discarded", {"seat": seat, "card": card})


def passed(seat: int, card: str | None) -> Event:
    """The seat declined the offer with the stock empty: the deal is drawn."""
    return Event("passed", {"seat": seat, "card": card})


def deal_summary_json(summary: DealSummary) -> dict[str, Any]:
    """The finished deal as the view's ``last_deal`` and the ``deal_ended`` event show it: the final
    table, the hands as shown (a hand is never shown: null, an empty one is ``[]``), and the score
    breakdown per seat, which sums to ``points`` (seeds/conquian.md 6.4, 11)."""
    points = [summary.stake if seat == summary.winner else 0 for seat in (0, 1)]
    return {
        "deal": summary.deal,
        "dealer": summary.dealer,
        "outcome": summary.outcome,
        "winner": summary.winner,
        "stake": summary.stake,
        "melds": [[list(m) for m in a] for a in summary.melds],
        "stock_left": summary.stock_left,
        "hand_counts": list(summary.hand_counts),
        "hands": [[] if n == 0 else None for n in summary.hand_counts],
        "dead": None if summary.dead is None else list(summary.dead),
        "discard": summary.discard,
        "breakdown": [{"won_deal": p} for p in points],
        "points": points,
        "scores": list(summary.scores),
    }


def deal_ended(summary: DealSummary) -> Event:
    """A deal ended (section 6): its final table and score (``deal_summary_json``)."""
    return Event("deal_ended", deal_summary_json(summary))


def dealt(state: ConquianState, stake: int) -> Event:
    """The next deal of the match, dealt in ``state``: each seat sees only its own new hand."""
    return Event("dealt", {"deal": state.deal, "dealer": state.dealer, "turn": state.turn, "stake": stake,
                           "hand_counts": [len(h) for h in state.hands], "stock_count": len(state.stock)},
                 {0: {"cards": list(state.hands[0])}, 1: {"cards": list(state.hands[1])}})
