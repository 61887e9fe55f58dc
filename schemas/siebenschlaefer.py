"""Wire schemas of Siebenschläfer (seeds/siebenschlaefer.md): the view's ``state`` and the result
``detail``.

Options, moves and the envelopes are built by ``schemas.common.build``, the events (section 16) by
``schemas.events.event_schemas``, from the engine's declarations; only what is Siebenschläfer's own
is written here. The view names the events too (its last move's), so the union is made here.
"""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, fields, validate

from engines.siebenschlaefer import events
from schemas.common import GameSchemas, MoveOneOf, event_doc
from schemas.events import event_schemas
from schemas.people import TABLE_EVENTS


def _int(**kw: Any) -> fields.Integer:
    return fields.Integer(strict=True, **kw)


def _ints(description: str) -> fields.List:
    return fields.List(_int(), required=True, metadata={"description": description})


class SiebenschlaeferLot(Schema):
    """One card drawn in the lot for the opener (seeds/siebenschlaefer.md section 3)."""

    seat = _int(required=True, metadata={"description": "who drew the card"})
    card = fields.String(required=True, metadata={"description": "the card drawn"})


class SiebenschlaeferBreakdown(Schema):
    """How one hand counts at a round's end (section 9), per scoring item."""

    numbers = _int(required=True, metadata={"description": "number cards at face value"})
    faces = _int(required=True, metadata={"description": "J, Q, K at 12 each"})
    aces = _int(required=True, metadata={"description": "aces at 11 each"})
    total = _int(required=True, metadata={"description": "the sum: the seat's hand_values entry"})


class SiebenschlaeferTable(Schema):
    """The table as a round ended (section 16)."""

    top = fields.List(fields.String(), required=True, allow_none=True,
                      metadata={"description": "the top pair of the played pile (the winning pair); null if empty"})
    target = _int(required=True, allow_none=True, metadata={"description": "the value to beat then; null when free"})
    pile_count = _int(required=True, metadata={"description": "cards in the played pile"})
    stock_count = _int(required=True, metadata={"description": "cards in the stock"})


class SiebenschlaeferRound(Schema):
    """A finished round: who went out (or that it stalled), the counted hands, who pays (sections 9, 12)."""

    round = _int(required=True, metadata={"description": "its number, from 1"})
    reason = fields.String(
        required=True,
        validate=validate.OneOf(["went_out", "stalled"]),
        metadata={"description": "went_out = a hand was emptied; stalled = the round could never end and was counted"},
    )
    winner = _int(
        required=True,
        allow_none=True,
        metadata={"description": "the seat that emptied its hand first; null when the round stalled"},
    )
    winners = _ints("who won the round: [winner], or the seats with the fewest points of a stalled round")
    payers = _ints("seats with the highest count, who pay the next round of drinks")
    hand_values = _ints("counted points per seat (J/Q/K 12, A 11, numbers face value; the winner 0)")
    hands = fields.List(fields.List(fields.String()), required=True, metadata={"description": "the hands laid open"})
    breakdown = fields.List(fields.Nested(SiebenschlaeferBreakdown), required=True,
                            metadata={"description": "per seat, how its hand counts (numbers, faces, aces, total)"})
    table = fields.Nested(SiebenschlaeferTable, required=True, allow_none=True,
                          metadata={"description": "the table as the round ended; null for a round that ended "
                                                   "before snapshot format 3 kept it"})


class SiebenschlaeferResultDetail(Schema):
    """How a game of Siebenschläfer ended (sections 9, 11, 12)."""

    reason = fields.String(
        required=True,
        validate=validate.OneOf(["went_out", "stalled", "max_turns"]),
        metadata={"description": "how the last round ended: went_out, stalled (counted), or max_turns (aborted)"},
    )
    winner = _int(required=True, allow_none=True, metadata={"description": "who went out in the last round"})
    winners = _ints("who won the last round (empty when aborted)")
    payers = _ints("who pays after the last round (empty when aborted)")
    hand_values = _ints("counted points per seat in the last round (at the abort when aborted)")
    rounds_played = _int(required=True,
                         metadata={"description": "rounds finished and counted (an aborted round is not)"})
    round_results = fields.List(fields.Nested(SiebenschlaeferRound), required=True,
                                metadata={"description": "every finished round, in order"})
    totals = _ints("counted points per seat over the finished rounds")
    paid = _ints("rounds each seat had to pay")


