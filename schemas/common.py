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
from engines.cards import CardCodes
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


def _described(text: str, **kw: Any) -> dict[str, Any]:
    """``kw`` with ``text`` as the field's description (in the OpenAPI document)."""
    return {**kw, "metadata": {**kw.get("metadata", {}), "description": text}}


class CardField(fields.String):
    """A card code of one game. It loads as any text does (the rules judge the card: an unknown code is
    an ``illegal_move``); the OpenAPI document names the game's card schema for it (``<Prefix>Card``,
    made from the game's ``engines.cards.CardCodes`` by ``service.spec``)."""

    def __init__(self, prefix: str, codes: CardCodes, **kw: Any) -> None:
        super().__init__(**kw)
        self.component = f"{prefix}Card"
        self.codes = codes


def card_codes(engine: Engine) -> CardCodes | None:
    """The card codes ``engine``'s moves are marked with (``Annotated[str, CARDS]``), if any."""
    for kind in engine.move_types:
        for hint in typing.get_type_hints(kind, include_extras=True).values():
            found = _codes_in(hint)
            if found is not None:
                return found
    return None


def _codes_in(hint: Any) -> CardCodes | None:
    if typing.get_origin(hint) is typing.Annotated:
        for mark in typing.get_args(hint)[1:]:
            if isinstance(mark, CardCodes):
                return mark
    for arg in typing.get_args(hint):
        found = _codes_in(arg)
        if found is not None:
            return found
    return None


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
    """An error, as `application/problem+json` (RFC 9457). `code` says which error it is; the fields
    after it come only with the codes that name them. A refused request changed nothing (but for a
    `store_unavailable` whose `detail` says the write may have applied)."""

    type = fields.String(required=True, **_described(
        "A URI naming the kind of problem: `urn:cardtable:problem:<code>`."))
    title = fields.String(required=True, **_described("The name of the HTTP status, e.g. `Conflict`."))
    status = _int(required=True, **_described("The HTTP status code of the answer."))
    detail = fields.String(required=True, **_described(
        "What went wrong, for people. It never names a card hidden from the caller, and its wording may "
        "change: program against `code`."))
    code = fields.String(required=True, **_described(
        "The stable machine code of the error, e.g. `stale_version`, `illegal_move`, `rate_limited`. The "
        "API's description lists every code with its status and when it comes."))
    errors = fields.Dict(**_described(
        "With `validation_error`: what is invalid, by where it is (a body field such as `players` or "
        "`options.target`, a query parameter, a header) -> the messages, nested as the body is."))
    current_version = _int(**_described(
        "With `stale_version`, `not_your_turn`, `game_over` and `log_full`: the game's version now; fetch "
        "the view and decide again."))
    reason = fields.String(**_described(
        "With `illegal_move`: the rule the move breaks, as a stable code (each game's `<Game>MoveProblem` "
        "lists its codes and what each means)."))


def move_problem(prefix: str, engine: Engine) -> type[Schema]:
    """The problem a move of ``engine`` can be refused with (``<Prefix>MoveProblem``): ``Problem`` with
    ``reason`` one of the game's reasons (``Engine.reasons``), each described."""
    listed = "\n".join(f"- `{code}`: {meaning}" for code, meaning in engine.reasons.items())
    reason = fields.String(validate=validate.OneOf(list(engine.reasons)), **_described(
        f"With `illegal_move`: the rule of {engine.title} the move breaks, as a stable code, one of:\n\n{listed}"))
    return _named(f"{prefix}MoveProblem", {"reason": reason}, base=Problem, doc=(
        f"An error answering a move of {engine.title} (or its check), as `application/problem+json`: "
        "`illegal_move` names the broken rule in `reason`."))


def event_doc(title: str) -> str:
    """The description of a game's event union (``<prefix>Event``)."""
    return (f"Something a move of {title} caused, as the caller sees it; or, in an entry without a move, "
            "something of the table (`TableEvent...`: a seat claimed, the game started or called off).")


