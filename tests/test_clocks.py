"""The clocks of a table as pure functions of the record (``service.clocks``): when a turn starts and
ends, what a fischer bank keeps, what a passed deadline does under each policy. No store, no request."""

from __future__ import annotations

from typing import Any

from service import clocks


def _record(clock: dict[str, Any] | None, players: int = 2, bots: tuple[int, ...] = ()) -> dict[str, Any]:
    seats = [{"hash": None, "bot": True, "level": "greedy"} if s in bots else {"hash": "h", "bot": False}
             for s in range(players)]
    spec = None if clock is None else clocks.spec(clock)
    return {"players": players, "seats": seats, "clock": spec, "clocks": clocks.fresh(spec, players), "running": {}}


FISCHER = {"kind": "fischer", "initial_seconds": 10, "increment_seconds": 2}


def test_a_person_who_comes_to_move_gets_an_absolute_deadline_of_now_plus_the_bank() -> None:
    out = clocks.settle(_record(FISCHER), to_move=(0,), movers=[], now=1_000, idle_ms=0, active=True)
    assert out["running"] == {"0": 11_000} and out["due"] == 11_000


def test_a_bot_to_move_has_no_clock_and_no_deadline() -> None:
    out = clocks.settle(_record(FISCHER, bots=(1,)), to_move=(1,), movers=[], now=1_000, idle_ms=0, active=True)
    assert out["running"] == {} and out["due"] is None


def test_a_turn_of_several_moves_keeps_its_deadline_and_its_end_adds_the_increment_to_what_was_left() -> None:
    started = clocks.settle(_record(FISCHER), (0,), [], 0, 0, True)
    drew = clocks.settle(started, (0,), [0], 3_000, 0, True, own=0)  # a draw: still seat 0's turn
    assert drew["running"] == {"0": 10_000}
    ended = clocks.settle(drew, (1,), [0], 4_000, 0, True, own=0)
    assert ended["clocks"][0]["remaining_ms"] == 6_000 + 2_000 and ended["running"] == {"1": 14_000}


def test_a_seat_that_moves_again_after_others_moved_starts_a_new_turn() -> None:
    started = clocks.settle(_record(FISCHER, players=3, bots=(1, 2)), (0,), [], 0, 0, True)
    again = clocks.settle(started, (0,), [0, 1, 2], 4_000, 0, True, own=0)  # the bots moved in the same request
    assert again["clocks"][0]["remaining_ms"] == 8_000 and again["running"] == {"0": 12_000}


def test_per_move_gives_every_turn_the_same_time() -> None:
    rec = _record({"kind": "per_move", "seconds": 30})
    started = clocks.settle(rec, (0,), [], 0, 0, True)
    again = clocks.settle(started, (0,), [0, 1], 29_000, 0, True)
    assert again["running"] == {"0": 59_000}


def test_a_finished_or_waiting_game_runs_no_clock_and_is_not_due() -> None:
    out = clocks.settle(clocks.settle(_record(FISCHER), (0,), [], 0, 60_000, True), (), [0], 1_000, 60_000, False)
    assert out["running"] == {} and out["due"] is None and out["idle_at"] is None


def test_the_idle_limit_is_due_when_no_clock_runs_sooner() -> None:
    out = clocks.settle(_record(None), (0,), [], 1_000, 60_000, True)
    assert out["due"] == out["idle_at"] == 61_000
    assert isinstance(clocks.decide(out, (0,), 61_000, True), clocks.Abandon)
    assert clocks.decide(out, (0,), 60_999, True) is None


def test_policy_bot_plays_the_turn_then_replaces_the_seat_after_max_timeouts_in_a_row() -> None:
    rec = clocks.settle(_record({**FISCHER, "max_timeouts": 2}), (0,), [], 0, 0, True)
    first = clocks.decide(rec, (0,), 10_000, True)
    assert first == clocks.Timeout(0, "bot_moves", False)
    rec["clocks"][0]["timeouts"] = 1
    assert clocks.decide(rec, (0,), 10_000, True) == clocks.Timeout(0, "replaced", False)
    assert clocks.decide(rec, (0,), 9_999, True) is None


def test_policy_forfeit_loses_a_two_player_game_and_forfeits_the_seat_of_a_larger_one() -> None:
    two = clocks.settle(_record({**FISCHER, "on_timeout": "forfeit"}), (0,), [], 0, 0, True)
    assert clocks.decide(two, (0,), 10_000, True) == clocks.Timeout(0, "lost", True)
    three = clocks.settle(_record({**FISCHER, "on_timeout": "forfeit"}, players=3), (0,), [], 0, 0, True)
    assert clocks.decide(three, (0,), 10_000, True) == clocks.Timeout(0, "forfeited", True)


def test_a_seat_whose_turn_timed_out_ends_its_turn_and_gets_only_the_increment() -> None:
    rec = clocks.settle(_record(FISCHER), (0,), [], 0, 0, True)
    after = clocks.settle(rec, (0,), [0], 12_000, 0, True, turn_over=(0,))
    assert after["clocks"][0]["remaining_ms"] == 2_000 and after["running"] == {"0": 14_000}


def test_the_view_clock_counts_down_from_the_deadline_and_shows_the_bank_when_stopped() -> None:
    rec = clocks.settle(_record(FISCHER), (0,), [], 0, 0, True)
    assert clocks.seat_clock(rec, 0, 4_000) == {"remaining_ms": 6_000, "running": True}
    assert clocks.seat_clock(rec, 1, 4_000) == {"remaining_ms": 10_000, "running": False}
    assert clocks.seat_clock(rec, 0, 20_000) == {"remaining_ms": 0, "running": True}
    assert clocks.seat_clock(_record(None), 0, 0) is None
