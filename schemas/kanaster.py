"""Wire schemas of Kanaster (seeds/kanaster.md): the view's ``state`` and the result ``detail``.

Options, moves and the envelopes are built by ``schemas.common.build``, the events (section 18) by
``schemas.events.event_schemas``, from the engine's declarations; only what is Kanaster's own is
written here. Class names avoid the move
schemas' names (``KanasterMeld`` is the move): a meld on the table is ``KanasterTableMeld``.
"""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, fields, validate

from engines.kanaster import events
from schemas.common import GameSchemas
from schemas.events import event_schemas

_PHASE = validate.OneOf(["draw", "play", "finished", "aborted"])


def _int(**kw: Any) -> fields.Integer:
    return fields.Integer(strict=True, **kw)


def _cards(description: str, **kw: Any) -> fields.List:
    return fields.List(fields.String(), required=True, metadata={"description": description}, **kw)


class KanasterPlayer(Schema):
    """What everybody sees of one seat that is Kanaster's own. Its hand size and score are the state's
    ``hand_counts`` and ``scores``."""

    seat = _int(required=True, metadata={"description": "the seat these facts are about"})
    minimum = _int(required=True, metadata={"description": "minimum count of the seat's first meld this hand"})
    melded = fields.Boolean(required=True, metadata={"description": "the seat has melded this hand"})
    canasta = fields.Boolean(required=True, metadata={"description": "the seat has a canasta on the table"})
    red_threes = _cards("the seat's laid-out red 3s")


class KanasterTableMeld(Schema):
    """A meld on the table; its ``id`` is what lay_off, take_pile_lay_off and tuck name."""

    id = _int(required=True, metadata={"description": "the meld's number in this hand, in the order laid, from 0"})
    owner = _int(required=True, metadata={"description": "the seat that laid it"})
    rank = fields.String(required=True, metadata={"description": "the meld's rank; '3' for black 3s"})
    cards = _cards("the meld's cards")
    tucked = _cards("blocking cards tucked under it (no effect)")
    canasta = fields.Boolean(required=True, metadata={"description": "seven or more cards"})
    natural = fields.Boolean(required=True, metadata={"description": "no wild card in it"})
    points = _int(required=True, metadata={"description": "card points of its cards"})


class KanasterTurn(Schema):
    """The mover's turn so far."""

    took_pile = fields.Boolean(required=True, metadata={"description": "the mover took the pile this turn"})
    pile_cards = _cards("the cards that came with the pile this turn (tucking)")
    first_meld = fields.Boolean(required=True, metadata={"description": "the mover's first meld was this turn"})


class KanasterSeatScore(Schema):
    """One seat's count for a hand."""

    table = _int(required=True, metadata={"description": "card points on the table"})
    canastas = _int(required=True, metadata={"description": "canasta bonuses"})
    red_threes = _int(required=True, metadata={"description": "red 3s, plus or minus"})
    hand = _int(required=True, metadata={"description": "minus the card points left in the hand"})
    going_out = _int(required=True, metadata={"description": "200 or 100 for going out"})
    total = _int(required=True, metadata={"description": "the sum: the seat's score for the hand"})
    hand_cards = _cards("the cards left in the hand, shown at the count")


class KanasterHandTable(Schema):
    """The table as a finished hand left it."""

    melds = fields.List(fields.Nested(KanasterTableMeld), required=True,
                        metadata={"description": "every meld on the table at the end, in the order laid"})
    red_threes = fields.List(fields.List(fields.String()), required=True,
                             metadata={"description": "per seat, its red 3s (those laid out for the count too)"})
    pile = _cards("the discard pile, bottom card first (a final discard on top)")
    talon_count = _int(required=True, metadata={"description": "cards left in the talon (the stock)"})


class KanasterHandRecord(Schema):
    """The count of the last finished hand, the totals after it and its final table."""

    number = _int(required=True, metadata={"description": "the hand's number, from 1"})
    went_out = _int(required=True, allow_none=True, metadata={"description": "null: the talon ran out"})
    concealed = fields.Boolean(required=True, metadata={"description": "went out in the turn of the first meld"})
    seats = fields.List(fields.Nested(KanasterSeatScore), required=True,
                        metadata={"description": "per seat, the score breakdown and the hand shown at the count"})
    totals = fields.List(_int(), required=True, metadata={"description": "cumulative totals after the hand"})
    table = fields.Nested(KanasterHandTable, required=True, allow_none=True,
                          metadata={"description": "the final table; null for a hand finished before "
                                                   "snapshot format 3"})


