"""The state of a match of Kanaster (Swiss canasta), and its options.

Rules as implemented: seeds/kanaster.md. The state is a value: frozen dataclasses of tuples,
ints, strs and bools, changed only by building a new one (``dataclasses.replace``). The game
resource is the whole match: hand after hand until the target score (section 10).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engines.core import Option

PLAYERS = range(2, 6)

#: Turn phases (seeds/kanaster.md section 5): the mover has to draw (talon or pile), or has
#: drawn and may meld, lay off, tuck and must discard. OVER = the match has ended.
DRAW = "draw"
PLAY = "play"
FINISHED = "finished"
ABORTED = "aborted"

#: Default of option ``hand_cap`` (seeds/kanaster.md section 10): matches to 10,000 took at
#: most 32 hands in measurement (random and greedy play, 2 to 5 players).
HAND_CAP = 500

OPTIONS: tuple[Option, ...] = (
    Option("target", "int", 5000, "Match target: the match ends after the hand in which a total reaches it "
           "(the original rules play to 5,000 or 10,000).", minimum=1, maximum=100_000),
    Option("max_hands", "int", None, "End the match after this many hands (highest total wins); null = play "
           "to the target only.", minimum=1, maximum=1000, nullable=True),
    Option("hand_cap", "int", HAND_CAP, "Safety cap: a match still running after this many hands ends as aborted "
           "(no winner). Every hand ends (the talon runs out), but totals can fall, so players who never meld "
           "could play for ever: only hand_cap and max_turns both null (and no max_hands) make an endless match "
           "possible. The default 500 is over ten times the longest match measured (32 hands to 10,000, "
           "5 players).",
           minimum=1, maximum=1000, nullable=True),
    Option("max_turns", "int", None, "Optional cap on turns in the whole match: after this many it ends as "
           "aborted; null = none (default: a hand cannot stall, hand_cap bounds the match).", minimum=1,
           maximum=1_000_000, nullable=True),
    Option("decks", "int", None, "Number of 52-card packs (each with its jokers); null = the rule of thumb, "
           "2 packs for 2-3 players and 3 for 4-5.", minimum=2, maximum=4, nullable=True),
    Option("jokers_per_deck", "int", 2, "Jokers in each pack.", minimum=0, maximum=4),
    Option("cards_per_player", "int", 13, "Cards dealt to each player.", minimum=7, maximum=15),
    Option("cut_bonus", "bool", True, "The cutter keeps the 2s and jokers at the cut face (and is dealt "
           "that many fewer cards); false = he keeps none."),
    Option("sperr_scope", "choice", "any", "Whose canasta makes its rank a blocking card (Sperrkarte: "
           "while one is on top, the pile may not be taken): any player's (any), or only the mover's own "
           "(own).", choices=("any", "own")),
    Option("tuck_scope", "choice", "any_canasta", "Under whose canasta the player who took the pile may "
           "tuck the blocking cards that came with it: any player's (any_canasta) or only his own "
           "(own_canasta).", choices=("any_canasta", "own_canasta")),
    Option("tuck_points", "choice", "zero", "What tucked blocking cards score: nothing (zero), or their "
           "card points for the canasta's owner (card_points).", choices=("zero", "card_points")),
    Option("wild_discard_freezes_pile", "bool", False, "Standard frozen pile: while a wild card is in the "
           "pile it can only be taken with two natural cards of the top card's rank; false = a wild card "
           "blocks the pile only while it is on top."),
    Option("black3_meld_on_going_out", "bool", True, "Black 3s may be melded (three or more, no wild cards) "
           "in the move that leaves the last card for going out; false = never."),
    Option("concealed_exempt_from_minimum", "bool", False, "A first meld from the hand that leaves only the "
           "final discard needs no minimum count (standard canasta); false = it needs the minimum like any "
           "first meld."),
    Option("negative_score_minimum", "int", 50, "Minimum count of a first meld while the player's total is "
           "negative (standard canasta: 15).", minimum=0, maximum=10_000),
    Option("red3_all_bonus", "bool", False, "All red 3s of the game with one player count 200 each instead "
           "of 100."),
    Option("stock_exhausted", "choice", "end_hand", "Talon empty: the player to move takes the pile or the "
           "hand ends (end_hand); forced_lay_off = he must take it when its top card fits one of his melds.",
           choices=("end_hand", "forced_lay_off")),
    Option("meld_after_taking_pile", "bool", True, "After taking the pile the player may still meld and lay "
           "off before his discard; false = only tuck and discard (the strict reading of the original rules' "
           "warning that no more may be melded once the pile is taken)."),
    Option("natural_canasta_bonus", "int", 500, "Bonus of a natural canasta (no wild card).", minimum=0,
           maximum=10_000),
    Option("mixed_canasta_bonus", "int", 300, "Bonus of a mixed canasta.", minimum=0, maximum=10_000),
)


@dataclass(frozen=True)
class Rules:
    """The resolved options (seeds/kanaster.md section 12); ``decks`` resolved to a number."""

    target: int
    max_hands: int | None
    hand_cap: int | None
    max_turns: int | None
    decks: int
    jokers_per_deck: int
    cards_per_player: int
    cut_bonus: bool
    sperr_scope: str
    tuck_scope: str
    tuck_points: str
    wild_discard_freezes_pile: bool
    black3_meld_on_going_out: bool
    concealed_exempt_from_minimum: bool
    negative_score_minimum: int
    red3_all_bonus: bool
    stock_exhausted: str
    meld_after_taking_pile: bool
    natural_canasta_bonus: int
    mixed_canasta_bonus: int


@dataclass(frozen=True)
class Meld:
    """A meld on the table: its owner, its rank ("3" for black 3s), its cards and the blocking
    cards tucked under it (which count neither for its size nor for natural/mixed)."""

    owner: int
    rank: str
    cards: tuple[str, ...]
    tucked: tuple[str, ...] = ()


@dataclass(frozen=True)
class SeatScore:
    """One seat's score for one hand (seeds/kanaster.md section 9)."""

    table: int  # card points of the melded (and, by option, tucked) cards
    canastas: int  # canasta bonuses
    red_threes: int  # +100 / -100 each (200 with red3_all_bonus)
    hand: int  # minus the card points still in hand
    going_out: int  # 200 / 100 for the player who went out
    total: int
    hand_cards: tuple[str, ...]  # the cards shown from the hand at the count


