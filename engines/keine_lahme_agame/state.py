"""Keine lahme Agame: cards, configuration, moves and the immutable game state.

The rules, and every ruling with its reason, are in ``seeds/keine-lahme-agame.md``. Every card
belongs to one player's colour ("Farbe"); a card's code is ``<colour>-<value>``: ``red-1`` ...
``red-21`` (``red-34`` with card set H1) and ``red-hat`` for the hat ("Hut"). A colour's two 1s are
identical and share the code ``red-1``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from engines.core import Move

#: Colours in seat order: seat i plays COLOURS[i] (the real colours are not published; seeds §1).
COLOURS: tuple[str, ...] = ("red", "yellow", "green", "blue", "purple")

#: The numbered cards ("Agamenkarten") of one colour, per card set (option ``card_set``, §1).
VALUES: dict[str, tuple[int, ...]] = {
    "H2": (1, 1, 2, 3, 5, 8, 13, 21),
    "H1": (1, 1, 2, 3, 5, 8, 13, 21, 34),
}

HAT = "hat"

#: The hat's strength in a trick and as payment ("Der Hut ist die höchste Karte"): above any sum.
HAT_STRENGTH = 1_000_000

#: Phases: who is to move and which move kinds are allowed (seeds §3).
LEAD = "lead"  # the leader may open a catching round (by catching) or must lead the trick
CATCHING = "catching"  # the catching round: each other player in turn may catch or pass
TRICK_LEAD = "trick_lead"  # after a catching round: the leader must lead the trick
TRICK = "trick"  # followers play to the trick in turn
PLACE = "place"  # option trick_placement=choose: the trick winner chooses what goes into his row
OVER = "over"  # the game has ended (finished or aborted)

PHASES = (LEAD, CATCHING, TRICK_LEAD, TRICK, PLACE, OVER)


def card_code(colour: str, value: int | None) -> str:
    """The code of a card; ``value`` None is the hat."""
    return f"{colour}-{HAT if value is None else value}"


def _all_cards() -> dict[str, tuple[int, int | None]]:
    info: dict[str, tuple[int, int | None]] = {}
    for ci, colour in enumerate(COLOURS):
        for v in VALUES["H1"]:
            info[card_code(colour, v)] = (ci, v)
        info[card_code(colour, None)] = (ci, None)
    return info


#: code -> (colour index, value or None for the hat), for every card of every card set.
CARD_INFO: dict[str, tuple[int, int | None]] = _all_cards()


def is_code(card: object) -> bool:
    """True for a well-formed card code of any colour and card set."""
    return isinstance(card, str) and card in CARD_INFO


def colour_index(card: str) -> int:
    return CARD_INFO[card][0]


def value_of(card: str) -> int | None:
    """Face value of a numbered card; None for the hat."""
    return CARD_INFO[card][1]


def is_hat(card: str) -> bool:
    return CARD_INFO[card][1] is None


def strength(card: str) -> int:
    """What a card counts in a trick or as payment: its value; the hat beats every sum."""
    v = CARD_INFO[card][1]
    return HAT_STRENGTH if v is None else v


def is_single_digit(card: str) -> bool:
    """The single-digit values are 1, 1, 2, 3, 5 and 8 ("Einstellige Kartenwerte")."""
    v = CARD_INFO[card][1]
    return v is not None and v < 10


def sort_key(card: str) -> tuple[int, int]:
    """Canonical order: colour in seat order, then value, the hat last."""
    ci, v = CARD_INFO[card]
    return (ci, HAT_STRENGTH if v is None else v)


def sort_cards(cards: tuple[str, ...] | list[str]) -> tuple[str, ...]:
    return tuple(sorted(cards, key=sort_key))


def colour_cards(colour: str, card_set: str) -> tuple[str, ...]:
    """The playing cards of one colour, in canonical order (the reference card is not one)."""
    return tuple(card_code(colour, v) for v in VALUES[card_set]) + (card_code(colour, None),)


def full_deck(players: int, card_set: str) -> tuple[str, ...]:
    """Every playing card of a game: the colours of seats 0..players-1, in canonical order."""
    return tuple(c for colour in COLOURS[:players] for c in colour_cards(colour, card_set))


# --- configuration -------------------------------------------------------------------------


@dataclass(frozen=True)
class Config:
    """The resolved options of one game (see ``seeds/keine-lahme-agame.md`` §8)."""

    players: int
    card_set: str
    first_leader: str
    trick_capture: str
    trick_placement: str
    row_accepts_own_colour: bool
    hut_has_slot: bool
    hut_payment: str
    section_scoring: str
    section_reset: str
    sections_per_game: int
    max_turns: int

    def slots(self) -> tuple[int | None, ...]:
        """The row's positions: one per number of the card set; None is a hat slot."""
        return VALUES[self.card_set] + ((None,) if self.hut_has_slot else ())


