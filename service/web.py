"""The web table (``GET /play/``), the local Swagger UI bundle behind ``/docs``, and how they are cached.

``/play/`` serves the static files of ``service/play/`` (plain ES modules, no build step, nothing
from a CDN) and the rules of each game from ``seeds/<game>.md`` when the sources are at hand.
``/docs/static/`` serves the Swagger UI files of the ``swagger-ui-bundle`` package, so the API
docs work offline. Nothing here knows a game's rules.

Caching, so that a reload costs next to nothing and a new release shows at once:

- ``/play/`` (index.html) names every script and style by its content hash (``app.js?v=<hash>``,
  and an import map for the modules' own imports); a file asked for with its current hash is kept
  a year (``immutable``), so a reload asks only for the page itself, and a release changes the
  hashes, so browsers fetch what changed and nothing else.
- Everything else (the page, the rules, the Swagger UI, ``/docs``, ``/openapi.json``) carries
  ``Cache-Control: no-cache`` with an ``ETag`` (and ``Last-Modified`` for files): a reload
  revalidates and gets ``304 Not Modified`` without a body.

The rate limit does not count any of it (service/ratelimit.py): a page load is a dozen requests
and none of them touches a game. Redirects are relative (``Location: /play/``), never built from the
request's ``Host`` header, which the client chooses.
"""

from __future__ import annotations

import hashlib
import json
import re
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from flask import Blueprint, Flask, Response, abort, request, send_from_directory
from flask_smorest import Api

from engines import REGISTRY

PLAY_DIR = Path(__file__).resolve().parent / "play"
#: The rules live in the repository's seeds/ (an editable install, a checkout, the container's /app).
SEEDS_DIRS = (Path(__file__).resolve().parent.parent / "seeds", Path.cwd() / "seeds")
#: A file asked for by its current content hash never changes under that URL.
IMMUTABLE = 365 * 24 * 3600
#: What index.html names by its hash: the scripts and styles it loads (href/src of a local file).
_ASSET_REF = re.compile(r'\b(src|href)="([A-Za-z0-9_.-]+\.(?:js|css))"')


def rules_path(game: str) -> str:
    """Where this service serves a game's rules (``seeds/<game>.md``): the catalogue's ``rules_url``."""
    return f"/play/rules/{game}.md"


