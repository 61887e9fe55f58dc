"""Time and leaving over HTTP on a real Redis: clocks on create and in views, a passed deadline applied by
the next request that loads the game (whatever it is), a late move refused, each timeout policy, resigning,
a replaced seat's token, rematch and lookup keeping the clock, retention. The deadlines that fire with no
request at all are tests/service/test_deadlines.py's.
"""

from __future__ import annotations

import json
import time
from datetime import datetime

import pytest
import redis
from flask.testing import FlaskClient

from engines.replay import replay
from tests.service.test_api import assert_problem, auth

PER_MOVE_1S = {"kind": "per_move", "seconds": 1}
#: Seconds to wait for a 1 s deadline to have passed.
PAST_1S = 1.2


def _create(client: FlaskClient, players: int = 2, clock: dict | None = None, **body) -> dict:
    if clock is not None:
        body["clock"] = clock
    r = client.post("/v1/sten/games", json={"players": players, **body})
    assert r.status_code == 201, r.json
    return r.json


def _with_the_seat_to_move(client: FlaskClient, players: int, clock: dict) -> tuple[dict, str, int]:
    """A new game on ``clock``: what create answered, the game's id, and the seat whose time runs first."""
    created = _create(client, players, clock)
    game_id = created["game_id"]
    return created, game_id, _view(client, game_id)["to_move"][0]


def _view(client: FlaskClient, game_id: str, token: str | None = None) -> dict:
    r = client.get(f"/v1/sten/games/{game_id}", headers=auth(token) if token else {})
    assert r.status_code == 200, r.json
    return r.json


def _entries(client: FlaskClient, game_id: str) -> list[dict]:
    return client.get(f"/v1/sten/games/{game_id}/log").json["entries"]


def _record(redis_server, game_id: str) -> dict:
    return json.loads(redis.Redis.from_url(redis_server.url).hget(f"cardtable:game:{{{game_id}}}", "s"))


def _ms(at: str) -> int:
    return int(datetime.fromisoformat(at.replace("Z", "+00:00")).timestamp() * 1000)


@pytest.mark.parametrize(("clock", "field"), [
    ({"kind": "sandglass", "seconds": 5}, "kind"),
    ({"kind": "per_move"}, "seconds"),
    ({"kind": "per_move", "seconds": 0}, "seconds"),
    ({"kind": "per_move", "seconds": 10 ** 9}, "seconds"),
    ({"kind": "per_move", "seconds": 5, "initial_seconds": 60}, "initial_seconds"),
    ({"kind": "fischer", "increment_seconds": 2}, "initial_seconds"),
    ({"kind": "fischer", "initial_seconds": 60, "increment_seconds": 99999}, "increment_seconds"),
    ({"kind": "fischer", "initial_seconds": 60, "on_timeout": "shrug"}, "on_timeout"),
    ({"kind": "fischer", "initial_seconds": 60, "max_timeouts": 0}, "max_timeouts"),
    ({"kind": "fischer", "initial_seconds": 60, "tempo": 1}, "tempo"),
])
def test_a_clock_out_of_bounds_or_of_the_wrong_kind_is_refused_naming_the_field(client: FlaskClient, clock: dict,
                                                                                field: str) -> None:
    r = client.post("/v1/sten/games", json={"players": 2, "clock": clock})
    body = assert_problem(r, 422, "validation_error")
    assert field in body["errors"]["clock"]


