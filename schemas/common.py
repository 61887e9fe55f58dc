"""Wire schemas shared by every game, and the builder of each game's envelopes.

A game's schema module (``schemas/<game>.py``) hand-writes only what is its own: the
``state`` part of a view and its result ``detail``. Everything else -- options, moves,
create/view/move/log envelopes -- is built here from the engine's declarations (the events
in ``schemas.events``), with the game prefix on every class name so that OpenAPI components
never collide.

These schemas describe and validate the wire. Views are produced by the engines as
plain dicts and sent as they are (the hot path never dumps through marshmallow); the
tests load every view through its schema to prove the two agree.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from marshmallow import RAISE, Schema, ValidationError, fields, validate
from marshmallow_oneofschema import OneOfSchema

from bots import DEFAULT_LEVEL, LEVELS
from engines.core import SCORINGS, TERMINATIONS, Engine, Move, Option

#: Upper bounds on collection sizes a client may send (hostile-input guard).
MAX_LIST = 200
MAX_DECK = 200
MAX_SEED = 200
#: Log entries per answer of ``GET .../log``: by default, and at most (``?limit=``).
LOG_LIMIT = 500
LOG_LIMIT_MAX = 1000


class StrictBoolean(fields.Boolean):
    """A boolean that accepts only JSON true/false, not "yes" or 1."""

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> bool:
        if not isinstance(value, bool):
            raise ValidationError("Not a valid boolean.")
        return value


def _int(**kw: Any) -> fields.Integer:
    return fields.Integer(strict=True, **kw)


class MoveOneOf(OneOfSchema):
    """A move (or an event): one of the game's schemas of its kind, chosen by its ``type``."""

    type_field = "type"
    type_field_remove = False

    def get_obj_type(self, obj: Any) -> str:
        return obj["type"] if isinstance(obj, Mapping) else obj.type

    def _load(self, data: Any, *, partial: Any = None, unknown: Any = None, **kwargs: Any) -> Any:
        """The base class names a wrong value by its ``repr``: a whole list in the 422 (and, nested a
        thousand deep, a RecursionError). The errors here name only what was expected."""
        if not isinstance(data, dict):
            raise ValidationError({"_schema": ["Must be an object with a `type`."]})
        kind = data.get(self.type_field)
        if kind is not None and not (isinstance(kind, str) and kind in self.type_schemas):
            raise ValidationError({self.type_field: [f"Must be one of: {', '.join(self.type_schemas)}."]})
        return super()._load(data, partial=partial, unknown=unknown, **kwargs)


# --- problem details (RFC 9457) -------------------------------------------------------


class Problem(Schema):
    """An error, as ``application/problem+json``."""

    type = fields.String(required=True, metadata={"description": "URI naming the problem type"})
    title = fields.String(required=True)
    status = _int(required=True)
    detail = fields.String(required=True)
    code = fields.String(required=True, metadata={"description": "stable machine code, e.g. `stale_version`"})
    errors = fields.Dict(metadata={"description": "validation errors by location (validation_error)"})
    current_version = _int(metadata={"description": "the game's current version (stale_version)"})
    reason = fields.String(metadata={"description": "stable rule code (illegal_move)"})


def event_doc(title: str) -> str:
    """The description of a game's event union (``<prefix>Event``)."""
    return f"Something a move of {title} caused, as the caller sees it."


class MoveCheck(Schema):
    """The answer of ``moves/check`` for a move that would be accepted now."""

    legal = fields.Boolean(required=True, metadata={"description": "always true: a refused move is a 422 "
                                                                   "`illegal_move` problem instead"})


class LogQuery(Schema):
    """Which part of the log to answer with."""

    since = _int(validate=validate.Range(min=0),
                 metadata={"description": "answer the entries after this version (default 0: from the start)"})
    limit = _int(validate=validate.Range(min=1, max=LOG_LIMIT_MAX),
                 metadata={"description": f"at most this many entries (default {LOG_LIMIT}, at most {LOG_LIMIT_MAX}); "
                                          "`next_since` says where to go on"})


# --- bots ------------------------------------------------------------------------------


