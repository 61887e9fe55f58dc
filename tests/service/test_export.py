"""After the game, over HTTP on a real Redis: ``GET .../export`` of a finished game replays (through the
engine, and over the API at another table from its seed, options and players), ``GET .../positions``
shows every position with every hand open, and neither reveals anything while the game runs.
"""

from __future__ import annotations

import io
import math
import random
import uuid
from typing import Any

import pytest
from flask.testing import FlaskClient

from engines import REGISTRY
from engines.replay import replay
from schemas.replay import build_replay
from service import ratelimit
from service.app import create_app
from service.config import Settings
from tests.playout import built, short_options
from tests.service.test_api import assert_problem, auth

GAMES = sorted(REGISTRY)
_played: dict[str, tuple[str, list[str | None]]] = {}


def play_to_the_end(client: FlaskClient, game: str) -> tuple[str, list[str | None]]:
    """A 2-player game of ``game``: seat 0 a person posting random listed moves, seat 1 a random bot,
    played to its end (the short options: one deal, hand or round). Its id and seat tokens."""
    engine = REGISTRY[game]
    body = {"players": 2, "options": short_options(engine), "seed": f"export-{game}",
            "bots": [{"seat": 1, "level": "random"}]}
    created = client.post(f"/v1/{game}/games", json=body)
    assert created.status_code == 201, created.json
    gid, tokens = created.json["game_id"], [s["token"] for s in created.json["seats"]]
    rng = random.Random(game)
    view = client.get(f"/v1/{game}/games/{gid}", headers=auth(tokens[0])).json
    while view["status"] == "active":
        move = view["legal_moves"][int(rng.random() * len(view["legal_moves"]))]
        answer = client.post(f"/v1/{game}/games/{gid}/moves", json={"version": view["version"], "move": move},
                             headers=auth(tokens[0]))
        assert answer.status_code == 200, answer.json
        view = answer.json
    return gid, tokens


def finished(client: FlaskClient, game: str) -> tuple[str, list[str | None]]:
    """The finished game of ``game`` the tests of this module share (played once, on the session's Redis)."""
    if game not in _played:
        _played[game] = play_to_the_end(client, game)
    return _played[game]


def export_of(client: FlaskClient, game: str, gid: str) -> dict[str, Any]:
    reply = client.get(f"/v1/{game}/games/{gid}/export")
    assert reply.status_code == 200, reply.json
    assert reply.content_type == "application/json"
    body: dict[str, Any] = reply.json
    return body


def play_again(client: FlaskClient, export: dict[str, Any], *, seed: bool = True, deck: bool = False
               ) -> tuple[dict[str, Any], str]:
    """Another table plays the exported game: a game of people only, created with the export's players,
    options and seed (and deck, or the deck alone), fed every entry's move as its seat. The last answer
    and the new game's id."""
    game = export["game"]
    body: dict[str, Any] = {"players": export["players"], "options": export["options"]}
    if seed:
        body["seed"] = export["seed"]
    if deck:
        body["deck"] = export["deck"]
    created = client.post(f"/v1/{game}/games", json=body)
    assert created.status_code == 201, created.json
    gid, tokens = created.json["game_id"], [s["token"] for s in created.json["seats"]]
    answer: dict[str, Any] = {}
    for entry in export["entries"]:
        reply = client.post(f"/v1/{game}/games/{gid}/moves", json={"version": entry["version"] - 1,
                                                                   "move": entry["move"]},
                            headers=auth(tokens[entry["seat"]]))
        assert reply.status_code == 200, (entry["version"], reply.json)
        answer = reply.json
    return answer, gid


