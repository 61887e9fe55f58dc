"""The app factory: ``create_app()`` is the WSGI entry (``gunicorn 'service.app:create_app()'``)."""

from __future__ import annotations

import http
import json
import logging
from collections.abc import Callable
from typing import Any

import orjson
from flask import Flask, Response
from flask.json.provider import DefaultJSONProvider
from flask_smorest import Api
from flask_smorest import Blueprint as SmorestBlueprint

from engines import REGISTRY
from schemas import SCHEMAS
from schemas.common import Catalogue, Health, Problem, build
from schemas.people import LookupAnswer, LookupRequest
from service import bodies, cors, errors, lookup, observability, overview, ratelimit, slots, web
from service.blueprint import P400, P408, P413, P429, P503, RETRY_AFTER, _documented, make_blueprint
from service.bots import DEFAULT_LEVEL, LEVELS, BotPolicy
from service.config import Settings
from service.runtime import Runtime, runtime
from service.spec import CardtablePlugin
from service.store import MemoryStore, RedisStore, Store

API_VERSION = "1.0.0"
P422_LOOKUP = (422, "validation_error: `tokens` is missing, is not a list of texts, or holds more than 50")
log = logging.getLogger("cardtable")


class _SafeJSON(DefaultJSONProvider):
    """Flask's JSON on orjson: faster, and a too deeply nested body is a ValueError (so a
    400), never a RecursionError; responses are not key-sorted (cheaper, order kept)."""

    sort_keys = False

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        # orjson refuses nesting deeper than 1024 with a ValueError (a 400), never a RecursionError
        return orjson.loads(s)


class _App(Flask):
    """Flask, answering a plain ``OPTIONS`` with 204 and its ``Allow`` header: no body, so no
    HTML-typed empty page (a CORS preflight is answered by ``service.cors`` before this); and
    asking once per function whether it is a coroutine function (Flask asks for every hook and
    view on every request)."""

    _sync: dict[Callable[..., Any], Callable[..., Any]]

    def ensure_sync(self, func: Callable[..., Any]) -> Callable[..., Any]:
        try:
            return self._sync[func]
        except AttributeError:
            self._sync = {}
        except KeyError:
            pass
        if len(self._sync) > 512:  # the app's views and hooks are fewer: something passes new functions
            self._sync.clear()
        done = self._sync[func] = super().ensure_sync(func)
        return done

    def make_default_options_response(self) -> Response:
        response = super().make_default_options_response()
        response.status_code = 204
        response.set_data(b"")
        del response.headers["Content-Type"]
        return response


class _Api(Api):
    """flask-smorest's Api with problem+json as the documented error of every status."""

    ERROR_SCHEMA = Problem

    def _register_responses(self) -> None:
        from flask_smorest.utils import prepare_response

        for status in http.HTTPStatus:
            response: dict[str, Any] = {"description": status.phrase}
            content_type = self.DEFAULT_RESPONSE_CONTENT_TYPE
            if status >= 400:
                response["schema"] = self.ERROR_SCHEMA
                content_type = errors.PROBLEM
            prepare_response(response, self.spec, content_type)
            self.spec.components.response(status.name, response, lazy=True)
        response = {"description": "Default error response", "schema": self.ERROR_SCHEMA}
        prepare_response(response, self.spec, errors.PROBLEM)
        self.spec.components.response("DEFAULT_ERROR", response, lazy=True)

    def _register_pagination_header(self) -> None:
        """No route pages with flask-smorest's pagination: its header and schema are left out."""


def make_store(settings: Settings) -> Store:
    """Sentinel when REDIS_SENTINELS is set (REDIS_URL is then ignored), else REDIS_URL (a
    server or a cluster), else the in-process store (which has no replicas to wait for)."""
    if settings.redis_sentinels:
        return RedisStore.from_sentinels(settings.redis_sentinels, settings.sentinel_master,
                                         settings.store_timeout, settings.replica_acks, settings.redis_pool,
                                         settings.breaker_seconds, settings.secret)
    if settings.redis_url:
        return RedisStore.from_url(settings.redis_url, settings.store_timeout, settings.redis_cluster,
                                   settings.replica_acks, settings.redis_pool, settings.breaker_seconds,
                                   settings.secret)
    return MemoryStore(secret=settings.secret)


