"""Invariants of Keine lahme Agame over random games (seeds/keine-lahme-agame.md §4-§10),
under every provisional option set: cards are conserved, rows never overfill, every listed move applies,
refused moves leave nothing behind, views hide the other hands and match the wire schema.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest

from engines.core import IllegalMove
from engines.keine_lahme_agame import ENGINE
from engines.keine_lahme_agame.cards import colour_index, full_deck, is_hat, is_single_digit, strength, value_of
from engines.keine_lahme_agame.moves import Catch, DiscardSingle, Trick
from engines.keine_lahme_agame.rules import fits, trick_winner
from engines.keine_lahme_agame.state import CATCHING, LEAD, OVER, PLACE, TRICK, State
from schemas import SCHEMAS
from schemas.common import build
from tests.playout import served_view

E = ENGINE

OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"trick_capture": "row_then_discard"},
    {"trick_placement": "choose", "first_leader": "random"},
    {"card_set": "H1", "hut_has_slot": True, "hut_payment": "forbidden"},
    {"section_reset": "rows_persist", "row_accepts_own_colour": False, "section_scoring": "complete100_only"},
    {"section_reset": "rows_persist", "hut_has_slot": True, "sections_per_game": 4},
]


def games(players: int, options: dict[str, Any], seed: str):
    """Yield (state, seat, legal, move) of one random game, then the final state as (state, None, (), None)."""
    rng = random.Random(f"{players}/{options}/{seed}")
    state = E.new_game(players, options, seed)
    while E.result(state) is None:
        (seat,) = E.to_move(state)
        legal = E.legal_moves(state, seat)
        move = rng.choice(legal)
        yield state, seat, legal, move
        state = E.apply(state, seat, move)
    yield state, None, (), None


def conserved(state: State) -> bool:
    cards = [c for h in state.hands for c in h] + [c for r in state.rows for c in r] + list(state.discard)
    cards += [c for p in state.trick for c in p.cards] + [c.card for c in state.caught]
    return Counter(cards) == Counter(full_deck(state.config.players, state.config.card_set))


@pytest.mark.parametrize("options", OPTION_SETS, ids=[json.dumps(o) for o in OPTION_SETS])
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_games_keep_the_invariants(players: int, options: dict[str, Any]) -> None:
    """The invariants and the listing contract (§9), every player count: 1 every card in one place;
    2 no row position holds two cards; 3 the leader never leads a lone single-digit card, a hat is
    played alone; 4 a catching round keeps its limits (§5); 5 the highest play wins the trick, the
    earliest of equals (§4.2); 6 a section ends exactly when a hand is empty (§7.1)."""
    view_schema = build(E, SCHEMAS[E.id]).view()
    for seed in ("a", "b"):
        for n, (state, seat, legal, move) in enumerate(games(players, options, seed)):
            assert conserved(state)
            cfg = state.config
            for owner, row in enumerate(state.rows):  # invariant 2: no position holds two cards
                values = Counter(value_of(c) for c in row)
                assert all(values[v] <= cfg.slots().count(v) for v in values)
                assert cfg.row_accepts_own_colour or all(colour_index(c) != owner for c in row)
            if seat is None:
                assert state.phase == OVER and E.result(state).status == "finished"  # type: ignore[union-attr]
                break
            assert legal and all(E.legal_moves(state, s) == () for s in range(players) if s != seat)
            for m in legal:
                if isinstance(m, Trick):  # invariant 3
                    assert len(m.cards) == 1 or not any(is_hat(c) for c in m.cards)
                    if state.phase != TRICK:
                        assert not (len(m.cards) == 1 and is_single_digit(m.cards[0]))
                if isinstance(m, Catch):  # invariant 4
                    assert state.phase in (LEAD, CATCHING) and 1 <= len(m.payment) <= 2
                    assert sum(strength(c) for c in m.payment) >= strength(m.card)
                    assert fits(cfg, state.rows[seat], seat, m.card)
                if isinstance(m, DiscardSingle):
                    assert len(state.hands[seat]) == 1
            after = E.apply(state, seat, move)
            if after.last_trick is not None and after.last_trick != state.last_trick:  # invariant 5
                assert after.last_trick.winner == trick_winner(after.last_trick.plays)
                assert after.leader == after.last_trick.winner or after.section != state.section
            if after.phase != OVER and after.section == state.section:  # invariant 6: hands empty only mid-trick
                assert all(after.hands) or after.phase in (TRICK, PLACE)
            if n % 6 == 0:
                check_views(state, seat, view_schema)


def check_views(state: State, seat: int, view_schema: Any) -> None:
    players = state.config.players
    for viewer in [None, *range(players)]:
        view = E.view(state, viewer)
        other = E.shuffle_hidden(state, viewer, "elsewhere")
        assert E.view(other, viewer) == view
        if viewer is not None:
            assert E.legal_moves(other, viewer) == E.legal_moves(state, viewer)
            assert view["hand"] == list(state.hands[viewer])
        assert not view_schema.validate(served_view(E, state, viewer))
    # a refused move says why (and leaves nothing behind: states are values, tests/test_contract.py)
    for bad in (Trick(("red-hat", "red-1")), Catch("nope", ("red-1",), None), DiscardSingle("yellow-34")):
        try:
            E.apply(state, seat, bad)
        except IllegalMove as exc:
            assert exc.reason
