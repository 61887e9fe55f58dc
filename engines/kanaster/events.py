"""What a move of Kanaster causes, as events (seeds/kanaster.md section 18, "Events").

The event types the rules emit while they apply a move (``EVENT_TYPES``, ``engines.eventtypes``;
builders for those that take working out), and the JSON form of a finished hand's record, shared by
the ``hand_ended`` event and the view's ``last_hand``. Cards that are face up at a real table (melds,
the pile, laid-out red 3s, the cut, the hands shown at the count) go to ``public``; cards that only
their holder sees (a drawn card, a red 3's replacement, a new hand) go to that seat's ``private``
part, everyone else gets their number as ``count``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final, Literal, TypedDict, cast

from engines import eventtypes
from engines.core import JSON, Event
from engines.eventtypes import EventType, Record, private, public, spread
from engines.memo import SHOWN, ShownObject, keep

from .melds import CANASTA_SIZE, is_canasta, is_natural, points
from .moves import Card
from .state import HandRecord, KanasterState, Meld

#: Where laid-out red 3s came from (``red_three.source``, section 4).
Source = Literal["hand", "talon", "pile", "hand_end"]
FROM_HAND: Final = "hand"  # the dealt hand, at the player's first turn (replaced)
FROM_TALON: Final = "talon"  # drawn, or a replacement (replaced)
FROM_PILE: Final = "pile"  # a covered opening card taken with the pile (not replaced)
AT_COUNT: Final = "hand_end"  # still in the hand of a player whose first turn never came (laid for the count)


def meld_json(index: int, meld: Meld) -> dict[str, JSON]:
    """A meld on the table as the view shows it (its ``id`` is its index in the hand's table); shared,
    never to be changed: kept with the meld (``engines.memo``), which stays on the table, the same
    object, from move to move, and which every view of the hand shows."""
    kept: dict[str, JSON] | None = meld.__dict__.get(SHOWN)
    if kept is not None and kept["id"] == index:
        return kept
    cards = meld.cards
    kept = {
        "id": index,
        "owner": meld.owner,
        "rank": meld.rank,
        "cards": list(cards),
        "tucked": list(meld.tucked),
        "canasta": len(cards) >= CANASTA_SIZE,  # is_canasta
        "natural": is_natural(meld),
        "points": points(cards),
    }
    keep(meld, SHOWN, kept)
    return kept


class HandRecordJSON(TypedDict):
    """A finished hand as JSON (``hand_record_json``): the view's ``last_hand`` and the ``hand_ended``
    event."""

    number: int
    went_out: int | None
    concealed: bool
    seats: list[dict[str, JSON]]
    totals: list[int]
    table: dict[str, JSON] | None


def hand_record_json(record: HandRecord | None) -> HandRecordJSON | None:
    """A finished hand's count (section 9), its final table and the totals after it: the view's
    ``last_hand`` and the ``hand_ended`` event's public part. ``table`` is null for a hand that
    finished before snapshot format 3 (section 17). Shared (kept with the record, which stands
    in every state of the next hand: ``engines.memo``), never to be changed."""
    if record is None:
        return None
    kept: HandRecordJSON | None = record.__dict__.get(SHOWN)
    if kept is not None:
        return kept
    table = record.table
    built: HandRecordJSON = {
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
    built = cast(HandRecordJSON, ShownObject(built))  # written once by a writer that knows it (engines.memo)
    keep(record, SHOWN, built)
    return built


class Dealt(EventType):
    """A new hand dealt: the cut and the hand sizes for everyone, the cards to their seat only."""

    type = "dealt"
    hand_number: int = public("1-based number of the new hand")
    dealer: int = public("who dealt it")
    cutter: int = public("who cut the deck")
    cut_cards: Sequence[Card] = public("wild cards the cutter kept at the cut (public)")
    counts: Sequence[int] = public("cards dealt to each seat")
    cards: Mapping[int, Sequence[Card]] = private("the viewer's new hand, red 3s still in it (only to that seat)")


class Turned(EventType):
    """The opening card(s) turned face up onto the pile (covered while wild or a red 3)."""

    type = "turned"
    cards: Sequence[Card] = public("the pile's opening cards, bottom first")
    talon_count: int = public("cards left in the talon")


class Drew(EventType):
    """Cards drawn from the talon: which ones only to the drawer (section 5.1)."""

    type = "drew"
    seat: int = public("the seat that did it")
    count: int = public("how many cards")
    cards: Mapping[int, Sequence[Card]] = private("the cards drawn (only to the drawer)")


class RedThree(EventType):
    """Red 3s laid out, and replaced from the talon (the replacements only to their seat, section 4)."""

    type = "red_three"
    seat: int = public("the seat that did it")
    cards: Sequence[Card] = public("the red 3s laid out")
    count: int = public("replacement cards drawn from the talon")
    source: Literal["hand", "talon", "pile", "hand_end"] = public(
        "hand: at the first turn; talon: drawn or a replacement; pile: taken with the pile (not replaced); "
        "hand_end: laid out for the count")
    replacements: Mapping[int, Sequence[Card]] = private("the replacement cards (only to the seat)")


class MeldLaid(Record):
    """One new meld of a ``melded`` event."""

    id: int = public("its meld id on the table")
    rank: str = public("the meld's rank; '3' for black 3s")
    cards: Sequence[Card] = public("its cards")
    canasta: bool = public("seven or more cards")


class Melded(EventType):
    """New melds laid face up (from the hand; with taking the pile, the top card in one; section 6)."""

    type = "melded"
    seat: int = public("the seat that did it")
    melds: Sequence[MeldLaid] = public("the new melds, each with the id it has on the table")


class LaidOff(EventType):
    """Cards laid off onto an own meld (with take_pile_lay_off, the pile's top card; section 6)."""

    type = "laid_off"
    seat: int = public("the seat that did it")
    meld: int = public("the meld id")
    cards: Sequence[Card] = public("the cards added")
    canasta: bool = public("the meld is a canasta now")


class TookPile(EventType):
    """The pile taken: its top card went to a meld (the ``melded``/``laid_off`` event before), the rest
    into the hand, red 3s among them laid out by the ``red_three`` event after (section 5.2)."""

    type = "took_pile"
    seat: int = public("the seat that did it")
    top: Card = public("the pile's top card, melded")
    cards: Sequence[Card] = public("the rest of the pile, now in the hand (red 3s follow as red_three), bottom first")


class Tucked(EventType):
    """Blocking cards from the pile tucked under a canasta (section 7)."""

    type = "tucked"
    seat: int = public("the seat that did it")
    meld: int = public("the canasta's meld id")
    cards: Sequence[Card] = public("the cards tucked")


class Discarded(EventType):
    """One card discarded onto the pile; the turn ends (section 5.4)."""

    type = "discarded"
    seat: int = public("the seat that did it")
    card: Card = public("the card discarded")


class HandEnded(EventType):
    """The hand is over: the count as the view's ``last_hand`` shows it (section 9)."""

    type = "hand_ended"
    record: HandRecordJSON = spread("the hand as the view's `last_hand` shows it")


class GameOver(eventtypes.GameOver):
    """The match is over: the last event of its last move."""

    status: Literal["finished", "aborted"] = public(
        "how the match ended: `finished` (played out) or `aborted` (a safety cap ended it)")
    scores: tuple[int, ...] | None = public("the totals")


EVENT_TYPES: tuple[type[EventType], ...] = (Dealt, Turned, Drew, RedThree, Melded, LaidOff, TookPile, Tucked,
                                            Discarded, HandEnded, GameOver)


def drew(seat: int, cards: Sequence[str]) -> Event:
    """Cards taken from the talon: the drawer sees which, everyone else how many (section 5.1)."""
    return Drew(seat, len(cards), {seat: cards}).event()


def red_three(seat: int, reds: Sequence[str], replacements: Sequence[str], source: Source) -> Event:
    """Red 3s laid out face up; their replacements from the talon are the seat's alone (section 4)."""
    return RedThree(seat, reds, len(replacements), source, {seat: replacements} if replacements else {}).event()


def melded(seat: int, melds: Sequence[tuple[int, Meld]]) -> Event:
    """New melds laid face up, each with the id it has on the table (section 6)."""
    return Melded(seat, [MeldLaid(i, m.rank, m.cards, is_canasta(m)) for i, m in melds]).event()


def laid_off(seat: int, index: int, cards: Sequence[str], grown: Meld) -> Event:
    """Cards added to an own meld; ``canasta``: the meld is a canasta now (section 6)."""
    return LaidOff(seat, index, cards, is_canasta(grown)).event()


def hand_ended(record: HandRecord) -> Event:
    """The hand is over: the count as the view's ``last_hand`` shows it (section 9)."""
    shown = hand_record_json(record)
    assert shown is not None
    return HandEnded(shown).event()


def dealt(state: KanasterState) -> tuple[Event, Event]:
    """A new hand dealt (section 3): the cut and the hand sizes for all, each hand to its seat
    only (red 3s still in it); then the opening card(s) turned face up onto the pile."""
    return (
        Dealt(state.hand_number, state.dealer, state.cutter, state.cut, [len(h) for h in state.hands],
              dict(enumerate(state.hands))).event(),
        Turned(state.pile, len(state.talon)).event(),
    )
