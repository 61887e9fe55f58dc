"""Capture stored games part-way through, as a release writes them, for the upgrade tests.

Run with the code of the release whose formats are to be kept (before a format changes):

    .venv/bin/python -m tests.captured.capture            # every game
    .venv/bin/python -m tests.captured.capture kanaster   # one game

For every game it plays seeded games through the HTTP API on a real ``redis-server`` (human seats
with random listed moves, bot seats by the server, creates and some moves with an
``Idempotency-Key``), and whenever a phase named in ``PLANS`` is reached it writes
``tests/captured/<game>/format-<N>/<phase>.json``: the raw Redis keys of that game (names, types and
values: the snapshot envelope, the log, the idempotency records), the seat tokens, and what every
viewer saw then (view and log), plus the idempotent request to replay. ``tests/service/
test_captured_games.py`` loads each file into a real Redis under the current code.
"""

from __future__ import annotations

import io
import json
import random
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engines import REGISTRY
from service.app import create_app
from service.config import Settings
from tests.servers import RedisServer

HERE = Path(__file__).resolve().parent
Predicate = Callable[[dict[str, Any], int], bool]


@dataclass
class Plan:
    """How to reach the phases worth keeping of one game."""

    players: int
    options: dict[str, Any]
    bots: list[int]
    phases: dict[str, Predicate]
    seeds: int = 40  # games tried before giving up on a phase
    max_moves: int = 4000
    extra: dict[str, Any] = field(default_factory=dict)


def _early(state: dict[str, Any], version: int) -> bool:
    return version >= 3


PLANS: dict[str, Plan] = {
    "sten": Plan(4, {}, [2], {
        "early": _early,
        "mid-game": lambda s, v: s["turn"] >= 14 and s["stone"] is not None,
    }),
    "conquian": Plan(2, {"max_deals": 3}, [], {
        "early": _early,
        "mid-deal": lambda s, v: s["deal"] == 1 and len(s["stock"]) <= 12 and s["phase"] == "choose",
        "force-window": lambda s, v: s["phase"] in ("force_offer", "force_reject"),
        "after-a-deal": lambda s, v: s["last_deal"] is not None and s["phase"] == "choose",
    }),
    "keine-lahme-agame": Plan(3, {"sections_per_game": 2}, [1], {
        "early": _early,
        "mid-catching-round": lambda s, v: s["phase"] == "catching" and len(s["caught"]) >= 1,
        "mid-trick": lambda s, v: s["phase"] == "trick" and len(s["trick"]) >= 1,
        "after-a-section": lambda s, v: s["last_section"] is not None and s["phase"] != "over",
    }),
    "siebenschlaefer": Plan(3, {"rounds": 2}, [2], {
        "early": _early,
        "mid-round": lambda s, v: s["moves"] >= 20 and s["status"] == "active",
        "after-a-round": lambda s, v: len(s["history"]) >= 1 and s["status"] == "active",
    }),
    "kanaster": Plan(3, {"max_hands": 2}, [2], {
        "early": _early,
        "mid-hand-melded": lambda s, v: len(s["melds"]) >= 2 and s["phase"] == "play",
        "after-a-hand": lambda s, v: s["last_hand"] is not None and s["phase"] in ("draw", "play"),
    }),
}


def _dump(client: Any, game_id: str) -> dict[str, Any]:
    """Every Redis key of one game, by name: type and value, values as text (they are JSON)."""
    out: dict[str, Any] = {}
    for key in sorted(client.scan_iter(match=f"cardtable:*{{{game_id}}}*")):
        name = key.decode()
        kind = client.type(key).decode()
        if kind == "hash":
            value: Any = {k.decode(): v.decode() for k, v in sorted(client.hgetall(key).items())}
        elif kind == "list":
            value = [v.decode() for v in client.lrange(key, 0, -1)]
        elif kind == "string":
            value = client.get(key).decode()
        else:
            raise AssertionError(f"unexpected key type {kind} for {name}")
        out[name] = {"type": kind, "value": value}
    return out


