"""Keine lahme Agame: what a seat may see, and where the cards it cannot see lie.

Everything except the hands is on the table: rows, the face-up discard pile (every card was
put there face up, so the whole pile is shown), the running trick and the cards caught in the
running catching round. A seat sees its own hand; other hands are counts (seeds §10).
"""

from __future__ import annotations

import dataclasses

from engines.core import JSON
from engines.hidden import Hidden
from engines.memo import SHOWN, Kept, keep

from .cards import COLOURS, HAT, VALUES, sort_cards, value_of
from .events import SectionJSON, section_summary
from .options import PROVISIONAL_RULES, Config
from .rules import catch_targets, missing_slots, row_points, shown_value
from .state import OVER, Play, SectionRecord, State, TrickRecord


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


def _config_json(cfg: Config) -> tuple[dict[str, JSON], list[str]]:
    """A view's ``options`` and ``row_slots``: kept with the game's ``Config`` (``engines.memo``)."""
    kept: tuple[dict[str, JSON], list[str]] | None = cfg.__dict__.get(SHOWN)
    if kept is None:
        kept = (options_json(cfg), [_LABELS[v] for v in cfg.slots()])
        keep(cfg, SHOWN, kept)
    return kept


#: Each table of rows shown, by the rows' identity (``engines.memo``): only a trick placed into a row
#: changes them, so most views of a game show the rows the view before showed.
_shown_rows: Kept[tuple[tuple[str, ...], ...], tuple[Config, list[dict[str, JSON]]]] = Kept(64)


def _players(cfg: Config, rows: tuple[tuple[str, ...], ...]) -> list[dict[str, JSON]]:
    """A view's ``players``: per seat its colour and its row, what the row misses and what it scores."""
    kept = _shown_rows.get(rows)
    if kept is not None and kept[0] is cfg:
        return kept[1]
    players: list[dict[str, JSON]] = []
    for s, row in enumerate(rows):
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
    return _shown_rows.put(rows, (cfg, players))[1]


def _last_trick(record: TrickRecord | None) -> dict[str, JSON] | None:
    """A view's ``last_trick``: kept with the trick's record (``engines.memo``)."""
    if record is None:
        return None
    kept: dict[str, JSON] | None = record.__dict__.get(SHOWN)
    if kept is None:
        kept = {
            "plays": [_play(p) for p in record.plays],
            "winner": record.winner,
            "placed": list(record.placed),
            "rest": list(record.rest),
            "rest_to": record.rest_to,
        }
        keep(record, SHOWN, kept)
    return kept


def _last_section(cfg: Config, record: SectionRecord | None, history: tuple[tuple[int, ...], ...]
                  ) -> SectionJSON | None:
    """A view's ``last_section`` (``events.section_summary``): kept with the section's record, for the
    options and the history it was worked out with (``engines.memo``)."""
    if record is None:
        return None
    kept: tuple[Config, tuple[tuple[int, ...], ...], SectionJSON] | None = record.__dict__.get(SHOWN)
    if kept is None or kept[0] is not cfg or kept[1] is not history:
        kept = (cfg, history, section_summary(cfg, record, history))
        keep(record, SHOWN, kept)
    return kept[2]


def view(state: State, seat: int | None) -> dict[str, JSON]:
    """The ``state`` part of ``seat``'s view (None = spectator): only ``seat``'s own hand. The table's
    common facts carry the names every game gives them (``current``, ``turns_played``, ``hand_counts``,
    ``scores``, ``discard_*``); ``players`` holds what is this game's own per seat."""
    cfg = state.config
    over = state.phase == OVER
    to_catch = not over and seat == state.current and state.phase in ("lead", "catching")
    targets = (
        [{"card": c, "from_seat": src, "value": value_of(c)} for c, src in catch_targets(state, seat)]
        if to_catch and seat is not None
        else []
    )
    options, row_slots = _config_json(cfg)
    return {
        "phase": state.phase,
        "section": state.section + 1,
        "sections_per_game": cfg.sections_per_game,
        "turns_played": state.turn,
        "max_turns": cfg.max_turns,
        "leader": state.leader,
        "current": None if over else state.current,
        "row_slots": row_slots,
        "players": _players(cfg, state.rows),
        "hand": None if seat is None else list(state.hands[seat]),
        "hand_counts": [len(h) for h in state.hands],
        "discard_pile": list(state.discard),
        "discard_count": len(state.discard),
        "discard_top": state.discard[-1] if state.discard else None,
        "caught": [{"seat": c.seat, "card": c.card, "from_seat": c.from_seat} for c in state.caught],
        "trick": [_play(p) for p in state.trick],
        "catch_targets": targets,
        "last_trick": _last_trick(state.last_trick),
        # The last finished section stays, with its final table, until the next one ends (§12).
        "last_section": _last_section(cfg, state.last_section, state.history),
        "section_points": [list(p) for p in state.history],
        "scores": list(state.scores),
        "options": options,
        "provisional_rules": list(PROVISIONAL_RULES),
    }


def hidden(state: State, seat: int | None) -> tuple[Hidden, ...]:
    """Where the cards hidden from ``seat``'s view lie (``engines.hidden``): the other hands. (A seat
    that followed the game knows them all the same, ``strategy.determinize``; the view shows counts.)"""
    return tuple(Hidden("hands", s, order=sort_cards) for s in range(state.config.players) if s != seat)


def seat_facts(state: State) -> tuple[tuple[int, int | None], ...]:
    """Each seat's cards in hand and its running total of section points (§7)."""
    return tuple((len(hand), score) for hand, score in zip(state.hands, state.scores, strict=True))
