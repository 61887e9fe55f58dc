"""The listing judges the plain candidates of the draw phase without running their checks: the draw,
the single melds that take the pile (``candidates.single_meld_candidates`` with the pile's top card)
and the top card laid onto a meld of the mover's (``rules._Listing._offer_take``). What is left to ask
of them is what the hand keeps once the pile's cards join it, the canasta, the minimum of a first
meld and the frozen pile; each must be judged exactly as its check judges it, under every option
variant (the frozen pile is one).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

import pytest

from engines.core import IllegalMove, Move
from engines.kanaster import candidates, rules
from engines.kanaster.melds import natural_rank
from engines.kanaster.moves import Draw, TakePile, TakePileLayOff
from engines.kanaster.state import DRAW, KanasterState, Meld

from .helpers import played, position
from .test_properties import VARIANTS


def _plain_candidates(s: KanasterState, seat: int) -> Iterator[Move]:
    """The draw phase's plain candidates, as ``rules._draw_phase`` offers them: the draw, and with
    the pile not blocked every single meld of its top card and each own meld of the top card's rank."""
    if s.talon:
        yield Draw()
    if rules.pile_block(s, seat):
        return
    top = s.pile[-1]
    hand = s.hands[seat]
    for melds in candidates.single_meld_candidates(hand, top, candidates.Groups.of(hand)):
        yield TakePile(melds)
    for i, m in enumerate(s.melds):
        if m.owner == seat and m.rank == natural_rank(top):
            yield TakePileLayOff(i)


def _judged_alike(s: KanasterState, seat: int, move: Move) -> tuple[bool, str | None]:
    """The check's answer for ``move`` (legal, and why not), after asserting the listing's plain
    judgement agrees: listed exactly when legal, going out exactly when it leaves one card."""
    try:
        held: int | None = rules._CHECKS[type(move)](s, seat, move)
        reason = None
    except IllegalMove as e:
        held, reason = None, e.reason
    listing = rules._Listing(s, seat)
    assert listing.offer(move, plain=True) == (held is not None), (move, reason)
    assert (move.type in listing.going_out) == (held == 1), move
    return held is not None, reason


@pytest.mark.parametrize("policy", ["random", "first"])
@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_a_plain_take_pile_candidate_is_listed_exactly_when_its_check_accepts_it(variant, players, policy):
    answers: Counter[tuple[str, bool]] = Counter()
    for s, seat, _ in played("take", variant, VARIANTS[variant], players, policy, 3000):
        if s.phase == DRAW:
            for move in _plain_candidates(s, seat):
                legal, _ = _judged_alike(s, seat, move)
                answers[move.type, legal] += 1
    assert answers["draw", True] > 20 and answers["take_pile", True] > 0  # both answers were compared
    assert answers["take_pile", False] > 0


def test_plain_take_pile_frozen_pile_minimum_and_going_out():
    """The rules a plain take-pile candidate meets beyond its cards (seeds/kanaster.md sections 5.2,
    6-8): a frozen pile only with the top card and two naturals, never onto a meld; a first meld's
    minimum; a card kept after the pile's cards join the hand, one only with a canasta."""
    frozen = {"wild_discard_freezes_pile": True}
    own = [Meld(0, "8", ("8C", "8D", "8H")), Meld(1, "K", ("KC", "KD", "KH"))]

    def judged(hand: list[str], pile: list[str], move: Move, melds: list[Meld] = own, **options: object
               ) -> tuple[bool, str | None]:
        s = position(hands=[hand, ["4C"] * 3], pile=pile, melds=melds, max_hands=1, **options)
        assert s.phase == DRAW
        return _judged_alike(s, 0, move)

    assert judged(["9C", "2D", "5S"], ["2C", "9H"], TakePile((("9H", "9C", "2D"),)), **frozen) == (
        False, "pile_frozen")
    assert judged(["9C", "9S", "5S"], ["2C", "9H"], TakePile((("9H", "9C", "9S"),)), **frozen) == (True, None)
    assert judged(["9C", "2D", "5S"], ["2C", "9H"], TakePile((("9H", "9C", "2D"),))) == (True, None)
    assert judged(["8S", "5S"], ["2C", "8H"], TakePileLayOff(0), **frozen) == (False, "pile_frozen")
    assert judged(["8S", "5S"], ["2C", "8H"], TakePileLayOff(0)) == (True, None)
    # a first meld below the minimum (50): three 5s and the top card count 20
    assert judged(["5C", "5D", "JK"], ["5H"], TakePile((("5H", "5C", "5D"),)), melds=[]) == (
        False, "below_minimum_meld")
    assert judged(["5C", "5D", "JK", "9S", "10S"], ["5H"], TakePile((("5H", "5C", "5D", "JK"),)), melds=[]) == (
        True, None)
    # the hand's last cards into the meld: the pile under its top keeps the mover in cards
    assert judged(["9C", "9S"], ["9H"], TakePile((("9H", "9C", "9S"),))) == (False, "must_keep_a_card")
    assert judged(["9C", "9S"], ["4D", "9H"], TakePile((("9H", "9C", "9S"),))) == (
        False, "canasta_needed_to_go_out")
    assert judged(["9C", "9S"], ["4D", "9H"], TakePile((("9H", "9C", "9S"),)),
                  melds=[*own, Meld(0, "Q", ("QC",) * 7)]) == (True, None)
    assert judged(["8S"], ["8H"], TakePileLayOff(0)) == (False, "canasta_needed_to_go_out")
    assert judged(["8S"], ["8H"], TakePileLayOff(0), melds=[Meld(0, "8", ("8C",) * 6)]) == (True, None)