@pytest.mark.parametrize("game", GAMES)
def test_a_finished_games_export_replays_through_the_engine_and_matches_its_schema(client: FlaskClient,
                                                                                      game: str) -> None:
    gid, _ = finished(client, game)
    export = export_of(client, game, gid)
    engine = REGISTRY[game]
    build_replay(engine, built(engine)).export().load(export)  # the schema in the spec says what it holds
    assert export["game_id"] == gid and export["seed"] == f"export-{game}"
    assert [s["kind"] for s in export["seats"]] == ["human", "bot"]
    assert [(s["name"], s["level"]) for s in export["seats"]] == [("Player 1", None), ("Random bot", "random")]
    view = client.get(f"/v1/{game}/games/{gid}").json
    assert len(export["entries"]) == view["version"] and export["result"] == view["result"]
    assert export["created_at"] == view["created_at"] and export["entries"][-1]["at"] is not None
    assert any(e["bot"] for e in export["entries"]) and any(not e["bot"] for e in export["entries"])
    replayed = replay(export)
    assert replayed.ok, replayed.summary()


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("how", ["seed", "seed and deck"])
def test_another_table_plays_the_export_again_to_the_same_result(client: FlaskClient, game: str, how: str) -> None:
    gid, _ = finished(client, game)
    export = export_of(client, game, gid)
    answer, again = play_again(client, export, deck=how == "seed and deck")
    assert answer["status"] == "finished" and answer["result"] == export["result"]
    second = export_of(client, game, again)
    assert second["deck"] == export["deck"]
    assert [(e["seat"], e["move"], e["events"]) for e in second["entries"]] == \
        [(e["seat"], e["move"], e["events"]) for e in export["entries"]]


def test_a_one_deal_game_plays_again_from_its_deck_alone(client: FlaskClient) -> None:
    """Sten deals once and draws nothing after: its deck is the whole game, no seed needed."""
    gid, _ = finished(client, "sten")
    export = export_of(client, "sten", gid)
    answer, again = play_again(client, export, seed=False, deck=True)
    assert answer["result"] == export["result"]
    assert export_of(client, "sten", again)["seed"] != export["seed"]


@pytest.mark.parametrize("route", ["export", "positions"])
def test_a_running_game_is_not_exported_and_shows_nothing_hidden(client: FlaskClient, route: str) -> None:
    created = client.post("/v1/sten/games", json={"players": 2, "seed": "secret-seed"}).json
    gid, token = created["game_id"], created["seats"][0]["token"]
    for headers in ({}, auth(token)):
        reply = client.get(f"/v1/sten/games/{gid}/{route}", headers=headers)
        body = assert_problem(reply, 409, "game_not_finished")
        assert body["current_version"] == 0
        assert b"secret-seed" not in reply.data and b"deck" not in reply.data and b"hands" not in reply.data


@pytest.mark.parametrize("route", ["export", "positions"])
def test_an_unknown_game_or_a_wrong_token_is_refused_as_problem_json(client: FlaskClient, route: str) -> None:
    gid, _ = finished(client, "sten")
    assert_problem(client.get(f"/v1/sten/games/nosuchgame/{route}"), 404, "game_not_found")
    assert_problem(client.get(f"/v1/conquian/games/{gid}/{route}"), 404, "game_not_found")  # another game's id
    assert_problem(client.get(f"/v1/sten/games/{gid}/{route}", headers=auth("made-up")), 401, "unauthorized")
    assert_problem(client.post(f"/v1/sten/games/{gid}/{route}"), 405, "method_not_allowed")


def test_a_seats_token_is_accepted_and_the_export_is_the_same_for_everyone(client: FlaskClient) -> None:
    gid, tokens = finished(client, "conquian")
    spectator = client.get(f"/v1/conquian/games/{gid}/export")
    seat = client.get(f"/v1/conquian/games/{gid}/export", headers=auth(str(tokens[0])))
    assert seat.status_code == 200 and seat.data == spectator.data


def test_an_export_never_changes_so_its_etag_answers_304(client: FlaskClient) -> None:
    gid, _ = finished(client, "sten")
    first = client.get(f"/v1/sten/games/{gid}/export")
    tag = first.headers["ETag"]
    assert tag.endswith('.export"') and first.headers["Cache-Control"] == "public, no-cache"
    again = client.get(f"/v1/sten/games/{gid}/export", headers={"If-None-Match": tag})
    assert again.status_code == 304 and again.data == b"" and again.headers["ETag"] == tag


