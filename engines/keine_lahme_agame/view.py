"""Keine lahme Agame: what a seat may see, and where the cards it cannot see lie.

Everything except the hands is on the table: rows, the face-up discard pile (every card was
put there face up, so the whole pile is shown), the running trick and the cards caught in the
running catching round. A seat sees its own hand; other hands are counts (seeds §10).
"""

from __future__ import annotations

import dataclasses

from engines.core import JSON
from engines.hidden import Hidden

from .cards import COLOURS, HAT, VALUES, sort_cards, value_of
from .events import section_summary
from .options import PROVISIONAL_RULES, Config
from .rules import catch_targets, missing_slots, row_points, shown_value
from .state import OVER, Play, State


def _play(p: Play) -> dict[str, JSON]:
    return {"seat": p.seat, "cards": list(p.cards), "value": shown_value(p.cards)}


def _slot_label(v: int | None) -> str:
    return HAT if v is None else str(v)


#: Every slot's label, looked up (a view labels each row's missing slots).
_LABELS: dict[int | None, str] = {v: _slot_label(v) for v in (*VALUES["H1"], None)}

#: The options a view shows: every resolved option of ``Config`` but the player count, in its order.
_OPTIONS: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(Config) if f.name != "players")


def options_json(cfg: Config) -> dict[str, JSON]:
    """The resolved options, as the catalogue names them (``sections_per_game`` resolved)."""
    return {k: getattr(cfg, k) for k in _OPTIONS}


def view(state: State, seat: int | None) -> dict[str, JSON]:
    """The ``state`` part of ``seat``'s view (None = spectator): only ``seat``'s own hand. The table's
    common facts carry the names every game gives them (``current``, ``turns_played``, ``hand_counts``,
    ``scores``, ``discard_*``); ``players`` holds what is this game's own per seat."""
    cfg = state.config
    n = cfg.players
    over = state.phase == OVER
    players = []
    for s in range(n):
        row = state.rows[s]
        missing = missing_slots(cfg, row)
        points, complete = row_points(cfg, row, missing)
        players.append(
            {
                "seat": s,
                "colour": COLOURS[s],
                "row": list(row),
                "missing": [_LABELS[v] for v in missing],
                "row_complete": complete,
                "row_points": points,
            }
        )
    to_catch = not over and seat == state.current and state.phase in ("lead", "catching")
    targets = (
        [{"card": c, "from_seat": src, "value": value_of(c)} for c, src in catch_targets(state, seat)]
        if to_catch and seat is not None
        else []
    )
    last_trick = state.last_trick
    last_section = state.last_section
    return {
        "phase": state.phase,
        "section": state.section + 1,
        "sections_per_game": cfg.sections_per_game,
        "turns_played": state.turn,
        "max_turns": cfg.max_turns,
        "leader": state.leader,
        "current": None if over else state.current,
        "row_slots": [_LABELS[v] for v in cfg.slots()],
        "players": players,
        "hand": None if seat is None else list(state.hands[seat]),
        "hand_counts": [len(h) for h in state.hands],
        "discard_pile": list(state.discard),
        "discard_count": len(state.discard),
        "discard_top": state.discard[-1] if state.discard else None,
        "caught": [{"seat": c.seat, "card": c.card, "from_seat": c.from_seat} for c in state.caught],
        "trick": [_play(p) for p in state.trick],
        "catch_targets": targets,
        "last_trick": None
        if last_trick is None
        else {
            "plays": [_play(p) for p in last_trick.plays],
            "winner": last_trick.winner,
            "placed": list(last_trick.placed),
            "rest": list(last_trick.rest),
            "rest_to": last_trick.rest_to,
        },
        # The last finished section stays, with its final table, until the next one ends (§12).
        "last_section": None if last_section is None else section_summary(cfg, last_section, state.history),
        "section_points": [list(p) for p in state.history],
        "scores": list(state.scores),
        "options": options_json(cfg),
        "provisional_rules": list(PROVISIONAL_RULES),
    }


def hidden(state: State, seat: int | None) -> tuple[Hidden, ...]:
    """Where the cards hidden from ``seat``'s view lie (``engines.hidden``): the other hands. (A seat
    that followed the game knows them all the same, ``strategy.determinize``; the view shows counts.)"""
    return tuple(Hidden("hands", s, order=sort_cards) for s in range(state.config.players) if s != seat)


def seat_facts(state: State) -> tuple[tuple[int, int | None], ...]:
    """Each seat's cards in hand and its running total of section points (§7)."""
    return tuple((len(hand), score) for hand, score in zip(state.hands, state.scores, strict=True))