class MoveCheck(Schema):
    """The answer of `moves/check` for a move that would be accepted now."""

    legal = fields.Boolean(required=True, metadata={"description": "always true: a refused move is a 422 "
                                                                   "`illegal_move` problem instead"})


class LogQuery(Schema):
    """Which part of the log to answer with."""

    since = _int(validate=validate.Range(min=0), **_described(
        "Answer the entries after this version (default 0: from the start), oldest first."))
    limit = _int(validate=validate.Range(min=1, max=LOG_LIMIT_MAX), **_described(
        f"At most this many entries (default {LOG_LIMIT}, at most {LOG_LIMIT_MAX:,}); when more remain, the "
        "answer's `next_since` is the `since` to ask for next."))


# --- bots ------------------------------------------------------------------------------


class BotSeat(Schema):
    """A seat the server plays, at a level."""

    class Meta:
        unknown = RAISE

    seat = _int(required=True, validate=validate.Range(min=0), **_described(
        "The seat the server plays, 0 to `players` - 1."))
    level = fields.String(load_default=DEFAULT_LEVEL, validate=validate.OneOf(list(LEVELS)), **_described(
        f"How well it plays: one of {', '.join(f'`{x}`' for x in LEVELS)}, weakest first; default "
        f"`{DEFAULT_LEVEL}`."))


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
    """One house-rule option of a game: its name in `options` on create, its values and its default."""

    name = fields.String(required=True, **_described("The option's name, a key of `options` on create."))
    type = fields.String(required=True, validate=validate.OneOf(["boolean", "integer", "string"]), **_described(
        "The JSON type of its value: `boolean`, `integer`, or `string` (one of `choices`)."))
    default = fields.Raw(required=True, allow_none=True, **_described(
        "The value a game gets when create leaves the option out."))
    description = fields.String(required=True, **_described("What the option changes, for people."))
    nullable = fields.Boolean(required=True, **_described(
        "Whether `null` is allowed (the option's description says what it means then)."))
    provisional = fields.Boolean(required=True, **_described(
        "The option chooses between readings of a rule the published sources do not settle (a "
        "reconstruction)."))
    choices = fields.List(fields.Raw(), **_described("A `string` option's allowed values; absent for the others."))
    minimum = _int(**_described("An `integer` option's least value; absent for the others."))
    maximum = _int(**_described("An `integer` option's greatest value; absent for the others."))


class GameInfo(Schema):
    """One hosted game: its id, its player counts, its options and its bot levels."""

    game = fields.String(required=True, **_described("The game id: the path segment `/v1/{game}/...`."))
    title = fields.String(required=True, **_described("The game's name, for people."))
    description = fields.String(required=True, **_described("The game in a sentence or two."))
    scoring = fields.String(required=True, validate=validate.OneOf(list(SCORINGS)), **_described(
        "Which way a result's `scores` win: `higher_wins`, `lower_wins`, or `none` for a game that names "
        "winners and losers only."))
    typical_minutes = _int(required=True, **_described(
        "How long a game usually takes people, in minutes, at the default options (an estimate)."))
    rules_url = fields.String(required=True, **_described(
        "Where this service serves the game's rules as implemented (Markdown): a path on the service."))
    min_players = _int(required=True, **_described("The fewest players a game may be created for."))
    max_players = _int(required=True, **_described("The most players a game may be created for."))
    options = fields.List(fields.Nested(OptionInfo), required=True, **_described(
        "Every house-rule option of the game, in a stable order."))
    provisional = fields.Boolean(required=True, **_described(
        "Part of the rules is a reconstruction: some options are `provisional`."))
    bot_levels = fields.List(fields.String(validate=validate.OneOf(list(LEVELS))), required=True, **_described(
        "The levels a bot seat may play, weakest first."))
    default_bot_level = fields.String(required=True, validate=validate.OneOf(list(LEVELS)), **_described(
        "The level of a bot seat given on create as a plain seat number."))


