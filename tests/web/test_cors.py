"""A third-party frontend on another origin, in Chromium: the service allows its origin by
CARDTABLE_CORS_ORIGINS, and the page plays through the API with ``fetch()`` the way the README
teaches: create a game (Idempotency-Key, X-Request-Id, a replay), read a view's ETag and long-poll
headers, follow the events stream with a ReadableStream reader, stop after one entry, move while
disconnected and resume with ``Last-Event-ID``. Everything the page reports is judged here.

The page is served by a tiny http.server on one loopback port and the API by werkzeug on another,
so every call is cross-origin and the browser itself enforces CORS. Playwright answers preflights
on its own while any request route is installed, which would hide the very thing under test: this
test therefore installs no route (it watches the page's requests instead) and checks that the
preflights reached the service.
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import urlsplit

import pytest
from werkzeug.serving import make_server

from service.app import create_app
from service.config import Settings
from service.store import MemoryStore
from tests.web.conftest import LOCAL_HOSTS

PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>A table on another origin</title></head>
<body><p>A third-party page that plays through the cardtable API.</p>
<script>
"use strict";

// The README's follow(), with a signal to stop reading and a check of the status.
async function follow(url, token, onEntry, lastId = null, signal = undefined) {
  const headers = { Authorization: `Bearer ${token}`, Accept: "text/event-stream" };
  if (lastId !== null) headers["Last-Event-ID"] = String(lastId);
  const reply = await fetch(url, { headers, signal });
  if (!reply.ok) throw new Error(`events answered ${reply.status}`);
  const reader = reply.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return lastId;
    buffer += value;
    let cut;
    while ((cut = buffer.indexOf("\\n\\n")) >= 0) {
      const frame = buffer.slice(0, cut); buffer = buffer.slice(cut + 2);
      const field = (name) => frame.split("\\n").find((l) => l.startsWith(name + ": "))?.slice(name.length + 2);
      if (field("event") === "entry") { lastId = Number(field("id")); onEntry(JSON.parse(field("data"))); }
      if (field("event") === "end") return null;
    }
  }
}

// The entries of one connection until enough(entries) holds (then the fetch is aborted and
// later frames are dropped) or at most `seconds` pass.
async function readUntil(url, token, lastId, enough, seconds = 5) {
  const entries = [];
  const stop = new AbortController();
  const timer = setTimeout(() => stop.abort(), seconds * 1000);
  const onEntry = (entry) => {
    if (stop.signal.aborted) return;
    entries.push(entry);
    if (enough(entries)) stop.abort();
  };
  try {
    await follow(url, token, onEntry, lastId, stop.signal);
  } catch (err) {
    if (err.name !== "AbortError") throw err;
  } finally {
    clearTimeout(timer);
  }
  return entries;
}

async function play(api) {
  const report = {};
  const createKey = `create-${Date.now()}`;
  const create = () => fetch(`${api}/v1/sten/games`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "Idempotency-Key": createKey, "X-Request-Id": "page-create" },
    body: JSON.stringify({ players: 2, bots: [{ seat: 1, level: "random" }], seed: "cors" }),
  });
  const created = await create();
  const game = await created.json();
  const again = await create();
  report.create = { status: created.status, location: created.headers.get("Location"),
                    requestId: created.headers.get("X-Request-Id"),
                    replayed: created.headers.get("Idempotent-Replayed") };
  report.replay = { status: again.status, replayed: again.headers.get("Idempotent-Replayed"),
                    gameId: (await again.json()).game_id };
  report.gameId = game.game_id;

  const token = game.seats.find((s) => !s.bot).token;
  const url = api + created.headers.get("Location");
  const auth = { Authorization: `Bearer ${token}` };
  const viewReply = await fetch(url, { headers: auth });
  const view = await viewReply.json();
  const etag = viewReply.headers.get("ETag");
  const unchanged = await fetch(url, { headers: { ...auth, "If-None-Match": etag } });
  report.view = { version: view.version, etag, unchanged: unchanged.status,
                  unchangedEtag: unchanged.headers.get("ETag") };

  const move = async (from, key) => {
    const reply = await fetch(`${url}/moves`, {
      method: "POST",
      headers: { ...auth, "Content-Type": "application/json", "Idempotency-Key": key, "X-Request-Id": key },
      body: JSON.stringify({ version: from.version, move: from.legal_moves.find((m) => m.type === "play") }),
    });
    const body = await reply.json();
    report.moves.push({ status: reply.status, version: body.version, etag: reply.headers.get("ETag"),
                        requestId: reply.headers.get("X-Request-Id") });
    return body;
  };
  report.moves = [];

  // From the version the view showed (?since=, so no move can slip in before the stream opens):
  // stop after the first entry, then move while disconnected and resume after what was read.
  const firstRead = readUntil(`${url}/events?since=${view.version}`, token, null, (es) => es.length >= 1);
  const afterFirst = await move(view, "page-move-1");
  const first = await firstRead;
  const afterSecond = await move(afterFirst, "page-move-2");
  const lastId = first.length ? first[first.length - 1].version : view.version;
  const resumed = await readUntil(`${url}/events`, token, lastId,
                                  (es) => es[es.length - 1].version >= afterSecond.version);
  const brief = (e) => ({ version: e.version, seat: e.seat, bot: e.bot });
  report.stream = { first: first.map(brief), lastId, resumed: resumed.map(brief) };
  return report;
}

// What a page on an origin the service does not allow gets: the name of each fetch's failure.
async function refused(api) {
  const outcome = (p) => p.then((r) => `read ${r.status}`, (err) => err.name);
  return {
    simple: await outcome(fetch(`${api}/v1/games`)),
    preflighted: await outcome(fetch(`${api}/v1/sten/games`, {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ players: 2 }) })),
  };
}
</script></body></html>
"""


