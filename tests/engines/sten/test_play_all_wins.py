"""The view's ``play_all_wins`` (seeds/sten.md sections 6, 9 and 10): whether each listed declaration
would win if posted now, so that a client can warn before a losing one.

Hand-built positions check the rule case by case; random playouts under every combination of the
options that change how a declaration is judged or when one may be made check that the field says
exactly what ``apply`` then does, and that it does not change when the cards hidden from the seat
are dealt differently.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterator

import pytest

from engines.cards import standard_deck
from engines.sten import ENGINE
from engines.sten.moves import PlayAll
from engines.sten.state import StenState

from .test_properties import closure_succeeds
from .test_rules import FULL, LATE, PA_HANDS, position

E = ENGINE

#: Every combination of the options that change the judgement of a declaration (validation, open-remainder
#: bridging, where the leftover cards lie) or when one may be made (a failed one ending the turn or not).
JUDGING = [
    {"play_all_validation": validation, "play_all_may_use_remainder": bridging, "remainder_policy": policy,
     "failed_play_all_ends_turn": ends}
    for validation, bridging, policy, ends in itertools.product(
        ("submitted_order", "any_order"), (False, True), ("open", "uneven", "dead"), (True, False))
]

IDS = [f"{o['play_all_validation']}-{'bridge' if o['play_all_may_use_remainder'] else 'hand'}-{o['remainder_policy']}"
       f"-{'ends' if o['failed_play_all_ends_turn'] else 'keeps'}" for o in JUDGING]


def wins(state: StenState, seat: int, move: PlayAll) -> bool:
    after = E.apply(state, seat, move)
    return after.end == "play_all" and after.winner == seat


def listed_declarations(state: StenState, seat: int) -> list[PlayAll]:
    return [m for m in E.legal_moves(state, seat) if isinstance(m, PlayAll)]


# --- the rule, position by position ----------------------------------------------------------------------


def test_the_mover_sees_whether_the_listed_declaration_wins() -> None:
    """seeds/sten.md 6 and 9: seat 0 can lay 10H JH 4H 3H on hearts 5..9, so its listed declaration wins;
    seat 1 (AH 2H QH KH) cannot, so its listed one fails."""
    state = position(PA_HANDS, LATE)
    assert E.view(state, 0)["play_all_wins"] == [True]
    assert wins(state, 0, listed_declarations(state, 0)[0])
    other = position(PA_HANDS, LATE, current=1)
    assert E.view(other, 1)["play_all_wins"] == [False]
    assert not wins(other, 1, listed_declarations(other, 1)[0])


def test_play_all_wins_is_null_for_whoever_may_not_declare_now() -> None:
    """seeds/sten.md 3, 6 and 9: the seat not to move, a spectator, the opener and a declarer whose failed
    declaration did not end his turn may not declare now; once the game is over nobody may."""
    state = position(PA_HANDS, LATE)
    assert E.view(state, 1)["play_all_wins"] is None
    assert E.view(state, None)["play_all_wins"] is None
    opening = E.new_game(3, None, "outlook")
    assert opening.opening and E.view(opening, opening.current)["play_all_wins"] is None
    loose = position(PA_HANDS, LATE, options={"failed_play_all_ends_turn": False})
    failed = E.apply(loose, 0, PlayAll(("3H", "4H", "10H", "JH")))
    assert E.to_move(failed) == (0,) and E.view(failed, 0)["play_all_wins"] is None
    over = E.apply(state, 0, listed_declarations(state, 0)[0])
    assert [E.view(over, s)["play_all_wins"] for s in (None, 0, 1)] == [None, None, None]


def test_play_all_wins_follows_the_open_remainder_option() -> None:
    """seeds/sten.md 6 and 8 (A-S7): QH KH need the open 10H JH to bridge hearts 9..QH. Without bridging the
    only listed declaration fails; with it the bridged one wins and is the only one listed."""
    hands = [["QH", "KH"], ["4H", "3H"], ["2H", "AH"]]
    plain = position(hands, LATE, remainder=["10H", "JH"])
    assert E.view(plain, 0)["play_all_wins"] == [False]
    bridged = position(hands, LATE, remainder=["10H", "JH"], options={"play_all_may_use_remainder": True})
    assert E.view(bridged, 0)["play_all_wins"] == [True]
    assert wins(bridged, 0, listed_declarations(bridged, 0)[0])


def test_two_listed_declarations_are_judged_one_by_one() -> None:
    """seeds/sten.md 10: with bridging, the winning declaration names only the remainder cards it needs; the
    widest names the whole open remainder too, and is judged on its own: with the open 2C (clubs are
    closed) it fails while the first wins; with the open 4H it wins as well."""
    clubs = [c for c in standard_deck() if c[-1] == "C" and c != "2C"]
    hands = [["QH", "KH"], ["3H", "4H", *clubs], ["AH", "2H"]]
    layout = {"D": FULL, "S": FULL, "H": (5, 9)}
    state = position(hands, layout, remainder=["2C", "10H", "JH"], options={"play_all_may_use_remainder": True})
    listed = listed_declarations(state, 0)
    assert listed == [PlayAll(("10H", "JH", "QH", "KH")), PlayAll(("QH", "KH", "2C", "10H", "JH"))]
    assert E.view(state, 0)["play_all_wins"] == [True, False]
    assert [wins(state, 0, m) for m in listed] == [True, False]
    # with the open 4H instead, the whole remainder can be laid too: both win
    clubs = [c for c in standard_deck() if c[-1] == "C"]
    hands = [["QH", "KH"], ["3H", *clubs], ["AH", "2H"]]
    state = position(hands, layout, remainder=["4H", "10H", "JH"], options={"play_all_may_use_remainder": True})
    listed = listed_declarations(state, 0)
    assert listed == [PlayAll(("10H", "JH", "QH", "KH")), PlayAll(("4H", "10H", "JH", "QH", "KH"))]
    assert E.view(state, 0)["play_all_wins"] == [True, True]
    assert [wins(state, 0, m) for m in listed] == [True, True]


def test_submitted_order_and_any_order_judge_the_listed_declaration_alike() -> None:
    """seeds/sten.md 6 (A-S5): a listed declaration is in a fitting order whenever one exists, so the two
    judging modes agree on it; only a client's own order can tell them apart."""
    for validation in ("submitted_order", "any_order"):
        state = position(PA_HANDS, LATE, options={"play_all_validation": validation})
        assert E.view(state, 0)["play_all_wins"] == [True]
        other = position(PA_HANDS, LATE, current=1, options={"play_all_validation": validation})
        assert E.view(other, 1)["play_all_wins"] == [False]