class BotSeat(Schema):
    """A seat the server plays, at a level (README, "Bots")."""

    class Meta:
        unknown = RAISE

    seat = _int(required=True, validate=validate.Range(min=0))
    level = fields.String(load_default=DEFAULT_LEVEL, validate=validate.OneOf(list(LEVELS)),
                          metadata={"description": f"one of {', '.join(LEVELS)}; default `{DEFAULT_LEVEL}`"})


class BotSeatField(fields.Field):
    """An entry of ``bots`` on create: a plain seat number (the default level) or a ``BotSeat``.

    Loads to ``{"seat": n, "level": ...}`` either way; documented as ``oneOf`` (``service.spec``)."""

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> dict[str, Any]:
        if isinstance(value, int) and not isinstance(value, bool):
            return {"seat": value, "level": DEFAULT_LEVEL}
        if isinstance(value, Mapping):
            return BotSeat().load(value)
        raise ValidationError("Must be a seat number or an object {seat, level}.")


# --- catalogue -------------------------------------------------------------------------


class OptionInfo(Schema):
    name = fields.String(required=True)
    type = fields.String(required=True, validate=validate.OneOf(["boolean", "integer", "string"]))
    default = fields.Raw(required=True, allow_none=True)
    description = fields.String(required=True)
    nullable = fields.Boolean(required=True)
    provisional = fields.Boolean(required=True, metadata={"description": "a reconstructed rule, not published"})
    choices = fields.List(fields.Raw())
    minimum = _int()
    maximum = _int()


class GameInfo(Schema):
    game = fields.String(required=True, metadata={"description": "game id, the URL slug"})
    title = fields.String(required=True)
    description = fields.String(required=True, metadata={"description": "the game in a sentence or two"})
    scoring = fields.String(required=True, validate=validate.OneOf(list(SCORINGS)), metadata={
        "description": "which way a result's `scores` win: `higher_wins`, `lower_wins`, or `none` for a game that "
                       "names winners and losers only"})
    typical_minutes = _int(required=True, metadata={
        "description": "how long a game usually takes people, in minutes, at the default options (an estimate)"})
    rules_url = fields.String(required=True, metadata={
        "description": "where this service serves the game's rules as implemented (Markdown), a path on the service"})
    min_players = _int(required=True)
    max_players = _int(required=True)
    options = fields.List(fields.Nested(OptionInfo), required=True)
    provisional = fields.Boolean(required=True, metadata={"description": "part of the rules is a reconstruction"})
    bot_levels = fields.List(fields.String(validate=validate.OneOf(list(LEVELS))), required=True,
                             metadata={"description": "levels a bot seat may play, weakest first"})
    default_bot_level = fields.String(required=True, validate=validate.OneOf(list(LEVELS)),
                                      metadata={"description": "the level of a bot seat given as a plain number"})


class Catalogue(Schema):
    games = fields.List(fields.Nested(GameInfo), required=True)


# --- the table (every game) ----------------------------------------------------------------


#: How every time is written: RFC 3339 in UTC with milliseconds, e.g. ``2026-11-25T14:18:10.123Z``.
TIME_FORMAT = "RFC 3339 in UTC with milliseconds, e.g. `2026-11-25T14:18:10.123Z`"


def _time(description: str, nullable: bool) -> fields.DateTime:
    return fields.DateTime(format="iso", required=True, allow_none=nullable,
                           metadata={"description": f"{description} ({TIME_FORMAT})"})


