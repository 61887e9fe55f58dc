"""The times the service stores and answers (``service.records.timestamp``): RFC 3339 in UTC with
milliseconds, each the millisecond it was taken in."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from service.records import timestamp

BASE = 1_795_668_354  # a whole second


def test_a_timestamp_reads_back_as_the_millisecond_it_was_taken_in() -> None:
    """Every millisecond of a second has its own text, and the seconds either side are written anew."""
    for ms in range(-1, 1001):
        at = BASE + ms / 1000 + 0.0004  # inside the millisecond: no float error carries it over
        text = timestamp(at)
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", text), text
        assert datetime.fromisoformat(text.replace("Z", "+00:00")) == (
            datetime.fromtimestamp(BASE, UTC) + timedelta(milliseconds=ms))


def test_a_timestamp_without_a_time_is_now() -> None:
    before = datetime.now(UTC) - timedelta(milliseconds=1)  # the millisecond is floored
    text = timestamp()
    assert before <= datetime.fromisoformat(text.replace("Z", "+00:00")) <= datetime.now(UTC)