def catalogue_entries() -> list[dict[str, Any]]:
    """Every hosted game as the catalogue lists it: what the engine declares (its title, players,
    options, scoring direction, description and typical length), its bot levels, and where this
    service serves its rules (``service.web``)."""
    return [
        {
            "game": e.id,
            "title": e.title,
            "description": e.description,
            "min_players": e.players.start,
            "max_players": e.players.stop - 1,
            "options": [o.to_json() for o in e.options],
            "provisional": e.provisional,
            "bot_levels": list(LEVELS),
            "default_bot_level": DEFAULT_LEVEL,
            "scoring": e.scoring,
            "typical_minutes": e.typical_minutes,
            "rules_url": web.rules_path(e.id),
        }
        for e in REGISTRY.values()
    ]


def create_app(settings: Settings | None = None, store: Store | None = None) -> Flask:
    """Build the app from ``settings`` (default: the environment) and ``store``
    (default: Redis when REDIS_URL is set, else the in-process store)."""
    settings = settings or Settings.from_env()
    app = _App("cardtable")
    app.json = _SafeJSON(app)
    app.config.update(
        MAX_CONTENT_LENGTH=settings.max_body,
        API_TITLE="cardtable",
        API_VERSION=API_VERSION,
        OPENAPI_VERSION="3.0.3",
        OPENAPI_URL_PREFIX="/",
        OPENAPI_JSON_PATH="openapi.json",
        OPENAPI_SWAGGER_UI_PATH="docs",
        OPENAPI_SWAGGER_UI_URL="/docs/static/",  # the local swagger-ui-bundle (service/web.py): works offline
        OPENAPI_SWAGGER_UI_CONFIG={"validatorUrl": None},  # no badge fetched from the online validator
        API_SPEC_OPTIONS={
            "info": {"description": overview.description(),
                     "license": {"name": "MIT", "url": "https://opensource.org/licenses/MIT"}},
            "servers": [{"url": "/", "description": "this service: the paths are relative to where it answers"}],
            "components": {"securitySchemes": {"seatToken": {
                "type": "http", "scheme": "bearer",
                "description": "A seat's token from the create answer: `Authorization: Bearer <token>`."}}},
        },
    )
    app.extensions["cardtable"] = rt = Runtime(
        store=store or make_store(settings),
        allow_fixed_deals=settings.allow_fixed_deals,
        game_ttl=settings.game_ttl,
        stream_keepalive=settings.stream_keepalive,
        stream_max_seconds=settings.stream_max_seconds,
        stream_max_entries=max(1, settings.stream_max_entries),
        max_log_entries=settings.max_log_entries,
        long_poll_max_seconds=settings.long_poll_max_seconds,
        bot_policy=BotPolicy(settings.bot_budget_ms, settings.bot_request_seconds),
        idle_ms=int(settings.idle_days * 24 * 3600 * 1000),
        finished_ttl=max(1, int(settings.finished_days * 24 * 3600)),
    )
    # CORS first: its preflight answer comes before any count, and as Flask runs after-request hooks
    # last-registered first, its headers go on every answer, the rate limiter's late 429 included.
    cors.install(app, settings.cors_origins)
    ratelimit.install(app, settings.rate_limit, rt.store, settings.trusted_proxies, settings.create_limit)
    bodies.install(app, settings.body_timeout)  # after the rate limit: a client over it is not waited for
    slots.install(app, rt.store, settings.streams_per_seat, settings.streams_per_address, settings.stream_keepalive)
    api = _Api(app, spec_kwargs={"marshmallow_plugin": CardtablePlugin()})
    errors.register(app, settings.retry_after)
    app.extensions["cardtable.access_log"] = observability.init(app, settings.request_log)
    app.extensions["cardtable.settings"] = settings  # the sweeper's (service.sweeper.start)
    api.register_blueprint(_service_blueprint())
    for game_id, engine in REGISTRY.items():
        api.register_blueprint(make_blueprint(engine, build(engine, SCHEMAS[game_id]), rt.games))
    _document_docs_routes(api)
    web.install(app, api)

    return app