def test_views_show_each_persons_clock_and_the_absolute_deadline_and_bots_have_none(client: FlaskClient,
                                                                                    redis_server) -> None:
    created = _create(client, 3, {"kind": "fischer", "initial_seconds": 60, "increment_seconds": 5},
                      seats=[{"name": "Ann"}, {"name": "Bo"}, {"bot": "greedy"}])
    view = _view(client, created["game_id"])
    to_move = view["to_move"][0]
    clocks = [s["clock"] for s in view["seats"]]
    assert clocks[2] is None  # a bot
    assert clocks[to_move]["running"] and 58_000 < clocks[to_move]["remaining_ms"] <= 60_000
    other = 1 - to_move
    assert clocks[other] == {"remaining_ms": 60_000, "running": False}
    deadline = _ms(view["deadline"])
    assert deadline - _ms(view["server_time"]) == pytest.approx(clocks[to_move]["remaining_ms"], abs=5)
    record = _record(redis_server, created["game_id"])
    assert record["running"] == {str(to_move): deadline}  # an absolute time in the record, never "time left"
    assert record["clock"] == {"kind": "fischer", "initial_seconds": 60, "increment_seconds": 5,
                               "on_timeout": "bot", "max_timeouts": 3}


def test_a_game_without_a_clock_shows_none_and_no_deadline(client: FlaskClient) -> None:
    view = _view(client, _create(client)["game_id"])
    assert view["deadline"] is None and all(s["clock"] is None for s in view["seats"])


def test_a_fischer_bank_keeps_what_was_left_plus_the_increment_when_the_turn_ends(client: FlaskClient) -> None:
    created = _create(client, 2, {"kind": "fischer", "initial_seconds": 30, "increment_seconds": 10})
    game_id = created["game_id"]
    view = _view(client, game_id)
    mover = view["to_move"][0]
    token = created["seats"][mover]["token"]
    mine = _view(client, game_id, token)
    time.sleep(0.3)
    r = client.post(f"/v1/sten/games/{game_id}/moves", json={"move": mine["legal_moves"][0]}, headers=auth(token))
    assert r.status_code == 200, r.json
    after = r.json
    if mover in after["to_move"]:
        pytest.skip("the deal left the mover to move again")
    bank = after["seats"][mover]["clock"]
    assert not bank["running"] and 39_000 < bank["remaining_ms"] < 39_800  # 30 s - 0.3 s + 10 s


def test_a_waiting_games_clock_does_not_run_until_it_starts(client: FlaskClient) -> None:
    created = _create(client, 2, PER_MOVE_1S, seats=[{"name": "Ann"}, {"open": True}])
    game_id = created["game_id"]
    time.sleep(PAST_1S)
    view = _view(client, game_id)
    assert view["status"] == "waiting" and view["deadline"] is None and view["version"] == 0
    r = client.post(f"/v1/sten/games/{game_id}/join", json={"invite": created["invite"], "name": "Bo"})
    assert r.status_code == 201
    started = _view(client, game_id)
    assert started["status"] == "active" and started["deadline"] is not None
    assert _ms(started["deadline"]) - _ms(started["server_time"]) > 500


def test_a_passed_deadline_is_applied_by_the_next_request_before_it_answers_bot_plays_the_turn(
        client: FlaskClient) -> None:
    _, game_id, late = _with_the_seat_to_move(client, 2, PER_MOVE_1S)
    time.sleep(PAST_1S)
    r = client.get(f"/v1/sten/games/{game_id}/log")  # a log read is a request that loads the game too
    entries = r.json["entries"]
    assert entries[0]["move"] is None and entries[0]["seat"] == late
    assert entries[0]["events"] == [{"type": "timed_out", "seat": late, "outcome": "bot_moves"}]
    assert entries[1]["seat"] == late and entries[1]["bot"] is True and entries[1]["move"] is not None
    view = _view(client, game_id)
    assert view["seats"][late]["status"] == "playing" and view["seats"][late]["kind"] == "human"
    assert late not in view["to_move"] or view["version"] > 2


@pytest.mark.parametrize("route", ["moves", "moves/check"])
def test_a_move_or_check_after_the_deadline_applies_it_first_and_answers_409_deadline_passed(
        client: FlaskClient, route: str) -> None:
    created, game_id, late = _with_the_seat_to_move(client, 2, PER_MOVE_1S)
    token = created["seats"][late]["token"]
    move = _view(client, game_id, token)["legal_moves"][0]
    time.sleep(PAST_1S)
    r = client.post(f"/v1/sten/games/{game_id}/{route}", json={"move": move}, headers=auth(token))
    assert_problem(r, 409, "deadline_passed")
    entries = _entries(client, game_id)
    assert entries[0]["events"][0]["type"] == "timed_out"
    assert all(e["bot"] for e in entries if e["seat"] == late and e["move"] is not None)  # only the bot's move


