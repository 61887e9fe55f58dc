"""Wire schemas of Siebenschläfer (seeds/siebenschlaefer.md): the view's ``state``, the result ``detail``
and the events (section 16).

Options, moves and the envelopes are built by ``schemas.common.build`` from the
engine's declarations; only what is Siebenschläfer's own is written here.
"""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, fields, validate

from schemas.common import GameSchemas, MoveOneOf, event_doc, game_over_schema
from schemas.common import event_type as _type


def _int(**kw: Any) -> fields.Integer:
    return fields.Integer(strict=True, **kw)


def _cards(description: str, **kw: Any) -> fields.List:
    return fields.List(fields.String(), required=True, metadata={"description": description}, **kw)


def _ints(description: str) -> fields.List:
    return fields.List(_int(), required=True, metadata={"description": description})


class SiebenschlaeferLot(Schema):
    """One card drawn in the lot for the opener (seeds/siebenschlaefer.md section 3)."""

    seat = _int(required=True)
    card = fields.String(required=True)


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
    rounds_played = _int(required=True)
    round_results = fields.List(fields.Nested(SiebenschlaeferRound), required=True)
    totals = _ints("counted points per seat over the finished rounds")
    paid = _ints("rounds each seat had to pay")



def _seat(description: str) -> fields.Integer:
    return _int(required=True, metadata={"description": description})


class SiebenschlaeferEventPlayed(Schema):
    """A pair laid face up (sections 4, 5)."""

    type = _type("played")
    seat = _seat("who laid it")
    cards = _cards("the pair, in canonical order")
    value = _int(required=True, allow_none=True,
                 metadata={"description": "the value it sets; null for a pair of aces (the table is free)"})


class SiebenschlaeferEventDrew(Schema):
    """Cards drawn from the stock: by a ``draw`` or because of a 7 (sections 5, 6)."""

    type = _type("drew")
    seat = _seat("who drew")
    count = _int(required=True, metadata={"description": "how many (0 to 2)"})
    reason = fields.String(required=True, validate=validate.OneOf(["draw", "seven"]),
                           metadata={"description": "draw = the move draw; seven = the penalty of a 7"})
    cards = fields.List(fields.String(), metadata={"description": "which cards: only for the drawer"})


class SiebenschlaeferEventSkipped(Schema):
    """A single 7: the next seat misses this turn (section 6)."""

    type = _type("skipped")
    seat = _seat("who misses the turn")


class SiebenschlaeferEventPassed(Schema):
    """A seat passed (section 5)."""

    type = _type("passed")
    seat = _seat("who passed")


class SiebenschlaeferEventReshuffled(Schema):
    """The played pile under its top pair became the new stock (section 8)."""

    type = _type("reshuffled")
    count = _int(required=True, metadata={"description": "cards shuffled into the stock"})


class SiebenschlaeferEventReset(Schema):
    """Everybody passed: a new start value was flipped (section 7)."""

    type = _type("reset")
    cards = _cards("the cards flipped from the stock, in order; the last two are the start value")
    value = _int(required=True, allow_none=True, metadata={"description": "the value to beat now; null: free"})


class SiebenschlaeferEventRoundEnded(SiebenschlaeferRound):
    """A round ended (sections 9, 12): the hands laid open, the table, the count and the match so far."""

    type = _type("round_ended")
    totals = _ints("counted points per seat over the finished rounds, this one included")
    paid = _ints("rounds each seat had to pay, this one included")


class SiebenschlaeferEventDealt(Schema):
    """The next round of a match was dealt (sections 2, 3, 11)."""

    type = _type("dealt")
    round = _int(required=True, metadata={"description": "the round dealt, from 1"})
    opener = _seat("who opens (by the 2, or by the lot draw reported next)")
    hand_counts = _ints("cards per seat")
    stock_count = _int(required=True, metadata={"description": "cards in the stock"})
    cards = fields.List(fields.String(), metadata={"description": "the viewer's new hand: only for that seat"})


class SiebenschlaeferEventLot(Schema):
    """A card drawn in the lot for the opener (section 3), face up."""

    type = _type("lot")
    seat = _seat("who drew it")
    card = fields.String(required=True)



EVENTS: dict[str, type[Schema]] = {
    "played": SiebenschlaeferEventPlayed,
    "drew": SiebenschlaeferEventDrew,
    "skipped": SiebenschlaeferEventSkipped,
    "passed": SiebenschlaeferEventPassed,
    "reshuffled": SiebenschlaeferEventReshuffled,
    "reset": SiebenschlaeferEventReset,
    "round_ended": SiebenschlaeferEventRoundEnded,
    "dealt": SiebenschlaeferEventDealt,
    "lot": SiebenschlaeferEventLot,
    "game_over": game_over_schema("Siebenschlaefer", ("finished", "aborted"),
                                  "counted points (one round) or the match totals"),
}


class SiebenschlaeferEvent(MoveOneOf):
    __doc__ = event_doc("Siebenschläfer")
    type_schemas = EVENTS


class SiebenschlaeferState(Schema):
    """What the viewer sees of a game of Siebenschläfer (section 13)."""

    round = _int(required=True, metadata={"description": "the round being played, from 1"})
    rounds = _int(required=True, metadata={"description": "rounds in the match (option rounds)"})
    status = fields.String(required=True, validate=validate.OneOf(["active", "finished", "aborted"]))
    current = _int(required=True, allow_none=True, metadata={"description": "the seat to move; null when over"})
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
    hand_counts = _ints("cards per seat")
    stock_count = _int(required=True, metadata={"description": "cards in the face-down stock"})
    pile_count = _int(required=True, metadata={"description": "cards in the played pile"})
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
    target = _int(required=True, allow_none=True, metadata={"description": "the value to exceed; null when free"})
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
    max_turns = _int(required=True, metadata={"description": "moves per round before the match is aborted"})
    stalled_round = fields.String(
        required=True,
        validate=validate.OneOf(["count_hands", "abort"]),
        metadata={"description": "what ends a round that can never end (option stalled_round)"},
    )
    totals = _ints("counted points per seat over the finished rounds")
    paid = _ints("rounds each seat had to pay")
    last_round = fields.Nested(SiebenschlaeferRound, required=True, allow_none=True)
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
