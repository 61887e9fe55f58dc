"""Cross-origin requests (CARDTABLE_CORS_ORIGINS): which pages on other origins may call the API.

A browser sends a page's request to another origin with a header outside the CORS-safelisted few
(``Authorization``, ``Content-Type: application/json``, ``Last-Event-ID``, ...) only after a
preflight ``OPTIONS`` answered that the origin, the method and those headers are allowed, and it
lets the page read a response header outside the safelisted few only when the response exposes
it. ``ALLOW_HEADERS`` is every request header the API reads and ``EXPOSE_HEADERS`` every response
header a client acts on; the tests read these tuples and check them against what the service
really reads and sends. Seat tokens travel in the ``Authorization`` header, never in cookies, so
credentials mode is not needed (and ``Access-Control-Allow-Credentials`` is never sent).

With specific origins every response says ``Vary: Origin`` (a cache must not hand one origin's
answer to another, or an answer without the header to an allowed origin); with ``*`` the answer
is the same for all. A disallowed origin gets no CORS header at all, so its browser refuses.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Flask, Request, Response

from service.wire import current_request

#: The API's methods (both are CORS-safelisted; a preflight's answer names them all the same).
ALLOW_METHODS = ("GET", "POST")
#: Every request header the API reads: the seat token, a JSON body, retries, long polls,
#: stream resumption and the caller's request id.
ALLOW_HEADERS = ("Authorization", "Content-Type", "Idempotency-Key", "If-None-Match", "Last-Event-ID",
                 "X-Request-Id")
#: Every response header a client acts on (Content-Type and Cache-Control are readable anyway).
EXPOSE_HEADERS = ("ETag", "Location", "Retry-After", "Idempotent-Replayed", "X-Request-Id", "WWW-Authenticate")
#: Seconds a browser may keep a preflight's answer before it asks again.
MAX_AGE = 600


def parse_origins(origins: tuple[str, ...]) -> frozenset[str]:
    """The configured origins, lowercased and without a trailing slash; ``*`` allows any.
    Anything that is not ``scheme://host[:port]`` is a ValueError at startup: such an entry
    would silently never match."""
    out = set()
    for entry in origins:
        origin = entry.strip().rstrip("/").lower()
        if origin == "*":
            out.add(origin)
            continue
        parts = urlsplit(origin)
        if not (parts.scheme and parts.netloc) or parts.path or parts.query or parts.fragment:
            raise ValueError(f"CARDTABLE_CORS_ORIGINS: {entry!r} is not an origin like https://app.example")
        out.add(origin)
    return frozenset(out)


def is_preflight(req: Request | None = None) -> bool:
    """Whether this request is a browser's CORS preflight (not a client's own OPTIONS). ``req``: the
    request, when the caller has it (each use of the ``request`` proxy looks the request up again)."""
    if req is None:
        req = current_request()
    return req.method == "OPTIONS" and "HTTP_ACCESS_CONTROL_REQUEST_METHOD" in req.environ


def install(app: Flask, origins: tuple[str, ...]) -> None:
    """Answer preflights and add the CORS headers for ``origins`` (nothing when empty)."""
    allowed = parse_origins(origins)
    if not allowed:
        return
    allow_any = "*" in allowed

    def granted(req: Request) -> str | None:
        """The Access-Control-Allow-Origin this request gets, None for none."""
        origin = req.environ.get("HTTP_ORIGIN")  # the header as request.headers reads it
        if origin is None:
            return None
        if allow_any:
            return "*"
        return origin if origin.lower() in allowed else None

    @app.before_request
    def _preflight() -> Response | None:
        # 204 with no body and no Content-Type, before any handler; a disallowed origin's
        # preflight goes on to Flask's own OPTIONS answer, which carries no CORS header.
        req = current_request()  # once: each use of the proxy looks again
        if not is_preflight(req) or granted(req) is None:
            return None
        response = Response(status=204)
        del response.headers["Content-Type"]
        response.headers["Access-Control-Allow-Methods"] = ", ".join(ALLOW_METHODS)
        response.headers["Access-Control-Allow-Headers"] = ", ".join(ALLOW_HEADERS)
        response.headers["Access-Control-Max-Age"] = str(MAX_AGE)
        return response

    @app.after_request
    def _headers(response: Response) -> Response:
        if not allow_any:
            response.vary.add("Origin")
        req = current_request()
        origin = granted(req)
        if origin is not None:
            response.headers["Access-Control-Allow-Origin"] = origin
            if not is_preflight(req):
                response.headers["Access-Control-Expose-Headers"] = ", ".join(EXPOSE_HEADERS)
        return response