@pytest.mark.parametrize("game", GAMES)
def test_positions_show_every_position_with_every_hand_open(client: FlaskClient, game: str) -> None:
    gid, tokens = finished(client, game)
    engine = REGISTRY[game]
    final = client.get(f"/v1/{game}/games/{gid}").json
    schema = build_replay(engine, built(engine)).positions()
    positions: list[dict[str, Any]] = []
    start: int | None = 0
    pages = 0
    while start is not None:
        page = client.get(f"/v1/{game}/games/{gid}/positions?start={start}&limit=40")
        assert page.status_code == 200, page.json
        schema.load(page.json)
        positions += page.json["positions"]
        start = page.json["next_start"]
        pages += 1
    assert pages == math.ceil((final["version"] + 1) / 40)
    assert [p["version"] for p in positions] == list(range(final["version"] + 1))
    assert positions[0]["view"]["status"] == "active" and positions[0]["view"]["result"] is None
    last = positions[-1]
    export = export_of(client, game, gid)
    times = [export["created_at"]] + [e["at"] for e in export["entries"]]
    assert [p["view"]["updated_at"] for p in positions] == times, "each position as it stood after its move"
    assert all(t is not None for t in times)
    same = {"seat": None, "legal_moves": [], "updated_at": times[-1], "server_time": last["view"]["server_time"],
            # who was at the table then is not kept: a position knows no presence
            "seats": [{**seat, "connected": None} for seat in final["seats"]]}
    assert last["view"] == {**final, **same}  # the spectator's view of the end
    seat0 = client.get(f"/v1/{game}/games/{gid}", headers=auth(str(tokens[0]))).json
    assert last["hands"][0] == seat0["state"]["hand"]  # the seat's own hand, as its view shows it
    assert all(len(p["hands"]) == 2 and all(isinstance(h, list) for h in p["hands"]) for p in positions)
    assert all(p["view"]["state"]["hand"] is None for p in positions), "a position's view is the spectator's"


def test_positions_past_the_end_are_none_and_a_bad_query_is_422(client: FlaskClient) -> None:
    gid, _ = finished(client, "sten")
    version = client.get(f"/v1/sten/games/{gid}").json["version"]
    past = client.get(f"/v1/sten/games/{gid}/positions?start={version + 1}").json
    assert past["positions"] == [] and past["next_start"] is None
    one = client.get(f"/v1/sten/games/{gid}/positions?start={version}&limit=1").json
    assert [p["version"] for p in one["positions"]] == [version] and one["next_start"] is None
    for query in ("limit=0", "limit=101", "start=-1", "start=x", "start=1&start=2"):
        body = assert_problem(client.get(f"/v1/sten/games/{gid}/positions?{query}"), 422, "validation_error")
        assert "query" in body["errors"]


# --- what looking back costs ------------------------------------------------------------------------

PAGE = 3  # entries a request pays for in these tests
RATE = 5  # requests a minute per address


@pytest.fixture()
def limited(redis_server: Any, monkeypatch: pytest.MonkeyPatch) -> FlaskClient:
    monkeypatch.setattr(ratelimit, "REPLAY_PAGE", PAGE)
    app = create_app(Settings(redis_url=redis_server.url, rate_limit=f"{RATE}/m", allow_fixed_deals=True))
    app.extensions["cardtable.access_log"].stream = io.StringIO()
    return app.test_client()


def _address() -> dict[str, str]:
    n = uuid.uuid4().int
    return {"REMOTE_ADDR": f"10.{n % 250}.{n // 250 % 250}.{n // 62500 % 250}"}


def test_an_export_costs_what_a_log_read_of_its_entries_does(client: FlaskClient, limited: FlaskClient) -> None:
    gid, _ = finished(client, "sten")
    version = client.get(f"/v1/sten/games/{gid}").json["version"]
    assert version > RATE * PAGE, "the game must cost more than the rate allows"
    refused = limited.get(f"/v1/sten/games/{gid}/export", environ_base=_address())
    body = assert_problem(refused, 429, "rate_limited")
    assert "log entries" in body["detail"] and int(refused.headers["Retry-After"]) >= 1
    # a log read of as many entries is refused alike; a short one is not
    address = _address()
    assert limited.get(f"/v1/sten/games/{gid}/log?limit={version}", environ_base=address).status_code == 429
    assert limited.get(f"/v1/sten/games/{gid}/log?limit={PAGE}", environ_base=_address()).status_code == 200


def test_positions_cost_the_entries_played_again_to_reach_them(client: FlaskClient, limited: FlaskClient) -> None:
    gid, _ = finished(client, "sten")
    address = _address()
    early = limited.get(f"/v1/sten/games/{gid}/positions?start=0&limit={PAGE}", environ_base=address)
    assert early.status_code == 200  # the first page of moves: one request
    late = limited.get(f"/v1/sten/games/{gid}/positions?start={RATE * PAGE + 1}&limit=1", environ_base=_address())
    assert_problem(late, 429, "rate_limited")  # reaching it plays more than the rate's worth again
