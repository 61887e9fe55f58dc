"""Kanaster bot strategy: the ``greedy`` level and a position's value (rules in seeds/kanaster.md,
section "Bots").

The greedy player is a sensible beginner: it takes the pile whenever a listed take exists (more
cards, more melds), melds and lays off what it can (most points first, canastas above all, wild
cards kept off natural melds that are growing), tucks what came with the pile, goes out when that
does not leave it behind, and discards safely: black 3s and blocking cards first, never what the
next player can lay off onto his own meld, pairs and wild cards kept. It reads only what its
seat's view shows (its hand, the table, the pile, the counts), so it may run on real states.

``evaluate`` estimates every seat's total at the end of the hand (match score, table, canastas,
red 3s, minus the hand; a search calls it on determinized states, where reading the sampled hands
is allowed) and turns the race into the seat's chance of winning the match.

The determinized worlds a search plays in are core's (``engines.contract``): the hidden cards dealt
anew from ``view.hidden``, which keeps what the seat knows from the state (a player who has had his
first turn holds no red 3, a cutter who has not yet played still holds the wild cards he kept at the
cut), and a seed of their own, since the real one fixes later deals.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Sequence

from engines.core import Move
from engines.heuristics import best_move, heuristic_first

from .melds import (
    CANASTA_SIZE,
    RED_THREE_VALUE,
    card_points,
    is_black_three,
    is_canasta,
    is_natural,
    is_red_three,
    is_wild,
    natural_rank,
    points,
    wild_count,
)
from .moves import Discard, Draw, EndHand, LayOff, MeldCards, TakePile, TakePileLayOff, Tuck
from .rules import blocking_ranks, has_canasta, legal_moves, pile_block, result
from .scoring import GOING_OUT_BONUS, canasta_bonus
from .state import DRAW, KanasterState

#: Hand cards the other seats are assumed to hold when the greedy player weighs going out: a
#: typical mid-hand card is worth about 8 points against its holder.
_CARD_GUESS = 8


# --- what the seat may know ------------------------------------------------------------------------


def _copies(state: KanasterState) -> int:
    """How many cards of one natural rank the packs hold (four suits per pack)."""
    return 4 * state.rules.decks


def _seen_counts(state: KanasterState, seat: int) -> Counter[str]:
    """Cards of each natural rank ``seat`` has seen: its hand, the pile, every meld and tucked card."""
    seen: Counter[str] = Counter()
    cards = [*state.hands[seat], *state.pile]
    for m in state.melds:
        cards.extend(m.cards)
        cards.extend(m.tucked)
    for c in cards:
        r = natural_rank(c)
        if r is not None:
            seen[r] += 1
    return seen


# --- the greedy level ----------------------------------------------------------------------------


def _used(move: Move) -> tuple[str, ...]:
    """The cards a meld-like move takes out of the hand (the pile's top card counted in)."""
    if isinstance(move, MeldCards | TakePile):
        return tuple(c for m in move.melds for c in m)
    if isinstance(move, LayOff | Tuck):
        return move.cards
    return ()


def _meld_gain(state: KanasterState, seat: int, move: Move) -> float:
    """What a meld, lay-off or take brings: the points moved from hand to table count twice (no
    longer a minus, now a plus), a canasta its bonus, cards on a growing meld a bit more; a wild
    card that spoils a natural meld of four or more costs the natural bonus it may still earn."""
    rules = state.rules
    gain = 0.0
    if isinstance(move, MeldCards | TakePile):
        for cards in move.melds:
            gain += 2 * points(cards) + (20 * (len(cards) - 3))
            wild = wild_count(cards)
            gain -= 25 * wild  # a wild card is worth more kept for a meld close to a canasta
            if len(cards) >= CANASTA_SIZE:
                gain += rules.natural_canasta_bonus if not wild else rules.mixed_canasta_bonus
        if isinstance(move, TakePile):
            gain += 12 * (len(state.pile) - 1)  # more cards to meld with
    elif isinstance(move, TakePileLayOff):
        meld = state.melds[move.meld]
        top = state.pile[-1]
        gain += _layoff_gain(state, meld.cards, (top,)) + 12 * (len(state.pile) - 1)
    elif isinstance(move, LayOff):
        gain += _layoff_gain(state, state.melds[move.meld].cards, move.cards)
    return gain


def _layoff_gain(state: KanasterState, cards: tuple[str, ...], added: Sequence[str]) -> float:
    rules = state.rules
    after = (*cards, *added)
    gain = 2.0 * sum(card_points(c) for c in added) + 15 * len(added)
    spoils = not any(is_wild(c) for c in cards) and any(is_wild(c) for c in added)
    if spoils and len(after) < CANASTA_SIZE:
        gain -= 40 + 30 * len(cards)  # keep a growing natural meld natural
    if len(cards) < CANASTA_SIZE <= len(after):
        natural = not any(is_wild(c) for c in after)
        gain += rules.natural_canasta_bonus if natural else rules.mixed_canasta_bonus
    elif len(cards) >= 4:
        gain += 10 * len(added)
    return gain


def _projected(state: KanasterState, seat: int) -> int:
    """A seat's hand total if the hand ended now, from public facts: its table, canastas and red 3s,
    minus a guess of its hand (count times a typical card)."""
    own = [m for m in state.melds if m.owner == seat]
    table = sum(points(m.cards) for m in own) + sum(canasta_bonus(m, state.rules) for m in own)
    reds = len(state.red_threes[seat]) * RED_THREE_VALUE
    red = reds if any(is_canasta(m) for m in own) else -reds
    return table + red - _CARD_GUESS * len(state.hands[seat])


def _go_out_ok(state: KanasterState, seat: int, move: Move) -> bool:
    """Whether going out with ``move`` (one card left, then the discard) leaves us ahead: our total
    with the going-out bonus against every other seat's public projection; near the talon's end
    (or far behind in cards to play) going out is taken anyway."""
    if len(state.talon) < 10:
        return True
    own = [m for m in state.melds if m.owner == seat]
    table = sum(points(m.cards) for m in own) + sum(canasta_bonus(m, state.rules) for m in own)
    mine = state.scores[seat] + table + points(c for c in _used(move) if not is_red_three(c))
    mine += len(state.red_threes[seat]) * RED_THREE_VALUE + GOING_OUT_BONUS
    best_other = max(state.scores[s] + _projected(state, s) for s in range(state.players) if s != seat)
    return mine >= best_other


def _discard_cost(state: KanasterState, seat: int, card: str, seen: Counter[str]) -> float:
    """What discarding ``card`` costs: its worth to us (wild cards and pairs are kept) plus the
    danger that the next player takes the pile with it (he has a meld of its rank; copies of the
    rank are still unseen); black 3s and blocking cards are safe and make the best discards."""
    hand = state.hands[seat]
    nxt = (seat + 1) % state.players
    pile_weight = 1.0 + len(state.pile) / 4.0
    if is_black_three(card):
        return -50.0
    if is_wild(card):
        return 300.0 + card_points(card)
    rank = natural_rank(card)
    assert rank is not None
    cost = 0.0
    same = sum(1 for c in hand if natural_rank(c) == rank)
    cost += 45.0 * (same - 1)
    if any(m.owner == seat and m.rank == rank for m in state.melds):
        cost += 60.0
    if rank in blocking_ranks(state, nxt):
        return cost - 40.0  # the next player cannot take the pile with it
    if any(m.owner == nxt and m.rank == rank for m in state.melds):
        cost += 90.0 * pile_weight
    unseen = _copies(state) - seen[rank]
    if unseen >= 2:
        cost += min(unseen, 6) * 4.0 * pile_weight
    cost -= 0.5 * card_points(card)  # among equals, shed the points that would count against us
    return cost


def heuristic_move(state: KanasterState, seat: int, rng: random.Random) -> Move:
    """The greedy bot's move (seeds/kanaster.md, "Bots"): always one of ``legal_moves``.

    Draw phase: take the pile with the best listed take when the pile can be taken, else draw (or
    end the hand with the talon empty). Play phase: tuck what came with the pile; make the listed
    meld or lay-off of highest gain while one gains anything, going out only when it leaves us
    ahead; then discard the card of least cost. ``rng`` breaks exact ties only.
    """
    if state.phase == DRAW and state.talon and pile_block(state, seat) is not None:
        return Draw()  # always listed while the talon has cards; skipping the listing keeps rollouts fast
    moves = legal_moves(state, seat)
    if len(moves) == 1:
        return moves[0]
    if state.phase == DRAW:
        takes = [m for m in moves if isinstance(m, TakePile | TakePileLayOff)]
        hand_size = len(state.hands[seat])
        takes = [m for m in takes if hand_size + len(state.pile) - len(_used(m)) != 1
                 or _go_out_ok(state, seat, m)]
        if takes:
            return best_move(takes, lambda m: _meld_gain(state, seat, m), rng)
        return next(m for m in moves if isinstance(m, Draw | EndHand))
    tucks = [m for m in moves if isinstance(m, Tuck)]
    if tucks:
        return best_move(tucks, lambda m: float(len(m.cards)), rng)
    hand_size = len(state.hands[seat])
    melds = [m for m in moves if isinstance(m, MeldCards | LayOff)
             and (hand_size - len(_used(m)) != 1 or _go_out_ok(state, seat, m))]
    if melds:
        best = best_move(melds, lambda m: _meld_gain(state, seat, m), rng)
        if _meld_gain(state, seat, best) > 0:
            return best
    seen = _seen_counts(state, seat)
    discards = [m for m in moves if isinstance(m, Discard)]
    return best_move(discards, lambda m: -_discard_cost(state, seat, m.card, seen), rng)


def ranked_moves(state: KanasterState, seat: int, rng: random.Random) -> list[Move]:
    """The listed moves in the greedy player's order (seeds/kanaster.md, "Bots"): its own move first,
    then tucks, melds, lay-offs and takes by falling gain, drawing (or ending the hand), and the
    discards by rising cost last; the candidates of the ``strong`` rollout search."""
    first = heuristic_move(state, seat, rng)
    seen = _seen_counts(state, seat)

    def score(move: Move) -> float:
        if isinstance(move, Discard):
            return -1000.0 - _discard_cost(state, seat, move.card, seen)
        if isinstance(move, Tuck):
            return 1e6 + len(move.cards)
        if isinstance(move, Draw | EndHand):
            return 0.0
        return _meld_gain(state, seat, move)

    return heuristic_first(first, legal_moves(state, seat), score)


# --- evaluation ----------------------------------------------------------------------------------


def hand_estimate(state: KanasterState, seat: int) -> float:
    """The seat's hand total if the hand were counted now, plus what its melds promise: the table,
    canasta bonuses, red 3s (plus once it has a canasta or a meld of six), minus its hand's points
    (read from the state: a determinized sample when a search asks), and part of a canasta's bonus
    for a meld of five or six."""
    rules = state.rules
    own = [m for m in state.melds if m.owner == seat]
    value = float(sum(points(m.cards) for m in own) + sum(canasta_bonus(m, rules) for m in own))
    close = 0.0
    for m in own:
        if 4 <= len(m.cards) < CANASTA_SIZE:
            bonus = rules.natural_canasta_bonus if is_natural(m) else rules.mixed_canasta_bonus
            close = max(close, bonus * (len(m.cards) - 3) / 8.0)
            value += bonus * (len(m.cards) - 3) / 8.0
    reds = len(state.red_threes[seat]) + sum(1 for c in state.hands[seat] if is_red_three(c))
    if has_canasta(state, seat):
        value += reds * RED_THREE_VALUE
    else:
        value += reds * RED_THREE_VALUE * (-1.0 + 2.0 * min(1.0, close / 250.0))
    value -= sum(card_points(c) for c in state.hands[seat] if not is_red_three(c))
    return value


def evaluate(state: KanasterState, seat: int) -> float:
    """How good ``state`` is for ``seat``, in [0, 1]: the result once the match is over (1 won, 0
    lost, 0.75 a shared win, as the default); else each seat's total plus its hand estimate, and
    the seat's share of a soft maximum over them, softer the more hands remain to be played."""
    res = result(state)
    if res is not None:
        if seat in res.winners:
            return 1.0 if len(res.winners) == 1 else 0.75
        return 0.0 if seat in res.losers else 0.5
    est = [state.scores[s] + hand_estimate(state, s) for s in range(state.players)]
    rules = state.rules
    hands_left = 1.0 + max(0.0, rules.target - max(est)) / 1500.0
    if rules.max_hands is not None:
        hands_left = min(hands_left, float(max(1, rules.max_hands - len(state.history))))
    scale = 250.0 * math.sqrt(hands_left)
    mine = est[seat]
    return 1.0 / (1.0 + sum(math.exp(max(-50.0, min(50.0, (e - mine) / scale)))
                            for s, e in enumerate(est) if s != seat))


__all__ = ["evaluate", "heuristic_move", "ranked_moves"]
