"""Locust load test: every user plays whole games of every hosted kind over the HTTP API.

Run it through ``deploy/loadtest.sh`` (headless, bounded, prints a compact table). Each user:

- reads the catalogue (``GET /v1/games``) once, and takes the games in turn, so every registered
  kind is played; nothing here names a game;
- creates a game with the kind's smallest player count, every seat human (the user holds all the
  tokens), and options that keep long matches to one deal/hand (``short_options``);
- plays it to the end: fetches the view of a seat that is to move (``If-None-Match`` with that
  seat's last ETag), posts a random entry of its ``legal_moves`` with ``version``, then polls the
  mover's view with the ETag the move returned, where 304 is expected (nothing changed); reads the
  whole log once the game is over, page after page (``logpages.read_log``, the soak checker's
  reader too), and checks that it holds every version of the game exactly once.

Moves and creates carry an ``Idempotency-Key``; a 503, a 429 or a dropped connection is retried
with the same key (at most ``LOCUST_RETRIES`` times, waiting ``Retry-After`` up to 2 s), as a careful
client would through a failover. With ``LOCUST_REPORT`` set, every answer's status and every
acknowledged (200) move, as ``[unix time, game, game id, version, seat]``, are written there as JSON
when the test stops: ``deploy/soak.py`` checks that none of those moves was lost. ``LOCUST_THROUGHPUT``
(steps per second per user) makes the load a steady rate instead of as fast as answers come.

Requests are named by endpoint template (``GET /v1/[game]/games/[id]``) so stats group per
endpoint. A 409 is reported as a failure whose message starts with ``409`` (loadtest.sh counts
them apart: expected under contention, but about 0 here since each user drives its own game).
A finished game is reported as a ``GAME`` event named ``finished <game>``: its "response time" is
the game's wall time, its "length" the number of moves; a log that misses or repeats a version, or
does not end within ``logpages.MAX_PAGES`` pages, makes that event a failure. Each page of the log is
one ``GET .../log`` request.
"""

from __future__ import annotations

import itertools
import json
import os
import random
import sys
import time
import uuid
from collections import Counter
from pathlib import Path
from typing import Any

from locust import HttpUser, constant, constant_throughput, events, task

# The log reader next to this file, however the file is loaded (Locust adds its directory to the
# path only while importing it; runpy does not at all).
sys.path.insert(0, str(Path(__file__).resolve().parent))
from logpages import LogTooLong, read_log  # noqa: E402 -- after the path is set

#: Options that make one match a single deal/hand/round/section, by option name (set when present).
SHORT_MATCH: dict[str, int] = {"max_hands": 1, "max_deals": 1, "max_rounds": 1, "sections_per_game": 1}
#: A game that has not ended after this many moves is abandoned and reported as a failure.
MAX_MOVES = int(os.environ.get("LOCUST_MAX_MOVES", "5000"))
#: How often one move is retried with another legal entry after a 422 before the game is given up.
MAX_REJECTS = 20

V_GAMES = "GET /v1/games"
CREATE = "POST /v1/[game]/games"
VIEW = "GET /v1/[game]/games/[id]"
VIEW_UNCHANGED = "GET /v1/[game]/games/[id] (unchanged, 304)"
MOVE = "POST /v1/[game]/games/[id]/moves"
LOG = "GET /v1/[game]/games/[id]/log"

_turns = itertools.count()  # shared by all users: spreads the kinds evenly over the whole test
#: Attempts after a 503, 429 or dropped connection before a request is given up.
MAX_RETRIES = int(os.environ.get("LOCUST_RETRIES", "30"))
RETRIED = {0, 429, 503}
REPORT = os.environ.get("LOCUST_REPORT")
STATUSES: Counter[int] = Counter()  # every answer of the run, by status (0: no answer)
ACKS: list[list[Any]] = []  # [unix time, game, game id, version, seat] of every 200 to a move


@events.test_stop.add_listener
def _write_report(**_: Any) -> None:
    if REPORT:
        with open(REPORT, "w") as f:
            json.dump({"statuses": {str(k): v for k, v in STATUSES.items()}, "acks": ACKS}, f)


def _retry_after(response: Any) -> float:
    try:
        return min(2.0, max(0.1, float(response.headers.get("Retry-After", "1"))))
    except ValueError:
        return 1.0


