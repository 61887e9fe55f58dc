"""The view's ``fits`` and the coverage of ``legal_moves`` (seeds/sten.md sections 9 and 10).

Edge positions are hand-built (``position``/``deck_for`` of the rules tests) and checked with the
shared ``assert_covers``: the listed moves cover every kind of move and every card that the slow
reference enumerator (``reference.py``: every candidate judged by ``apply``) finds legal.
"""

from __future__ import annotations

import itertools
import random

import pytest

from engines.cards import standard_deck
from engines.core import IllegalMove
from engines.sten import ENGINE
from engines.sten.moves import Play, PlayAll, Stein
from engines.sten.state import StenState
from tests.test_move_coverage import assert_covers

from .reference import LIST_BOUND
from .test_rules import FULL, LATE, PA_HANDS, deck_for, position

E = ENGINE
DECK = standard_deck()


def fits_of(state: StenState) -> list[str]:
    return [c for suit in E.view(state, None)["layout"] for c in suit["fits"]]


# --- the view's fits (section 9) -------------------------------------------------------------------------


def test_fits_during_the_opening_shows_only_the_hearts_seven() -> None:
    """seeds/sten.md 3 and 9: while the 7H holder has to open, the 7H is the only card that may be placed,
    so ``fits`` shows 7H and no other 7 (it once showed 7C, 7D and 7S as well: seeds/sten.md 12.8)."""
    state = E.new_game(4, None, "open", deck=deck_for(4, {2: ["7H", "7S", "8H"]}))
    assert state.opening
    assert fits_of(state) == ["7H"]
    for seat in (None, 0, 2):
        layout = E.view(state, seat)["layout"]
        assert [s["fits"] for s in layout] == [[], [], ["7H"], []]
    after = E.apply(state, 2, Play("7H"))
    assert fits_of(after) == ["7C", "7D", "6H", "8H", "7S"]


def test_fits_is_empty_once_the_game_is_over() -> None:
    """seeds/sten.md 7.1 and 9: after the end no card may be placed, so no suit shows one."""
    state = position(PA_HANDS, LATE, stone=1)
    assert fits_of(state) == ["4H", "10H"]
    over = E.apply(state, 0, PlayAll(("10H", "JH", "4H", "3H")))
    assert E.result(over) is not None
    assert fits_of(over) == []


def test_fits_never_shows_a_dead_hearts_seven() -> None:
    """seeds/sten.md 3 and 9: under policy dead a hearts 7 that was not held opens nothing: hearts stay
    closed for good, and every seat knows it (nobody opened), so ``fits`` does not offer the 7H."""
    state = E.new_game(3, {"remainder_policy": "dead"}, "dead", deck=deck_for(3, rest=["7H"]))
    assert state.dead == ("7H",) and not state.opening
    assert fits_of(state) == ["7C", "7D", "7S"]


OPTION_SETS = [
    {},
    {"remainder_policy": "dead"},
    {"remainder_policy": "uneven", "allow_voluntary_stein": True},
    {"play_all_validation": "any_order", "play_all_may_use_remainder": True},
    {"failed_play_all_ends_turn": False, "play_all_may_use_remainder": True},
]


def random_positions(options: dict, games: int, seed: str) -> list[StenState]:
    """Every position of ``games`` random games (random listed moves) per player count."""
    out: list[StenState] = []
    rng = random.Random(seed)
    for players, g in itertools.product(range(2, 9), range(games)):
        state = E.new_game(players, {**options, "max_turns": 300}, f"{seed}/{players}/{g}")
        while E.result(state) is None:
            out.append(state)
            (seat,) = E.to_move(state)
            state = E.apply(state, seat, rng.choice(E.legal_moves(state, seat)))
        out.append(state)
    return out


@pytest.mark.parametrize("opts", range(len(OPTION_SETS)))
def test_fits_shows_exactly_the_cards_that_may_be_placed(opts: int) -> None:
    """seeds/sten.md 9: of the mover's own cards and the open remainder, ``fits`` names exactly those
    ``apply`` accepts as a play; every other card it names is in another hand or dead (never placed)."""
    for state in random_positions(OPTION_SETS[opts], 1, f"fits{opts}")[::3]:
        shown = fits_of(state)
        assert len(set(shown)) == len(shown)
        if state.over:
            assert shown == []
            continue
        seat = state.current
        own = set(state.hands[seat]) | set(state.remainder)
        accepted = set()
        for card in DECK:
            try:
                E.apply(state, seat, Play(card))
                accepted.add(card)
            except IllegalMove:
                pass
        assert set(shown) & own == accepted
        elsewhere = {c for s, h in enumerate(state.hands) if s != seat for c in h} | set(state.dead)
        assert set(shown) - own <= elsewhere


