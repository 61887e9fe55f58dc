"""Keine lahme Agame (Sezgin Güven, Mücke Spiele): a trick-taking and catching game.

Rules as implemented, and every ruling with its reason: ``seeds/keine-lahme-agame.md``.
The published rules stop after the catching round ("Fangen"), so what happens to trick cards,
what fits a display, scoring and game end are a provisional reconstruction behind options;
the engine is marked ``provisional``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from engines.core import JSON, EngineDefaults, Event, Move, Option, Result, game_over_event

from . import migrations as _migrations
from . import rules, strategy, view
from .state import MOVE_TYPES, OVER, State, decode_state, encode_state


class KeineLahmeAgameEngine(EngineDefaults):
    """The Engine protocol for Keine lahme Agame (see engines.core.Engine)."""

    id = "keine-lahme-agame"
    title = "Keine lahme Agame"
    players: range = rules.PLAYERS
    options: tuple[Option, ...] = rules.OPTIONS
    provisional = True
    move_types: tuple[type[Move], ...] = MOVE_TYPES
    format = _migrations.FORMAT  # the snapshot format ``encode`` writes (older ones are migrated)
    migrations = _migrations.MIGRATIONS

    def new_game(
        self, players: int, options: Mapping[str, JSON] | None, seed: str, deck: Sequence[str] | None = None
    ) -> State:
        return rules.new_game(players, options, seed, deck)

    def to_move(self, state: State) -> tuple[int, ...]:
        return () if state.phase == OVER else (state.current,)

    def legal_moves(self, state: State, seat: int) -> tuple[Move, ...]:
        return rules.legal_moves(state, seat)

    def apply(self, state: State, seat: int, move: Move) -> State:
        return rules.apply(state, seat, move)

    def apply_events(self, state: State, seat: int, move: Move) -> tuple[State, tuple[Event, ...]]:
        """``rules.apply_events`` (the state ``apply`` returns), with ``game_over`` last when the
        move ends the game (seeds "Events")."""
        after, events = rules.apply_events(state, seat, move)
        if after.phase == OVER:
            outcome = view.result(after)
            assert outcome is not None
            events = (*events, game_over_event(outcome))
        return after, events

    def view(self, state: State, seat: int | None) -> dict[str, JSON]:
        return view.view(state, seat)

    def result(self, state: State) -> Result | None:
        return view.result(state)

    def encode(self, state: State) -> dict[str, JSON]:
        return encode_state(state)

    def decode(self, data: Mapping[str, JSON]) -> State:
        return decode_state(data)

    def redact_move(self, state_before: State, seat: int, move: Move, viewer: int | None) -> dict[str, JSON]:
        return view.redact_move(state_before, seat, move, viewer)

    def shuffle_hidden(self, state: State, seat: int | None, seed: str) -> State:
        return view.shuffle_hidden(state, seat, seed)

    def determinize(self, state: State, seat: int, rng: random.Random) -> State:
        return strategy.determinize(state, seat, rng)

    def heuristic_move(self, state: State, seat: int, rng: random.Random) -> Move:
        return strategy.heuristic_move(state, seat, rng)

    def evaluate(self, state: State, seat: int) -> float:
        return strategy.evaluate(state, seat)


ENGINE = KeineLahmeAgameEngine()

__all__ = ["ENGINE", "KeineLahmeAgameEngine"]
