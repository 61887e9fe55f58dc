"""Only a verified seat earns its own rate-limit count; creates have their own limit per address.

A hostile client on loopback against gunicorn (deploy/gunicorn.conf.py, gevent workers) on a real
Redis. The service trusts one proxy here, so each test names its own client address in
X-Forwarded-For and starts from empty counts (as behind deploy/nginx, which sets that header).
Windows are a minute long, so no assertion depends on how fast the machine is.
"""

from __future__ import annotations

import secrets
import uuid
from collections import Counter
from collections.abc import Iterator

import pytest

from tests.http import Client
from tests.servers import gunicorn

RATE = 10  # requests per minute per seat or address
CREATES = 4  # creates per minute per address


@pytest.fixture(scope="module")
def url(redis_server) -> Iterator[str]:
    env = {"CARDTABLE_RATE_LIMIT": f"{RATE}/m", "CARDTABLE_CREATE_LIMIT": f"{CREATES}/m,100/h",
           "CARDTABLE_TRUSTED_PROXIES": "1"}
    with gunicorn(redis_server.url, workers=2, extra_env=env) as base:
        yield base


def _address() -> dict[str, str]:
    n = uuid.uuid4().int
    return {"X-Forwarded-For": f"10.{n % 250}.{n // 250 % 250}.{n // 62500 % 250}"}


def _bearer(token: str, address: dict[str, str]) -> dict[str, str]:
    return {**address, "Authorization": f"Bearer {token}"}


def test_made_up_tokens_share_their_address_count_on_the_catalogue(url: str) -> None:
    client, address = Client(url), _address()
    statuses = [client.get("/v1/games", headers=_bearer(secrets.token_urlsafe(24), address)).status
                for _ in range(200)]
    assert statuses == [200] * RATE + [429] * (200 - RATE)
    limited = client.get("/v1/games", headers=address)
    assert limited.status == 429 and limited.json["code"] == "rate_limited" and int(limited.headers["retry-after"]) >= 1


def test_made_up_tokens_on_a_game_get_401_then_429_never_a_count_of_their_own(url: str) -> None:
    client, address = Client(url), _address()
    gid = client.post("/v1/sten/games", {"players": 2}, headers=address).json["game_id"]  # the address's 1st
    path = f"/v1/sten/games/{gid}"
    answers = [client.get(path, headers=_bearer(secrets.token_urlsafe(24), address)) for _ in range(RATE - 1)]
    answers += [client.post(f"{path}/moves", {"move": {"type": "pass"}},
                            headers=_bearer(secrets.token_urlsafe(24), address)) for _ in range(3)]
    answers.append(client.get(f"{path}/events", headers=_bearer(secrets.token_urlsafe(24), address)))
    codes = [(a.status, a.json["code"]) for a in answers]
    assert codes == [(401, "unauthorized")] * (RATE - 1) + [(429, "rate_limited")] * 4
    # a game that does not exist answers 404 before any token is checked: counted all the same
    other = _address()
    missing = [client.get("/v1/sten/games/nosuchgame", headers=_bearer(secrets.token_urlsafe(24), other)).status
               for _ in range(RATE + 2)]
    assert missing == [404] * RATE + [429] * 2


def test_a_real_seat_keeps_its_own_count_while_its_address_is_spent(url: str) -> None:
    client, address = Client(url), _address()
    created = client.post("/v1/sten/games", {"players": 2}, headers=address).json
    path, token = f"/v1/sten/games/{created['game_id']}", created["seats"][0]["token"]
    for _ in range(RATE):
        client.get(path, headers=_bearer(secrets.token_urlsafe(24), address))
    assert client.get(path, headers=address).status == 429  # the address (spectators too) is spent
    seat = [client.get(path, headers=_bearer(token, address)).status for _ in range(RATE + 1)]
    assert seat == [200] * RATE + [429]
    # the seat's own count, not its address's: another seat of the game still goes on
    other = created["seats"][1]["token"]
    assert client.get(path, headers=_bearer(other, address)).status == 200


def test_creates_from_one_address_stop_at_the_create_limit(url: str) -> None:
    client, address = Client(url), _address()
    answers = [client.post("/v1/sten/games", {"players": 2}, headers=address) for _ in range(CREATES + 2)]
    assert [a.status for a in answers] == [201] * CREATES + [429] * 2
    limited = answers[-1]
    assert limited.content_type == "application/problem+json" and limited.json["code"] == "rate_limited"
    assert "games created" in limited.json["detail"] and 1 <= int(limited.headers["retry-after"]) <= 60
    # a seat token does not lift it (creates name no game), and other requests of the address go on
    token = answers[0].json["seats"][0]["token"]
    assert client.post("/v1/sten/games", {"players": 2}, headers=_bearer(token, address)).status == 429
    assert client.get("/v1/games", headers=address).status == 200
    assert client.post("/v1/sten/games", {"players": 2}, headers=_address()).status == 201


def test_a_burst_of_creates_with_made_up_tokens_stores_at_most_the_create_limit(url: str, redis_server) -> None:
    """The issue's figure: 100 creates in a burst, each with its own made-up token."""
    client, address = Client(url), _address()
    before = _games(redis_server)
    statuses = Counter(client.post("/v1/sten/games", {"players": 2},
                                   headers=_bearer(secrets.token_urlsafe(24), address)).status for _ in range(100))
    assert statuses == {201: CREATES, 429: 100 - CREATES}
    assert len(_games(redis_server) - before) == CREATES


def _games(redis_server) -> set[str]:
    return set(redis_server.cli("--scan", "--pattern", "cardtable:game:*").split())
