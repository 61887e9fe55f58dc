"""A small Server-Sent Events reader for tests (stdlib only): one stream over one HTTP connection."""

from __future__ import annotations

import http.client
import json
import time
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit


@dataclass
class Frame:
    """One SSE frame: an event (``event``, ``id``, ``data``) or a comment (``comment``)."""

    event: str | None = None
    id: str | None = None
    data: str = ""
    comment: str | None = None

    @property
    def json(self) -> Any:
        return json.loads(self.data)


@dataclass
class EventStream:
    base: str
    path: str
    token: str | None = None
    headers: dict[str, str] = field(default_factory=dict)
    timeout: float = 10.0

    def __post_init__(self) -> None:
        parts = urlsplit(self.base)
        self.conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=self.timeout)
        hdrs = {"Accept": "text/event-stream", **self.headers}
        if self.token:
            hdrs["Authorization"] = f"Bearer {self.token}"
        self.conn.request("GET", self.path, headers=hdrs)
        self.response = self.conn.getresponse()
        self.status = self.response.status
        self.response_headers = {k.lower(): v for k, v in self.response.getheaders()}
        self._buffer = b""
        self.closed = False

    def _line(self) -> bytes | None:
        while b"\n" not in self._buffer:
            chunk = self.response.read1(65536)
            if not chunk:
                self.closed = True
                return None
            self._buffer += chunk
        line, self._buffer = self._buffer.split(b"\n", 1)
        return line

    def next(self) -> Frame | None:
        """The next frame, or None once the server closed the stream."""
        frame = Frame()
        seen = False
        while True:
            line = self._line()
            if line is None:
                return frame if seen else None
            text = line.decode()
            if text == "":
                if seen:
                    return frame
                continue
            seen = True
            if text.startswith(":"):
                frame.comment = text[1:].strip()
                continue
            name, _, value = text.partition(":")
            value = value[1:] if value.startswith(" ") else value
            if name == "data":
                frame.data = value if not frame.data else frame.data + "\n" + value
            elif name in ("event", "id"):
                setattr(frame, name, value)

    def entries_until_end(self, deadline: float = 60.0) -> tuple[list[dict[str, Any]], Frame | None]:
        """Every entry until ``event: end`` (returned as the second value) or the stream closes."""
        entries: list[dict[str, Any]] = []
        stop = time.monotonic() + deadline
        while time.monotonic() < stop:
            frame = self.next()
            if frame is None:
                return entries, None
            if frame.event == "entry":
                assert frame.id == str(frame.json["version"]), "the event id is not the entry's version"
                entries.append(frame.json)
            elif frame.event == "end":
                return entries, frame
        raise AssertionError("no end of the stream in time")

    def close(self) -> None:
        self.conn.close()
