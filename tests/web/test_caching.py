"""How /play/, /docs and /openapi.json are cached (service/web.py), and where their redirects point.

A reload must cost next to nothing and a release must show at once: the page and everything not
named by its hash are revalidated (no-cache with an ETag: 304 without a body), the scripts and
the style are named by their content hash and kept a year. Redirects are relative, whatever Host
the client sent.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import pytest
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from service.app import create_app
from service.cli import spec_document
from service.config import Settings
from service.store import MemoryStore
from service.web import IMMUTABLE, PLAY_DIR, Hashes, index_html

REVALIDATED = ["/play/", "/play/app.js", "/play/style.css", "/play/rules/sten.md", "/docs", "/openapi.json",
               "/docs/static/swagger-ui.css"]


@pytest.fixture(scope="module")
def client() -> FlaskClient:
    return create_app(Settings(request_log=False), store=MemoryStore()).test_client()


def get(client: FlaskClient, path: str, **headers: str) -> TestResponse:
    """The reply, read whole and closed (a file's reply holds the file open until then)."""
    with client.get(path, headers={k.replace("_", "-"): v for k, v in headers.items()}) as reply:
        reply.get_data()
        return reply


def content_hash(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()[:16]


@pytest.mark.parametrize("path", REVALIDATED)
def test_a_reload_with_the_validators_answers_304_without_a_body(client: FlaskClient, path: str) -> None:
    first = get(client, path)
    assert first.status_code == 200 and first.data
    assert first.headers["Cache-Control"] == "no-cache", "a new release must show at once"
    etag = first.headers["ETag"]
    again = get(client, path, If_None_Match=etag)
    assert again.status_code == 304 and again.data == b""
    assert again.headers["ETag"] == etag
    if "Last-Modified" in first.headers:  # files: the date works as well
        dated = get(client, path, If_Modified_Since=first.headers["Last-Modified"])
        assert dated.status_code == 304
    changed = get(client, path, If_None_Match='"something-else"')
    assert changed.status_code == 200 and changed.data == first.data


def test_the_page_names_each_script_and_style_by_its_content_hash(client: FlaskClient) -> None:
    page = get(client, "/play/").data.decode()
    refs = re.findall(r'(?:src|href)="([\w.-]+\.(?:js|css))\?v=(\w+)"', page)
    assert {name for name, _ in refs} == {"app.js", "style.css"}
    for name, version in refs:
        assert version == content_hash(PLAY_DIR / name)
    (importmap,) = re.findall(r'<script type="importmap">(.*?)</script>', page)
    imports = json.loads(importmap)["imports"]
    modules = {p.name for p in PLAY_DIR.glob("*.js")}
    assert imports == {f"./{m}": f"./{m}?v={content_hash(PLAY_DIR / m)}" for m in modules}
    assert page.index('type="importmap"') < page.index('type="module"'), "the map must precede every module"


def test_a_file_asked_for_by_its_current_hash_is_kept_a_year_and_any_other_is_revalidated(
        client: FlaskClient) -> None:
    current = content_hash(PLAY_DIR / "games.js")
    kept = get(client, f"/play/games.js?v={current}")
    assert kept.status_code == 200 and kept.mimetype == "text/javascript"
    directives = {d.strip() for d in kept.headers["Cache-Control"].split(",")}
    assert {f"max-age={IMMUTABLE}", "immutable", "public"} <= directives
    # an old page's hash gets today's file, but never for a year under the old name
    stale = get(client, "/play/games.js?v=0123456789abcdef")
    assert stale.status_code == 200 and stale.headers["Cache-Control"] == "no-cache"
    assert stale.data == kept.data
    for path in (f"/play/missing.js?v={current}", "/play/.", "/play/%2e%2e", f"/play/..?v={current}"):
        assert get(client, path).status_code == 404, path


@pytest.mark.parametrize("name", ["%00", "app.js%00.css", "x" * 5000])
def test_a_name_the_file_system_refuses_is_404_not_500(client: FlaskClient, name: str) -> None:
    for prefix in ("/play/", "/docs/static/"):
        assert get(client, prefix + name).status_code == 404, prefix + name[:20]


def test_a_changed_file_gets_a_new_hash_at_once(tmp_path: Path) -> None:
    """Hashes follow the files (an edit under `cardtable serve` shows on the next reload)."""
    (tmp_path / "index.html").write_text('<link href="a.css">\n<script type="module" src="m.js"></script>')
    (tmp_path / "a.css").write_text("p {}")
    (tmp_path / "m.js").write_text("export const x = 1;")
    hashes = Hashes(tmp_path)
    before = index_html(hashes)
    assert f'src="m.js?v={content_hash(tmp_path / "m.js")}"' in before
    (tmp_path / "m.js").write_text("export const x = 22;")
    after = index_html(hashes)
    assert f'src="m.js?v={content_hash(tmp_path / "m.js")}"' in after and after != before
    assert f'href="a.css?v={content_hash(tmp_path / "a.css")}"' in after


@pytest.mark.parametrize(("path", "target"), [("/play", "/play/"), ("/docs/", "/docs"),
                                              ("/play//app.js", "/play/app.js")])
def test_redirects_are_relative_whatever_the_host_header(client: FlaskClient, path: str, target: str) -> None:
    for host in ("evil.example", "localhost", "a.b:8443"):
        reply = get(client, path, Host=host)
        assert reply.status_code in (301, 308), (path, reply.status_code)
        assert reply.headers["Location"] == target, (host, reply.headers["Location"])


def test_openapi_json_is_the_apps_document(client: FlaskClient) -> None:
    """Built once per process, it is still the very document the app describes."""
    for _ in range(2):
        reply = get(client, "/openapi.json")
        assert reply.mimetype == "application/json"
        assert reply.json == spec_document()
