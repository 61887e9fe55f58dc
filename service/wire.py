"""The HTTP side of the game handlers: bodies, query parameters and headers read and checked
(422 ``validation_error`` naming what is wrong), JSON answers, ETags, cache headers and the
replay of an answer kept under an Idempotency-Key."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import orjson
from flask import Request, Response, request
from marshmallow import Schema, ValidationError
from werkzeug.datastructures import Headers
from werkzeug.exceptions import BadRequest, ClientDisconnected, HTTPException, RequestEntityTooLarge

from service.errors import ApiError
from service.records import dumps, loads

IDEMPOTENCY_KEY_MAX = 200


def current_request() -> Request:
    """The request itself, asked of Flask's ``request`` proxy once: each attribute read through the
    proxy looks the request up again (about 0.6 us a time), so a step that reads several asks here."""
    req: Request = request._get_current_object()  # type: ignore[attr-defined]
    return req


def environ() -> dict[str, Any]:
    """The request's WSGI environ (``current_request``: a move asks three times)."""
    found: dict[str, Any] = current_request().environ
    return found


def json_response(body: Any, status: int = 200, headers: Mapping[str, str] | None = None) -> Response:
    """``body`` as compact JSON (already encoded when it is bytes), with ``headers``."""
    response = Response(body if isinstance(body, bytes) else dumps(body), status=status, mimetype="application/json")
    if headers:
        response.headers.extend(headers)  # none of them is set yet: added, not looked up and replaced
    return response


#: A view's cache headers (``cache_headers``) as header pairs: a seat's, the spectator's.
_SEAT_CACHE = (("Cache-Control", "private, no-cache"), ("Vary", "Authorization"))
_SPECTATOR_CACHE = (("Cache-Control", "public, no-cache"), ("Vary", "Authorization"))


def view_response(body: bytes, tag: str, seat: int | None) -> Response:
    """A view's 200 (a view, a move's answer): ``body`` with its ETag and ``cache_headers``, the
    same headers in the same order as ``json_response`` writes them (Content-Type, Content-Length,
    ETag, Cache-Control, Vary). The header list is handed to werkzeug as it is and the body set
    after: werkzeug's check of each value (no line break) has nothing to find in the lengths, ETags
    and constants the service made, and setting them one by one (each looked up and replaced) costs
    more than the rest of the answer."""
    headers = Headers()
    headers._list = [("Content-Type", "application/json"), ("Content-Length", str(len(body))), ("ETag", tag),
                     *(_SPECTATOR_CACHE if seat is None else _SEAT_CACHE)]  # werkzeug keeps its pairs in this list
    response = Response(None, 200, headers)
    response.response = [body]  # what ``set_data`` keeps, its Content-Length set above
    return response


#: What a view holds, as this release draws it: part of every view's ETag, and changed whenever a
#: release renames or adds view fields, so that a view a client cached before an upgrade is sent
#: anew instead of confirmed with a 304 (the game's version alone would not have moved).
VIEW_SHAPE = 3


def etag(version: int, seat: int | None, extra: str = "") -> str:
    """The ETag of a view: it names the game's version, the viewer (``s`` = spectator), the view's
    shape (``VIEW_SHAPE``) and ``extra``, what else the view shows that the version does not count
    (who is at the table, ``service.presence``; a rematch, ``service.rematch``)."""
    return f'"{version}.{"s" if seat is None else seat}.{VIEW_SHAPE}{"." + extra if extra else ""}"'


def cache_headers(seat: int | None) -> dict[str, str]:
    """How caches may keep a view or a log: a seat's only in the caller's own cache (it shows the
    seat's hidden cards), the spectator's in any cache; both revalidated every time (the ETag
    makes that a 304). One URL answers each seat differently, so caches key on Authorization."""
    return dict(_SPECTATOR_CACHE if seat is None else _SEAT_CACHE)


def matches(tag: str) -> bool:
    """The request's If-None-Match names ``tag`` (weakly or strongly)."""
    if "HTTP_IF_NONE_MATCH" not in environ():  # most requests: nothing to parse
        return False
    return tag in request.if_none_match or request.if_none_match.contains_weak(tag.strip('"'))


def nested_errors(flat: Mapping[str, str]) -> dict[str, Any]:
    """``{"options.x": "msg"}`` -> ``{"options": {"x": ["msg"]}}``, the shape of schema errors."""
    out: dict[str, Any] = {}
    for key, msg in flat.items():
        node = out
        *path, last = key.split(".")
        for part in path:
            node = node.setdefault(part, {})
        node.setdefault(last, []).append(msg)
    return out


def idempotency_key() -> str | None:
    """The request's Idempotency-Key header, checked; None when absent."""
    key = environ().get("HTTP_IDEMPOTENCY_KEY")  # the header as request.headers reads it
    if key is not None and not (0 < len(key) <= IDEMPOTENCY_KEY_MAX and key.isascii() and key.isprintable()):
        raise ApiError(422, "validation_error", "Idempotency-Key must be 1-200 printable ASCII characters.",
                       errors={"Idempotency-Key": ["must be 1-200 printable ASCII characters"]})
    return key


