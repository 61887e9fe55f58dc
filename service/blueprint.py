"""The routes of one game under ``/v1/<game>``, and their OpenAPI description.

``make_blueprint(engine, built)`` routes each request to its job's module (``service.create``,
``service.view``, ``service.moves``, ``service.log``, ``service.stream``, ``service.export``) over one ``Game``, and
documents every operation with the game's own schemas. flask-smorest's decorators are applied for
the document only (``_documented``): a request goes straight to the plain handler.
"""

from __future__ import annotations

from typing import Any

from flask import Response
from flask_smorest import Blueprint
from marshmallow import Schema

from engines.core import Engine
from schemas.common import BuiltSchemas, LogQuery, MoveCheck, Problem
from schemas.people import Joined, JoinRequest, Lobby, LobbyQuery, Rematched
from schemas.replay import PositionsQuery, build_replay
from service import create, deadlines, export, lobby, log, moves, people, ratelimit, rematch, stream, view
from service.errors import PROBLEM
from service.examples import game_examples
from service.runtime import STREAM_MAX_ENTRIES, Game
from service.view import LONG_POLL_MAX
from service.wire import IDEMPOTENCY_KEY_MAX

P400 = (400, "bad_request: the body is not JSON")
P401 = (401, "unauthorized: seat token missing, wrong, or of another game")
P403 = (403, "fixed_deal_disabled: `seed` or `deck` sent while fixed deals are off")
P404 = (404, "game_not_found: no such game, or it expired")
P409 = (409, "stale_version, not_your_turn, game_over, game_not_started (the game waits for the people of its "
             "open seats), deadline_passed (the seat's time ran out: its turn went on without it), seat_replaced "
             "(a bot has taken the seat over) or log_full (the game holds the most moves this server keeps); "
             "`current_version` says where the game is")
P409_RESIGN = (409, "game_over, game_not_started (a waiting game is called off with `abort` instead), "
                    "seat_replaced (a bot has taken the seat over already) or stale_version (the game kept "
                    "changing meanwhile); `current_version` says where the game is")
P409C = (409, "log_full: the bots' opening moves would exceed the most moves this server keeps of a game")
P413 = (413, "payload_too_large: the body is over the limit")
P422 = (422, "validation_error (`errors` says where), illegal_move (`reason` says which rule), "
             "or idempotency_conflict")
P422Q = (422, "validation_error: a query parameter is malformed or out of range (`errors` says which)")
P503 = (503, "store_unavailable: the store cannot be reached, or could not confirm that the write was "
             "replicated (then it may have applied: retry with the same Idempotency-Key); retry after `Retry-After`")
P408 = (408, "request_timeout: the body did not arrive whole within CARDTABLE_BODY_TIMEOUT seconds")
P429 = (429, "rate_limited: over CARDTABLE_RATE_LIMIT for the caller's seat (a token checked against the game it "
             "names), or else for its address; retry after `Retry-After`")
P429_CREATE = (429, "rate_limited: over CARDTABLE_RATE_LIMIT, or over CARDTABLE_CREATE_LIMIT games created, for "
                    "this address; retry after `Retry-After`")
P429_HELD = (429, "rate_limited (over CARDTABLE_RATE_LIMIT for the caller's seat, or else its address) or "
                  "too_many_streams (the caller's seat or address already holds as many event streams and long "
                  "polls as it may); retry after `Retry-After`")

P409_OVER = (409, "game_not_finished: the game is still running (`current_version` says where); "
                  "not_replayable: the stored game no longer plays under this release's rules")
P429_EXPORT = (429, "rate_limited: over CARDTABLE_RATE_LIMIT for the caller's seat, or else its address; the "
                    f"entries replayed count a request per {ratelimit.REPLAY_PAGE}, as a log read of them; retry "
                    "after `Retry-After`")
P429_LOG = (429, "rate_limited: over CARDTABLE_RATE_LIMIT for the caller's seat, or else its address; the entries "
                 f"asked for count a request per {ratelimit.REPLAY_PAGE} (a seat's count against its address too); "
                 "ask for fewer (`limit`) or retry after `Retry-After`")

