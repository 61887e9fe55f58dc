"""The new melds' candidates of a hand without wild cards (``candidates._Work``): only a rank of three
naturals makes a meld, so only those ranks are targets, and each rank's melds are those of no target,
trimmed alike unless a trim drops a whole meld (it spares the rank forced in). The candidates must be
those built for every target and budget from scratch, in the same order.
"""

from __future__ import annotations

import random

from engines.kanaster import candidates
from engines.kanaster.melds import sort_hand

from .test_listing import _new_melds_by_budget


def _hand_without_wild_cards(rng: random.Random) -> tuple[str, ...]:
    """Ranks of three or four naturals, single cards, sometimes three black 3s: the hands whose rank
    targets meet trims that drop a whole meld (melds of three cards have no card to spare)."""
    ranks = rng.sample(["4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"], 6)
    cards = [f"{r}{rng.choice('CDHS')}" for r in ranks[:rng.randint(1, 4)] for _ in range(rng.choice((3, 3, 4)))]
    cards += [f"{r}{rng.choice('CDHS')}" for r in ranks[4:4 + rng.randint(0, 2)]]
    if rng.random() < 0.3:
        cards += ["3C", "3S", "3C"]
    return sort_hand(cards)


def test_without_wild_cards_the_rank_targets_add_only_what_a_whole_meld_dropped_changes():
    """Without a wild card only a rank of three naturals makes a meld, and a rank target's melds are
    those of no target unless a trim drops a whole meld (``candidates._Work``): the candidates are
    those built for every target and budget from scratch, in the same order."""
    rng = random.Random("no wild cards")
    differ = 0
    for _ in range(400):
        hand = _hand_without_wild_cards(rng)
        top = rng.choice([None, None, f"{rng.choice(['4', '9', 'K', 'A'])}D"])
        for after in (0, 1):
            built = list(dict.fromkeys(_new_melds_by_budget(hand, after, top)))
            assert candidates.new_meld_candidates(hand, after, top) == built, (hand, top, after)
            groups = candidates.Groups.of(hand)
            alone = [candidates.build(groups, len(hand) + after - keep, top) for keep in (2, 1)]
            differ += any(melds not in [candidates.write(groups, m) for m in alone if m] for melds in built)
    assert differ > 20  # (a rank target's whole meld kept)
