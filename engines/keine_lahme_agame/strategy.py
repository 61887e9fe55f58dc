"""How a sensible beginner plays Keine lahme Agame, how good a position is, and what a seat knows:
the bot hooks (``heuristic_move``, ``evaluate``, ``determinize``).

Rules: seeds/keine-lahme-agame.md (section "Bots" describes the ``greedy`` level; the provisional
rules of §6-§7 are taken as the options in force say). ``heuristic_move`` is the ``greedy`` bot and
the rollout policy of the information-set search, so it reads only what the seat's view shows: its
hand, every row, the discard pile, the running trick and catching round, the hand counts. From
those it also knows which cards the others hold together (every card of the game is in one of
those places), though not who holds which. ``evaluate`` scores a position by the totals and the
rows on the table.
"""

from __future__ import annotations

import random
from collections import Counter

from engines.core import Move

from .cards import HAT_STRENGTH, colour_index, full_deck, is_hat, strength, value_of
from .moves import Catch, Place, Trick
from .options import Config
from .rules import legal_moves, missing_slots, play_value, row_points, trick_winner, won_cards
from .state import LEAD, OVER, State

#: Points of one row card and of a complete row (§7.2, default scoring), the greedy's currency.
CARD_POINTS = 10.0
COMPLETE_BONUS = 90.0
#: What giving a card away or paying it costs, per point of its strength (capped: a 21 is as good
#: as a 34 for most tricks), plus a flat cost per card; the hat, which wins any trick it leads, is
#: worth keeping far above its row value.
STRENGTH_COST = 0.3
CARD_COST = 1.0
HAT_COST = 25.0
#: The leader's catch opens a catching round in which the others may catch from his row too.
OPEN_ROUND_COST = 4.0


def _unseen(state: State, seat: int) -> Counter[str]:
    """The cards the other seats hold between them: the game's cards minus everything on the table
    and in the seat's own hand. All public to the seat, so it knows this multiset, not its split."""
    left = Counter(full_deck(state.config.players, state.config.card_set))
    left.subtract(state.hands[seat])
    for row in state.rows:
        left.subtract(row)
    left.subtract(state.discard)
    left.subtract(c.card for c in state.caught)
    left.subtract(won_cards(state.trick))
    return +left


def _strongest(cards: Counter[str]) -> int:
    """The highest play two cards of ``cards`` could make without a hat (§4.2)."""
    values = sorted((strength(c) for c in cards.elements() if not is_hat(c)), reverse=True)
    return sum(values[:2])


def _card_cost(card: str) -> float:
    return HAT_COST if is_hat(card) else CARD_COST + STRENGTH_COST * min(strength(card), 21)


class _Row:
    """A row's free positions by value, for scoring many candidate plays quickly (§6.1)."""

    def __init__(self, cfg: Config, row: tuple[str, ...], owner: int) -> None:
        self.free = Counter(missing_slots(cfg, row))
        self.missing = sum(self.free.values())
        self.owner = owner
        self.own_ok = cfg.row_accepts_own_colour

    def gain(self, cards: tuple[str, ...]) -> float:
        """Points ``cards`` would add to the row (auto placement, earliest first, §6.2), with the
        bonus for completing it."""
        taken: Counter[int | None] = Counter()
        for c in cards:
            v = value_of(c)
            if taken[v] < self.free[v] and (self.own_ok or colour_index(c) != self.owner):
                taken[v] += 1
        placed = sum(taken.values())
        if not placed:
            return 0.0
        return CARD_POINTS * placed + (COMPLETE_BONUS if placed == self.missing else 0.0)


def _row_gain(cfg: Config, row: tuple[str, ...], owner: int, cards: tuple[str, ...]) -> float:
    """Points ``cards`` would add to ``row``, with the bonus for completing it."""
    return _Row(cfg, row, owner).gain(cards)


def _section_end_value(state: State, seat: int) -> float:
    """What ending the section now is worth to ``seat``: its row's points against the best other."""
    pts = [row_points(state.config, r)[0] for r in state.rows]
    return 0.5 * (pts[seat] - max(p for s, p in enumerate(pts) if s != seat))


class _TrickContext:
    """What every candidate play of one decision shares (§4): the trick so far, the strongest hatless
    play the unseen cards could make and whether an unseen hat is left, the rows at stake."""

    def __init__(self, state: State, seat: int) -> None:
        cfg = state.config
        unseen = _unseen(state, seat)
        self.strongest = _strongest(unseen)
        self.hat_unseen = any(is_hat(c) for c in unseen)
        self.best = trick_winner(state.trick) if state.trick else None
        self.so_far = -1 if self.best is None else play_value(next(p.cards for p in state.trick if p.seat == self.best))
        self.later = cfg.players - len(state.trick) - 1
        self.won = won_cards(state.trick)
        self.mine = _Row(cfg, state.rows[seat], seat)
        self.theirs = None if self.best is None else _Row(cfg, state.rows[self.best], self.best)
        self.end_value = _section_end_value(state, seat)