# --- moves ---------------------------------------------------------------------------------


def _doc(text: str) -> dict[str, str]:
    return {"doc": text}


@dataclass(frozen=True)
class Catch(Move):
    """Catch one card ("Fangen") and pay for it with one or two hand cards.

    Posted by the leader in phase ``lead`` it opens the catching round with his own catch.
    """

    type: ClassVar[str] = "catch"
    card: str = field(metadata=_doc("the card caught, e.g. `blue-8`"))
    payment: tuple[str, ...] = field(
        metadata=_doc("1 or 2 hand cards with total value at least the caught card's; put on the pile in this order")
    )
    from_seat: int | None = field(
        default=None,
        metadata=_doc("the seat whose display the card is caught from; null = the top of the discard pile"),
    )


@dataclass(frozen=True)
class PassCatch(Move):
    """Do not catch in this catching round ("müssen das aber nicht tun")."""

    type: ClassVar[str] = "pass_catch"


@dataclass(frozen=True)
class Trick(Move):
    """Play one or two cards to the trick ("Stich"); as leader this leads it."""

    type: ClassVar[str] = "trick"
    cards: tuple[str, ...] = field(metadata=_doc("1 or 2 hand cards; the hat only alone"))


@dataclass(frozen=True)
class DiscardSingle(Move):
    """The leader whose hand is a single single-digit card puts it face up on the discard pile."""

    type: ClassVar[str] = "discard_single"
    card: str = field(metadata=_doc("the leader's only hand card"))


@dataclass(frozen=True)
class Place(Move):
    """Option trick_placement=choose: the trick winner puts these won cards into his row."""

    type: ClassVar[str] = "place"
    cards: tuple[str, ...] = field(metadata=_doc("won cards that fit the row (may be empty)"))


MOVE_TYPES: tuple[type[Move], ...] = (Catch, PassCatch, Trick, DiscardSingle, Place)


# --- state ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Play:
    """One player's cards in the current trick, in the order given."""

    seat: int
    cards: tuple[str, ...]


@dataclass(frozen=True)
class Caught:
    """A card caught in the running catching round; it lies beside the catcher's row until
    the round ends ("vorerst separat neben die eigene Auslage")."""

    seat: int
    card: str
    from_seat: int | None  # None: from the discard pile


@dataclass(frozen=True)
class TrickRecord:
    """What happened to the last completed trick."""

    plays: tuple[Play, ...]
    winner: int
    placed: tuple[str, ...]  # into the winner's row
    rest: tuple[str, ...]  # the other won cards
    rest_to: str  # "hand" or "discard"


@dataclass(frozen=True)
class SectionRecord:
    """The end of one section ("Spielabschnitt") and its final table (seeds §7, "Events").

    ``hands``, ``rows`` and ``discard`` are the table as the section ended: the hands revealed, the
    scored rows and the pile. A section recorded before snapshot format 2 did not keep them (None).
    """

    section: int  # 0-based
    emptied: tuple[int, ...]  # seats whose hand was empty
    points: tuple[int, ...]
    complete: tuple[bool, ...]  # whose row was complete
    hands: tuple[tuple[str, ...], ...] | None = None
    rows: tuple[tuple[str, ...], ...] | None = None
    discard: tuple[str, ...] | None = None


