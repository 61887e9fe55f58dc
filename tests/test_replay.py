"""Replaying an export (``engines.replay``, ``cardtable replay FILE``): a game that reproduces says so
in one line; one that does not is stopped at the first entry that differs, named with what differs;
a document that is no export is refused without replaying anything.

The exports are the golden ones (tests/golden/<game>/export-*.json), changed here one part at a time.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from engines.replay import FORMAT, MalformedExport, replay
from service.cli import main
from tests.golden.exports import HERE

STEN = HERE / "sten" / "export-2p-strong.json"
KANASTER = HERE / "kanaster" / "export-2p-strong.json"


def load(path: Path = STEN) -> dict[str, Any]:
    export: dict[str, Any] = json.loads(path.read_text())
    return export


def test_an_export_that_reproduces_replays_every_entry_and_the_result() -> None:
    export = load()
    replayed = replay(export)
    assert replayed.ok and replayed.difference is None
    assert replayed.reproduced == replayed.entries == len(export["entries"]) > 10
    assert replayed.result == export["result"]
    assert replayed.summary() == (f"sten, 2 players: all {replayed.entries} entries and the result reproduced "
                                  f"(won by seat {export['result']['winners'][0]})")


def test_a_move_the_rules_refuse_stops_the_replay_at_its_entry() -> None:
    export = load()
    entry = export["entries"][4]
    entry["move"] = {"type": "play", "card": "ZZ"}
    replayed = replay(export)
    assert not replayed.ok and replayed.difference is not None
    assert replayed.difference.version == 5 and replayed.reproduced == 4
    assert "refused" in replayed.difference.what and replayed.result is None
    assert "differs at entry 5:" in replayed.summary()


def test_a_seat_that_is_not_to_move_stops_the_replay_at_its_entry() -> None:
    export = load()
    export["entries"][2]["seat"] = 1 - export["entries"][2]["seat"]
    difference = replay(export).difference
    assert difference is not None and difference.version == 3
    assert difference.what.startswith(f"seat {export['entries'][2]['seat']} moves, but")


def test_an_event_that_differs_is_named_with_both_versions() -> None:
    export = load(KANASTER)
    n, event = next((n, e) for n, entry in enumerate(export["entries"]) for e in entry["events"] if e["private"])
    seat, part = next(iter(event["private"].items()))
    event["private"][seat] = {**part, "extra": 1}
    difference = replay(export).difference
    assert difference is not None and difference.version == n + 1
    assert difference.what.startswith("event ") and '"extra": 1' in difference.what


def test_a_move_with_an_event_too_few_or_too_many_is_named() -> None:
    export = load()
    export["entries"][0]["events"].append({"type": "played", "public": {}, "private": {}})
    difference = replay(export).difference
    assert difference is not None and difference.version == 1 and "fewer event" in difference.what
    export = load()
    export["entries"][0]["events"] = []
    difference = replay(export).difference
    assert difference is not None and difference.version == 1 and "more event" in difference.what


def test_an_export_cut_short_is_a_game_that_does_not_end() -> None:
    export = load()
    export["entries"] = export["entries"][:-3]
    replayed = replay(export)
    assert replayed.difference is not None and replayed.difference.version is None
    assert "not over after the last entry" in replayed.difference.what
    assert replayed.reproduced == replayed.entries


def test_an_entry_after_the_end_is_refused_as_game_over() -> None:
    export = load()
    export["entries"].append({**copy.deepcopy(export["entries"][-1]), "version": len(export["entries"]) + 1})
    difference = replay(export).difference
    assert difference is not None and difference.version == len(export["entries"])
    assert "nobody is to move" in difference.what


def test_another_result_is_a_difference_at_the_end() -> None:
    export = load()
    export["result"] = {**export["result"], "winners": [9]}
    replayed = replay(export)
    assert replayed.difference is not None and replayed.difference.version is None
    assert replayed.summary().startswith("sten, 2 players: differs at the end of the game: the result is")


def test_the_deck_deals_the_game_so_another_deck_is_another_game() -> None:
    export = load()
    deck = export["deck"]
    deck[0], deck[1] = deck[1], deck[0]  # two cards change hands
    assert not replay(export).ok


def test_options_the_game_cannot_be_set_up_with_are_a_difference_before_any_entry() -> None:
    export = load()
    export["options"] = {**export["options"], "no_such_option": 1}
    replayed = replay(export)
    assert replayed.difference is not None and replayed.difference.version == 0
    assert replayed.reproduced == 0 and "setting the game up: the game cannot be set up" in replayed.summary()


@pytest.mark.parametrize(("change", "said"), [
    (lambda e: e.update(format="cardtable-replay/0"), "format"),
    (lambda e: e.update(game="chess"), "no game 'chess'"),
    (lambda e: e.pop("seed"), "`seed`"),
    (lambda e: e.update(players="2"), "`players`"),
    (lambda e: e["entries"].reverse(), "entries run 1, 2, 3"),
    (lambda e: e["entries"][0].pop("events"), "entry 1 has no valid `events`"),
    (lambda e: e.update(entries=[7]), "entry 1 is not an object"),
], ids=["format", "game", "seed", "players", "order", "events", "entry"])
def test_a_document_that_is_no_export_is_refused_before_anything_is_replayed(change: Any, said: str) -> None:
    export = load()
    change(export)
    with pytest.raises(MalformedExport, match=said.replace("(", r"\(")):
        replay(export)
    with pytest.raises(MalformedExport):
        replay([FORMAT])  # type: ignore[arg-type]


# --- cardtable replay FILE -------------------------------------------------------------------------


def test_the_command_line_exits_0_with_one_line_when_the_export_reproduces(capsys: Any) -> None:
    assert main(["replay", str(STEN)]) == 0
    out = capsys.readouterr().out
    assert out.count("\n") == 1 and out.startswith("sten, 2 players: all ") and "reproduced" in out


def test_the_command_line_exits_1_naming_the_first_entry_that_differs(capsys: Any, tmp_path: Path) -> None:
    export = load()
    export["entries"][6]["move"] = {"type": "stein"}
    path = tmp_path / "changed.json"
    path.write_text(json.dumps(export))
    assert main(["replay", str(path)]) == 1
    assert "differs at entry 7: the move {'type': 'stein'} is refused" in capsys.readouterr().out


def test_the_command_line_exits_2_for_a_file_that_is_no_export(capsys: Any, tmp_path: Path) -> None:
    (tmp_path / "text.json").write_text("not json")
    (tmp_path / "list.json").write_text("[]")
    assert main(["replay", str(tmp_path / "text.json")]) == 2
    assert "cannot read it" in capsys.readouterr().err
    assert main(["replay", str(tmp_path / "list.json")]) == 2
    assert "not an export: an export is a JSON object" in capsys.readouterr().err
    assert main(["replay", str(tmp_path / "missing.json")]) == 2