def test_after_max_timeouts_in_a_row_the_seat_is_replaced_by_a_bot_for_the_rest_of_the_game(
        client: FlaskClient) -> None:
    created, game_id, late = _with_the_seat_to_move(client, 2, {**PER_MOVE_1S, "max_timeouts": 1})
    token = created["seats"][late]["token"]
    move = _view(client, game_id, token)["legal_moves"][0]
    time.sleep(PAST_1S)
    view = _view(client, game_id, token)  # the replaced seat's token still reads its view
    seat = view["seats"][late]
    assert (seat["status"], seat["kind"], seat["replaced_because"], seat["clock"]) == (
        "replaced", "bot", "timed_out", None)
    assert view["seat"] == late
    assert _entries(client, game_id)[0]["events"][0]["outcome"] == "replaced"
    r = client.post(f"/v1/sten/games/{game_id}/moves", json={"move": move}, headers=auth(token))
    assert_problem(r, 409, "seat_replaced")
    assert_problem(client.post(f"/v1/sten/games/{game_id}/resign", headers=auth(token)), 409, "seat_replaced")


def test_forfeit_ends_a_two_player_game_as_a_timeout_that_the_seat_loses(client: FlaskClient) -> None:
    _, game_id, late = _with_the_seat_to_move(client, 2, {**PER_MOVE_1S, "on_timeout": "forfeit"})
    time.sleep(PAST_1S)
    view = _view(client, game_id)
    assert view["status"] == "finished" and view["deadline"] is None
    result = view["result"]
    assert (result["termination"], result["losers"], result["winners"], result["ranking"], result["forfeited"]) == (
        "timeout", [late], [1 - late], [[1 - late], [late]], [late])
    assert _entries(client, game_id)[-1]["events"] == [{"type": "timed_out", "seat": late, "outcome": "lost"}]


def test_forfeit_in_a_larger_game_hands_the_seat_to_a_bot_listed_as_forfeited(client: FlaskClient) -> None:
    _, game_id, late = _with_the_seat_to_move(client, 3, {**PER_MOVE_1S, "on_timeout": "forfeit"})
    time.sleep(PAST_1S)
    view = _view(client, game_id)
    assert view["seats"][late]["status"] == "replaced" and view["seats"][late]["replaced_because"] == "timed_out"
    assert view["status"] == "active"


def test_resigning_a_two_player_game_ends_it_and_the_seat_loses(client: FlaskClient) -> None:
    created = _create(client, 2, PER_MOVE_1S | {"seconds": 60})
    game_id = created["game_id"]
    token = created["seats"][1]["token"]
    r = client.post(f"/v1/sten/games/{game_id}/resign", headers=auth(token))
    assert r.status_code == 200, r.json
    result = r.json["result"]
    assert (result["termination"], result["losers"], result["ranking"], result["forfeited"]) == (
        "resignation", [1], [[0], [1]], [1])
    assert r.json["entries"][0]["events"] == [{"type": "resigned", "seat": 1, "outcome": "lost"}]
    assert_problem(client.post(f"/v1/sten/games/{game_id}/resign", headers=auth(token)), 409, "game_over")


