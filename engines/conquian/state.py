"""Conquian's state, options and moves: values only (seeds/conquian.md).

The state is one frozen dataclass holding the whole match: the current deal's cards (hands, melds,
stock, the offered card, the face-up card, the dead discards), the phase of the turn, and the match
score. A turn is split into phases so that ``to_move`` and ``legal_moves`` are exact in each of them
(seeds/conquian.md 4):

* ``choose``       -- ``turn`` takes the offered card by melding it, or turns the stock (``draw``);
                      with an empty stock he may ``pass`` instead, which draws the deal.
* ``turned``       -- ``turn`` melds the turned card (``face_up``) or rejects it.
* ``discard``      -- ``turn`` melded a card and now discards one hand card.
* ``force_offer``  -- the card just offered to ``turn`` fits one of his melds; his opponent decides
                      whether to force him to add it (force window F1).
* ``force_reject`` -- ``turn`` rejected a turned card that fits one of his melds; his opponent
                      decides whether to force him to add it after all (force window F2).
* ``forced``       -- ``turn`` was forced and must add ``face_up`` to his melds, then discard.
* ``over``         -- the match has ended.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from engines.core import Move, Option

from .melds import Arrangement

CHOOSE = "choose"
TURNED = "turned"
DISCARD = "discard"
FORCE_OFFER = "force_offer"
FORCE_REJECT = "force_reject"
FORCED = "forced"
OVER = "over"
PHASES = (CHOOSE, TURNED, DISCARD, FORCE_OFFER, FORCE_REJECT, FORCED, OVER)

HAND_SIZE = 10
#: Melded cards that win a deal (the original rules: "genau 11 Karten zusammengelegt").
WINNING_MELD_COUNT = 11

OPTIONS: tuple[Option, ...] = (
    Option(
        "first_dealer",
        "choice",
        "low_card_draw",
        "Who deals the first deal: 'low_card_draw' = both players draw a card from a separately shuffled"
        " deck and the lower card deals (ties draw again); 'seat0' / 'seat1' = that seat deals.",
        choices=("low_card_draw", "seat0", "seat1"),
    ),
    Option(
        "dealer_rotation",
        "choice",
        "alternate",
        "Who deals the next deal: 'alternate' = the other player; 'loser_deals' / 'winner_deals' = the"
        " loser / the winner of the last deal (after a drawn deal the deal alternates in every mode).",
        choices=("alternate", "loser_deals", "winner_deals"),
    ),
    Option(
        "meld_from_hand_without_upcard",
        "bool",
        False,
        "The literal reading of the original rules: after turning a stock card a player may also meld or"
        " lay off hand cards without the turned card, and still reject it. Off (the classic game): hand"
        " cards are melded only together with the face-up card.",
    ),
    Option(
        "max_sequence_len",
        "int",
        None,
        "Longest allowed sequence: null = no limit (the original rules say three or more); 8 is the"
        " limit of pagat.com's rules.",
        minimum=3,
        maximum=10,
        nullable=True,
    ),
    Option(
        "forcing_enabled",
        "bool",
        True,
        "A player whose melds can take the offered or rejected card may be forced by the opponent to add"
        " it and discard.",
    ),
    Option(
        "force_fit_includes_rearrangement",
        "bool",
        False,
        "A card also counts as fitting (for forcing) when it can join the player's melds only by"
        " rearranging them. Off: it must extend one existing meld as it stands.",
    ),
    Option(
        "forced_may_meld_extra",
        "bool",
        False,
        "A forced player may meld further hand cards in the same move. Off: he adds the forced card (his"
        " melds may be rearranged) and discards.",
    ),
    Option(
        "draw_multiplier",
        "choice",
        "additive",
        "Stake of a deal after k drawn deals in a row: additive = 1 + k units (Foster's pool: each drawn"
        " deal adds one unit), exponential = 2^k units (the stake doubles with each drawn deal).",
        choices=("additive", "exponential"),
    ),
    Option(
        "target",
        "int",
        5,
        "Units a player needs to win the match (each won deal is worth its stake). Drawn deals score"
        " nothing, so without max_deals a match whose deals are all drawn never ends.",
        minimum=1,
        maximum=1000,
    ),
    Option(
        "max_deals",
        "int",
        None,
        "If set, the match also ends after this many deals (drawn deals count); the player with more units"
        " wins, equal units are a tie. Null (the default) sets no limit, and then a match can go on for ever:"
        " every deal can end drawn (a player may always turn and reject cards until the stock is empty).",
        minimum=1,
        maximum=1000,
        nullable=True,
    ),
)


@dataclass(frozen=True)
class Rules:
    """The resolved options (see OPTIONS and seeds/conquian.md 8)."""

    first_dealer: str = "low_card_draw"
    dealer_rotation: str = "alternate"
    meld_from_hand_without_upcard: bool = False
    max_sequence_len: int | None = None
    forcing_enabled: bool = True
    force_fit_includes_rearrangement: bool = False
    forced_may_meld_extra: bool = False
    draw_multiplier: str = "additive"
    target: int = 5
    max_deals: int | None = None


@dataclass(frozen=True)
class DealSummary:
    """How the last finished deal ended: its final table and score (public facts only; the hands
    are never shown, seeds/conquian.md 6.4 and 7)."""

    deal: int  # 1-based number of the deal
    dealer: int
    outcome: str  # "won" | "drawn"
    winner: int | None
    stake: int  # units the deal was worth (won by the winner, carried over when drawn)
    melds: tuple[Arrangement, Arrangement]
    stock_left: int
    hand_counts: tuple[int, int]  # cards left in each hand (the winner's is 0)
    dead: tuple[str, ...] | None  # the buried discards at the end; None for deals ended before format 2
    discard: str | None  # the card left face up on the pile (the offer passed in a drawn deal)
    scores: tuple[int, int]  # the match units after the deal


@dataclass(frozen=True)
class ConquianState:
    """The whole match. ``hands``/``melds`` are per seat; ``stock`` is top card first."""

    rules: Rules
    seed: str
    cut: tuple[str, ...]  # the cards drawn for the first dealer (seat 0, seat 1, seat 0, ...), public
    deal: int  # 1-based number of the current deal
    dealer: int
    turn: int  # whose turn it is; in the force phases the opponent of ``turn`` decides
    phase: str
    hands: tuple[tuple[str, ...], tuple[str, ...]]
    melds: tuple[Arrangement, Arrangement]
    stock: tuple[str, ...]
    offer: str | None  # top of the discard pile, offered to ``turn`` by the opponent's last action
    face_up: str | None  # the turned stock card (turned), the card to force or forced (force_reject, forced)
    dead: tuple[str, ...]  # buried discards, oldest first; never usable again
    scores: tuple[int, int]  # units won in the match
    draws_in_a_row: int  # drawn deals since the last won deal (sets the stake)
    drawn_deals: int  # drawn deals in the whole match
    last_deal: DealSummary | None = None
    end: str | None = None  # "target" | "max_deals" once the match is over


def _move_field(doc: str) -> Any:
    return field(metadata={"doc": doc})


@dataclass(frozen=True)
class ConquianDraw(Move):
    """Turn the top stock card face up (phase ``choose``); the offered card, if any, is buried."""

    type: ClassVar[str] = "draw"


@dataclass(frozen=True)
class ConquianMeld(Move):
    """Meld: the player's complete new set of melds (phases ``choose``, ``turned``, ``forced``).

    It must hold every card already melded, the card to be melded (the offered card in ``choose``,
    the face-up card in ``turned``/``forced``) and otherwise only hand cards; every meld must be a
    valid group or sequence. The melds and the cards within them may be given in any order.
    """

    type: ClassVar[str] = "meld"
    melds: tuple[tuple[str, ...], ...] = _move_field(
        "The player's complete new melds: a list of melds, each a list of card codes. It contains all"
        " previously melded cards (rearranged as wished), the offered or face-up card, and any hand cards"
        " melded with it."
    )


@dataclass(frozen=True)
class ConquianReject(Move):
    """Reject the turned card (phase ``turned``): it becomes the card offered to the opponent."""

    type: ClassVar[str] = "reject"


@dataclass(frozen=True)
class ConquianDiscard(Move):
    """Discard a hand card after melding (phase ``discard``): it is offered to the opponent."""

    type: ClassVar[str] = "discard"
    card: str = _move_field("The hand card to discard.")


@dataclass(frozen=True)
class ConquianPass(Move):
    """Decline the offered card when the stock is empty (phase ``choose``): the deal is drawn."""

    type: ClassVar[str] = "pass"


@dataclass(frozen=True)
class ConquianForce(Move):
    """Force the opponent to add the card to his melds and discard (phases ``force_offer``/``force_reject``)."""

    type: ClassVar[str] = "force"


@dataclass(frozen=True)
class ConquianDeclineForce(Move):
    """Do not force (phases ``force_offer``/``force_reject``)."""

    type: ClassVar[str] = "decline_force"


MOVE_TYPES: tuple[type[Move], ...] = (
    ConquianDraw,
    ConquianMeld,
    ConquianReject,
    ConquianDiscard,
    ConquianPass,
    ConquianForce,
    ConquianDeclineForce,
)


# --- snapshot codec (hand-written: cheaper than the generic one on the hot path) -------------------


def _arr(data: Any) -> Arrangement:
    return tuple(tuple(m) for m in data)


def encode(state: ConquianState) -> dict[str, Any]:
    """JSON-native snapshot of ``state``."""
    r = state.rules
    ld = state.last_deal
    return {
        "rules": {
            "first_dealer": r.first_dealer,
            "dealer_rotation": r.dealer_rotation,
            "meld_from_hand_without_upcard": r.meld_from_hand_without_upcard,
            "max_sequence_len": r.max_sequence_len,
            "forcing_enabled": r.forcing_enabled,
            "force_fit_includes_rearrangement": r.force_fit_includes_rearrangement,
            "forced_may_meld_extra": r.forced_may_meld_extra,
            "draw_multiplier": r.draw_multiplier,
            "target": r.target,
            "max_deals": r.max_deals,
        },
        "seed": state.seed,
        "cut": list(state.cut),
        "deal": state.deal,
        "dealer": state.dealer,
        "turn": state.turn,
        "phase": state.phase,
        "hands": [list(h) for h in state.hands],
        "melds": [[list(m) for m in a] for a in state.melds],
        "stock": list(state.stock),
        "offer": state.offer,
        "face_up": state.face_up,
        "dead": list(state.dead),
        "scores": list(state.scores),
        "draws_in_a_row": state.draws_in_a_row,
        "drawn_deals": state.drawn_deals,
        "last_deal": None
        if ld is None
        else {
            "deal": ld.deal,
            "dealer": ld.dealer,
            "outcome": ld.outcome,
            "winner": ld.winner,
            "stake": ld.stake,
            "melds": [[list(m) for m in a] for a in ld.melds],
            "stock_left": ld.stock_left,
            "hand_counts": list(ld.hand_counts),
            "dead": None if ld.dead is None else list(ld.dead),
            "discard": ld.discard,
            "scores": list(ld.scores),
        },
        "end": state.end,
    }


def decode(data: Mapping[str, Any]) -> ConquianState:
    """Inverse of ``encode``."""
    ld = data["last_deal"]
    h0, h1 = data["hands"]
    m0, m1 = data["melds"]
    s0, s1 = data["scores"]
    return ConquianState(
        rules=Rules(**data["rules"]),
        seed=data["seed"],
        cut=tuple(data["cut"]),
        deal=data["deal"],
        dealer=data["dealer"],
        turn=data["turn"],
        phase=data["phase"],
        hands=(tuple(h0), tuple(h1)),
        melds=(_arr(m0), _arr(m1)),
        stock=tuple(data["stock"]),
        offer=data["offer"],
        face_up=data["face_up"],
        dead=tuple(data["dead"]),
        scores=(s0, s1),
        draws_in_a_row=data["draws_in_a_row"],
        drawn_deals=data["drawn_deals"],
        last_deal=None
        if ld is None
        else DealSummary(
            deal=ld["deal"],
            dealer=ld["dealer"],
            outcome=ld["outcome"],
            winner=ld["winner"],
            stake=ld["stake"],
            melds=(_arr(ld["melds"][0]), _arr(ld["melds"][1])),
            stock_left=ld["stock_left"],
            hand_counts=(ld["hand_counts"][0], ld["hand_counts"][1]),
            dead=None if ld["dead"] is None else tuple(ld["dead"]),
            discard=ld["discard"],
            scores=(ld["scores"][0], ld["scores"][1]),
        ),
        end=data["end"],
    )