class Catalogue(Schema):
    """Every game this service hosts."""

    games = fields.List(fields.Nested(GameInfo), required=True, **_described("One entry per game."))


# --- the table (every game) ----------------------------------------------------------------


#: How every time is written: RFC 3339 in UTC with milliseconds, e.g. ``2026-11-25T14:18:10.123Z``.
TIME_FORMAT = "RFC 3339 in UTC with milliseconds, e.g. `2026-11-25T14:18:10.123Z`"


def _time(description: str, nullable: bool) -> fields.DateTime:
    return fields.DateTime(format="iso", required=True, allow_none=nullable,
                           metadata={"description": f"{description} ({TIME_FORMAT})"})


class SeatClock(Schema):
    """A person's clock in a view."""

    remaining_ms = _int(required=True, metadata={
        "description": "the time left, in ms, as of the view's `server_time`: while `running` it falls until the "
                       "view's `deadline` (count it down from `server_time`, not from the browser's clock); "
                       "otherwise the bank (`fischer`) or the time of a turn (`per_move`)"})
    running = fields.Boolean(required=True, metadata={"description": "the seat is to move and its time runs"})


class Seat(Schema):
    """One seat of the table, the same in every game: who sits there and what the table shows of it."""

    seat = _int(required=True, metadata={"description": "the seat's number, from 0"})
    name = fields.String(required=True, metadata={
        "description": "the seat's name, as given on create or join; unnamed: `Player 1`, `Player 2` ... for a "
                       "person or an open seat, the level's name for a bot (`Greedy bot`). Text a person typed: "
                       "show it as text, never as markup"})
    kind = fields.String(required=True, validate=validate.OneOf(["human", "bot", "open"]), metadata={
        "description": "`human` (a person with the seat's token), `bot` (the server plays it) or `open` "
                       "(nobody has claimed it yet)"})
    level = fields.String(required=True, allow_none=True, validate=validate.OneOf(list(LEVELS)),
                          metadata={"description": "a bot's level; null for a person's seat"})
    status = fields.String(required=True, validate=validate.OneOf(["waiting", "playing", "replaced"]), metadata={
        "description": "`playing`; `waiting` for an open seat nobody has claimed; `replaced` once a bot has taken "
                       "the seat over (its `kind` is then `bot`)"})
    replaced_because = fields.String(required=True, allow_none=True, validate=validate.OneOf(["resigned", "timed_out"]),
                                     metadata={"description": "why a bot took the seat over; null unless `replaced`"})
    connected = fields.Boolean(required=True, allow_none=True, metadata={
        "description": "whether the seat's person is at the table now: true while the seat holds an event stream "
                       "or a long poll of the game, or made a request with its token in the last 30 s; null for "
                       "a bot's seat and an open one, and when the service cannot tell"})
    hand_count = _int(required=True, metadata={"description": "cards in the seat's hand"})
    score = _int(required=True, allow_none=True, metadata={
        "description": "the seat's running score in the game or match; null in a game that keeps none (the "
                       "catalogue's `scoring` says which way scores win)"})
    clock = fields.Nested(SeatClock, required=True, allow_none=True, metadata={
        "description": "a person's clock, `{\"remaining_ms\", \"running\"}`; null for a bot's seat, an open one, a "
                       "seat a bot took over, and in a game not played on time"})


class Health(Schema):
    """The process answers (and, for readiness, its store)."""

    status = fields.String(required=True, **_described("Always `ok`: any other state is an error answer."))
    store = fields.String(**_described(
        "Readiness only: the store that answered, `redis` or `memory` (games live only in this process)."))


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
    move_problem: type[Schema]  # a refused move (``<Prefix>MoveProblem``), its ``reason`` one of the game's
    move_answer: type[Schema]  # the mover's view and the entries the move wrote


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


