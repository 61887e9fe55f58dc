"""Waiting games over HTTP on a real Redis: the invite, joining an open seat (racing joins never share
one), the last seat claimed starting the game, starting early with bots, calling it off, and a day's
life while it waits.
"""

from __future__ import annotations

import json
import random
import threading

import pytest
import redis
from flask.testing import FlaskClient

from engines.replay import replay
from service.table import WAITING_TTL
from tests.http import Client
from tests.servers import gunicorn
from tests.service.test_api import _sten_deck_bot_first, assert_problem, auth


def _waiting(client: FlaskClient, players: int = 3, **body) -> dict:
    body.setdefault("seats", [{"name": "Ann"}] + [{"open": True}] * (players - 1))
    r = client.post("/v1/sten/games", json={"players": players, **body})
    assert r.status_code == 201, r.json
    return r.json


def _raw(redis_server, game_id: str) -> bytes:
    return redis.Redis.from_url(redis_server.url).hget(f"cardtable:game:{{{game_id}}}", "s")


def _log(client: FlaskClient, path: str) -> list[dict]:
    return client.get(f"{path}/log").json["entries"]


def test_the_create_answer_carries_one_invite_of_128_bits_or_more_and_the_store_only_its_hash(
        client: FlaskClient, redis_server) -> None:
    created = _waiting(client)
    invite = created["invite"]
    assert isinstance(invite, str) and len(invite) >= 22  # >= 128 bits of urlsafe base64
    raw = _raw(redis_server, created["game_id"])
    assert invite.encode() not in raw
    assert json.loads(raw)["invite"] == __import__("hashlib").sha256(invite.encode()).hexdigest()
    full = client.post("/v1/sten/games", json={"players": 2, "seats": [{"name": "Ann"}, {"bot": "greedy"}]}).json
    assert full["invite"] is None and full["status"] == "active"


def test_join_with_the_invite_claims_a_seat_with_a_name_and_a_token_that_plays_it(client: FlaskClient) -> None:
    created = _waiting(client)
    path = f"/v1/sten/games/{created['game_id']}"
    r = client.post(f"{path}/join", json={"invite": created["invite"], "name": " Bo "})
    assert r.status_code == 201, r.json
    joined = r.json
    assert joined["seat"] == 1 and joined["game_id"] == created["game_id"]
    assert joined["token"].startswith(created["game_id"] + ".")
    view = client.get(path, headers=auth(joined["token"])).json
    assert view["seat"] == 1 and view["status"] == "waiting" and view["version"] == 1
    assert [(s["name"], s["kind"], s["status"]) for s in view["seats"]] == [
        ("Ann", "human", "playing"), ("Bo", "human", "playing"), ("Player 3", "open", "waiting")]
    [entry] = _log(client, path)
    assert (entry["version"], entry["seat"], entry["bot"], entry["move"]) == (1, 1, False, None)
    assert entry["events"] == [{"type": "seat_taken", "seat": 1, "name": "Bo"}]
    # the seat asked for
    r = client.post(f"{path}/join", json={"invite": created["invite"], "name": "Cy", "seat": 2})
    assert r.status_code == 201 and r.json["seat"] == 2


def test_join_needs_the_games_invite_unless_the_game_is_listed(client: FlaskClient) -> None:
    created = _waiting(client)
    path = f"/v1/sten/games/{created['game_id']}"
    other = _waiting(client)
    for body in ({"name": "Bo"}, {"name": "Bo", "invite": "x" * 32}, {"name": "Bo", "invite": other["invite"]}):
        assert_problem(client.post(f"{path}/join", json=body), 403, "bad_invite")
    assert client.get(path).json["version"] == 0  # nothing changed
    listed = _waiting(client, listed=True)
    lpath = f"/v1/sten/games/{listed['game_id']}"
    assert client.post(f"{lpath}/join", json={"name": "Bo"}).status_code == 201
    assert_problem(client.post(f"{lpath}/join", json={"name": "Cy", "invite": "wrong"}), 403, "bad_invite")


def test_join_refuses_a_taken_or_missing_seat_and_a_bad_name(client: FlaskClient) -> None:
    created = _waiting(client)
    path = f"/v1/sten/games/{created['game_id']}"
    invite = created["invite"]
    assert_problem(client.post(f"{path}/join", json={"invite": invite, "name": "Bo", "seat": 0}), 409, "no_open_seat")
    errors = assert_problem(client.post(f"{path}/join", json={"invite": invite, "name": "Bo", "seat": 3}),
                            422, "validation_error")["errors"]
    assert "seat" in errors
    errors = assert_problem(client.post(f"{path}/join", json={"invite": invite, "name": "\u202eBo"}),
                            422, "validation_error")["errors"]
    assert "name" in errors
    assert_problem(client.post("/v1/sten/games/nosuchgame/join", json={"invite": invite, "name": "Bo"}),
                   404, "game_not_found")
    assert client.get(path).json["version"] == 0