def trick_score(state: State, seat: int, cards: tuple[str, ...], ctx: _TrickContext | None = None) -> float:
    """The greedy value of playing ``cards`` to the trick (§4), from the view only.

    A play that no later play can beat (a hat led, or above anything the unseen cards could make)
    wins for sure; one that beats the trick so far but not every later possibility wins by a guess.
    Winning takes every won card that fits the row (plus, for a sure win as leader, an expected
    share of the followers' cards); losing hands the played cards to the winner, which costs their
    strength, their row points if they fit the best play's row, and more for two cards than one.
    Emptying the hand ends the section when the trick is lost, good only for the row ahead.
    ``ctx`` holds what all candidates share; the caller builds it once per decision.
    """
    cfg = state.config
    ctx = ctx or _TrickContext(state, seat)
    value = play_value(cards)
    if value <= ctx.so_far:
        p_win = 0.0
    elif ctx.later == 0 or value >= HAT_STRENGTH:
        p_win = 1.0
    else:
        p_win = 1.0 if value > ctx.strongest else 0.35
        if ctx.hat_unseen:
            p_win *= 0.6
    gain = ctx.mine.gain(ctx.won + cards)
    if ctx.best is None and p_win == 1.0:
        gain += CARD_POINTS * ctx.later * 0.5 * ctx.mine.missing / len(cfg.slots())
    if cfg.trick_capture == "row_then_discard":
        gain -= sum(_card_cost(c) for c in cards) * 0.5  # won cards that do not fit are gone too
    loss = sum(_card_cost(c) for c in cards)
    if ctx.theirs is not None:
        loss += ctx.theirs.gain(cards)
    score = p_win * gain - (1.0 - p_win) * loss
    if len(cards) == len(state.hands[seat]):
        score += (1.0 - p_win) * ctx.end_value
    return score


def catch_score(state: State, seat: int, move: Catch) -> float:
    """The greedy value of a catch (§5): the caught card's row points (and the completion bonus), the
    points it takes from the row it leaves (more when that row was complete), less what the payment
    costs (cheap cards first, never the hat but for a sure completion)."""
    cfg = state.config
    caught_here = tuple(c.card for c in state.caught if c.seat == seat)
    gain = _row_gain(cfg, state.rows[seat] + caught_here, seat, (move.card,))
    if move.from_seat is not None:
        victim = state.rows[move.from_seat]
        gain += CARD_POINTS + (COMPLETE_BONUS if not missing_slots(cfg, victim) else 0.0)
    cost = sum(_card_cost(c) for c in move.payment)
    if state.phase == LEAD:
        cost += OPEN_ROUND_COST
    return gain - cost


def heuristic_move(state: State, seat: int, rng: random.Random) -> Move:
    """The ``greedy`` level: catch the card worth most to the row when it is worth its payment
    (``catch_score`` > 0), else pass or go on to the trick; in the trick the play with the best
    ``trick_score`` (win when the won cards fill the row, give away little and cheap cards when the
    trick is lost); place every won card that fits; the forced discard when it is the one move.

    Reads only what the seat's view shows; ``rng`` is not needed: ties go to the first listed move.
    """
    moves = legal_moves(state, seat)
    catches = [m for m in moves if isinstance(m, Catch)]
    if catches:
        best = max(catches, key=lambda m: catch_score(state, seat, m))
        if catch_score(state, seat, best) > 0:
            return best
    tricks = [m for m in moves if isinstance(m, Trick)]
    if tricks:
        ctx = _TrickContext(state, seat)
        return max(tricks, key=lambda m: trick_score(state, seat, m.cards, ctx))
    places = [m for m in moves if isinstance(m, Place)]
    if places:
        return max(places, key=lambda m: len(m.cards))
    rest = [m for m in moves if not isinstance(m, Catch)]
    return rest[0] if rest else moves[0]


def evaluate(state: State, seat: int) -> float:
    """The seat's prospects in [0, 1] on the scale of the result: 1 won (alone), 0 lost.

    Once over: the default's result values (a shared win 0.75, an abort 0.5). Before: the totals so
    far plus what each row would score now (§7.2) stand for the final totals; the lead over the best
    other seat, squashed into (0, 1) on a scale of one complete row.
    """
    if state.phase == OVER:
        if state.aborted:
            return 0.5
        best = max(state.scores)
        if state.scores[seat] != best:
            return 0.0
        return 1.0 if state.scores.count(best) == 1 else 0.75
    projected = [t + row_points(state.config, r)[0] for t, r in zip(state.scores, state.rows, strict=True)]
    lead = projected[seat] - max(p for s, p in enumerate(projected) if s != seat)
    return 0.5 + 0.5 * lead / (abs(lead) + 100.0)


def determinize(state: State, seat: int, rng: random.Random) -> State:
    """The very hands of the real state, with the seed replaced.

    Every hand is known to a seat that followed the game (seeds §12): each player starts with
    exactly his colour, every card that changes place does so face up (plays, payments, discards,
    the rest of a won trick into the winner's hand), and a new section deals each card back to its
    owner. So the only world consistent with what the seat has seen is the real one; dealing the
    hands anew, as the default does, would forget what every player at the table knows. The seed is
    replaced all the same: it drew the first leader and is never shown, so no sample keeps it.
    """
    return state.replace(seed=f"determinize/{rng.random()!r}")
