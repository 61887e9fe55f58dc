"""Wire schemas of the people at a table, the same for every game: the seats a create asks for (a named
person, a bot, an open seat), the names people give themselves, joining a waiting game, the lobby of
open games, a rematch and looking games up by their tokens.

A name is text a person typed: it is trimmed, must then be 1-24 characters, and may hold no control
or format character (Unicode categories Cc and Cf) nor anything else Python does not call printable
(separators other than the space, unassigned code points). Everywhere it is shown it is data, drawn
as text.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from typing import Any

from marshmallow import RAISE, Schema, ValidationError, fields, validate

from bots import DEFAULT_LEVEL, LEVELS
from engines import table
from schemas.common import StrictBoolean, _described
from schemas.events import event_schemas

#: The events of the table (``engines.table``), in every game's log beside its own: ``TableEvent<Type>``.
TABLE_EVENTS: dict[str, type[Schema]] = event_schemas("Table", table.EVENT_TYPES)

#: A name's length after trimming, in characters (code points).
NAME_MAX = 24
#: What a name may be before trimming: a bound on what is read at all.
NAME_RAW_MAX = 64
#: Characters a name may not hold: control (Cc) and format (Cf) characters.
FORBIDDEN_CATEGORIES = ("Cc", "Cf")
NAME_RULE = (f"1-{NAME_MAX} characters after trimming the spaces around it, printable, no control or format "
             "character")


def name_problem(name: str) -> str | None:
    """Why ``name`` (already trimmed) is no name, or None when it is one."""
    if not 1 <= len(name) <= NAME_MAX:
        return f"Must be 1-{NAME_MAX} characters after trimming."
    for char in name:
        if unicodedata.category(char) in FORBIDDEN_CATEGORIES or not char.isprintable():
            return f"Must be printable text: U+{ord(char):04X} is a control, format or unprintable character."
    return None


class SeatName(fields.String):
    """A person's or a seat's name: loads trimmed, refused (422) unless ``name_problem`` finds none."""

    def __init__(self, **kw: Any) -> None:
        super().__init__(validate=validate.Length(1, NAME_RAW_MAX), **kw)

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> str:
        text: str = super()._deserialize(value, attr, data, **kwargs)
        if len(text) > NAME_RAW_MAX:  # before anything else looks at it
            raise ValidationError(f"Must be 1-{NAME_MAX} characters after trimming.")
        name = text.strip()
        problem = name_problem(name)
        if problem is not None:
            raise ValidationError(problem)
        return name


def _name(required: bool, whose: str) -> SeatName:
    return SeatName(required=required, **_described(f"{whose}: {NAME_RULE}. Shown to everyone at the table, "
                                                    "as text."))


class SeatPerson(Schema):
    """A seat of a person whose token the creator receives."""

    class Meta:
        unknown = RAISE

    name = _name(True, "The person's name")


class SeatBot(Schema):
    """A seat the server plays, at a level."""

    class Meta:
        unknown = RAISE

    bot = fields.String(required=True, validate=validate.OneOf(list(LEVELS)), **_described(
        f"The bot's level: one of {', '.join(f'`{x}`' for x in LEVELS)}, weakest first (the catalogue's "
        f"`default_bot_level` is `{DEFAULT_LEVEL}`)."))
    name = _name(False, "The bot's name (default: the level's name, `Greedy bot`)")


class SeatOpen(Schema):
    """A seat left open: anyone with the game's `invite` (or, in a listed game, anyone) may claim it."""

    class Meta:
        unknown = RAISE

    open = StrictBoolean(required=True, validate=validate.OneOf([True], error="Must be true."),
                          **_described("Always true."))
    name = _name(False, "A name for the seat while it waits (whoever claims it names himself)")


class SeatSpecField(fields.Field):
    """An entry of ``seats`` on create: ``{"name"}`` (a person), ``{"bot", "name"?}`` or ``{"open": true,
    "name"?}``. Loads to ``{"kind": "human" | "bot" | "open", "name": str | None, "level": str | None}``;
    documented as ``oneOf`` (``service.spec``)."""

    KINDS: tuple[tuple[str, str, type[Schema]], ...] = (("bot", "bot", SeatBot), ("open", "open", SeatOpen))

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> dict[str, Any]:
        if not isinstance(value, Mapping):
            raise ValidationError('Must be an object: {"name"}, {"bot", "name"?} or {"open": true, "name"?}.')
        kind: str = "human"
        schema: type[Schema] = SeatPerson
        for key, named, which in self.KINDS:
            if key in value:
                kind, schema = named, which
                break
        loaded = schema().load(value)
        return {"kind": kind, "name": loaded.get("name"), "level": loaded.get("bot")}


def seats_field(most: int) -> fields.List:
    """``seats`` of a create request: one entry per player."""
    return fields.List(SeatSpecField(), validate=validate.Length(min=1, max=most), **_described(
        "Who sits where, one entry per player in seat order (its length must be `players`): "
        "`{\"name\": \"Ann\"}` is a person, whose token this answer carries; `{\"bot\": \"greedy\"}` a seat the "
        "server plays (`name` optional); `{\"open\": true}` a seat left for someone to claim with `join` "
        "(`name` optional): a game with open seats waits for them (`status` `waiting`). Instead of `bots`, "
        "not beside it. Unnamed seats get a default name (`Player 2`, `Greedy bot`)."))


def listed_field() -> StrictBoolean:
    # No `default` in the spec: generated TypeScript types would make a field with one required.
    return StrictBoolean(**_described(
        "Show the game in the lobby (`list<Game>Games`) while it waits for its open seats; anyone may then "
        "join it without the invite. Default false: only those given the `invite` can join."))


