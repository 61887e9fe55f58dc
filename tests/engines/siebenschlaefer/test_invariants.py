"""Invariants of Siebenschläfer over whole games (seeds/siebenschlaefer.md).

Seeded games with random legal moves (the seeds pick the moves; no position depends on a seed):
cards are conserved, listed moves and ``apply`` agree, values rise within a run, the 7 effects
hold, and every game ends (a winner or the safety cap).
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from engines.core import IllegalMove
from engines.siebenschlaefer import ENGINE as E
from engines.siebenschlaefer.moves import Draw, Pass, Play
from engines.siebenschlaefer.rules import pass_threshold, round_locked
from engines.siebenschlaefer.state import ACES, FULL_DECK, State, pair_value

CASES = [(n, f"inv-{n}-{k}", opts) for n in range(2, 9) for k in range(2) for opts in ({}, {"rounds": 2})]
CASES += [
    (4, "opt-a", {"aa_rule": "value_2", "reset_illegal_pair": "sum_count_values"}),
    (3, "opt-b", {"allow_voluntary_pass": True, "skip_counts_as_pass": True}),
    (2, "opt-c", {"pass_reset_threshold": "all_other_players", "apply_final_penalties": False}),
    (5, "opt-d", {"aa_rule": "value_22", "rounds": 3}),
]


def _all_pairs_accepted(state: State, seat: int) -> set[tuple[str, str]]:
    """Every unordered pair of hand codes that ``apply`` accepts (brute force)."""
    hand = state.hands[seat]
    counts = Counter(hand)
    codes = sorted(counts)
    ok: set[tuple[str, str]] = set()
    for i, a in enumerate(codes):
        for b in codes[i:]:
            if a == b and counts[a] < 2:
                continue
            try:
                E.apply(state, seat, Play(cards=(a, b)))
            except IllegalMove:
                continue
            ok.add(tuple(sorted((a, b))))  # type: ignore[arg-type]
    return ok


def _choose(rng: random.Random, moves: tuple[object, ...]) -> object:
    """Half the time any listed move, else the lowest pair (so that more games go out)."""
    plays = [m for m in moves if isinstance(m, Play)]
    if not plays or rng.random() < 0.5:
        return rng.choice(moves)
    return min(plays, key=lambda m: (99 if pair_value(*m.cards) == ACES else pair_value(*m.cards), rng.random()))


@pytest.mark.parametrize(("players", "seed", "options"), CASES)
def test_random_game_invariants(players: int, seed: str, options: dict[str, object]) -> None:
    rng = random.Random(seed)
    s = E.new_game(players, {"max_turns": 600, **options}, seed)
    steps = 0
    while E.result(s) is None:
        steps += 1
        assert steps < 600 * 3 + 10
        # conservation (4.8.1) and the pass counter at rest (4.8.4)
        assert Counter([c for h in s.hands for c in h] + list(s.stock) + list(s.pile)) == Counter(FULL_DECK)
        assert 0 <= s.passes < pass_threshold(s)
        assert E.decode(E.encode(s)) == s
        (seat,) = E.to_move(s)
        moves = E.legal_moves(s, seat)
        assert moves, "the seat to move always has a move"
        for other in range(players):
            if other != seat:
                assert E.legal_moves(s, other) == ()
        # listing and apply agree: every listed pair once, every accepted pair listed
        plays = {m.cards for m in moves if isinstance(m, Play)}
        assert len(plays) == sum(isinstance(m, Play) for m in moves)
        if steps % 7 == 0 or len(s.hands[seat]) <= 8:
            assert {tuple(sorted(p)) for p in plays} == _all_pairs_accepted(s, seat)
        for extra in (Draw(), Pass()):
            if extra not in moves:
                with pytest.raises(IllegalMove):
                    E.apply(s, seat, extra)
        move = _choose(rng, moves)
        before = s
        s = E.apply(s, seat, move)
        if s.round != before.round or s.status != "active":
            continue
        sizes_before = [len(h) for h in before.hands]
        sizes_after = [len(h) for h in s.hands]
        if isinstance(move, Play):
            value = pair_value(*move.cards)
            assert isinstance(value, int)
            assert sizes_after[seat] - sizes_before[seat] == -2
            # within a run (between resets and aces) values rise strictly (4.8.2)
            if value != ACES and before.target is not None:
                assert value > before.target
            assert s.target == (None if value == ACES else value) or s.top_kind == "start"
            sevens = sum(c.startswith("7") for c in move.cards)
            gained = [a - b for a, b in zip(sizes_after, sizes_before, strict=True)]
            if sevens == 1:  # 4.8.5: exactly the successor draws (up to two) and is skipped
                victim = (seat + 1) % players
                assert all(g == 0 for i, g in enumerate(gained) if i not in (seat, victim))
                assert 0 <= gained[victim] <= 2
                assert s.current == (seat + 2) % players
            elif sevens == 2:  # 4.8.5: all others draw, the same player moves again
                assert all(0 <= g <= 2 for i, g in enumerate(gained) if i != seat)
                assert s.current == seat
            elif s.top_kind == "play":
                assert s.current == (seat + 1) % players
        elif isinstance(move, Draw):
            assert 1 <= sizes_after[seat] - sizes_before[seat] <= 2 and s.current == seat
            assert sizes_after[:seat] + sizes_after[seat + 1 :] == sizes_before[:seat] + sizes_before[seat + 1 :]
        else:
            assert sizes_after == sizes_before and s.current == (seat + 1) % players
    r = E.result(s)
    assert r is not None and E.to_move(s) == ()
    if r.status == "finished":
        last = s.history[-1]
        if last.reason == "went_out":
            assert last.winner is not None and len(last.hands[last.winner]) == 0  # 4.8.6: ends iff a hand is empty
            assert all(len(h) > 0 for i, h in enumerate(last.hands) if i != last.winner)
        else:  # section 12: or when it can never end
            assert last.reason == "stalled" and last.winner is None and round_locked(last.hands)
    else:
        assert r.detail["reason"] == "max_turns" and s.moves >= 600
