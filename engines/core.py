"""The engine contract (``Engine``), and the few types every game speaks in.

An engine is a pure, deterministic function library over an immutable game state (a frozen
dataclass). It never imports flask, marshmallow or redis. The service drives every game through
exactly the ``Engine`` surface; a game plugs in by its entry in ``engines.REGISTRY`` and its module
in ``schemas``. A game writes only its rules (``engines.contract.Game``); ``engines.contract``
builds the engine from them and adds what every game shares.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, TypeVar

from engines.cards import shuffled
from engines.memo import SHOWN
from engines.snapshot import STORED

if TYPE_CHECKING:
    from engines.eventtypes import EventType

S = TypeVar("S")
M = TypeVar("M", bound="Move")

JSON = Any


class IllegalMove(Exception):
    """A well-formed move that the rules refuse.

    ``reason`` is a stable machine code (``not_your_turn``, ``card_not_in_hand`` ...);
    ``message`` is for humans and never names a card hidden from the mover.
    """

    def __init__(self, reason: str, message: str | None = None) -> None:
        super().__init__(message or reason)
        self.reason = reason
        self.message = message or reason.replace("_", " ")


#: The reasons core refuses a move for, whatever the game (``engines.contract``): each game declares
#: its own in its ``rules.REASONS``, and an engine's ``reasons`` are these and the game's.
#: tests/test_reasons.py reads the source: every reason raised is declared, every one declared is raised.
CORE_REASONS: Mapping[str, str] = {
    "game_over": "The game is over: nobody may move. Over HTTP the service answers 409 `game_over` first.",
    "not_your_turn": "The seat is not to move now. Over HTTP the service answers 409 `not_your_turn` first.",
    "malformed_move": "The move does not have the shape its type needs (an unknown type, a missing or unknown "
                      "field, a value of the wrong kind). Over HTTP the move's schema refuses most of these "
                      "first, with 422 `validation_error`.",
}


class InvalidOptions(Exception):
    """Options, player count or fixed deck that the game cannot be set up with.

    ``errors`` maps a field (``players``, ``deck`` or ``options.<name>``) to a message.
    """

    def __init__(self, errors: Mapping[str, str]) -> None:
        super().__init__("; ".join(f"{k}: {v}" for k, v in errors.items()))
        self.errors = dict(errors)


#: Which way a game's scores win (``Engine.scoring``): the higher total, the lower total, or no score at
#: all (winners and losers only).
SCORINGS = ("higher_wins", "lower_wins", "none")
#: How a game came to its end (``Result.termination``). Every game ends ``normal`` today: played out, or
#: stopped by its own safety cap on length (then ``status`` is ``aborted``). The others are reserved for
#: what a table may do later: a player resigns, runs out of time, leaves, or the game is called off.
TERMINATIONS = ("normal", "resignation", "timeout", "abandoned", "aborted")


@dataclass(frozen=True)
class Result:
    """How a finished game ended.

    ``status`` is ``finished`` (played out) or ``aborted`` (the safety cap ended it).
    ``winners``/``losers`` are seats; ``scores`` maps seat -> points where the game
    scores; ``detail`` holds game-specific JSON-native facts (documented per game).
    ``termination`` says how the game came to an end (``TERMINATIONS``); ``ranking`` lists the
    seats best first, tied seats sharing a place (core fills it in from the game's scoring:
    ``ranked``); ``forfeited`` the seats that gave the game up (none yet).
    """

    status: str
    winners: tuple[int, ...] = ()
    losers: tuple[int, ...] = ()
    scores: tuple[int, ...] | None = None
    detail: Mapping[str, JSON] = field(default_factory=dict)
    termination: str = "normal"
    ranking: tuple[tuple[int, ...], ...] = ()
    forfeited: tuple[int, ...] = ()

    def to_json(self) -> dict[str, JSON]:
        return {
            "status": self.status,
            "winners": list(self.winners),
            "losers": list(self.losers),
            "scores": None if self.scores is None else list(self.scores),
            "detail": dict(self.detail),
            "termination": self.termination,
            "ranking": [list(place) for place in self.ranking],
            "forfeited": list(self.forfeited),
        }


def ranked(result: Result, scoring: str, seats: int) -> tuple[tuple[int, ...], ...]:
    """The seats of a finished game best first, as a list of places; tied seats share a place.

    A game that scores (``higher_wins``/``lower_wins``, and ``scores`` given) ranks by its scores in
    that direction, equal scores sharing a place. A game without scores ranks its winners first, its
    losers last and every other seat between them (a seat that both won and lost, as Sten's stone
    may make a winner, counts as a winner). A game its safety cap stopped (``aborted``) has no winner:
    every seat shares the one place.
    """
    assert scoring in SCORINGS, f"unknown scoring {scoring!r}"
    everyone = tuple(range(seats))
    if result.status == "aborted":
        return (everyone,) if everyone else ()
    if scoring != "none" and result.scores is not None:
        sign = -1 if scoring == "higher_wins" else 1
        values = sorted({result.scores[s] for s in everyone}, key=lambda v: sign * v)
        return tuple(tuple(s for s in everyone if result.scores[s] == v) for v in values)
    won = tuple(s for s in everyone if s in result.winners)
    lost = tuple(s for s in everyone if s in result.losers and s not in won)
    rest = tuple(s for s in everyone if s not in won and s not in lost)
    return tuple(place for place in (won, rest, lost) if place)


@dataclass(frozen=True)
class Move:
    """Base of every move: a small frozen dataclass with a ``type`` tag.

    Fields are JSON-native (str card codes, ints, bools, tuples of those), so a move
    converts to and from its wire dict generically (``to_json``/``move_from_json``).
    """

    type: ClassVar[str] = ""
    #: What the log shows of this move (``Engine.shown_move``): ``(event type, fields)`` when the
    #: move's own event (its first of that type) may hide part of it: while that event has a private
    #: part, each viewer sees the move with those fields as the event shows them to him (a field the
    #: event does not show him is left out). None, as for most moves: public as posted.
    shown_by: ClassVar[tuple[str, tuple[str, ...]] | None] = None

    def to_json(self) -> dict[str, JSON]:
        names = _FIELD_NAMES.get(type(self))
        if names is None:
            names = _FIELD_NAMES[type(self)] = tuple(f.name for f in dataclasses.fields(self))
        data: dict[str, JSON] = {"type": self.type}
        for name in names:
            value = getattr(self, name)
            data[name] = value if value.__class__ in _PLAIN else _jsonify(value)
        return data


#: Each move class's field names, in order (``dataclasses.fields`` is asked once per class: a view
#: lists the seat's legal moves, each as JSON).
_FIELD_NAMES: dict[type, tuple[str, ...]] = {}
#: Values that are JSON as they are (exactly these types; a subclass goes the long way).
_PLAIN = frozenset({str, int, bool, float, type(None)})


def _jsonify(value: Any) -> JSON:
    if isinstance(value, tuple | list):
        return [v if v.__class__ in _PLAIN else _jsonify(v) for v in value]
    return value


def _tuplify(value: Any) -> Any:
    if isinstance(value, list | tuple):
        return tuple(_tuplify(v) for v in value)
    return value


def move_from_json(kinds: Sequence[type[M]], data: Mapping[str, JSON]) -> M:
    """Build the move named by ``data['type']`` from one of ``kinds``.

    Raises ``IllegalMove('malformed_move')`` when the type is unknown or the fields
    do not match; the service validates shapes first, so this guards engine users.
    """
    by_type = {k.type: k for k in kinds}
    name = data.get("type")
    kind = by_type.get(name) if isinstance(name, str) else None
    if kind is None:
        raise IllegalMove("malformed_move", f"unknown move type {data.get('type')!r}")
    names = {f.name for f in dataclasses.fields(kind)}
    extra = set(data) - names - {"type"}
    if extra:
        raise IllegalMove("malformed_move", f"unknown fields {sorted(extra)}")
    try:
        return kind(**{n: _tuplify(data[n]) for n in names if n in data})
    except TypeError as exc:
        raise IllegalMove("malformed_move", str(exc)) from None


@dataclass(frozen=True)
class Option:
    """One house-rule option: its default and what values it allows.

    ``kind`` is ``bool``, ``int`` or ``choice``. For ``int``, ``minimum``/``maximum``
    bound it (inclusive; both are required). For ``choice``, ``choices`` lists the values.
    ``nullable`` admits ``None`` (documented per option). ``provisional`` marks a
    reconstructed rule the published source does not state.
    """

    name: str
    kind: str
    default: JSON
    description: str
    choices: tuple[JSON, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    nullable: bool = False
    provisional: bool = False

    def __post_init__(self) -> None:
        # Every integer option is bounded on both sides: an unbounded one lets a create ask for
        # a target of 2**63 (a game that never ends) or a cap that bounds nothing.
        if self.kind == "int" and (self.minimum is None or self.maximum is None):
            raise AssertionError(f"option {self.name}: an integer option needs a minimum and a maximum")

    def check(self, value: JSON) -> str | None:
        """Return an error message for ``value``, or None if it is allowed."""
        if value is None:
            return None if self.nullable else "may not be null"
        if self.kind == "bool":
            return None if isinstance(value, bool) else "must be a boolean"
        if self.kind == "int":
            if isinstance(value, bool) or not isinstance(value, int):
                return "must be an integer"
            if self.minimum is not None and value < self.minimum:
                return f"must be at least {self.minimum}"
            if self.maximum is not None and value > self.maximum:
                return f"must be at most {self.maximum}"
            return None
        if self.kind == "choice":
            return None if value in self.choices else f"must be one of {list(self.choices)}"
        raise AssertionError(f"unknown option kind {self.kind}")

    def to_json(self) -> dict[str, JSON]:
        data: dict[str, JSON] = {
            "name": self.name,
            "type": {"bool": "boolean", "int": "integer", "choice": "string"}[self.kind],
            "default": self.default,
            "description": self.description,
            "nullable": self.nullable,
            "provisional": self.provisional,
        }
        if self.choices:
            data["choices"] = list(self.choices)
        if self.minimum is not None:
            data["minimum"] = self.minimum
        if self.maximum is not None:
            data["maximum"] = self.maximum
        return data


def resolve_options(specs: Sequence[Option], given: Mapping[str, JSON] | None) -> dict[str, JSON]:
    """Validate ``given`` against ``specs`` and fill in defaults.

    Unknown names and bad values raise ``InvalidOptions`` naming every problem.
    """
    given = dict(given or {})
    errors: dict[str, str] = {}
    known = {o.name: o for o in specs}
    for name in given:
        if name not in known:
            errors[f"options.{name}"] = "unknown option"
    resolved: dict[str, JSON] = {}
    for opt in specs:
        value = given.get(opt.name, opt.default)
        problem = opt.check(value)
        if problem:
            errors[f"options.{opt.name}"] = problem
        resolved[opt.name] = value
    if errors:
        raise InvalidOptions(errors)
    return resolved


def check_players(players: int, allowed: range) -> None:
    """Refuse a player count outside the game's range."""
    if isinstance(players, bool) or not isinstance(players, int) or players not in allowed:
        raise InvalidOptions({"players": f"must be between {allowed.start} and {allowed.stop - 1}"})


