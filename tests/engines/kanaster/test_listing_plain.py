"""The listing judges its plain candidates -- the single melds (``candidates.single_meld_candidates``)
and the lay-offs of one card (``rules._lay_off_candidates``' singles) -- without running their
checks: their cards are hand cards that form a valid meld, or fit the meld they go onto, so what is
left to ask is what the hand keeps, the canasta, the minimum and the wild cards of the meld laid onto
(``rules._Listing._offer_plain``). Each of them must be judged exactly as its check judges it.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from engines.core import IllegalMove, Move
from engines.kanaster import candidates, rules
from engines.kanaster.moves import LayOff, MeldCards
from engines.kanaster.state import PLAY, KanasterState, Meld

from .helpers import played, position
from .test_properties import VARIANTS


def _plain_candidates(s: KanasterState, seat: int) -> Iterator[Move]:
    hand = s.hands[seat]
    groups = candidates.Groups.of(hand)
    for melds in candidates.single_meld_candidates(hand, None, groups):
        yield MeldCards(melds)
    for i, m in enumerate(s.melds):
        if m.owner == seat:
            singles, _ = rules._lay_off_candidates(s, seat, m, groups)
            yield from (LayOff(i, cards) for cards in singles)


def _judged_alike(s: KanasterState, seat: int, move: Move) -> tuple[bool, bool]:
    """Whether ``move`` is legal by its check, after asserting the listing's plain judgement agrees
    (listed exactly when legal, going out exactly when it leaves one card); and whether it leaves one."""
    try:
        held: int | None = rules._CHECKS[type(move)](s, seat, move)
    except IllegalMove:
        held = None
    listing = rules._Listing(s, seat)
    assert listing.offer(move, plain=True) == (held is not None), move
    assert (move.type in listing.going_out) == (held == 1), move
    return held is not None, held == 1


@pytest.mark.parametrize("policy", ["random", "first"])
@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_a_plain_candidate_is_listed_exactly_when_its_check_accepts_it(variant, players, policy):
    judged = {True: 0, False: 0}
    for s, seat, _ in played("plain", variant, VARIANTS[variant], players, policy, 1500):
        if s.phase == PLAY and not (s.took_pile and not s.rules.meld_after_taking_pile):
            for move in _plain_candidates(s, seat):
                legal, _ = _judged_alike(s, seat, move)
                judged[legal] += 1
    assert judged[True] > 50 and judged[False] > 5  # both answers were compared


def test_plain_lay_offs_onto_black_threes_too_many_wild_cards_and_a_canasta_made():
    """The rules a plain lay-off of one card meets beyond the hand's size: black 3s go out only, a
    meld keeps strictly fewer wild than natural cards, keeping one card needs a canasta, which the
    lay-off itself may make (seeds/kanaster.md section 6)."""
    melds = [Meld(0, "3", ("3C", "3S", "3C")), Meld(0, "7", ("7C", "7D", "2C")), Meld(0, "9", ("9C",) * 6)]
    for hand in (["3S", "KD"], ["3S", "7H", "KD"], ["2D", "JK"], ["9D", "2H"], ["7S", "9H", "JK", "2S"]):
        s = position(hands=[hand, ["4C"] * 3], phase=PLAY, melds=melds, max_hands=1)
        answers = [_judged_alike(s, 0, move) for move in _plain_candidates(s, 0)]
        assert answers
    def judged(hand: list[str], move: LayOff, table: list[Meld] = melds) -> tuple[bool, bool]:
        return _judged_alike(position(hands=[hand, ["4C"] * 3], phase=PLAY, melds=table, max_hands=1), 0, move)

    assert judged(["3S", "KD"], LayOff(0, ("3S",))) == (False, False)  # one card kept, no canasta
    assert judged(["3S", "KD"], LayOff(0, ("3S",)), [*melds, Meld(0, "K", ("KC",) * 7)]) == (True, True)
    assert judged(["3S", "7H", "KD"], LayOff(0, ("3S",)), [*melds, Meld(0, "K", ("KC",) * 7)]) == (False, False)
    assert judged(["9D", "2H"], LayOff(2, ("9D",))) == (True, True)  # the lay-off makes the canasta
    assert judged(["7S", "9H", "JK", "2S"], LayOff(1, ("JK",))) == (False, False)  # two wild, two natural
    assert judged(["7S", "9H", "JK", "2S"], LayOff(1, ("7S",))) == (True, False)
