"""The Conquian bot hooks (seeds/conquian.md, "Bots"): the greedy level, evaluate and
determinize. Samples are small and seeded (fixed game seeds, a seeded rng per game), so every
figure below is the same on every run."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace

from engines.conquian import ENGINE
from engines.conquian.melds import DECK, melded_cards
from engines.conquian.moves import ConquianDiscard, ConquianMeld
from engines.conquian.state import ConquianState
from tests.strategy_checks import one_greedy_seat

from .helpers import position

#: Deals (matches to one unit) in the strength sample, and the wins greedy must reach (60%).
DEALS = 40
NEEDED = 24


def _playout(seed: str, greedy: int | None, rng: random.Random) -> Iterator[tuple[ConquianState, int]]:
    """The positions of a match to one unit (greedy at seat ``greedy``, random listed moves for the
    other), each with its seat to move; the final state last, with seat -1."""
    return one_greedy_seat(ENGINE, 2, {"target": 1, "first_dealer": "seat0"}, seed, greedy, rng)


def _cards(state: ConquianState) -> Counter[str]:
    held = [*state.hands[0], *state.hands[1], *state.stock, *state.dead]
    held += [*melded_cards(state.melds[0]), *melded_cards(state.melds[1])]
    held += [c for c in (state.offer, state.face_up) if c is not None]
    return Counter(held)


def test_greedy_move_is_always_a_listed_move() -> None:
    """seeds/conquian.md 4.3 and "Bots": the greedy level only posts moves the engine lists."""
    checked = 0
    for g in range(6):
        for state, seat in _playout(f"listed/{g}", 0, random.Random(g)):
            if seat == 0:
                assert ENGINE.heuristic_move(state, seat, random.Random(1)) in ENGINE.legal_moves(state, seat)
                checked += 1
    assert checked > 50


def test_greedy_never_depends_on_cards_hidden_from_it() -> None:
    """"Bots": the greedy move is a function of the seat's view: dealing the opponent's hand and the
    stock differently (shuffle_hidden) never changes it."""
    checked = 0
    for g in range(6):
        for state, seat in _playout(f"hidden/{g}", 1, random.Random(g)):
            if seat != 1:
                continue
            move = ENGINE.heuristic_move(state, seat, random.Random(7))
            for k in range(2):
                other = ENGINE.shuffle_hidden(state, seat, f"leak/{g}/{k}")
                assert ENGINE.heuristic_move(other, seat, random.Random(7)) == move
            checked += 1
    assert checked > 50


def test_greedy_wins_most_deals_against_random_play() -> None:
    """"Bots": greedy beats random listed play clearly: at least 60% of 40 seeded matches to one unit
    (measured when written: 34 of 40)."""
    wins = 0
    for g in range(DEALS):
        greedy = g % 2
        *_, (final, _) = _playout(f"strength/{g}", greedy, random.Random(f"strength/{g}"))
        res = ENGINE.result(final)
        assert res is not None
        wins += res.winners == (greedy,)
    print(f"conquian greedy vs random: {wins}/{DEALS} deals")
    assert wins >= NEEDED


def test_greedy_melds_the_offered_card_when_it_melds() -> None:
    """"Bots": a sensible beginner takes the offered card when it melds (here with two hand 7s)."""
    state = position(hands=(["7C", "7D", "2S", "4H", "KD", "QC", "3D", "5S", "JH", "AS"], None), offer="7H")
    move = ENGINE.heuristic_move(state, 0, random.Random(0))
    assert isinstance(move, ConquianMeld)
    assert "7H" in melded_cards(move.melds)


def test_greedy_prefers_the_meld_that_melds_more_cards() -> None:
    """"Bots": of the listed melds, the one that brings 11 closer wins: 5-6-7 of hearts with the offered
    7 and the 5 and 6 in hand, plus the hand's 7s as a group, beats any smaller meld."""
    state = position(hands=(["5H", "6H", "7C", "7D", "2S", "KD", "QC", "3D", "JS", "AS"], None), offer="7H")
    move = ENGINE.heuristic_move(state, 0, random.Random(0))
    assert isinstance(move, ConquianMeld)
    best = max(len(melded_cards(m.melds)) for m in ENGINE.legal_moves(state, 0) if isinstance(m, ConquianMeld))
    assert len(melded_cards(move.melds)) == best


def test_greedy_does_not_discard_what_the_opponent_lays_off() -> None:
    """"Bots": discard what helps the opponent least: KD would extend his kings, so another card goes."""
    state = position(
        hands=(["AC", "3D", "5S", "7H", "KD", "JC", "QS"], ["2C", "4C", "6C", "JD"]),
        melds=((("AD", "AH", "AS"),), (("KC", "KH", "KS"),)),
        phase="discard",
    )
    move = ENGINE.heuristic_move(state, 0, random.Random(0))
    assert isinstance(move, ConquianDiscard)
    assert move.card != "KD"


def test_evaluate_is_in_unit_interval_and_one_once_won() -> None:
    """"Bots": evaluate lies in [0, 1] on every position, and is 1 for the winner, 0 for the loser of a
    finished match (the default's meaning)."""
    for g in range(4):
        for state, _ in _playout(f"eval/{g}", 0, random.Random(g)):
            for seat in (0, 1):
                assert 0.0 <= ENGINE.evaluate(state, seat) <= 1.0
        res = ENGINE.result(state)
        assert res is not None and len(res.winners) == 1
        assert ENGINE.evaluate(state, res.winners[0]) == 1.0
        assert ENGINE.evaluate(state, res.losers[0]) == 0.0


def test_evaluate_prefers_more_melded_cards_and_more_units() -> None:
    """"Bots": nine cards melded against three is a better deal; one unit from the target against four
    is a better match; the two seats' values are mirrored around one half in a symmetric spot."""
    ahead = position(
        hands=(["4C", "JD"], None),
        melds=((("AC", "2C", "3C"), ("5D", "6D", "7D"), ("KH", "KS", "KD")), (("QC", "QD", "QH"),)),
    )
    assert ENGINE.evaluate(ahead, 0) > 0.5 > ENGINE.evaluate(ahead, 1)
    level = position(hands=(["AC", "2C", "3C", "4C", "5C", "6C", "7C", "JC", "QC", "KC"], None))
    near = replace(level, scores=(4, 1))
    assert ENGINE.evaluate(near, 0) > ENGINE.evaluate(level, 0)
    assert ENGINE.evaluate(near, 1) < ENGINE.evaluate(level, 1)


def test_determinize_keeps_the_view_and_the_cards_and_hides_the_next_deal() -> None:
    """"Bots": a determinized world shows the seat the very view of the real one, holds the same 40
    cards, deals the opponent's hand anew (by the rng) and replaces the seed, which fixes later deals."""
    moved = 0
    for g in range(3):
        for state, seat in _playout(f"det/{g}", 0, random.Random(g)):
            if seat < 0:
                continue
            worlds = [ENGINE.determinize(state, seat, random.Random(k)) for k in range(3)]
            for world in worlds:
                assert ENGINE.view(world, seat) == ENGINE.view(state, seat)
                assert _cards(world) == _cards(state) == Counter(DECK)
                assert world.seed != state.seed
                assert ENGINE.legal_moves(world, seat) == ENGINE.legal_moves(state, seat)
            moved += len({w.hands[1 - seat] for w in worlds}) > 1
            twice = {ENGINE.determinize(state, seat, random.Random(5)) for _ in range(2)}
            assert len(twice) == 1
    assert moved > 20
