"""A request's body must arrive whole within CARDTABLE_BODY_TIMEOUT seconds: 408 ``request_timeout``.

gunicorn's gevent worker bounds the wait for a request's line and headers (its keep-alive timeout,
5 s under deploy/gunicorn.conf.py) but not for its body, which the app reads only when it needs
it: a client that announces ``Content-Length: 60000`` and sends nothing would hold its connection
for ever. So every body is read before the handler runs, under one deadline for the whole body (a
``gevent.Timeout``: a trickle of a byte a second does not reset it, as a per-read socket timeout
would). After a timeout the connection's reading side is shut, so gunicorn closes it as soon as the
408 is written instead of waiting for the rest of the body.

The deadline needs gevent's cooperative sockets, as under the production worker class; elsewhere
(``cardtable serve``, a sync worker) the proxy in front bounds the body (deploy/nginx).
"""

from __future__ import annotations

import contextlib
import socket
from typing import Any

from flask import Flask, Response, request
from werkzeug.exceptions import HTTPException
from werkzeug.wsgi import get_content_length

from service import wire
from service.errors import problem


def _cooperative() -> Any:
    """gevent's Timeout when this process runs on gevent's patched sockets, else None."""
    try:
        from gevent import Timeout, monkey
    except ImportError:  # pragma: no cover -- gevent is a dependency
        return None
    return Timeout if monkey.is_module_patched("socket") else None


_UNKNOWN = object()


def _shut_reading(environ: dict[str, Any]) -> None:
    """No more reading from this connection: gunicorn then closes it once the answer is out."""
    sock = environ.get("gunicorn.socket")
    if sock is not None:
        with contextlib.suppress(OSError):
            sock.shutdown(socket.SHUT_RD)


def install(app: Flask, seconds: float) -> None:
    """Read every request body within ``seconds`` (408 after), when ``seconds`` > 0."""
    if seconds <= 0:
        return
    # Asked at the first body, once the worker runs (gunicorn's gevent worker patches before it
    # loads the app, but an app may be made before patching); the answer does not change after.
    cooperative: list[Any] = [_UNKNOWN]

    @app.before_request
    def _read_body() -> Response | None:
        # read off the environ (as request.content_length does): werkzeug's header lookups raise and catch a
        # KeyError for each absent header, and most requests have neither a length nor a transfer encoding
        environ = request.environ
        if not (get_content_length(environ) or "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower()):
            return None
        if cooperative[0] is _UNKNOWN:
            cooperative[0] = _cooperative()
        timeout = cooperative[0]
        if timeout is None:
            return None
        timer = timeout(seconds)
        timer.start()
        try:
            wire.body()  # kept for the handler
        except timeout as exc:
            if exc is not timer:
                raise
            _shut_reading(request.environ)
            return problem(408, "request_timeout", f"The request body did not arrive within {seconds:g} s.")
        except HTTPException:
            raise  # werkzeug's own answers: 413 over CARDTABLE_MAX_BODY, 400 for a client gone mid-body
        except Exception:  # noqa: BLE001 -- whatever the WSGI server raises for a body it cannot read
            # gunicorn raises its parser's errors (a bad chunk size, a body cut short) from the input
            # stream only when it is read: the client's fault, a 400, as ``games.load_body`` answers.
            return problem(400, "bad_request", "The request body could not be read (a malformed chunked "
                           "encoding or a body cut short).")
        finally:
            timer.close()
        return None
