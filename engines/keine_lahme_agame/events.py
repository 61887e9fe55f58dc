"""What a move of Keine lahme Agame causes, as events (seeds/keine-lahme-agame.md "Events").

The event types the rules emit while they apply a move (``EVENT_TYPES``, ``engines.eventtypes``),
and the JSON form of a finished section shared by the ``section_ended`` event and the view's
``last_section``. Every move is made face up (§12), so every event is public, but for a new
section's hands: each seat sees only its own.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Literal, TypedDict

from engines import eventtypes
from engines.core import JSON
from engines.eventtypes import EventType, Record, private, public, spread

from .moves import Card
from .options import Config
from .state import SectionRecord

_CARDS = "card codes `<colour>-<value>`, e.g. `red-13`, `blue-hat`"


class Caught(EventType):
    """A player caught a card (§5) and put his payment face up on the discard pile, in this order."""

    type = "caught"
    seat: int = public("the catcher")
    card: Card = public("the card caught")
    from_seat: int | None = public("whose row it came from; null = the top of the discard pile")
    payment: Sequence[Card] = public(f"the paid hand cards, put on the pile in this order ({_CARDS})")


class Passed(EventType):
    """A player did not catch in the catching round (§5.5)."""

    type = "passed"
    seat: int = public("who passed")


class CaughtCard(Record):
    """A card caught in the catching round, as the view's ``caught`` shows it."""

    seat: int = public("the catcher")
    card: Card = public("the card caught")
    from_seat: int | None = public("whose display it came from; null = the discard pile")


class CatchingEnded(EventType):
    """The catching round ended: each caught card went into its catcher's row (§5.6)."""

    type = "catching_ended"
    caught: Sequence[CaughtCard] = public("the cards caught, in the order caught")


class Played(EventType):
    """A player played one or two cards to the trick (§4.1)."""

    type = "played"
    seat: int = public("who played")
    cards: Sequence[Card] = public(f"the cards played, in the order given ({_CARDS})")
    value: int | None = public("the card's value or the two cards' sum; null for a hat")
    lead: bool = public("this play leads the trick")


class TrickWon(EventType):
    """The trick is complete and won by the highest play, the earliest on a tie (§4.2)."""

    type = "trick_won"
    seat: int = public("the winner, who leads next")
    value: int | None = public("the winning value; null = a hat")
    cards: Sequence[Card] = public(f"every card of the trick, in play order ({_CARDS})")


class Placed(EventType):
    """Where the won trick's cards went (§6.2): some into the winner's row, the rest to his hand or the pile."""

    type = "placed"
    seat: int = public("the trick's winner")
    cards: Sequence[Card] = public(f"won cards put into the winner's row ({_CARDS})")
    rest: Sequence[Card] = public(f"the other won cards, in play order ({_CARDS})")
    rest_to: Literal["hand", "discard"] = public("the winner's hand or the discard pile (trick_capture)")


class Discarded(EventType):
    """The leader holding one single-digit card put it face up on the discard pile (§4.3)."""

    type = "discarded"
    seat: int = public("who discarded")
    cards: Sequence[Card] = public(f"the discarded card ({_CARDS})")
    forced: bool = public("always true: the forced discard of §4.3")


class SectionJSON(TypedDict):
    """A finished section as JSON (``section_summary``): the view's ``last_section`` and the
    ``section_ended`` event."""

    section: int
    emptied: list[int]
    points: list[int]
    complete: list[bool]
    hands: list[list[str]] | None
    rows: list[list[str]] | None
    discard: list[str] | None
    breakdown: list[dict[str, JSON]] | None
    scores: list[int]


class SectionEnded(EventType):
    """A section ended (§7): the hands revealed, the final table, the score breakdown and totals."""

    type = "section_ended"
    section: SectionJSON = spread("the section as the view's `last_section` shows it")


class Dealt(EventType):
    """The next section was dealt (§7.3); each seat learns its own new hand."""

    type = "dealt"
    section: int = public("the new section, 1-based")
    leader: int = public("who leads its first round")
    counts: Sequence[int] = public("hand sizes per seat")
    cards: Mapping[int, Sequence[Card]] = private(f"the viewer's own new hand, only to it ({_CARDS})")


class GameOver(eventtypes.GameOver):
    """The game is over: the last event of its last move."""

    status: Literal["finished", "aborted"] = public(
        "how the game ended: `finished` (every section played) or `aborted` (the safety cap ended it)")
    scores: tuple[int, ...] | None = public("totals per seat")


EVENT_TYPES: tuple[type[EventType], ...] = (Caught, Passed, CatchingEnded, Played, TrickWon, Placed, Discarded,
                                            SectionEnded, Dealt, GameOver)


def section_summary(cfg: Config, record: SectionRecord, history: tuple[tuple[int, ...], ...]) -> SectionJSON:
    """A finished section as the ``section_ended`` event and the view's ``last_section`` show it
    (seeds §7, "Events"): its number (1-based), the seats without hand cards, the final table (the
    hands revealed, the scored rows, the discard pile; null when recorded before format 2), the
    score breakdown per seat (100 for a complete row, else 10 per row card or 0 by
    ``section_scoring``), the section's points and the totals after it."""
    scores = [sum(col) for col in zip(*history[: record.section + 1], strict=True)]
    breakdown: list[dict[str, JSON]] | None = None
    if record.rows is not None:
        per_card = 10 if cfg.section_scoring == "complete100_else_10_per_card" else 0
        breakdown = []
        for s, (row, complete) in enumerate(zip(record.rows, record.complete, strict=True)):
            complete_points = 100 if complete else 0
            card_points = 0 if complete else per_card * len(row)
            breakdown.append({"seat": s, "row_cards": len(row), "complete": complete,
                              "complete_points": complete_points, "card_points": card_points,
                              "points": complete_points + card_points})
    return {
        "section": record.section + 1,
        "emptied": list(record.emptied),
        "points": list(record.points),
        "complete": list(record.complete),
        "hands": None if record.hands is None else [list(h) for h in record.hands],
        "rows": None if record.rows is None else [list(r) for r in record.rows],
        "discard": None if record.discard is None else list(record.discard),
        "breakdown": breakdown,
        "scores": scores,
    }
