"""Players for the fault tests: they play Sten over real HTTP and keep every acknowledged move.

A move is *acknowledged* when the service answered it 200. Each player keeps (game, version,
seat, move) of every such answer; after the fault, ``lost_moves`` checks that each one is still
in its game's log, as the seat that made it sees it. A 503 or a dropped connection is retried
with the same Idempotency-Key (a bounded number of times), exactly as a careful client would.
"""

from __future__ import annotations

import http.client
import json
import random
import threading
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from engines import REGISTRY
from engines.core import move_from_json

#: Attempts of one request across 503s and dropped connections before the player gives it up.
ATTEMPTS = 200
RETRY_PAUSE = 0.1  # seconds between attempts (the tests set Retry-After to 1; waiting less is allowed)


@dataclass
class Answer:
    status: int  # 0: the connection dropped or timed out
    body: Any = None
    headers: dict[str, str] = field(default_factory=dict)


def call(base: str, method: str, path: str, body: Any = None, token: str | None = None,
         key: str | None = None, timeout: float = 10.0) -> Answer:
    """One request on a fresh connection, no retry: a dropped connection is status 0."""
    parts = urlsplit(base)
    headers = {"Content-Type": "application/json"} if body is not None else {}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    if key:
        headers["Idempotency-Key"] = key
    conn = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port or 80, timeout=timeout)
    try:
        conn.request(method, path, body=None if body is None else json.dumps(body), headers=headers)
        resp = conn.getresponse()
        raw = resp.read()
        hdrs = {k.lower(): v for k, v in resp.getheaders()}
        data = json.loads(raw) if raw and "json" in hdrs.get("content-type", "") else None
        return Answer(resp.status, data, hdrs)
    except (OSError, http.client.HTTPException):
        return Answer(0)
    finally:
        conn.close()


@dataclass(frozen=True)
class Ack:
    game: str
    version: int
    seat: int
    move: dict[str, Any]
    at: float  # time.monotonic() of the answer


class Player(threading.Thread):
    """Plays two-seat games of Sten (holding both tokens) until ``stop`` is set."""

    def __init__(self, base: str, stop: threading.Event, seed: int) -> None:
        super().__init__(daemon=True)
        self.base, self.stop = base, stop
        self.rng = random.Random(seed)
        self.acks: list[Ack] = []
        self.statuses: Counter[int] = Counter()
        self.tokens: dict[str, list[str]] = {}
        self.given_up = 0
        self.error: BaseException | None = None

    def request(self, method: str, path: str, body: Any = None, token: str | None = None,
                key: str | None = None) -> Answer:
        """Retries 503s and dropped connections (with the same key): the first other answer."""
        answer = Answer(0)
        for _ in range(ATTEMPTS):
            answer = call(self.base, method, path, body, token, key)
            self.statuses[answer.status] += 1
            if answer.status not in (0, 503) or self.stop.is_set():
                return answer
            time.sleep(RETRY_PAUSE)
        self.given_up += 1
        return answer

    def run(self) -> None:
        try:
            while not self.stop.is_set():
                self.play_one()
        except BaseException as exc:  # noqa: BLE001 -- reported by the test, not lost in a thread
            self.error = exc

    def play_one(self) -> None:
        created = self.request("POST", "/v1/sten/games", {"players": 2}, key=str(uuid.uuid4()))
        if created.status != 201:
            return
        gid = created.body["game_id"]
        tokens = [s["token"] for s in created.body["seats"]]
        self.tokens[gid] = tokens
        path = f"/v1/sten/games/{gid}"
        for _ in range(500):  # a game of Sten ends well within this many moves
            if self.stop.is_set():
                return
            spectator = self.request("GET", path)
            if spectator.status != 200 or spectator.body["status"] == "finished":
                return
            seat = spectator.body["to_move"][0]
            view = self.request("GET", path, token=tokens[seat])
            if view.status != 200 or not view.body["legal_moves"]:
                continue
            move = self.rng.choice(view.body["legal_moves"])
            reply = self.request("POST", path + "/moves", {"version": view.body["version"], "move": move},
                                 token=tokens[seat], key=str(uuid.uuid4()))
            if reply.status == 200:
                self.acks.append(Ack(gid, reply.body["version"], seat, move, time.monotonic()))


