"""What a game writes (``Game``: its rules, as about seven hooks) and what core builds from it
(``GameEngine``: the whole ``engines.core.Engine`` surface, the shared parts written once).

Every game's package has the same modules, each holding the same names: ``options`` (``PLAYERS``,
``OPTIONS``), ``state`` (the state's frozen dataclass), ``moves`` (``MOVE_TYPES``), ``rules``
(``new_game``, ``legal_moves``, ``apply``, ``result``, ``REASONS``; ``to_move`` where the default does not
fit), ``view`` (``view``; ``hidden``), ``events`` (``EVENT_TYPES``: its event types, each declared
once with its public and private fields, ``engines.eventtypes``), ``strategy`` (``heuristic_move``,
``evaluate``; ``ranked_moves``, ``determinize`` where the defaults do not fit) and ``migrations``
(``FORMAT``, ``MIGRATIONS``; ``ENTRY_MIGRATIONS``). So its ``__init__`` only names it and says what a
catalogue shows of it: ``ENGINE = GameEngine(Game.of(__name__, "sten", 'Sten ("Stein")', StenState,
scoring="none", typical_minutes=20, description="..."))``. Core adds what
every game shares, the way OpenSpiel's Python games write their ``State`` hooks and the framework
guards the rest:

- the player count, the options and the seed of a new game checked, the options resolved;
- the turn and game-over checks before any rule runs: ``IllegalMove("game_over")`` once nobody is
  to move, ``IllegalMove("not_your_turn")`` for a seat not to move, ``malformed_move`` for a move of
  another game; ``legal_moves`` answers () for a seat not to move. A game's ``apply`` and
  ``legal_moves`` are only ever asked for a seat to move in a running game;
- the closing ``game_over`` event of the move that ends the game (``engines.eventtypes.GameOver``, or
  the game's narrower subclass of it);
- ``to_move`` from the state's ``current`` seat and ``over`` flag, unless the game says otherwise;
- the snapshot codec (``engines.snapshot``), compiled from the state's type hints;
- the result's ``ranking`` (``engines.core.ranked``), from the game's ``scoring`` direction;
- the log's redaction of a move from its events (``Move.shown_by``);
- ``determinize`` and the leak checks' ``shuffle_hidden`` from the game's hidden places
  (``engines.hidden``), and the bots' defaults (a random listed move, no evaluation before the end).
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import import_module
from typing import Any, Generic, TypeVar

from engines import snapshot
from engines.core import (
    CORE_REASONS,
    JSON,
    SCORINGS,
    Event,
    IllegalMove,
    InvalidOptions,
    Migration,
    Move,
    Option,
    Result,
    check_players,
    deal_from,
    ranked,
    resolve_options,
)
from engines.eventtypes import EventType, GameOver, declared_fields, game_over_event
from engines.heuristics import heuristic_first
from engines.hidden import Hidden, deal

S = TypeVar("S")

NewGame = Callable[[int, Mapping[str, JSON] | None, str, Sequence[str] | None], S]
Pack = Callable[[int, Mapping[str, JSON]], tuple[str, ...]]
Apply = Callable[[S, int, Move, list[Event] | None], S]
Chooser = Callable[[S, int, random.Random], Move]


def _nothing_hidden(state: Any, seat: int | None) -> tuple[Hidden, ...]:
    return ()


@dataclass(frozen=True)
class Game(Generic[S]):
    """The rules of one game, as the game writes them; ``GameEngine`` makes the engine of them.

    Names: ``id`` (URL slug and seeds/ stem), ``title``, ``players`` (allowed counts), ``options``
    (house rules), ``move_types`` (every move class), ``event_types`` (every event type its moves
    report, ``engines.eventtypes``; its own ``GameOver`` last, where it narrows core's), ``state``
    (the state's frozen dataclass, which the codec is compiled from), ``provisional`` (part of the
    rules is a reconstruction), ``format`` and its ``migrations``/``entry_migrations`` (older stored
    formats -> the next one); and for a catalogue: ``scoring`` (which way its scores win,
    ``engines.core.SCORINGS``), ``description`` (the game in a sentence or two) and
    ``typical_minutes`` (how long people usually play one, at the default options).

    The rules (called only for a seat to move in a running game, core checks it first):

    - ``new_game(players, options, seed, deck)``: deal, from ``deck`` (top card first) when one is
      given; core has checked the player count and the seed and resolved ``options`` (every option,
      defaults filled in); InvalidOptions for what only the game can refuse (a combination, a deck);
    - ``pack(players, options)``: the cards in play (``options`` resolved), in a fixed order: what
      the first deal shuffles by the seed (``engines.core.deal_from``), so that core can say which
      deck a game was dealt from (``first_deck``);
    - ``legal_moves(state, seat)``: the moves ``seat`` may post now;
    - ``apply(state, seat, move, events)``: the state after the move, verify first and build after:
      IllegalMove(reason) and nothing changed when refused. What the move caused is appended to
      ``events`` in order, each built from one of its ``event_types`` (``EventType.event()``);
      ``events`` is None when nobody reads them (a bot's search), and then the game may skip
      building them. Not the closing ``game_over``: core adds it;
    - ``view(state, seat)``: what ``seat`` (None: a spectator) may see;
    - ``result(state)``: None while the game runs (core adds the ``ranking``);
    - ``seat_facts(state)``: per seat, the cards in its hand and its running score (None where the
      game keeps none): what every table shows of a seat, written once per game, last in its
      ``view`` module;
    - ``to_move(state)``: the seats to move, () once over; by default ``(state.current,)`` until
      ``state.over``.

    What a bot may know and how a beginner plays (all optional):

    - ``hidden(state, seat)``: the places of the cards ``seat`` (None: a spectator) cannot see
      (``engines.hidden.Hidden``); core deals them anew for ``determinize`` and ``shuffle_hidden``;
    - ``determinize(state, seat, rng)``: only for a game whose players know more than its hidden
      places say (every hand, when every card moves face up);
    - ``heuristic_move``, ``ranked_moves``, ``evaluate``: the ``greedy`` level, its order of the
      listed moves, and a position's value for the search (``engines.core.Engine``).
    """

    id: str
    title: str
    players: range
    options: tuple[Option, ...]
    move_types: tuple[type[Move], ...]
    state: type[S]
    event_types: tuple[type[EventType], ...]
    reasons: Mapping[str, str]  # every reason its rules refuse a move for -> what it means (rules.REASONS)
    new_game: NewGame[S]
    legal_moves: Callable[[S, int], tuple[Move, ...]]
    apply: Apply[S]
    view: Callable[[S, int | None], dict[str, JSON]]
    result: Callable[[S], Result | None]
    pack: Pack
    seat_facts: Callable[[S], tuple[tuple[int, int | None], ...]]
    scoring: str
    description: str
    typical_minutes: int
    to_move: Callable[[S], tuple[int, ...]] | None = None
    hidden: Callable[[S, int | None], Sequence[Hidden]] = _nothing_hidden
    determinize: Callable[[S, int, random.Random], S] | None = None
    heuristic_move: Chooser[S] | None = None
    ranked_moves: Callable[[S, int, random.Random], list[Move]] | None = None
    evaluate: Callable[[S, int], float] | None = None
    provisional: bool = False
    format: int = 1
    migrations: Mapping[int, Migration] = field(default_factory=dict)
    entry_migrations: Mapping[int, Migration] = field(default_factory=dict)

    @staticmethod
    def of(package: str, id: str, title: str, state: type[S], *, scoring: str, description: str,
           typical_minutes: int) -> Game[S]:
        """The rules of the game in ``package``, read from its modules where every game keeps them
        (the module docstring): the hooks a game leaves out get core's defaults. A game is
        ``provisional`` when some of its options are (a reconstructed rule)."""
        options, moves, rules, view, events, strategy, migrations = (
            import_module(f"{package}.{name}")
            for name in ("options", "moves", "rules", "view", "events", "strategy", "migrations"))
        return Game(
            id=id, title=title, players=options.PLAYERS, options=options.OPTIONS, move_types=moves.MOVE_TYPES,
            state=state, event_types=events.EVENT_TYPES, new_game=rules.new_game, legal_moves=rules.legal_moves,
            apply=rules.apply, view=view.view, result=rules.result, pack=rules.pack, seat_facts=view.seat_facts,
            scoring=scoring, description=description, typical_minutes=typical_minutes,
            to_move=getattr(rules, "to_move", None),
            hidden=getattr(view, "hidden", _nothing_hidden), determinize=getattr(strategy, "determinize", None),
            heuristic_move=getattr(strategy, "heuristic_move", None),
            ranked_moves=getattr(strategy, "ranked_moves", None), evaluate=getattr(strategy, "evaluate", None),
            provisional=any(o.provisional for o in options.OPTIONS), format=migrations.FORMAT,
            migrations=migrations.MIGRATIONS, entry_migrations=getattr(migrations, "ENTRY_MIGRATIONS", {}),
            reasons=rules.REASONS,
        )


def _current_seat(state: Any) -> tuple[int, ...]:
    """The default ``to_move``: the state's ``current`` seat until ``over``."""
    return () if state.over else (state.current,)


def shown_move(move: Move, events: Sequence[Event], viewer: int | None) -> dict[str, JSON]:
    """The log entry's ``move`` as ``viewer`` may see it, read off the move's own event
    (``Move.shown_by``): as posted, unless that event hides part of it from some seat; then with the
    declared fields as the event shows them to ``viewer``."""
    data = move.to_json()
    shown_by = type(move).shown_by
    if shown_by is None:
        return data
    kind, names = shown_by
    own = next((e for e in events if e.type == kind), None)
    if own is None or not own.private:
        return data
    seen = own.for_viewer(viewer)
    for name in names:
        if name in seen:
            data[name] = seen[name]
        else:
            data.pop(name, None)
    return data


class GameEngine(Generic[S]):
    """The engine (``engines.core.Engine``) of one ``Game``: its rules behind the shared checks."""

    def __init__(self, game: Game[S]) -> None:
        self.game = game
        self.id = game.id
        self.title = game.title
        self.players = game.players
        self.options = game.options
        self.provisional = game.provisional
        assert game.scoring in SCORINGS, f"{game.id}: scoring is one of {SCORINGS}, not {game.scoring!r}"
        self.scoring = game.scoring
        self.description = game.description
        self.typical_minutes = game.typical_minutes
        self.move_types = game.move_types
        assert not set(game.reasons) & set(CORE_REASONS), f"{game.id}: a reason core declares, declared again"
        self.reasons: Mapping[str, str] = {**CORE_REASONS, **game.reasons}
        kinds = game.event_types
        if not any(k.type == GameOver.type for k in kinds):
            kinds = (*kinds, GameOver)
        self.event_types: tuple[type[EventType], ...] = kinds
        over = [k for k in kinds if k.type == GameOver.type]
        assert len(over) == 1 and issubclass(over[0], GameOver) and kinds[-1] is over[0], (
            f"{game.id}: the game_over event type comes once, last, and is a GameOver")
        self._game_over: type[GameOver] = over[0]
        for kind in kinds:
            declared_fields(kind)  # a declaration that says too little fails here, not at its first event
        self.format = game.format
        self.migrations = game.migrations
        self.entry_migrations = game.entry_migrations
        self._to_move = game.to_move or _current_seat
        self._encode = snapshot.encoder(game.state)
        self._decode = snapshot.decoder(game.state)
        # the last apply_events, so that redact_move of one log entry's viewers works it out once
        self._last: tuple[S, int, Move, tuple[S, tuple[Event, ...]]] | None = None

    def __repr__(self) -> str:
        return f"<engine {self.id}>"

    # --- the rules, behind the turn checks --------------------------------------------------

    def new_game(self, players: int, options: Mapping[str, JSON] | None, seed: str,
                 deck: Sequence[str] | None = None) -> S:
        check_players(players, self.players)
        resolved = resolve_options(self.options, options)
        if not isinstance(seed, str):
            raise InvalidOptions({"seed": "must be a string"})
        return self.game.new_game(players, resolved, seed, deck)

    def first_deck(self, players: int, options: Mapping[str, JSON] | None, seed: str,
                   deck: Sequence[str] | None = None) -> tuple[str, ...]:
        check_players(players, self.players)
        resolved = resolve_options(self.options, options)
        return deal_from(deck, self.game.pack(players, resolved), seed)

    def to_move(self, state: S) -> tuple[int, ...]:
        return self._to_move(state)

    def legal_moves(self, state: S, seat: int) -> tuple[Move, ...]:
        if type(seat) is not int or seat not in self._to_move(state):
            return ()
        return self.game.legal_moves(state, seat)

    def _check(self, state: S, seat: int, move: Move) -> None:
        """The checks every game's moves share, in this order: the game is running, the seat is to
        move, the move is one of this game's."""
        movers = self._to_move(state)
        if not movers:
            raise IllegalMove("game_over", "the game is over")
        if type(seat) is not int or seat not in movers:
            raise IllegalMove("not_your_turn", f"seat {seat!r} is not to move")
        if type(move) not in self.move_types:
            raise IllegalMove("malformed_move", f"not a move of {self.title}: {move!r}")

    def apply(self, state: S, seat: int, move: Move) -> S:
        self._check(state, seat, move)
        return self.game.apply(state, seat, move, None)

    def apply_events(self, state: S, seat: int, move: Move) -> tuple[S, tuple[Event, ...]]:
        self._check(state, seat, move)
        events: list[Event] = []
        after = self.game.apply(state, seat, move, events)
        if not self._to_move(after):
            outcome = self.game.result(after)
            assert outcome is not None, f"{self.id}: nobody is to move, but the game has no result"
            events.append(game_over_event(outcome, self._game_over))
        done = (after, tuple(events))
        self._last = (state, seat, move, done)
        return done

    def view(self, state: S, seat: int | None) -> dict[str, JSON]:
        return self.game.view(state, seat)

    def result(self, state: S) -> Result | None:
        outcome = self.game.result(state)
        if outcome is None or outcome.ranking:
            return outcome
        return dataclasses.replace(outcome, ranking=ranked(outcome, self.scoring, len(self.game.seat_facts(state))))

    def seat_facts(self, state: S) -> tuple[tuple[int, int | None], ...]:
        return self.game.seat_facts(state)

    # --- snapshots and the log ----------------------------------------------------------------

    def encode(self, state: S) -> dict[str, JSON]:
        data: dict[str, JSON] = self._encode(state)
        return data

    def decode(self, data: Mapping[str, JSON]) -> S:
        state: S = self._decode(data)
        return state

    def shown_move(self, move: Move, events: Sequence[Event], viewer: int | None) -> dict[str, JSON]:
        return shown_move(move, events, viewer)

    def redact_move(self, state_before: S, seat: int, move: Move, viewer: int | None) -> dict[str, JSON]:
        if type(move).shown_by is None:
            return move.to_json()
        last = self._last
        if last is not None and last[0] is state_before and last[1] == seat and last[2] == move:
            events = last[3][1]
        else:
            try:
                events = self.apply_events(state_before, seat, move)[1]
            except IllegalMove:
                return move.to_json()
        return shown_move(move, events, viewer)

    # --- hidden cards ---------------------------------------------------------------------------

    def shuffle_hidden(self, state: S, seat: int | None, seed: str) -> S:
        return deal(state, self.game.hidden(state, seat), seed, "shuffle_hidden")

    def determinize(self, state: S, seat: int, rng: random.Random) -> S:
        if self.game.determinize is not None:
            return self.game.determinize(state, seat, rng)
        token = repr(rng.random())
        world = deal(state, self.game.hidden(state, seat), token, "determinize")
        return reseeded(world, token)

    # --- the bots' defaults -------------------------------------------------------------------

    def heuristic_move(self, state: S, seat: int, rng: random.Random) -> Move:
        if self.game.heuristic_move is not None:
            return self.game.heuristic_move(state, seat, rng)
        moves = self.legal_moves(state, seat)
        return moves[int(rng.random() * len(moves))]

    def ranked_moves(self, state: S, seat: int, rng: random.Random) -> list[Move]:
        if self.game.ranked_moves is not None:
            return self.game.ranked_moves(state, seat, rng)
        return heuristic_first(self.heuristic_move(state, seat, rng), self.legal_moves(state, seat))

    def evaluate(self, state: S, seat: int) -> float:
        if self.game.evaluate is not None:
            return self.game.evaluate(state, seat)
        return result_value(self.game.result(state), seat)


def result_value(result: Result | None, seat: int) -> float:
    """A position's value by its result alone: a sole winner 1, a shared win 0.75, a loser 0,
    anything else (a running game, an abort, a seat neither won nor lost) 0.5."""
    if result is None:
        return 0.5
    if seat in result.winners:
        return 1.0 if len(result.winners) == 1 else 0.75
    return 0.0 if seat in result.losers else 0.5


def reseeded(state: S, token: str) -> S:
    """``state`` with a seed of its own (``determinized/<token>``) where it has one: the real seed
    deals every later deal and reshuffle, so a world that kept it would show a search the future."""
    value: Any = state
    if "seed" not in {f.name for f in dataclasses.fields(value)}:
        return state
    out: S = dataclasses.replace(value, seed=f"determinized/{token}")
    return out
