"""Every error as ``application/problem+json`` (RFC 9457), werkzeug's own included.

Handlers raise ``ApiError``; werkzeug's HTTP errors (404 route, 405, 413, webargs'
422) and anything unexpected are mapped here so that no response is ever HTML and
no request answers a bare 500.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from flask import Flask, Response
from werkzeug.exceptions import HTTPException

from service import observability
from service.store import NotReplicated, StoreUnavailable

PROBLEM = "application/problem+json"
log = logging.getLogger("cardtable")

TITLES = {
    400: "Bad Request",
    401: "Unauthorized",
    403: "Forbidden",
    404: "Not Found",
    405: "Method Not Allowed",
    408: "Request Timeout",
    409: "Conflict",
    413: "Payload Too Large",
    415: "Unsupported Media Type",
    422: "Unprocessable Content",
    429: "Too Many Requests",
    500: "Internal Server Error",
    503: "Service Unavailable",
}

_CODES = {400: "bad_request", 404: "not_found", 405: "method_not_allowed", 413: "payload_too_large",
          415: "unsupported_media_type", 422: "validation_error"}


class ApiError(Exception):
    """An error answer: status, stable ``code``, human ``detail`` and extra fields."""

    def __init__(self, status: int, code: str, detail: str, headers: dict[str, str] | None = None,
                 **extra: Any) -> None:
        super().__init__(detail)
        self.status, self.code, self.detail = status, code, detail
        self.headers = headers or {}
        self.extra = extra


def problem(status: int, code: str, detail: str, headers: dict[str, str] | None = None, **extra: Any) -> Response:
    body = {"type": f"urn:cardtable:problem:{code}", "title": TITLES.get(status, "Error"), "status": status,
            "detail": detail, "code": code, **extra}
    response = Response(json.dumps(body), status=status, mimetype=PROBLEM)
    for k, v in (headers or {}).items():
        response.headers[k] = v
    return response


def _webargs_errors(exc: HTTPException) -> dict[str, Any] | None:
    data = getattr(exc, "data", None) or {}
    return data.get("messages") or data.get("errors")


def register(app: Flask, retry_after: int) -> None:
    @app.errorhandler(ApiError)
    def _api_error(exc: ApiError) -> Response:
        if exc.status == 409:
            observability.conflict(exc.code)
        return problem(exc.status, exc.code, exc.detail, exc.headers, **exc.extra)

    @app.errorhandler(StoreUnavailable)
    def _store(exc: StoreUnavailable) -> Response:
        log.warning("store unavailable: %s", exc)
        return problem(503, "store_unavailable", "The game store cannot be reached; nothing was changed. "
                       "Retry after the delay in Retry-After.", {"Retry-After": str(retry_after)})

    @app.errorhandler(NotReplicated)
    def _not_replicated(exc: NotReplicated) -> Response:
        # Not "nothing was changed": the write is on the primary and may survive a failover.
        log.warning("write not replicated: %s", exc)
        return problem(503, "store_unavailable", "The store could not confirm that this request's write was "
                       "replicated; it may have applied. Retry after the delay in Retry-After with the same "
                       "Idempotency-Key: the retry answers as this request would have.",
                       {"Retry-After": str(retry_after)})

    @app.errorhandler(HTTPException)
    def _http(exc: HTTPException) -> Response:
        status = exc.code or 500
        code = _CODES.get(status, "http_error")
        headers = {}
        if status == 405 and (allowed := getattr(exc, "valid_methods", None)):
            headers["Allow"] = ", ".join(allowed)
        if status == 422:
            errors = _webargs_errors(exc) or {}
            # webargs nests body errors under "json"; the location is already the body.
            errors = errors.get("json", errors) if isinstance(errors, dict) else errors
            return problem(422, "validation_error", "The request body does not match the schema.", errors=errors)
        if status == 400:
            detail = "The request body is not valid JSON."
        elif status == 413:
            detail = "The request body is too large."
        elif status == 404:
            detail = "No such resource."
        else:
            detail = exc.description or TITLES.get(status, "Error")
        return problem(status, code, detail, headers)

    @app.errorhandler(Exception)
    def _unexpected(exc: Exception) -> Response:
        log.exception("unhandled error")
        return problem(500, "internal_error", "An unexpected error occurred; nothing was changed.")