def _allows(option: dict[str, Any], value: int) -> bool:
    """Whether the catalogue's metadata for ``option`` admits ``value``."""
    if "choices" in option:
        return value in option["choices"]
    if option.get("type") != "integer":
        return False
    low, high = option.get("minimum"), option.get("maximum")
    return (low is None or value >= low) and (high is None or value <= high)


def short_options(entry: dict[str, Any]) -> dict[str, Any]:
    """Options for one catalogue entry that keep a match short, built from the option metadata."""
    return {o["name"]: SHORT_MATCH[o["name"]] for o in entry.get("options", [])
            if o["name"] in SHORT_MATCH and _allows(o, SHORT_MATCH[o["name"]])}


def _problem_code(response: Any) -> str:
    try:
        body = response.json()
        return str(body.get("reason") or body.get("code") or "")
    except Exception:  # noqa: BLE001 -- a non-JSON error body is itself worth reporting
        return "non-json body"


class Game:
    """One running game as its user sees it: every seat's token, last view and ETag."""

    def __init__(self, kind: str, game_id: str, tokens: list[str], version: int) -> None:
        self.kind = kind
        self.game_id = game_id
        self.tokens = tokens
        self.version = version
        self.views: dict[int, dict[str, Any]] = {}
        self.etags: dict[int, str] = {}
        self.to_move: list[int] = [0]  # until a view says: seat 0's view names who is to move
        self.transient = False  # the last failure was one to retry (503, 429, no answer)
        self.moves = 0
        self.rejects = 0
        self.started = time.perf_counter()

    @property
    def path(self) -> str:
        return f"/v1/{self.kind}/games/{self.game_id}"

    def auth(self, seat: int) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.tokens[seat]}"}


