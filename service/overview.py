"""The OpenAPI document's own description (``info.description``): a page on what the service is and
what a client needs before the operations, in CommonMark.

It is built from the registry and the service's constants, so that the games and the figures in it
are the ones the service has: the limits are the defaults a deployment starts from (each named by
its setting). tests/test_spec_explains.py checks that it names every error code the service answers.
"""

from __future__ import annotations

from engines import REGISTRY
from schemas import SCHEMAS
from schemas.common import LOG_LIMIT, LOG_LIMIT_MAX, MAX_DECK, MAX_LIST, MAX_SEED
from service.bots import DEFAULT_LEVEL, LEVELS
from service.config import Settings
from service.ratelimit import REPLAY_PAGE
from service.view import LONG_POLL_MAX
from service.wire import IDEMPOTENCY_KEY_MAX

#: The errors, in the order a client meets them: (status, code, when).
ERRORS: tuple[tuple[str, str, str], ...] = (
    ("400", "bad_request", "the body is not JSON, or not sent as `application/json`"),
    ("401", "unauthorized", "a seat token is missing where a seat is needed, or it is not a seat of this game"),
    ("403", "bad_invite", "a join without the game's invite (the game is not listed) or with another one"),
    ("403", "fixed_deal_disabled", "`seed` or `deck` on create while the server does not allow fixed deals"),
    ("404", "game_not_found", "no such game under this game's path, or it expired"),
    ("404", "not_found", "no such route or file"),
    ("405", "method_not_allowed", "the route does not take this method (`Allow` lists those it takes)"),
    ("408", "request_timeout", "the body did not arrive whole in time"),
    ("409", "stale_version", "the move's `version` is not the game's (`current_version` says where it is)"),
    ("409", "not_your_turn", "the seat is not to move"),
    ("409", "game_over", "the game has finished"),
    ("409", "game_not_started", "a move (or its check) in a game that still waits for the people of its open seats"),
    ("409", "deadline_passed", "a move (or its check) of a seat whose time ran out: its turn went on without it"),
    ("409", "seat_replaced", "a move, its check or a resign of a seat a bot took over (it resigned or timed out); "
                             "its token still reads the game"),
    ("409", "no_open_seat", "a join when the seat asked for is not open, or the game has none left"),
    ("409", "game_not_waiting", "a start or an abort of a game that has started or is over"),
    ("409", "log_full", "the game holds the most moves this server keeps of one game"),
    ("409", "game_not_finished", "an export, a game's positions or a rematch asked for before the game is over "
                                 "(or of a game called off unplayed)"),
    ("409", "not_replayable", "a stored game no longer plays under this release's rules, so it cannot be "
                              "shown move by move"),
    ("409", "unknown_snapshot_version", "the game was stored by a newer release (during an upgrade): retry"),
    ("413", "payload_too_large", "the body is over the size limit"),
    ("415", "unsupported_media_type", "the framework's own refusal of a body's media type"),
    ("422", "validation_error", "the request does not match its schema, or the game cannot be set up as asked "
                                "(`errors` says where)"),
    ("422", "illegal_move", "the move is well-formed but the rules refuse it (`reason` says which rule)"),
    ("422", "idempotency_conflict", "the `Idempotency-Key` came before with another body or seat"),
    ("429", "rate_limited", "over the request or create rate limit: retry after `Retry-After` seconds"),
    ("429", "too_many_streams", "the seat or address holds as many event streams and long polls as it may"),
    ("4xx", "http_error", "any other HTTP error the framework raises, with its own status"),
    ("500", "internal_error", "a bug; nothing was changed"),
    ("503", "store_unavailable", "the store did not answer (or did not confirm replication): retry after "
                                 "`Retry-After` seconds, a move with its `Idempotency-Key`"),
)


def _players(allowed: range) -> str:
    first, last = allowed.start, allowed.stop - 1
    return str(first) if first == last else f"{first}-{last}"


