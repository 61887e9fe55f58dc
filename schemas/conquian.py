"""Wire schemas of Conquian (seeds/conquian.md): the view's ``state`` and the result ``detail``.

Options, moves and the envelopes are built by ``schemas.common.build``, the events by
``schemas.events.event_schemas``, from the engine's declarations; only what is Conquian's own is
written here.
"""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, fields, validate

from engines.conquian import events
from engines.conquian.state import PHASES
from schemas.common import GameSchemas
from schemas.events import event_schemas


def _int(**kw: Any) -> fields.Integer:
    return fields.Integer(strict=True, **kw)


def _card(**kw: Any) -> fields.String:
    return fields.String(validate=validate.Length(min=2, max=3), **kw)


def _cards(description: str, **kw: Any) -> fields.List:
    return fields.List(fields.String(), required=True, metadata={"description": description}, **kw)


def _melds_per_seat(description: str) -> fields.List:
    """Per seat, a list of melds, each a list of card codes."""
    return fields.List(fields.List(fields.List(fields.String())), required=True, metadata={"description": description})


class ConquianMeldRule(Schema):
    """How to build a meld move now (seeds/conquian.md 4.3)."""

    card = _card(required=True, metadata={"description": "the offered or face-up card a meld move melds"})
    card_required = fields.Boolean(
        required=True,
        metadata={"description": "the melds must include `card` (false only for hand-only melds under an option)"},
    )
    hand_cards = fields.Boolean(required=True, metadata={"description": "hand cards may be melded in the same move"})


class ConquianLastDeal(Schema):
    """The last finished deal: its final table and score (seeds/conquian.md 6.4 and 11)."""

    deal = _int(required=True, metadata={"description": "its number, from 1"})
    dealer = _int(required=True, metadata={"description": "who dealt it"})
    outcome = fields.String(required=True, validate=validate.OneOf(["won", "drawn"]), metadata={
        "description": "won: a player melded his 11th card; drawn: the stock ran out and the offer was passed"})
    winner = _int(required=True, allow_none=True, metadata={"description": "null for a drawn deal"})
    stake = _int(required=True, metadata={"description": "units it was worth"})
    melds = _melds_per_seat("both players' final melds")
    stock_left = _int(required=True, metadata={"description": "stock cards left when it ended"})
    hand_counts = fields.List(_int(), required=True, metadata={"description": "cards left in each hand"})
    hands = fields.List(
        fields.List(fields.String(), allow_none=True),
        required=True,
        metadata={"description": "per seat, the hand as shown: never shown (null), an empty hand is []"},
    )
    dead = fields.List(
        fields.String(),
        required=True,
        allow_none=True,
        metadata={"description": "the buried discards at the end, oldest first; null for a deal ended before"
                                 " format 2 (not recorded)"},
    )
    discard = _card(
        required=True,
        allow_none=True,
        metadata={"description": "the card left face up on the pile (the offer passed in a drawn deal), or null"},
    )
    breakdown = fields.List(
        fields.Dict(keys=fields.String(), values=_int()),
        required=True,
        metadata={"description": "per seat, units by scoring item (`won_deal`: the stake, to the winner)"},
    )
    points = fields.List(_int(), required=True, metadata={"description": "per seat, units won in the deal"})
    scores = fields.List(_int(), required=True, metadata={"description": "per seat, match units after the deal"})


class ConquianState(Schema):
    """What the viewer sees of a Conquian match (seeds/conquian.md 7)."""

    deal = _int(required=True, metadata={"description": "number of the current deal, from 1"})
    dealer = _int(required=True, metadata={"description": "who dealt the current deal"})
    cut = _cards("cards drawn for the first dealer: seat 0, seat 1, seat 0, ... (empty unless low_card_draw)")
    phase = fields.String(required=True, validate=validate.OneOf(list(PHASES)), metadata={
        "description": "the step of the turn (seeds/conquian.md 4): choose, turned, discard, force_offer, "
                       "force_reject, forced, or over"})
    current = _int(required=True, allow_none=True, metadata={
        "description": "the seat whose turn it is; null once the match is over. In the force phases its "
                       "opponent decides, so `to_move` names the opponent then"})
    stake = _int(required=True, metadata={"description": "units the current deal is worth"})
    draws_in_a_row = _int(required=True, metadata={"description": "drawn deals since the last won deal"})
    drawn_deals = _int(required=True, metadata={"description": "drawn deals in the match"})
    scores = fields.List(_int(), required=True,
                         metadata={"description": "each seat's score: the units it won over the finished deals"})
    target = _int(required=True, metadata={"description": "the option target: units that win the match"})
    max_deals = _int(required=True, allow_none=True,
                     metadata={"description": "the option max_deals: deal limit of the match, or null"})
    stock_count = _int(required=True, metadata={"description": "cards in the face-down stock"})
    offer = _card(
        required=True, allow_none=True, metadata={"description": "the card offered to `current` by the opponent"}
    )
    face_up = _card(
        required=True, allow_none=True, metadata={"description": "the turned stock card, or the card being forced"}
    )
    dead = _cards("buried discards, oldest first; never usable again")
    melds = _melds_per_seat("per seat, its melds")
    melded_counts = fields.List(_int(), required=True, metadata={"description": "melded cards per seat"})
    hand_counts = fields.List(_int(), required=True, metadata={"description": "cards in each seat's hand"})
    hand = fields.List(
        fields.String(),
        required=True,
        allow_none=True,
        metadata={"description": "the viewer's hand; null for a spectator"},
    )
    meld_rule = fields.Nested(
        ConquianMeldRule,
        required=True,
        allow_none=True,
        metadata={"description": "for the seat to move, when it may meld; null otherwise"},
    )
    last_deal = fields.Nested(ConquianLastDeal, required=True, allow_none=True, metadata={
        "description": "the last finished deal with its final table and score, kept until the next one ends; "
                       "null before"})
    end = fields.String(
        required=True,
        allow_none=True,
        validate=validate.OneOf(["target", "max_deals"]),
        metadata={"description": "why the match ended; null while it runs"},
    )


class ConquianResultDetail(Schema):
    """How a Conquian match ended (seeds/conquian.md 6.3)."""

    end = fields.String(required=True, validate=validate.OneOf(["target", "max_deals"]), metadata={
        "description": "target: a seat reached the target; max_deals: the deal limit was reached"})
    deals_played = _int(required=True, metadata={"description": "deals finished, won or drawn"})
    drawn_deals = _int(required=True, metadata={"description": "of those, the drawn ones"})
    target = _int(required=True, metadata={"description": "the option target: units that win the match"})


GAME = GameSchemas(prefix="Conquian", state=ConquianState, result_detail=ConquianResultDetail,
                   events=event_schemas("Conquian", events.EVENT_TYPES, {events.DealJSON: ConquianLastDeal}))
