"""The listed moves of Conquian cover every legal kind and card (seeds/conquian.md 4.3).

Every test builds its position directly and checks the listing against the slow reference enumerator
(``reference.py``, judged by ``ENGINE.apply``) with ``assert_covers``: every meld move kind and every
card that some legal meld adds -- by a lay-off, a new meld, a rearrangement of the melds, or several of
them in one move -- is in a listed move; the list is bounded, free of repeats and deterministic.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Iterable
from typing import Any

import pytest

from engines.conquian import ENGINE
from engines.conquian.melds import DECK, melds_containing
from engines.conquian.moves import ConquianMeld
from engines.conquian.rules import fits
from engines.conquian.state import ConquianState
from engines.core import Move
from tests.test_move_coverage import assert_covers

from .helpers import listed, listed_melds, play, position
from .reference import LIST_BOUND, coverage_keys, reference_moves

MELD_FROM_HAND = {"meld_from_hand_without_upcard": True}


def meld_keys(moves: Iterable[Move], card: str, with_card: bool) -> set[Hashable]:
    """The coverage keys of the meld moves that do (or do not) meld ``card``."""
    keys: set[Hashable] = set()
    for m in moves:
        if isinstance(m, ConquianMeld) and any(card in meld for meld in m.melds) == with_card:
            keys |= coverage_keys(m)
    return keys


# --- the combined moves (seeds/conquian.md 4.3 (c)) ------------------------------------------------


def test_4_3_lay_off_together_with_a_new_group_of_hand_cards_is_listed():
    """Laying the 7 off and melding three queens from the hand is one legal move (4.2), now listed."""
    state = position(
        hands=(["QH", "QS", "QD", "AH", "2D", "KC", "3S"], None),
        melds=([["4C", "5C", "6C"]], []),
        phase="turned",
        face_up="7C",
    )
    assert listed_melds(state, 0) == [[["4C", "5C", "6C", "7C"]], [["4C", "5C", "6C", "7C"], ["QD", "QH", "QS"]]]
    assert_covers(ENGINE, state, 0)
    after = play(state, 0, {"type": "meld", "melds": listed_melds(state, 0)[1]})
    assert after.hands[0] == ("KC", "2D", "AH", "3S") and after.phase == "discard"


def test_4_3_two_lay_offs_in_one_move_are_listed():
    """The offered 3 extends the run and the king in hand extends the group of kings, in one move."""
    state = position(
        hands=(["KC", "AH", "2D", "QS"], None),
        melds=([["4C", "5C", "6C"], ["KD", "KH", "KS"]], []),
        offer="3C",
    )
    assert [["3C", "4C", "5C", "6C"], ["KC", "KD", "KH", "KS"]] in listed_melds(state, 0)
    assert_covers(ENGINE, state, 0)


def test_4_3_rearrangement_together_with_a_lay_off_is_listed():
    """Seed 3.3 once more: the 4 lays off on 5-6-7-J, and the jacks in hand take the jack off the run."""
    state = position(
        hands=(["JH", "JD", "AC", "3D", "2C", "QH"], None),
        melds=([["5S", "6S", "7S", "JS"]], []),
        phase="turned",
        face_up="4S",
    )
    assert listed_melds(state, 0) == [[["4S", "5S", "6S", "7S", "JS"]], [["4S", "5S", "6S", "7S"], ["JD", "JH", "JS"]]]
    assert_covers(ENGINE, state, 0)


@pytest.mark.parametrize("phase", ["choose", "turned", "forced"])
def test_4_3_seed_example_jack_seven_six_and_the_five_is_covered_in_every_melding_phase(phase):
    """The example of the original rules (3.3): with J-7-6 melded and two jacks in hand, the 5 can be laid off, or
    5-6-7 melded with three jacks. A forced player (5) adds no hand cards, so only the lay-off is his."""
    kw = {"offer": "5S"} if phase == "choose" else {"face_up": "5S"}
    state = position(hands=(["JH", "JD", "AC", "3D", "3S", "2C", "QH"], None), melds=([["JS", "7S", "6S"]], []),
                     phase=phase, **kw)
    rearranged = [["5S", "6S", "7S"], ["JD", "JH", "JS"]]
    assert (rearranged in listed_melds(state, 0)) == (phase != "forced")
    assert_covers(ENGINE, state, 0)


def test_4_3_a_card_that_fits_only_by_splitting_a_capped_sequence_is_listed():
    """max_sequence_len 3: the 4 cannot extend 5-6-7, but 4-5-6 and 7-J-Q with two hand cards is legal."""
    state = position(
        hands=(["JS", "QS", "AC", "3D", "2C", "QH", "KD"], None),
        melds=([["5S", "6S", "7S"]], []),
        phase="turned",
        face_up="4S",
        options={"max_sequence_len": 3},
    )
    assert listed_melds(state, 0) == [[["4S", "5S", "6S"], ["7S", "JS", "QS"]]]
    assert_covers(ENGINE, state, 0)


def test_4_3_forced_player_rearranges_without_hand_cards_and_with_them_under_the_option():
    """5: a forced player fits the card in alone; with forced_may_meld_extra hand cards join too."""
    base = {"hands": (["QH", "QS", "QD", "AH", "2D", "KC", "3S"], None), "melds": ([["4C", "5C", "6C"]], []),
            "phase": "forced", "face_up": "7C"}
    strict = position(**base)
    assert listed_melds(strict, 0) == [[["4C", "5C", "6C", "7C"]]]
    assert_covers(ENGINE, strict, 0)
    extra = position(**base, options={"forced_may_meld_extra": True})
    assert [["4C", "5C", "6C", "7C"], ["QD", "QH", "QS"]] in listed_melds(extra, 0)
    assert_covers(ENGINE, extra, 0)


def test_4_3_forced_by_rearrangement_fit():
    """5 with force_fit_includes_rearrangement: the ace fits only by regrouping three groups into runs."""
    melds = [["2H", "2C", "2D"], ["3H", "3C", "3D"], ["4H", "4C", "4D"]]
    state = position(hands=(["KS"], None), melds=(melds, []), phase="forced", face_up="AH",
                     options={"force_fit_includes_rearrangement": True})
    assert fits(state, 0, "AH")
    assert listed_melds(state, 0) == [[["AH", "2H", "3H", "4H"], ["2C", "3C", "4C"], ["2D", "3D", "4D"]]]
    assert_covers(ENGINE, state, 0)


def test_4_3_eleventh_card_by_rearrangement_with_an_empty_hand():
    """4.2 / 6.1: ten melded cards and no hand; the queen fits only by taking a jack from the group of four."""
    melds = [["5S", "6S", "7S"], ["JS", "JH", "JD", "JC"], ["AH", "2H", "3H"]]
    state = position(hands=((), None), melds=(melds, []), phase="turned", face_up="QS")
    assert listed_melds(state, 0) == [
        [["AH", "2H", "3H"], ["5S", "6S", "7S", "JS", "QS"], ["JC", "JD", "JH"]],
    ]
    assert_covers(ENGINE, state, 0)
    won = play(state, 0, {"type": "meld", "melds": listed_melds(state, 0)[0]})
    assert won.last_deal is not None and won.last_deal.winner == 0


def test_4_3_meld_from_hand_without_upcard_lists_hand_rearrangements_without_the_turned_card():
    """8 (the literal reading, 4.2): the turned king fits nowhere, but the jacks in hand may take the
    jack off 5-6-7-J."""
    state = position(
        hands=(["JH", "JD", "AC", "3D", "2C", "QH"], None),
        melds=([["5S", "6S", "7S", "JS"]], []),
        phase="turned",
        face_up="KC",
        options=MELD_FROM_HAND,
    )
    assert listed(state, 0) == [
        {"type": "meld", "melds": [["5S", "6S", "7S"], ["JD", "JH", "JS"]]},
        {"type": "reject"},
    ]
    assert_covers(ENGINE, state, 0)


def test_4_3_with_the_option_moves_with_and_without_the_turned_card_are_covered_separately():
    """8: a hand card that can join the turned card is listed in a move with it, even when a move
    without the turned card also melds it (and the other way round)."""
    state = position(
        hands=(["QH", "QS", "QD", "KH", "KS", "KD", "3S"], None),
        melds=([["4C", "5C", "6C"]], []),
        phase="turned",
        face_up="7C",
        options=MELD_FROM_HAND,
    )
    assert_covers(ENGINE, state, 0)
    listed_moves = ENGINE.legal_moves(state, 0)
    legal = list(reference_moves(state, 0))
    for with_card in (True, False):
        assert meld_keys(legal, "7C", with_card) == meld_keys(listed_moves, "7C", with_card)


# --- the other phases and the non-meld moves ---------------------------------------------------------


def test_4_3_non_meld_phases_are_listed_exactly():
    """4.1: discard lists every hand card, the force windows both decisions, an empty stock a pass."""
    hand = ["7C", "AH", "2D", "QS"]
    discard = position(hands=(hand, None), melds=([["4C", "5C", "6C"], ["KD", "KH", "KS"]], []), phase="discard")
    offer = position(hands=(None, None), melds=([["4C", "5C", "6C"]], []), phase="force_offer", turn=0, offer="7C")
    reject = position(hands=(None, None), melds=([["4C", "5C", "6C"]], []), phase="force_reject", face_up="7C")
    empty = position(hands=(["2C", "AC", "3H", "QD"], None), melds=([["4C", "5C", "6C"]], []), offer="3C",
                     stock_size=0)
    assert {m["type"] for m in listed(empty, 0)} == {"meld", "pass"}
    for state in (discard, offer, reject, empty):
        seat = ENGINE.to_move(state)[0]
        assert_covers(ENGINE, state, seat)
        assert_covers(ENGINE, state, 1 - seat)  # the other seat: nothing legal, nothing listed


def test_4_3_list_bound_holds_for_the_longest_runs():
    """4.3: the card in the middle of ten cards of one suit gives (b) its most runs, 27; the bound holds."""
    hand = ["AS", "2S", "3S", "4S", "6S", "7S", "JS", "QS", "KS", "5H"]
    for options in ({}, MELD_FROM_HAND):
        state = position(hands=(hand, None), phase="turned", face_up="5S", options=options)
        melds = listed_melds(state, 0)
        assert sum(1 for a in melds if len(a) == 1 and "5S" in a[0]) == 27
        assert len(ENGINE.legal_moves(state, 0)) <= LIST_BOUND
        assert_covers(ENGINE, state, 0)


# --- many rich positions -------------------------------------------------------------------------------


def rich_position(rng: random.Random, options: dict[str, Any]) -> ConquianState:
    """A position with cards clustered in a few ranks and suits, so that melds, lay-offs and
    rearrangements abound: random valid melds, the rest of 10 cards in hand, a card to meld."""
    suits = rng.sample("CDHS", rng.choice([1, 2, 2, 3]))
    ranks = rng.sample("A234567JQK", rng.choice([4, 5, 6, 7]))
    pool = [r + s for r in ranks for s in suits]
    target = rng.choice([0, 3, 6, 7, 9, 10])
    melds: list[tuple[str, ...]] = []
    used: set[str] = set()
    for _ in range(20):
        c = rng.choice(pool)
        if c in used:
            continue
        cap = options.get("max_sequence_len")
        choices = [m for m in melds_containing(c, [x for x in pool if x not in used], cap)
                   if len(used) + len(m) <= target]
        if choices:
            m = rng.choice(choices)
            melds.append(m)
            used |= set(m)
    free = [c for c in pool if c not in used]
    rng.shuffle(free)
    rest = [c for c in DECK if c not in pool]
    card = free.pop() if free and rng.random() < 0.9 else rest.pop(rng.randrange(len(rest)))
    hand = free[: 10 - len(used)]
    hand += rng.sample([c for c in rest if c != card], 10 - len(used) - len(hand))
    phase = rng.choice(["choose", "turned", "forced"])
    kw = {"offer": card} if phase == "choose" else {"face_up": card}
    state = position(hands=(hand, None), melds=(melds, []), phase=phase, stock_size=5, options=options, **kw)
    if phase == "forced" and not fits(state, 0, card):  # a forced phase only follows a card that fits
        state = position(hands=(hand, None), melds=(melds, []), phase="turned", stock_size=5, options=options, **kw)
    return state


@pytest.mark.parametrize(
    "options",
    [
        {},
        MELD_FROM_HAND,
        {"forced_may_meld_extra": True, "force_fit_includes_rearrangement": True},
        {"max_sequence_len": 3},
        {"max_sequence_len": 4, "meld_from_hand_without_upcard": True, "forced_may_meld_extra": True},
    ],
)
def test_4_3_listed_melds_cover_every_meldable_card_in_rich_positions(options):
    """4.3 over 300 positions per option set, many with several melds and rearrangements possible;
    every listed move applies, and with meld_from_hand_without_upcard the moves with and without the
    turned card are covered separately."""
    rng = random.Random(f"conquian-coverage/{sorted(options.items())}")
    for _ in range(300):
        state = rich_position(rng, options)
        assert_covers(ENGINE, state, 0)
        listed_moves = ENGINE.legal_moves(state, 0)
        assert all(ENGINE.apply(state, 0, m) for m in listed_moves)  # IllegalMove fails the test
        if options.get("meld_from_hand_without_upcard") and state.phase == "turned":
            legal = list(reference_moves(state, 0))
            for with_card in (True, False):
                assert meld_keys(legal, state.face_up, with_card) == meld_keys(listed_moves, state.face_up, with_card)
