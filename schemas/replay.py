"""Wire schemas of a finished game looked back at: its export (``cardtable-replay/1``) and its positions.

An export is one JSON document that replays the game: how it was set up (players, options, seed and
the first deal's deck), who sat where, every log entry unredacted (the move as posted and its events
with every viewer's part) and the result. ``engines.replay`` replays one through the engine;
``service.export`` writes them. Each game gets its own ``<Prefix>Export`` (its options, moves and
result typed) and ``<Prefix>Positions`` (its spectator view per position), built from its
``BuiltSchemas`` like every other envelope.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from marshmallow import Schema, fields, validate

from bots import LEVELS
from engines.core import Engine
from engines.replay import FORMAT
from schemas.common import BuiltSchemas, _named

#: Positions per answer of ``GET .../positions``: by default, and at most (``?limit=``).
POSITIONS_LIMIT = 50
POSITIONS_LIMIT_MAX = 100


def _int(**kw: Any) -> fields.Integer:
    return fields.Integer(strict=True, **kw)


class ExportSeat(Schema):
    """Who sat at one seat of an exported game."""

    seat = _int(required=True, metadata={"description": "the seat, from 0"})
    name = fields.String(required=True, metadata={"description": "the seat's name as the table showed it; a "
                                                                 "person's default is `Player <seat + 1>`, a "
                                                                 "bot's its level's (`Greedy bot`)"})
    kind = fields.String(required=True, validate=validate.OneOf(["human", "bot", "open"]),
                         metadata={"description": "`human`: a person played it; `bot`: the server did; `open`: "
                                                  "nobody took the seat, as the view's `seats` say"})
    level = fields.String(required=True, allow_none=True, validate=validate.OneOf(list(LEVELS)),
                          metadata={"description": "the bot's level; null for a person's seat"})


class ExportEvent(Schema):
    """One event a move caused, unredacted: what every viewer saw and what only some seats saw."""

    type = fields.String(required=True, metadata={"description": "the event's type, as in the game's log "
                                                                 "(`<Game>Event`)"})
    public = fields.Dict(keys=fields.String(), required=True,
                         metadata={"description": "the fields every viewer saw (the spectator too)"})
    private = fields.Dict(keys=fields.String(validate=validate.Regexp(r"^[0-9]+$")), values=fields.Dict(),
                          required=True,
                          metadata={"description": "seat (as a string) -> the fields that seat saw besides, or "
                                                   "instead of, the public ones (the cards it drew, its new "
                                                   "hand); a log entry shows seat `s` `public` updated with "
                                                   "`private[s]`"})


@dataclass(frozen=True)
class ReplaySchemas:
    """The schemas of one game's export and positions."""

    export: type[Schema]
    positions: type[Schema]


def build_replay(engine: Engine, built: BuiltSchemas) -> ReplaySchemas:
    """``<Prefix>Export`` and ``<Prefix>Positions`` of one game, from its built envelopes."""
    p = built.prefix
    result_field = built.view._declared_fields["result"]
    assert isinstance(result_field, fields.Nested)
    result = result_field.nested  # the game's ``<Prefix>Result``
    entry = _named(
        f"{p}ExportEntry",
        {
            "version": _int(required=True, metadata={"description": "the game's version after this move: 1, 2, "
                                                                    "3 ... in order"}),
            "seat": _int(required=True, metadata={"description": "the seat that moved"}),
            "bot": fields.Boolean(required=True, metadata={"description": "the server's bot made the move"}),
            "at": fields.String(required=True, allow_none=True,
                                metadata={"description": "when the move was applied (RFC 3339, UTC, with "
                                                         "milliseconds); null for a move logged before times were "
                                                         "kept"}),
            "move": fields.Nested(built.move, required=True, allow_none=True,
                                  metadata={"description": "the move as its seat posted it, unredacted; null in an "
                                                           "entry of the table (a seat claimed, the game started), "
                                                           "which a replay passes over"}),
            "events": fields.List(fields.Nested(ExportEvent), required=True,
                                  metadata={"description": "what the move caused, in order, every viewer's part"}),
        },
        doc="One applied move of an exported game, unredacted.",
    )
    export = _named(
        f"{p}Export",
        {
            "format": fields.String(required=True, validate=validate.OneOf([FORMAT]),
                                    metadata={"description": f"`{FORMAT}`: the export format and its version"}),
            "game": fields.String(required=True, validate=validate.OneOf([engine.id]),
                                  metadata={"description": "the game id"}),
            "game_id": fields.String(required=True, metadata={"description": "the exported game's id"}),
            "created_at": fields.String(required=True, allow_none=True,
                                        metadata={"description": "when the game was created (RFC 3339, UTC); "
                                                                 "null for a game created before times were kept"}),
            "players": _int(required=True, validate=validate.Range(engine.players.start, engine.players.stop - 1),
                            metadata={"description": "the number of seats"}),
            "options": fields.Nested(built.options, required=True,
                                     metadata={"description": "every option the game was played with"}),
            "seats": fields.List(fields.Nested(ExportSeat), required=True,
                                 metadata={"description": "who sat at each seat, by seat"}),
            "seed": fields.String(required=True,
                                  metadata={"description": "the game's seed: it decided every shuffle, lot and "
                                                           "reshuffle, so it is shown only once the game is over"}),
            "deck": fields.List(fields.String(), required=True,
                                metadata={"description": "the first deal's deck as dealt, top card first: a game "
                                                         "created with it (and the seed) deals the same hands"}),
            "entries": fields.List(fields.Nested(entry), required=True,
                                   metadata={"description": "every log entry, oldest first"}),
            "result": fields.Nested(result, required=True, metadata={"description": "how the game ended"}),
        },
        doc=f"A finished game of {engine.title} as one replayable document: create a game with its players, "
            "options, seed (and deck) and post every entry's move as its seat to play it again.",
    )
    position = _named(
        f"{p}Position",
        {
            "version": _int(required=True, metadata={"description": "the moves made: 0 is the deal, before any"}),
            "view": fields.Nested(built.view, required=True,
                                  metadata={"description": "the spectator's view of the position"}),
            "hands": fields.List(fields.List(fields.String()), required=True,
                                 metadata={"description": "every seat's hand at the position, by seat, laid open"}),
        },
        doc="One position of a finished game, every hand open.",
    )
    positions = _named(
        f"{p}Positions",
        {
            "game_id": fields.String(required=True, metadata={"description": "the game's id"}),
            "version": _int(required=True, metadata={"description": "the finished game's last version"}),
            "positions": fields.List(fields.Nested(position), required=True,
                                     metadata={"description": "the positions asked for, in order"}),
            "next_start": _int(required=True, allow_none=True,
                               metadata={"description": "more positions remain: ask again with this `start`"}),
        },
        doc=f"Positions of a finished game of {engine.title}, every hand open, for watching it again.",
    )
    return ReplaySchemas(export, positions)


class PositionsQuery(Schema):
    """Which positions of a finished game to answer with."""

    start = _int(validate=validate.Range(min=0),
                 metadata={"description": "the first position's version (default 0: the deal)"})
    limit = _int(validate=validate.Range(min=1, max=POSITIONS_LIMIT_MAX),
                 metadata={"description": f"at most this many positions (default {POSITIONS_LIMIT}, at most "
                                          f"{POSITIONS_LIMIT_MAX}); `next_start` says where to go on"})