class Player(HttpUser):
    """Plays whole games, one request per step, of every kind in the catalogue in turn."""

    wait_time = (constant_throughput(float(os.environ["LOCUST_THROUGHPUT"])) if os.environ.get("LOCUST_THROUGHPUT")
                 else constant(float(os.environ.get("LOCUST_WAIT", "0"))))
    catalogue: list[dict[str, Any]] | None = None  # read once, shared by all users

    def on_start(self) -> None:
        self.rng = random.Random()
        self.game: Game | None = None
        if Player.catalogue is None:
            with self.client.get("/v1/games", name=V_GAMES, catch_response=True) as r:
                if r.status_code != 200:
                    r.failure(f"{r.status_code} catalogue")
                    return
                Player.catalogue = r.json()["games"]

    @task
    def step(self) -> None:
        if not Player.catalogue:
            self.on_start()
            return
        if self.game is None:
            self.game = self.create()
            return
        self.advance(self.game)

    # --- steps ---------------------------------------------------------------------------------

    def create(self) -> Game | None:
        assert Player.catalogue
        entry = Player.catalogue[next(_turns) % len(Player.catalogue)]
        kind = entry["game"]
        body = {"players": entry["min_players"], "options": short_options(entry), "bots": []}
        key = str(uuid.uuid4())
        for _ in range(MAX_RETRIES + 1):
            with self.client.post(f"/v1/{kind}/games", json=body, name=CREATE, catch_response=True,
                                  headers={"Idempotency-Key": key}) as r:
                STATUSES[r.status_code] += 1
                if r.status_code == 201:
                    data = r.json()
                    break
                r.failure(f"{r.status_code} {_problem_code(r)} ({kind})")
                if r.status_code not in RETRIED:
                    return None
                wait = _retry_after(r)
            time.sleep(wait)
        else:
            return None
        tokens = [s["token"] for s in data["seats"]]
        game = Game(kind, data["game_id"], tokens, data["version"])
        # Whose turn it is: the first seat's view says (the view of any seat carries `to_move`).
        self.fetch_view(game, 0)
        return game

    def fetch_view(self, game: Game, seat: int) -> dict[str, Any] | None:
        """The seat's view, conditional on its last ETag; a 304 reuses the cached view."""
        headers = game.auth(seat)
        if seat in game.etags:
            headers["If-None-Match"] = game.etags[seat]
        with self.client.get(game.path, headers=headers, name=VIEW, catch_response=True) as r:
            STATUSES[r.status_code] += 1
            if r.status_code == 304 and seat in game.views:
                r.success()
                view = game.views[seat]
            elif r.status_code == 200:
                view = r.json()
                game.views[seat] = view
                game.etags[seat] = r.headers.get("ETag", "")
            else:
                r.failure(f"{r.status_code} {_problem_code(r)}")
                game.transient = r.status_code in RETRIED
                pause = _retry_after(r) if game.transient else 0.0
                view = None
        if view is None:
            time.sleep(pause)
            return None
        game.version = view["version"]
        game.to_move = list(view["to_move"])
        return view

    def advance(self, game: Game) -> None:
        if not game.to_move or game.moves >= MAX_MOVES or game.rejects >= MAX_REJECTS:
            self.give_up(game, "no seat to move" if not game.to_move else "no end within limits")
            return
        seat = self.rng.choice(game.to_move)
        view = self.fetch_view(game, seat)
        if view is None:
            if not game.transient:  # a 503, 429 or dropped connection keeps the game for the next step
                self.game = None
            return
        if view["status"] == "finished":
            self.finish(game)
            return
        if seat not in view["to_move"]:
            return  # the view moved on; choose again on the next step
        legal = view["legal_moves"]
        if not legal:
            self.give_up(game, f"seat {seat} is to move but has no legal move")
            return
        move = self.rng.choice(legal)
        body = {"version": game.version, "move": move}
        headers = {**game.auth(seat), "Idempotency-Key": str(uuid.uuid4())}
        for _ in range(MAX_RETRIES + 1):
            with self.client.post(f"{game.path}/moves", json=body, headers=headers, name=MOVE,
                                  catch_response=True) as r:
                STATUSES[r.status_code] += 1
                if r.status_code == 200:
                    new = r.json()
                    game.views[seat] = new
                    game.etags[seat] = r.headers.get("ETag", "")
                    game.version = new["version"]
                    game.to_move = list(new["to_move"])
                    game.moves += 1
                    game.rejects = 0
                    ACKS.append([round(time.time(), 3), game.kind, game.game_id, new["version"], seat])
                    break
                # 409: someone else moved first (not expected here); 422: a listed move was refused;
                # 503, 429 or no answer: the same request again, with its key, after a pause.
                r.failure(f"{r.status_code} {_problem_code(r)} ({game.kind} {move.get('type')})")
                if r.status_code not in RETRIED:
                    game.rejects += 1
                    game.etags.pop(seat, None)  # refetch the whole view next time
                    return
                wait = _retry_after(r)
            time.sleep(wait)
        else:
            game.etags.pop(seat, None)
            return
        # A client polling for the others' moves: nothing changed since the move, so 304.
        with self.client.get(game.path, headers={**game.auth(seat), "If-None-Match": game.etags[seat]},
                             name=VIEW_UNCHANGED, catch_response=True) as r:
            STATUSES[r.status_code] += 1
            if r.status_code != 304:
                r.failure(f"{r.status_code} where 304 was expected")
        if new["status"] == "finished":
            self.finish(game)

    def finish(self, game: Game) -> None:
        problem = self.check_log(game)
        self.environment.events.request.fire(
            request_type="GAME", name=f"finished {game.kind}",
            response_time=(time.perf_counter() - game.started) * 1000, response_length=game.moves,
            exception=RuntimeError(problem) if problem else None, context={},
        )
        self.game = None

    def check_log(self, game: Game) -> str | None:
        """What is wrong with the finished game's whole log, if anything: it must hold versions 1
        to the game's version, each once, in order. A page answered other than 200 is a failure
        of that request (and not of the game)."""
        def get(path: str) -> tuple[int, Any]:
            with self.client.get(path, headers=game.auth(0), name=LOG, catch_response=True) as r:
                STATUSES[r.status_code] += 1
                if r.status_code != 200:
                    r.failure(f"{r.status_code} {_problem_code(r)}")
                    return r.status_code, None
                return 200, r.json()

        try:
            status, log = read_log(get, f"{game.path}/log")
        except LogTooLong as exc:
            return str(exc)
        if status != 200:
            return None
        versions = [e["version"] for e in log["entries"]]
        if versions != list(range(1, game.version + 1)):
            return f"log has {len(versions)} entries, not versions 1 to {game.version} each once"
        return None

    def give_up(self, game: Game, why: str) -> None:
        self.environment.events.request.fire(
            request_type="GAME", name=f"finished {game.kind}",
            response_time=(time.perf_counter() - game.started) * 1000, response_length=game.moves,
            exception=RuntimeError(f"abandoned: {why}"), context={},
        )
        self.game = None