class Hashes:
    """Content hashes of a folder's files, recomputed when a file's size or time changes (so an
    edit under ``cardtable serve`` shows on the next reload without a restart)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._known: dict[str, tuple[tuple[int, int], str]] = {}

    def of(self, name: str) -> str | None:
        """The hash of the file ``name`` of the folder itself (no subfolder), None for anything else."""
        if "/" in name:
            return None
        path = self.folder / name
        try:
            info = path.stat()
        except (OSError, ValueError):  # a name too long, a NUL byte
            return None
        if not stat.S_ISREG(info.st_mode):  # "." and ".." are names in the folder too
            return None
        key = (info.st_mtime_ns, info.st_size)
        known = self._known.get(name)
        if known is None or known[0] != key:
            known = self._known[name] = (key, hashlib.sha256(path.read_bytes()).hexdigest()[:16])
        return known[1]


PLAY_HASHES = Hashes(PLAY_DIR)


def index_html(hashes: Hashes = PLAY_HASHES) -> str:
    """index.html with each script and style named by its hash, and an import map that does the
    same for every module the scripts import (``./api.js`` -> ``./api.js?v=<hash>``). A browser
    without import maps fetches the plain names, which are served too (revalidated each time)."""
    html = (hashes.folder / "index.html").read_text()
    modules = sorted(p.name for p in hashes.folder.glob("*.js"))
    imports = {f"./{name}": f"./{name}?v={hashes.of(name)}" for name in modules}
    importmap = '<script type="importmap">' + json.dumps({"imports": imports}, sort_keys=True) + "</script>\n  "
    html = _ASSET_REF.sub(lambda m: f'{m[1]}="{m[2]}?v={hashes.of(m[2])}"' if hashes.of(m[2]) else m[0], html)
    at = html.find("<script")  # the import map must come before any module is loaded
    return html[:at] + importmap + html[at:] if at >= 0 else html


def make_web_blueprint() -> Blueprint:
    blp = Blueprint("web", __name__)

    @blp.get("/play")
    def play_redirect() -> Any:
        return _redirect("/play/")

    @blp.get("/docs/")
    def docs_redirect() -> Any:
        return _redirect("/docs")

    @blp.get("/play/")
    def play_index() -> Response:
        body = index_html().encode()
        response = Response(body, mimetype="text/html")
        response.set_etag(hashlib.sha256(body).hexdigest()[:32])
        return _revalidated(response)

    @blp.get("/play/rules/<game>.md")
    def play_rules(game: str) -> Response:
        if game not in REGISTRY:
            abort(404)
        for folder in SEEDS_DIRS:
            if (folder / f"{game}.md").is_file():
                return _revalidated(send_from_directory(folder, f"{game}.md", mimetype="text/markdown"))
        abort(404)

    @blp.get("/play/<path:name>")
    def play_file(name: str) -> Response:
        current = PLAY_HASHES.of(name)
        # the content hash is the ETag too: the same in every pod, whatever the files' times
        return _static(PLAY_DIR, name, immutable=current is not None and request.args.get("v") == current,
                       etag=current or True)

    @blp.get("/docs/static/<path:name>")
    def docs_static(name: str) -> Response:
        return _static(swagger_ui_dir(), name)

    return blp


def swagger_ui_dir() -> Path:
    import swagger_ui_bundle  # type: ignore[import-untyped]

    return Path(swagger_ui_bundle.swagger_ui_path)


def _redirect(path: str) -> Response:
    """A permanent redirect to a path of this service (relative: no scheme, no host)."""
    return Response(status=308, headers={"Location": path})


def _static(folder: Path, name: str, immutable: bool = False, etag: str | bool = True) -> Response:
    """A file of ``folder`` (never outside it: send_from_directory refuses ``..``), 404 otherwise;
    kept a year when ``immutable`` (asked for by its content hash), else revalidated."""
    if name.endswith((".map", ".j2")) or not _is_file(folder / name):
        abort(404)
    mimetype = "text/javascript" if name.endswith(".js") else None
    if immutable:
        response = send_from_directory(folder, name, mimetype=mimetype, max_age=IMMUTABLE, etag=etag)
        response.cache_control.immutable = True
        response.headers["X-Content-Type-Options"] = "nosniff"
        return response
    return _revalidated(send_from_directory(folder, name, mimetype=mimetype, etag=etag))


def _is_file(path: Path) -> bool:
    """A regular file; False too for a name the system refuses (too long, a NUL byte), which
    Path.is_file raises on."""
    try:
        return stat.S_ISREG(path.stat().st_mode)
    except (OSError, ValueError):
        return False


def _revalidated(response: Response) -> Response:
    """``no-cache``: a browser may keep it but asks first, with the validators (ETag, and
    Last-Modified for files), and gets 304 while nothing changed."""
    response.cache_control.no_cache = True
    response.cache_control.max_age = None
    response.cache_control.public = False  # (removed, as None would)
    response.headers.pop("Expires", None)
    response.headers["X-Content-Type-Options"] = "nosniff"
    if not response.get_etag()[0] and not response.direct_passthrough:
        response.add_etag()
    response.make_conditional(request)  # turns it into a 304 (or a range) in place
    return response


def _relative_location(response: Response) -> Response:
    """Every redirect points at a path of this service: werkzeug's own (``/play//x`` -> ``/play/x``)
    are built from the Host header, which is the client's to choose; only the path and query stay.
    Leading slashes are folded into one, so the result is never a scheme-relative ``//host``."""
    if not 300 <= response.status_code < 400:  # most answers: no header to look for
        return response
    location = response.headers.get("Location")
    if location:
        parts = urlsplit(location)
        path = "/" + parts.path.lstrip("/\\")
        response.headers["Location"] = path + (f"?{parts.query}" if parts.query else "")
    return response


def _cache_docs(app: Flask) -> None:
    """/openapi.json and /docs with an ETag and no-cache; the spec (340 KB, 8 ms to build) is built
    once per process, since nothing changes it after start-up."""
    spec_view: Callable[[], Any] = app.view_functions["api-docs.openapi_json"]
    docs_view: Callable[[], Any] = app.view_functions["api-docs.openapi_swagger_ui"]
    built: list[tuple[bytes, str]] = []

    def openapi_json() -> Response:
        if not built:
            body = spec_view().get_data()
            built.append((body, hashlib.sha256(body).hexdigest()[:32]))
        body, etag = built[0]
        response = Response(body, mimetype="application/json")
        response.set_etag(etag)
        return _revalidated(response)

    def swagger_ui() -> Response:
        return _revalidated(app.make_response(docs_view()))

    app.view_functions["api-docs.openapi_json"] = openapi_json
    app.view_functions["api-docs.openapi_swagger_ui"] = swagger_ui


def install(app: Flask, api: Api) -> None:
    """Register /play/ and /docs/static/, cache the docs, make redirects relative, and list
    GET /play/ in the spec."""
    app.register_blueprint(make_web_blueprint())
    _cache_docs(app)
    app.after_request(_relative_location)
    rules = {r.rule: r for r in app.url_map.iter_rules()}
    api.spec.path(rule=rules["/play/"], operations={"get": {
        "operationId": "getWebTable", "summary": "The web table: every game playable in a browser", "tags": ["service"],
        "description": "A page that plays every game against the server's bots or other people, from the service "
                       "itself: nothing is loaded from elsewhere.",
        "responses": {"200": {"description": "an HTML page (its scripts and styles are served under /play/)",
                              "content": {"text/html": {"schema": {"type": "string"}}}}},
    }})
