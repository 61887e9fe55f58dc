"""What a move of Conquian causes, as events (seeds/conquian.md 11).

The event types the rules emit while they apply a move (``EVENT_TYPES``, ``engines.eventtypes``),
and the JSON form of a finished deal shared by the ``deal_ended`` event and the view's ``last_deal``.
Every event is public (every card that leaves a hand is shown): only the cards of a new deal are
private, to their holder.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Literal, TypedDict

from engines import eventtypes
from engines.core import Event
from engines.eventtypes import EventType, private, public, spread

from .melds import Arrangement
from .moves import Card
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


_SOURCE: dict[str, Literal["offer", "turned", "forced"]] = {CHOOSE: "offer", TURNED: "turned", FORCED: "forced"}

class _Melding(EventType):
    """The fields of a meld move's event (``melded`` and ``laid_off``)."""

    seat: int = public("who did it")
    card: Card | None = public("the offered, turned or forced card melded; null for hand cards alone")
    source: Literal["offer", "turned", "forced", "hand"] = public(
        "where `card` came from (`hand`: hand cards alone)")
    cards: Sequence[Card] = public(
        "every card the move added to the melds: `card` first, then the hand cards in hand order")
    melds: Sequence[Sequence[Card]] = public("the seat's complete melds after the move")
    melded_count: int = public("cards the seat has melded now (11 wins)")


class Melded(_Melding):
    """A meld move that forms a new meld or rearranges the seat's melds."""

    type = "melded"


class LaidOff(_Melding):
    """A meld move that only extends the seat's existing melds."""

    type = "laid_off"


def meld(state: ConquianState, seat: int, arrangement: Arrangement, hand_used: tuple[str, ...],
                has_card: bool) -> Event:
    """``laid_off`` when the move only extends the seat's melds, ``melded`` otherwise (seeds/conquian.md 11)."""
    old = state.melds[seat]
    card = (state.offer if state.phase == CHOOSE else state.face_up) if has_card else None
    used = set(hand_used)
    cards = [c for c in state.hands[seat] if c in used]  # in hand order, whatever order was posted
    if card is not None:
        cards.insert(0, card)
    kind = LaidOff if _is_layoff(old, arrangement) else Melded
    return kind(seat, card, _SOURCE[state.phase] if has_card else "hand", cards, arrangement,
                sum(len(m) for m in arrangement)).event()


class Buried(EventType):
    """The offered card nobody took went to the dead pile as its receiver turned the stock (section 4)."""

    type = "buried"
    seat: int = public("who turned the stock instead of taking the card")
    card: Card = public("the card buried")


class Turned(EventType):
    """The top stock card is turned face up (it never enters the hand)."""

    type = "turned"
    seat: int = public("who did it")
    card: Card = public("the card turned")
    stock_count: int = public("stock cards left")


class Rejected(EventType):
    """The turned card is declined: it is offered to the opponent (unless he may be forced first)."""

    type = "rejected"
    seat: int = public("who did it")
    card: Card = public("the card rejected")


class Discarded(EventType):
    """A hand card discarded after melding: it is offered to the opponent."""

    type = "discarded"
    seat: int = public("who did it")
    card: Card = public("the card discarded")


class _Forcing(EventType):
    """The fields of the forcing events (section 5)."""

    seat: int = public("who decides (the opponent of `player`)")
    player: int = public("who is (or would be) forced")
    card: Card = public("the card he would have to meld")


class ForceWindow(_Forcing):
    """The card fits `player`'s melds: `seat` may force him to add it (F1 `offer`, F2 `reject`)."""

    type = "force_window"
    window: Literal["offer", "reject"] = public("`offer`: the card offered to `player`; `reject`: the card he "
                                                "turned and rejected")


class Forced(_Forcing):
    """`seat` forces `player` to add the card to his melds and discard."""

    type = "forced"


class ForceDeclined(_Forcing):
    """`seat` does not force: the card is offered as usual."""

    type = "force_declined"


class Passed(EventType):
    """With the stock empty the player declines the offer: the deal is drawn."""

    type = "passed"
    seat: int = public("who did it")
    card: Card | None = public("the offer declined")


class DealJSON(TypedDict):
    """A finished deal as JSON (``deal_summary_json``): the view's ``last_deal`` and the ``deal_ended``
    event."""

    deal: int
    dealer: int
    outcome: str
    winner: int | None
    stake: int
    melds: list[list[list[str]]]
    stock_left: int
    hand_counts: list[int]
    hands: list[list[str] | None]
    dead: list[str] | None
    discard: str | None
    breakdown: list[dict[str, int]]
    points: list[int]
    scores: list[int]


class DealEnded(EventType):
    """A deal ended: its final table, the hands as shown and the score breakdown (as `last_deal`)."""

    type = "deal_ended"
    deal: DealJSON = spread("the deal as the view's `last_deal` shows it")


class Dealt(EventType):
    """The next deal is dealt; each seat sees its own new hand (`cards`), nobody else's."""

    type = "dealt"
    deal: int = public("number of the new deal")
    dealer: int = public("who dealt it")
    turn: int = public("the non-dealer, who turns the first card")
    stake: int = public("units the new deal is worth")
    hand_counts: Sequence[int] = public("hand cards per seat")
    stock_count: int = public("cards in the stock")
    cards: Mapping[int, Sequence[Card]] = private("the viewer's new hand (only to that seat)")


class GameOver(eventtypes.GameOver):
    """The match is over: the last event of its last move."""

    status: Literal["finished"] = public("always `finished`: a match of Conquian is played out")
    scores: tuple[int, ...] | None = public("units per seat")


EVENT_TYPES: tuple[type[EventType], ...] = (Buried, Turned, Rejected, Discarded, Melded, LaidOff, ForceWindow, Forced,
                                            ForceDeclined, Passed, DealEnded, Dealt, GameOver)


def deal_summary_json(summary: DealSummary) -> DealJSON:
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
