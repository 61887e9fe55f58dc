"""The soak's checker reads whole logs: every acknowledged move of a game longer than one log page is
found, and one that is not in the log is reported lost.

The log answers at most ``limit`` entries per read and ``next_since`` while more remain; a checker
that reads one page counts every move past it as lost (a 10-minute soak's Siebenschläfer games
cross the service's 500-entry page). Here games of Sten (about 60 moves) are played over HTTP
against gunicorn on a real redis-server, and read in pages of ``LIMIT`` entries, so each game spans
several pages and the test takes seconds.
"""

from __future__ import annotations

import importlib.util
import random
import re
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests.faults import call
from tests.servers import RedisServer, gunicorn

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
LIMIT = 8  # log entries per page: a game of Sten is several pages


def _load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"cardtable_deploy_{name}", DEPLOY / f"{name}.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


soak = _load("soak")
logpages = _load("logpages")


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    server = RedisServer()
    server.start()
    try:
        with gunicorn(server.url, workers=1) as base:
            yield base
    finally:
        server.cleanup()


def play(url: str, kind: str = "sten", moves: int = 1000) -> tuple[str, list[list[Any]]]:
    """Plays a two-seat game (both seats human) for ``moves`` moves or to its end, as the load test
    does; the game id and its acknowledgements in the load test's form
    ``[unix time, game, game id, version, seat]``."""
    created = call(url, "POST", f"/v1/{kind}/games", {"players": 2}, key=str(uuid.uuid4()))
    assert created.status == 201, created.body
    gid, tokens = created.body["game_id"], [s["token"] for s in created.body["seats"]]
    path = f"/v1/{kind}/games/{gid}"
    acks: list[list[Any]] = []
    rng = random.Random(gid)
    for _ in range(moves):
        spectator = call(url, "GET", path)
        assert spectator.status == 200, spectator.body
        if spectator.body["status"] == "finished":
            break
        seat = spectator.body["to_move"][0]
        view = call(url, "GET", path, token=tokens[seat])
        move = rng.choice(view.body["legal_moves"])
        reply = call(url, "POST", path + "/moves", {"version": view.body["version"], "move": move},
                     token=tokens[seat], key=str(uuid.uuid4()))
        assert reply.status == 200, reply.body
        acks.append([round(time.time(), 3), kind, gid, reply.body["version"], seat])
    return gid, acks


@pytest.fixture(scope="module")
def games(url: str) -> list[tuple[str, list[list[Any]]]]:
    """A finished game and one stopped after 3 pages and a bit: both longer than a page."""
    played = [play(url), play(url, moves=3 * LIMIT + 3)]
    assert all(len(acks) > 3 * LIMIT for _, acks in played), [len(a) for _, a in played]
    return played


def test_the_checker_finds_every_acknowledged_move_of_games_longer_than_a_log_page(url: str, games: list) -> None:
    acks = [ack for _, game_acks in games for ack in game_acks]
    assert soak.check_acks(url, acks, limit=LIMIT) == (len(acks), 0)


def test_the_checker_reports_acknowledged_moves_missing_from_the_log_as_lost(url: str, games: list) -> None:
    (gid, acks), (other, _) = games
    t, kind, _, last, seat = acks[-1]  # on the last page of its log
    invented = [
        [t, kind, gid, last + 1, seat],  # a version the game never reached
        [t, kind, gid, last, 1 - seat],  # a version of the log, made by the other seat
        [t, kind, other, 3 * LIMIT + 10, 0],  # past the end of the stopped game
        [t, kind, "NoSuchGame000000", 1, 0],  # a game the service does not know
    ]
    assert soak.check_acks(url, acks + invented, limit=LIMIT) == (len(acks) + 4, 4)


def test_the_log_reader_follows_next_since_to_the_end_of_the_log(url: str, games: list) -> None:
    gid, acks = games[0]
    pages: list[str] = []

    def get(path: str) -> tuple[int, Any]:
        pages.append(path)
        got = call(url, "GET", path)
        return got.status, got.body

    status, log = logpages.read_log(get, f"/v1/sten/games/{gid}/log", limit=LIMIT)
    assert status == 200 and log["next_since"] is None
    assert [e["version"] for e in log["entries"]] == list(range(1, log["version"] + 1))
    assert log["version"] == acks[-1][3]
    assert len(pages) == -(-log["version"] // LIMIT)  # the last page is full or not, never empty
    assert pages[1] == f"/v1/sten/games/{gid}/log?since={LIMIT}&limit={LIMIT}"
    assert logpages.read_log(get, "/v1/sten/games/NoSuchGame000000/log") == (404, None)


def test_the_log_reader_gives_up_after_its_page_bound_with_a_clear_error(url: str, games: list) -> None:
    gid, _ = games[0]

    def get(path: str) -> tuple[int, Any]:
        got = call(url, "GET", path)
        return got.status, got.body

    message = rf"/v1/sten/games/{gid}/log: the log did not end within 2 pages of {LIMIT} entries"
    with pytest.raises(logpages.LogTooLong, match=message):
        logpages.read_log(get, f"/v1/sten/games/{gid}/log", limit=LIMIT, max_pages=2)


def test_the_log_reader_refuses_a_next_since_that_does_not_go_forward() -> None:
    """A service that named the same page again would otherwise be read until the bound."""
    def get(path: str) -> tuple[int, Any]:
        return 200, {"version": 9, "entries": [{"version": 1}], "next_since": 0}

    with pytest.raises(logpages.LogTooLong, match="next_since 0 after since 0 does not go forward"):
        logpages.read_log(get, "/v1/sten/games/x/log")


def test_the_checker_and_the_load_test_share_one_log_reader() -> None:
    """No second copy of the paging: both import it, neither reads ``next_since`` itself."""
    for name in ("soak.py", "locustfile.py"):
        text = (DEPLOY / name).read_text()
        assert re.search(r"^from logpages import .*\bread_log\b", text, re.M), name
        assert "next_since" not in text, name
