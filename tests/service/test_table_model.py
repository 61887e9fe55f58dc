"""The table model every game shares, over HTTP on a real Redis: ``seats`` in every view, the times
(``created_at``, ``updated_at``, ``server_time``, a log entry's ``at``), a move's ``entries``, the
result's ``termination``/``ranking``/``forfeited`` and what the catalogue says of each game.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
import redis
from flask.testing import FlaskClient

from engines import REGISTRY
from service.records import SCHEMA_VERSION
from tests.captured.capture import whole_log
from tests.service.test_api import auth, create, untimed
from tests.service.test_captured_games import _restore

GAMES = sorted(REGISTRY)
TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z")
CAPTURED = Path(__file__).resolve().parent.parent / "captured"
SEAT_FIELDS = {"seat", "name", "kind", "level", "status", "replaced_because", "connected", "hand_count", "score",
               "clock"}


def _players(game: str) -> int:
    return min(max(3, REGISTRY[game].players.start), REGISTRY[game].players.stop - 1)


def _human_to_move(client: FlaskClient, path: str, tokens: list[str | None]) -> tuple[int, dict[str, Any]] | None:
    for seat, token in enumerate(tokens):
        if token:
            view = client.get(path, headers=auth(token)).json
            if view["legal_moves"]:
                return seat, view
    return None


@pytest.mark.parametrize("game", GAMES)
def test_every_view_carries_the_seats_in_one_shape(client: FlaskClient, game: str) -> None:
    players = _players(game)
    created = create(client, game, players=players, bots=[{"seat": players - 1, "level": "random"}], seed="seats")
    path = f"/v1/{game}/games/{created['game_id']}"
    tokens = [s["token"] for s in created["seats"]]
    engine = REGISTRY[game]
    views = [client.get(path, headers=auth(t)).json for t in tokens if t] + [client.get(path).json]
    found = _human_to_move(client, path, tokens)
    assert found is not None
    seat, view = found
    moved = client.post(f"{path}/moves", json={"version": view["version"], "move": view["legal_moves"][0]},
                        headers=auth(tokens[seat]))
    assert moved.status_code == 200
    for answer in [*views, moved.json]:
        seats = answer["seats"]
        assert [s["seat"] for s in seats] == list(range(players))
        assert all(set(s) == SEAT_FIELDS for s in seats)
        human = [s for s in seats if s["kind"] == "human"]
        assert [s["name"] for s in human] == [f"Player {s['seat'] + 1}" for s in human]
        assert [(s["kind"], s["level"], s["name"]) for s in seats if s["seat"] == players - 1] == [
            ("bot", "random", "Random bot")]
        assert all(s["level"] is None for s in human)
        assert all((s["status"], s["replaced_because"], s["clock"]) == ("playing", None, None) for s in seats)
        # who is at the table: a person's seat says, a bot's has nobody to be there
        assert all(isinstance(s["connected"], bool) if s["kind"] == "human" else s["connected"] is None
                   for s in seats)
        if answer["seat"] is not None:
            assert seats[answer["seat"]]["connected"] is True
        if engine.scoring == "none":
            assert all(s["score"] is None for s in seats)
        else:
            assert all(isinstance(s["score"], int) for s in seats)
        if answer["seat"] is not None:
            assert seats[answer["seat"]]["hand_count"] == len(answer["state"]["hand"])
    # every seat's own view agrees with what the others see of its hand
    after = [client.get(path, headers=auth(t)).json for t in tokens if t]
    for view in after:
        assert view["seats"][view["seat"]]["hand_count"] == len(view["state"]["hand"])
        assert view["seats"] == after[0]["seats"] == client.get(path).json["seats"]


def test_views_and_log_entries_carry_their_times(client: FlaskClient) -> None:
    created = create(client, "sten", players=3, bots=[1, 2], seed="times")
    path = f"/v1/sten/games/{created['game_id']}"
    token = created["seats"][0]["token"]
    first = client.get(path, headers=auth(token)).json
    assert all(TIME.fullmatch(first[k]) for k in ("created_at", "updated_at", "server_time"))
    assert first["created_at"] <= first["updated_at"] <= first["server_time"]
    moved = client.post(f"{path}/moves", json={"move": first["legal_moves"][0]}, headers=auth(token)).json
    assert moved["created_at"] == first["created_at"]
    assert first["updated_at"] <= moved["updated_at"] <= moved["server_time"]
    entries = whole_log(client, path, auth(token))["entries"]
    assert entries and all(TIME.fullmatch(e["at"]) for e in entries)
    assert [e["at"] for e in entries] == sorted(e["at"] for e in entries)
    assert entries[-1]["at"] <= moved["updated_at"]
    again = client.get(path).json
    assert (again["created_at"], again["updated_at"]) == (moved["created_at"], moved["updated_at"])


def test_server_time_is_each_answers_own_and_the_etag_and_304_stay(client: FlaskClient) -> None:
    """The rendered view is kept per version and viewer; only the answer's time is new each time."""
    created = create(client, "sten", players=2, seed="etag")
    path = f"/v1/sten/games/{created['game_id']}"
    token = created["seats"][0]["token"]
    first = client.get(path, headers=auth(token))
    second = client.get(path, headers=auth(token))
    assert first.headers["ETag"] == second.headers["ETag"]
    assert untimed(first.json) == untimed(second.json)
    assert first.json["server_time"] <= second.json["server_time"]
    assert first.data.endswith(b'"}') and b'"server_time"' not in first.data[:-40]
    unchanged = client.get(path, headers={**auth(token), "If-None-Match": first.headers["ETag"]})
    assert unchanged.status_code == 304 and unchanged.data == b""