def _service_blueprint() -> SmorestBlueprint:
    blp = SmorestBlueprint("service", "service", url_prefix="/", description="Catalogue and health")

    @blp.route("v1/games", methods=["GET"], endpoint="catalogue")
    @blp.response(200, Catalogue, description="every hosted game with its options")
    @blp.alt_response(P429[0], schema=Problem, description=P429[1], content_type=errors.PROBLEM, headers=RETRY_AFTER)
    @blp.doc(operationId="listGames", summary="The catalogue of games",
             description="Every hosted game with its player counts, house-rule options (defaults, allowed "
                         "values, which are reconstructions) and bot levels. It answers while the store is down.")
    def catalogue() -> Response:
        return Response(json.dumps({"games": catalogue_entries()}), mimetype="application/json")

    @blp.route("v1/games/lookup", methods=["POST"], endpoint="lookup")
    @_documented(
        blp.arguments(LookupRequest, example={"tokens": ["PoVEs7M8_4UVkNzN.hz4z...", "nosuchtoken"]}),
        blp.response(200, LookupAnswer, description="one item per token, in order: its game and seat, or null"),
        *[blp.alt_response(status, schema=Problem, description=text, content_type=errors.PROBLEM,
                           headers=RETRY_AFTER if status in (429, 503) else None)
          for status, text in (P400, P408, P413, P422_LOOKUP, P503, P429)],
        blp.doc(operationId="lookupGames", summary="Your games: the games and seats of the tokens you keep",
                description="For each seat token (at most 50, in the body: never put a token in a URL), its game, "
                            "seat and the game's status, and whether it is that seat's turn; null for a token that "
                            "is no seat of any game here. No account needed: a client keeps its tokens and asks. "
                            "It marks no seat as present."),
    )
    def games_lookup() -> Response:
        return lookup.lookup()

    @blp.route("healthz", methods=["GET"], endpoint="healthz")
    @blp.response(200, Health, description="the process is alive")
    @blp.doc(operationId="getHealth", summary="Liveness",
             description="Answers while the process serves requests; it does not ask the store.")
    def healthz() -> Response:
        return Response(json.dumps({"status": "ok"}), mimetype="application/json")

    @blp.route("readyz", methods=["GET"], endpoint="readyz")
    @blp.response(200, Health, description="the store answers")
    @blp.alt_response(P503[0], schema=Problem, description=P503[1], content_type=errors.PROBLEM, headers=RETRY_AFTER)
    @blp.doc(operationId="getReadiness", summary="Readiness: the store answers",
             description="Pings the store: 200 when it answers, 503 `store_unavailable` when it does not.")
    def readyz() -> Response:
        store = runtime().store
        store.ping()
        return Response(json.dumps({"status": "ok", "store": store.kind}), mimetype="application/json")

    return blp


def _document_docs_routes(api: Api) -> None:
    """flask-smorest serves /openapi.json and /docs but does not list them; the contract does."""
    rules = {r.rule: r for r in api._app.url_map.iter_rules()}
    limited = {"429": {"description": P429[1], "headers": {"Retry-After": RETRY_AFTER["Retry-After"]},
                       "content": {errors.PROBLEM: {"schema": {"$ref": "#/components/schemas/Problem"}}}}}
    api.spec.path(rule=rules["/openapi.json"], operations={"get": {
        "operationId": "getOpenApi", "summary": "This OpenAPI document", "tags": ["service"],
        "description": "The API as an OpenAPI 3.0 document, as the service builds it (generated clients start "
                       "here). It does not need the store.",
        "responses": {"200": {"description": "the spec",
                              "content": {"application/json": {"schema": {"type": "object"}}}}, **limited},
    }})
    api.spec.path(rule=rules["/metrics"], operations={"get": {
        "operationId": "getMetrics", "summary": "Prometheus metrics", "tags": ["service"],
        "description": "Request, conflict, game and store figures in the Prometheus text format, for scraping.",
        "responses": {"200": {"description": "metrics in the Prometheus text format",
                              "content": {"text/plain": {"schema": {"type": "string"}}}}},
    }})
    api.spec.path(rule=rules["/docs"], operations={"get": {
        "operationId": "getDocs", "summary": "Interactive API docs", "tags": ["service"],
        "description": "A Swagger UI page over this document, served by the service itself (it works offline).",
        "responses": {"200": {"description": "an HTML page", "content": {"text/html": {"schema": {"type": "string"}}}},
                      **limited},
    }})

