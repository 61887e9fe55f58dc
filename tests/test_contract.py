"""What core guarantees every game (engines/contract.py), over engines.REGISTRY: a game writes its rules
and core guards them.

- the turn checks come first and are the same for every game: ``game_over`` once nobody is to move,
  ``not_your_turn`` for a seat not to move (or no seat at all), ``malformed_move`` for another game's
  move; a game's own ``apply`` and ``legal_moves`` are never asked for anything else;
- the move that ends a game reports ``game_over`` once, last, with the result; no other move does;
- a determinized world is dealt from what the seat knows: the same for every way the cards hidden
  from it could lie, and it shows the seat its very view;
- a log entry's move as each viewer sees it is read off the move's events, as the service stored it.
"""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path
from typing import Any

import pytest

from engines import REGISTRY
from engines.contract import Game, GameEngine
from engines.core import Event, IllegalMove, Move
from engines.eventtypes import game_over_event
from tests.playout import canonical, playout, short_options

ENGINES = sorted(REGISTRY.values(), key=lambda e: e.id)
IDS = [e.id for e in ENGINES]
CAPTURED = Path(__file__).resolve().parent / "captured"


def _steps(engine: Any, seed: str, every: int = 1) -> list[tuple[int, Any]]:
    """Every ``every``-th position of seeded random playouts at the smallest and largest table, with
    the table's size; each playout's last position always."""
    out = []
    for players in sorted({engine.players.start, engine.players.stop - 1}):
        steps = list(playout(engine, players, f"{seed}/{players}"))
        out += [(players, s) for s in steps[::every] + ([steps[-1]] if (len(steps) - 1) % every else [])]
    return out


@dataclasses.dataclass(frozen=True)
class _Foreign(Move):
    """A move of no game."""

    type = "foreign"


def _guarded(engine: Any) -> tuple[GameEngine[Any], list[tuple[str, Any, int]]]:
    """``engine`` rebuilt by core from its very rules, with the game's own ``apply`` and ``legal_moves``
    recording every position they are asked about."""
    asked: list[tuple[str, Any, int]] = []
    game: Game[Any] = engine.game

    def legal(state: Any, seat: int) -> tuple[Move, ...]:
        asked.append(("legal_moves", state, seat))
        return game.legal_moves(state, seat)

    def apply(state: Any, seat: int, move: Move, events: list[Event] | None) -> Any:
        asked.append(("apply", state, seat))
        return game.apply(state, seat, move, events)

    return GameEngine(dataclasses.replace(game, legal_moves=legal, apply=apply)), asked


@pytest.mark.parametrize("engine", ENGINES, ids=IDS)
def test_core_checks_the_turn_before_any_rule_runs(engine: Any) -> None:
    guarded, asked = _guarded(engine)
    last = None
    for players, step in _steps(engine, "turns", every=5):
        waiting = [s for s in range(players) if s not in engine.to_move(step.state)]
        for seat in [*waiting, -1, players, True]:
            with pytest.raises(IllegalMove) as refused:
                guarded.apply(step.state, seat, step.move)
            assert refused.value.reason == "not_your_turn"
            assert guarded.legal_moves(step.state, seat) == ()
        with pytest.raises(IllegalMove) as refused:
            guarded.apply_events(step.state, step.seat, _Foreign())
        assert refused.value.reason == "malformed_move"
        last = step
    assert last is not None
    end = engine.apply(last.state, last.seat, last.move)
    assert engine.to_move(end) == () and engine.result(end) is not None
    for seat in range(engine.players.stop):
        for move in {type(m): m for m in last.legal}.values():
            with pytest.raises(IllegalMove) as refused:
                guarded.apply_events(end, seat, move)
            assert refused.value.reason == "game_over"
        assert guarded.legal_moves(end, seat) == ()
    assert asked == [], f"{engine.id}: a rule was asked about a seat not to move or a finished game"


@pytest.mark.parametrize("engine", ENGINES, ids=IDS)
def test_the_ending_move_and_only_it_reports_game_over_last(engine: Any) -> None:
    ended = 0
    for _, step in _steps(engine, "game-over"):
        after, events = engine.apply_events(step.state, step.seat, step.move)
        over = [e for e in events if e.type == "game_over"]
        result = engine.result(after)
        if result is None:
            assert over == []
            continue
        ended += 1
        assert over == [events[-1]] == [game_over_event(result)]
    assert ended == len({engine.players.start, engine.players.stop - 1})  # each playout ends once


@pytest.mark.parametrize("engine", [e for e in ENGINES if e.game.determinize is None],
                         ids=[e.id for e in ENGINES if e.game.determinize is None])
def test_a_world_is_dealt_from_what_the_seat_knows_alone(engine: Any) -> None:
    """Core deals the hidden places (``view.hidden``) from their sorted pool: however the hidden cards
    lie in the real state, the same seed deals the same world, and the seat sees in it what it saw."""
    for n, (_, step) in enumerate(_steps(engine, "worlds", every=9)):
        for seat in engine.to_move(step.state):
            other = engine.shuffle_hidden(step.state, seat, f"worlds/{n}")
            world = engine.determinize(step.state, seat, random.Random(f"{n}/{seat}"))
            assert engine.determinize(other, seat, random.Random(f"{n}/{seat}")) == world
            assert canonical(engine.view(world, seat)) == canonical(engine.view(step.state, seat))
            assert engine.legal_moves(world, seat) == engine.legal_moves(step.state, seat)


