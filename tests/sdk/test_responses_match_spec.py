"""Real responses match the committed spec: every body the service sends validates against the schema
openapi/openapi.json declares for that operation, status and media type.

For every game in ``engines.REGISTRY``, a game is played to its end (short-match options, all seats
human, random listed moves) through the Flask app on a real redis-server, and each create (201), view
(200, seat and spectator), move (200), log (200), export (200; its 304 has none) and positions (200) body is validated,
as are problem+json errors of each kind a client can provoke: 400, 401, 403, 404, 409 (stale_version,
not_your_turn, game_over, game_not_finished), 413, 422 (validation_error) and 503 (store down). The
people at a table too: seats on create, the lobby, join, start, abort (a waiting game's views and a
called-off result), lookup and rematch, with their errors (bad_invite, no_open_seat, game_not_waiting).

Validator: openapi-schema-validator's ``OAS30ReadValidator`` (it comes with openapi-spec-validator, a test
extra already). Plain jsonschema would misread an OpenAPI 3.0 schema: it ignores ``nullable`` (so every
legitimate null would fail) and the ``discriminator``; openapi-core would add a dependency and a request
router for what is, here, a lookup of one schema. The whole spec is one ``referencing`` resource, so each
schema is validated by its JSON pointer into the spec and its ``$ref``s resolve inside it -- nothing is
copied or rewritten.
"""

from __future__ import annotations

import json
import random
import time
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from openapi_schema_validator import OAS30ReadValidator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT4

from engines import REGISTRY
from service.app import create_app
from service.config import Settings
from tests.playout import short_options
from tests.sdk.tools import SPEC
from tests.servers import RedisServer, free_port

SPEC_URI = "urn:cardtable:openapi"
MAX_TURNS = 200  # the `max_turns` safety cap, where a game has one: a random game may wander long
MAX_MOVES = 1_000
MAX_SECONDS = 30.0


def _pointer(*parts: str) -> str:
    return "/".join(p.replace("~", "~0").replace("/", "~1") for p in parts)


class SpecChecker:
    """Looks up the documented response of (method, path template, status) and validates bodies."""

    def __init__(self, spec: dict[str, Any]) -> None:
        self.spec = spec
        resource = Resource.from_contents(spec, default_specification=DRAFT4)
        self.registry: Registry = Registry().with_resource(SPEC_URI, resource)
        self._problems: dict[str, tuple[str, int]] = {}  # one entry per kind of mismatch: (example, count)
        self.checked: dict[tuple[str, str], set[int]] = {}  # (method, path) -> statuses validated

    @property
    def problems(self) -> list[str]:
        return [f"{example} (x{count})" if count > 1 else example for example, count in self._problems.values()]

    def _problem(self, key: str, example: str) -> None:
        first, count = self._problems.get(key, (example, 0))
        self._problems[key] = (first, count + 1)

    def check(self, method: str, path: str, reply: Any) -> Any:
        """Validate ``reply`` (a werkzeug test response) of ``method path`` (a spec path template)."""
        status = str(reply.status_code)
        where = f"{method.upper()} {path} -> {status}"
        op = self.spec["paths"].get(path, {}).get(method)
        if op is None:
            self._problem(where, f"{where}: the spec has no such operation")
            return None
        responses = op["responses"]
        if status not in responses:
            self._problem(where, f"{where} ({op['operationId']}): status not documented "
                                 f"(documented: {sorted(responses)}); body {reply.get_data(as_text=True)[:300]}")
            return None
        response = responses[status]
        base = ["paths", path, method, "responses", status]
        if "$ref" in response:
            base = response["$ref"].lstrip("#/").split("/")
            response = self.spec["components"]["responses"][base[-1]]
        media = reply.mimetype
        content = response.get("content", {})
        if not content:
            if reply.get_data():
                self._problem(where, f"{where}: documented without a body, but one was sent")
            return None
        if media not in content:
            self._problem(where, f"{where} ({op['operationId']}): sent {media}, documented {sorted(content)}")
            return None
        body = reply.get_json(force=True)
        ref = SPEC_URI + "#/" + _pointer(*base, "content", media, "schema")
        validator = OAS30ReadValidator({"$ref": ref}, registry=self.registry)
        for error in validator.iter_errors(body):
            at = "/".join(str(p) for p in error.absolute_path) or "(body)"
            value = json.dumps(error.instance)[:200]
            causes = "; ".join(sorted({c.message[:160] for c in error.context}))[:600]
            schema_at = "/".join(str(p) for p in error.absolute_schema_path)
            self._problem(f"{where} {schema_at} {error.validator}",
                          f"{where} ({op['operationId']}) at {at}: {error.message[:300]} [sent {value}]"
                          + (f" [{causes}]" if causes else ""))
        self.checked.setdefault((method, path), set()).add(reply.status_code)
        return body