@pytest.mark.parametrize("game", GAMES)
def test_a_moves_answer_carries_the_entries_it_wrote_as_the_log_shows_them_to_the_mover(
        client: FlaskClient, game: str) -> None:
    players = _players(game)
    bots = list(range(1, players))
    created = create(client, game, players=players, bots=bots, seed="entries")
    path = f"/v1/{game}/games/{created['game_id']}"
    tokens = [s["token"] for s in created["seats"]]
    rng = random.Random(game)
    redacted = 0
    for n in range(12):
        found = _human_to_move(client, path, tokens)
        if found is None:
            break
        seat, view = found
        move = view["legal_moves"][rng.randrange(len(view["legal_moves"]))]
        key = f"entries-{game}-{n}"
        headers = {**auth(tokens[seat]), "Idempotency-Key": key}
        answer = client.post(f"{path}/moves", json={"version": view["version"], "move": move}, headers=headers)
        assert answer.status_code == 200, answer.json
        body = answer.json
        entries = body["entries"]
        assert [e["version"] for e in entries] == list(range(view["version"] + 1, body["version"] + 1))
        assert entries[0]["seat"] == seat and not entries[0]["bot"] and all(e["bot"] for e in entries[1:])
        log = client.get(f"{path}/log?since={view['version']}", headers=auth(tokens[seat])).json["entries"]
        assert entries == log
        spectator = client.get(f"{path}/log?since={view['version']}").json["entries"]
        redacted += sum(a != b for a, b in zip(entries, spectator, strict=True))
        replay = client.post(f"{path}/moves", json={"version": view["version"], "move": move}, headers=headers)
        assert replay.headers["Idempotent-Replayed"] == "true"
        assert untimed(replay.json) == untimed(body)
        # a view read now is the answer's view, without the entries
        assert untimed(client.get(path, headers=auth(tokens[seat])).json) == {
            k: v for k, v in untimed(body).items() if k != "entries"}
    if game in ("kanaster", "siebenschlaefer"):  # cards drawn from the stock are shown to the drawer alone
        assert redacted, "no entry showed the mover more than the spectator"


def test_a_finished_game_ranks_its_seats_in_its_view(client: FlaskClient) -> None:
    created = create(client, "sten", players=2, bots=[1], seed="ranked")
    path = f"/v1/sten/games/{created['game_id']}"
    token = created["seats"][0]["token"]
    for _ in range(200):
        view = client.get(path, headers=auth(token)).json
        if view["status"] == "finished":
            break
        client.post(f"{path}/moves", json={"move": view["legal_moves"][0]}, headers=auth(token))
    result = client.get(path).json["result"]
    assert result is not None and result["termination"] == "normal" and result["forfeited"] == []
    assert sorted(s for place in result["ranking"] for s in place) == [0, 1]
    if result["winners"]:
        assert result["ranking"][0] == result["winners"]


def test_the_catalogue_describes_each_game_and_links_its_rules(client: FlaskClient) -> None:
    games = {g["game"]: g for g in client.get("/v1/games").json["games"]}
    for game_id, engine in REGISTRY.items():
        info = games[game_id]
        assert info["description"] == engine.description
        assert info["scoring"] == engine.scoring
        assert info["typical_minutes"] == engine.typical_minutes
        assert info["rules_url"] == f"/play/rules/{game_id}.md"
        with client.get(info["rules_url"]) as rules:
            assert rules.status_code == 200 and rules.mimetype == "text/markdown"
            assert f"`{game_id}`" in rules.get_data(as_text=True)[:2000]


def _captured(schema: int) -> Path:
    for path in sorted(CAPTURED.glob("*/format-*/*.json")):
        cap = json.loads(path.read_text())
        record = next(v["value"] for k, v in cap["keys"].items() if k.startswith("cardtable:game:"))
        if json.loads(record["s"])["schema"] == schema:
            return path
    raise AssertionError(f"no captured game of envelope {schema}")


@pytest.mark.parametrize("schema", [1, 2])
def test_a_game_stored_before_times_were_kept_shows_null_until_it_moves(
        client: FlaskClient, redis_server, schema: int) -> None:
    cap = json.loads(_captured(schema).read_text())
    store = redis.Redis.from_url(redis_server.url)
    _restore(store, cap["keys"])
    game, gid, tokens = cap["game"], cap["game_id"], cap["tokens"]
    path = f"/v1/{game}/games/{gid}"
    view = client.get(path).json
    assert (view["created_at"], view["updated_at"]) == (None, None) and TIME.fullmatch(view["server_time"])
    old = whole_log(client, path, {})["entries"]
    assert old and all(e["at"] is None for e in old)
    found = _human_to_move(client, path, tokens)
    assert found is not None
    seat, view = found
    moved = client.post(f"{path}/moves", json={"version": view["version"], "move": view["legal_moves"][0]},
                        headers=auth(tokens[seat])).json
    assert moved["created_at"] is None and TIME.fullmatch(moved["updated_at"])
    assert all(TIME.fullmatch(e["at"]) for e in moved["entries"])
    record = json.loads(store.hget(f"cardtable:game:{{{gid}}}", "s"))
    assert (record["schema"], record["created_at"], record["updated_at"]) == (SCHEMA_VERSION, None, moved["updated_at"])