@dataclass(frozen=True)
class HandTable:
    """The table as a finished hand left it (section 9): the melds, every seat's red 3s (those
    laid out for the count included), the pile with the final discard on top, the talon's size."""

    melds: tuple[Meld, ...]
    red_threes: tuple[tuple[str, ...], ...]
    pile: tuple[str, ...]
    talon_count: int


@dataclass(frozen=True)
class HandRecord:
    """The summary of a finished hand: its count, the totals after it and its final table (None
    for a hand finished before snapshot format 3, which did not keep it; section 17)."""

    number: int  # 1-based
    went_out: int | None  # seat that went out; None = the talon ran out
    concealed: bool  # went out in the turn of the first meld (200)
    seats: tuple[SeatScore, ...]
    totals: tuple[int, ...]  # cumulative totals written after this hand
    table: HandTable | None


@dataclass(frozen=True)
class KanasterState:
    """One match of Kanaster.

    ``talon`` is top card first; ``pile`` is bottom card first (its last card is the top).
    ``melds`` is every meld of the hand in the order laid; a meld's id is its index.
    ``started[s]``: seat ``s`` has had its first turn of the hand (its red 3s are laid out).
    ``pile_taken``: the cards the mover took with the pile this turn (tucking, section 7).
    """

    players: int
    rules: Rules
    seed: str
    hand_number: int  # 1-based number of the hand being played (or the last one, once over)
    dealer: int
    cut: tuple[str, ...]  # wild cards the cutter kept at the cut (public)
    scores: tuple[int, ...]  # cumulative totals written before this hand
    hands: tuple[tuple[str, ...], ...]  # per seat, sorted (melds.hand_order)
    talon: tuple[str, ...]
    pile: tuple[str, ...]
    melds: tuple[Meld, ...]
    red_threes: tuple[tuple[str, ...], ...]  # laid-out red 3s per seat
    started: tuple[bool, ...]
    current: int
    phase: str  # DRAW | PLAY | FINISHED | ABORTED
    took_pile: bool
    pile_taken: tuple[str, ...]
    first_meld_turn: bool  # the mover made his first meld of the hand in this turn
    turns: int  # completed turns in the match (option max_turns)
    history: tuple[tuple[int, ...], ...]  # per finished hand, each seat's hand total
    last_hand: HandRecord | None

    @property
    def over(self) -> bool:
        return self.phase in (FINISHED, ABORTED)

    @property
    def cutter(self) -> int:
        """The player before the dealer cuts (seeds/kanaster.md section 3)."""
        return (self.dealer - 1) % self.players


