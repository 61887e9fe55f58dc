"""The web table (``GET /play/``) and the local Swagger UI bundle behind ``/docs``.

``/play/`` serves the static files of ``service/play/`` (plain ES modules, no build step, nothing
from a CDN) and the rules of each game from ``seeds/<game>.md`` when the sources are at hand.
``/docs/static/`` serves the Swagger UI files of the ``swagger-ui-bundle`` package, so the API
docs work offline. Nothing here knows a game's rules.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import Blueprint, Flask, Response, abort, redirect, send_from_directory, url_for
from flask_smorest import Api

from engines import REGISTRY

PLAY_DIR = Path(__file__).resolve().parent / "play"
#: The rules live in the repository's seeds/ (an editable install, a checkout, the container's /app).
SEEDS_DIRS = (Path(__file__).resolve().parent.parent / "seeds", Path.cwd() / "seeds")
#: Static files may be cached briefly; a new release is picked up within a minute.
MAX_AGE = 60


def swagger_ui_dir() -> Path:
    import swagger_ui_bundle  # type: ignore[import-untyped]

    return Path(swagger_ui_bundle.swagger_ui_path)


def make_web_blueprint() -> Blueprint:
    blp = Blueprint("web", __name__)

    @blp.get("/play")
    def play_redirect() -> Any:
        return redirect(url_for("web.play_index"), code=308)

    @blp.get("/play/")
    def play_index() -> Response:
        return _static(PLAY_DIR, "index.html")

    @blp.get("/play/rules/<game>.md")
    def play_rules(game: str) -> Response:
        if game not in REGISTRY:
            abort(404)
        for folder in SEEDS_DIRS:
            if (folder / f"{game}.md").is_file():
                response = send_from_directory(folder, f"{game}.md", mimetype="text/markdown", max_age=MAX_AGE)
                response.headers["X-Content-Type-Options"] = "nosniff"
                return response
        abort(404)

    @blp.get("/play/<path:name>")
    def play_file(name: str) -> Response:
        return _static(PLAY_DIR, name)

    @blp.get("/docs/static/<path:name>")
    def docs_static(name: str) -> Response:
        return _static(swagger_ui_dir(), name)

    return blp


def _static(folder: Path, name: str) -> Response:
    """A file of ``folder`` (never outside it: send_from_directory refuses ``..``), 404 otherwise."""
    if name.endswith((".map", ".j2")) or not (folder / name).is_file():
        abort(404)
    mimetype = "text/javascript" if name.endswith(".js") else None
    response = send_from_directory(folder, name, mimetype=mimetype, max_age=MAX_AGE)
    response.headers["X-Content-Type-Options"] = "nosniff"
    return response


def install(app: Flask, api: Api) -> None:
    """Register /play/ and /docs/static/, and list GET /play/ in the spec (so clients find the web table there)."""
    app.register_blueprint(make_web_blueprint())
    rules = {r.rule: r for r in app.url_map.iter_rules()}
    api.spec.path(rule=rules["/play/"], operations={"get": {
        "operationId": "getWebTable", "summary": "The web table: every game playable in a browser", "tags": ["service"],
        "responses": {"200": {"description": "an HTML page (its scripts and styles are served under /play/)",
                              "content": {"text/html": {"schema": {"type": "string"}}}}},
    }})
