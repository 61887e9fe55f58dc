"""Every game at every table size it allows plays to its end with listed moves, checked at the
engine and its wire schemas, without a server.

The whole games over HTTP (tests/service/test_live.py) prove the service end to end at each game's
smallest and largest table; what else depends on the table size is the engine's and the wire's, and
is proven here for every size: each listed move, sent back as a client sends it (its JSON in a move
request), passes the request schema and is the same move again; the served shape of every seat's and
the spectator's view passes the view schema; the game ends with a result and no seat to move.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from engines import REGISTRY
from engines.core import Engine, move_from_json
from tests.playout import built, playout, served_view

CASES = [(g, n) for g, e in sorted(REGISTRY.items()) for n in e.players]
#: Every listed move goes back through ``move_from_json`` at every position; the schemas (the costly
#: part) check the request of every listed move and every view at every third position.
STRIDE = 3


def _served_view(engine: Engine, state: Any, viewer: int | None, players: int, version: int) -> dict[str, Any]:
    """The body the service answers for ``viewer`` (its fields as GET /v1/{game}/games/{id} has them)."""
    view = served_view(engine, state, viewer, version)
    assert view["players"] == players
    return view


@pytest.mark.parametrize("game,players", CASES, ids=[f"{g}-{n}p" for g, n in CASES])
def test_a_game_plays_to_its_end_at_every_table_size_with_listed_moves_as_sent(game: str, players: int) -> None:
    engine = REGISTRY[game]
    schemas = built(engine)
    view_schema, request_schema = schemas.view(), schemas.move_request()
    version, last = 0, None
    for version, step in enumerate(playout(engine, players, f"table-size/{players}")):
        for move in step.legal:
            sent = json.loads(json.dumps({"version": version, "move": move.to_json()}))
            assert move_from_json(engine.move_types, sent["move"]) == move
            if version % STRIDE == 0:
                assert request_schema.validate(sent) == {}, (move, request_schema.validate(sent))
        if version % STRIDE == 0:
            for viewer in (None, *range(players)):
                body = _served_view(engine, step.state, viewer, players, version)
                assert view_schema.validate(body) == {}, (viewer, view_schema.validate(body))
        last = step
    assert last is not None, "the game ended before its first move"
    end = engine.apply(last.state, last.seat, last.move)
    assert engine.result(end) is not None and engine.to_move(end) == ()
    for viewer in (None, *range(players)):
        body = _served_view(engine, end, viewer, players, version + 1)
        assert body["status"] == "finished" and body["legal_moves"] == []
        assert view_schema.validate(body) == {}