def replayed(stored: bytes, body_print: str) -> dict[str, Any]:
    """The first answer kept under an Idempotency-Key, if this request is the same one;
    422 ``idempotency_conflict`` when the key came with another body (or seat)."""
    first: dict[str, Any] = loads(stored)
    if first["fingerprint"] != body_print:
        raise ApiError(422, "idempotency_conflict", "This Idempotency-Key was used with a different request.")
    return first


def query_int(name: str, default: int, minimum: int, maximum: int | None) -> int:
    """An integer query parameter, checked: 422 ``validation_error`` naming it when it is not one."""
    given = request.args.getlist(name) if request.environ.get("QUERY_STRING") else None
    if not given:
        return default
    raw = given[0] if len(given) == 1 else ""  # a repeated parameter is as wrong as a malformed one
    value = int(raw) if raw.isascii() and raw.isdigit() and len(raw) <= 12 else -1
    if value < minimum or (maximum is not None and value > maximum):
        bound = f"between {minimum} and {maximum}" if maximum is not None else f"at least {minimum}"
        raise ApiError(422, "validation_error", f"Query parameter `{name}` must be an integer {bound}.",
                       errors={"query": {name: [f"must be an integer {bound}"]}})
    return value


def last_event_id(value: str) -> int:
    """A stream's ``Last-Event-ID``: the version of the last entry the client got."""
    if not (value.isascii() and value.isdigit() and len(value) <= 12):
        raise ApiError(422, "validation_error", "Last-Event-ID must be a version number.",
                       errors={"headers": {"Last-Event-ID": ["must be a non-negative integer"]}})
    return int(value)


def body() -> bytes:
    """The request's body, as ``request.get_data(cache=True)`` reads and keeps it: 413 over the size
    limit (MAX_CONTENT_LENGTH), werkzeug's 400 (``ClientDisconnected``) when the stream fails or a
    body of stated length is cut short where the server does not end the stream itself.

    A body of stated length under the size limit (a move's, nearly every body) is read from the
    server's stream in one call (a WSGI stream's ``read(n)`` answers less only at its end); werkzeug's
    stream wrapper reads it through a fresh 64 KiB buffer for each of its two reads, which costs more
    than the read and the JSON parse together. Any other body (chunked, of no stated length) is
    werkzeug's to read. Either way the bytes are kept where werkzeug keeps them: ``request.get_data()``
    answers them again, and a body read before the handler (``service.bodies``) is not read twice."""
    req = current_request()  # one proxy lookup, not five
    kept: bytes | None = getattr(req, "_cached_data", None)  # werkzeug's cache of get_data
    if kept is not None:
        return kept
    environ = req.environ
    length = environ.get("CONTENT_LENGTH")
    limit = req.max_content_length
    if (limit is None or not (length and length.isascii() and length.isdigit())
            or "HTTP_TRANSFER_ENCODING" in environ):
        return req.get_data(cache=True)
    size = int(length)
    if size > limit:
        raise RequestEntityTooLarge()
    try:
        data: bytes = environ["wsgi.input"].read(size)
    except (OSError, ValueError):
        raise ClientDisconnected() from None
    # A body cut short is werkzeug's 400 only where the server does not end the stream itself; where it
    # does (gunicorn), werkzeug hands the short body on as it came, and so does this.
    if len(data) < size and "wsgi.input_terminated" not in environ:
        raise ClientDisconnected()
    req._cached_data = data
    return data


def json_body() -> Any:
    """The request's JSON body: 400 when it is not JSON (or cannot be read), 413 over the size limit."""
    # the usual header as it is, else werkzeug's parse of it (parameters, case, ``+json`` types)
    if environ().get("CONTENT_TYPE") != "application/json" and not request.is_json:
        raise ApiError(400, "bad_request", "The body must be JSON, sent as Content-Type: application/json.")
    try:
        data = body()
    except HTTPException:
        raise  # werkzeug's own answers: 413 over the size limit, 400 for a client gone mid-body
    except Exception:  # noqa: BLE001 -- whatever the WSGI server raises for a body it cannot read
        # gunicorn raises its parser's errors (a bad chunk size, a missing chunk terminator, a body
        # cut short) from the input stream only when the app reads it: the client's fault, a 400.
        raise ApiError(400, "bad_request", "The request body could not be read (a malformed chunked "
                       "encoding or a body cut short).") from None
    # What ``request.get_json`` answers, without its second look at the type and the body and the
    # way to the app's JSON through ``current_app`` (``service.app._SafeJSON``: orjson).
    try:
        return orjson.loads(data)
    except ValueError:
        raise BadRequest() from None  # as Flask's get_json: answered 400 "not valid JSON" (``service.errors``)


def schema_errors(exc: ValidationError) -> ApiError:
    """422 ``validation_error`` naming each field a schema refused."""
    return ApiError(422, "validation_error", "The request body does not match the schema.",
                    errors=exc.messages if isinstance(exc.messages, dict) else {"_schema": exc.messages})


def load_body(schema: Schema) -> dict[str, Any]:
    """The JSON body loaded through ``schema``; 400 when it is not JSON, 422
    ``validation_error`` naming each field when it does not match."""
    data = json_body()
    try:
        loaded: dict[str, Any] = schema.load(data)
    except ValidationError as exc:
        raise schema_errors(exc) from None
    return loaded