def check_deck(deck: Sequence[str], expected: Sequence[str]) -> tuple[str, ...]:
    """Check a fixed deck is exactly the game's cards (as a multiset), in any order."""
    from collections import Counter

    deck = tuple(deck)
    if len(deck) != len(expected):
        raise InvalidOptions({"deck": f"must hold exactly {len(expected)} cards, not {len(deck)}"})
    have, want = Counter(deck), Counter(expected)
    if have != want:
        unknown = sorted(set(have) - set(want))
        if unknown:
            raise InvalidOptions({"deck": f"unknown or impossible cards: {unknown[:5]}"})
        extra = sorted(c for c in have if have[c] > want[c])
        raise InvalidOptions({"deck": f"too many copies of {extra[:5]}"})
    return deck


def deal_from(deck: Sequence[str] | None, cards: Sequence[str], seed: str) -> tuple[str, ...]:
    """The deck a new game deals from, top card first: a fixed ``deck`` (exactly ``cards``, checked by
    ``check_deck``), or else ``cards`` shuffled by the game's seed (purpose ``deal``)."""
    return shuffled(cards, seed, "deal") if deck is None else check_deck(deck, cards)


def evolve(value: S, **changes: Any) -> S:
    """``dataclasses.replace`` for a game's state: a copy of the frozen dataclass ``value`` with
    ``changes``, its fields copied as they are instead of passed through ``__init__`` again (a state
    checks nothing there; its rules build it), several times faster: every move builds a few. What a
    view kept on ``value`` (``engines.memo.keep``) and the JSON the codec kept on it
    (``engines.snapshot.kept``) are left behind: they were worked out of the old fields."""
    cls = value.__class__
    if cls not in _EVOLVED:  # checked once per class
        assert not hasattr(cls, "__post_init__") and not hasattr(cls, "__slots__"), f"{cls.__name__}: use replace"
        _EVOLVED.add(cls)
    fields = value.__dict__
    if not changes.keys() <= fields.keys():
        raise TypeError(f"{cls.__name__} has no field {sorted(changes.keys() - fields.keys())}")
    copied = {**fields, **changes}
    copied.pop(SHOWN, None)
    copied.pop(STORED, None)
    new: S = object.__new__(cls)
    object.__setattr__(new, "__dict__", copied)
    return new