def test_the_last_seat_claimed_starts_the_game_and_the_bots_due_move(client: FlaskClient) -> None:
    # 2 players, the hearts 7 dealt to seat 1: a bot there opens as soon as the game starts.
    created = client.post("/v1/sten/games", json={"players": 3, "deck": _three_player_deck_seat_2_opens(),
                                                  "seats": [{"open": True}, {"name": "Ann"}, {"bot": "greedy"}]}).json
    path = f"/v1/sten/games/{created['game_id']}"
    assert created["version"] == 0 and created["status"] == "waiting"
    joined = client.post(f"{path}/join", json={"invite": created["invite"], "name": "Bo"}).json
    view = client.get(path, headers=auth(joined["token"])).json
    assert view["status"] == "active"
    log = _log(client, path)
    assert [e["type"] for e in log[0]["events"]] == ["seat_taken", "game_started"]
    assert log[0]["move"] is None
    assert len(log) >= 2 and log[1]["bot"] and log[1]["seat"] == 2 and log[1]["move"] is not None
    assert view["version"] == len(log)
    assert_problem(client.post(f"{path}/join", json={"invite": created["invite"], "name": "Cy"}), 409, "no_open_seat")


def _three_player_deck_seat_2_opens() -> list[str]:
    """A 3-player Sten deck dealt round from seat 0 whose 7H goes to seat 2."""
    from engines.cards import standard_deck

    deck = [c for c in standard_deck() if c != "7H"]
    return [deck[0], deck[1], "7H", *deck[2:]]


def test_start_seats_bots_in_the_open_seats_and_plays_them(client: FlaskClient) -> None:
    created = client.post("/v1/sten/games", json={"players": 2, "deck": _sten_deck_bot_first(),
                                                  "seats": [{"name": "Ann"}, {"open": True}]}).json
    path = f"/v1/sten/games/{created['game_id']}"
    token = created["seats"][0]["token"]
    assert_problem(client.post(f"{path}/start"), 401, "unauthorized")
    other = _waiting(client)
    assert_problem(client.post(f"{path}/start", headers=auth(other["seats"][0]["token"])), 401, "unauthorized")
    r = client.post(f"{path}/start", headers=auth(token))
    assert r.status_code == 200, r.json
    answer = r.json
    assert answer["status"] == "active" and answer["seat"] == 0
    assert [(s["kind"], s["level"], s["name"]) for s in answer["seats"]] == [
        ("human", None, "Ann"), ("bot", "greedy", "Greedy bot")]
    first, *bots = answer["entries"]
    assert [e["type"] for e in first["events"]] == ["bot_seated", "game_started"]
    assert first["events"][0] == {"type": "bot_seated", "seat": 1, "level": "greedy"}
    assert bots and all(e["bot"] and e["seat"] == 1 for e in bots)  # the bot holds the hearts 7: it opens
    assert r.headers["ETag"] and answer["version"] == 1 + len(bots)
    assert_problem(client.post(f"{path}/start", headers=auth(token)), 409, "game_not_waiting")
    assert_problem(client.post(f"{path}/abort", headers=auth(token)), 409, "game_not_waiting")


def test_abort_calls_a_waiting_game_off_for_good(client: FlaskClient) -> None:
    created = _waiting(client)
    path = f"/v1/sten/games/{created['game_id']}"
    token = created["seats"][0]["token"]
    r = client.post(f"{path}/abort", headers=auth(token))
    assert r.status_code == 200, r.json
    view = r.json
    assert view["status"] == "finished" and view["to_move"] == []
    assert view["result"] == {"status": "aborted", "winners": [], "losers": [], "scores": None, "detail": None,
                              "termination": "aborted", "ranking": [[0, 1, 2]], "forfeited": []}
    assert [e["events"] for e in view["entries"]] == [[{"type": "game_aborted", "seat": 0}]]
    assert client.get(path).json["result"]["termination"] == "aborted"
    assert_problem(client.post(f"{path}/moves", json={"move": {"type": "stein"}}, headers=auth(token)),
                   409, "game_over")
    assert_problem(client.post(f"{path}/join", json={"invite": created["invite"], "name": "Bo"}), 409, "no_open_seat")
    assert_problem(client.get(f"{path}/export"), 409, "game_not_finished")


def test_a_waiting_game_lives_a_day_and_a_started_one_the_games_ttl(client: FlaskClient, redis_server) -> None:
    r = redis.Redis.from_url(redis_server.url)
    created = _waiting(client, players=2)
    gid = created["game_id"]
    assert 0 < r.ttl(f"cardtable:game:{{{gid}}}") <= WAITING_TTL == 24 * 3600
    client.post(f"/v1/sten/games/{gid}/join", json={"invite": created["invite"], "name": "Bo"})
    assert r.ttl(f"cardtable:game:{{{gid}}}") > WAITING_TTL
    assert r.ttl(f"cardtable:log:{{{gid}}}") > WAITING_TTL