P403_INVITE = (403, "bad_invite: the invite is missing (the game is not listed) or is not the game's")
P409_SEAT = (409, "no_open_seat: the seat asked for is not open, or the game has none (it has started, is over, "
                  "or keeps its open seats for the people of the game it is a rematch of)")
P409_WAITING = (409, "game_not_waiting: the game has started or is over (only a waiting game starts or is "
                     "called off); `current_version` says where it is")
P409_REMATCH = (409, "game_not_finished (the game is still running, or was called off before it was played) or "
                     "no_open_seat (the next game started without the caller)")
P422_JOIN = (422, "validation_error (`errors` says where: a name must be 1-24 printable characters) or "
                  "idempotency_conflict")

RETRY_AFTER = {"Retry-After": {"description": "seconds to wait before retrying", "schema": {"type": "integer"}}}
BEARER_OPTIONAL: list[dict[str, list[str]]] = [{}, {"seatToken": []}]
BEARER: list[dict[str, list[str]]] = [{"seatToken": []}]
IDEMPOTENCY = {
    "in": "header", "name": "Idempotency-Key", "required": False,
    "description": "makes a retry answer as the first request did and apply nothing twice; "
                   "a random value (e.g. a UUID) per intended move",
    "schema": {"type": "string", "minLength": 1, "maxLength": IDEMPOTENCY_KEY_MAX},
}
LAST_EVENT_ID = {"in": "header", "name": "Last-Event-ID", "required": False,
                 "description": "resume after this version (the `id` of the last event received)",
                 "schema": {"type": "string", "pattern": "^[0-9]{1,12}$"}}
SINCE = {"in": "query", "name": "since", "required": False,
         "description": "start after this version (without it and without Last-Event-ID: at the current one)",
         "schema": {"type": "integer", "minimum": 0}}
WAIT = {"in": "query", "name": "wait", "required": False,
        "description": f"long polling: with If-None-Match naming the current version, answer as soon as the "
                       f"version changes, or 304 after this many seconds (at most {LONG_POLL_MAX}; a server may "
                       "cut a wait shorter: poll again)",
        "schema": {"type": "integer", "minimum": 0, "maximum": LONG_POLL_MAX}}
STREAM_DESCRIPTION = (
    "`text/event-stream`: a comment line at once; then, per log entry after the start version, an event "
    "`id: <version>`, `event: entry`, `data: <the log entry as the caller sees it, as in get<Game>Log>`; a "
    "`: keep-alive` comment at least every 15 s; after the game is over, `event: end` with "
    "`data: {\"version\": V}`, and the stream closes. It also closes after an hour or "
    f"{STREAM_MAX_ENTRIES:,} entries (the server's defaults; a `:` comment says so), when the store is lost, "
    f"or when catching up takes the caller over its rate limit (every {ratelimit.REPLAY_PAGE} entries after the "
    "first cost a request; a `retry:` field gives the delay): reconnect with `Last-Event-ID`, nothing is "
    "missed or repeated.")
CACHED = {"Cache-Control": {"description": "`private, no-cache` for a seat (its hidden cards stay in the caller's "
                                           "own cache), `public, no-cache` for the spectator",
                            "schema": {"type": "string"}},
          "Vary": {"description": "`Authorization`: each seat sees its own answer", "schema": {"type": "string"}}}
IF_NONE_MATCH = {"in": "header", "name": "If-None-Match", "required": False,
                 "description": "an ETag from an earlier view: 304 if the view is unchanged",
                 "schema": {"type": "string"}}
GAME_ID = {"in": "path", "name": "game_id", "description": "The game's id: `game_id` of the create answer (its "
                                                          "`Location` names the view)."}
ETAG = {"ETag": {"description": "names the version and the viewer (opaque): send it back in `If-None-Match`",
                 "schema": {"type": "string"}}}