def whole_log(http: Any, base: str, headers: dict[str, str]) -> dict[str, Any]:
    """The whole log, page after page (``next_since``), as one answer with ``next_since`` null
    (releases before format 2 answered it in one piece, without the field)."""
    since: int | None = 0
    whole: dict[str, Any] = {}
    while since is not None:
        reply = http.get(f"{base}/log?since={since}", headers=headers)
        assert reply.status_code == 200, reply.get_json()
        page = dict(reply.get_json())
        since = page.pop("next_since", None)
        entries = page.pop("entries")
        whole = {**page, "entries": whole.get("entries", []) + entries}
    return {**whole, "next_since": None}


def _seen(http: Any, base: str, tokens: list[str | None]) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    for seat, token in [(None, None), *enumerate(tokens)]:
        if seat is not None and token is None:
            continue
        headers = {} if token is None else {"Authorization": f"Bearer {token}"}
        name = "spectator" if seat is None else str(seat)
        seen[name] = {"view": http.get(base, headers=headers).get_json(), "log": whole_log(http, base, headers)}
    return seen


def capture_game(game: str, plan: Plan, server: RedisServer, out_dir: Path) -> list[str]:
    """Play seeded games of ``game`` until every phase of ``plan`` was captured once."""
    import redis

    engine = REGISTRY[game]
    fmt = getattr(engine, "format", 1)
    app = create_app(Settings(redis_url=server.url, allow_fixed_deals=True))
    app.extensions["cardtable.access_log"].stream = io.StringIO()
    http = app.test_client()
    raw = redis.Redis.from_url(server.url)
    wanted = dict(plan.phases)
    written: list[str] = []
    for n in range(plan.seeds):
        if not wanted:
            break
        rng = random.Random(f"capture/{game}/{n}")
        body = {"players": plan.players, "options": plan.options, "bots": plan.bots, "seed": f"capture-{n}"}
        created = http.post(f"/v1/{game}/games", json=body, headers={"Idempotency-Key": f"create-{game}-{n}"})
        assert created.status_code == 201, created.get_json()
        game_id = created.get_json()["game_id"]
        tokens = [s["token"] for s in created.get_json()["seats"]]
        base = f"/v1/{game}/games/{game_id}"
        last_idem: dict[str, Any] | None = None
        for _ in range(plan.max_moves):
            record = json.loads(raw.hget(f"cardtable:game:{{{game_id}}}", "s"))
            version = int(raw.hget(f"cardtable:game:{{{game_id}}}", "v"))
            state = record["state"]
            hit = [p for p, pred in wanted.items() if pred(state, version)]
            for phase in hit:
                target = out_dir / game / f"format-{fmt}" / f"{phase}.json"
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(json.dumps({
                    "game": game, "format": fmt, "phase": phase, "game_id": game_id,
                    "players": plan.players, "tokens": tokens,
                    "keys": _dump(raw, game_id), "seen": _seen(http, base, tokens),
                    "idempotent": last_idem,
                }, indent=1, sort_keys=True) + "\n")
                written.append(str(target.relative_to(out_dir)))
                del wanted[phase]
            views = [(seat, http.get(base, headers={"Authorization": f"Bearer {t}"}).get_json())
                     for seat, t in enumerate(tokens) if t is not None]
            movers = [(seat, v) for seat, v in views if v["legal_moves"]]
            if not movers or not wanted:
                break
            seat, view = movers[int(rng.random() * len(movers))]
            move = view["legal_moves"][int(rng.random() * len(view["legal_moves"]))]
            headers = {"Authorization": f"Bearer {tokens[seat]}"}
            move_body = {"version": view["version"], "move": move}
            if rng.random() < 0.3:
                headers["Idempotency-Key"] = f"move-{view['version']}"
            answer = http.post(f"{base}/moves", json=move_body, headers=headers)
            assert answer.status_code == 200, answer.get_json()
            if "Idempotency-Key" in headers:
                last_idem = {"seat": seat, "key": headers["Idempotency-Key"], "body": move_body,
                             "answer": answer.get_json()}
    if wanted:
        raise SystemExit(f"{game}: phases never reached: {sorted(wanted)}")
    return written


def main(argv: list[str]) -> None:
    games = argv or sorted(PLANS)
    server = RedisServer()
    server.start()
    try:
        for game in games:
            for path in capture_game(game, PLANS[game], server, HERE):
                print(path)
    finally:
        server.cleanup()


if __name__ == "__main__":
    main(sys.argv[1:])