def test_a_retried_join_with_its_idempotency_key_gets_the_same_seat_and_token(client: FlaskClient) -> None:
    created = _waiting(client)
    path = f"/v1/sten/games/{created['game_id']}"
    body = {"invite": created["invite"], "name": "Bo"}
    first = client.post(f"{path}/join", json=body, headers={"Idempotency-Key": "join-1"})
    again = client.post(f"{path}/join", json=body, headers={"Idempotency-Key": "join-1"})
    assert first.status_code == again.status_code == 201
    assert again.headers["Idempotent-Replayed"] == "true" and again.json == first.json
    assert client.get(path).json["version"] == 1  # claimed once
    assert client.get(path, headers=auth(again.json["token"])).json["seat"] == first.json["seat"]
    assert_problem(client.post(f"{path}/join", json={**body, "name": "Cy"}, headers={"Idempotency-Key": "join-1"}),
                   422, "idempotency_conflict")
    # the same key from another address is another join
    elsewhere = client.post(f"{path}/join", json=body, headers={"Idempotency-Key": "join-1"},
                            environ_base={"REMOTE_ADDR": "10.9.8.7"})
    assert elsewhere.status_code == 201 and elsewhere.json["seat"] != first.json["seat"]
    assert elsewhere.json["token"] != first.json["token"]


@pytest.fixture(scope="module")
def four_workers(redis_server):
    with gunicorn(redis_server.url, workers=4) as url:
        yield url


def test_racing_joins_never_share_a_seat(four_workers, redis_server) -> None:
    setup = Client(four_workers)
    created = setup.post("/v1/sten/games", {"players": 4, "seats": [{"name": "Ann"}] + [{"open": True}] * 3}).json
    path = f"/v1/sten/games/{created['game_id']}"
    barrier = threading.Barrier(12)
    answers: list[tuple[int, dict]] = []
    lock = threading.Lock()

    def join(n: int) -> None:
        client = Client(four_workers)
        client.get("/healthz")  # connected before the barrier, so that the joins leave together
        barrier.wait()
        reply = client.post(f"{path}/join", {"invite": created["invite"], "name": f"P{n}"})
        with lock:
            answers.append((reply.status, reply.json))

    threads = [threading.Thread(target=join, args=(n,)) for n in range(12)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    won = [a for status, a in answers if status == 201]
    assert sorted(a["seat"] for a in won) == [1, 2, 3]
    assert sorted(a["code"] for status, a in answers if status != 201) == ["no_open_seat"] * 9
    view = setup.get(path).json
    assert view["status"] == "active" and all(s["kind"] == "human" for s in view["seats"])
    for a in won:
        assert setup.get(path, token=a["token"]).json["seat"] == a["seat"]
    log = setup.get(f"{path}/log").json["entries"]
    claimed = [e["events"][0]["seat"] for e in log if e["move"] is None]
    assert sorted(claimed) == [1, 2, 3]  # one entry per seat claimed, none twice
    assert [view["seats"][a["seat"]]["name"] for a in sorted(won, key=lambda a: a["seat"])] == [
        e["events"][0]["name"] for e in sorted(log[:3], key=lambda e: e["events"][0]["seat"])]
    assert [e["type"] for e in log[2]["events"]] == ["seat_taken", "game_started"]
    raw = json.loads(redis.Redis.from_url(redis_server.url).hget(f"cardtable:game:{{{created['game_id']}}}", "s"))
    assert len({s["hash"] for s in raw["seats"]}) == 4


def test_a_game_that_waited_exports_and_replays(client: FlaskClient) -> None:
    created = client.post("/v1/sten/games", json={"players": 2, "seats": [{"name": "Ann"}, {"open": True}]}).json
    path = f"/v1/sten/games/{created['game_id']}"
    token = created["seats"][0]["token"]
    view = client.post(f"{path}/start", headers=auth(token)).json
    rng = random.Random("waited")
    for _ in range(500):
        if view["status"] == "finished":
            break
        move = view["legal_moves"][rng.randrange(len(view["legal_moves"]))]
        view = client.post(f"{path}/moves", json={"version": view["version"], "move": move}, headers=auth(token)).json
    assert view["status"] == "finished"
    export = client.get(f"{path}/export").json
    assert export["entries"][0]["move"] is None
    assert replay(export).ok, replay(export).summary()
    positions = client.get(f"{path}/positions?limit=3").json["positions"]
    assert positions[0]["view"]["state"] == positions[1]["view"]["state"]  # the start moved no card


def test_a_stream_sees_people_sit_down_and_ends_when_the_game_is_called_off(four_workers) -> None:
    from tests.sse import EventStream

    setup = Client(four_workers)
    seats = [{"name": "Ann"}, {"open": True}, {"open": True}]
    created = setup.post("/v1/sten/games", {"players": 3, "seats": seats}).json
    path = f"/v1/sten/games/{created['game_id']}"
    stream = EventStream(four_workers, f"{path}/events", token=created["seats"][0]["token"])
    try:
        assert stream.status == 200
        assert setup.post(f"{path}/join", {"invite": created["invite"], "name": "Bo"}).status == 201
        assert setup.post(f"{path}/abort", {}, token=created["seats"][0]["token"]).status == 200
        entries, end = stream.entries_until_end(20)
    finally:
        stream.close()
    assert [e["events"][0]["type"] for e in entries] == ["seat_taken", "game_aborted"]
    assert end is not None and end.json == {"version": 2}
