"""The coverage of ``legal_moves`` in Siebenschläfer (seeds/siebenschlaefer.md section 5).

Hand-built edge positions (``table``) and random positions under every option set are checked with
the shared ``assert_covers``: the listed moves cover every kind of move, every card and every
distinct pair that the slow reference enumerator (``reference.py``: every candidate judged by
``apply``) finds legal, within the documented bound.
"""

from __future__ import annotations

import itertools
import random

import pytest

from engines.siebenschlaefer import ENGINE
from engines.siebenschlaefer.moves import Draw, Pass, Play
from engines.siebenschlaefer.state import FULL_DECK, State
from tests.test_move_coverage import assert_covers

from .builders import table
from .reference import LIST_BOUND

E = ENGINE


def test_pairs_of_the_same_code_need_both_copies_and_are_listed_once() -> None:
    """Section 4/5: two copies of a code make one pair; one copy makes none; each distinct pair once."""
    s = table([["6H", "6H", "7C", "KS", "KS", "2D"], ["3C", "3D"]], target=11)
    listed = E.legal_moves(s, 0)
    assert Play(cards=("6H", "6H")) in listed and Play(cards=("KS", "KS")) not in listed  # two face cards
    assert listed.count(Play(cards=("6H", "7C"))) == 1
    assert_covers(E, s, 0)


def test_draw_is_listed_alone_when_no_pair_can_be_laid() -> None:
    """Section 5: unable to lay and a card can be reached: ``draw`` is the one legal move."""
    s = table([["2C", "3D"], ["3C", "3H"]], target=12, stock=["10C", "9H", "4S"])
    assert E.legal_moves(s, 0) == (Draw(),)
    assert_covers(E, s, 0)


def test_pass_is_listed_after_a_fruitless_draw_and_when_nothing_can_be_drawn() -> None:
    """Section 5 and 8: still unable after drawing, or no card left to reach: ``pass`` alone."""
    s = E.apply(table([["2C", "3D"], ["3C", "3H"]], target=12, stock=["2H", "3S", "4S"]), 0, Draw())
    assert E.legal_moves(s, 0) == (Pass(),)
    assert_covers(E, s, 0)
    empty = table([["2C", "3D"], ["3C", "3H"]], target=12, stock=[], pile=["5C", "7D"])
    assert E.legal_moves(empty, 0) == (Pass(),)
    assert_covers(E, empty, 0)


def test_voluntary_pass_lists_draw_then_pass_beside_the_pairs() -> None:
    """Section 10 (allow_voluntary_pass): an able player may draw, then pass; both listed with the pairs."""
    s = table([["9C", "5D"], ["3C", "3D"]], target=12, stock=["2C", "2D"], allow_voluntary_pass=True)
    assert E.legal_moves(s, 0) == (Play(cards=("5D", "9C")), Draw())
    assert_covers(E, s, 0)
    s = E.apply(s, 0, Draw())
    assert E.legal_moves(s, 0) == (Play(cards=("5D", "9C")), Pass())
    assert_covers(E, s, 0)


@pytest.mark.parametrize("rule", ["always", "value_22", "value_2"])
def test_only_aces_beat_twenty(rule: str) -> None:
    """Section 4 and 10 (aa_rule): on 20 only a pair of aces may be laid (counting 22 it still beats 20;
    counting 2 it does not)."""
    s = table([["AC", "AD", "10S", "KH"], ["3C", "3D"]], target=20, stock=["2C"], aa_rule=rule)
    aces = Play(cards=("AC", "AD"))
    assert E.legal_moves(s, 0) == ((aces,) if rule != "value_2" else (Draw(),))
    assert_covers(E, s, 0)


def test_one_card_can_never_be_laid() -> None:
    """Section 4: a hand of one card holds no pair; the player draws."""
    s = table([["AC"], ["3C", "3D"]], target=None, stock=["5C", "5D"])
    assert E.legal_moves(s, 0) == (Draw(),)
    assert_covers(E, s, 0)


def test_the_bound_counts_every_distinct_legal_pair_of_the_two_decks() -> None:
    """Section 5: the list bound. Seat 0 holds the two decks but for one 2C and one 3C (seat 1 has them),
    on a free table: every distinct legal pair of codes is listed -- the bound's 1108 less the two pairs
    of the same code that need both copies, (2C, 2C) and (3C, 3C) -- and ``pass`` (nothing to draw)."""
    hand = list(FULL_DECK)
    hand.remove("2C")
    hand.remove("3C")
    s = table([hand, ["2C", "3C"]], target=None, allow_voluntary_pass=True)
    listed = E.legal_moves(s, 0)
    assert len(listed) == LIST_BOUND - 2 and listed[-1] == Pass()
    assert Play(cards=("2C", "2C")) not in listed and Play(cards=("2D", "2D")) in listed
    assert_covers(E, s, 0)


OPTION_SETS = [
    {"allow_voluntary_pass": True},
    {"aa_rule": "value_22", "skip_counts_as_pass": True, "pass_reset_threshold": "all_other_players"},
    {"aa_rule": "value_2", "reset_illegal_pair": "sum_count_values", "apply_final_penalties": False},
]


def random_positions(options: dict, seed: str, per_count: int) -> list[State]:
    """``per_count`` positions, every 5th of random games (random listed moves), per player count."""
    out: list[State] = []
    rng = random.Random(seed)
    for players in range(2, 9):
        found = 0
        for g in itertools.count():
            state = E.new_game(players, {**options, "max_turns": 400}, f"{seed}/{players}/{g}")
            for i in itertools.count():
                if E.result(state) is not None or found >= per_count:
                    break
                if i % 5 == 0:
                    out.append(state)
                    found += 1
                (seat,) = E.to_move(state)
                state = E.apply(state, seat, rng.choice(E.legal_moves(state, seat)))
            if found >= per_count:
                break
    return out


@pytest.mark.parametrize("opts", range(len(OPTION_SETS)))
def test_listing_covers_every_legal_kind_card_and_pair_under_every_option_set(opts: int) -> None:
    """Section 5: the coverage guarantee on random positions of every player count under the options
    the shared coverage test (default options) does not play."""
    for state in random_positions(OPTION_SETS[opts], f"cover{opts}", 30):
        assert_covers(E, state, state.current)