def _field_for(hint: Any, doc: str | None, required: bool, default: Any, prefix: str) -> fields.Field:
    meta = {"description": doc} if doc else {}
    kw: dict[str, Any] = {"metadata": meta}
    if required:
        kw["required"] = True
    else:
        kw["load_default"] = default
    origin = typing.get_origin(hint)
    if origin is typing.Annotated:
        base, *marks = typing.get_args(hint)
        codes = next((m for m in marks if isinstance(m, CardCodes)), None)
        assert base is str and codes is not None, f"no wire field for move field type {hint!r}"
        return CardField(prefix, codes, validate=validate.Length(max=64), **kw)
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(hint) if a is not type(None)]
        inner = _field_for(args[0], doc, required, default, prefix)
        inner.allow_none = True
        return inner
    if origin is tuple:
        item_type, ellipsis = typing.get_args(hint)
        assert ellipsis is Ellipsis, hint
        item = _field_for(item_type, None, True, None, prefix)
        return fields.List(item, validate=validate.Length(max=MAX_LIST), **kw)
    if hint is str:
        return fields.String(validate=validate.Length(max=64), **kw)
    if hint is bool:
        return StrictBoolean(**kw)
    if hint is int:
        return _int(**kw)
    raise AssertionError(f"no wire field for move field type {hint!r}")


def _move_name(kind: type[Move]) -> str:
    return "".join(p.capitalize() for p in kind.type.split("_"))


def _move_fields(prefix: str, kind: type[Move], what: str) -> dict[str, Any]:
    """The ``type`` tag and one field per dataclass field of a move, as a schema's attributes."""
    hints = typing.get_type_hints(kind, include_extras=True)
    attrs: dict[str, Any] = {
        "type": fields.String(required=True, validate=validate.OneOf([kind.type]), **_described(
            f"Always `{kind.type}`: the kind of {what}.")),
        "Meta": type("Meta", (), {"unknown": RAISE}),
    }
    for f in dataclasses.fields(kind):
        has_default = f.default is not dataclasses.MISSING
        attrs[f.name] = _field_for(hints[f.name], f.metadata.get("doc"), not has_default, f.default, prefix)
    return attrs


def move_schema(prefix: str, kind: type[Move]) -> type[Schema]:
    """A schema for one move dataclass: its ``type`` tag plus one field per dataclass field."""
    doc = (kind.__doc__ or "").strip().split("\n\n")[0] or None
    return _named(prefix + _move_name(kind), _move_fields(prefix, kind, "move"), doc=doc)


