"""Siebenschläfer: a pub shedding game for 2-8 players with two decks, where every play is a pair
that must exceed the last one, 7s make others draw and the first empty hand wins.

Rules as implemented, and every ruling with its reason: seeds/siebenschlaefer.md.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping, Sequence

from engines.core import JSON, EngineDefaults, Move, Option, Result
from engines.core import Event as LogEvent
from engines.siebenschlaefer import migrations, rules, strategy, view
from engines.siebenschlaefer.state import MOVE_TYPES, Event, RoundSummary, Settings, State


class SiebenschlaeferEngine(EngineDefaults):
    """The Engine of Siebenschläfer (engines.core.Engine)."""

    id = "siebenschlaefer"
    title = "Siebenschläfer"
    players = rules.PLAYERS
    options: tuple[Option, ...] = rules.OPTIONS
    provisional = False  # the original rules are complete after the rulings of seeds/siebenschlaefer.md
    format = migrations.FORMAT  # the snapshot format ``encode`` writes (older ones are migrated)
    migrations = migrations.MIGRATIONS
    move_types: tuple[type[Move], ...] = MOVE_TYPES

    def new_game(
        self, players: int, options: Mapping[str, JSON] | None, seed: str, deck: Sequence[str] | None = None
    ) -> State:
        return rules.new_game(players, options, seed, deck)

    def to_move(self, state: State) -> tuple[int, ...]:
        return rules.to_move(state)

    def legal_moves(self, state: State, seat: int) -> tuple[Move, ...]:
        return rules.legal_moves(state, seat)

    def apply(self, state: State, seat: int, move: Move) -> State:
        return rules.apply(state, seat, move)

    def apply_events(self, state: State, seat: int, move: Move) -> tuple[State, tuple[LogEvent, ...]]:
        return rules.apply_events(state, seat, move)

    def view(self, state: State, seat: int | None) -> dict[str, JSON]:
        return view.view(state, seat)

    def result(self, state: State) -> Result | None:
        return rules.result(state)

    def encode(self, state: State) -> dict[str, JSON]:
        return encode(state)

    def decode(self, data: Mapping[str, JSON]) -> State:
        return decode(data)

    def redact_move(self, state_before: State, seat: int, move: Move, viewer: int | None) -> dict[str, JSON]:
        return view.redact_move(state_before, seat, move, viewer)

    def shuffle_hidden(self, state: State, seat: int | None, seed: str) -> State:
        return rules.shuffle_hidden(state, seat, seed)

    def determinize(self, state: State, seat: int, rng: random.Random) -> State:
        return strategy.determinize(state, seat, rng)

    def heuristic_move(self, state: State, seat: int, rng: random.Random) -> Move:
        return strategy.heuristic_move(state, seat, rng)

    def evaluate(self, state: State, seat: int) -> float:
        return strategy.evaluate(state, seat)


def encode(state: State) -> dict[str, JSON]:
    """A JSON-native snapshot (lists for tuples); ``decode(encode(s)) == s``.

    Hand-written rather than ``engines.snapshot.encode`` because it runs on every request.
    """
    return {
        "players": state.players,
        "settings": dataclasses.asdict(state.settings),
        "seed": state.seed,
        "round": state.round,
        "hands": [list(h) for h in state.hands],
        "stock": list(state.stock),
        "pile": list(state.pile),
        "top_kind": state.top_kind,
        "target": state.target,
        "current": state.current,
        "has_drawn": state.has_drawn,
        "drawn": list(state.drawn),
        "passes": state.passes,
        "reshuffles": state.reshuffles,
        "opener": state.opener,
        "lots": [[s, c] for s, c in state.lots],
        "moves": state.moves,
        "totals": list(state.totals),
        "paid": list(state.paid),
        "history": [
            {
                "round": r.round,
                "winner": r.winner,
                "payers": list(r.payers),
                "hand_values": list(r.hand_values),
                "hands": [list(h) for h in r.hands],
                "reason": r.reason,
                "winners": list(r.winners),
                "top": None if r.top is None else list(r.top),
                "target": r.target,
                "pile_count": r.pile_count,
                "stock_count": r.stock_count,
            }
            for r in state.history
        ],
        "events": [{"kind": e.kind, "seat": e.seat, "cards": list(e.cards), "count": e.count} for e in state.events],
        "status": state.status,
    }


def _t(items: Sequence[str]) -> tuple[str, ...]:
    return tuple(items)


def decode(data: Mapping[str, JSON]) -> State:
    """Rebuild a State from ``encode``'s output (hand-written: it runs on every request)."""
    return State(
        players=data["players"],
        settings=Settings(**data["settings"]),
        seed=data["seed"],
        round=data["round"],
        hands=tuple(_t(h) for h in data["hands"]),
        stock=_t(data["stock"]),
        pile=_t(data["pile"]),
        top_kind=data["top_kind"],
        target=data["target"],
        current=data["current"],
        has_drawn=data["has_drawn"],
        drawn=_t(data["drawn"]),
        passes=data["passes"],
        reshuffles=data["reshuffles"],
        opener=data["opener"],
        lots=tuple((s, c) for s, c in data["lots"]),
        moves=data["moves"],
        totals=tuple(data["totals"]),
        paid=tuple(data["paid"]),
        history=tuple(
            RoundSummary(
                r["round"],
                r["winner"],
                tuple(r["payers"]),
                tuple(r["hand_values"]),
                tuple(_t(h) for h in r["hands"]),
                r["reason"],
                tuple(r["winners"]),
                None if r["top"] is None else _t(r["top"]),
                r["target"],
                r["pile_count"],
                r["stock_count"],
            )
            for r in data["history"]
        ),
        events=tuple(Event(e["kind"], e["seat"], _t(e["cards"]), e["count"]) for e in data["events"]),
        status=data["status"],
    )


ENGINE = SiebenschlaeferEngine()

__all__ = ["ENGINE", "SiebenschlaeferEngine"]
