"""The examples of the OpenAPI document: per game a create, a view, a move and the log, each a real
request or answer.

They are made when the document is built, by the game's engine and the service's own answer
builders (``service.view.body``, ``service.log.entry``), from a fixed seed: a game of the fewest
players, every seat a person's, default options; the first seat to move makes its first listed move.
Only the game id, the tokens and the times are stand-ins (the real ones are random or now). The same seed makes the
same examples in every process, so the committed document stays the app's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from service import auth, log, view
from service.records import SCHEMA_VERSION
from service.runtime import Game

#: The seed of every example game (with fixed deals enabled, a create with it deals the very same).
SEED = "example"
#: Stand-ins for what is random in a real answer.
GAME_ID = "PoVEs7M8_4UVkNzN"
TOKEN = "seat-{seat}-token-from-create-keep-it-secret"
#: The names of the example game's people, by seat.
NAMES = ("Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal")
#: Stand-in times: when the example game was created, when its first move was made, when it was read.
CREATED_AT = "2026-11-25T14:18:10.123Z"
MOVED_AT = "2026-11-25T14:18:42.517Z"
READ_AT = "2026-11-25T14:18:42.530Z"


@dataclass(frozen=True)
class Examples:
    """One game's examples: the bodies of its create, view, move and log operations."""

    create_request: dict[str, Any]
    created: dict[str, Any]
    view: dict[str, Any]
    move_request: dict[str, Any]
    moved: dict[str, Any]
    log: dict[str, Any]


_MADE: dict[str, Examples] = {}


def game_examples(game: Game) -> Examples:
    """``game``'s examples, made once per process."""
    made = _MADE.get(game.engine.id)
    if made is None:
        made = _MADE[game.engine.id] = _make(game)
    return made


def _make(game: Game) -> Examples:
    engine = game.engine
    players = engine.players.start
    names = NAMES[:players]
    request = {"players": players, "options": {}, "seed": SEED, "seats": [{"name": n} for n in names]}
    state = engine.new_game(players, {}, SEED)
    tokens = [auth.naming(GAME_ID, TOKEN.format(seat=i)) for i in range(players)]
    record = {  # as service.create writes it
        "schema": SCHEMA_VERSION, "format": engine.format, "game": engine.id, "game_id": GAME_ID,
        "players": players, "options": {}, "seed": SEED, "deck": None,
        "seats": [{"hash": auth.token_hash(t), "bot": False, "name": n} for t, n in zip(tokens, names, strict=True)],
        "state": engine.encode(state), "created_at": CREATED_AT, "updated_at": CREATED_AT,
        "listed": False, "invite": None, "lobby": None, "ended": None, "next_game_id": None,
    }
    created = {"game_id": GAME_ID, "game": engine.id, "version": 0, "players": players, "status": "active",
               "invite": None,
               "seats": [{"seat": i, "token": t, "bot": False, "level": None, "name": n, "kind": "human"}
                         for i, (t, n) in enumerate(zip(tokens, names, strict=True))]}
    seat = engine.to_move(state)[0]
    move = engine.legal_moves(state, seat)[0]
    after, events = engine.apply_events(state, seat, move)
    entry = {**log.entry_for(game, log.entry(game, seat, move, events, False, 1, players), seat), "at": MOVED_AT}
    moved_record = {**record, "updated_at": MOVED_AT}
    return Examples(
        create_request=request,
        created=created,
        view={**view.body(game, record, 0, state, seat, {seat}), "server_time": READ_AT},
        move_request={"version": 0, "move": move.to_json()},
        moved={**view.body(game, moved_record, 1, after, seat, {seat}), "entries": [entry], "server_time": MOVED_AT},
        log={"game_id": GAME_ID, "version": 1, "entries": [entry], "next_since": None},
    )
