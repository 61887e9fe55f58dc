"""A hand's rank groups (``candidates.Groups.of``), which every candidate of the listing is built
from: a large hand is grouped by its distinct codes, a small one card by card; both must write the
very same groups, in the same order (seeds/kanaster.md section 13: each rank's distinct codes first).
"""

from __future__ import annotations

import random

from engines.cards import CODES
from engines.kanaster import candidates
from engines.kanaster.candidates import Groups


def _written(groups: Groups) -> tuple[object, ...]:
    return (list(groups.naturals.items()), groups.jokers, groups.twos, groups.black, groups.wilds,
            groups.wild_codes)


def test_a_large_hand_is_grouped_as_card_by_card():
    rng = random.Random("groups")
    codes = sorted(CODES)
    twice = 0
    for _ in range(3000):
        hand = [rng.choice(codes) for _ in range(rng.randint(0, 70))]
        if rng.random() < 0.5:
            hand.sort()
        by_codes = _written(Groups._of_many(hand))
        by_card = _written(Groups.of(hand)) if len(hand) <= candidates._FEW_CARDS else None
        if by_card is None:  # the card-by-card way, asked of a large hand
            few = candidates._FEW_CARDS
            candidates._FEW_CARDS = len(hand)
            try:
                by_card = _written(Groups.of(hand))
            finally:
                candidates._FEW_CARDS = few
        assert by_codes == by_card, hand
        twice += len(set(hand)) < len(hand)
    assert twice > 1000


def test_each_group_holds_its_distinct_codes_first_then_the_second_copies_and_so_on():
    hand = ["KD", "KC", "KD", "2S", "JK", "KD", "3C", "2S", "KH", "JK", "3D"]
    for copies in (1, 2):  # a small hand and a large one
        groups = Groups.of(hand * copies)
        kings = ["KD", "KC", "KH", "KD", "KD"] if copies == 1 else ["KD", "KC", "KH", "KD", "KC", "KH", *["KD"] * 4]
        assert groups.naturals == {"K": kings}
        assert (groups.jokers, groups.twos, groups.black) == (["JK"] * 2 * copies, ["2S"] * 2 * copies,
                                                              ["3C"] * copies)
        assert groups.wilds == groups.jokers + groups.twos and groups.wild_codes == ["JK", "2S"]