def logged_move_schema(prefix: str, kind: type[Move], engine: Engine, posted: type[Schema]) -> type[Schema]:
    """How the log shows a move of ``kind``: ``posted`` (the move's own schema) when every viewer sees
    it as posted; else (``Move.shown_by``) ``<Prefix>Logged<Type>``, whose fields read off the move's
    own event are optional: each viewer sees them as that event shows them to him, or not at all."""
    if kind.shown_by is None:
        return posted
    from schemas.events import event_field  # schemas.events builds on this module

    event_type, names = kind.shown_by
    declared = next(k for k in engine.event_types if k.type == event_type)
    attrs = _move_fields(prefix, kind, "move")
    for name in names:
        f = event_field(prefix, declared, name)
        own = attrs.get(name)
        meaning: str = (own if own is not None else f).metadata["description"]  # both are declared with one
        meaning = meaning[:1].upper() + meaning[1:]
        text = (f"{meaning.rstrip('.')}. In the log, as the move's `{event_type}` event shows it to the caller"
                f"{': ' + f.metadata['description'].rstrip('.') if own is not None else ''}; absent where that "
                "event shows the caller none of it.")
        f.required = False
        f.metadata = {**f.metadata, "description": text}
        attrs[name] = f
    doc = (f"A `{kind.type}` move as the log shows it to the caller: its `{event_type}` event may hide "
           f"part of it ({', '.join(f'`{n}`' for n in names)}).")
    return _named(f"{prefix}Logged{_move_name(kind)}", attrs, doc=doc)


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
    logged = {k.type: logged_move_schema(p, k, engine, moves[k.type]) for k in engine.move_types}
    logged_move = _named(f"{p}LoggedMove", {"type_schemas": logged}, base=MoveOneOf, doc=(
        f"A move of {engine.title} as the log shows it to the caller: as posted, but where the move's own "
        "event hides part of it from some seat."))
    codes = card_codes(engine)
    result = _named(
        f"{p}Result",
        {
            "status": fields.String(required=True, validate=validate.OneOf(["finished", "aborted"]), **_described(
                "`finished`: played out; `aborted`: the game's safety cap on its length (an option) ended it, or the "
                "game was called off before it started (then `termination` is `aborted` too).")),
            "winners": fields.List(_int(), required=True, **_described(
                "The seats that won, by seat number; several when they share the win, none when nobody won.")),
            "losers": fields.List(_int(), required=True, **_described(
                "The seats that lost, where the game names losers (Sten's stone holder); often empty.")),
            "scores": fields.List(_int(), required=True, allow_none=True, **_described(
                "Each seat's final score, by seat; null where the game keeps none. Which way scores win is the "
                "catalogue's `scoring`; `ranking` says it by seat.")),
            "detail": fields.Nested(game.result_detail, required=True, allow_none=True, **_described(
                "What else the game says about its end (why it ended, the hands or deals played); null for a game "
                "called off before it started (`termination` `aborted`), which was never played.")),
            "termination": fields.String(required=True, validate=validate.OneOf(list(TERMINATIONS)), **_described(
                "How the game came to its end: `normal` (played out, or stopped by the game's own cap on its "
                "length: then `status` is `aborted`); `aborted` (a waiting game called off before it started); "
                "`resignation` (a two-player game a seat resigned), `timeout` (a two-player game a seat's clock "
                "ran out under `forfeit`), `abandoned` (nobody moved for the service's idle limit: nobody wins).")),
            "ranking": fields.List(fields.List(_int()), required=True, **_described(
                "The seats best first, one list per place: tied seats share a place. By the scores in the game's "
                "scoring direction (the catalogue's `scoring`), else winners first and losers last; a game "
                "stopped by its cap ranks every seat equal.")),
            "forfeited": fields.List(_int(), required=True, **_described(
                "Seats that gave the game up (resigned, or timed out under `forfeit`), ranked last in `ranking` "
                "and never among the winners.")),
        },
        doc="How the game ended.",
    )
    from schemas.clocks import clock_field  # schemas.clocks and schemas.people build on this module
    from schemas.people import TABLE_EVENTS, listed_field, seats_field

    players = range(engine.players.start, engine.players.stop)
    create_request = _named(
        f"{p}CreateRequest",
        {
            "players": _int(required=True, validate=validate.Range(players.start, players.stop - 1), **_described(
                f"How many seats the game has, {players.start} to {players.stop - 1}.")),
            "options": fields.Nested(options, load_default=dict, **_described(
                "House rules; each option left out takes its default (the catalogue lists them).")),
            "seed": fields.String(
                validate=validate.Length(1, MAX_SEED),
                **_described("Fixes every shuffle of the game, so that it deals the same again. The server "
                             "refuses it (403 `fixed_deal_disabled`) unless fixed deals are enabled."),
            ),
            "deck": fields.List(
                CardField(p, codes, validate=validate.Length(max=16)) if codes else fields.String(
                    validate=validate.Length(max=16)),
                validate=validate.Length(max=MAX_DECK),
                **_described("The whole deck, top card first, each card as often as the game has it: fixes the "
                             "first deal. Needs fixed deals enabled, like `seed`."),
            ),
            "bots": fields.List(
                BotSeatField(),
                load_default=list,
                validate=validate.Length(max=players.stop),
                **_described("Seats the server plays itself: a seat number (at level "
                             f"`{DEFAULT_LEVEL}`) or `{{\"seat\": 1, \"level\": \"strong\"}}`. At least one "
                             "seat stays a person's. `seats` says the same and more (names, open seats)."),
            ),
            "seats": seats_field(players.stop - 1),
            "listed": listed_field(),
            "clock": clock_field(),
            "Meta": type("Meta", (), {"unknown": RAISE}),
        },
        doc=f"Start a game of {engine.title}.",
    )
    seat = _named(
        f"{p}SeatToken",
        {
            "seat": _int(required=True, **_described("The seat number, from 0.")),
            "token": fields.String(required=True, allow_none=True, **_described(
                "The seat's secret: send it as `Authorization: Bearer <token>` to see and move as this seat. "
                "Shown only here, once; null for a bot seat and an open one.")),
            "bot": fields.Boolean(required=True, **_described("The server plays this seat.")),
            "level": fields.String(required=True, allow_none=True, validate=validate.OneOf(list(LEVELS)),
                                   **_described("The bot's level; null for a person's seat.")),
            "name": fields.String(required=True, **_described(
                "The seat's name, as every view shows it: the one given, else a default (`Player 2`, `Greedy "
                "bot`). Text a person typed: show it as text.")),
            "kind": fields.String(required=True, validate=validate.OneOf(["human", "bot", "open"]), **_described(
                "`human` (this answer carries its token), `bot` (the server plays it) or `open` (left for "
                "someone to claim with the game's `invite`; no token).")),
        },
        doc="One seat of a new game and the token that proves it.",
    )
    create_response = _named(
        f"{p}Created",
        {
            "game_id": fields.String(required=True, **_described(
                "The new game's id: the `{game_id}` of its paths (opaque, at most 64 URL-safe characters).")),
            "game": fields.String(required=True, **_described("The game id, as in the path.")),
            "version": _int(required=True, **_described(
                "The game's version: 0, or the number of bot moves already made when bots open the game.")),
            "players": _int(required=True, **_described("How many seats the game has.")),
            "status": fields.String(required=True, validate=validate.OneOf(["waiting", "active", "finished"]),
                                    **_described("`waiting` while open seats wait to be claimed, else `active` "
                                                 "(or `finished`, when the bots' opening moves ended it).")),
            "seats": fields.List(fields.Nested(seat), required=True, **_described(
                "Every seat, in order, with its token.")),
            "invite": fields.String(required=True, allow_none=True, **_described(
                "With open seats: the secret that claims one (`join<Game>Game`); pass it on to those you "
                "invite, for instance in a link. Shown only here, once (the service keeps its hash only). "
                "Null when every seat is taken.")),
        },
        doc="The new game and its seat tokens; keep the tokens secret.",
    )
    view = _named(
        f"{p}View",
        {
            "game_id": fields.String(required=True, **_described("The game's id.")),
            "game": fields.String(required=True, **_described("The game id, as in the path.")),
            "version": _int(required=True, **_described(
                "The number of moves applied so far, bot moves included: the game's clock for ETags, a "
                "move's `version`, the log and the event stream.")),
            "status": fields.String(required=True, validate=validate.OneOf(["waiting", "active", "finished"]),
                                    **_described("`waiting` while open seats wait to be claimed (no move is "
                                                 "accepted yet), `active` while the game runs, `finished` once "
                                                 "`result` says how it ended.")),
            "players": _int(required=True, **_described("How many seats the game has.")),
            "seat": _int(required=True, allow_none=True, **_described(
                "The caller's seat; null for a spectator (a request without a token).")),
            "to_move": fields.List(_int(), required=True, **_described(
                "The seats whose turn it is; empty once the game is over.")),
            "state": fields.Nested(game.state, required=True, **_described(
                f"What this viewer may see of the game: the cards of {engine.title} as they lie at the table. "
                "Other seats' hands appear only as counts.")),
            "legal_moves": fields.List(fields.Nested(move), required=True, **_described(
                "The caller's legal moves, each one postable as it is; empty for a spectator, a seat not to "
                "move and a finished game. Every kind of move the seat may make is listed.")),
            "seats": fields.List(fields.Nested(Seat), required=True, **_described(
                "Every seat of the table in seat order, the same shape in every game.")),
            "result": fields.Nested(result, required=True, allow_none=True, **_described(
                "How the game ended; null while it runs.")),
            "provisional": fields.Boolean(required=True, **_described(
                "Part of the game's rules is a reconstruction (the catalogue marks its options).")),
            "created_at": _time("When the game was created; null for a game created before the service kept "
                                "times", nullable=True),
            "updated_at": _time("When the game last changed (created, or its last move); null for a game not "
                                "changed since before the service kept times", nullable=True),
            "server_time": _time("When the service made this answer: with `updated_at`, how long ago the last "
                                 "move was, whatever the client's clock says", nullable=False),
            "deadline": _time("When the running clock runs out: the first deadline of a seat to move; null "
                              "while no clock runs (a game without one, a bot to move, a waiting or finished game)",
                              nullable=True),
            "next_game_id": fields.String(required=True, allow_none=True, **_described(
                f"Once someone asked for a rematch of this finished game (`rematch{p}Game`): the id of the next "
                "game. Null until then.")),
        },
        doc=f"A seat's (or a spectator's) view of a game of {engine.title}.",
    )
    move_request = _named(
        f"{p}MoveRequest",
        {
            "version": _int(
                validate=validate.Range(min=0),
                **_described("The version the move was decided on (the view's `version`). If the game has "
                             "moved on, the move is refused with 409 `stale_version` and nothing changes; "
                             "without it, the move is judged against the newest state."),
            ),
            "move": fields.Nested(move, required=True, **_described(
                "The move: an entry of `legal_moves` as it is, or one the client composed.")),
            "Meta": type("Meta", (), {"unknown": RAISE}),
        },
        doc="One move for the caller's seat.",
    )
    if game.event is not None:
        event: type[Schema] = game.event
        events_field: fields.Field = fields.List(fields.Nested(event), required=True)
    elif game.events:
        event = _named(f"{p}Event", {"type_schemas": {**game.events, **TABLE_EVENTS}}, base=MoveOneOf,
                       doc=event_doc(engine.title))
        events_field = fields.List(fields.Nested(event), required=True)
    else:
        events_field = fields.List(fields.Dict(), required=True)
    events_field.metadata = {"description": "What the move caused that a viewer at the table sees, in order, "
                                            "redacted for the caller; `game_over` last when it ended the game."}
    entry = _named(
        f"{p}LogEntry",
        {
            "version": _int(required=True, **_described(
                "The game's version after this move: entry `v` is the `v`-th move.")),
            "seat": _int(required=True, allow_none=True, **_described(
                "The seat that moved (or, in an entry of the table, acted); null in an entry of the service "
                "itself (`game_abandoned`).")),
            "bot": fields.Boolean(required=True, **_described("The server's bot made the move.")),
            "move": fields.Nested(logged_move, required=True, allow_none=True, **_described(
                "The move as the caller may see it: as posted, but where its own event hides part of it. Null "
                "in an entry of the table, which no move made (a seat claimed, the game started or called off: "
                "its `events` say which, and `seat` is the person who did it).")),
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
            "game_id": fields.String(required=True, **_described("The game's id.")),
            "version": _int(required=True, **_described("The game's version now.")),
            "entries": fields.List(fields.Nested(entry), required=True, **_described(
                "The entries asked for, oldest first: one per move, bot moves included.")),
            "next_since": _int(required=True, allow_none=True, **_described(
                "More entries remain: ask again with this `since`. Null when these are the last.")),
        },
        doc="The move log, redacted for the caller.",
    )
    problem = move_problem(p, engine)
    return BuiltSchemas(p, options, move, moves, create_request, create_response, view, move_request, log, entry,
                        problem, move_answer)