def description() -> str:
    """``info.description`` of the OpenAPI document."""
    d = Settings()
    games = "\n".join(
        f"| `{e.id}` | {e.title}{' (provisional)' if e.provisional else ''} | {_players(e.players)} | "
        f"`{SCHEMAS[e.id].prefix}` |" for e in REGISTRY.values())
    errors = "\n".join(f"| {status} | `{code}` | {when} |" for status, code, when in ERRORS)
    levels = ", ".join(f"`{level}`" for level in LEVELS)
    return f"""\
cardtable hosts card games behind one REST API: any frontend can offer them, any language can generate a
typed client from this document. The service keeps no game in a worker: each request loads the game
from the store, applies the game's rules and writes it back with one atomic compare-and-set.

## Games

Each game has its own paths (`/v1/{{game}}/...`), operations and schemas, named with its prefix
(`create<Game>Game`, `<Game>View`, `<Game>Move`, ...), so a generated client gets typed moves per game.
The catalogue (`GET /v1/games`) lists every game with its house-rule options, defaults and bot levels.

| game id | game | players | prefix |
|---|---|---|---|
{games}

A provisional game plays a reconstruction where its published rules stop; its options say which
readings it offers.

## Seats and tokens

A game has seats numbered from 0. Create answers with one token per person's seat, once: send it as
`Authorization: Bearer <token>` to see that seat's cards and to move for it. The service keeps only a
hash of it. Without a token, a `GET` answers as the spectator, who sees only what lies open on the
table. The server plays the seats named in `bots` at a level ({levels}; `{DEFAULT_LEVEL}` by
default), inside the request that gives them the turn.

## People at the table

- Create takes `seats`, one per player: `{{"name": "Ann"}}` (a person; the answer carries the token),
  `{{"bot": "<level>"}}` or `{{"open": true}}` (`name` optional); names are 1-24 printable characters. A
  game with open seats is `waiting` (no move yet: 409 `game_not_started`) and its create answer carries
  an `invite`. `join<Game>Game` claims an open seat with the invite and a name (a `listed` game needs no
  invite): the last seat claimed starts the game. A seated person may `start` it (bots take the open
  seats) or `abort` it. The lobby, `list<Game>Games`, lists the listed games that wait.
- Each person's seat says `connected`: at the table now (a stream, a long poll, or a request in the last
  30 s). It moves no version but changes the view's `ETag`.
- `rematch<Game>Game` with a seat token of a finished game creates (or joins) the next game, the same
  people one seat on; `lookupGames` answers the games of up to 50 tokens, sent in the body.

## Time and leaving

- Create takes `clock`: `{{"kind": "fischer", "initial_seconds", "increment_seconds"}}` or
  `{{"kind": "per_move", "seconds"}}`, with `on_timeout` (`bot` or `forfeit`) and `max_timeouts`. Each
  person's seat shows `clock` (`remaining_ms` as of `server_time`, `running`); the view's `deadline` is
  when the running clock runs out. Bots have no clock.
- At a deadline the service acts by itself, through the same atomic write as a move: a bot plays the
  turn (`timed_out`), takes the seat over after `max_timeouts` turns in a row, or, under `forfeit`, the
  seat loses a two-player game (termination `timeout`) or is forfeited in a larger one. A move after the
  deadline is 409 `deadline_passed`.
- `resign<Game>Game` gives the game up: a two-player game ends (`resignation`), in a larger one a bot
  takes the seat over (`replaced`); its moves are then 409 `seat_replaced`. Forfeited seats rank last.

## Views, versions and concurrency

- A view is what one viewer may see: the game's `state` (other hands only as counts), the seats to move
  and the caller's `legal_moves`, each of which can be posted back as it is. `result` says how a
  finished game ended.
- `version` counts the moves applied, bot moves included. A move may carry the `version` it was decided
  on: if the game has moved on, it is refused with 409 `stale_version` and nothing changes. Two moves at
  once on one game: exactly one applies, with the bot moves that follow it, in one atomic write.
- A view has an `ETag` (the version, the viewer, and who is at the table). Send it back in
  `If-None-Match`: 304 while nothing changed; add `?wait=` (at most {LONG_POLL_MAX} s) to long-poll for
  the next change.
- Create and move take an `Idempotency-Key` (1-{IDEMPOTENCY_KEY_MAX} printable characters, say a UUID per
  intended request): a retry answers as the first request did (`Idempotent-Replayed: true`) and applies
  nothing twice; the same key with another body is 422 `idempotency_conflict`.

## Moves, cards and refusals

A move is an object with a `type`: one schema per kind of move and game, the union `<Game>Move` with a
discriminator. Cards travel as codes described by each game's `<Game>Card` (a pattern and what the
ranks, suits and jokers are): standard cards are the rank then the suit (`7H`, `10S`, `QD`), a joker
`JK`; Keine lahme Agame has cards of its own (`red-13`, `blue-hat`). `POST .../moves/check` judges a
move without making it. A move the rules refuse is 422 `illegal_move`, and its `reason` is one of the
game's codes, each listed with its meaning in `<Game>MoveProblem`.

## Errors

Every error is `application/problem+json` (RFC 9457) with a stable `code`; program against the code,
not against `detail`, which is for people and never reveals a hidden card. `errors` comes with
`validation_error`, `current_version` with the 409s about the game's state, `reason` with
`illegal_move`. A refused request changes nothing; only a 503 whose `detail` says so may have applied.

| status | code | when |
|---|---|---|
{errors}

## The log, streams and long polls

`GET .../log` answers every applied move, oldest first, with what it caused (`events`), redacted for the
caller: a seat sees what it would see at the table, and a move that hid cards (a draw) shows each
viewer its part only (`<Game>LoggedMove`). Pages hold up to `limit` entries ({LOG_LIMIT} by default, at
most {LOG_LIMIT_MAX:,}); `next_since` says where to go on. `GET .../events` pushes the same entries as
Server-Sent Events the moment they are committed, each with its version as `id`; reconnect with
`Last-Event-ID` and nothing is missed or repeated. Browsers read it with `fetch()`, since `EventSource`
cannot send the token. Every wait is bounded: a stream sends a keep-alive comment at least every
{d.stream_keepalive:.0f} s and closes after {d.stream_max_seconds / 3600:.0f} hour or {d.stream_max_entries:,}
entries (then reconnect), a long poll answers 304 within {LONG_POLL_MAX} s.

## Limits

The defaults a deployment starts from; each is a setting (`CARDTABLE_...`).

| what | limit | above it |
|---|---|---|
| a request body | {d.max_body:,} bytes (`CARDTABLE_MAX_BODY`) | 413 `payload_too_large` |
| `seed`; `deck`; a list in a move | {MAX_SEED} characters; {MAX_DECK} cards; {MAX_LIST} items | 422 \
`validation_error` |
| a body's arrival | {d.body_timeout:.0f} s (`CARDTABLE_BODY_TIMEOUT`) | 408 `request_timeout` |
| moves in one game | {d.max_log_entries:,} (`CARDTABLE_MAX_LOG_ENTRIES`) | 409 `log_full` |
| a game's life | {d.game_ttl // 86400} days after its last write (`CARDTABLE_GAME_TTL`) | 404 `game_not_found` |
| requests, creates | none by default (`CARDTABLE_RATE_LIMIT`, `CARDTABLE_CREATE_LIMIT`) | 429 `rate_limited` |
| entries replayed (log, stream catch-up) | a request of the rate limit per {REPLAY_PAGE} | 429 `rate_limited` |
| open streams and long polls | {d.streams_per_seat} per seat, {d.streams_per_address} per address | 429 \
`too_many_streams` |
| bot moves of one request | {d.bot_request_seconds} s of CPU at level `strong` | the bots play on at `greedy` |
"""
