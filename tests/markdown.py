"""Reading the project's Markdown the way a reader's browser does: links, headings and tables.

Only what the documentation tests need: inline links and images (``[text](target)``,
``![alt](target)``) and reference definitions (``[name]: target``) outside code; the anchors
GitHub gives headings; the rows of a table under a heading. Code (fenced blocks and inline spans)
is never read as Markdown, so an example such as ```[x](y)``` is not a link.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import unquote

_FENCE = re.compile(r"^\s*(```|~~~)")
_CODE_SPAN = re.compile(r"(`+)(.+?)\1")
_INLINE_LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*(<[^>]*>|[^)\s]+)(?:\s+\"[^\"]*\")?\s*\)")
_REFERENCE = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)")
_HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
_SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")


def _unfenced(text: str) -> Iterator[str]:
    """The lines outside fenced code blocks (the fences themselves left out)."""
    fenced = False
    for line in text.splitlines():
        if _FENCE.match(line):
            fenced = not fenced
        elif not fenced:
            yield line


def prose_lines(text: str) -> list[str]:
    """The lines outside fenced code blocks, with inline code spans blanked out."""
    return [_CODE_SPAN.sub(" ", line) for line in _unfenced(text)]


def links(text: str) -> list[str]:
    """Every link target written in ``text`` (inline, image or reference definition)."""
    found = []
    for line in prose_lines(text):
        found += [m.group(1) for m in _INLINE_LINK.finditer(line)]
        found += [m.group(1) for m in _REFERENCE.finditer(line)]
    return [t[1:-1] if t.startswith("<") else t for t in found]


def is_relative(target: str) -> bool:
    """A link into the repository: no scheme (``https:``, ``mailto:``) and no host (``//``)."""
    return not (_SCHEME.match(target) or target.startswith("//"))


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading: link text kept, markup and punctuation dropped, lower
    case, each space a hyphen."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)
    text = re.sub(r"[^\w\- ]", "", text.strip().lower())
    return text.replace(" ", "-")


def anchors(text: str) -> set[str]:
    """The anchors of every heading of ``text``; a repeated heading gets ``-1``, ``-2`` ..."""
    seen: dict[str, int] = {}
    out = set()
    fenced = False
    for line in text.splitlines():
        if _FENCE.match(line):
            fenced = not fenced
            continue
        match = None if fenced else _HEADING.match(line)
        if match:
            base = slug(match.group(2))
            count = seen.get(base, 0)
            seen[base] = count + 1
            out.add(base if count == 0 else f"{base}-{count}")
    return out


def broken_links(page: Path, root: Path) -> list[str]:
    """Why each relative link of ``page`` does not lead to a file (or heading) inside ``root``."""
    root = root.resolve()
    problems = []
    text = page.read_text(encoding="utf-8")
    for target in links(text):
        if not is_relative(target):
            continue
        path_part, _, anchor = target.partition("#")
        path_part = unquote(path_part.split("?", 1)[0])
        where = page.resolve() if not path_part else (page.parent / path_part).resolve()
        if not where.is_relative_to(root):
            problems.append(f"{target}: leaves the repository")
            continue
        if not where.exists():
            problems.append(f"{target}: no such file")
            continue
        if (anchor and where.is_file() and where.suffix == ".md"
                and anchor not in anchors(where.read_text(encoding="utf-8"))):
            problems.append(f"{target}: no heading #{anchor} in {where.relative_to(root)}")
    return problems


def section(text: str, title: str) -> str:
    """The text under the heading ``title`` up to the next heading of the same or a higher level."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        match = _HEADING.match(line)
        if match and match.group(2) == title:
            level = len(match.group(1))
            body = []
            for rest in lines[i + 1:]:
                other = _HEADING.match(rest)
                if other and len(other.group(1)) <= level:
                    break
                body.append(rest)
            return "\n".join(body)
    raise LookupError(f"no heading {title!r}")


def table_rows(text: str) -> list[list[str]]:
    """The body rows of every Markdown table in ``text``, as lists of stripped cells."""
    rows = []
    for line in text.splitlines():
        line = line.strip()
        if not (line.startswith("|") and line.endswith("|")):
            continue
        cells = [c.strip() for c in line[1:-1].split("|")]
        if all(re.fullmatch(r":?-{3,}:?", c) for c in cells):
            rows.pop()  # the line above was the header
            continue
        rows.append(cells)
    return rows


def code_spans(text: str) -> list[str]:
    """The contents of every inline code span outside fenced blocks."""
    return [m.group(2).strip() for line in _unfenced(text) for m in _CODE_SPAN.finditer(line)]