# --- coverage of legal_moves (section 10) ----------------------------------------------------------------


def test_opening_lists_only_the_hearts_seven() -> None:
    """seeds/sten.md 3 and 10: the opening turn has exactly one legal move, and it is listed."""
    state = E.new_game(4, None, "open", deck=deck_for(4, {2: ["7H", "7S", "8H"]}))
    assert E.legal_moves(state, 2) == (Play("7H"),)
    assert_covers(E, state, 2)


def test_stein_when_nothing_fits_is_listed_with_the_failing_declaration() -> None:
    """seeds/sten.md 5.2, 6 and 10: nothing fits: "Stein" is listed, and so is a declaration of the whole
    hand (legal, it fails and costs the stone)."""
    state = position([["QH", "KH"], ["AH", "2H", "3H", "4H", "10H", "JH"]], LATE, stone=1)
    assert E.legal_moves(state, 0) == (Stein(), PlayAll(("QH", "KH")))
    assert_covers(E, state, 0)


def test_winning_declaration_is_listed_first_and_alone() -> None:
    """seeds/sten.md 6 and 10: when the whole hand can be laid, the one listed declaration wins."""
    state = position(PA_HANDS, LATE, stone=1)
    listed = [m for m in E.legal_moves(state, 0) if isinstance(m, PlayAll)]
    assert listed == [PlayAll(("10H", "JH", "4H", "3H"))]
    assert E.apply(state, 0, listed[0]).end == "play_all"
    assert_covers(E, state, 0)


def test_voluntary_stein_is_listed_beside_the_plays() -> None:
    """seeds/sten.md 5.2 and 10: with allow_voluntary_stein, "Stein" is listed though a card fits."""
    hands = [["10H", "KH"], ["AH", "2H", "3H", "4H", "JH", "QH"]]
    state = position(hands, LATE, options={"allow_voluntary_stein": True})
    assert E.legal_moves(state, 0) == (Play("10H"), Stein(), PlayAll(("10H", "KH")))
    assert_covers(E, state, 0)


def test_declarations_with_the_remainder_name_every_remainder_card() -> None:
    """seeds/sten.md 6 and 10: with play_all_may_use_remainder a declaration may name any open-remainder
    card; the winning one names only the bridging cards, the widest one all of them (here it fails,
    since the 2S cannot be laid before the 3S)."""
    hands = [["QH", "KH"], ["4H", "3H", "3S"], ["2H", "AH", "AS"]]
    layout = {"C": FULL, "D": FULL, "H": (5, 9), "S": (4, 13)}
    options = {"play_all_may_use_remainder": True}
    state = position(hands, layout, remainder=["10H", "JH", "2S"], options=options)
    listed = [m for m in E.legal_moves(state, 0) if isinstance(m, PlayAll)]
    assert listed == [PlayAll(("10H", "JH", "QH", "KH")), PlayAll(("QH", "KH", "10H", "JH", "2S"))]
    assert E.apply(state, 0, listed[0]).end == "play_all"
    assert E.apply(state, 0, listed[1]).end is None
    assert_covers(E, state, 0)


def test_no_declaration_after_a_failed_one_in_the_same_turn() -> None:
    """seeds/sten.md 6 and 10: failed_play_all_ends_turn=false: after the failure only plays are listed."""
    state = position(PA_HANDS, LATE, stone=1, options={"failed_play_all_ends_turn": False})
    after = E.apply(state, 0, PlayAll(("3H", "4H", "10H", "JH")))
    assert E.legal_moves(after, 0) == (Play("4H"), Play("10H"))
    assert_covers(E, after, 0)


def test_dead_hearts_seven_is_never_offered() -> None:
    """seeds/sten.md 3 and 10: a dead 7H is not in the mover's reach; the listing covers the rest."""
    state = E.new_game(3, {"remainder_policy": "dead"}, "dead", deck=deck_for(3, rest=["7H"]))
    assert all(m != Play("7H") for m in E.legal_moves(state, 0))
    assert_covers(E, state, 0)


@pytest.mark.parametrize("opts", range(len(OPTION_SETS)))
def test_listing_covers_every_legal_kind_and_card_under_every_option_set(opts: int) -> None:
    """seeds/sten.md 10: the coverage guarantee on random positions of every player count and option set
    (the shared coverage test plays the default options only); lists stay within the bound."""
    for state in random_positions(OPTION_SETS[opts], 1, f"cover{opts}")[::4]:
        if not state.over:
            assert len(E.legal_moves(state, state.current)) <= LIST_BOUND
            assert_covers(E, state, state.current)
