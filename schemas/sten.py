"""Wire schemas of Sten (seeds/sten.md): the view's ``state`` and the result ``detail``.

Options, moves and the envelopes are built by ``schemas.common.build``, the events by
``schemas.events.event_schemas``, from the engine's declarations; only what is Sten's own is
written here.
"""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, fields, validate

from engines.sten import events
from schemas.common import GameSchemas
from schemas.events import event_schemas

_SUIT = validate.OneOf(["C", "D", "H", "S"])


class StenSuitPile(Schema):
    """One suit of the layout: its 7 and the stacks built up and down from it."""

    suit = fields.String(required=True, validate=_SUIT, metadata={"description": "the suit: C, D, H or S"})
    opened = fields.Boolean(required=True, metadata={"description": "the suit's 7 is on the table"})
    cards = fields.List(fields.String(), required=True, metadata={"description": "placed cards, ascending"})
    upper_done = fields.Boolean(required=True, metadata={"description": "the king is placed; 8..K left play"})
    lower_done = fields.Boolean(required=True, metadata={"description": "the ace is placed; 6..A left play"})
    fits = fields.List(fields.String(), required=True, metadata={"description": "cards of this suit that fit now"})


_REASON = validate.OneOf(["empty_hand", "play_all", "stalled", "max_turns"])


def _seat(description: str, **kw: Any) -> fields.Integer:
    return fields.Integer(strict=True, required=True, metadata={"description": description}, **kw)


class StenEnded(Schema):
    """The end of the game as the table shows it (seeds/sten.md section 13): hands laid open, the final table."""

    reason = fields.String(required=True, validate=_REASON, metadata={
        "description": "empty_hand: a hand was emptied; play_all: a declaration won; stalled: nobody could move; "
                       "max_turns: the turn limit ended it"})
    winner = _seat("the seat that emptied its hand (or had the fewest cards when stalled); null: none",
                   allow_none=True)
    losers = fields.List(fields.Integer(strict=True), required=True,
                         metadata={"description": "the loser: the stone holder (section 7.2); [] when none"})
    stone_holder = _seat("who holds the stone; null while it lies in the middle", allow_none=True)
    hands = fields.List(fields.List(fields.String()), required=True,
                        metadata={"description": "every seat's cards left, laid open, by seat"})
    cards_left = fields.List(fields.Integer(strict=True), required=True,
                             metadata={"description": "the reckoning: cards each seat kept (no points in Sten)"})
    dead = fields.List(fields.String(), required=True,
                       metadata={"description": "the face-down dead cards turned up (policy dead), sorted"})
    layout = fields.List(fields.List(fields.String()), required=True,
                         metadata={"description": "the final layout: placed cards per suit C, D, H, S, ascending"})
    remainder = fields.List(fields.String(), required=True, metadata={"description": "the open remainder left"})


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
    play_all_wins = fields.List(fields.Boolean(), required=True, allow_none=True, metadata={
        "description": "for the seat to move: one entry per play_all move in legal_moves, in that order, true when "
                       "posting it now wins (judged under the game's options from the seat's own hand, the layout "
                       "and the open remainder: nothing hidden); the first is true exactly when some declaration "
                       "can win now. A listed move that would fail is still legal (it costs the stone). Null when "
                       "the viewer may not declare now (not its turn, the opening, after a failed declaration this "
                       "turn, the game over) and for a spectator"})
    current = fields.Integer(required=True, allow_none=True,
                             metadata={"description": "the seat whose turn it is; null once the game is over"})
    turns_played = fields.Integer(required=True, metadata={
        "description": "turns completed so far; the option max_turns caps it"})
    ended = fields.Nested(StenEnded, required=True, allow_none=True,
                          metadata={"description": "null while the game runs; then its end as the table shows it"})


class StenResultDetail(Schema):
    """How a game of Sten ended."""

    stone_holder = fields.Integer(required=True, allow_none=True,
                                  metadata={"description": "who held the stone at the end (the loser); null: nobody"})
    reason = fields.String(required=True, validate=_REASON,
                           metadata={"description": "how it ended, as in the ended summary's reason"})


GAME = GameSchemas(
    prefix="Sten",
    state=StenState,
    result_detail=StenResultDetail,
    events=event_schemas("Sten", events.EVENT_TYPES, {events.Ended: StenEnded}),
)