class Seat(Schema):
    """One seat of the table, the same in every game: who sits there and what the table shows of it."""

    seat = _int(required=True, metadata={"description": "the seat's number, from 0"})
    name = fields.String(required=True, metadata={
        "description": "the seat's name: `Player 1`, `Player 2` ... for a person, the level's name for a bot "
                       "(`Greedy bot`); plain text, to be shown as text"})
    kind = fields.String(required=True, validate=validate.OneOf(["human", "bot", "open"]), metadata={
        "description": "`human` (a person with the seat's token), `bot` (the server plays it) or `open` "
                       "(nobody has taken it yet)"})
    level = fields.String(required=True, allow_none=True, validate=validate.OneOf(list(LEVELS)),
                          metadata={"description": "a bot's level; null for a person's seat"})
    status = fields.String(required=True, validate=validate.OneOf(["waiting", "playing", "replaced"]), metadata={
        "description": "`playing`; `waiting` for an open seat nobody has claimed; `replaced` once a bot has taken "
                       "the seat over (its `kind` is then `bot`)"})
    replaced_because = fields.String(required=True, allow_none=True, validate=validate.OneOf(["resigned", "timed_out"]),
                                     metadata={"description": "why a bot took the seat over; null unless `replaced`"})
    connected = fields.Boolean(required=True, allow_none=True, metadata={
        "description": "whether the seat's player is at the table now; null while the service does not know"})
    hand_count = _int(required=True, metadata={"description": "cards in the seat's hand"})
    score = _int(required=True, allow_none=True, metadata={
        "description": "the seat's running score in the game or match; null in a game that keeps none (the "
                       "catalogue's `scoring` says which way scores win)"})
    clock = fields.Dict(required=True, allow_none=True, metadata={
        "description": "the seat's clock; null: the game is not played on time"})


class Health(Schema):
    status = fields.String(required=True)
    store = fields.String()


# --- per game --------------------------------------------------------------------------


@dataclass(frozen=True)
class GameSchemas:
    """What a game's schema module declares: its prefix, its hand-written parts and its event schemas
    (generated from the engine's event types by ``schemas.events.event_schemas``)."""

    prefix: str  # "Sten": every class name of the game starts with it
    state: type[Schema]  # the view's ``state``
    result_detail: type[Schema]  # ``result.detail``
    #: event type -> its schema, made from the engine's event types (``schemas.events.event_schemas``)
    events: Mapping[str, type[Schema]] = dataclasses.field(default_factory=dict)
    #: the union of ``events`` (``<prefix>Event``), when the game's view names it too (its last move's
    #: events); else ``build`` makes it
    event: type[Schema] | None = None


@dataclass(frozen=True)
class BuiltSchemas:
    """Every wire schema of one game, built by ``build``."""

    prefix: str
    options: type[Schema]
    move: type[OneOfSchema]
    moves: Mapping[str, type[Schema]]
    create_request: type[Schema]
    create_response: type[Schema]
    view: type[Schema]
    move_request: type[Schema]
    log: type[Schema]
    log_entry: type[Schema]
    move_answer: type[Schema]


def _named(name: str, attrs: dict[str, Any], base: type = Schema, doc: str | None = None) -> type:
    attrs = dict(attrs)
    attrs["__doc__"] = doc
    attrs["__module__"] = __name__
    return type(name, (base,), attrs)


def option_field(opt: Option) -> fields.Field:
    """The marshmallow field for one engine ``Option``."""
    meta = {"description": opt.description + (" (provisional)" if opt.provisional else "")}
    common: dict[str, Any] = {"load_default": opt.default, "allow_none": opt.nullable, "metadata": meta}
    if opt.kind == "bool":
        return StrictBoolean(**common)
    if opt.kind == "int":
        return _int(validate=validate.Range(min=opt.minimum, max=opt.maximum), **common)
    if opt.kind == "choice":
        assert all(isinstance(c, str) for c in opt.choices), opt
        return fields.String(validate=validate.OneOf(list(opt.choices)), **common)
    raise AssertionError(f"unknown option kind {opt.kind}")


def _field_for(hint: Any, doc: str | None, required: bool, default: Any) -> fields.Field:
    meta = {"description": doc} if doc else {}
    kw: dict[str, Any] = {"metadata": meta}
    if required:
        kw["required"] = True
    else:
        kw["load_default"] = default
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(hint) if a is not type(None)]
        inner = _field_for(args[0], doc, required, default)
        inner.allow_none = True
        return inner
    if origin is tuple:
        item_type, ellipsis = typing.get_args(hint)
        assert ellipsis is Ellipsis, hint
        item = _field_for(item_type, None, True, None)
        return fields.List(item, validate=validate.Length(max=MAX_LIST), **kw)
    if hint is str:
        return fields.String(validate=validate.Length(max=64), **kw)
    if hint is bool:
        return StrictBoolean(**kw)
    if hint is int:
        return _int(**kw)
    raise AssertionError(f"no wire field for move field type {hint!r}")


