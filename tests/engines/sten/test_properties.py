"""Invariants of Sten over random legal play (seeds/sten.md section 11), seeded and bounded.

Each game is played by a random bot choosing among ``legal_moves``; after every move the
invariants are checked. Seeds are fixed, so a failure reproduces.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

from engines.cards import RANK_VALUE, SUITS, rank_of, standard_deck, suit_of
from engines.core import IllegalMove, move_from_json
from engines.sten import ENGINE
from engines.sten.moves import Play, PlayAll, Stein
from engines.sten.rules import playable
from engines.sten.state import StenState, fits, place

E = ENGINE
DECK = standard_deck()

OPTION_SETS = [
    {},
    {"remainder_policy": "uneven"},
    {"remainder_policy": "dead"},
    {"play_all_validation": "any_order", "play_all_may_use_remainder": True},
    {"failed_play_all_ends_turn": False, "stone_winner_conflict": "both"},
    {"remainder_policy": "dead", "failed_play_all_ends_turn": False, "play_all_may_use_remainder": True},
]


def placed(state: StenState) -> list[str]:
    out = []
    for c in DECK:
        i = SUITS.index(suit_of(c) or "")
        if state.low[i] and state.low[i] <= RANK_VALUE[rank_of(c)] <= state.high[i]:
            out.append(c)
    return out


def check_invariants(state: StenState) -> None:
    """seeds/sten.md 11: conservation, contiguous suits, hand order, the stone."""
    everything = [c for h in state.hands for c in h] + list(state.remainder) + list(state.dead) + placed(state)
    assert Counter(everything) == Counter(DECK)
    for i in range(4):
        assert (state.low[i] == 0) == (state.high[i] == 0)
        assert state.low[i] == 0 or 1 <= state.low[i] <= 7 <= state.high[i] <= 13
    assert state.stone is None or 0 <= state.stone < state.players
    assert state.stone_before != state.stone or state.stone is None


def closure_succeeds(state: StenState, seat: int) -> bool:
    """Brute force: can the whole hand be laid this turn (greedy closure over hand and allowed remainder)?"""
    pool = set(state.hands[seat])
    if state.options.play_all_may_use_remainder:
        pool |= set(state.remainder)
    low, high = state.low, state.high
    progress = True
    while progress:
        progress = False
        for c in sorted(pool):
            if fits(c, low, high):
                low, high = place(c, low, high)
                pool.discard(c)
                progress = True
    return not (set(state.hands[seat]) & pool)


def random_game(players: int, options: dict, seed: int, failing_declarations: bool = False) -> tuple[StenState, int]:
    rng = random.Random(seed)
    state = E.new_game(players, options, f"prop-{seed}")
    turns = 0
    while E.result(state) is None:
        check_invariants(state)
        (seat,) = E.to_move(state)
        moves = E.legal_moves(state, seat)
        assert moves, "the seat to move always has a listed move"
        for other in range(players):
            if other != seat:
                assert E.legal_moves(state, other) == ()
        plays = playable(state, seat)
        wins: dict[PlayAll, bool] = {}
        for m in moves:
            assert move_from_json(E.move_types, m.to_json()) == m
            after = E.apply(state, seat, m)
            if isinstance(m, PlayAll):
                wins[m] = after.end == "play_all" and after.winner == seat
        if not state.opening:
            assert (Stein() in moves) == (not plays or state.options.allow_voluntary_stein)
            # section 10: a declaration is listed whenever one may be made; a winning one first iff one exists
            assert bool(wins) == (not state.failed_play_all)
            can_win = closure_succeeds(state, seat) and not state.failed_play_all
            assert any(wins.values()) == can_win
            assert not can_win or wins[next(m for m in moves if isinstance(m, PlayAll))]
        # forced play: a card or "Stein"; a declaration only when it wins (failing ones cost a turn)
        forced = [m for m in moves if not isinstance(m, PlayAll) or wins[m]]
        if failing_declarations and not state.opening and not state.failed_play_all and rng.random() < 0.1:
            move = PlayAll(tuple(rng.sample(state.hands[seat], len(state.hands[seat]))))
        else:
            move = rng.choice(moves if failing_declarations else forced)
        before = E.encode(state)
        state = E.apply(state, seat, move)
        assert E.decode(E.encode(state)) == state
        assert E.decode(before) != state or isinstance(move, PlayAll)
        turns += 1
    check_invariants(state)
    return state, turns


@pytest.mark.parametrize(("players", "opts"), list(itertools.product(range(2, 9), range(len(OPTION_SETS)))))
def test_random_legal_play_terminates_within_52_n_turns(players: int, opts: int) -> None:
    """seeds/sten.md 11: with forced play (no failing declaration) the game ends within 52 * N turns; every
    listed move applies; a declaration is listed whenever one may be made, a winning one first iff one
    exists; "Stein" is listed iff nothing fits; the dead policy may stall, the others never do."""
    options = OPTION_SETS[opts]
    for seed in range(8):
        state, turns = random_game(players, options, seed * 31 + players)
        res = E.result(state)
        assert res is not None and res.status == "finished"
        assert turns <= 52 * players
        if options.get("remainder_policy") != "dead":
            assert res.detail["reason"] in ("empty_hand", "play_all")
            assert res.winners == (state.winner,) and not state.hands[state.winner]
        else:
            assert res.detail["reason"] in ("empty_hand", "play_all", "stalled")


@pytest.mark.parametrize("players", range(2, 9))
def test_random_play_with_failing_declarations_ends(players: int) -> None:
    """seeds/sten.md 6 and 11: random (often failing) declarations, listed or built, never break the
    invariants; each costs its declarer the stone, and the game still ends (bounded by max_turns)."""
    for seed in range(6):
        for options in ({}, {"failed_play_all_ends_turn": False}, {"play_all_validation": "any_order"}):
            state, _ = random_game(players, options, 1000 + seed, failing_declarations=True)
            assert E.result(state) is not None


@pytest.mark.parametrize("players", [3, 5, 8])
def test_illegal_moves_are_refused_and_listed_ones_accepted(players: int) -> None:
    """seeds/sten.md 5: apply accepts exactly the listed plays/"Stein" (declarations: see section 6)."""
    rng = random.Random(players)
    state = E.new_game(players, None, f"agree-{players}")
    for _ in range(60):
        if E.result(state) is not None:
            break
        (seat,) = E.to_move(state)
        listed = set(E.legal_moves(state, seat))
        for card in DECK:
            try:
                E.apply(state, seat, Play(card))
                assert Play(card) in listed
            except IllegalMove:
                assert Play(card) not in listed
        try:
            E.apply(state, seat, Stein())
            assert Stein() in listed
        except IllegalMove:
            assert Stein() not in listed
        state = E.apply(state, seat, rng.choice(sorted(listed, key=repr)))


def test_shuffle_hidden_during_random_play() -> None:
    """seeds/sten.md 9: view and legal moves of a seat never depend on the cards hidden from it."""
    for players, options in ((3, {}), (6, {"remainder_policy": "dead"}), (5, {"remainder_policy": "uneven"})):
        rng = random.Random(players)
        state = E.new_game(players, options, "leak")
        while E.result(state) is None:
            for seat in [None, *range(players)]:
                other = E.shuffle_hidden(state, seat, f"s{state.turn}")
                check_invariants(other)
                assert E.view(other, seat) == E.view(state, seat)
                if seat is not None:
                    assert E.legal_moves(other, seat) == E.legal_moves(state, seat)
            (seat,) = E.to_move(state)
            state = E.apply(state, seat, rng.choice(E.legal_moves(state, seat)))