#: The longest invite a join may carry (an invite is 32 characters).
INVITE_MAX = 64


class JoinRequest(Schema):
    """Claim an open seat of a waiting game."""

    class Meta:
        unknown = RAISE

    invite = fields.String(validate=validate.Length(1, INVITE_MAX), **_described(
        "The game's `invite`, from its create answer (a link passes it on). Not needed to join a listed game."))
    name = _name(True, "The name to sit down with")
    seat = fields.Integer(strict=True, validate=validate.Range(min=0), **_described(
        "The open seat to claim; default: the first open seat."))


class Joined(Schema):
    """The seat claimed and its token, shown only in this answer (a retry with the same Idempotency-Key
    shows it again)."""

    game_id = fields.String(required=True, **_described("The game's id."))
    seat = fields.Integer(strict=True, required=True, **_described("The seat claimed, from 0."))
    token = fields.String(required=True, **_described(
        "The seat's secret: send it as `Authorization: Bearer <token>` to see and move as this seat. Keep it."))


#: Games a page of the lobby holds: by default, and at most (``?limit=``).
LOBBY_PAGE = 20
LOBBY_PAGE_MAX = 50


class LobbyQuery(Schema):
    """Which page of the lobby to answer with."""

    status = fields.String(validate=validate.OneOf(["waiting"]), **_described(
        "Which games: `waiting` (the default, and the only games the lobby lists)."))
    limit = fields.Integer(strict=True, validate=validate.Range(1, LOBBY_PAGE_MAX), **_described(
        f"At most this many games (default {LOBBY_PAGE}, at most {LOBBY_PAGE_MAX})."))
    cursor = fields.String(validate=validate.Regexp(r"^[0-9]{16}:[A-Za-z0-9_-]{1,64}$"), **_described(
        "Go on after the last page: its `next_cursor`."))


class LobbySeat(Schema):
    """One seat of a game in the lobby: who sits there, or that it is open."""

    seat = fields.Integer(strict=True, required=True, **_described("The seat's number, from 0."))
    name = fields.String(required=True, **_described(
        "The seat's name (text a person typed: show it as text); an open seat's is a default or the one its "
        "creator gave it."))
    kind = fields.String(required=True, validate=validate.OneOf(["human", "bot", "open"]), **_described(
        "`human`, `bot` or `open` (free to claim with `join`)."))
    level = fields.String(required=True, allow_none=True, validate=validate.OneOf(list(LEVELS)), **_described(
        "A bot's level; null for a person's seat and an open one."))
    status = fields.String(required=True, validate=validate.OneOf(["waiting", "playing"]), **_described(
        "`waiting` for an open seat, else `playing`."))


class LobbyGame(Schema):
    """A listed game that waits for people."""

    game_id = fields.String(required=True, **_described("The game's id: join it at `.../games/{game_id}/join`."))
    game = fields.String(required=True, **_described("The game id, as in the path."))
    players = fields.Integer(strict=True, required=True, **_described("How many seats the game has."))
    created_at = fields.DateTime(format="iso", required=True, allow_none=True, **_described(
        "When the game was created (RFC 3339 in UTC with milliseconds)."))
    options = fields.Dict(keys=fields.String(), required=True, **_described(
        "The game's house rules, every option with its value (the catalogue describes them)."))
    seats = fields.List(fields.Nested(LobbySeat), required=True, **_described("Every seat, in order."))


class Lobby(Schema):
    """A page of the lobby, newest first."""

    games = fields.List(fields.Nested(LobbyGame), required=True, **_described("The games of this page."))
    next_cursor = fields.String(required=True, allow_none=True, **_described(
        "More may follow: ask again with this `cursor`. Null after the last page."))


#: Tokens one lookup may carry.
LOOKUP_MAX = 50


class LookupRequest(Schema):
    """The seat tokens a client keeps, to find their games (in the body: a token never goes in a URL)."""

    class Meta:
        unknown = RAISE

    tokens = fields.List(fields.String(validate=validate.Length(1, 200)), required=True,
                         validate=validate.Length(max=LOOKUP_MAX), **_described(
                             f"Seat tokens, at most {LOOKUP_MAX}; the answer has one item per token, in order."))


class LookupItem(Schema):
    """The game and seat of one token."""

    game = fields.String(required=True, **_described("The game id, as in the paths (`sten`, ...)."))
    game_id = fields.String(required=True, **_described("The game's id."))
    seat = fields.Integer(strict=True, required=True, **_described("The token's seat, from 0."))
    status = fields.String(required=True, validate=validate.OneOf(["waiting", "active", "finished"]), **_described(
        "The game's `status`, as its view says it."))
    your_turn = fields.Boolean(required=True, **_described("The seat is to move now (the game runs)."))
    deadline = fields.DateTime(format="iso", required=True, allow_none=True, **_described(
        "When the seat's time to move runs out (RFC 3339 in UTC); null: no clock runs for it."))


class LookupAnswer(Schema):
    """The games of the tokens, one item per token in order."""

    games = fields.List(fields.Nested(LookupItem, allow_none=True), required=True, **_described(
        "One item per token, in the order sent: its game and seat, or null for a token that is no seat of a "
        "game here (made up, mistyped, its game expired, or handed out before tokens named their game)."))


class Rematched(Schema):
    """The next game and the caller's seat in it, with its token (the same on every call)."""

    game_id = fields.String(required=True, **_described("The next game's id (the finished game's `next_game_id`)."))
    seat = fields.Integer(strict=True, required=True, **_described(
        "The caller's seat in the next game: the seat after his in the finished one."))
    token = fields.String(required=True, **_described(
        "The caller's token in the next game; a repeated call answers the same one."))
