"""Sten ("Stein"): the Sevens / Fan-Tan layout game with a loser's stone.

Rules as implemented, dealing order, options and every ruling with its reason: seeds/sten.md.
The hearts 7 opens; suits are built up from their 7 to the king and down to the ace; a player
who cannot place a card says "Stein" and takes the stone; a player may declare to lay his whole
hand in one turn. The first empty hand wins; whoever holds the stone loses.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from engines import snapshot
from engines.core import JSON, EngineDefaults, Event, Move, Result
from engines.sten import rules, strategy, view
from engines.sten.moves import MOVE_TYPES
from engines.sten.state import StenState


class StenEngine(EngineDefaults):
    """The engine surface (engines.core.Engine) of Sten; the rules live in ``rules``/``view``."""

    id = "sten"
    title = 'Sten ("Stein")'
    players = rules.PLAYERS
    options = rules.OPTIONS
    provisional = False
    move_types = MOVE_TYPES

    def new_game(
        self, players: int, options: Mapping[str, JSON] | None, seed: str, deck: Sequence[str] | None = None
    ) -> StenState:
        return rules.new_game(players, options, seed, deck)

    def to_move(self, state: StenState) -> tuple[int, ...]:
        return () if state.over else (state.current,)

    def legal_moves(self, state: StenState, seat: int) -> tuple[Move, ...]:
        return rules.legal_moves(state, seat)

    def apply(self, state: StenState, seat: int, move: Move) -> StenState:
        return rules.apply(state, seat, move)

    def apply_events(self, state: StenState, seat: int, move: Move) -> tuple[StenState, tuple[Event, ...]]:
        return rules.apply_events(state, seat, move)

    def view(self, state: StenState, seat: int | None) -> dict[str, JSON]:
        return view.view(state, seat)

    def result(self, state: StenState) -> Result | None:
        return rules.result(state)

    def encode(self, state: StenState) -> dict[str, JSON]:
        data: dict[str, JSON] = snapshot.encode(state)
        return data

    def decode(self, data: Mapping[str, JSON]) -> StenState:
        return snapshot.from_json(StenState, data)

    def redact_move(self, state_before: StenState, seat: int, move: Move, viewer: int | None) -> dict[str, JSON]:
        return view.redact_move(state_before, seat, move, viewer)

    def shuffle_hidden(self, state: StenState, seat: int | None, seed: str) -> StenState:
        return view.shuffle_hidden(state, seat, seed)

    def heuristic_move(self, state: StenState, seat: int, rng: random.Random) -> Move:
        return strategy.heuristic_move(state, seat, rng)

    def evaluate(self, state: StenState, seat: int) -> float:
        return strategy.evaluate(state, seat)


ENGINE = StenEngine()

__all__ = ["ENGINE", "StenEngine"]
