"""Wire schemas of Sten (seeds/sten.md): the view's ``state`` and the result ``detail``.

Options, moves and the envelopes are built by ``schemas.common.build`` from the
engine's declarations; only what is Sten's own is written here.
"""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from schemas.common import GameSchemas

_SUIT = validate.OneOf(["C", "D", "H", "S"])


class StenSuitPile(Schema):
    """One suit of the layout: its 7 and the stacks built up and down from it."""

    suit = fields.String(required=True, validate=_SUIT)
    opened = fields.Boolean(required=True, metadata={"description": "the suit's 7 is on the table"})
    cards = fields.List(fields.String(), required=True, metadata={"description": "placed cards, ascending"})
    upper_done = fields.Boolean(required=True, metadata={"description": "the king is placed; 8..K left play"})
    lower_done = fields.Boolean(required=True, metadata={"description": "the ace is placed; 6..A left play"})
    fits = fields.List(fields.String(), required=True, metadata={"description": "cards of this suit that fit now"})


class StenState(Schema):
    """What the viewer sees of a game of Sten."""

    hand = fields.List(fields.String(), required=True, allow_none=True,
                       metadata={"description": "the viewer's cards; null for a spectator"})
    hand_counts = fields.List(fields.Integer(), required=True, metadata={"description": "cards per seat"})
    layout = fields.List(fields.Nested(StenSuitPile), required=True, metadata={"description": "suits C, D, H, S"})
    remainder = fields.List(fields.String(), required=True,
                            metadata={"description": "the open remainder anyone may play (policy open)"})
    dead_count = fields.Integer(required=True, metadata={"description": "cards out of play (policy dead)"})
    stone_holder = fields.Integer(required=True, allow_none=True,
                                  metadata={"description": "seat holding the stone; null while it lies in the middle"})
    opening = fields.Boolean(required=True, metadata={"description": "the 7H holder has still to open"})
    failed_play_all = fields.Boolean(required=True,
                                     metadata={"description": "the mover failed a declaration this turn"})
    turn = fields.Integer(required=True, metadata={"description": "completed turns"})


class StenResultDetail(Schema):
    """How a game of Sten ended."""

    stone_holder = fields.Integer(required=True, allow_none=True)
    reason = fields.String(required=True, validate=validate.OneOf(["empty_hand", "play_all", "stalled", "max_turns"]))


GAME = GameSchemas(prefix="Sten", state=StenState, result_detail=StenResultDetail)
