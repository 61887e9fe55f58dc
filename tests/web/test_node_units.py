"""The web table's pure modules (service/play/: the games' words and tables, the history, the moves
panel's order, the event-stream reader, ...) are unit-tested with ``node --test``
(tests/web/node/*.test.mjs); this runs them, so that the suite does.

Beside their hand-written cases, the node tests read real games: views and log entries of seeded
games of every game, played through the API (the Flask test client, the in-process store, random
bots), as a seat and as a spectator, until every event type the spec lists for the game occurred.
Every one of them must read in its game's own words, and every view must give a table, seats and
summary without a hole ("undefined", "NaN").

Node runs the page's modules as they are served: plain ``.js`` ES modules with no package.json,
which node reads as modules from 20.19 and 22.7 on (module syntax detection). Without such a node
the test skips on a developer's machine and fails in CI (``CI`` set).
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import subprocess
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from engines import REGISTRY
from service.app import create_app
from service.config import Settings
from service.store import MemoryStore

ROOT = Path(__file__).resolve().parents[2]
NODE_TESTS = Path(__file__).resolve().parent / "node"
SPEC = ROOT / "openapi" / "openapi.json"
#: Options that let a game show all of its events (Siebenschläfer deals a next round only in a match).
OPTIONS: dict[str, dict[str, Any]] = {"siebenschlaefer": {"rounds": 3}}
#: Bounds of the sampling: games per game and player count, the page's own moves per game.
GAMES_PER_SIZE = 12
MOVES_PER_GAME = 400
#: Every how many of the page's moves a view is kept (and every view with the summary of a hand, deal,
#: round or section, under the view field of each game that holds it).
VIEW_EVERY = 15
#: The idle limit of the service whose game is left idle: half a second, in days.
IDLE_DAYS = 0.5 / 86_400
SUMMARIES = ("ended", "last_deal", "last_round", "last_hand", "last_section")


def node_or_skip() -> str:
    node = shutil.which("node")
    version = subprocess.run([node, "--version"], capture_output=True, text=True, check=True).stdout if node else ""
    found = tuple(int(x) for x in re.findall(r"\d+", version)[:2])
    if node is None or not (found >= (22, 7) or (20, 19) <= found < (21, 0)):
        found_text = version.strip() or "none"
        reason = f"node >= 20.19 is needed to run service/play's modules as they are (found {found_text})"
        if os.environ.get("CI"):
            pytest.fail(f"CI is set and {reason}")
        pytest.skip(reason)
    return node


def spec_event_types(game: str) -> set[str]:
    """The event types the spec lists for ``game`` (its ``<Game>Event`` union)."""
    schemas = json.loads(SPEC.read_text())["components"]["schemas"]
    prefix = "".join(word.capitalize() for word in game.split("-"))
    return set(schemas[f"{prefix}Event"]["discriminator"]["mapping"])


def call(client: FlaskClient, method: str, path: str, token: str | None = None, body: Any = None) -> Any:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    with client.open(path, method=method, json=body, headers=headers) as res:
        assert res.status_code < 400, (method, path, res.status_code, res.get_data(as_text=True)[:300])
        return res.get_json()


def log(client: FlaskClient, base: str, token: str | None) -> list[dict[str, Any]]:
    entries: list[dict[str, Any]] = []
    since = 0
    while True:
        page = call(client, "GET", f"{base}/log?since={since}", token)
        entries += page["entries"]
        if page["next_since"] is None:
            return entries
        since = page["next_since"]


def cards_of(move: dict[str, Any]) -> int:
    listed = [move.get("card"), *(move.get("cards") or []), *(move.get("payment") or [])]
    return sum(1 for c in listed if c) + sum(len(m) for m in move.get("melds") or [])


def pick(moves: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """Mostly the move that sheds the most cards (so that hands, deals and rounds end), else any."""
    return max(moves, key=cards_of) if rng.random() < 0.7 else rng.choice(moves)


def play(client: FlaskClient, game: str, players: int, seed: int) -> dict[str, list[Any]]:
    """One seeded game: seat 0 plays listed moves (``pick``), the others are greedy bots. Its views (seat 0's
    every few moves and the spectator's at the end) and its log as seat 0 and as the spectator."""
    created = call(client, "POST", f"/v1/{game}/games", body={
        "players": players, "seed": f"web-{seed}", "options": OPTIONS.get(game, {}),
        "bots": [{"seat": s, "level": "greedy"} for s in range(1, players)]})
    base, token = f"/v1/{game}/games/{created['game_id']}", created["seats"][0]["token"]
    rng = random.Random(seed)
    view = call(client, "GET", base, token)
    views = [view]
    for made in range(MOVES_PER_GAME):
        if view["status"] != "active":
            break
        move = pick(view["legal_moves"], rng)
        view = call(client, "POST", f"{base}/moves", token, {"version": view["version"], "move": move})
        if made % VIEW_EVERY == 0 or view["status"] != "active" or any(view["state"].get(k) for k in SUMMARIES):
            views.append(view)
    views.append(call(client, "GET", base))
    return {"views": views[:60], "entries": log(client, base, token) + log(client, base, None)}


def at_the_table(client: FlaskClient, game: str, players: int) -> dict[str, list[Any]]:
    """The table's own events in a game: waiting games that a person joins, that their creator starts (bots
    take the seats still open), and that their creator calls off."""
    seats = [{"name": "P1"}] + [{"open": True}] * (players - 1)
    views, entries = [], []
    for action in ("join", "start", "abort"):
        created = call(client, "POST", f"/v1/{game}/games", body={"players": players, "seats": seats, "seed": "table"})
        base, token = f"/v1/{game}/games/{created['game_id']}", created["seats"][0]["token"]
        views.append(call(client, "GET", base, token))
        if action == "join":
            call(client, "POST", f"{base}/join", body={"invite": created["invite"], "name": "P2 <b>joined</b>"})
            views.append(call(client, "GET", base, token))
        else:
            views.append(call(client, "POST", f"{base}/{action}", token))
        entries += log(client, base, token) + log(client, base, None)
    return {"views": views, "entries": entries}


#: Clocks of a second each, and what their timeouts do: a bot moves the turn, a bot takes the seat over,
#: the seat loses a two-player game.
ONE_SECOND = [({"kind": "per_move", "seconds": 1, "on_timeout": "bot", "max_timeouts": 3}, 3),
              ({"kind": "per_move", "seconds": 1, "on_timeout": "bot", "max_timeouts": 1}, 3),
              ({"kind": "per_move", "seconds": 1, "on_timeout": "forfeit"}, 2)]


def time_and_leaving(client: FlaskClient, idle: FlaskClient) -> dict[str, dict[str, list[Any]]]:
    """Per game, the table's events of time and leaving: seats whose second ran out (every outcome; the
    next read applies a passed deadline), a person who resigns from a game of three (a bot plays on) and
    of two (it ends), and a game left idle past the limit of ``idle``'s service (it ends abandoned). One
    wait for them all."""
    games: list[tuple[str, FlaskClient, str, str]] = []

    def create(on: FlaskClient, game: str, players: int, **more: Any) -> tuple[str, str]:
        seats = [{"name": "P1"}] + [{"bot": "greedy"}] * (players - 1)
        created = call(on, "POST", f"/v1/{game}/games", body={"players": players, "seats": seats, **more})
        games.append((game, on, created["game_id"], created["seats"][0]["token"]))
        return created["game_id"], created["seats"][0]["token"]

    for game, engine in REGISTRY.items():
        most = min(3, engine.players.stop - 1)
        for clock, players in ONE_SECOND:
            create(client, game, min(players, most), clock=clock, seed="clock")
        create(idle, game, 2, seed="idle")
        for players in {most, 2}:
            game_id, token = create(client, game, players, seed="resign")
            call(client, "POST", f"/v1/{game}/games/{game_id}/resign", token)
    time.sleep(1.2)  # every second has run out, and the idle limit has passed
    out: dict[str, dict[str, list[Any]]] = {game: {"views": [], "entries": []} for game in REGISTRY}
    for game, on, game_id, token in games:
        base = f"/v1/{game}/games/{game_id}"
        out[game]["views"].append(call(on, "GET", base, token))
        out[game]["entries"] += log(on, base, token) + log(on, base, None)
    return out


def real_games() -> dict[str, dict[str, list[Any]]]:
    """Per game: views and log entries of seeded games, until every event type of the spec occurred."""
    settings = Settings(allow_fixed_deals=True, request_log=False, sweep_seconds=0)
    client = create_app(settings, store=MemoryStore()).test_client()
    idle = create_app(replace(settings, idle_days=IDLE_DAYS), store=MemoryStore()).test_client()
    leaving = time_and_leaving(client, idle)
    out: dict[str, dict[str, list[Any]]] = {}
    for game, engine in REGISTRY.items():
        wanted, seen = spec_event_types(game), set()
        sample = at_the_table(client, game, engine.players.stop - 1)
        sample["views"] += leaving[game]["views"]
        sample["entries"] += leaving[game]["entries"]
        seen |= {e["type"] for entry in sample["entries"] for e in entry["events"]}
        for seed in range(GAMES_PER_SIZE):
            for players in engine.players:
                if wanted <= seen:
                    break
                played = play(client, game, players, seed)
                sample["views"] += played["views"]
                sample["entries"] += played["entries"]
                seen |= {e["type"] for entry in played["entries"] for e in entry["events"]}
        assert wanted <= seen, f"{game}: no sampled game showed {sorted(wanted - seen)}"
        out[game] = sample
    return out


def test_the_web_tables_pure_modules_pass_their_node_unit_tests(tmp_path: Path) -> None:
    node = node_or_skip()
    samples = tmp_path / "real-games.json"
    samples.write_text(json.dumps(real_games()))
    tests = sorted(str(p) for p in NODE_TESTS.glob("*.test.mjs"))
    assert len(tests) >= 5, tests
    proc = subprocess.run([node, "--test", "--test-reporter=spec", *tests], capture_output=True, text=True, timeout=300,
                          check=False, cwd=ROOT, env={**os.environ, "CARDTABLE_REAL_GAMES": str(samples)})
    assert proc.returncode == 0, f"node --test failed:\n{proc.stdout[-8000:]}\n{proc.stderr[-3000:]}"
    summary = proc.stdout[-3000:]
    assert re.search(r"^\S*\s*fail 0\s*$", proc.stdout, re.M), summary
    assert not re.search(r"^\S*\s*skipped [1-9]", proc.stdout, re.M), f"the real games were not read: {summary}"
