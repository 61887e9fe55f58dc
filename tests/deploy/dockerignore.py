"""Docker's ``.dockerignore`` rules, reimplemented so a test can tell what a build context holds.

No Docker engine runs here, so this follows the engine's own code (moby's ``patternmatcher`` and its
``ignorefile.ReadAll``), step by step:

- a line starting with ``#`` is a comment; lines are stripped, empty ones dropped;
- ``!`` marks an exception; the pattern is cleaned as Go's ``filepath.Clean`` does and a leading
  ``/`` dropped (patterns are relative to the context root: ``*.egg-info`` matches only there);
- ``*`` is any run of characters but ``/``, ``?`` one character but ``/``, ``[...]`` a class, ``\\``
  escapes the next character; ``**`` matches any number of path elements, none included;
- a pattern that matches a file or any of its parent directories matches the file (a directory
  excluded excludes its contents), and the last pattern that matches decides (an exception after
  an exclusion brings a file back).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path


def go_clean(path: str) -> str:
    """Go's ``filepath.Clean`` on a slash-separated path (Unix): one slash between elements, no
    ``.`` elements, ``..`` folded where it can be, ``.`` for an empty result."""
    if path == "":
        return "."
    rooted = path.startswith("/")
    out: list[str] = []
    for part in path.split("/"):
        if part in ("", "."):
            continue
        if part == "..":
            if out and out[-1] != "..":
                out.pop()
            elif not rooted:
                out.append("..")
            continue  # ".." at the root is the root
        out.append(part)
    cleaned = "/".join(out)
    if rooted:
        return "/" + cleaned
    return cleaned or "."


def read_patterns(text: str) -> list[str]:
    """The patterns of a ``.dockerignore`` as the engine reads them (``ignorefile.ReadAll``)."""
    patterns = []
    for number, line in enumerate(text.splitlines()):
        if number == 0:
            line = line.removeprefix("\ufeff")
        if line.startswith("#"):
            continue
        line = line.strip()
        if not line:
            continue
        invert = line.startswith("!")
        if invert:
            line = line[1:].strip()
        if line:
            line = go_clean(line)
            if len(line) > 1 and line.startswith("/"):
                line = line[1:]
        patterns.append("!" + line if invert else line)
    return patterns


#: Characters special to a regular expression but not to a pattern: the engine escapes only these.
_ESCAPE = frozenset(".+()|{}$")


def compile_pattern(pattern: str) -> tuple[str, re.Pattern[str] | None]:
    """How the engine matches a cleaned pattern (``Pattern.compile``): ``exact`` (the path is the
    pattern), ``prefix`` (a plain pattern ending in ``**``), ``suffix`` (one starting with ``**`` and
    otherwise plain: the path ends with the rest) or ``regexp``, with the regular expression."""
    if pattern.endswith("\\") and not pattern.endswith("\\\\"):
        raise ValueError(f"bad pattern {pattern!r}: a trailing backslash")  # Go's filepath.Match refuses it
    out = ["^"]
    kind = "exact"
    i = 0
    while i < len(pattern):
        ch = pattern[i]
        if ch == "*" and pattern[i + 1:i + 2] == "*":
            start = i
            i += 1
            if pattern[i + 1:i + 2] == "/":  # "**/" is "**"
                i += 1
            if i + 1 == len(pattern):  # "**" at the end: anything
                if kind == "exact":
                    kind = "prefix"
                else:
                    out.append(".*")
                    kind = "regexp"
            else:  # any number of whole elements, none included
                out.append("(.*/)?")
                kind = "regexp"
            if start == 0:
                kind = "suffix"
        elif ch == "*":
            out.append("[^/]*")
            kind = "regexp"
        elif ch == "?":
            out.append("[^/]")
            kind = "regexp"
        elif ch == "\\":
            if i + 1 < len(pattern):
                i += 1
                out.append("\\" + pattern[i])
                kind = "regexp"
            else:
                out.append(r"\\")
        elif ch in "[]":
            out.append(ch)  # a class, passed to the regular expression as it is
            kind = "regexp"
        elif ch in _ESCAPE:
            out.append("\\" + ch)
        else:
            out.append(ch)  # as it is, inside a class too (a "-" range, a "^" negation)
        i += 1
    if kind != "regexp":
        return kind, None
    try:
        return kind, re.compile("".join(out) + "$")
    except re.error as exc:
        raise ValueError(f"bad pattern {pattern!r}: {exc}") from None


@dataclass(frozen=True)
class Pattern:
    text: str
    exception: bool

    @cached_property
    def compiled(self) -> tuple[str, re.Pattern[str] | None]:
        return compile_pattern(self.text)

    def match(self, path: str) -> bool:
        """``Pattern.match``: this pattern matches the path itself."""
        kind, regex = self.compiled
        if kind == "exact":
            return path == self.text
        if kind == "prefix":
            return path.startswith(self.text[:-2])
        if kind == "suffix":
            suffix = self.text[2:]
            return path.endswith(suffix) or (suffix.startswith("/") and path == suffix[1:])
        assert regex is not None
        return regex.match(path) is not None

    def matches(self, path: str) -> bool:
        """This pattern matches ``path`` or one of its parent directories."""
        parts = path.split("/")
        return any(self.match("/".join(parts[:n])) for n in range(len(parts), 0, -1))


class DockerIgnore:
    """Which paths of a build context the engine leaves out (``MatchesOrParentMatches``)."""

    def __init__(self, patterns: Iterable[str]) -> None:
        self.patterns: list[Pattern] = []
        for text in patterns:
            text = text.strip()
            if not text:
                continue
            exception = text.startswith("!")
            if exception:
                text = text[1:]
                if not text:
                    raise ValueError('illegal exclusion pattern: "!"')
            pattern = Pattern(go_clean(text), exception)
            pattern.compiled  # noqa: B018 -- a bad pattern fails here, as the engine refuses it up front
            self.patterns.append(pattern)

    @classmethod
    def read(cls, path: Path) -> DockerIgnore:
        return cls(read_patterns(path.read_text()) if path.exists() else [])

    def excluded(self, path: str) -> bool:
        """``path`` (relative to the context root, slash-separated) is left out of the context."""
        path = go_clean(path)
        excluded = False
        for pattern in self.patterns:
            # an exclusion cannot exclude what is already out, an exception cannot bring back what is in
            if pattern.exception != excluded:
                continue
            if pattern.matches(path):
                excluded = not pattern.exception
        return excluded

    def context(self, files: Iterable[str]) -> set[str]:
        """The files of ``files`` that the build context holds."""
        return {f for f in files if not self.excluded(f)}