def _stored_entries() -> list[tuple[str, dict[str, Any], int]]:
    """Every captured log entry that stored its events, with the game and its player count."""
    out = []
    for path in sorted(CAPTURED.glob("*/format-*/*.json")):
        cap = json.loads(path.read_text())
        for stored in cap["keys"].values():
            if stored["type"] == "list":
                out += [(cap["game"], entry, cap["players"]) for entry in map(json.loads, stored["value"])
                        if "events" in entry]
    return out


def test_a_log_entrys_move_is_read_off_its_events_as_the_service_stored_it() -> None:
    """The move of every stored log entry, as every viewer saw it (``redacted`` where it differed from
    the move), is what core reads off the entry's stored events now (``Engine.shown_move``)."""
    from engines.core import move_from_json

    entries = _stored_entries()
    hidden = 0
    for game, entry, players in entries:
        engine = REGISTRY[game]
        move = move_from_json(engine.move_types, entry["move"])
        events = [Event.from_json(e) for e in entry["events"]]
        for viewer in (None, *range(players)):
            stored = entry["redacted"].get("spectator" if viewer is None else str(viewer), entry["move"])
            assert engine.shown_move(move, events, viewer) == stored, (game, entry["version"], viewer)
            hidden += stored != entry["move"]
    assert len(entries) > 100 and hidden, "no stored entry hid part of its move from a viewer"


def test_every_stored_snapshot_reads_and_writes_as_its_game_stores_it() -> None:
    """The one codec (engines/snapshot.py) writes exactly what each game stored: a captured state of
    the current format re-encodes to the same bytes, an older one to what its migration made."""
    from engines.core import migrate

    checked = 0
    for path in sorted(CAPTURED.glob("*/format-*/*.json")):
        cap = json.loads(path.read_text())
        engine = REGISTRY[cap["game"]]
        for stored in cap["keys"].values():
            if stored["type"] == "hash" and "s" in stored["value"]:
                raw = json.loads(stored["value"]["s"])["state"]
                data = migrate(raw, cap["format"], engine.format, engine.migrations)
                again = engine.encode(engine.decode(json.loads(json.dumps(data))))
                assert again == data, path
                if cap["format"] == engine.format:
                    assert json.dumps(again, separators=(",", ":")) == json.dumps(raw, separators=(",", ":"))
                checked += 1
    assert checked >= len(REGISTRY) * 2


@pytest.mark.parametrize("engine", ENGINES, ids=IDS)
def test_states_are_values(engine: Any) -> None:
    """Every state is a tree of frozen dataclasses, tuples and scalars (an event kept in a state holds
    JSON its move built and nothing changes later), so that a refused move can leave nothing behind
    and ``decode(encode(s)) == s`` is the whole state."""
    def walk(value: Any, path: str) -> None:
        if isinstance(value, str | int | float | bool | type(None)):
            return
        if isinstance(value, Event):
            json.dumps(value.to_json())
            return
        if isinstance(value, tuple):
            for i, v in enumerate(value):
                walk(v, f"{path}[{i}]")
            return
        assert dataclasses.is_dataclass(value) and type(value).__dataclass_params__.frozen, path
        for f in dataclasses.fields(value):
            walk(getattr(value, f.name), f"{path}.{f.name}")

    for _, step in _steps(engine, "values", every=7):
        walk(step.state, engine.id)
    walk(engine.new_game(engine.players.start, short_options(engine), "values"), engine.id)


@pytest.mark.parametrize("engine", ENGINES, ids=IDS)
def test_every_game_keeps_its_rules_in_the_same_modules(engine: Any) -> None:
    """engines/contract.py: every game's package holds the same modules, so core finds each hook where
    every game keeps it (``Game.of``); what a game leaves out gets core's default."""
    from importlib import import_module

    package = engine.game.state.__module__.rsplit(".", 1)[0]
    for name in ("options", "state", "moves", "rules", "view", "events", "strategy", "migrations"):
        module = import_module(f"{package}.{name}")
        assert module.__doc__, f"{package}.{name} says nothing of itself"
    rules = import_module(f"{package}.rules")
    assert engine.game.apply is rules.apply and engine.game.new_game is rules.new_game


@pytest.mark.parametrize("engine", ENGINES, ids=IDS)
def test_evolve_builds_what_dataclasses_replace_builds(engine: Any) -> None:
    """``engines.core.evolve``, with which the rules build the state after a move, is
    ``dataclasses.replace`` without a second ``__init__``: an equal value, a new one; a field the
    state does not have is refused."""
    from engines.core import evolve

    for _, step in _steps(engine, "evolve", every=11):
        state = step.state
        first, *_, last = dataclasses.fields(state)
        changes = {first.name: getattr(last_state := state, last.name), last.name: getattr(last_state, first.name)}
        assert evolve(state, **changes) == dataclasses.replace(state, **changes)
        assert evolve(state) == state and evolve(state) is not state
        with pytest.raises(TypeError):
            evolve(state, no_such_field=1)


@dataclasses.dataclass(frozen=True)
class _Checked:
    cards: tuple[str, ...]

    def __post_init__(self) -> None:
        if len(self.cards) > 2:
            raise ValueError("too many cards")


@dataclasses.dataclass(frozen=True)
class _Plain:
    cards: tuple[str, ...]
    checked: _Checked


def test_a_decoded_dataclass_with_a_post_init_is_built_through_it() -> None:
    """The codec builds a state's records without their ``__init__`` (each field set once), except
    a class whose ``__init__`` does more than assign its fields: its ``__post_init__`` runs."""
    from engines import snapshot

    value = _Plain(("AC",), _Checked(("KD", "QS")))
    assert snapshot.decode(_Plain, snapshot.encode(value)) == value
    with pytest.raises(ValueError, match="too many cards"):
        snapshot.decode(_Plain, {"cards": [], "checked": {"cards": ["AC", "KD", "QS"]}})
