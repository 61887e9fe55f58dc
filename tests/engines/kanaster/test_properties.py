"""Invariants of Kanaster over random legal play (seeds/kanaster.md section 15),
seeded and bounded: every position of every playout is checked.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from engines.core import move_from_json
from engines.kanaster import ENGINE as E
from engines.kanaster import rules
from engines.kanaster.melds import is_black_three, is_canasta, is_red_three, is_wild, natural_rank
from engines.kanaster.moves import Discard, Draw, EndHand, TakePile, TakePileLayOff
from engines.kanaster.state import DRAW, PLAY, KanasterState

VARIANTS = [
    {},
    {"wild_discard_freezes_pile": True, "sperr_scope": "own", "red3_all_bonus": True},
    {"stock_exhausted": "forced_lay_off", "meld_after_taking_pile": False, "tuck_scope": "own_canasta",
     "tuck_points": "card_points"},
    {"black3_meld_on_going_out": False, "concealed_exempt_from_minimum": True, "cut_bonus": False,
     "cards_per_player": 15, "decks": 3},
]


def check_invariants(s: KanasterState) -> None:
    """Section 15: conservation; melds valid; red 3s only laid out; hands able to discard."""
    table = Counter()
    for m in s.melds:
        table.update(m.cards)
        table.update(m.tucked)
        assert len(m.cards) >= 3
        wild = sum(1 for c in m.cards if is_wild(c))
        assert wild < len(m.cards) - wild
        naturals = {natural_rank(c) or ("3" if is_black_three(c) else "?") for c in m.cards if not is_wild(c)}
        assert naturals == {m.rank}
        assert all(natural_rank(c) == m.rank for c in m.tucked)
        assert not m.tucked or is_canasta(m)
    everything = Counter(s.talon) + Counter(s.pile) + table
    for h in s.hands:
        everything.update(h)
    for r in s.red_threes:
        everything.update(r)
        assert all(is_red_three(c) for c in r)
    assert everything == Counter(rules.full_deck(s.rules))
    assert not s.pile or not is_red_three(s.pile[-1])  # red 3s are never discarded
    for seat in range(s.players):
        if s.started[seat]:
            assert not any(is_red_three(c) for c in s.hands[seat])
    if not s.over:
        hand = s.hands[s.current]
        if s.phase == PLAY:
            assert len(hand) >= 2 or (len(hand) == 1 and rules.has_canasta(s, s.current))
        else:
            assert s.phase == DRAW and s.pile


@pytest.mark.parametrize("variant", range(len(VARIANTS)))
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_hands_keep_the_invariants(players, variant):
    """Every position of random listed play keeps the invariants; the hand ends; the score is the sum."""
    rng = random.Random(f"inv/{players}/{variant}")
    s = E.new_game(players, {**VARIANTS[variant], "max_hands": 2}, f"inv{variant}")
    assert all(len(h) == s.rules.cards_per_player for h in s.hands)
    steps = 0
    while not s.over:
        check_invariants(s)
        legal = E.legal_moves(s, s.current)
        assert legal and len(set(legal)) == len(legal)
        if s.phase == DRAW:
            assert all(isinstance(m, Draw | TakePile | TakePileLayOff | EndHand) for m in legal)
        else:
            assert {m.card for m in legal if isinstance(m, Discard)} == set(s.hands[s.current])
        move = legal[int(rng.random() * len(legal))]
        assert move_from_json(E.move_types, json.loads(json.dumps(move.to_json()))) == move
        s = E.apply(s, s.current, move)
        assert E.decode(json.loads(json.dumps(E.encode(s)))) == s
        steps += 1
    check_invariants(s)
    assert len(s.history) == 2 and steps < 2000
    assert s.scores == tuple(sum(h[i] for h in s.history) for i in range(players))


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_whole_matches_to_the_target_end_with_a_winner(players):
    """Default options: random listed play plays a whole match hand after hand until a total reaches
    5,000, far below the safety cap hand_cap (section 10); the result names the highest totals."""
    rng = random.Random(f"match/{players}")
    s = E.new_game(players, {}, f"match{players}")
    while not s.over:
        legal = E.legal_moves(s, s.current)
        s = E.apply(s, s.current, legal[int(rng.random() * len(legal))])
    res = E.result(s)
    assert res is not None and res.scores == s.scores
    assert res.status == "finished" and max(s.scores) >= 5000 and len(s.history) < s.rules.hand_cap
    assert res.winners == tuple(i for i, x in enumerate(s.scores) if x == max(s.scores))
