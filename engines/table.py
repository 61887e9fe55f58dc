"""The events of the table itself, the same in every game: what happens around the cards rather than
with them (a seat claimed, the game started or called off), declared like a game's events
(``engines.eventtypes``).

The service writes them in log entries of their own, entries that carry no move (``move`` is null),
and counts each such entry as a version, so that a view's ETag, a long poll and an event stream see
people sit down as they see moves. A replay of a game's moves skips these entries: no game's rules
make them. Pure, as every engine module.
"""

from __future__ import annotations

from typing import Annotated

from engines.eventtypes import EventType, Length, public

Name = Annotated[str, Length(1, 24)]


class SeatTaken(EventType):
    """A person claimed an open seat (with the invite, from the lobby, or for a rematch)."""

    type = "seat_taken"
    seat: int = public("the seat claimed")
    name: Name = public("the name the person gave (text a person typed: show it as text)")


class BotSeated(EventType):
    """An open seat was given to a bot when a seated person started the game without waiting for it."""

    type = "bot_seated"
    seat: int = public("the seat the server plays from now on")
    level: str = public("the bot's level")


class GameStarted(EventType):
    """Every seat is taken: the game that waited for its people starts, and its seats to move may move."""

    type = "game_started"


class GameAborted(EventType):
    """A seated person called the waiting game off before it started: it is over, unplayed."""

    type = "game_aborted"
    seat: int = public("who called it off")


#: Every event of the table, in the order the spec lists them.
EVENT_TYPES: tuple[type[EventType], ...] = (SeatTaken, BotSeated, GameStarted, GameAborted)
