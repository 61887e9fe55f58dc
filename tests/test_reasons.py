"""Every reason a move can be refused for is declared once, with what it means, and every declared one
can happen: read off the source with ``ast``, so that a new ``IllegalMove("...")`` without its
declaration fails here, not in a client that meets an undocumented ``reason``.

A game declares its rules' reasons in ``engines/<game>/rules.py`` (``REASONS``); core declares its own
(``engines.core.CORE_REASONS``: the turn checks and malformed moves). An engine's ``reasons`` are both,
the spec lists them as each game's enum of ``illegal_move`` reasons, and docs/api.md names each game's.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from engines import REGISTRY
from engines.core import CORE_REASONS
from tests.markdown import section, table_rows

ROOT = Path(__file__).resolve().parent.parent
ENGINES = sorted(REGISTRY.values(), key=lambda e: e.id)
IDS = [e.id for e in ENGINES]


def _package(engine: object) -> Path:
    """The directory of a game's package (``engines/<game>/``), from where its rules live."""
    module = engine.game.apply.__module__  # type: ignore[attr-defined]
    return ROOT.joinpath(*module.split(".")[:-1])


def _sites(paths: list[Path]) -> Iterator[tuple[str, str | None]]:
    """``(where, reason)`` for every ``IllegalMove(...)`` built in ``paths``; the reason None when it
    is not a literal string (and so cannot be checked)."""
    for path in paths:
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", None)
            if name != "IllegalMove":
                continue
            arg = node.args[0] if node.args else next((k.value for k in node.keywords if k.arg == "reason"), None)
            reason = arg.value if isinstance(arg, ast.Constant) and isinstance(arg.value, str) else None
            yield f"{path.relative_to(ROOT)}:{node.lineno}", reason


def _raised(paths: list[Path]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for where, reason in _sites(paths):
        assert reason is not None, f"{where}: IllegalMove's reason is not a literal string, so it cannot be checked"
        out.setdefault(reason, []).append(where)
    return out


def _game_files() -> set[Path]:
    return {p for e in ENGINES for p in _package(e).rglob("*.py")}


def _shared_files() -> list[Path]:
    """Every module outside the games' packages that may refuse a move: core, the service, the bots."""
    games = _game_files()
    every = [*ROOT.joinpath("engines").rglob("*.py"), *ROOT.joinpath("service").rglob("*.py"),
             *ROOT.joinpath("bots").rglob("*.py")]
    return sorted(p for p in every if p not in games)


def test_the_source_is_read_where_moves_are_refused() -> None:
    """The scan finds the refusals it is meant to judge (a scan of nothing would pass everything)."""
    assert len(list(_sites(sorted(_game_files())))) > 50
    assert {"game_over", "not_your_turn", "malformed_move"} <= set(_raised(_shared_files()))


@pytest.mark.parametrize("engine", ENGINES, ids=IDS)
def test_every_reason_a_game_raises_is_declared(engine: object) -> None:
    raised = _raised(sorted(_package(engine).rglob("*.py")))
    undeclared = {r: w for r, w in raised.items() if r not in engine.reasons}  # type: ignore[attr-defined]
    assert not undeclared, f"raised but not declared in rules.REASONS: {undeclared}"


@pytest.mark.parametrize("engine", ENGINES, ids=IDS)
def test_every_reason_a_game_declares_is_raised_by_it(engine: object) -> None:
    raised = _raised(sorted(_package(engine).rglob("*.py")))
    declared = set(engine.game.reasons)  # type: ignore[attr-defined]
    assert declared, "a game declares the reasons its rules refuse moves for"
    assert not declared - set(raised), f"declared but never raised: {sorted(declared - set(raised))}"


def test_core_raises_exactly_its_declared_reasons() -> None:
    """Outside the games' packages only core's reasons are raised, and each of them is."""
    raised = _raised(_shared_files())
    assert set(raised) == set(CORE_REASONS), {r: w for r, w in raised.items() if r not in CORE_REASONS}


@pytest.mark.parametrize("engine", ENGINES, ids=IDS)
def test_each_reason_is_declared_once_with_its_meaning(engine: object) -> None:
    game_reasons = engine.game.reasons  # type: ignore[attr-defined]
    assert not set(game_reasons) & set(CORE_REASONS), "a game declares again what core declares"
    assert engine.reasons == {**CORE_REASONS, **game_reasons}  # type: ignore[attr-defined]
    for reason, meaning in engine.reasons.items():  # type: ignore[attr-defined]
        assert re.fullmatch(r"[a-z][a-z0-9]*(_[a-z0-9]+)*", reason), reason
        assert isinstance(meaning, str) and meaning.endswith(".") and len(meaning) > 20, (reason, meaning)


def test_docs_api_md_names_each_games_reasons() -> None:
    rows = table_rows(section((ROOT / "docs" / "api.md").read_text(), "Why a move is refused"))
    named = {cells[0].strip("`"): set(re.findall(r"`([a-z0-9_]+)`", cells[1])) for cells in rows}
    assert named == {e.id: set(e.game.reasons) for e in ENGINES}  # type: ignore[attr-defined]
