"""The people at a table, over HTTP on a real Redis: the seats a create asks for (named people, bots,
open seats), names checked on the way in and kept in the record, and a game that waits for the people
of its open seats.
"""

from __future__ import annotations

import json

import pytest
import redis
from flask.testing import FlaskClient

from service.records import SCHEMA_VERSION, loads_record
from tests.service.test_api import assert_problem, auth


def _record(redis_server, game_id: str) -> dict:
    raw = redis.Redis.from_url(redis_server.url).hget(f"cardtable:game:{{{game_id}}}", "s")
    return json.loads(raw)


def test_create_seats_named_people_bots_and_open_seats_and_every_view_names_them(client: FlaskClient,
                                                                                  redis_server) -> None:
    r = client.post("/v1/sten/games", json={"players": 4, "seats": [
        {"name": "  Ann  "}, {"bot": "strong", "name": "Robo"}, {"open": True, "name": "for Cy"}, {"bot": "random"}]})
    assert r.status_code == 201, r.json
    created = r.json
    assert [(s["seat"], s["kind"], s["name"], s["level"], s["bot"]) for s in created["seats"]] == [
        (0, "human", "Ann", None, False), (1, "bot", "Robo", "strong", True), (2, "open", "for Cy", None, False),
        (3, "bot", "Random bot", "random", True)]
    assert [s["token"] is not None for s in created["seats"]] == [True, False, False, False]
    assert created["status"] == "waiting"
    path = f"/v1/sten/games/{created['game_id']}"
    for headers in ({}, auth(created["seats"][0]["token"])):
        view = client.get(path, headers=headers).json
        assert [(s["name"], s["kind"], s["status"]) for s in view["seats"]] == [
            ("Ann", "human", "playing"), ("Robo", "bot", "playing"), ("for Cy", "open", "waiting"),
            ("Random bot", "bot", "playing")]
    record = _record(redis_server, created["game_id"])
    assert record["schema"] == SCHEMA_VERSION >= 4
    assert [s.get("name") for s in record["seats"]] == ["Ann", "Robo", "for Cy", None]  # names live in the record
    assert record["listed"] is False


def test_names_may_be_any_printable_text_of_one_to_24_characters(client: FlaskClient) -> None:
    names = ["Zoë", "李雷", "Ana-María O'Neil", "🂡 ace", "x" * 24, "  " + "y" * 24 + "  ", "<b>bold</b>"]
    for name in names:
        r = client.post("/v1/sten/games", json={"players": 2, "seats": [{"name": name}, {"bot": "greedy"}]})
        assert r.status_code == 201, (name, r.json)
        assert r.json["seats"][0]["name"] == name.strip()


@pytest.mark.parametrize("name", ["", "   ", "x" * 25, "a\u0007b", "line\nbreak", "tab\there", "\u202egnp.exe",
                                  "zero\u200bwidth", "soft\u00adhyphen", "bom\ufeff", "del\x7f", "a\u2028sep",
                                  "x" * 65, 7, None, ["Ann"]])
def test_a_bad_name_is_a_422_naming_the_seat_and_its_name(client: FlaskClient, name) -> None:
    r = client.post("/v1/sten/games", json={"players": 2, "seats": [{"bot": "greedy"}, {"name": name}]})
    body = assert_problem(r, 422, "validation_error")
    assert list(body["errors"]) == ["seats"] and list(body["errors"]["seats"]) == ["1"]
    assert "name" in body["errors"]["seats"]["1"]


@pytest.mark.parametrize(("seats", "where"), [
    ([{"name": "Ann"}], "seats"),  # fewer entries than players
    ([{"name": "Ann"}, {"name": "Bo"}, {"name": "Cy"}], "seats"),
    ([{"bot": "greedy"}, {"bot": "strong"}], "seats"),  # nobody left to play
    ([{"name": "Ann"}, {"bot": "genius"}], "seats"),
    ([{"name": "Ann"}, {"open": False}], "seats"),
    ([{"name": "Ann"}, {"open": True, "bot": "greedy"}], "seats"),
    ([{"name": "Ann"}, {"nick": "Bo"}], "seats"),
    ([{"name": "Ann"}, "Bo"], "seats"),
])
def test_seats_must_be_one_entry_per_player_each_a_person_a_bot_or_open(client: FlaskClient, seats, where) -> None:
    r = client.post("/v1/sten/games", json={"players": 2, "seats": seats})
    assert where in assert_problem(r, 422, "validation_error")["errors"]


def test_seats_and_bots_do_not_come_together_but_bots_alone_still_work(client: FlaskClient) -> None:
    r = client.post("/v1/sten/games", json={"players": 2, "bots": [1], "seats": [{"name": "Ann"}, {"bot": "greedy"}]})
    assert "bots" in assert_problem(r, 422, "validation_error")["errors"]
    r = client.post("/v1/sten/games", json={"players": 3, "bots": [{"seat": 2, "level": "strong"}]})
    assert r.status_code == 201
    assert [(s["kind"], s["name"]) for s in r.json["seats"]] == [
        ("human", "Player 1"), ("human", "Player 2"), ("bot", "Strong bot")]
    assert r.json["status"] == "active"


def test_a_game_with_open_seats_waits_and_refuses_every_move(client: FlaskClient) -> None:
    # Seat 0 must open with the hearts 7: give it to the bot, who would play at once in a running game.
    created = client.post("/v1/sten/games", json={"players": 3, "seed": "waits", "seats": [
        {"bot": "greedy"}, {"name": "Ann"}, {"open": True}]}).json
    path = f"/v1/sten/games/{created['game_id']}"
    token = created["seats"][1]["token"]
    assert created["version"] == 0  # the bots wait too
    view = client.get(path, headers=auth(token)).json
    assert (view["status"], view["to_move"], view["legal_moves"], view["result"]) == ("waiting", [], [], None)
    assert client.get(f"{path}/log").json["entries"] == []
    for route in ("moves", "moves/check"):
        r = client.post(f"{path}/{route}", json={"move": {"type": "stein"}}, headers=auth(token))
        assert assert_problem(r, 409, "game_not_started")["current_version"] == 0


def test_a_stored_game_of_the_envelope_before_people_reads_as_unnamed_unlisted_and_never_ended() -> None:
    from engines import REGISTRY

    old = {"schema": 3, "format": 1, "game": "sten", "game_id": "g", "players": 2, "options": {}, "seed": "s",
           "deck": None, "seats": [{"hash": "h", "bot": False}, {"hash": None, "bot": True, "level": "greedy"}],
           "state": None, "created_at": None, "updated_at": None}
    engine = REGISTRY["sten"]
    old["state"] = engine.encode(engine.new_game(2, {}, "s"))
    old["format"] = engine.format
    record = loads_record(json.dumps(old).encode(), engine)
    assert record["schema"] == SCHEMA_VERSION
    assert (record["listed"], record["invite"], record["lobby"], record["ended"], record["next_game_id"]) == (
        False, None, None, None, None)
    assert record["seats"] == old["seats"]