class _PageHandler(BaseHTTPRequestHandler):
    def do_GET(self) -> None:  # noqa: N802 -- http.server's name
        body = PAGE.encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 -- http.server's signature
        pass


@dataclass
class Served:
    """The API's base URL, the two page origins (one allowed, one not) and what reached the API."""

    api: str
    allowed: str
    other: str
    requests: list[dict[str, str]] = field(default_factory=list)


def _serve(server: Any) -> threading.Thread:
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    return thread


@pytest.fixture()
def served() -> Iterator[Served]:
    """Two static page servers and the API allowing only the first one's origin."""
    logging.getLogger("werkzeug").setLevel(logging.ERROR)  # aborted streams are the point here
    pages = [ThreadingHTTPServer(("127.0.0.1", 0), _PageHandler) for _ in range(2)]
    origins = [f"http://127.0.0.1:{p.server_port}" for p in pages]
    app = create_app(Settings(allow_fixed_deals=True, request_log=False, cors_origins=(origins[0],),
                              stream_keepalive=1.0, stream_max_seconds=30.0), store=MemoryStore())
    seen: list[dict[str, str]] = []
    inner = app.wsgi_app

    def recording(environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        seen.append({"method": environ["REQUEST_METHOD"], "path": environ["PATH_INFO"],
                     "request_headers": environ.get("HTTP_ACCESS_CONTROL_REQUEST_HEADERS", "")})
        return inner(environ, start_response)

    app.wsgi_app = recording  # type: ignore[method-assign]
    api = make_server("127.0.0.1", 0, app, threaded=True)
    threads = [_serve(s) for s in (*pages, api)]
    yield Served(f"http://127.0.0.1:{api.server_port}", origins[0], origins[1], seen)
    for server, thread in zip((*pages, api), threads, strict=True):
        server.shutdown()
        thread.join(5)
        server.server_close()


@pytest.fixture()
def third_party_page(browser_context: Any) -> Iterator[Callable[[str], Any]]:
    """Pages opened in Chromium with no request route installed (a route would make Playwright
    answer preflights itself); each page's requests are watched to stay on this machine, and its
    script errors fail the test."""
    pages: list[Any] = []
    outside: list[str] = []
    errors: list[str] = []

    def open_page(url: str, console_errors: bool = True) -> Any:
        page = browser_context.new_page()
        page.on("request", lambda r: None if r.url.startswith(("data:", "blob:"))
                or urlsplit(r.url).hostname in LOCAL_HOSTS else outside.append(r.url))
        page.on("pageerror", lambda exc: errors.append(f"{page.url}: {exc}"))
        if console_errors:
            page.on("console", lambda m: errors.append(f"{page.url}: {m.text}") if m.type == "error" else None)
        page.goto(url)
        pages.append(page)
        return page

    yield open_page
    for page in pages:
        page.close()
    assert not outside, f"requests left the machine: {outside}"
    assert not errors, f"errors in the page: {errors}"


def test_a_page_on_an_allowed_origin_plays_follows_and_resumes_with_last_event_id(served, third_party_page) -> None:
    page = third_party_page(served.allowed + "/")
    report = page.evaluate("api => play(api)", served.api)

    # create, and its replay under the same Idempotency-Key, with the headers a client reads
    # the page sent its own X-Request-Id (allowed by the preflight) and reads the service's own id
    # (exposed): the service never takes a client's id as the request's
    create_id = report["create"].pop("requestId")
    assert re.fullmatch(r"[0-9a-f]{32}", create_id), create_id
    assert report["create"] == {"status": 201, "location": f"/v1/sten/games/{report['gameId']}", "replayed": None}
    assert report["replay"] == {"status": 201, "replayed": "true", "gameId": report["gameId"]}
    # the view's ETag read by the script, and a long-poll style If-None-Match answered 304
    view = report["view"]
    assert view["etag"] and view["unchanged"] == 304 and view["unchangedEtag"] == view["etag"]
    # each move answered with its new version, a new ETag and a request id of its own
    first_move, second_move = report["moves"]
    assert [m["status"] for m in report["moves"]] == [200, 200]
    move_ids = [m["requestId"] for m in report["moves"]]
    assert all(re.fullmatch(r"[0-9a-f]{32}", i) for i in move_ids) and len({create_id, *move_ids}) == 3
    assert len({view["etag"], first_move["etag"], second_move["etag"]}) == 3
    # the stream: one entry, then after Last-Event-ID exactly the entries that followed it, the
    # bot's reply to the first move and what the second move (made while disconnected) caused
    stream = report["stream"]
    assert [e["version"] for e in stream["first"]] == [view["version"] + 1]
    assert stream["lastId"] == view["version"] + 1
    resumed = [e["version"] for e in stream["resumed"]]
    assert resumed == list(range(stream["lastId"] + 1, second_move["version"] + 1))
    assert any(e["bot"] for e in stream["resumed"]) and any(not e["bot"] for e in stream["resumed"])

    # the browser asked the service itself (no test harness answered for it), Last-Event-ID included
    preflights = [r for r in served.requests if r["method"] == "OPTIONS"]
    asked = {h.strip() for r in preflights for h in r["request_headers"].lower().split(",")}
    assert {"authorization", "content-type", "idempotency-key", "x-request-id", "if-none-match",
            "last-event-id"} <= asked


def test_a_page_on_an_origin_not_allowed_can_read_nothing(served, third_party_page) -> None:
    page = third_party_page(served.other + "/", console_errors=False)  # the browser logs each refusal
    assert page.evaluate("api => refused(api)", served.api) == {"simple": "TypeError", "preflighted": "TypeError"}
    # the simple request reached the service (the browser only hid the answer); the preflight
    # got no CORS header, so the POST itself was never sent
    assert [r["method"] for r in served.requests] == ["GET", "OPTIONS"]
