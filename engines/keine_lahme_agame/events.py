"""What a move of Keine lahme Agame causes, as events (seeds/keine-lahme-agame.md "Events").

Builders of the events the rules emit while they apply a move, and the JSON form of a finished
section shared by the ``section_ended`` event and the view's ``last_section``. Every move is made
face up (§12), so every event is public, but for a new section's hands: each seat sees only its own.
"""

from __future__ import annotations

from collections.abc import Sequence

from engines.core import JSON, Event

from .options import Config
from .state import Caught, SectionRecord


def caught(seat: int, card: str, from_seat: int | None, payment: Sequence[str]) -> Event:
    """A catch (§5): the card, where from (None: the discard pile), and the payment laid on the pile."""
    return Event("caught", {"seat": seat, "card": card, "from_seat": from_seat, "payment": list(payment)})


def passed(seat: int) -> Event:
    """The seat did not catch in this catching round (§5.5)."""
    return Event("passed", {"seat": seat})


def catching_ended(catches: Sequence[Caught]) -> Event:
    """The catching round ended: every caught card went into its catcher's row (§5.6)."""
    return Event("catching_ended", {"caught": [{"seat": c.seat, "card": c.card, "from_seat": c.from_seat}
                                               for c in catches]})


def played(seat: int, cards: Sequence[str], value: int | None, lead: bool) -> Event:
    """Cards played to the trick (§4), with the value they count (None: the hat)."""
    return Event("played", {"seat": seat, "cards": list(cards), "value": value, "lead": lead})


def trick_won(seat: int, value: int | None, cards: Sequence[str]) -> Event:
    """The trick's winner, the value that won it and the trick's cards in play order (§4.2)."""
    return Event("trick_won", {"seat": seat, "value": value, "cards": list(cards)})


def placed(seat: int, cards: Sequence[str], rest: Sequence[str], rest_to: str) -> Event:
    """Where every card of the won trick went: ``cards`` into the winner's row, ``rest`` to his hand
    or the discard pile (§6)."""
    return Event("placed", {"seat": seat, "cards": list(cards), "rest": list(rest), "rest_to": rest_to})


def discarded(seat: int, card: str) -> Event:
    """A leader who could not lead put his single-digit card on the discard pile (§4.3)."""
    return Event("discarded", {"seat": seat, "cards": [card], "forced": True})


def section_summary(cfg: Config, record: SectionRecord, history: tuple[tuple[int, ...], ...]) -> dict[str, JSON]:
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


def section_ended(cfg: Config, record: SectionRecord, history: tuple[tuple[int, ...], ...]) -> Event:
    """A section ended (§7): the hands revealed and the rows scored (``section_summary``)."""
    return Event("section_ended", section_summary(cfg, record, history))


def dealt(section: int, leader: int, hands: Sequence[Sequence[str]]) -> Event:
    """The next section (0-based ``section``) was dealt: each seat sees only its own new hand."""
    return Event("dealt", {"section": section + 1, "leader": leader, "counts": [len(h) for h in hands]},
                 {s: {"cards": list(h)} for s, h in enumerate(hands)})
