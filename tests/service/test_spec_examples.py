"""The spec's examples are what the service answers: per game, a create with the examples' seed, the
view of the seat to move, its move and the log, sent to the app on a real redis-server, answer exactly
the documented examples, but for the game id, the tokens (random in a real answer) and the times
(now in a real answer: compared as well-formed times, not as values)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask.testing import FlaskClient

from engines import REGISTRY
from service.cli import spec_document
from service.examples import GAME_ID

GAMES = sorted(REGISTRY)


def _example(spec: dict[str, Any], path: str, method: str, status: str | None = None) -> Any:
    operation = spec["paths"][path][method]
    part = operation["requestBody"] if status is None else operation["responses"][status]
    return part["content"]["application/json"]["example"]


TIMES = {"created_at", "updated_at", "server_time", "at"}
TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z")


def _as_example(body: Any, game_id: str) -> Any:
    """``body`` with the real game id written as the examples' stand-in, and every time as "a time"
    (a malformed one stays as it is, and differs)."""
    if isinstance(body, dict):
        return {k: "a time" if k in TIMES and isinstance(v, str) and TIME.fullmatch(v)
                else GAME_ID if v == game_id else _as_example(v, game_id) for k, v in body.items()}
    if isinstance(body, list):
        return [_as_example(v, game_id) for v in body]
    return body


@pytest.fixture(scope="module")
def spec() -> dict[str, Any]:
    return spec_document()


@pytest.mark.parametrize("game", GAMES)
def test_the_examples_are_the_services_answers(spec: dict[str, Any], client: FlaskClient, game: str) -> None:
    base = f"/v1/{game}/games"
    reply = client.post(base, json=_example(spec, base, "post"))
    assert reply.status_code == 201, reply.get_data(as_text=True)
    created = reply.get_json()
    game_id = created["game_id"]
    documented = _example(spec, base, "post", "201")
    assert [s["token"] is None for s in created["seats"]] == [s["token"] is None for s in documented["seats"]]
    tokens = [s["token"] for s in created["seats"]]
    assert _as_example({**created, "seats": [{**s, "token": None} for s in created["seats"]]}, game_id) == {
        **documented, "seats": [{**s, "token": None} for s in documented["seats"]]}

    one = f"{base}/{{game_id}}"
    seen = _example(spec, one, "get", "200")
    auth = {"Authorization": f"Bearer {tokens[seen['seat']]}"}
    view = client.get(f"{base}/{game_id}", headers=auth)
    assert _as_example(view.get_json(), game_id) == _as_example(seen, GAME_ID)

    moves = f"{one}/moves"
    moved = client.post(f"{base}/{game_id}/moves", json=_example(spec, moves, "post"), headers=auth)
    assert moved.status_code == 200, moved.get_data(as_text=True)
    assert _as_example(moved.get_json(), game_id) == _as_example(_example(spec, moves, "post", "200"), GAME_ID)

    log = client.get(f"{base}/{game_id}/log", headers=auth)
    assert _as_example(log.get_json(), game_id) == _as_example(_example(spec, f"{one}/log", "get", "200"), GAME_ID)
