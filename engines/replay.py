"""Replaying an exported game through its engine: every entry and the result, reproduced or not.

An export (``cardtable-replay/1``, written by ``GET .../export`` of a finished game; docs/api.md
describes it) holds what a game was set up with (players, options, seed, and ``deck``, the first
deal's deck as dealt) and every log entry unredacted: the seat, the move and its events with every
viewer's part (an entry of the table, a seat claimed or the game started, has no move and is passed
over: ``engines.table``). ``replay`` sets the game up again from it and applies each entry's move in order,
checking as it goes that the move is that seat's to make and legal, that it causes exactly the
events recorded, and at the end that the game is over with the recorded result. The first entry
that differs is named (``Difference``). The command line (``cardtable replay FILE``) and the tests
(the golden exports under tests/golden/) use this one function, so that a change of the rules that
changes a recorded game shows up as a difference.

Pure: it imports only the engines, like the engines themselves.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from engines import REGISTRY
from engines.core import JSON, Engine, IllegalMove, InvalidOptions, move_from_json
from engines.table import ended_result, read_leaving, with_forfeits

#: The format name every export carries; a later, incompatible format gets a new number.
FORMAT = "cardtable-replay/1"


class MalformedExport(ValueError):
    """The document is no export this code can replay (another format, an unknown game, a part
    missing or of the wrong kind): nothing was replayed."""


@dataclass(frozen=True)
class Difference:
    """Where a replay first parts from the export: at the entry of ``version`` (None: setting the
    game up, or the end after the last entry), and how, in a sentence."""

    version: int | None
    what: str

    def __str__(self) -> str:
        where = "setting the game up" if self.version == 0 else (
            "the end of the game" if self.version is None else f"entry {self.version}")
        return f"{where}: {self.what}"


@dataclass(frozen=True)
class Replayed:
    """What a replay found: the entries that reproduced, and the first difference (None: all of them
    and the result reproduced)."""

    game: str
    players: int
    entries: int  # the export's entries
    reproduced: int  # entries replayed before the first difference (all of them when there is none)
    result: dict[str, JSON] | None  # the replay's result (None when it did not get to an end)
    difference: Difference | None

    @property
    def ok(self) -> bool:
        return self.difference is None

    def summary(self) -> str:
        """One line for a person: what reproduced, or where and how the replay differs."""
        if self.difference is None:
            return (f"{self.game}, {self.players} players: all {self.entries} entries and the result reproduced"
                    f" ({_outcome(self.result)})")
        return (f"{self.game}, {self.players} players: differs at {self.difference} "
                f"({self.reproduced} of {self.entries} entries reproduced before it)")


def _outcome(result: Mapping[str, JSON] | None) -> str:
    if not result:
        return "no result"
    winners = result.get("winners") or []
    if result.get("status") == "aborted":
        return "stopped without a winner"
    return f"won by seat {', '.join(str(w) for w in winners)}" if winners else "no winner"


def _plain(value: Any) -> Any:
    """``value`` as JSON reads it back (tuples as lists, keys as strings): how an export holds it."""
    return json.loads(json.dumps(value))


def _need(data: Mapping[str, Any], name: str, kind: type | tuple[type, ...], where: str = "the export") -> Any:
    value = data.get(name) if isinstance(data, Mapping) else None
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
        raise MalformedExport(f"{where} has no valid `{name}`")
    return value


def _entries(export: Mapping[str, Any]) -> Iterator[tuple[int, Mapping[str, Any]]]:
    for n, entry in enumerate(_need(export, "entries", list), start=1):
        where = f"entry {n}"
        if not isinstance(entry, Mapping):
            raise MalformedExport(f"{where} is not an object")
        if _need(entry, "version", int, where) != n:
            raise MalformedExport(f"{where} has version {entry['version']}: entries run 1, 2, 3 ... in order")
        if entry.get("seat") is not None or entry.get("move") is not None:  # null: the service's own entry
            _need(entry, "seat", int, where)
        if "move" not in entry:
            raise MalformedExport(f"{where} has no `move`")
        if entry["move"] is not None:  # null: an entry of the table (engines.table), no move
            _need(entry, "move", Mapping, where)
        _need(entry, "events", list, where)
        yield n, entry


def replay(export: Mapping[str, Any], engines: Mapping[str, Engine] = REGISTRY) -> Replayed:
    """Replay ``export`` (a parsed ``cardtable-replay/1`` document) through its game's engine.

    The game is set up from the export's players, options, seed and deck (a fixed deck and the
    seed: the very game, as ``Engine.first_deck`` promises); then each entry, in order: its seat
    must be to move, its move must parse and apply (it is legal), and the events it causes must be
    the entry's, every viewer's part included. After the last entry the game must be over, with
    the export's result. Raises ``MalformedExport`` when the document is no export at all; any
    other disagreement is the ``Difference`` in the answer.
    """
    if not isinstance(export, Mapping):
        raise MalformedExport("an export is a JSON object")
    if export.get("format") != FORMAT:
        raise MalformedExport(f"`format` is {export.get('format')!r}, not {FORMAT!r}")
    game = _need(export, "game", str)
    engine = engines.get(game)
    if engine is None:
        raise MalformedExport(f"no game {game!r} here; one of {sorted(engines)}")
    players = _need(export, "players", int)
    options = _need(export, "options", Mapping)
    seed = _need(export, "seed", str)
    deck = _need(export, "deck", list)
    entries = list(_entries(export))
    _need(export, "result", Mapping)

    def answer(reproduced: int, result: dict[str, JSON] | None, difference: Difference | None) -> Replayed:
        return Replayed(game, players, len(entries), reproduced, result, difference)

    try:
        state = engine.new_game(players, options, seed, deck)
    except InvalidOptions as exc:
        return answer(0, None, Difference(0, f"the game cannot be set up so: {exc}"))
    forfeited: set[int] = set()
    ended: tuple[str, int | None] | None = None
    for n, entry in entries:
        if entry["move"] is None:
            # a seat claimed, the game started, a seat left or ran out of time: the table's doing, no rule
            # of the game makes it; it may end the game (the table's result) or rank a seat last
            ended = read_leaving(entry["events"], forfeited) or ended
            continue
        seat = entry["seat"]
        if seat not in engine.to_move(state):
            to_move = list(engine.to_move(state))
            return answer(n - 1, None, Difference(n, f"seat {seat} moves, but {to_move or 'nobody'} is to move"))
        try:
            move = move_from_json(engine.move_types, entry["move"])
            state, events = engine.apply_events(state, seat, move)
        except IllegalMove as exc:
            return answer(n - 1, None, Difference(n, f"the move {dict(entry['move'])} is refused: {exc.reason} "
                                                     f"({exc.message})"))
        if _plain(move.to_json()) != entry["move"]:
            return answer(n - 1, None, Difference(n, f"the move reads back as {move.to_json()}, not {entry['move']}"))
        made = _plain([e.to_json() for e in events])
        if made != entry["events"]:
            return answer(n - 1, None, Difference(n, _events_differ(made, entry["events"])))
    result = engine.result(state)
    if ended is not None:
        made_result = _plain(ended_result(players, ended[0], ended[1], forfeited))
    elif result is None:
        return answer(len(entries), None, Difference(None, f"the game is not over after the last entry; "
                                                           f"{list(engine.to_move(state))} to move"))
    else:
        made_result = _plain(with_forfeits(result.to_json(), forfeited))
    if made_result != export["result"]:
        return answer(len(entries), made_result, Difference(None, f"the result is {made_result}, "
                                                                  f"not {export['result']}"))
    return answer(len(entries), made_result, None)


def _events_differ(made: list[Any], recorded: list[Any]) -> str:
    """The first event that differs, in words: its place and both versions (or which list is longer)."""
    for i, (a, b) in enumerate(zip(made, recorded, strict=False)):
        if a != b:
            return f"event {i + 1} is {_brief(a)}, recorded {_brief(b)}"
    if len(made) > len(recorded):
        return f"the move causes {len(made) - len(recorded)} more event(s): first {_brief(made[len(recorded)])}"
    return f"the move causes {len(recorded) - len(made)} fewer event(s): first missing {_brief(recorded[len(made)])}"


def _brief(event: Any, limit: int = 300) -> str:
    text = json.dumps(event, sort_keys=True)
    return text if len(text) <= limit else text[:limit] + "..."