# --- snapshot codec ---------------------------------------------------------------------------
# Hand-written rather than engines.snapshot's generic one: a 3-pack match state holds ~160 card
# codes, and this keeps encode + decode well under a millisecond.

_RULE_FIELDS = tuple(Rules.__dataclass_fields__)


def _cards(data: Any) -> tuple[str, ...]:
    return tuple(data)


def _encode_melds(melds: tuple[Meld, ...]) -> list[list[Any]]:
    return [[m.owner, m.rank, list(m.cards), list(m.tucked)] for m in melds]


def _decode_melds(data: Any) -> tuple[Meld, ...]:
    return tuple(Meld(o, r, _cards(c), _cards(t)) for o, r, c, t in data)


def encode_state(s: KanasterState) -> dict[str, Any]:
    """JSON-native snapshot of ``s``; ``decode_state`` inverts it."""
    last = s.last_hand
    return {
        "players": s.players,
        "rules": {f: getattr(s.rules, f) for f in _RULE_FIELDS},
        "seed": s.seed,
        "hand_number": s.hand_number,
        "dealer": s.dealer,
        "cut": list(s.cut),
        "scores": list(s.scores),
        "hands": [list(h) for h in s.hands],
        "talon": list(s.talon),
        "pile": list(s.pile),
        "melds": _encode_melds(s.melds),
        "red_threes": [list(r) for r in s.red_threes],
        "started": list(s.started),
        "current": s.current,
        "phase": s.phase,
        "took_pile": s.took_pile,
        "pile_taken": list(s.pile_taken),
        "first_meld_turn": s.first_meld_turn,
        "turns": s.turns,
        "history": [list(h) for h in s.history],
        "last_hand": None if last is None else {
            "number": last.number,
            "went_out": last.went_out,
            "concealed": last.concealed,
            "seats": [
                [x.table, x.canastas, x.red_threes, x.hand, x.going_out, x.total, list(x.hand_cards)]
                for x in last.seats
            ],
            "totals": list(last.totals),
            "table": None if last.table is None else {
                "melds": _encode_melds(last.table.melds),
                "red_threes": [list(r) for r in last.table.red_threes],
                "pile": list(last.table.pile),
                "talon_count": last.table.talon_count,
            },
        },
    }


def decode_state(d: Mapping[str, Any]) -> KanasterState:
    last = d["last_hand"]
    return KanasterState(
        players=d["players"],
        rules=Rules(**{f: d["rules"][f] for f in _RULE_FIELDS}),
        seed=d["seed"],
        hand_number=d["hand_number"],
        dealer=d["dealer"],
        cut=_cards(d["cut"]),
        scores=tuple(d["scores"]),
        hands=tuple(_cards(h) for h in d["hands"]),
        talon=_cards(d["talon"]),
        pile=_cards(d["pile"]),
        melds=_decode_melds(d["melds"]),
        red_threes=tuple(_cards(r) for r in d["red_threes"]),
        started=tuple(d["started"]),
        current=d["current"],
        phase=d["phase"],
        took_pile=d["took_pile"],
        pile_taken=_cards(d["pile_taken"]),
        first_meld_turn=d["first_meld_turn"],
        turns=d["turns"],
        history=tuple(tuple(h) for h in d["history"]),
        last_hand=None if last is None else HandRecord(
            last["number"],
            last["went_out"],
            last["concealed"],
            tuple(SeatScore(a, b, c, e, f, g, _cards(h)) for a, b, c, e, f, g, h in last["seats"]),
            tuple(last["totals"]),
            None if last["table"] is None else HandTable(
                _decode_melds(last["table"]["melds"]),
                tuple(_cards(r) for r in last["table"]["red_threes"]),
                _cards(last["table"]["pile"]),
                last["table"]["talon_count"],
            ),
        ),
    )
