"""Conquian bot strategy: the ``greedy`` level and a position's value (rules in seeds/conquian.md,
section "Bots").

The greedy player is a sensible beginner: it takes or melds the face-up card whenever that melds,
choosing the arrangement that leaves the most ways to grow; it discards the card that is worth
least to itself and least to the opponent; it forces when forcing only costs the opponent. It
reads nothing but what its seat's view shows (its hand, both players' melds, the face-up and
dead cards, the counts), so it may be run on real states.

``evaluate`` turns a position into the seat's chance of winning the match: a deal estimate from
the melded counts and the hands' potential (a search calls it on determinized states, where
reading the sampled opponent hand is allowed), folded into the race of match units.

The determinized worlds a search plays in are core's (``engines.contract``): the hidden cards
(``view.hidden``) dealt anew uniformly -- in Conquian no card ever enters a hand face up, so nothing
is known about the opponent's hand beyond its size -- with a seed of their own, so that a search
playing into the next deal does not see the real next deal.
"""

from __future__ import annotations

import math
import random
from functools import lru_cache

from engines.cards import rank_of, suit_of
from engines.core import Move
from engines.heuristics import best_move, heuristic_first

from .melds import DECK, ORDER, RANK_INDEX, Arrangement, fits_simple, melded_cards
from .moves import ConquianDeclineForce, ConquianDiscard, ConquianForce, ConquianMeld
from .rules import legal_moves, other, result
from .state import (
    CHOOSE,
    DISCARD,
    FORCE_OFFER,
    FORCE_REJECT,
    FORCED,
    TURNED,
    WINNING_MELD_COUNT,
    ConquianState,
)

# --- what the seat may know -----------------------------------------------------------------------


def unseen(state: ConquianState, seat: int) -> frozenset[str]:
    """Cards ``seat`` has not seen: the opponent's hand and the stock, as a set (never their order
    or who holds which). Computed from the public table and the seat's own hand only."""
    seen = set(state.hands[seat]) | set(state.dead)
    for arrangement in state.melds:
        seen.update(melded_cards(arrangement))
    if state.offer is not None:
        seen.add(state.offer)
    if state.face_up is not None:
        seen.add(state.face_up)
    return frozenset(c for c in DECK if c not in seen)


def _neighbours(card: str, distance: int) -> list[str]:
    """Cards of the same suit ``distance`` steps away in the sequence order (7 and J adjacent)."""
    suit = suit_of(card)
    i = RANK_INDEX[rank_of(card)]
    return [f"{ORDER[j]}{suit}" for j in (i - distance, i + distance) if 0 <= j < len(ORDER)]


def partners(card: str, pool: frozenset[str] | set[str]) -> int:
    """How many cards of ``pool`` could sit in one meld with ``card``: same rank (a group), or the
    same suit one or two steps away (a sequence). A rough count of a card's meld chances."""
    rank = rank_of(card)
    same_rank = sum(1 for c in pool if c != card and rank_of(c) == rank)
    near = sum(1 for c in _neighbours(card, 1) if c in pool)
    far = sum(1 for c in _neighbours(card, 2) if c in pool)
    return same_rank + near + far


def _outs(arrangement: Arrangement, pool: frozenset[str], cap: int | None) -> int:
    """Cards of ``pool`` that would extend one of the melds as they stand: the later lay-offs the
    arrangement leaves open, which is what keeping flexibility buys."""
    if not arrangement:
        return 0
    return sum(1 for c in pool if fits_simple(arrangement, c, cap))


def _hand_potential(hand: tuple[str, ...], live: frozenset[str]) -> float:
    """How close the cards in ``hand`` are to melds: a pair or a near-sequence of hand cards counts
    a lot, a card with live partners (cards still to come) a little."""
    held = set(hand)
    total = 0.0
    for c in hand:
        total += 1.0 * partners(c, held) + 0.15 * partners(c, live)
    return total


# --- the greedy level ------------------------------------------------------------------------------


def _meld_score(state: ConquianState, seat: int, move: ConquianMeld, pool: frozenset[str]) -> float:
    """Value of a meld move: every card melded brings 11 closer; among equals, the arrangement with
    more open ends (outs) and the better remaining hand keeps the most flexibility."""
    cap = state.rules.max_sequence_len
    new = set(melded_cards(move.melds))
    added = len(new) - len(melded_cards(state.melds[seat]))
    if len(new) >= WINNING_MELD_COUNT:
        return 1e9
    rest = tuple(c for c in state.hands[seat] if c not in new)
    return 100.0 * added + 2.0 * _outs(move.melds, pool, cap) + _hand_potential(rest, pool)


def _discard_cost(state: ConquianState, seat: int, card: str, pool: frozenset[str]) -> float:
    """What discarding ``card`` costs: its worth to us (it fits our melds, it has partners in the
    hand or still to come) plus its worth to the opponent (it fits his melds, so he melds it at
    once; it can still meet unseen cards he may hold)."""
    cap = state.rules.max_sequence_len
    mine, theirs = state.melds[seat], state.melds[other(seat)]
    hand = set(state.hands[seat])
    cost = 0.0
    if fits_simple(mine, card, cap):
        cost += 30.0
    cost += 8.0 * partners(card, hand)
    if fits_simple(theirs, card, cap):
        cost += 40.0 if len(melded_cards(theirs)) + 1 < WINNING_MELD_COUNT else 1000.0
    # unseen partners count twice over: chances for us to meld it later, and for him to hold its mates
    cost += 2.5 * partners(card, pool)
    return cost