#: The classes ``evolve`` has copied (and checked that it may).
_EVOLVED: set[type] = set()


@dataclass(frozen=True)
class Event:
    """Something a move caused that a viewer at the table sees; each move's log entry carries its events.

    ``public`` is what everyone at the table and the spectator see; ``private`` adds fields for
    (or overrides fields of) the seats it names: the drawer sees which cards he drew, the others
    only how many. ``for_viewer`` is the only road from an event to a client, as ``view`` is for a
    state. Field values are JSON-native; card codes are strings.
    """

    type: str
    public: Mapping[str, JSON] = field(default_factory=dict)
    private: Mapping[int, Mapping[str, JSON]] = field(default_factory=dict)

    def for_viewer(self, viewer: int | None) -> dict[str, JSON]:
        """The event as ``viewer`` (a seat, or None for the spectator) may see it."""
        shown: dict[str, JSON] = {"type": self.type, **self.public}
        if viewer is not None and viewer in self.private:
            shown.update(self.private[viewer])
        return shown

    def to_json(self) -> dict[str, JSON]:
        """The stored form (every viewer's part); never sent to a client as it is."""
        return {"type": self.type, "public": dict(self.public),
                "private": {str(seat): dict(extra) for seat, extra in self.private.items()}}

    @staticmethod
    def from_json(data: Mapping[str, JSON]) -> Event:
        return Event(data["type"], data["public"], {int(s): extra for s, extra in data["private"].items()})