REPLAYED = {"Idempotent-Replayed": {"description": "`true` when this is the kept answer of an earlier request with "
                                                   "the same Idempotency-Key: nothing was applied again",
                                    "schema": {"type": "string", "enum": ["true"]}}}


def _alt(blp: Blueprint, *problems: tuple[int, str], schema: type[Schema] = Problem) -> list[Any]:
    """The documented problem answers of an operation, as ``schema`` (a move's: its game's reasons);
    every one can be rate limited (429: ``P429`` unless the operation names its own)."""
    limited = () if any(status == 429 for status, _ in problems) else (P429,)
    return [blp.alt_response(status, schema=schema, description=description, content_type=PROBLEM,
                             headers=RETRY_AFTER if status in (429, 503) else None)
            for status, description in (*problems, *limited)]


def _documented(*decorators: Any) -> Any:
    """Apply flask-smorest's decorators for the OpenAPI document only.

    The route gets the plain handler carrying the collected ``_apidoc``, so no request pays
    for ten wrapper layers and webargs; handlers load their body with ``load_body``."""

    def wrap(fn: Any) -> Any:
        documented = fn
        for decorator in reversed(decorators):
            documented = decorator(documented)
        fn._apidoc = documented._apidoc
        return fn

    return wrap


def _table_route(blp: Blueprint, built: BuiltSchemas, game: Game, prefix: str, action: str, summary: str,
                 description: str) -> None:
    """``POST .../start`` or ``POST .../abort``: a seated person's change of a waiting game."""
    handler = {"start": people.start, "abort": people.abort}[action]

    @blp.route(f"/games/<string(maxlength=64):game_id>/{action}", methods=["POST"], endpoint=action,
               parameters=[dict(GAME_ID)])
    @_documented(
        blp.response(200, built.move_answer, description="the caller's view and the log entries written",
                     headers={**ETAG, **CACHED}),
        *_alt(blp, P401, P404, P409_WAITING, P503),
        blp.doc(operationId=f"{action}{prefix}Game", summary=summary, description=description, security=BEARER),
    )
    def act(game_id: str) -> Response:
        return handler(game, game_id)