# --- the property: it says what apply does, and hides nothing ----------------------------------------------


def positions(options: dict, players: int, seed: str) -> Iterator[StenState]:
    """Every position of a random game: mostly a random play or "Stein", sometimes a listed declaration
    (it often fails) or the hand in a shuffled order (reaching a failed declaration that keeps the turn)."""
    rng = random.Random(seed)
    state = E.new_game(players, {**options, "max_turns": 400}, seed)
    while E.result(state) is None:
        yield state
        (seat,) = E.to_move(state)
        moves = E.legal_moves(state, seat)
        declared = [m for m in moves if isinstance(m, PlayAll)]
        roll = rng.random()
        if declared and roll < 0.08:
            move = rng.choice(declared)
        elif declared and roll < 0.12:
            move = PlayAll(tuple(rng.sample(state.hands[seat], len(state.hands[seat]))))
        else:
            move = rng.choice([m for m in moves if not isinstance(m, PlayAll)])
        state = E.apply(state, seat, move)
    yield state


@pytest.mark.parametrize("opts", range(len(JUDGING)), ids=IDS)
def test_play_all_wins_says_what_posting_each_listed_declaration_does(opts: int) -> None:
    """seeds/sten.md 6, 9 and 10: for every seat and the spectator in every position of random games, under
    each combination of judging options: the field is null exactly when no declaration is listed for the
    viewer, else it has one entry per listed declaration, and each entry is whether ``apply`` of that move
    wins the game for the declarer. Its first entry is whether any declaration can win (brute force)."""
    options = JUDGING[opts]
    seen: Counter[str] = Counter()
    for players in range(2, 9):
        for state in positions(options, players, f"outlook/{opts}/{players}"):
            assert E.view(state, None)["play_all_wins"] is None
            for seat in range(players):
                shown = E.view(state, seat)["play_all_wins"]
                listed = listed_declarations(state, seat)
                if not listed:
                    assert shown is None
                    seen["none, the mover after a failure" if state.failed_play_all and seat == state.current
                         else "none"] += 1
                    continue
                assert shown == [wins(state, seat, m) for m in listed]
                assert shown[0] == closure_succeeds(state, seat)
                seen["wins" if shown[0] else "fails"] += 1
                seen[f"listed {len(shown)}"] += 1
                if len(shown) == 2:
                    seen[f"second {'wins' if shown[1] else 'fails'}"] += 1
    # the playouts reached every case the rule speaks of (else this test could not fail)
    assert seen["wins"] and seen["fails"] and seen["none"], seen
    if not options["failed_play_all_ends_turn"]:
        assert seen["none, the mover after a failure"], seen
    if options["play_all_may_use_remainder"] and options["remainder_policy"] == "open":
        assert seen["listed 2"], seen


@pytest.mark.parametrize("opts", range(0, len(JUDGING), 3), ids=IDS[::3])
def test_play_all_wins_does_not_depend_on_the_cards_hidden_from_the_seat(opts: int) -> None:
    """seeds/sten.md 9: the field is decided by the seat's own hand, the layout and the open remainder: dealing
    the other hands (and the dead cards) differently never changes it."""
    options = JUDGING[opts]
    judged = Counter[bool]()
    for players in (2, 3, 5, 8):
        for n, state in enumerate(positions(options, players, f"hidden/{opts}/{players}")):
            if state.over:
                continue
            seat = state.current
            shown = E.view(state, seat)["play_all_wins"]
            for k in range(2):
                other = E.shuffle_hidden(state, seat, f"{n}/{k}")
                assert E.view(other, seat)["play_all_wins"] == shown
            if shown is not None:
                judged[shown[0]] += 1
    assert judged[True] and judged[False]

