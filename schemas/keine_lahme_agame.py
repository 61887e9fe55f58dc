"""Wire schemas of Keine lahme Agame (seeds/keine-lahme-agame.md): the view's ``state`` and the
result ``detail``.

Options, moves and the envelopes are built by ``schemas.common.build``, the events by
``schemas.events.event_schemas``, from the engine's declarations; only what is this game's own is
written here. Card codes are ``<colour>-<value>`` (``red-13``, ``blue-1``, ``green-hat``).
"""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, fields, validate

from engines.keine_lahme_agame import events
from engines.keine_lahme_agame.options import OPTIONS
from schemas.common import GameSchemas
from schemas.events import event_schemas

_PHASES = validate.OneOf(["lead", "catching", "trick_lead", "trick", "place", "over"])
_CARDS = "card codes `<colour>-<value>`, e.g. `red-13`, `blue-hat`"


def _cards(description: str, **kw: Any) -> fields.List:
    return fields.List(fields.String(), required=True, metadata={"description": f"{description} ({_CARDS})"}, **kw)


def _seat(description: str, **kw: Any) -> fields.Integer:
    return fields.Integer(required=True, metadata={"description": description}, **kw)


#: The catalogue's words for each option, repeated where the view shows the option in force.
_OPTION = {o.name: o.description for o in OPTIONS}


def _option(field: type[fields.Field], name: str, **kw: Any) -> fields.Field:
    return field(required=True, metadata={"description": _OPTION[name]}, **kw)


class KeineLahmeAgamePlayer(Schema):
    """What is this game's own of one seat: its colour and its display (row). Its hand size and score
    are the state's ``hand_counts`` and ``scores``."""

    seat = _seat("the seat these facts are about")
    colour = fields.String(required=True, metadata={"description": "the seat's colour (placeholder names)"})
    row = _cards("the seat's display, in canonical order")
    missing = fields.List(fields.String(), required=True,
                          metadata={"description": "empty row positions: values `1`..`34` or `hat`"})
    row_complete = fields.Boolean(required=True, metadata={"description": "every position of the row is filled"})
    row_points = fields.Integer(required=True, metadata={"description": "what the row would score now (§7.2)"})


class KeineLahmeAgameCaught(Schema):
    """A card caught in the running catching round, beside its catcher's row until the round ends."""

    seat = fields.Integer(required=True, metadata={"description": "the catcher"})
    card = fields.String(required=True, metadata={"description": f"the caught card ({_CARDS})"})
    from_seat = fields.Integer(required=True, allow_none=True,
                               metadata={"description": "whose display it came from; null = the discard pile"})


class KeineLahmeAgamePlay(Schema):
    """One player's cards in a trick."""

    seat = _seat("who played them")
    cards = _cards("one or two cards, in the order played")
    value = fields.Integer(required=True, allow_none=True,
                           metadata={"description": "the card's value or the two cards' sum; null for a hat"})


class KeineLahmeAgameCatchTarget(Schema):
    """A card the viewer may catch now (fits his row)."""

    card = fields.String(required=True, metadata={"description": f"the card that may be caught ({_CARDS})"})
    from_seat = fields.Integer(required=True, allow_none=True,
                               metadata={"description": "the display's seat; null = top of the discard pile"})
    value = fields.Integer(required=True, allow_none=True,
                           metadata={"description": "the least total a payment must reach; null for a hat"})


class KeineLahmeAgameLastTrick(Schema):
    """The last completed trick and where its cards went."""

    plays = fields.List(fields.Nested(KeineLahmeAgamePlay), required=True,
                        metadata={"description": "every play of the trick, in the order played"})
    winner = _seat("who won the trick")
    placed = _cards("won cards put into the winner's row")
    rest = _cards("the other won cards")
    rest_to = fields.String(required=True, validate=validate.OneOf(["hand", "discard"]),
                            metadata={"description": "the winner's hand or the discard pile (trick_capture)"})


class KeineLahmeAgameSectionScore(Schema):
    """One seat's score at a section's end, item by item (§7.2): a complete row scores 100, any other
    row 10 per card (``section_scoring=complete100_else_10_per_card``) or 0; ``points`` is their sum."""

    seat = _seat("whose score this is")
    row_cards = fields.Integer(required=True, metadata={"description": "cards in the seat's row"})
    complete = fields.Boolean(required=True, metadata={"description": "every row position filled"})
    complete_points = fields.Integer(required=True, metadata={"description": "100 for a complete row, else 0"})
    card_points = fields.Integer(
        required=True, metadata={"description": "10 per row card for an incomplete row, or 0 (section_scoring)"})
    points = fields.Integer(required=True, metadata={"description": "complete_points + card_points"})


def _table(description: str) -> fields.List:
    return fields.List(fields.List(fields.String()), required=True, allow_none=True,
                       metadata={"description": f"{description}, per seat ({_CARDS}); null for a section "
                                                "finished before snapshot format 2"})


class KeineLahmeAgameLastSection(Schema):
    """The last finished section and its final table (seeds "Events"): kept until the next one ends."""

    section = fields.Integer(required=True, metadata={"description": "1-based"})
    emptied = fields.List(fields.Integer(), required=True, metadata={"description": "seats without hand cards"})
    points = fields.List(fields.Integer(), required=True, metadata={"description": "points per seat"})
    complete = fields.List(fields.Boolean(), required=True, metadata={"description": "complete rows per seat"})
    hands = _table("the hands revealed at the section's end")
    rows = _table("the rows as scored")
    discard = fields.List(fields.String(), required=True, allow_none=True,
                          metadata={"description": "the discard pile at the section's end, bottom first; null for "
                                                   "a section finished before snapshot format 2"})
    breakdown = fields.List(fields.Nested(KeineLahmeAgameSectionScore), required=True, allow_none=True,
                            metadata={"description": "the score per seat and item; null when the rows are unknown"})
    scores = fields.List(fields.Integer(), required=True, metadata={"description": "totals per seat after it"})


