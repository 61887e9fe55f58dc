"""The web table and the docs under the production rate limit, in Chromium: opening /docs, then
/play/, then reloading /play/ never meets a 429 (static files are not API calls), and the reload
fetches no script or style again (they are named by their content hash and kept a year); the
page itself is revalidated (304).

The server here has a limit of 2 requests a minute per address: the two loads of the lobby ask
the catalogue twice, so a third API call is the first one refused. The page is opened without the
`watch` fixture's routing, since Playwright turns the browser's HTTP cache off while it routes;
requests are checked to stay on the machine from the page's own events instead.
"""

from __future__ import annotations

import threading
import urllib.error
import urllib.request
from collections.abc import Callable, Iterable, Iterator
from typing import Any
from urllib.parse import urlsplit

import pytest
from werkzeug.serving import make_server

from service.app import create_app
from service.config import Settings
from service.store import MemoryStore
from tests.web.conftest import LOCAL_HOSTS, shot


class Recorder:
    """The requests that reached the server: (method, path with query, status)."""

    def __init__(self, app: Callable[..., Iterable[bytes]]) -> None:
        self.app = app
        self.seen: list[tuple[str, str, int]] = []

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        target = environ["PATH_INFO"] + ("?" + environ["QUERY_STRING"] if environ.get("QUERY_STRING") else "")

        def start(status: str, headers: list[Any], exc_info: Any = None) -> Any:
            self.seen.append((environ["REQUEST_METHOD"], target, int(status[:3])))
            return start_response(status, headers, exc_info)

        return self.app(environ, start)


@pytest.fixture()
def limited() -> Iterator[tuple[str, Recorder]]:
    app = create_app(Settings(request_log=False, rate_limit="2/m"), store=MemoryStore())
    recorder = Recorder(app.wsgi_app)
    app.wsgi_app = recorder  # type: ignore[method-assign]
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}", recorder
    server.shutdown()
    thread.join(5)


def test_docs_then_the_table_then_a_reload_stay_under_the_limit_and_the_reload_fetches_no_script(
        limited: tuple[str, Recorder], browser_context: Any) -> None:
    base, recorder = limited
    page = browser_context.new_page()
    errors: list[str] = []
    outside: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("request", lambda r: None if r.url.startswith("data:") or urlsplit(r.url).hostname in LOCAL_HOSTS
            else outside.append(r.url))
    page.goto(f"{base}/docs")
    page.wait_for_selector(".swagger-ui .info .title")
    page.goto(f"{base}/play/")
    page.wait_for_selector('[data-action="new-game"]')
    first_load = len(recorder.seen)
    page.reload()
    page.wait_for_selector('[data-action="new-game"]')
    shot(page, "lobby-after-reload", full_page=False)
    reload = recorder.seen[first_load:]

    page.close()
    assert not errors and not outside, (errors, outside)
    assert all(status != 429 for _, _, status in recorder.seen), recorder.seen
    assert ("GET", "/play/", 304) in reload, reload  # the page is revalidated, not sent again
    fetched_again = [t for _, t, status in reload if t.startswith("/play/") and t != "/play/"]
    assert not fetched_again, f"the reload asked for scripts or styles again: {fetched_again}"
    assert [t for _, t, _ in reload if t.startswith("/v1/")] == ["/v1/games"]
    # the two lobby loads used the address's two API calls: the next one is refused
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(f"{base}/v1/games", timeout=10)
    refused.value.close()
    assert refused.value.code == 429