EVENTS: dict[str, type[Schema]] = event_schemas("Siebenschlaefer", events.EVENT_TYPES,
                                               {events.RoundJSON: SiebenschlaeferRound})


class SiebenschlaeferEvent(MoveOneOf):
    __doc__ = event_doc("Siebenschläfer")
    type_schemas = {**EVENTS, **TABLE_EVENTS}


class SiebenschlaeferState(Schema):
    """What the viewer sees of a game of Siebenschläfer (section 13)."""

    round = _int(required=True, metadata={"description": "the round being played, from 1"})
    rounds = _int(required=True, metadata={"description": "the option rounds: rounds in the match"})
    status = fields.String(required=True, validate=validate.OneOf(["active", "finished", "aborted"]), metadata={
        "description": "active while the match runs; finished once it is over, or aborted by the move cap"})
    current = _int(required=True, allow_none=True,
                   metadata={"description": "the seat whose turn it is; null once the match is over"})
    opener = _int(required=True, metadata={"description": "the seat that opened this round"})
    lots = fields.List(
        fields.Nested(SiebenschlaeferLot), required=True, metadata={"description": "this round's lot cards, in order"}
    )
    hand = fields.List(
        fields.String(),
        required=True,
        allow_none=True,
        metadata={"description": "the viewer's cards; null for a spectator"},
    )
    hand_counts = _ints("cards in each seat's hand")
    stock_count = _int(required=True, metadata={"description": "cards in the face-down stock"})
    discard_count = _int(required=True, metadata={
        "description": "cards in the discard pile: the played pile, every pair laid face up"})
    discard_top = fields.String(required=True, allow_none=True, metadata={
        "description": "the played pile's top card (the second card of `top`); null while the pile is empty"})
    top = fields.List(
        fields.String(),
        required=True,
        allow_none=True,
        metadata={"description": "the top pair of the played pile; null while it is empty"},
    )
    top_kind = fields.String(
        required=True,
        allow_none=True,
        validate=validate.OneOf(["play", "start"]),
        metadata={"description": "play = a laid pair; start = a start value flipped after everybody passed"},
    )
    to_beat = _int(required=True, allow_none=True,
                   metadata={"description": "the value the next pair must exceed; null when the table is free"})
    free = fields.Boolean(required=True, metadata={"description": "any legal pair may be laid"})
    has_drawn = fields.Boolean(required=True, metadata={"description": "the seat to move has drawn this turn"})
    drawn = fields.List(
        fields.String(),
        required=True,
        allow_none=True,
        metadata={"description": "the cards the viewer drew this turn; null unless the viewer is to move and drew"},
    )
    passes = _int(required=True, metadata={"description": "passes in a row"})
    pass_threshold = _int(required=True, metadata={"description": "passes in a row that flip a new start value"})
    moves = _int(required=True, metadata={"description": "moves made in this round"})
    max_turns = _int(required=True, metadata={
        "description": "the option max_turns: moves in one round (`moves`) before the match is aborted"})
    stalled_round = fields.String(
        required=True,
        validate=validate.OneOf(["count_hands", "abort"]),
        metadata={"description": "what ends a round that can never end (option stalled_round)"},
    )
    scores = _ints("each seat's score: its counted points over the finished rounds (the fewest win)")
    paid = _ints("rounds each seat had to pay")
    last_round = fields.Nested(SiebenschlaeferRound, required=True, allow_none=True, metadata={
        "description": "the last finished round, with the hands counted and the table as it ended, kept until "
                       "the next one ends; null before"})
    events = fields.List(
        fields.Nested(SiebenschlaeferEvent), required=True,
        metadata={"description": "what the last move caused, as its log entry shows it to the viewer (section 16), "
                                 "but for the closing game_over"},
    )


GAME = GameSchemas(
    prefix="Siebenschlaefer",
    state=SiebenschlaeferState,
    result_detail=SiebenschlaeferResultDetail,
    events=EVENTS,
    event=SiebenschlaeferEvent,
)