def test_resigning_a_larger_game_hands_the_seat_to_a_bot_ranked_last_at_the_end(client: FlaskClient) -> None:
    created = _create(client, 3, seats=[{"name": "Ann"}, {"bot": "greedy"}, {"bot": "greedy"}])
    game_id = created["game_id"]
    token = created["seats"][0]["token"]
    r = client.post(f"/v1/sten/games/{game_id}/resign", headers=auth(token))
    assert r.status_code == 200, r.json
    answer = r.json
    assert answer["seats"][0]["status"] == "replaced" and answer["seats"][0]["replaced_because"] == "resigned"
    assert answer["seats"][0]["name"] == "Ann"
    # every seat is a bot's now: they play the game out in the same request
    assert answer["status"] == "finished", answer["status"]
    result = answer["result"]
    assert result["forfeited"] == [0] and result["ranking"][-1] == [0] and 0 not in result["winners"]
    assert answer["entries"][0]["events"] == [{"type": "resigned", "seat": 0, "outcome": "replaced"}]


def test_resign_with_an_idempotency_key_answers_a_retry_as_the_first(client: FlaskClient) -> None:
    created = _create(client, 2)
    game_id = created["game_id"]
    headers = {**auth(created["seats"][0]["token"]), "Idempotency-Key": "resign-once"}
    first = client.post(f"/v1/sten/games/{game_id}/resign", headers=headers)
    again = client.post(f"/v1/sten/games/{game_id}/resign", headers=headers)
    assert first.status_code == again.status_code == 200
    assert again.headers["Idempotent-Replayed"] == "true" and again.json["version"] == first.json["version"]


def test_resign_needs_a_seat_token_and_a_started_game(client: FlaskClient) -> None:
    created = _create(client, 2, seats=[{"name": "Ann"}, {"open": True}])
    game_id = created["game_id"]
    assert_problem(client.post(f"/v1/sten/games/{game_id}/resign"), 401, "unauthorized")
    assert_problem(client.post(f"/v1/sten/games/{game_id}/resign", headers=auth(created["seats"][0]["token"])),
                   409, "game_not_started")


def test_a_timeout_is_a_table_entry_then_normal_moves_that_a_replay_passes_over(client: FlaskClient) -> None:
    created = _create(client, 2, {**PER_MOVE_1S, "max_timeouts": 1})
    game_id = created["game_id"]
    time.sleep(PAST_1S)
    view = _view(client, game_id)  # one seat replaced: the bots play it out against the other person
    while view["status"] == "active":
        mover = view["to_move"][0]
        token = created["seats"][mover]["token"]
        mine = _view(client, game_id, token)
        r = client.post(f"/v1/sten/games/{game_id}/moves", json={"move": mine["legal_moves"][0]},
                        headers=auth(token))
        assert r.status_code == 200, r.json
        view = r.json
    export = client.get(f"/v1/sten/games/{game_id}/export").json
    replayed = replay(export)
    assert replayed.ok and replayed.result == view["result"], replayed.summary()


def test_rematch_keeps_the_clock_and_lookup_names_the_seats_deadline(client: FlaskClient) -> None:
    clock = {"kind": "fischer", "initial_seconds": 90, "increment_seconds": 2, "on_timeout": "forfeit"}
    created = _create(client, 2, clock)
    game_id = created["game_id"]
    tokens = [s["token"] for s in created["seats"]]
    found = client.post("/v1/games/lookup", json={"tokens": tokens}).json["games"]
    view = _view(client, game_id)
    mover = view["to_move"][0]
    assert found[mover]["deadline"] == view["deadline"] and found[1 - mover]["deadline"] is None
    assert client.post(f"/v1/sten/games/{game_id}/resign", headers=auth(tokens[0])).status_code == 200
    next_id = client.post(f"/v1/sten/games/{game_id}/rematch", headers=auth(tokens[0])).json["game_id"]
    nxt = _view(client, next_id)
    assert nxt["status"] == "waiting" and nxt["deadline"] is None
    assert [s["clock"] for s in nxt["seats"]][1] == {"remaining_ms": 90_000, "running": False}


