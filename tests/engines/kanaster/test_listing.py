"""The listing of legal moves judges each candidate by the move's checks alone, without building the
state after it (seeds/kanaster.md section 13). Its straightforward definition applies each candidate
and reads the state after it; both must list the very same moves in the same order, over every
variant of the options, every kind of position and both the random and the "first listed move"
play (the latter reaches the large tables and hands of long matches).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace

import pytest

from engines.core import IllegalMove, Move
from engines.kanaster import ENGINE as E
from engines.kanaster import candidates, rules
from engines.kanaster.melds import is_wild, natural_rank
from engines.kanaster.moves import Discard, Draw, EndHand, LayOff, MeldCards, TakePile, TakePileLayOff, Tuck
from engines.kanaster.state import DRAW, PLAY, KanasterState, Meld
from tests.playout import playout

from .helpers import played, position
from .test_properties import VARIANTS

#: Positions compared per option variant, table size and way of playing.
POSITIONS = 150


class _ByApplying(rules._Listing):
    """The listing as defined: every candidate is judged by ``apply`` (a legal one leaves one card
    when the mover, still to move, holds one card in the state after it); ``plain`` ones are
    listed whenever legal, the others only when they show a card not yet shown by a listed move of
    their kind, or are the first of their kind that leaves one card."""

    def offer(self, move: Move, plain: bool = False) -> bool:
        if move in self.moves:
            return True
        keys = {(move.type, c) for c in _cards(move)}
        shown = {(kind, c) for kind, cards in self.shown.items() for c in cards}
        try:
            after = rules.apply(self.state, self.seat, move, None)
        except IllegalMove:
            return False
        out = after.current == self.seat and not after.over and len(after.hands[self.seat]) == 1
        if plain or not keys <= shown or (out and move.type not in self.going_out):
            self.moves[move] = None
            self.shown.setdefault(move.type, set()).update(c for _, c in keys)
            if out:
                self.going_out.add(move.type)
            return True
        return False

    def discards(self, hand: Sequence[str]) -> None:
        """Each distinct card of the hand offered as a discard, judged by ``apply`` like any move."""
        for c in dict.fromkeys(hand):
            self.offer(Discard(c), plain=True)


def _cards(move: Move) -> tuple[str, ...]:
    if isinstance(move, MeldCards | TakePile):
        return tuple(c for m in move.melds for c in m)
    if isinstance(move, LayOff | Tuck):
        return move.cards
    return ()


def _leaves_one(state: KanasterState, seat: int, move: Move) -> bool:
    after = rules.apply(state, seat, move, None)
    return after.current == seat and not after.over and len(after.hands[seat]) == 1


def listed_by_applying(state: KanasterState, seat: int) -> tuple[Move, ...]:
    listing = _ByApplying(state, seat)
    if state.phase == DRAW:
        rules._draw_phase(state, seat, listing)
    else:
        rules._play_phase(state, seat, listing)
    return tuple(listing.moves)


def listed_from_every_candidate(state: KanasterState, seat: int) -> tuple[Move, ...]:
    """The listing as defined, with nothing left out: every candidate, as often as it comes (the new
    melds built for each budget and target from scratch, where several targets write the same
    candidate), whether or not it could be legal (a take_pile without a hand card of the top card's
    rank, a new meld from a hand of three cards, each hand card onto a meld whose rank the hand
    lacks), each judged by ``apply``."""
    listing = _ByApplying(state, seat)
    hand = state.hands[seat]
    groups = candidates.Groups.of(hand)
    if state.phase == DRAW:
        if state.talon:
            listing.offer(Draw(), plain=True)
        if not rules.pile_block(state, seat):
            top = state.pile[-1]
            for melds in candidates.single_meld_candidates(hand, top, groups):
                listing.offer(TakePile(melds), plain=True)
            after = sum(1 for c in state.pile[:-1] if c not in ("3D", "3H"))
            for melds in _new_melds_by_budget(hand, after, top):
                listing.offer(TakePile(melds))
            for i, m in enumerate(state.melds):
                if m.owner == seat and m.rank == natural_rank(top):
                    listing.offer(TakePileLayOff(i), plain=True)
        if not state.talon:
            listing.offer(EndHand(), plain=True)
        return tuple(listing.moves)
    if not (state.took_pile and not state.rules.meld_after_taking_pile):
        for melds in candidates.single_meld_candidates(hand, None, groups):
            listing.offer(MeldCards(melds), plain=True)
        for melds in _new_melds_by_budget(hand, 0, None):
            listing.offer(MeldCards(melds))
        single_ranks: set[tuple[str, str]] = set()
        for i, m in enumerate(state.melds):
            if m.owner != seat:
                continue
            singles, sets = rules._lay_off_candidates(state, seat, m, groups)
            if not singles:  # nothing of its rank, no wild card: any hand card, as a lay-off
                singles = [(c,) for c in dict.fromkeys(hand)]
            rules.offer_lay_offs(listing, i, m.rank, singles, sets, single_ranks)
    if state.took_pile and state.pile_taken:
        rules.offer_tucks(state, hand, listing)  # the tucks are listed as defined: nothing skipped
    listing.discards(hand)
    return tuple(listing.moves)


def _skips_a_candidate(state: KanasterState, seat: int) -> bool:
    """Whether the listing leaves out some candidate ``listed_from_every_candidate`` offers."""
    hand = state.hands[seat]
    if state.phase == DRAW:
        return not rules.pile_block(state, seat) and natural_rank(state.pile[-1]) not in map(natural_rank, hand)
    if state.took_pile and not state.rules.meld_after_taking_pile:
        return False
    fits = {natural_rank(c) for c in hand} | ({"3"} if any(c in ("3C", "3S") for c in hand) else set())
    return len(hand) <= 3 or any(m.owner == seat and m.rank not in fits and not any(map(is_wild, hand))
                                 for m in state.melds)


@pytest.mark.parametrize("policy", ["random", "first"])
@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_the_listing_leaves_out_only_candidates_that_cannot_be_listed(variant, players, policy):
    """The listing skips candidates that cannot be legal and judges each distinct candidate once:
    it lists the very moves, in the same order, as offering every candidate every time."""
    compared = skipped = 0
    for s, seat, listed in played("every-candidate", variant, VARIANTS[variant], players, policy, POSITIONS):
        assert listed == listed_from_every_candidate(s, seat)
        compared += 1
        skipped += _skips_a_candidate(s, seat)
    assert compared == POSITIONS and skipped > 0  # some positions had candidates to leave out


@pytest.mark.parametrize("policy", ["random", "first"])
@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_the_listing_by_checks_lists_what_applying_each_candidate_lists(variant, players, policy):
    compared = 0
    seen: set[str] = set()
    for s, seat, listed in played("listing", variant, VARIANTS[variant], players, policy, POSITIONS):
        assert listed == listed_by_applying(s, seat)
        compared += 1
        seen.update(m.type for m in listed)
    assert compared == POSITIONS and len(seen) >= 4  # every phase of a turn was compared, not one hand only


@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_a_check_refuses_exactly_what_apply_refuses_and_for_the_same_reason(variant):
    """Beyond the candidates: each kind of move, for every meld id and every card of every hand."""
    rng = random.Random(f"checks/{variant}")
    s = E.new_game(3, VARIANTS[variant], f"checks{variant}")
    for _ in range(120):
        if s.over:
            break
        seat = s.current
        cards = sorted({c for h in s.hands for c in h})
        probes: list[Move] = [*E.legal_moves(s, seat)]
        for kind in E.move_types:
            probes.extend(_probes(kind, s, cards, rng))
        for move in probes:
            try:
                rules.apply(s, seat, move, None)
                applied = None
            except IllegalMove as exc:
                applied = exc.reason
            try:
                rules._CHECKS[type(move)](s, seat, move)
                checked = None
            except IllegalMove as exc:
                checked = exc.reason
            assert checked == applied, move
        legal = E.legal_moves(s, seat)
        s = E.apply(s, seat, legal[int(rng.random() * len(legal))])


def _probes(kind: type[Move], s: KanasterState, cards: list[str], rng: random.Random) -> list[Move]:
    """A few moves of ``kind``, most of them illegal: any card of any hand, any meld id."""

    def some(k: int) -> tuple[str, ...]:
        return tuple(rng.choice(cards) for _ in range(k))

    melds = range(len(s.melds) + 1)
    if kind in (Draw, EndHand):
        return [kind()]
    if kind is Discard:
        return [Discard(c) for c in cards[:6]]
    if kind in (LayOff, Tuck):
        return [kind(i, some(rng.randint(0, 3))) for i in melds]
    if kind is TakePileLayOff:
        return [TakePileLayOff(i) for i in melds]
    top = s.pile[-1:] if s.pile else ()
    if kind is TakePile:
        return [TakePile(((*top, *some(2)),)), TakePile(((*top, *some(3)), some(3)))]
    assert kind is MeldCards
    return [MeldCards((some(3),)), MeldCards((some(4), some(3))), MeldCards(())]


def test_a_first_meld_below_the_minimum_is_listed_only_where_going_out_waives_the_minimum():
    """The listing refuses a first meld that counts fewer points than the minimum before the rest of
    its check, except where option concealed_exempt_from_minimum waives the minimum: a first meld
    from the hand that goes out (seeds/kanaster.md section 8)."""
    hand = ["5C", "5D", "5H", "5S", "5C", "5D", "5H", "9D"]
    s = position(hands=[hand, ["4C"] * 3], phase=PLAY, max_hands=1)
    going_out = MeldCards((("5C", "5D", "5H", "5S", "5C", "5D", "5H"),))  # 35 points, a canasta
    assert going_out not in E.legal_moves(s, 0)
    free = replace(s, rules=replace(s.rules, concealed_exempt_from_minimum=True))
    assert going_out in E.legal_moves(free, 0)
    assert E.legal_moves(free, 0) == listed_from_every_candidate(free, 0)
    taken = replace(free, took_pile=True)  # no exemption after taking the pile
    assert going_out not in E.legal_moves(taken, 0)


def test_a_going_out_meld_is_listed_after_the_single_melds_showed_every_card():
    """Once the listed melds show every hand card the new melds' candidates are passed over, but
    not one that leaves one card while no listed meld does (seeds/kanaster.md section 13)."""
    hand = ["KC", "KD", "KH", "QC", "QD", "QH", "QS"]
    canasta = Meld(0, "9", ("9C", "9D", "9H", "9S", "9C", "9D", "9H"))
    s = position(hands=[hand, ["4C"] * 3], phase=PLAY, melds=[canasta], max_hands=1)
    listed = E.legal_moves(s, 0)
    singles = [m for m in listed if isinstance(m, MeldCards) and len(m.melds) == 1]
    assert {c for m in singles for c in m.melds[0]} == set(hand)
    assert [m for m in listed if isinstance(m, MeldCards) and _leaves_one(s, 0, m)]
    assert listed == listed_from_every_candidate(s, 0)


def test_near_going_out_the_listing_by_checks_lists_what_applying_each_candidate_lists():
    """Where a candidate's one card left decides whether it is listed: the play phase with a
    short hand, over random play of every table size (the positions that reach going out)."""
    compared = going_out = 0
    for n in range(40):
        for step in playout(E, 2 + n % 4, f"going-out/{n}"):
            s = step.state
            if s.phase == DRAW or len(s.hands[step.seat]) > 7:
                continue
            listed = E.legal_moves(s, step.seat)
            assert listed == listed_by_applying(s, step.seat)
            compared += 1
            going_out += any(_leaves_one(s, step.seat, m) for m in listed)
    assert compared > 1000 and going_out > 20


def _new_melds_by_budget(hand: tuple[str, ...], after: int, top: str | None) -> list[tuple[tuple[str, ...], ...]]:
    """``candidates.new_meld_candidates`` as defined: for each budget (keeping two cards, then one)
    and each target, ``build`` from scratch, written out in every rotation."""
    groups = candidates.Groups.of(hand)
    targets: list[tuple[str | None, str | None]] = [(None, None)]
    targets += [(r, None) for r, cs in groups.naturals.items()
                if len(cs) >= 2 or natural_rank(top or "") == r]
    targets += [(None, w) for w in dict.fromkeys(groups.jokers + groups.twos)]
    out = []
    for keep in (2, 1):
        for rank, wild in targets:
            for black in (False, True) if keep == 1 and len(groups.black) >= 3 else (False,):
                melds = candidates.build(groups, len(hand) + after - keep, top, rank=rank, wild=wild, black=black)
                if melds:
                    out.extend(candidates.write(groups, melds, k) for k in range(candidates.rotations(groups, melds)))
    return out


@pytest.mark.parametrize("policy", ["random", "first"])
def test_new_meld_candidates_trimmed_once_per_target_are_those_built_per_budget(policy):
    """Keeping two cards trims on from where keeping one stopped, and melds written before are not
    written again: the same candidates, in the same order (each where it first comes), as building
    each budget from scratch; in both phases (with the pile's top card)."""
    rng = random.Random(f"candidates/{policy}")
    compared = 0
    for n in range(6):
        s = E.new_game(2 + n % 4, {}, f"candidates/{policy}/{n}")
        for _ in range(250):
            if s.over:
                break
            hand = s.hands[s.current]
            top = s.pile[-1] if s.pile and s.phase == DRAW else None
            after = len(s.pile) - 1 if top else 0
            built = _new_melds_by_budget(hand, after, top)
            assert candidates.new_meld_candidates(hand, after, top) == list(dict.fromkeys(built))
            compared += 1
            listed = E.legal_moves(s, s.current)
            s = E.apply(s, s.current, listed[0] if policy == "first" else listed[int(rng.random() * len(listed))])
    assert compared > 1000