@dataclass(frozen=True)
class State:
    """The whole match; a value, changed only by building a new one."""

    config: Config
    seed: str
    first_leader: int  # leader of section 0
    section: int  # 0-based
    phase: str
    leader: int
    current: int  # the seat to move (meaningless once OVER)
    hands: tuple[tuple[str, ...], ...]  # each in canonical order
    rows: tuple[tuple[str, ...], ...]  # displays ("Auslage"), each in canonical order
    discard: tuple[str, ...]  # bottom first; the last card is the top
    caught: tuple[Caught, ...]  # the running catching round's catches, in order
    trick: tuple[Play, ...]  # the running trick (or the won trick awaiting placement)
    scores: tuple[int, ...]
    history: tuple[tuple[int, ...], ...]  # points of each finished section
    last_trick: TrickRecord | None
    last_section: SectionRecord | None
    turn: int  # moves applied in the whole game
    aborted: bool

    def replace(self, **changes: object) -> State:
        return dataclasses.replace(self, **changes)  # type: ignore[arg-type]


# --- snapshot codec ------------------------------------------------------------------------
# Hand-written rather than engines.snapshot's generic one: it is on every request's hot path.


def _plays_json(plays: tuple[Play, ...]) -> list[list[Any]]:
    return [[p.seat, list(p.cards)] for p in plays]


def _plays(data: Any) -> tuple[Play, ...]:
    return tuple(Play(seat, tuple(cards)) for seat, cards in data)


def _table_json(cards: tuple[tuple[str, ...], ...] | None) -> list[list[str]] | None:
    return None if cards is None else [list(c) for c in cards]


def _table(data: Any) -> tuple[tuple[str, ...], ...] | None:
    return None if data is None else tuple(tuple(c) for c in data)


def encode_state(state: State) -> dict[str, Any]:
    """JSON-native snapshot of ``state``; ``decode_state`` inverts it exactly."""
    lt, ls = state.last_trick, state.last_section
    return {
        "config": dataclasses.asdict(state.config),
        "seed": state.seed,
        "first_leader": state.first_leader,
        "section": state.section,
        "phase": state.phase,
        "leader": state.leader,
        "current": state.current,
        "hands": [list(h) for h in state.hands],
        "rows": [list(r) for r in state.rows],
        "discard": list(state.discard),
        "caught": [[c.seat, c.card, c.from_seat] for c in state.caught],
        "trick": _plays_json(state.trick),
        "scores": list(state.scores),
        "history": [list(p) for p in state.history],
        "last_trick": None
        if lt is None
        else [_plays_json(lt.plays), lt.winner, list(lt.placed), list(lt.rest), lt.rest_to],
        "last_section": None
        if ls is None
        else [ls.section, list(ls.emptied), list(ls.points), list(ls.complete), _table_json(ls.hands),
              _table_json(ls.rows), None if ls.discard is None else list(ls.discard)],
        "turn": state.turn,
        "aborted": state.aborted,
    }


def decode_state(d: Mapping[str, Any]) -> State:
    """The state ``encode_state`` wrote."""
    lt, ls = d["last_trick"], d["last_section"]
    return State(
        config=Config(**d["config"]),
        seed=d["seed"],
        first_leader=d["first_leader"],
        section=d["section"],
        phase=d["phase"],
        leader=d["leader"],
        current=d["current"],
        hands=tuple(tuple(h) for h in d["hands"]),
        rows=tuple(tuple(r) for r in d["rows"]),
        discard=tuple(d["discard"]),
        caught=tuple(Caught(s, c, f) for s, c, f in d["caught"]),
        trick=_plays(d["trick"]),
        scores=tuple(d["scores"]),
        history=tuple(tuple(p) for p in d["history"]),
        last_trick=None if lt is None else TrickRecord(_plays(lt[0]), lt[1], tuple(lt[2]), tuple(lt[3]), lt[4]),
        last_section=None
        if ls is None
        else SectionRecord(ls[0], tuple(ls[1]), tuple(ls[2]), tuple(ls[3]), _table(ls[4]), _table(ls[5]),
                           None if ls[6] is None else tuple(ls[6])),
        turn=d["turn"],
        aborted=d["aborted"],
    )
