"""What a move of Kanaster causes, as events (seeds/kanaster.md section 18, "Events").

Builders of the events the rules emit while they apply a move, and the JSON form of a finished
hand's record, shared by the ``hand_ended`` event and the view's ``last_hand``. Cards that are face
up at a real table (melds, the pile, laid-out red 3s, the cut, the hands shown at the count) go
to ``public``; cards that only their holder sees (a drawn card, a red 3's replacement, a new hand)
go to that seat's ``private`` part, everyone else gets their number as ``count``.
"""

from __future__ import annotations

from collections.abc import Sequence

from engines.core import JSON, Event

from .melds import is_canasta, is_natural, points
from .state import HandRecord, KanasterState, Meld

#: Where laid-out red 3s came from (``red_three.source``, section 4).
FROM_HAND = "hand"  # the dealt hand, at the player's first turn (replaced)
FROM_TALON = "talon"  # drawn, or a replacement (replaced)
FROM_PILE = "pile"  # a covered opening card taken with the pile (not replaced)
AT_COUNT = "hand_end"  # still in the hand of a player whose first turn never came (laid for the count)


def meld_json(index: int, meld: Meld) -> dict[str, JSON]:
    """A meld on the table as the view shows it (its ``id`` is its index in the hand's table)."""
    return {
        "id": index,
        "owner": meld.owner,
        "rank": meld.rank,
        "cards": list(meld.cards),
        "tucked": list(meld.tucked),
        "canasta": is_canasta(meld),
        "natural": is_natural(meld),
        "points": points(meld.cards),
    }


def hand_record_json(record: HandRecord | None) -> dict[str, JSON] | None:
    """A finished hand's count (section 9), its final table and the totals after it: the view's
    ``last_hand`` and the ``hand_ended`` event's public part. ``table`` is null for a hand that
    finished before snapshot format 3 (section 17)."""
    if record is None:
        return None
    table = record.table
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
        "totals": list(record.totals),
        "table": None if table is None else {
            "melds": [meld_json(i, m) for i, m in enumerate(table.melds)],
            "red_threes": [list(r) for r in table.red_threes],
            "pile": list(table.pile),
            "talon_count": table.talon_count,
        },
    }


def drew(seat: int, cards: Sequence[str]) -> Event:
    """Cards taken from the talon: the drawer sees which, everyone else how many (section 5.1)."""
    return Event("drew", {"seat": seat, "count": len(cards)}, {seat: {"cards": list(cards)}})


def red_three(seat: int, reds: Sequence[str], replacements: Sequence[str], source: str) -> Event:
    """Red 3s laid out face up; their replacements from the talon are the seat's alone (section 4)."""
    return Event("red_three", {"seat": seat, "cards": list(reds), "count": len(replacements), "source": source},
                 {seat: {"replacements": list(replacements)}} if replacements else {})


def melded(seat: int, melds: Sequence[tuple[int, Meld]]) -> Event:
    """New melds laid face up, each with the id it has on the table (section 6)."""
    return Event("melded", {"seat": seat, "melds": [
        {"id": i, "rank": m.rank, "cards": list(m.cards), "canasta": is_canasta(m)} for i, m in melds]})


def laid_off(seat: int, index: int, cards: Sequence[str], grown: Meld) -> Event:
    """Cards added to an own meld; ``canasta``: the meld is a canasta now (section 6)."""
    return Event("laid_off", {"seat": seat, "meld": index, "cards": list(cards), "canasta": is_canasta(grown)})


def took_pile(seat: int, top: str, cards: Sequence[str]) -> Event:
    """The pile taken: its top card went to a meld (the ``melded``/``laid_off`` event before), the
    rest into the hand, red 3s among them laid out by the ``red_three`` event after (section 5.2)."""
    return Event("took_pile", {"seat": seat, "top": top, "cards": list(cards)})


def tucked(seat: int, index: int, cards: Sequence[str]) -> Event:
    """Blocking cards tucked under a canasta (section 7)."""
    return Event("tucked", {"seat": seat, "meld": index, "cards": list(cards)})


def discarded(seat: int, card: str) -> Event:
    """One card onto the pile; the turn ends (section 5.4)."""
    return Event("discarded", {"seat": seat, "card": card})


def hand_ended(record: HandRecord) -> Event:
    """The hand is over: the count as the view's ``last_hand`` shows it (section 9)."""
    shown = hand_record_json(record)
    assert shown is not None
    return Event("hand_ended", shown)


def dealt(state: KanasterState) -> tuple[Event, Event]:
    """A new hand dealt (section 3): the cut and the hand sizes for all, each hand to its seat
    only (red 3s still in it); then the opening card(s) turned face up onto the pile."""
    return (
        Event("dealt", {"hand_number": state.hand_number, "dealer": state.dealer, "cutter": state.cutter,
                        "cut_cards": list(state.cut), "counts": [len(h) for h in state.hands]},
              {s: {"cards": list(h)} for s, h in enumerate(state.hands)}),
        Event("turned", {"cards": list(state.pile), "talon_count": len(state.talon)}),
    )