#: A pure step from one stored format of a game to the next: ``data`` of format n -> format n + 1.
Migration = Callable[[dict[str, JSON]], dict[str, JSON]]


class NewerFormat(Exception):
    """A stored state or log entry was written in a format newer than this code knows (a rollback):
    it is refused, never misread."""


def migrate(data: dict[str, JSON], written: int, current: int, steps: Mapping[int, Migration],
            what: str = "state") -> dict[str, JSON]:
    """``data`` stored in format ``written``, brought to format ``current`` one step at a time.

    A format newer than ``current`` raises ``NewerFormat``; a missing step between them is a bug
    of the release (every format a release ever wrote keeps its step), so it asserts.
    """
    if isinstance(written, bool) or not isinstance(written, int) or written < 1:
        raise NewerFormat(f"{what} format {written!r} is not a format number")
    if written > current:
        raise NewerFormat(f"{what} format {written} is newer than this release's {current}")
    for fmt in range(written, current):
        step = steps.get(fmt)
        assert step is not None, f"no migration of the {what} from format {fmt} to {fmt + 1}"
        data = step(data)
    return data


class Engine(Protocol[S]):
    """Everything the service, the bots and the tests may ask of a game: one surface for every game.

    A game does not implement it by hand: it declares its rules (``engines.contract.Game``) and
    ``engines.contract.GameEngine`` builds the engine, adding what every game shares (the turn and
    game-over checks, the closing ``game_over`` event, the codec, redaction, determinization and the
    bots' defaults).
    """

    id: str  # URL slug and seeds/ stem, e.g. "sten"
    title: str  # human title, e.g. 'Sten ("Stein")'
    players: range  # allowed player counts
    options: tuple[Option, ...]  # house-rule variants with defaults
    provisional: bool  # True when part of the rules is a reconstruction
    scoring: str  # which way the scores win: "higher_wins", "lower_wins" or "none" (SCORINGS)
    description: str  # the game in a sentence or two, for a catalogue
    typical_minutes: int  # how long a game usually takes people, at the default options
    move_types: tuple[type[Move], ...]  # every move kind, for move_from_json
    reasons: Mapping[str, str]  # every IllegalMove reason of the game (core's too) -> what it means
    event_types: tuple[type[EventType], ...]  # every event kind its moves report, game_over last
    format: int  # the stored format this code writes (1 until a release changes it)
    migrations: Mapping[int, Migration]  # encoded state: old format -> the next one
    entry_migrations: Mapping[int, Migration]  # log entries: old format -> the next one

    def new_game(self, players: int, options: Mapping[str, JSON] | None, seed: str,
                 deck: Sequence[str] | None = None) -> S:
        """Deal a new game. ``deck`` is the whole deck, top card first; the deal from it is
        the same as from a shuffled deck. Raises InvalidOptions."""
        ...

    def first_deck(self, players: int, options: Mapping[str, JSON] | None, seed: str,
                   deck: Sequence[str] | None = None) -> tuple[str, ...]:
        """The deck ``new_game`` with the same arguments deals its first deal from, top card first:
        the fixed ``deck`` when one is given, else the game's cards shuffled by ``seed``. A game
        created with this deck (and the same seed) is the very same game. Raises InvalidOptions."""
        ...

    def to_move(self, state: S) -> tuple[int, ...]:
        """Seats that may move now; () once the game is over (and only then)."""
        ...

    def legal_moves(self, state: S, seat: int) -> tuple[Move, ...]:
        """Every move ``seat`` may post now, each one accepted by ``apply`` as it is;
        () if ``seat`` is not to move. Where a choice is too large to list, a documented
        subset that always holds at least one move when ``seat`` is to move."""
        ...

    def apply(self, state: S, seat: int, move: Move) -> S:
        """The state after ``seat`` makes ``move``; IllegalMove(reason) and nothing changed otherwise:
        ``game_over`` once the game is over, ``not_your_turn`` for a seat not to move."""
        ...

    def apply_events(self, state: S, seat: int, move: Move) -> tuple[S, tuple[Event, ...]]:
        """``apply``, and what the move caused, in order, as events: everything a viewer at the
        table would see (cards drawn, turned, taken, melded; skips, resets, reshuffles; a trick
        won; a hand or deal ending with the hands revealed, the final table and the score
        breakdown; the next deal), ``game_over`` last when the move ends the game; each event
        redacted per viewer by its ``private`` part. The state is the very one ``apply`` returns."""
        ...

    def view(self, state: S, seat: int | None) -> dict[str, JSON]:
        """The game-specific ``state`` part of a view: only what ``seat`` may see
        (None = spectator, who sees only the table)."""
        ...

    def result(self, state: S) -> Result | None:
        """None while the game runs; at the end with its ``ranking`` (``ranked``, by ``scoring``)."""
        ...

    def seat_facts(self, state: S) -> tuple[tuple[int, int | None], ...]:
        """What every table shows of each seat, whatever the game, one pair per seat in seat order:
        the cards in its hand, and its running score (None where the game keeps none). The service
        builds every view's ``seats`` from it."""
        ...

    def encode(self, state: S) -> dict[str, JSON]:
        """JSON-native snapshot; decode(encode(s)) == s."""
        ...

    def decode(self, data: Mapping[str, JSON]) -> S:
        """The state ``encode`` wrote (in this release's format: older ones are migrated first)."""
        ...

    def shown_move(self, move: Move, events: Sequence[Event], viewer: int | None) -> dict[str, JSON]:
        """The log entry's ``move`` as ``viewer`` may see it, from the events the move caused
        (``Move.shown_by``): a move is public as posted unless its own event hides part of it."""
        ...

    def redact_move(self, state_before: S, seat: int, move: Move, viewer: int | None) -> dict[str, JSON]:
        """``shown_move`` of ``move`` made by ``seat`` from ``state_before`` (its events worked out
        again where the move's own event is needed, once for all viewers of one entry)."""
        ...

    def shuffle_hidden(self, state: S, seat: int | None, seed: str) -> S:
        """Test hook for the leak checks: the same state with the cards hidden from ``seat``
        dealt anew among the places ``seat`` cannot see (other hands, stock ...), every place
        keeping its size. A correct ``view``/``legal_moves`` for ``seat`` does not change."""
        ...

    # --- for bots: what a player may know, how a beginner plays, how good a position is

    def determinize(self, state: S, seat: int, rng: random.Random) -> S:
        """A full state consistent with everything ``seat`` has seen (its hand, the table, the
        counts, what the game's events revealed): the cards hidden from it dealt anew, and a seed of
        its own (the real one would reveal the deals to come). A bot searches such states and never
        reads hidden cards."""
        ...

    def heuristic_move(self, state: S, seat: int, rng: random.Random) -> Move:
        """The move of the ``greedy`` bot level (``seat`` is to move): a sensible beginner's."""
        ...

    def ranked_moves(self, state: S, seat: int, rng: random.Random) -> list[Move]:
        """The seat's listed moves in the ``greedy`` heuristic's order of preference, its
        ``heuristic_move`` first: the candidates a rollout search weighs (``bots.search``)."""
        ...

    def evaluate(self, state: S, seat: int) -> float:
        """How good ``state`` is for ``seat``, from 0 (lost) to 1 (won), as a search's leaf value."""
        ...
