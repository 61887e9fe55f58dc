"""What /play/ serves: every file the page loads, from the service itself (no CDN), at most 150 KB
gzipped in all, and nothing else reachable under /play/ but those files and the rules."""

from __future__ import annotations

import gzip
import re
from pathlib import Path

from flask.testing import FlaskClient

from service.app import create_app
from service.config import Settings
from service.store import MemoryStore

PLAY = Path(__file__).resolve().parents[2] / "service" / "play"
BUDGET = 150 * 1024


def client() -> FlaskClient:
    return create_app(Settings(request_log=False), store=MemoryStore()).test_client()


def served() -> dict[str, bytes]:
    """Every file of the web table, fetched through the service: index.html and what it and the
    modules import, followed transitively."""
    c = client()
    todo, seen = ["/play/"], {}
    while todo:
        path = todo.pop()
        name = path.split("?")[0]  # the page names its script and style with their hash: app.js?v=<hash>
        if name in seen:
            continue
        with c.get(path) as res:
            assert res.status_code == 200, path
            seen[name] = res.data
        text = res.data.decode()
        if name.endswith(".js"):
            refs = re.findall(r'^import .* from "(\./[^"]+)";$', text, re.M)
        else:
            refs = re.findall(r'<(?:script|link)[^>]+(?:src|href)="([^"#:]+)"', text)
        for ref in refs:
            if ref.startswith("/"):
                continue  # links to other pages (/docs), not files of the table
            todo.append("/play/" + ref.removeprefix("./"))
    return seen


def test_everything_play_serves_is_local_and_at_most_150_kb_gzipped() -> None:
    files = served()
    assert {"/play/", "/play/app.js", "/play/style.css", "/play/games.js", "/play/live.js"} <= set(files)
    # types.js holds only JSDoc typedefs for the checker (test_typecheck.py): no page loads it
    on_disk = {p.name for p in PLAY.iterdir() if p.is_file()} - {"types.js"}
    assert {p.rsplit("/", 1)[1] or "index.html" for p in files} == on_disk, "every file is used, none missing"
    for path, body in files.items():
        assert not re.search(rb"https?://(?!127\.0\.0\.1|localhost)", body), f"{path} names an outside URL"
    total = sum(len(gzip.compress(body, 9)) for body in files.values())
    print(f"/play/ serves {len(files)} files, {sum(map(len, files.values()))} bytes, {total} bytes gzipped")
    assert total <= BUDGET, f"{total} bytes gzipped > {BUDGET}"


def test_static_files_have_their_types_and_nothing_else_is_served() -> None:
    c = client()
    for path, mimetype in (("/play/app.js", "text/javascript"), ("/play/style.css", "text/css"),
                           ("/play/", "text/html"), ("/play/rules/sten.md", "text/markdown")):
        with c.get(path) as res:
            assert res.status_code == 200 and res.mimetype == mimetype, path
    with c.get("/play") as res:
        assert res.status_code == 308
    for path in ("/play/../app.py", "/play/%2e%2e/web.py", "/play/rules/nope.md", "/play/missing.js",
                 "/docs/static/swagger-ui-bundle.js.map", "/docs/static/index.j2"):
        with c.get(path) as res:
            assert res.status_code == 404, path


def test_docs_load_swagger_ui_from_the_service() -> None:
    c = client()
    with c.get("/docs") as res:
        page = res.data.decode()
    assert "cdn" not in page.lower()
    assets = re.findall(r'(?:src|href)="([^"]+)"', page)
    assert len(assets) == 3
    for asset in assets:
        assert asset.startswith("/docs/static/"), asset
        with c.get(asset) as res:
            assert res.status_code == 200, asset
