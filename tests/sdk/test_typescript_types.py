"""openapi-typescript generates TypeScript types from the committed spec, and they type-check.

The pinned openapi-typescript and tsc (tests/sdk/node/) are installed with ``npm ci`` into a cache
outside the work tree on first use. Without node/npm the test skips on a developer's machine and fails
in CI (``CI`` set): the check must never silently vanish there.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from tests.sdk.tools import SPEC, ToolMissing, generate_typescript, node_tools, typecheck


def _tools_or_fail() -> None:
    try:
        node_tools()
    except ToolMissing as exc:
        if os.environ.get("CI"):
            pytest.fail(f"CI is set and {exc}")
        pytest.skip(str(exc))


def _games(spec: dict) -> list[tuple[str, list[str]]]:
    """(prefix, move tags) of every game in the spec, from its create<Prefix>Game operation."""
    out = []
    for item in spec["paths"].values():
        op_id = item.get("post", {}).get("operationId", "")
        m = re.fullmatch(r"create(\w+)Game", op_id)
        if m:
            prefix = m.group(1)
            out.append((prefix, sorted(spec["components"]["schemas"][f"{prefix}Move"]["discriminator"]["mapping"])))
    return sorted(out)


def test_typescript_types_generate_and_type_check(tmp_path: Path) -> None:
    _tools_or_fail()
    spec = json.loads(SPEC.read_text())
    games = _games(spec)
    assert "Sten" in [p for p, _ in games]

    out = generate_typescript(tmp_path / "cardtable.ts")
    text = out.read_text()
    for prefix, _tags in games:
        for op in (f"create{prefix}Game", f"get{prefix}View", f"submit{prefix}Move", f"get{prefix}Log"):
            assert re.search(rf"^\s+{op}: \{{", text, re.M), f"operation {op} not declared"
        union = re.search(rf"^\s+{prefix}Move: (.+);$", text, re.M)
        assert union, f"{prefix}Move not declared"
        members = re.findall(r'components\["schemas"\]\["(\w+)"\]', union.group(1))
        mapping = spec["components"]["schemas"][f"{prefix}Move"]["discriminator"]["mapping"]
        assert sorted(members) == sorted(ref.rsplit("/", 1)[1] for ref in mapping.values()), union.group(0)
    assert "listGames: {" in text and "lookupGames: {" in text

    # What a TypeScript client relies on, checked by the compiler: each move kind is one member of the
    # union, narrowed by its `type` tag; an unknown tag is refused; a create body needs only `players`;
    # a view's `legal_moves` are moves; a finished view's `result` is the game's result or null.
    lines = ['import type { components, operations } from "./cardtable";',
             "type Is<T extends true> = T;",
             "type NotNever<T> = [T] extends [never] ? false : true;"]
    for prefix, tags in games:
        s = 'components["schemas"]'
        lines += [
            f'type {prefix}Move = {s}["{prefix}Move"];',
            *(f'export type {prefix}_{i} = Is<NotNever<Extract<{prefix}Move, {{ type: "{tag}" }}>>>;'
              for i, tag in enumerate(tags)),
            f'// @ts-expect-error -- not a move kind of {prefix}',
            f'export const {prefix}Bad: {prefix}Move = {{ type: "no_such_move" }};',
            f'export const {prefix}Create: operations["create{prefix}Game"]["requestBody"] extends '
            f'{{ content: {{ "application/json": infer B }} }} ? B : never = {{ players: 2 }};',
            f'export function {prefix}Moves(v: {s}["{prefix}View"]): {prefix}Move[] {{ return v.legal_moves; }}',
            f'export function {prefix}Result(v: {s}["{prefix}View"]): {s}["{prefix}Result"] | null '
            f'{{ return v.result; }}',
            # the people at the table: seats on create, join, rematch, the lobby
            f'export const {prefix}Seated: operations["create{prefix}Game"]["requestBody"] extends '
            f'{{ content: {{ "application/json": infer B }} }} ? B : never = '
            '{ players: 3, listed: true, seats: [{ name: "Ann" }, { bot: "greedy" }, { open: true }] };',
            f'export const {prefix}Join: operations["join{prefix}Game"]["requestBody"] extends '
            f'{{ content: {{ "application/json": infer B }} }} ? B : never = {{ invite: "x", name: "Bo" }};',
            f'export function {prefix}Joined(a: operations["join{prefix}Game"]["responses"][201]["content"]'
            f'["application/json"]): string {{ return a.token; }}',
            f'export function {prefix}Rematched(a: operations["rematch{prefix}Game"]["responses"][201]["content"]'
            f'["application/json"]): [string, number, string] {{ return [a.game_id, a.seat, a.token]; }}',
            f'export function {prefix}Next(v: {s}["{prefix}View"]): string | null {{ return v.next_game_id; }}',
            f'export function {prefix}Lobby(l: operations["list{prefix}Games"]["responses"][200]["content"]'
            f'["application/json"]): string[] {{ return l.games.map((g) => g.game_id); }}',
        ]
    check = tmp_path / "check.ts"
    check.write_text("\n".join(lines) + "\n")
    typecheck([check])
