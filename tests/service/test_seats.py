"""A view's ``seats`` (``service.seats.seats``) spells a seat's kind, name and status inline, for
speed: every shape a stored seat can take must get what ``kind``, ``name`` and ``status`` say of it
(the lobby and the rematch read them there), with ``connected`` a person's only."""

from __future__ import annotations

import itertools
from typing import Any

from service import seats
from service.bots import seat_level


def _stored_seats() -> list[dict[str, Any]]:
    """A person's, a bot's (every level, an unknown one, none), an open seat, a replaced one, named or not."""
    out = []
    for bot, level, opened, replaced, name in itertools.product(
            (False, True, None), (None, "random", "greedy", "strong", "bogus"), (False, True, None),
            (None, "resigned", "timed_out"), (None, "", "Zoë")):
        entry: dict[str, Any] = {"hash": None if opened else "ab" * 32, "bot": bot}
        for key, value in (("level", level), ("open", opened), ("replaced", replaced), ("name", name)):
            if value is not None:
                entry[key] = value
        out.append(entry)
    return out


def test_every_stored_seat_is_drawn_as_kind_name_and_status_say() -> None:
    stored = _stored_seats()
    facts = [(i % 14, None if i % 3 else i * 10) for i in range(len(stored))]
    for present in (None, frozenset(), frozenset(range(0, len(stored), 2))):
        clocks = [{"remaining_ms": i, "running": bool(i % 2)} for i in range(len(stored))]
        for drawn, entry, (hand_count, score) in zip(seats.seats(stored, facts, present, clocks), stored, facts,
                                                     strict=True):
            i = drawn["seat"]
            who = seats.kind(entry)
            assert drawn == {"seat": i, "name": seats.name(i, entry), "kind": who, "level": seat_level(entry),
                             "status": seats.status(entry), "replaced_because": entry.get("replaced"),
                             "connected": None if who != "human" or present is None else i in present,
                             "hand_count": hand_count, "score": score, "clock": clocks[i]}
            assert list(drawn) == ["seat", "name", "kind", "level", "status", "replaced_because", "connected",
                                   "hand_count", "score", "clock"]  # the view's bytes keep their order


def test_seats_without_clocks_show_none() -> None:
    drawn = seats.seats([{"hash": "ab" * 32, "bot": False}], [(13, 0)])
    assert drawn == [{"seat": 0, "name": "Player 1", "kind": "human", "level": None, "status": "playing",
                      "replaced_because": None, "connected": None, "hand_count": 13, "score": 0, "clock": None}]