def test_an_active_game_idle_past_the_limit_ends_abandoned(redis_server) -> None:
    from service.app import create_app
    from service.config import Settings

    app = create_app(Settings(redis_url=redis_server.url, allow_fixed_deals=True, store_timeout=5.0,
                              idle_days=1.0 / 86400, request_log=False))  # a second
    client = app.test_client()
    created = _create(client, 2)
    time.sleep(PAST_1S)
    view = _view(client, created["game_id"])
    assert view["status"] == "finished"
    assert (view["result"]["termination"], view["result"]["winners"]) == ("abandoned", [])
    entry = _entries(client, created["game_id"])[-1]
    assert (entry["seat"], entry["move"], entry["events"]) == (None, None, [{"type": "game_abandoned"}])


def test_a_finished_game_is_kept_finished_days_and_an_active_one_the_game_ttl(redis_server) -> None:
    from service.app import create_app
    from service.config import Settings

    app = create_app(Settings(redis_url=redis_server.url, allow_fixed_deals=True, store_timeout=5.0,
                              finished_days=2.0, request_log=False))
    client = app.test_client()
    created = _create(client, 2)
    key = f"cardtable:game:{{{created['game_id']}}}"
    r = redis.Redis.from_url(redis_server.url)
    assert r.ttl(key) > 6 * 86400
    client.post(f"/v1/sten/games/{created['game_id']}/resign", headers=auth(created["seats"][0]["token"]))
    assert 2 * 86400 - 60 < r.ttl(key) <= 2 * 86400


def test_resign_is_counted_by_the_seats_rate_limit(redis_server) -> None:
    from service.app import create_app
    from service.config import Settings

    app = create_app(Settings(redis_url=redis_server.url, allow_fixed_deals=True, store_timeout=5.0,
                              rate_limit="3/m", request_log=False))
    client = app.test_client()
    created = client.post("/v1/sten/games", json={"players": 2}, environ_base={"REMOTE_ADDR": "10.9.8.7"}).json
    headers = auth(created["seats"][0]["token"])
    codes = [client.post(f"/v1/sten/games/{created['game_id']}/resign", headers=headers,
                         environ_base={"REMOTE_ADDR": f"10.9.8.{n}"}).status_code for n in range(5)]
    assert codes == [200, 409, 409, 429, 429]


def test_a_game_stored_before_clocks_loads_without_one_and_keeps_playing(client: FlaskClient, redis_server) -> None:
    created = _create(client, 2)
    game_id = created["game_id"]
    r = redis.Redis.from_url(redis_server.url)
    key = f"cardtable:game:{{{game_id}}}"
    record = _record(redis_server, game_id)
    for name in ("clock", "clocks", "running", "idle_at", "due"):
        del record[name]
    r.hset(key, "s", json.dumps({**record, "schema": 4}))  # as the release before clocks wrote it
    view = _view(client, game_id)
    assert view["deadline"] is None and all(s["clock"] is None for s in view["seats"])
    mover = view["to_move"][0]
    token = created["seats"][mover]["token"]
    move = _view(client, game_id, token)["legal_moves"][0]
    moved = client.post(f"/v1/sten/games/{game_id}/moves", json={"move": move}, headers=auth(token))
    assert moved.status_code == 200, moved.json
    assert _record(redis_server, game_id)["schema"] == 5


def test_the_positions_of_a_resigned_game_show_it_running_until_the_resignation(client: FlaskClient) -> None:
    created = _create(client, 2, seats=[{"name": "Ann"}, {"bot": "greedy"}])
    game_id = created["game_id"]
    token = created["seats"][0]["token"]
    mine = _view(client, game_id, token)
    moved = client.post(f"/v1/sten/games/{game_id}/moves", json={"move": mine["legal_moves"][0]}, headers=auth(token))
    assert moved.status_code == 200
    assert client.post(f"/v1/sten/games/{game_id}/resign", headers=auth(token)).status_code == 200
    positions = client.get(f"/v1/sten/games/{game_id}/positions").json["positions"]
    assert [p["view"]["status"] for p in positions] == ["active"] * (len(positions) - 1) + ["finished"]
    assert positions[-1]["view"]["result"]["termination"] == "resignation"