def make_blueprint(engine: Engine, built: BuiltSchemas, games: dict[str, Game] | None = None) -> Blueprint:
    """All routes of one game under ``/v1/<game>``, documented with its own schemas; its ``Game`` is
    kept in ``games`` (the sweeper's, ``service.sweeper``)."""
    game = Game(engine, built)
    if games is not None:
        games[engine.id] = game
    prefix = built.prefix
    examples = game_examples(game)
    blp = Blueprint(engine.id, engine.id, url_prefix=f"/v1/{engine.id}", description=engine.title)

    @blp.route("/games", methods=["POST"], endpoint="create")
    @_documented(
        blp.arguments(built.create_request, example=examples.create_request),
        blp.response(201, built.create_response, description="the new game", example=examples.created,
                     headers={"Location": {"description": "URL of the game's view", "schema": {"type": "string"}},
                              **REPLAYED}),
        *_alt(blp, P400, P403, P408, P409C, P413, P422, P503, P429_CREATE),
        blp.doc(operationId=f"create{prefix}Game", summary=f"Start a game of {engine.title}",
                description=f"Deals a new game of {engine.title} and answers with one token per person's seat, "
                            "shown only in this answer. Bots named in `bots` make their opening moves before "
                            "the answer. With an `Idempotency-Key` a retry gets the same game and tokens.",
                parameters=[IDEMPOTENCY]),
    )
    def create_game() -> Response:
        return create.create(game)

    @blp.route("/games", methods=["GET"], endpoint="lobby")
    @_documented(
        blp.arguments(LobbyQuery, location="query"),
        blp.response(200, Lobby, description="a page of the listed games that wait for people, newest first"),
        *_alt(blp, P422Q, P503),
        blp.doc(operationId=f"list{prefix}Games", summary=f"The lobby: games of {engine.title} waiting for people",
                description="The games created with `listed: true` that still wait for the people of their open "
                            "seats, newest first, a page at a time (`limit`, and `cursor` from the last page's "
                            "`next_cursor`). Anyone may join one of them without its invite. A game shows here "
                            "for at most a day, and never once it has started or was called off."),
    )
    def list_games() -> Response:
        return lobby.games(game)

    @blp.route("/games/<string(maxlength=64):game_id>", methods=["GET"], endpoint="view",
               parameters=[dict(GAME_ID)])
    @_documented(
        blp.response(200, built.view, description="the caller's view", example=examples.view,
                     headers={**ETAG, **CACHED}),
        blp.alt_response(304, description="not modified since the ETag in If-None-Match", headers=CACHED),
        *_alt(blp, P401, P404, P422Q, P503, P429_HELD),
        blp.doc(operationId=f"get{prefix}View", summary="A seat's view (with its token) or the spectator view",
                description="With a seat token, that seat's view: its own cards, the table and its legal moves. "
                            "Without one, the spectator's, which shows only what lies open. Send the `ETag` back "
                            "in `If-None-Match` for a 304 while nothing changed, and add `wait` to long-poll.",
                parameters=[IF_NONE_MATCH, WAIT], security=BEARER_OPTIONAL),
    )
    def view_game(game_id: str) -> Response:
        return view.view(game, game_id)

    @blp.route("/games/<string(maxlength=64):game_id>/moves", methods=["POST"], endpoint="submit",
               parameters=[dict(GAME_ID)])
    @_documented(
        blp.arguments(built.move_request, example=examples.move_request),
        blp.response(200, built.move_answer, description="the mover's new view, after any bot moves that followed, "
                                                          "with the log entries this request wrote (`entries`)",
                     example=examples.moved, headers={**ETAG, **CACHED, **REPLAYED}),
        *_alt(blp, P400, P401, P404, P408, P409, P413, P422, P503, schema=built.move_problem),
        blp.doc(operationId=f"submit{prefix}Move", summary="Submit one move for the caller's seat",
                description="Applies one move for the caller's seat, then every bot move that follows, in one "
                            "atomic write, and answers with the mover's new view. With `version` a move decided "
                            "on an old view is refused (409 `stale_version`) instead of applied to a newer state; "
                            "with an `Idempotency-Key` a retry is safe. A move the rules refuse is 422 "
                            "`illegal_move`, its `reason` one of the game's.",
                parameters=[IDEMPOTENCY], security=BEARER),
    )
    def submit_move(game_id: str) -> Response:
        return moves.submit(game, game_id)

    @blp.route("/games/<string(maxlength=64):game_id>/moves/check", methods=["POST"], endpoint="check",
               parameters=[dict(GAME_ID)])
    @_documented(
        blp.arguments(built.move_request, example=examples.move_request),
        blp.response(200, MoveCheck, description="the move would be accepted now (a refusal is the 422 "
                                                 "`illegal_move` it would get); nothing changes"),
        *_alt(blp, P400, P401, P404, P408, P409, P413, P422, P503, schema=built.move_problem),
        blp.doc(operationId=f"check{prefix}Move", summary="Check a move without making it",
                description="Takes exactly the body of `submitMove` and answers as it would, but changes "
                            "nothing (the version, the log and idempotency records stay) and reveals "
                            "nothing hidden: checking a draw says only that drawing is legal.",
                security=BEARER),
    )
    def check_move(game_id: str) -> Response:
        return moves.check(game, game_id)

    @blp.route("/games/<string(maxlength=64):game_id>/events", methods=["GET"], endpoint="events",
               parameters=[dict(GAME_ID)])
    @_documented(
        *_alt(blp, P401, P404, P422Q, P503, P429_HELD),
        blp.doc(operationId=f"stream{prefix}Events", summary="The caller's log as a live stream (Server-Sent Events)",
                description=f"The log pushed as it grows: each entry as `get{prefix}Log` shows it to the caller, "
                            "sent the moment its move is committed, its version as the event's `id`. Reconnect "
                            "with `Last-Event-ID` and nothing is missed or repeated. Browsers read it with "
                            "`fetch()`, since `EventSource` cannot send the token.",
                parameters=[LAST_EVENT_ID, SINCE], security=BEARER_OPTIONAL,
                responses={"200": {
                    "description": STREAM_DESCRIPTION,
                    "content": {"text/event-stream": {"schema": {"type": "string"}}},
                    "headers": {"Cache-Control": {"description": "no-cache", "schema": {"type": "string"}},
                                "X-Accel-Buffering": {"description": "`no`: proxies must not buffer the stream",
                                                      "schema": {"type": "string"}}}}}),
    )
    def stream_events(game_id: str) -> Response:
        return stream.events(game, game_id)

    @blp.route("/games/<string(maxlength=64):game_id>/log", methods=["GET"], endpoint="log",
               parameters=[dict(GAME_ID)])
    @_documented(
        blp.arguments(LogQuery, location="query"),
        blp.response(200, built.log, description="the move log, redacted for the caller", example=examples.log,
                     headers=CACHED),
        *_alt(blp, P401, P404, P422Q, P503, P429_LOG),
        blp.doc(operationId=f"get{prefix}Log", summary="The move log, redacted for the caller",
                description="Every applied move, oldest first, bot moves included, each with what it caused. A "
                            "seat sees what it would see at the table, the spectator only what lies open; a move "
                            "that hid cards shows each viewer only its part. Page with `since` and `limit`.",
                security=BEARER_OPTIONAL),
    )
    def game_log(game_id: str) -> Response:
        return log.log(game, game_id)

    @blp.route("/games/<string(maxlength=64):game_id>/join", methods=["POST"], endpoint="join",
               parameters=[dict(GAME_ID)])
    @_documented(
        blp.arguments(JoinRequest, example={"invite": "x2Vq...", "name": "Bo"}),
        blp.response(201, Joined, description="the seat claimed and its token", headers=REPLAYED),
        *_alt(blp, P400, P403_INVITE, P404, P408, P409_SEAT, P413, P422_JOIN, P503),
        blp.doc(operationId=f"join{prefix}Game", summary="Claim an open seat of a waiting game",
                description="Sits down at an open seat (the one named in `seat`, else the first) with a name, "
                            "and answers the seat's token, once. It needs the game's `invite`, but for a listed "
                            "game. Racing joins never share a seat; when the last open seat is claimed the game "
                            "starts (its log gets an entry with `game_started`, and the bots that are due move). "
                            "With an `Idempotency-Key` a retry gets the same seat and token.",
                parameters=[IDEMPOTENCY]),
    )
    def join_game(game_id: str) -> Response:
        return people.join(game, game_id)

    for action, summary, description in (
        ("start", "Start a waiting game now, with bots in its open seats",
         "A seated person (the token of a person's seat) starts the waiting game without waiting for the "
         "seats still open: each becomes a bot of the default level (`bot_seated`), the game starts "
         "(`game_started`) and the bots that are due move. The answer is the caller's view, with the log "
         "entries this request wrote."),
        ("abort", "Call a waiting game off",
         "A seated person calls the waiting game off before it starts: it is `finished`, unplayed, its "
         "result's `termination` is `aborted`, and its log ends with `game_aborted`. The answer is the "
         "caller's view, with the entry written."),
    ):
        _table_route(blp, built, game, prefix, action, summary, description)

    @blp.route("/games/<string(maxlength=64):game_id>/resign", methods=["POST"], endpoint="resign",
               parameters=[dict(GAME_ID)])
    @_documented(
        blp.response(200, built.move_answer, description="the caller's view after resigning, with the log entries "
                                                          "this request wrote", headers={**ETAG, **CACHED, **REPLAYED}),
        *_alt(blp, P401, P404, P409_RESIGN, P503),
        blp.doc(operationId=f"resign{prefix}Game", summary="Give the game up",
                description="A person gives the game up (the token of a person's seat). A two-player game ends at "
                            "once: `termination` `resignation`, the seat loses. In a larger game a bot of the "
                            "default level takes the seat over for the rest of the game (its `status` `replaced`, "
                            "`replaced_because` `resigned`) and the others play on. Either way the log gets an "
                            "entry with `resigned`, and the seat is listed in the result's `forfeited` and ranked "
                            "last. The seat's token still reads the game; its moves answer 409 `seat_replaced`. "
                            "With an `Idempotency-Key` a retry answers as the first call did.",
                parameters=[IDEMPOTENCY], security=BEARER),
    )
    def resign_game(game_id: str) -> Response:
        return deadlines.resign(game, game_id)

    @blp.route("/games/<string(maxlength=64):game_id>/rematch", methods=["POST"], endpoint="rematch",
               parameters=[dict(GAME_ID)])
    @_documented(
        blp.response(201, Rematched, description="the next game, created by this call, and the caller's seat in it"),
        blp.alt_response(200, schema=Rematched, description="the next game, which an earlier call created, and the "
                                                            "caller's seat in it (the same token on every call)"),
        *_alt(blp, P401, P404, P409_REMATCH, P503),
        blp.doc(operationId=f"rematch{prefix}Game", summary="Play a finished game again, the same people",
                description="A seat of a finished game asks for the next game: the same game, options, players, "
                            "names and bot levels, a fresh deal, and whoever sat at seat s sits at seat "
                            "(s + 1) mod players. The first call creates it (201), each later call takes the "
                            "caller's seat in it (200); a repeated call answers the same token. It waits for "
                            "every person of the finished game to call, or for one of them to start it (then bots "
                            "take the seats still waiting). Every view of the finished game shows its "
                            "`next_game_id`.",
                security=BEARER),
    )
    def rematch_game(game_id: str) -> Response:
        return rematch.rematch(game, game_id)

    replay = build_replay(engine, built)

    @blp.route("/games/<string(maxlength=64):game_id>/export", methods=["GET"], endpoint="export",
               parameters=[dict(GAME_ID)])
    @_documented(
        blp.response(200, replay.export, description="the finished game, every entry unredacted",
                     headers={"ETag": {"description": "names the game's last version: an export never changes",
                                       "schema": {"type": "string"}},
                              "Cache-Control": {"description": "`public, no-cache`", "schema": {"type": "string"}}}),
        blp.alt_response(304, description="not modified since the ETag in If-None-Match"),
        *_alt(blp, P401, P404, P409_OVER, P503, P429_EXPORT),
        blp.doc(operationId=f"export{prefix}Game", summary="A finished game as one replayable document",
                description="The game as it was set up (players, options, seed and the first deal's deck) and "
                            "played (every move and event, unredacted, with its time), and its result: create a "
                            "game with the same seed, options and players and post every entry's move as its "
                            "seat to play it again. Only once the game is over (409 `game_not_finished` before): "
                            "until then nothing hidden is revealed. Anyone who knows the game may ask; a seat "
                            "token, when sent, must be valid.",
                parameters=[IF_NONE_MATCH], security=BEARER_OPTIONAL),
    )
    def export_game(game_id: str) -> Response:
        return export.export(game, game_id)

    @blp.route("/games/<string(maxlength=64):game_id>/positions", methods=["GET"], endpoint="positions",
               parameters=[dict(GAME_ID)])
    @_documented(
        blp.arguments(PositionsQuery, location="query"),
        blp.response(200, replay.positions, description="the positions asked for, every hand open"),
        *_alt(blp, P401, P404, P409_OVER, P422Q, P503, P429_EXPORT),
        blp.doc(operationId=f"get{prefix}Positions", summary="A finished game's positions, every hand open",
                description="Watching a finished game again: from position `start` (0 is the deal) on, each "
                            "position's spectator view and every seat's hand. The server plays the game again "
                            "from its start up to the last position asked for, which costs what reading as many "
                            "log entries does. Only once the game is over (409 `game_not_finished` before).",
                security=BEARER_OPTIONAL),
    )
    def game_positions(game_id: str) -> Response:
        return export.positions(game, game_id)

    return blp
