"""How a sensible beginner plays Siebenschläfer and how good a position is: the bot hooks
(``heuristic_move``, ``evaluate``).

Rules: seeds/siebenschlaefer.md (section "Bots" describes the ``greedy`` level). ``heuristic_move``
is the ``greedy`` bot and the rollout policy of the information-set search, so it reads only what
the seat's view shows (its hand, the value to beat) and stays cheap; ``evaluate`` scores the
search's leaf states, which are determinized samples, so it may read every hand.

The samples are core's (``engines.contract``): the other hands and the stock dealt anew
(``view.hidden``; the played pile is public) and the seed replaced -- the stock is reshuffled from
the played pile with it and every later round is dealt from it (sections 8 and 11), so a search
that kept the real seed would know the future draws and deals.
"""

from __future__ import annotations

import random

from engines.cards import rank_of
from engines.core import Move
from engines.siebenschlaefer.moves import Play
from engines.siebenschlaefer.rules import legal_moves, result
from engines.siebenschlaefer.state import ACE, ACES, FACE_RANKS, SEVEN, State, count_value, pair_value

#: Greedy weights (seeds/siebenschlaefer.md "Bots"). A pair's value is what the next player must
#: beat, so a low pair keeps the high cards for when they are needed; a 7 makes others draw; a face
#: card counts 12 at the end, so shedding one early is worth a little; a pair of aces beats anything
#: and is kept as the last resort.
SINGLE_SEVEN = 8.0
DOUBLE_SEVEN = 12.0
FACE_SHED = 2.0
ACES_KEPT = 40.0


def pair_score(hand: tuple[str, ...], cards: tuple[str, ...]) -> float:
    """The greedy value of laying ``cards`` from ``hand`` (higher is better).

    Going out wins the round and beats everything. Otherwise the lower the pair's value the better
    (the high cards stay for beating higher values later), a single 7 (the next player draws two
    and misses his turn) or two 7s (everyone else draws two) add a bonus, a face card shed adds a
    little, and a pair of aces is kept back while any other pair can be laid.
    """
    if len(hand) == len(cards):
        return 1000.0
    value = pair_value(cards[0], cards[1])
    assert isinstance(value, int)
    if value == ACES:
        return -ACES_KEPT
    ranks = [rank_of(c) for c in cards]
    sevens = ranks.count(SEVEN)
    score = -float(value)
    score += SINGLE_SEVEN if sevens == 1 else DOUBLE_SEVEN if sevens == 2 else 0.0
    score += FACE_SHED * sum(r in FACE_RANKS for r in ranks)
    return score


def heuristic_move(state: State, seat: int, rng: random.Random) -> Move:
    """The ``greedy`` level: go out when a pair empties the hand; else the best pair by ``pair_score``
    (the lowest that beats the table, 7s preferred, aces kept for last); draw only when no pair can
    be laid (never a voluntary draw), and pass only when drawing did not help.

    Reads the seat's hand and the listed moves (which depend on the value to beat, public); ``rng``
    is not needed: ties go to the first listed move, so the choice depends on the view alone.
    """
    moves = legal_moves(state, seat)
    hand = state.hands[seat]
    plays = [m for m in moves if isinstance(m, Play)]
    if plays:
        return max(plays, key=lambda m: pair_score(hand, m.cards))
    return moves[0]


def _share(values: list[float], seat: int) -> float:
    """``seat``'s share of ``values`` (all positive)."""
    return values[seat] / sum(values)


def evaluate(state: State, seat: int) -> float:
    """The seat's prospects in [0, 1] on the scale of the result: 1 won, 0 paid, 0.5 neither.

    Once over: that result (a winner who also pays, possible when every stalled hand counts the
    same, counts as a winner). Before: 0.5 + (P(win) - P(pay)) / 2. In a one-round game P(win) is
    the seat's share of ``1 / cards_left^2`` (fewer cards, sooner out) and P(pay) its share of the
    squared counted hands (section 9: the highest count pays), discounted by its own P(win). In a
    match (option ``rounds``) the totals so far plus the counted hands stand for the final totals.
    A lone ace with no second one in the hand is an anchor: it counts double in ``cards_left``.
    Reads every hand: the search evaluates determinized samples.
    """
    outcome = result(state)
    if outcome is not None:
        if seat in outcome.winners:
            return 1.0
        return 0.0 if seat in outcome.losers else 0.5
    counts = [count_value(h) for h in state.hands]
    if state.settings.rounds > 1:
        projected = [float(t + c) + 1.0 for t, c in zip(state.totals, counts, strict=True)]
        p_win = _share([1.0 / p**2 for p in projected], seat)
        p_pay = _share([p**2 for p in projected], seat)
    else:
        sizes = [len(h) + (len(h) > 0 and sum(rank_of(c) == ACE for c in h) == 1) for h in state.hands]
        p_win = _share([1.0 / (k + 0.5) ** 2 for k in sizes], seat)
        p_pay = _share([(c + 1.0) ** 2 for c in counts], seat) * (1.0 - p_win)
    return max(0.0, min(1.0, 0.5 + 0.5 * (p_win - p_pay)))