def move_schema(prefix: str, kind: type[Move]) -> type[Schema]:
    """A schema for one move dataclass: its ``type`` tag plus one field per dataclass field."""
    hints = typing.get_type_hints(kind)
    attrs: dict[str, Any] = {
        "type": fields.String(required=True, validate=validate.OneOf([kind.type])),
        "Meta": type("Meta", (), {"unknown": RAISE}),
    }
    for f in dataclasses.fields(kind):
        has_default = f.default is not dataclasses.MISSING
        attrs[f.name] = _field_for(hints[f.name], f.metadata.get("doc"), not has_default, f.default)
    name = prefix + "".join(p.capitalize() for p in kind.type.split("_"))
    doc = (kind.__doc__ or "").strip().split("\n\n")[0] or None
    return _named(name, attrs, doc=doc)


def build(engine: Engine, game: GameSchemas) -> BuiltSchemas:
    """Build every wire schema of ``engine`` from its declarations and ``game``'s parts."""
    p = game.prefix
    options = _named(
        f"{p}Options",
        {o.name: option_field(o) for o in engine.options} | {"Meta": type("Meta", (), {"unknown": RAISE})},
        doc=f"House-rule options of {engine.title}; every one optional, with its default.",
    )
    moves = {k.type: move_schema(p, k) for k in engine.move_types}
    move = _named(f"{p}Move", {"type_schemas": moves}, base=MoveOneOf, doc=f"A move of {engine.title}.")
    result = _named(
        f"{p}Result",
        {
            "status": fields.String(required=True, validate=validate.OneOf(["finished", "aborted"])),
            "winners": fields.List(_int(), required=True),
            "losers": fields.List(_int(), required=True),
            "scores": fields.List(_int(), required=True, allow_none=True),
            "detail": fields.Nested(game.result_detail, required=True),
            "termination": fields.String(required=True, validate=validate.OneOf(list(TERMINATIONS)), metadata={
                "description": "how the game came to its end: `normal` (played out, or stopped by the game's own cap "
                               "on its length: then `status` is `aborted`); `resignation`, `timeout`, `abandoned` "
                               "and `aborted` are reserved for tables where players may resign, run out of time or "
                               "leave"}),
            "ranking": fields.List(fields.List(_int()), required=True, metadata={
                "description": "the seats best first, one list per place: tied seats share a place. By the scores "
                               "in the game's scoring direction (the catalogue's `scoring`), else winners first and "
                               "losers last; a game stopped by its cap ranks every seat equal"}),
            "forfeited": fields.List(_int(), required=True, metadata={
                "description": "seats that gave the game up (resigned, timed out or left); none yet"}),
        },
        doc="How the game ended.",
    )
    players = range(engine.players.start, engine.players.stop)
    create_request = _named(
        f"{p}CreateRequest",
        {
            "players": _int(required=True, validate=validate.Range(players.start, players.stop - 1)),
            "options": fields.Nested(options, load_default=dict),
            "seed": fields.String(
                validate=validate.Length(1, MAX_SEED),
                metadata={"description": "fixes the shuffle; needs fixed deals enabled on the server"},
            ),
            "deck": fields.List(
                fields.String(validate=validate.Length(max=16)),
                validate=validate.Length(max=MAX_DECK),
                metadata={"description": "the whole deck, top card first; needs fixed deals enabled"},
            ),
            "bots": fields.List(
                BotSeatField(),
                load_default=list,
                validate=validate.Length(max=players.stop),
                metadata={"description": "seats the server plays itself: a seat number (level "
                                         f"`{DEFAULT_LEVEL}`) or `{{\"seat\": 1, \"level\": \"strong\"}}`"},
            ),
            "Meta": type("Meta", (), {"unknown": RAISE}),
        },
        doc=f"Start a game of {engine.title}.",
    )
    seat = _named(
        f"{p}SeatToken",
        {
            "seat": _int(required=True),
            "token": fields.String(required=True, allow_none=True, metadata={"description": "null for a bot seat"}),
            "bot": fields.Boolean(required=True),
            "level": fields.String(required=True, allow_none=True, validate=validate.OneOf(list(LEVELS)),
                                   metadata={"description": "the bot's level; null for a human's seat"}),
        },
    )
    create_response = _named(
        f"{p}Created",
        {
            "game_id": fields.String(required=True),
            "game": fields.String(required=True),
            "version": _int(required=True),
            "players": _int(required=True),
            "seats": fields.List(fields.Nested(seat), required=True),
        },
        doc="The new game and its seat tokens; keep the tokens secret.",
    )
    view = _named(
        f"{p}View",
        {
            "game_id": fields.String(required=True),
            "game": fields.String(required=True),
            "version": _int(required=True),
            "status": fields.String(required=True, validate=validate.OneOf(["active", "finished"])),
            "players": _int(required=True),
            "seat": _int(required=True, allow_none=True, metadata={"description": "null for a spectator"}),
            "to_move": fields.List(_int(), required=True),
            "state": fields.Nested(game.state, required=True),
            "legal_moves": fields.List(fields.Nested(move), required=True),
            "seats": fields.List(fields.Nested(Seat), required=True, metadata={
                "description": "every seat of the table in seat order, the same shape in every game"}),
            "result": fields.Nested(result, required=True, allow_none=True),
            "provisional": fields.Boolean(required=True),
            "created_at": _time("when the game was created; null for a game created before the service kept "
                                "times", nullable=True),
            "updated_at": _time("when the game last changed (created, or its last move); null for a game not "
                                "changed since before the service kept times", nullable=True),
            "server_time": _time("when the service made this answer: with `updated_at`, how long ago the last "
                                 "move was, whatever the client's clock says", nullable=False),
        },
        doc=f"A seat's (or a spectator's) view of a game of {engine.title}.",
    )
    move_request = _named(
        f"{p}MoveRequest",
        {
            "version": _int(
                validate=validate.Range(min=0),
                metadata={"description": "the version last seen; stale -> 409 stale_version"},
            ),
            "move": fields.Nested(move, required=True),
            "Meta": type("Meta", (), {"unknown": RAISE}),
        },
        doc="One move for the caller's seat.",
    )
    if game.event is not None:
        event: type[Schema] = game.event
        events_field: fields.Field = fields.List(fields.Nested(event), required=True)
    elif game.events:
        event = _named(f"{p}Event", {"type_schemas": dict(game.events)}, base=MoveOneOf,
                       doc=event_doc(engine.title))
        events_field = fields.List(fields.Nested(event), required=True)
    else:
        events_field = fields.List(fields.Dict(), required=True)
    entry = _named(
        f"{p}LogEntry",
        {
            "version": _int(required=True, metadata={"description": "the game's version after this move"}),
            "seat": _int(required=True),
            "bot": fields.Boolean(required=True),
            "move": fields.Dict(required=True, metadata={"description": "the move, redacted for the caller"}),
            "events": events_field,
            "at": _time("when the move was applied; null for a move applied before the service kept times",
                        nullable=True),
        },
        doc="One applied move and what it caused, redacted for the caller.",
    )
    move_answer = _named(
        f"{p}MoveAnswer",
        {"entries": fields.List(fields.Nested(entry), required=True, metadata={
            "description": "the log entries this request wrote, oldest first: the move, then every bot move that "
                           "followed it, each as `get" + p + "Log` shows it to the mover"})},
        base=view,
        doc=f"The mover's new view of a game of {engine.title}, after any bot moves that followed, and what "
            "happened meanwhile.",
    )
    log = _named(
        f"{p}Log",
        {
            "game_id": fields.String(required=True),
            "version": _int(required=True),
            "entries": fields.List(fields.Nested(entry), required=True),
            "next_since": _int(required=True, allow_none=True,
                               metadata={"description": "more entries remain: ask again with this `since`"}),
        },
        doc="The move log, redacted for the caller.",
    )
    return BuiltSchemas(p, options, move, moves, create_request, create_response, view, move_request, log, entry,
                        move_answer)