def _useful_to(state: ConquianState, seat: int, card: str) -> bool:
    """Whether ``card`` would meld for ``seat`` from what it sees: it fits its melds or forms a meld
    with two of its hand cards."""
    if fits_simple(state.melds[seat], card, state.rules.max_sequence_len):
        return True
    return partners(card, set(state.hands[seat])) >= 2


def heuristic_move(state: ConquianState, seat: int, rng: random.Random) -> Move:
    """The greedy bot's move (seeds/conquian.md, "Bots"): always one of ``legal_moves``.

    Meld the offered or turned card whenever a listed meld takes it (the arrangement that melds
    most, then keeps most open ends); otherwise draw, reject or pass. Discard the card of least
    worth to both sides. Force in window F1 unless the card wins the opponent the deal (declining
    only gives him more choice); in F2 decline when the card is useful to us (it comes to us),
    else force unless it brings him within one card of 11. ``rng`` breaks exact ties only.
    """
    moves = legal_moves(state, seat)
    if len(moves) == 1:
        return moves[0]
    pool = unseen(state, seat)
    phase = state.phase
    if phase in (FORCE_OFFER, FORCE_REJECT):
        player = state.turn
        card = state.offer if phase == FORCE_OFFER else state.face_up
        assert card is not None
        count = len(melded_cards(state.melds[player])) + 1
        if phase == FORCE_OFFER:
            force = count < WINNING_MELD_COUNT
        else:
            force = not _useful_to(state, seat, card) and count < WINNING_MELD_COUNT - 1
        return ConquianForce() if force else ConquianDeclineForce()
    if phase == DISCARD:
        discards = [m for m in moves if isinstance(m, ConquianDiscard)]
        return best_move(discards, lambda m: -_discard_cost(state, seat, m.card, pool), rng)
    melds = [m for m in moves if isinstance(m, ConquianMeld)]
    if melds and phase in (CHOOSE, TURNED, FORCED):
        return best_move(melds, lambda m: _meld_score(state, seat, m, pool), rng)
    others = [m for m in moves if not isinstance(m, ConquianMeld)]
    return others[0]


def ranked_moves(state: ConquianState, seat: int, rng: random.Random) -> list[Move]:
    """The listed moves in the greedy player's order (seeds/conquian.md, "Bots"): its own move first,
    then discards by rising cost, melds by falling score, the other moves (draw, reject, pass, the
    force decision) after the melds; the candidates of the ``strong`` rollout search."""
    first = heuristic_move(state, seat, rng)
    pool = unseen(state, seat)

    def score(move: Move) -> float:
        if isinstance(move, ConquianDiscard):
            return -_discard_cost(state, seat, move.card, pool)
        if isinstance(move, ConquianMeld):
            return _meld_score(state, seat, move, pool)
        return 0.0

    return heuristic_first(first, legal_moves(state, seat), score)


# --- evaluation --------------------------------------------------------------------------------------


@lru_cache(maxsize=4096)
def race(mine: int, theirs: int) -> float:
    """Chance to be first to win ``mine`` more deals before the opponent wins ``theirs``, each deal
    a coin flip (drawn deals ignored): the match part of ``evaluate``."""
    if mine <= 0:
        return 1.0
    if theirs <= 0:
        return 0.0
    return 0.5 * race(mine - 1, theirs) + 0.5 * race(mine, theirs - 1)


def _deals_needed(units: int, stake: int) -> int:
    return max(0, min(40, math.ceil(units / max(1, stake))))


def deal_prospect(state: ConquianState, seat: int) -> float:
    """The seat's chance of winning the current deal, from its melded count against the opponent's
    and the potential of both hands (a determinized state holds a sampled opponent hand)."""
    pool = unseen(state, seat) | set(state.hands[other(seat)])
    progress = []
    for s in (seat, other(seat)):
        melded = len(melded_cards(state.melds[s]))
        outs = _outs(state.melds[s], frozenset(pool), state.rules.max_sequence_len)
        hand = state.hands[s]
        pairs = sum(partners(c, set(hand)) for c in hand) / 2.0
        progress.append(melded + 0.35 * pairs + 0.08 * outs + (0.8 if melded == 10 and not hand else 0.0))
    return 1.0 / (1.0 + math.exp(-0.55 * (progress[0] - progress[1])))


def evaluate(state: ConquianState, seat: int) -> float:
    """How good ``state`` is for ``seat``, in [0, 1]: the result once the match is over (1 won, 0
    lost, 0.5 tied, as the default); else the chance of the deal, folded into the race of units
    to the target (a won deal adds its stake)."""
    res = result(state)
    if res is not None:
        if seat in res.winners:
            return 1.0 if len(res.winners) == 1 else 0.75
        return 0.0 if seat in res.losers else 0.5
    target = state.rules.target
    stake_now = 1 + state.draws_in_a_row if state.rules.draw_multiplier == "additive" else 2**state.draws_in_a_row
    mine, theirs = target - state.scores[seat], target - state.scores[other(seat)]
    p = deal_prospect(state, seat)
    win = race(_deals_needed(mine - stake_now, 1), _deals_needed(theirs, 1))
    lose = race(_deals_needed(mine, 1), _deals_needed(theirs - stake_now, 1))
    value = p * win + (1.0 - p) * lose
    if state.rules.max_deals is not None:  # a capped match: the units lead counts more as deals run out
        left = max(0, state.rules.max_deals - state.deal)
        lead = state.scores[seat] - state.scores[other(seat)]
        value = 0.5 * value + 0.5 / (1.0 + math.exp(-lead / (1.0 + left) - 2.0 * (p - 0.5)))
    return min(1.0, max(0.0, value))


__all__ = ["evaluate", "heuristic_move", "ranked_moves"]
