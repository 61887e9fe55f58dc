"""Every game declares its events once (``EVENT_TYPES`` in engines/<game>/events.py, engines/eventtypes.py)
and reports nothing its declarations do not name; the wire schemas of the events are made from them.

- every event of seeded random playouts of every game (two deals, hands, rounds or sections where the
  game has them, at the smallest and largest table), of every golden game and of every stored log
  entry of the current format is one its game declares: exactly the declared public fields, private
  fields only of declared names and for seats, every value of its declared type; and every declared
  type is reported somewhere;
- that check refuses what a declaration does not name, so the check above can fail;
- each game's event schemas are its declarations: one per event type, in the declared order, named
  ``<Prefix>Event<Type>``, with the declared fields (public ones required, private ones not);
- a field of a declaration must say how it is shown (public, private or spread).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, Literal

import pytest

from engines import REGISTRY
from engines.core import Engine, Event, move_from_json
from engines.eventtypes import PRIVATE, PUBLIC, EventType, GameOver, declared_fields, mismatches, private, public
from schemas import SCHEMAS
from tests.golden.record import HERE as GOLDEN
from tests.playout import playout

ENGINES = sorted(REGISTRY.values(), key=lambda e: e.id)
IDS = [e.id for e in ENGINES]
CAPTURED = Path(__file__).resolve().parent / "captured"

#: Two deals, hands, rounds or sections, so that the events of a new one are reported too.
TWO = {"max_hands": 2, "max_deals": 2, "rounds": 2, "sections_per_game": 2, "max_turns": 600}


#: Games whose captured logs of the current format hold no events (captured before entries kept them).
NOTHING_STORED = {"sten"}


def _options(engine: Engine) -> dict[str, Any]:
    return {o.name: TWO[o.name] for o in engine.options if o.name in TWO and o.check(TWO[o.name]) is None}


def _played(engine: Engine) -> Iterator[tuple[str, tuple[Event, ...]]]:
    """Where an event came from, and the events of one move: random playouts and the golden games."""
    for players in sorted({engine.players.start, engine.players.stop - 1}):
        for seed in ("types-1", "types-2"):
            for n, step in enumerate(playout(engine, players, seed, _options(engine))):
                yield f"{players}p {seed} move {n}", engine.apply_events(step.state, step.seat, step.move)[1]
    for path in sorted((GOLDEN / engine.id).glob("*.jsonl")):
        lines = [json.loads(line) for line in path.read_text().splitlines()]
        header = lines[0]
        state = engine.new_game(header["players"], header["options"], header["seed"])
        for line in lines[1:]:
            if "move" in line:
                move = move_from_json(engine.move_types, line["move"])
                state, events = engine.apply_events(state, line["seat"], move)
                yield f"{path.name} move {line['n']}", events


def _stored(engine: Engine) -> Iterator[tuple[str, tuple[Event, ...]]]:
    """The events of every stored log entry of the game's current format."""
    for path in sorted((CAPTURED / engine.id).glob(f"format-{engine.format}/*.json")):
        for stored in json.loads(path.read_text())["keys"].values():
            if stored["type"] == "list":
                for entry in map(json.loads, stored["value"]):
                    if "events" in entry:
                        yield f"{path.name} version {entry['version']}", tuple(map(Event.from_json, entry["events"]))


@pytest.mark.parametrize("engine", ENGINES, ids=IDS)
def test_every_event_a_game_reports_is_one_it_declares(engine: Engine) -> None:
    seen: set[str] = set()
    stored = list(_stored(engine))
    for where, events in [*_played(engine), *stored]:
        for event in events:
            problems = mismatches(engine.event_types, event)
            assert not problems, f"{engine.id} {where}: {problems}"
            seen.add(event.type)
    assert stored or engine.id in NOTHING_STORED, f"{engine.id}: no stored log entry of format {engine.format}"
    declared = {k.type for k in engine.event_types}
    assert seen == declared, f"{engine.id}: declared but never reported: {sorted(declared - seen)}"


class _Drew(EventType):
    """A test declaration: a public seat and count, the cards to the drawer only."""

    type = "drew"
    seat: int = public("who drew")
    reason: Literal["draw", "seven"] = public("why")
    cards: Mapping[int, Sequence[str]] = private("which cards")


class _Shown(EventType):
    """A test declaration of a list of nullable card codes."""

    type = "shown"
    cards: Sequence[str | None] = public("the cards")