def run_players(base: str, count: int, stop: threading.Event) -> list[Player]:
    players = [Player(base, stop, seed) for seed in range(count)]
    for p in players:
        p.start()
    return players


def wait_for_acks(players: list[Player], each: int, since: float = 0.0, timeout: float = 60.0) -> None:
    """Until every player has ``each`` acknowledged moves after ``since`` (bounded)."""
    deadline = time.monotonic() + timeout
    while any(sum(a.at > since for a in p.acks) < each for p in players):
        if time.monotonic() > deadline:
            counts = [sum(a.at > since for a in p.acks) for p in players]
            raise AssertionError(f"players did not get {each} moves acknowledged in {timeout} s: {counts}")
        if any(p.error for p in players):
            raise AssertionError(f"a player failed: {[p.error for p in players if p.error]}")
        time.sleep(0.05)


def stop_players(players: list[Player], stop: threading.Event) -> None:
    stop.set()
    for p in players:
        p.join(30)
        assert not p.is_alive(), "a player did not stop"
        assert p.error is None, p.error


def lost_moves(base: str, players: list[Player]) -> list[Ack]:
    """The acknowledged moves that are not in their game's log (read as the seat that moved,
    which sees its own moves whole), or whose game is behind their version."""
    lost = []
    logs: dict[tuple[str, int], dict[int, dict[str, Any]]] = {}
    for p in players:
        for ack in p.acks:
            if (ack.game, ack.seat) not in logs:
                got = Answer(0)
                for _ in range(ATTEMPTS):
                    got = call(base, "GET", f"/v1/sten/games/{ack.game}/log", token=p.tokens[ack.game][ack.seat])
                    if got.status not in (0, 503):
                        break
                    time.sleep(RETRY_PAUSE)
                entries = got.body["entries"] if got.status == 200 else []
                logs[(ack.game, ack.seat)] = {e["version"]: e for e in entries}
            entry = logs[(ack.game, ack.seat)].get(ack.version)
            if entry is None or entry["seat"] != ack.seat or entry["move"] != ack.move:
                lost.append(ack)
    return lost


def longest_pause(times: list[float], since: float) -> float:
    """The longest time without an acknowledged move from the last one before ``since`` on:
    how long play stood still around a fault. (The first answer after the fault is no measure:
    a move acknowledged just before it may arrive just after.) Infinite if none came after."""
    times = sorted(times)
    before = [t for t in times if t <= since]
    after = [t for t in times if t > since]
    if not after:
        return float("inf")
    points = ([before[-1]] if before else [since]) + after
    return max(b - a for a, b in zip(points, points[1:], strict=False))


def resume_seconds(players: list[Player], since: float) -> float:
    """The longest ``longest_pause`` of any player: on a cluster only the players whose game is
    on the killed master stand still, and they are the ones that count."""
    return max(longest_pause([a.at for a in p.acks], since) for p in players)


def replays_to_stored_state(client: Any, gid: str) -> bool:
    """The stored snapshot is what the stored log replays to: nothing half-written."""
    record = json.loads(client.hget(f"cardtable:game:{{{gid}}}", "s"))
    engine = REGISTRY[record["game"]]
    state = engine.new_game(record["players"], record["options"], record["seed"], record["deck"])
    entries = client.lrange(f"cardtable:log:{{{gid}}}", 0, -1)
    for raw in entries:
        entry = json.loads(raw)
        state = engine.apply(state, entry["seat"], move_from_json(engine.move_types, entry["move"]))
    return (engine.encode(state) == record["state"]
            and int(client.hget(f"cardtable:game:{{{gid}}}", "v")) == len(entries))
