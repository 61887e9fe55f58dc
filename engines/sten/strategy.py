"""How a sensible beginner plays Sten ("Stein"), and how good a position is: the bot hooks.

Rules: seeds/sten.md (section "Bots" describes the ``greedy`` level). ``heuristic_move`` is the
``greedy`` bot and the rollout policy of the information-set search, so it reads only what the
seat's view shows (its hand, the layout, the open remainder) and stays cheap; ``evaluate`` scores
the search's leaf states, which are determinized samples, so it may read every hand.

``determinize`` is core's (``engines.contract``: the hidden places of ``view.hidden`` dealt anew):
what a player learns beyond his view in Sten comes from the log (a seat that said "Stein" held no fitting
card then; a failed declaration shows its cards up to the mistake), and the state a bot is given
does not carry the log. Nothing random happens after the deal, so no seed needs hiding.
"""

from __future__ import annotations

import random

from engines.cards import RANK_VALUE, SUITS, code, rank_of
from engines.core import Move
from engines.sten.moves import Play, PlayAll
from engines.sten.rules import judge_play_all, legal_moves, playable, result
from engines.sten.state import RANK_CODE, StenState, suit_index

#: Weights of the greedy score of a play (seeds/sten.md "Bots"): own cards a play brings nearer
#: count most; a card that hands the next card of its suit to the others costs; a card from the open
#: remainder does not shorten the hand. Chosen over a few alternatives in small seeded matches
#: against random play (seeds/sten.md "Bots" gives the measured figures).
OWN_CARD = 3.0
OPENS_FOR_OTHERS = 1.5
GAP_COST = 0.25
REMAINDER_COST = 2.5


def _beyond(low: int, high: int, rank: int) -> tuple[range, ...]:
    """The ranks a play of ``rank`` brings nearer, per direction, nearest first (section 4).

    A 7 opens both stacks of its suit; an upper card leads on to the king, a lower one to the ace.
    """
    if low == 0:  # the suit is closed: only its 7 fits, and it opens both directions
        return (range(8, 14), range(6, 0, -1))
    if rank == high + 1:
        return (range(rank + 1, 14),)
    return (range(rank - 1, 0, -1),)


def play_score(state: StenState, seat: int, card: str) -> float:
    """The greedy value of placing ``card`` now, from the seat's own cards and the layout only.

    Per direction the play opens: ``OWN_CARD`` for every own card it brings nearer; ``GAP_COST`` for
    every card someone else must place before the seat's last own card there; ``OPENS_FOR_OTHERS``
    when the very next card is not the seat's (the others may place it at once). A card that leads
    to no own card therefore scores below zero: it is a blocker, kept while anything better fits.
    """
    mine = set(state.hands[seat])
    remainder = set(state.remainder)
    i = suit_index(card)
    suit = SUITS[i]
    score = 0.0
    for ranks in _beyond(state.low[i], state.high[i], RANK_VALUE[rank_of(card)]):
        cards = [code(RANK_CODE[r], suit) for r in ranks]
        own_at = [k for k, c in enumerate(cards) if c in mine]
        score += OWN_CARD * len(own_at)
        if own_at:
            score -= GAP_COST * sum(1 for c in cards[: own_at[-1]] if c not in mine and c not in remainder)
        if cards and cards[0] not in mine and cards[0] not in remainder:
            score -= OPENS_FOR_OTHERS
    if card not in mine:
        score -= REMAINDER_COST
    return score


def heuristic_move(state: StenState, seat: int, rng: random.Random) -> Move:
    """The ``greedy`` level: lay the whole hand when a declaration wins; else the best-scoring card
    (``play_score``: opens most for oneself, least for the others, blockers last); "Stein" only when
    it is the one move left. A failing declaration, which only costs the stone, is never made.

    Reads the seat's hand, the layout and the open remainder (all in its view); ``rng`` is not
    needed: ties go to the first listed move, so the choice depends on the view alone.
    """
    moves = legal_moves(state, seat)
    for m in moves:
        if isinstance(m, PlayAll) and judge_play_all(state, m.cards) is not None:
            return m
    plays = [m for m in moves if isinstance(m, Play)]
    if plays:
        return max(plays, key=lambda m: play_score(state, seat, m.card))
    rest = [m for m in moves if not isinstance(m, PlayAll)]
    return rest[0] if rest else moves[0]


def evaluate(state: StenState, seat: int) -> float:
    """The seat's prospects in [0, 1] on the scale of the result: 1 won, 0 lost (holding the stone at
    the end), 0.5 for neither (section 7).

    Once over: that result. Before: 0.5 + (P(win) - P(lose)) / 2, with P(win) the seat's share of
    ``1 / cards_left^2`` over the table (fewer cards, faster out) and P(lose) high while it holds the
    stone and higher still when nothing of its own fits now (it must say "Stein" again). Reads every
    hand: the search evaluates determinized samples.
    """
    outcome = result(state)
    if outcome is not None:
        if seat in outcome.winners:
            return 1.0 if seat not in outcome.losers else 0.25
        return 0.0 if seat in outcome.losers else 0.5
    weights = [1.0 / (len(h) + 0.5) ** 2 for h in state.hands]
    p_win = weights[seat] / sum(weights)
    stuck = not any(c in state.hands[seat] for c in playable(state, seat))
    if state.stone == seat:
        p_lose = 0.75 if stuck else 0.55
    else:
        p_lose = 0.25 if stuck else 0.1
        if state.stone is None:
            p_lose *= 0.5  # nobody has said "Stein" yet: the stone may well stay in the middle
    p_lose *= 1.0 - p_win  # a seat that goes out first loses only in the rare stone conflict
    return max(0.0, min(1.0, 0.5 + 0.5 * (p_win - p_lose)))