class KeineLahmeAgameOptionsInForce(Schema):
    """The game's resolved options (see the catalogue)."""

    card_set = _option(fields.String, "card_set", validate=validate.OneOf(["H2", "H1"]))
    first_leader = _option(fields.String, "first_leader", validate=validate.OneOf(["seat0", "random"]))
    trick_capture = _option(fields.String, "trick_capture",
                            validate=validate.OneOf(["row_then_hand", "row_then_discard"]))
    trick_placement = _option(fields.String, "trick_placement", validate=validate.OneOf(["auto", "choose"]))
    row_accepts_own_colour = _option(fields.Boolean, "row_accepts_own_colour")
    hut_has_slot = _option(fields.Boolean, "hut_has_slot")
    hut_payment = _option(fields.String, "hut_payment", validate=validate.OneOf(["infinite", "forbidden"]))
    section_scoring = _option(fields.String, "section_scoring",
                              validate=validate.OneOf(["complete100_else_10_per_card", "complete100_only"]))
    section_reset = _option(fields.String, "section_reset", validate=validate.OneOf(["full", "rows_persist"]))
    sections_per_game = fields.Integer(required=True, metadata={
        "description": "sections in the game, resolved: a null option became one per player"})
    max_turns = _option(fields.Integer, "max_turns")


class KeineLahmeAgameState(Schema):
    """What the viewer sees of a game of Keine lahme Agame (seeds/keine-lahme-agame.md §10)."""

    phase = fields.String(required=True, validate=_PHASES, metadata={
        "description": "where the round stands (seeds §3): lead, catching, trick_lead, trick, place, or over"})
    section = fields.Integer(required=True, metadata={"description": "the running (or last) section, 1-based"})
    sections_per_game = fields.Integer(required=True, metadata={"description": "sections the game lasts"})
    turns_played = fields.Integer(required=True, metadata={
        "description": "turns completed so far; this game counts every move as a turn (the count max_turns caps)"})
    max_turns = fields.Integer(required=True, metadata={"description": "the option max_turns in force: after this "
                                                                      "many turns the game ends as aborted"})
    leader = fields.Integer(required=True, metadata={"description": "the round's leader (Startspieler)"})
    current = fields.Integer(required=True, allow_none=True,
                             metadata={"description": "the seat whose turn it is; null once the game is over"})
    row_slots = fields.List(fields.String(), required=True,
                            metadata={"description": "the positions of a row: values and maybe `hat`"})
    players = fields.List(fields.Nested(KeineLahmeAgamePlayer), required=True,
                          metadata={"description": "per seat, in seat order: its colour and its row"})
    hand = fields.List(fields.String(), required=True, allow_none=True,
                       metadata={"description": f"the viewer's hand; null for a spectator ({_CARDS})"})
    hand_counts = fields.List(fields.Integer(), required=True, metadata={"description": "cards in each seat's hand"})
    discard_pile = _cards("the face-up discard pile, bottom first")
    discard_count = fields.Integer(required=True, metadata={"description": "cards in the discard pile"})
    discard_top = fields.String(required=True, allow_none=True,
                                metadata={"description": f"the pile's top card, the one that may be caught; null "
                                                         f"while the pile is empty ({_CARDS})"})
    caught = fields.List(fields.Nested(KeineLahmeAgameCaught), required=True, metadata={
        "description": "the cards caught so far in the running catching round, in order; [] outside one"})
    trick = fields.List(fields.Nested(KeineLahmeAgamePlay), required=True, metadata={"description": "running trick"})
    catch_targets = fields.List(fields.Nested(KeineLahmeAgameCatchTarget), required=True,
                                metadata={"description": "cards the viewer may catch now (empty unless to catch)"})
    last_trick = fields.Nested(KeineLahmeAgameLastTrick, required=True, allow_none=True, metadata={
        "description": "the last completed trick and where its cards went; null before the first"})
    last_section = fields.Nested(KeineLahmeAgameLastSection, required=True, allow_none=True, metadata={
        "description": "the last finished section with its final table, kept until the next one ends; null before"})
    section_points = fields.List(fields.List(fields.Integer()), required=True,
                                 metadata={"description": "points per seat of each finished section"})
    scores = fields.List(fields.Integer(), required=True,
                         metadata={"description": "each seat's score: its points over the finished sections"})
    options = fields.Nested(KeineLahmeAgameOptionsInForce, required=True,
                            metadata={"description": "the options the game is played with, resolved"})
    provisional_rules = fields.List(fields.String(), required=True,
                                    metadata={"description": "names of the options that are provisional rulings"})


class KeineLahmeAgameResultDetail(Schema):
    """How a game of Keine lahme Agame ended."""

    reason = fields.String(required=True, validate=validate.OneOf(["sections_complete", "max_turns"]), metadata={
        "description": "sections_complete: every section was played; max_turns: the turn cap aborted the game"})
    sections_played = fields.Integer(required=True, metadata={"description": "sections finished and scored"})
    section_points = fields.List(fields.List(fields.Integer()), required=True,
                                 metadata={"description": "points per seat of each finished section"})


GAME = GameSchemas(
    prefix="KeineLahmeAgame", state=KeineLahmeAgameState, result_detail=KeineLahmeAgameResultDetail,
    events=event_schemas("KeineLahmeAgame", events.EVENT_TYPES, {
        events.CaughtCard: KeineLahmeAgameCaught, events.SectionJSON: KeineLahmeAgameLastSection}),
)