@pytest.fixture(scope="module")
def spec() -> dict[str, Any]:
    return json.loads(SPEC.read_text())  # type: ignore[no-any-return]


@pytest.fixture()
def checker(spec: dict[str, Any]) -> SpecChecker:
    return SpecChecker(spec)


def _paths(game: str) -> tuple[str, str, str, str]:
    base = f"/v1/{game}/games"
    return base, base + "/{game_id}", base + "/{game_id}/moves", base + "/{game_id}/log"


def _quick_options(engine: Any) -> dict[str, Any]:
    """Short-match options (tests/playout.py), and a low ``max_turns`` cap where the game has one."""
    options = short_options(engine)
    cap = next((o for o in engine.options if o.name == "max_turns"), None)
    if cap is not None and cap.check(MAX_TURNS) is None and (cap.default is None or cap.default > MAX_TURNS):
        options["max_turns"] = MAX_TURNS
    return options


def _auth(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


def test_service_routes_match_the_spec(sdk_app: Flask, checker: SpecChecker) -> None:
    client = sdk_app.test_client()
    for path in ("/v1/games", "/healthz", "/readyz"):
        checker.check("get", path, client.get(path))
    assert not checker.problems, "\n".join(checker.problems)


@pytest.mark.parametrize("game", sorted(REGISTRY))
def test_a_game_and_its_errors_match_the_spec(game: str, sdk_app: Flask, checker: SpecChecker) -> None:
    engine = REGISTRY[game]
    create, view, moves, log = _paths(game)
    assert create in checker.spec["paths"], (
        f"the committed spec lacks {create}: run `cardtable openapi -o openapi/openapi.json`")
    client: FlaskClient = sdk_app.test_client()
    players = engine.players.start
    body = {"players": players, "options": _quick_options(engine), "seed": f"spec-check-{game}"}
    reply = client.post(create, json=body)
    assert reply.status_code == 201, reply.get_data(as_text=True)
    created = checker.check("post", create, reply)
    gid = created["game_id"]
    tokens = {s["seat"]: s["token"] for s in created["seats"]}
    url = f"{create}/{gid}"

    # Errors before any move.
    checker.check("post", create, client.post(create, data=b"{not json", content_type="application/json"))
    checker.check("post", create, client.post(create, json={"players": "many"}))
    checker.check("post", create, client.post(create, data=b'{"players": 2, "x": "' + b"a" * 70_000 + b'"}',
                                              content_type="application/json"))
    checker.check("get", view, client.get(f"{create}/nonexistent-game-id"))
    checker.check("get", log, client.get(f"{create}/nonexistent-game-id/log"))
    checker.check("get", view, client.get(url, headers=_auth("not-a-token")))
    checker.check("get", log, client.get(f"{url}/log", headers=_auth("not-a-token")))
    exported, positions = view + "/export", view + "/positions"
    for path, route in ((exported, "export"), (positions, "positions")):
        checker.check("get", path, client.get(f"{url}/{route}"))  # 409: the game runs
        checker.check("get", path, client.get(f"{create}/nonexistent-game-id/{route}"))
        checker.check("get", path, client.get(f"{url}/{route}", headers=_auth("not-a-token")))
    first = client.get(url).get_json()  # the spectator view
    mover = first["to_move"][0]
    idle = next((s for s in tokens if s not in first["to_move"]), None)
    mover_view = checker.check("get", view, client.get(url, headers=_auth(tokens[mover])))
    legal = mover_view["legal_moves"][0]
    # A well-formed move, so that the body's validation (which comes first) passes.
    checker.check("post", moves, client.post(f"{url}/moves", json={"move": legal}))  # no token: 401
    checker.check("post", moves, client.post(f"{url}/moves", json={"move": legal}, headers=_auth("not-a-token")))
    checker.check("post", moves, client.post(f"{create}/nonexistent-game-id/moves", json={"move": legal},
                                             headers=_auth(tokens[mover])))
    checker.check("post", moves, client.post(f"{url}/moves", data=b"[1, 2", content_type="application/json",
                                             headers=_auth(tokens[mover])))
    checker.check("post", moves, client.post(f"{url}/moves", json={"move": {"type": "no_such_move"}},
                                             headers=_auth(tokens[mover])))
    checker.check("post", moves, client.post(f"{url}/moves", json={"version": 0, "move": legal, "extra": 1},
                                             headers=_auth(tokens[mover])))
    stale = client.post(f"{url}/moves", json={"version": 99, "move": legal},
                        headers=_auth(tokens[mover]))
    assert stale.status_code == 409, stale.get_data(as_text=True)
    checker.check("post", moves, stale)
    if idle is not None:
        other = client.post(f"{url}/moves", json={"move": legal}, headers=_auth(tokens[idle]))
        assert other.status_code in (409, 422), other.get_data(as_text=True)
        checker.check("post", moves, other)

    # The game, to its end.
    rng = random.Random(f"spec-check/{game}")
    deadline = time.monotonic() + MAX_SECONDS
    current = first
    for step in range(MAX_MOVES):
        if current["status"] == "finished":
            break
        assert time.monotonic() < deadline, f"{game}: not over after {MAX_SECONDS}s ({step} moves)"
        seat = rng.choice(current["to_move"])
        mine = checker.check("get", view, client.get(url, headers=_auth(tokens[seat])))
        assert mine["legal_moves"], f"{game}: seat {seat} is to move but has no legal move"
        move = rng.choice(mine["legal_moves"])
        reply = client.post(f"{url}/moves", json={"version": mine["version"], "move": move},
                            headers=_auth(tokens[seat]))
        assert reply.status_code == 200, (move, reply.get_data(as_text=True))
        checker.check("post", moves, reply)
        current = client.get(url).get_json()  # the spectator view says who is to move
        if step % 10 == 0:
            checker.check("get", view, client.get(url))
            checker.check("get", log, client.get(f"{url}/log", headers=_auth(tokens[seat])))
    else:
        raise AssertionError(f"{game}: no end after {MAX_MOVES} moves")

    # The end: views with a result, the whole log, and game_over.
    for seat, token in tokens.items():
        end = checker.check("get", view, client.get(url, headers=_auth(token)))
        assert end["status"] == "finished" and end["result"] is not None and end["seat"] == seat
    checker.check("get", view, client.get(url))
    checker.check("get", log, client.get(f"{url}/log"))
    checker.check("get", log, client.get(f"{url}/log", headers=_auth(tokens[0])))
    over = client.post(f"{url}/moves", json={"move": legal}, headers=_auth(tokens[0]))
    assert over.status_code == 409, over.get_data(as_text=True)
    checker.check("post", moves, over)
    whole = client.get(f"{url}/export")
    checker.check("get", exported, whole)
    checker.check("get", exported, client.get(f"{url}/export", headers={"If-None-Match": whole.headers["ETag"]}))
    start: int | None = 0
    while start is not None:
        start = checker.check("get", positions, client.get(f"{url}/positions?start={start}&limit=100"))["next_start"]
    checker.check("get", positions, client.get(f"{url}/positions?limit=0"))

    assert not checker.problems, f"{len(checker.problems)} mismatch(es):\n" + "\n".join(checker.problems)
    assert checker.checked == {
        ("post", create): {201, 400, 413, 422},
        ("get", view): {200, 401, 404},
        ("post", moves): {200, 400, 401, 404, 409, 422},
        ("get", log): {200, 401, 404},
        ("get", exported): {200, 401, 404, 409},  # and the 304, documented without a body
        ("get", positions): {200, 401, 404, 409, 422},
    }, "a response kind was not provoked, or came back with another status"


@pytest.mark.parametrize("game", sorted(REGISTRY))
def test_the_people_at_a_table_and_their_errors_match_the_spec(game: str, sdk_app: Flask,
                                                                checker: SpecChecker) -> None:
    """Seats on create, the lobby, join, start and abort (a waiting game's views, its entries of the table,
    a called-off result), lookup, a rematch asked too early, and each of their errors."""
    engine = REGISTRY[game]
    create, view, _, log = _paths(game)
    join, start, abort, rematch = (f"{create}/{{game_id}}/{r}" for r in ("join", "start", "abort", "rematch"))
    lookup = "/v1/games/lookup"
    client: FlaskClient = sdk_app.test_client()
    players = engine.players.stop - 1
    seats = [{"name": "Ann"}, {"bot": "random", "name": "Robo"}] + [{"open": True}] * (players - 2)
    if players == 2:
        seats = [{"name": "Ann"}, {"open": True}]
    games = []
    for _ in range(2):
        reply = client.post(create, json={"players": players, "seats": seats, "listed": True,
                                          "options": _quick_options(engine)})
        games.append(checker.check("post", create, reply))
    first, second = games
    url = f"{create}/{first['game_id']}"
    ann = _auth(first["seats"][0]["token"])
    checker.check("post", create, client.post(create, json={"players": players, "seats": [{"name": "\u202e"}]}))
    checker.check("get", create, client.get(f"{create}?status=waiting&limit=50"))
    checker.check("get", create, client.get(f"{create}?status=active"))
    checker.check("get", view, client.get(url, headers=ann))  # waiting
    # join: a bad invite, a bad name, a taken seat, no such game, not JSON; then a seat claimed
    checker.check("post", join, client.post(f"{url}/join", json={"name": "Bo", "invite": "wrong"}))
    checker.check("post", join, client.post(f"{url}/join", json={"name": "", "invite": first["invite"]}))
    checker.check("post", join, client.post(f"{url}/join", json={"name": "Bo", "invite": first["invite"], "seat": 0}))
    checker.check("post", join, client.post(f"{create}/nonexistent-game-id/join", json={"name": "Bo"}))
    checker.check("post", join, client.post(f"{url}/join", data=b"{", content_type="application/json"))
    bo = checker.check("post", join, client.post(f"{url}/join", json={"name": "Bo", "invite": first["invite"]}))
    checker.check("get", log, client.get(f"{url}/log", headers=_auth(bo["token"])))
    # lookup: a seat, made-up tokens; too many
    checker.check("post", lookup, client.post(lookup, json={"tokens": [bo["token"], "made-up"]}))
    checker.check("post", lookup, client.post(lookup, json={"tokens": ["x"] * 51}))
    checker.check("post", lookup, client.post(lookup, data=b"tokens", content_type="application/json"))
    # start and abort: without a token, the game started, a game called off
    checker.check("post", start, client.post(f"{url}/start"))
    if players > 2:  # an open seat is left
        checker.check("post", start, client.post(f"{url}/start", headers=ann))  # bots take the open seats
    checker.check("post", start, client.post(f"{url}/start", headers=ann))  # 409: started
    checker.check("post", abort, client.post(f"{url}/abort", headers=ann))  # 409: started
    checker.check("get", view, client.get(url))  # running
    second_url = f"{create}/{second['game_id']}"
    checker.check("post", abort, client.post(f"{second_url}/abort", headers=_auth(second["seats"][0]["token"])))
    checker.check("get", view, client.get(second_url))  # called off: its result's detail is null
    checker.check("get", log, client.get(f"{second_url}/log"))
    # a rematch: of a running game, of a game called off, without a seat
    checker.check("post", rematch, client.post(f"{url}/rematch", headers=ann))
    checker.check("post", rematch, client.post(f"{second_url}/rematch", headers=_auth(second["seats"][0]["token"])))
    checker.check("post", rematch, client.post(f"{url}/rematch"))
    checker.check("post", rematch, client.post(f"{create}/nonexistent-game-id/rematch", headers=ann))

    assert not checker.problems, f"{len(checker.problems)} mismatch(es):\n" + "\n".join(checker.problems)
    assert checker.checked[("post", join)] == {201, 400, 403, 404, 409, 422}
    assert checker.checked[("post", start)] >= {401, 409} and checker.checked[("post", abort)] == {200, 409}
    assert checker.checked[("post", rematch)] == {401, 404, 409}
    assert checker.checked[("post", lookup)] == {200, 400, 422}
    assert checker.checked[("get", create)] == {200, 422}


def test_a_rematch_matches_the_spec(sdk_app: Flask, checker: SpecChecker) -> None:
    create, view, _, _ = _paths("sten")
    client: FlaskClient = sdk_app.test_client()
    created = checker.check("post", create, client.post(create, json={
        "players": 2, "seats": [{"name": "Ann"}, {"name": "Bo"}], "options": {"max_turns": MAX_TURNS}}))
    url = f"{create}/{created['game_id']}"
    tokens = [s["token"] for s in created["seats"]]
    rng = random.Random("spec-rematch")
    while (spectator := client.get(url).json)["status"] != "finished":
        seat = spectator["to_move"][0]
        legal = client.get(url, headers=_auth(tokens[seat])).json["legal_moves"]
        client.post(f"{url}/moves", json={"move": legal[rng.randrange(len(legal))]}, headers=_auth(tokens[seat]))
    rematch = f"{create}/{{game_id}}/rematch"
    first = checker.check("post", rematch, client.post(f"{url}/rematch", headers=_auth(tokens[0])))
    checker.check("post", rematch, client.post(f"{url}/rematch", headers=_auth(tokens[1])))
    checker.check("get", view, client.get(url))  # names its next game
    checker.check("get", view, client.get(f"{create}/{first['game_id']}", headers=_auth(first["token"])))
    assert not checker.problems, "\n".join(checker.problems)
    assert checker.checked[("post", rematch)] == {200, 201}


def test_fixed_deals_refused_and_store_down_match_the_spec(sdk_redis: RedisServer, checker: SpecChecker) -> None:
    game = sorted(REGISTRY)[0]
    create, view, _, _ = _paths(game)
    players = REGISTRY[game].players.start
    closed = create_app(Settings(redis_url=sdk_redis.url, allow_fixed_deals=False, request_log=False))
    reply = closed.test_client().post(create, json={"players": players, "seed": "x"})
    assert reply.status_code == 403
    checker.check("post", create, reply)

    down = create_app(Settings(redis_url=f"redis://127.0.0.1:{free_port()}/0", store_timeout=0.2,
                               request_log=False)).test_client()
    for method, path, url, reply in (
        ("post", create, create, down.post(create, json={"players": players})),
        ("get", view, f"{create}/some-game", down.get(f"{create}/some-game")),
        ("get", "/readyz", "/readyz", down.get("/readyz")),
    ):
        assert reply.status_code == 503, (url, reply.status_code)
        assert reply.headers.get("Retry-After"), url
        checker.check(method, path, reply)
    assert not checker.problems, "\n".join(checker.problems)


def test_nullable_references_admit_only_null(checker: SpecChecker) -> None:
    """A nullable object field (``Nested(..., allow_none=True)``) must be "the schema, or null".

    apispec renders it for OpenAPI 3.0 as ``anyOf: [{type: object, nullable: true}, {$ref}]``; the
    first branch admits ANY object, so validators check nothing there and the generators type the field
    as "any object or the schema": openapi-python-client parses a real result into an untyped catch-all
    class, openapi-typescript emits ``Record<string, never> | null | Result``. The null branch has to
    admit null alone: ``{type: object, nullable: true, enum: [null]}``.
    """
    loose: list[str] = []

    def walk(node: Any, where: str) -> None:
        if isinstance(node, dict):
            for key in ("anyOf", "oneOf"):
                for branch in node.get(key, []):
                    if (isinstance(branch, dict) and branch.get("nullable") is True and branch.get("type") == "object"
                            and branch.get("enum") != [None] and not branch.get("properties")):
                        loose.append(f"{where}: {json.dumps(node)}")
            for k, v in node.items():
                walk(v, f"{where}/{k}")
        elif isinstance(node, list):
            for i, v in enumerate(node):
                walk(v, f"{where}/{i}")

    walk(checker.spec["components"]["schemas"], "#/components/schemas")
    assert not loose, "nullable fields that admit any object:\n" + "\n".join(loose)


def test_time_and_leaving_match_the_spec(sdk_app: Flask, checker: SpecChecker) -> None:
    """Clocks in views, a timeout's entries, a replaced seat's refusal, resigning (a seat handed to a bot,
    a two-player game ended) and the export of a resigned game, each against the spec."""
    create, view, moves, log = _paths("sten")
    resign, export = f"{create}/{{game_id}}/resign", f"{create}/{{game_id}}/export"
    client: FlaskClient = sdk_app.test_client()
    checker.check("post", create, client.post(create, json={"players": 2, "clock": {"kind": "per_move"}}))
    timed = checker.check("post", create, client.post(create, json={
        "players": 2, "clock": {"kind": "per_move", "seconds": 1, "max_timeouts": 1}}))
    url = f"{create}/{timed['game_id']}"
    running = checker.check("get", view, client.get(url))
    late = running["to_move"][0]
    token = _auth(timed["seats"][late]["token"])
    move = client.get(url, headers=token).json["legal_moves"][0]
    time.sleep(1.2)
    checker.check("post", moves, client.post(f"{url}/moves", json={"move": move}, headers=token))  # seat_replaced
    checker.check("get", view, client.get(url, headers=token))  # the replaced seat still reads
    checker.check("get", log, client.get(f"{url}/log"))  # timed_out, then the bots' moves
    three = checker.check("post", create, client.post(create, json={
        "players": 3, "clock": {"kind": "fischer", "initial_seconds": 60, "increment_seconds": 1,
                                "on_timeout": "forfeit"}}))
    url3 = f"{create}/{three['game_id']}"
    checker.check("post", resign, client.post(f"{url3}/resign"))
    checker.check("post", resign, client.post(f"{create}/nonexistent-game-id/resign", headers=token))
    checker.check("post", resign, client.post(f"{url3}/resign", headers=_auth(three["seats"][0]["token"])))
    checker.check("post", resign, client.post(f"{url3}/resign", headers=_auth(three["seats"][0]["token"])))
    pair = checker.check("post", create, client.post(create, json={"players": 2}))
    url2 = f"{create}/{pair['game_id']}"
    checker.check("post", resign, client.post(f"{url2}/resign", headers=_auth(pair["seats"][1]["token"])))
    checker.check("get", export, client.get(f"{url2}/export"))
    assert not checker.problems, "\n".join(checker.problems)
    assert checker.checked[("post", resign)] == {200, 401, 404, 409}
    assert checker.checked[("post", moves)] == {409}
