"""A view's answer (``service.wire.view_response``, every view and every move's answer) is built by
hand for speed: it must be the very answer ``json_response`` gives with the same headers."""

from __future__ import annotations

import pytest

from service.wire import cache_headers, etag, json_response, view_response


@pytest.mark.parametrize("seat", [None, 0, 3])
@pytest.mark.parametrize("body", [b"{}", '{"name":"Zoë"}'.encode() * 500])
def test_a_views_answer_is_json_responses_with_its_etag_and_cache_headers(seat: int | None, body: bytes) -> None:
    tag = etag(41, seat, "p5")
    fast = view_response(body, tag, seat)
    plain = json_response(body, 200, {"ETag": tag, **cache_headers(seat)})
    assert fast.status == plain.status == "200 OK"
    assert fast.headers.to_wsgi_list() == plain.headers.to_wsgi_list()  # the same headers, in the same order
    assert fast.get_data() == plain.get_data() == body
    assert fast.headers["Content-Length"] == str(len(body))