class KanasterState(Schema):
    """What the viewer sees of a match of Kanaster."""

    hand_number = _int(required=True, metadata={"description": "1-based number of the current hand"})
    dealer = _int(required=True, metadata={"description": "who dealt the current hand"})
    cutter = _int(required=True, metadata={"description": "who cut for the current hand: the seat before the dealer"})
    cut_cards = _cards("wild cards the cutter kept at the cut")
    current = _int(required=True, allow_none=True,
                   metadata={"description": "the seat whose turn it is; null once the match is over"})
    phase = fields.String(required=True, validate=_PHASE, metadata={
        "description": "draw: the mover has still to draw; play: he has drawn and may meld, then must discard; "
                       "finished or aborted once the match is over"})
    hand = fields.List(fields.String(), required=True, allow_none=True,
                       metadata={"description": "the viewer's cards; null for a spectator"})
    hand_counts = fields.List(_int(), required=True, metadata={"description": "cards in each seat's hand"})
    scores = fields.List(_int(), required=True, metadata={
        "description": "each seat's score: the cumulative total over the finished hands"})
    players = fields.List(fields.Nested(KanasterPlayer), required=True, metadata={
        "description": "per seat, in seat order: its first-meld minimum, whether it has melded, its red 3s"})
    stock_count = _int(required=True, metadata={"description": "cards in the talon, the face-down stock"})
    discard_pile = _cards("the discard pile, bottom card first")
    discard_count = _int(required=True, metadata={"description": "cards in the discard pile"})
    discard_top = fields.String(required=True, allow_none=True,
                                metadata={"description": "the pile's top card; null while the pile is empty"})
    pile_blocked = fields.Boolean(required=True, metadata={"description": "the top card bars the mover from the pile"})
    pile_frozen = fields.Boolean(required=True, metadata={"description": "option wild_discard_freezes_pile"})
    blocking_ranks = _cards("ranks with a canasta on the table (Sperrkarten)")
    melds = fields.List(fields.Nested(KanasterTableMeld), required=True,
                        metadata={"description": "every meld on the table this hand, in the order laid"})
    current_turn = fields.Nested(KanasterTurn, required=True,
                                 metadata={"description": "what the mover has done so far this turn"})
    target = _int(required=True, metadata={"description": "the option target: the total that ends the match"})
    max_hands = _int(required=True, allow_none=True,
                     metadata={"description": "the option max_hands: hands the match lasts at most, or null"})
    hand_cap = _int(required=True, allow_none=True, metadata={"description": "option hand_cap (safety cap)"})
    max_turns = _int(required=True, allow_none=True, metadata={
        "description": "the option max_turns: turns in the match before it ends as aborted, or null"})
    turns_played = _int(required=True, metadata={"description": "turns completed so far in the match; max_turns "
                                                               "caps it"})
    hands_played = _int(required=True, metadata={"description": "hands finished and counted"})
    history = fields.List(fields.List(_int()), required=True,
                          metadata={"description": "per finished hand, each seat's hand total"})
    last_hand = fields.Nested(KanasterHandRecord, required=True, allow_none=True, metadata={
        "description": "the last finished hand: its count, the totals after it and its final table, kept until "
                       "the next one ends; null before"})


class KanasterResultDetail(Schema):
    """How a match of Kanaster ended."""

    reason = fields.String(required=True, validate=validate.OneOf(["target", "max_hands", "hand_cap", "max_turns"]),
                           metadata={"description": "target and max_hands finish the match; the caps hand_cap and "
                                                    "max_turns abort it"})
    hands_played = _int(required=True, metadata={"description": "hands finished and counted"})
    target = _int(required=True, metadata={"description": "the option target: the total that ends the match"})
    hand_scores = fields.List(fields.List(_int()), required=True,
                              metadata={"description": "per hand, each seat's hand total"})


GAME = GameSchemas(prefix="Kanaster", state=KanasterState, result_detail=KanasterResultDetail,
                   events=event_schemas("Kanaster", events.EVENT_TYPES, {events.HandRecordJSON: KanasterHandRecord}))
