"""Events over engines.REGISTRY (each move's log entry carries them): every game reports what its moves
cause, typed, documented, redacted per viewer, and hiding what a viewer cannot see.

- ``apply_events`` returns exactly the state ``apply`` returns (checked per game where ``apply`` skips
  building events: tests/engines/conquian and kanaster ``test_events``; the others build them either way);
- every event, as every viewer sees it, matches the game's typed event schema (and so the spec),
  and every event type the game declares is documented in its seeds file;
- the move that ends a game reports ``game_over`` last;
- a seat's (and the spectator's) events do not change when the cards hidden from it are dealt
  differently, wherever the move reveals nothing new to it (its view afterwards is the same);
  events that reveal (a drawn card to its drawer, the hands at a hand's end) change the view too.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engines import REGISTRY
from engines.core import Engine, IllegalMove
from schemas import SCHEMAS
from tests.playout import built, canonical, playout

ENGINES = sorted(REGISTRY.values(), key=lambda e: e.id)
IDS = [e.id for e in ENGINES]
SEEDS = Path(__file__).resolve().parent.parent / "seeds"
SETTINGS = settings(max_examples=5, deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("engine", ENGINES, ids=IDS)
def test_every_game_declares_typed_events_and_documents_each(engine: Engine) -> None:
    declared = SCHEMAS[engine.id].events
    assert declared, f"{engine.id} declares no event schemas"
    assert "game_over" in declared
    text = (SEEDS / f"{engine.id}.md").read_text()
    for kind in declared:
        assert f"`{kind}`" in text, f"event `{kind}` is not documented in seeds/{engine.id}.md"


@pytest.mark.parametrize("engine", ENGINES, ids=IDS)
@SETTINGS
@given(data=st.data())
def test_events_are_typed_declared_and_game_over_comes_last(engine: Engine, data: st.DataObject) -> None:
    entry_schema = built(engine).log_entry()
    declared = set(SCHEMAS[engine.id].events)
    players = data.draw(st.sampled_from(list(engine.players)), label="players")
    seed = data.draw(st.text(min_size=1, max_size=8), label="seed")
    seen: set[str] = set()
    for step in playout(engine, players, seed):
        after, events = engine.apply_events(step.state, step.seat, step.move)
        for viewer in (None, *range(players)):
            shown = [e.for_viewer(viewer) for e in events]
            entry = {"version": 1, "seat": step.seat, "bot": False, "move": step.move.to_json(), "events": shown,
                     "at": None}
            errors = entry_schema.validate(json.loads(json.dumps(entry)))
            assert not errors, f"{engine.id} events for {viewer} do not match their schema: {errors}\n{shown}"
        seen |= {e.type for e in events}
        if engine.result(after) is not None:
            assert events and events[-1].type == "game_over", "the last move does not report game_over"
            assert events[-1].for_viewer(None)["winners"] == list(engine.result(after).winners)
    assert seen <= declared, f"undeclared event types {seen - declared}"


@pytest.mark.parametrize("engine", ENGINES, ids=IDS)
@SETTINGS
@given(data=st.data())
def test_events_hide_what_the_viewer_cannot_see(engine: Engine, data: st.DataObject) -> None:
    players = data.draw(st.sampled_from(list(engine.players)), label="players")
    seed = data.draw(st.text(min_size=1, max_size=8), label="seed")
    compared = 0
    for n, step in enumerate(playout(engine, players, seed)):
        if n % 3:
            continue
        after, events = engine.apply_events(step.state, step.seat, step.move)
        for viewer in (None, *range(players)):
            other = engine.shuffle_hidden(step.state, viewer, f"{seed}/events/{n}")
            try:
                other_after, other_events = engine.apply_events(other, step.seat, step.move)
            except IllegalMove:
                continue  # in that redeal the mover would not have made this move
            if canonical(engine.view(other_after, viewer)) != canonical(engine.view(after, viewer)):
                continue  # the move revealed something to this viewer: the events may say it too
            assert canonical([e.for_viewer(viewer) for e in other_events]) == canonical(
                [e.for_viewer(viewer) for e in events]), (
                f"{engine.id}: the events shown to {viewer} depend on cards hidden from it")
            compared += 1
    assert compared, "no position was compared"
