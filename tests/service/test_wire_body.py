"""A request's body as ``service.wire.body`` reads it is what werkzeug's ``request.get_data`` reads:
the same bytes, or the same refusal (413 over the size limit, 400 for a stream that fails or a body
cut short, the server's own error as it is), whatever the body's length, the stream and the server.
``body`` reads a body of stated length in one call and leaves every other to werkzeug, so the two
ways must never differ."""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask, request
from gunicorn.http.body import Body, ChunkedReader, LengthReader
from gunicorn.http.unreader import IterUnreader

from service import wire

LIMIT = 64


class _Failing:
    """A stream that fails as a server's input can: a socket error, a closed file, a parser's error."""

    def __init__(self, error: Exception) -> None:
        self.error = error

    def read(self, size: int | None = -1) -> bytes:
        raise self.error

    readline = read


class _ParserError(Exception):
    """What gunicorn's parser raises for a malformed chunk: no OSError, so werkzeug passes it on."""


def _gunicorn(data: bytes, length: int) -> Body:
    """gunicorn's body of a request that stated ``length``, of which the client sent ``data``."""
    return Body(LengthReader(IterUnreader([data]), length))


def _chunked(data: bytes) -> Body:
    class _Req:
        trailers: list[Any] = []
        cfg = type("cfg", (), {"limit_request_fields": 100, "limit_request_field_size": 8190})()

    return Body(ChunkedReader(_Req(), IterUnreader([data])))


# (stream, Content-Length, Transfer-Encoding, the server ends the stream itself)
CASES: dict[str, Callable[[], tuple[Any, str | None, str | None, bool]]] = {
    "a stated length": lambda: (io.BytesIO(b'{"move":1}'), "10", None, False),
    "a stated length, gunicorn": lambda: (_gunicorn(b'{"move":1}', 10), "10", None, True),
    "more bytes than stated": lambda: (io.BytesIO(b'{"move":1}trailing'), "10", None, False),
    "cut short": lambda: (io.BytesIO(b'{"mo'), "10", None, False),
    "cut short, gunicorn": lambda: (_gunicorn(b'{"mo', 10), "10", None, True),
    "empty": lambda: (io.BytesIO(b""), "0", None, False),
    "at the limit": lambda: (io.BytesIO(b"x" * LIMIT), str(LIMIT), None, False),
    "over the limit": lambda: (io.BytesIO(b"x" * (LIMIT + 1)), str(LIMIT + 1), None, False),
    "over the limit, gunicorn": lambda: (_gunicorn(b"x" * (LIMIT + 1), LIMIT + 1), str(LIMIT + 1), None, True),
    "a socket error": lambda: (_Failing(ConnectionResetError()), "10", None, True),
    "a closed stream": lambda: (_Failing(ValueError("I/O operation on closed file")), "10", None, False),
    "a parser error": lambda: (_Failing(_ParserError("bad chunk")), "10", None, True),
    "no length": lambda: (io.BytesIO(b'{"move":1}'), None, None, False),
    "no length, gunicorn": lambda: (_gunicorn(b"", 0), None, None, True),
    "a length that is no number": lambda: (io.BytesIO(b'{"move":1}'), "ten", None, False),
    "a signed length": lambda: (io.BytesIO(b'{"move":1}'), "+10", None, False),
    "chunked, gunicorn": lambda: (_chunked(b'a\r\n{"move":1}\r\n0\r\n\r\n'), None, "chunked", True),
    "chunked and a length": lambda: (_chunked(b'a\r\n{"move":1}\r\n0\r\n\r\n'), "3", "chunked", True),
    "chunked, malformed": lambda: (_chunked(b"zz\r\n{}\r\n0\r\n\r\n"), None, "chunked", True),
    "chunked, over the limit": lambda: (_chunked(b"%x\r\n%s\r\n0\r\n\r\n" % (LIMIT + 1, b"x" * (LIMIT + 1))),
                                        None, "chunked", True),
}


def _environ(case: str) -> dict[str, Any]:
    stream, length, encoding, terminated = CASES[case]()
    environ: dict[str, Any] = {"REQUEST_METHOD": "POST", "PATH_INFO": "/", "SERVER_NAME": "test",
                               "SERVER_PORT": "80", "wsgi.url_scheme": "http", "wsgi.input": stream,
                               "CONTENT_TYPE": "application/json"}
    if length is not None:
        environ["CONTENT_LENGTH"] = length
    if encoding is not None:
        environ["HTTP_TRANSFER_ENCODING"] = encoding
    if terminated:
        environ["wsgi.input_terminated"] = True
    return environ


def _outcome(app: Flask, case: str, read: Callable[[], bytes]) -> tuple[str, Any]:
    with app.request_context(_environ(case)):
        try:
            data = read()
        except Exception as exc:  # noqa: BLE001 -- the refusal is what is compared
            return "refused", type(exc)
        return "read", (data, request.get_data())  # and what werkzeug answers after it: the same bytes


@pytest.mark.parametrize("limit", [LIMIT, None])
@pytest.mark.parametrize("case", list(CASES))
def test_a_body_reads_as_werkzeug_reads_it(case: str, limit: int | None) -> None:
    app = Flask(__name__)
    app.config["MAX_CONTENT_LENGTH"] = limit
    ours = _outcome(app, case, wire.body)
    assert ours == _outcome(app, case, lambda: request.get_data(cache=True))
    if case == "over the limit" and limit is not None:
        assert ours[0] == "refused"  # the cases reach the refusals they name
    if case == "a stated length":
        assert ours == ("read", (b'{"move":1}', b'{"move":1}'))


def test_a_body_read_before_is_not_read_again() -> None:
    """The body deadline (``service.bodies``) reads the body before the handler does."""
    app = Flask(__name__)
    with app.request_context(_environ("a stated length")):
        first = request.get_data(cache=True)
        assert wire.body() == first == b'{"move":1}'