KINDS: tuple[type[EventType], ...] = (_Drew, _Shown, GameOver)


@pytest.mark.parametrize(("event", "problem"), [
    (Event("melded", {"seat": 0}), "event type 'melded' is not declared"),
    (Event("drew", {"seat": 0}), "public field 'reason' is missing"),
    (Event("drew", {"seat": 0, "reason": "draw", "count": 2}), "public field 'count' is not declared"),
    (Event("drew", {"seat": "0", "reason": "draw"}), "public seat = '0'"),
    (Event("drew", {"seat": True, "reason": "draw"}), "public seat = True"),
    (Event("drew", {"seat": 0, "reason": "drew"}), "public reason = 'drew'"),
    (Event("drew", {"seat": 0, "reason": "draw", "cards": ["AS"]}), "public field 'cards' is not declared"),
    (Event("drew", {"seat": 0, "reason": "draw"}, {0: {"hand": ["AS"]}}), "private field 'hand' is not declared"),
    (Event("drew", {"seat": 0, "reason": "draw"}, {-1: {"cards": ["AS"]}}), "a private part for -1, not a seat"),
    (Event("shown", {"cards": ("AS",)}), "public cards = ('AS',)"),
    (Event("shown", {"cards": ["AS", 3]}), "public cards = ['AS', 3]"),
    (Event("game_over", {"status": "finished", "winners": [0], "losers": [1], "scores": [1, None]}),
     "public scores = [1, None]"),
])
def test_the_check_refuses_what_a_declaration_does_not_name(event: Event, problem: str) -> None:
    problems = mismatches(KINDS, event)
    assert len(problems) == 1 and problem in problems[0], problems


def test_the_check_accepts_what_a_declaration_names() -> None:
    assert mismatches(KINDS, Event("drew", {"seat": 1, "reason": "seven"}, {1: {"cards": ["AS", "2S"]}})) == []
    assert mismatches(KINDS, Event("shown", {"cards": ["AS", None]})) == []
    assert mismatches(KINDS, Event("game_over", {"status": "aborted", "winners": [], "losers": [],
                                                 "scores": None})) == []


def test_an_event_type_builds_its_event_from_its_declaration() -> None:
    """Sequences become lists, each private field goes to the seats it names, a private field that
    overrides a public one replaces it for those seats."""
    from engines.sten.events import Declared

    failed = Declared(2, False, ("7H",), {2: ("7H", "9S", "8S")}).event()
    assert failed == Event("declared", {"seat": 2, "success": False, "cards": ["7H"]},
                           {2: {"cards": ["7H", "9S", "8S"]}})
    assert failed.for_viewer(2)["cards"] == ["7H", "9S", "8S"] and failed.for_viewer(1)["cards"] == ["7H"]
    assert Declared(2, True, ("7H",), {}).event().private == {}


def test_a_field_must_say_how_it_is_shown() -> None:
    class Bare(EventType):
        type = "bare"
        seat: int

    with pytest.raises(AssertionError, match="public, private or spread"):
        declared_fields(Bare)


@pytest.mark.parametrize("engine", ENGINES, ids=IDS)
def test_the_event_schemas_are_made_from_the_declarations(engine: Engine) -> None:
    schemas = SCHEMAS[engine.id].events
    prefix = SCHEMAS[engine.id].prefix
    assert list(schemas) == [k.type for k in engine.event_types]
    for kind in engine.event_types:
        schema = schemas[kind.type]
        assert schema.__name__ == prefix + "Event" + "".join(p.capitalize() for p in kind.type.split("_"))
        wire = schema._declared_fields
        assert wire["type"].required
        for f in declared_fields(kind):
            if f.kind == PUBLIC:
                assert wire[f.wire].required and wire[f.wire].metadata["description"] == f.doc, (kind, f.name)
            elif f.kind == PRIVATE:
                assert f.wire in wire and (f.wire != f.name or not wire[f.wire].required), (kind, f.name)


@pytest.mark.parametrize("engine", ENGINES, ids=IDS)
def test_a_game_ends_with_its_own_game_over(engine: Engine) -> None:
    """Core closes a game with the game's own ``GameOver`` (the endings it has, what its scores count)."""
    last = engine.event_types[-1]
    assert last.type == "game_over" and issubclass(last, GameOver)
    assert last is not GameOver, f"{engine.id} says nothing of how it ends"
