"""Conquian's rules: dealing, the phases of a turn, forcing, the end of a deal and the match.

The rules as implemented, with every ruling, are in seeds/conquian.md; section numbers below refer
to it. ``legal_moves`` and ``apply`` share one validator per move kind (``_check_meld`` for melds),
so a listed move always applies and an unlisted one is refused for the same reason in both.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engines.cards import rank_of, remove_cards, shuffled
from engines.core import Event, IllegalMove, Move, Result, deal_from
from engines.core import evolve as replace

from . import events
from .melds import (
    CARDS,
    DECK,
    RANK_INDEX,
    Arrangement,
    canonical,
    find_arrangement,
    fits_simple,
    is_long_sequence,
    layoffs,
    meld_kind,
    melded_cards,
    melds_containing,
    sort_hand,
)
from .moves import (
    ConquianDeclineForce,
    ConquianDiscard,
    ConquianDraw,
    ConquianForce,
    ConquianMeld,
    ConquianPass,
    ConquianReject,
)
from .options import Rules
from .state import (
    CHOOSE,
    DISCARD,
    FORCE_OFFER,
    FORCE_REJECT,
    FORCED,
    HAND_SIZE,
    OVER,
    TURNED,
    WINNING_MELD_COUNT,
    ConquianState,
    DealSummary,
)

#: Every reason the rules of Conquian refuse a move for (``IllegalMove.reason``), with what it means:
#: the ``illegal_move`` answer's ``reason``. Core's own (``engines.core.CORE_REASONS``) come on top.
REASONS: Mapping[str, str] = {
    "wrong_phase": "This kind of move is not allowed in the turn's phase (`state.phase`): drawing, melding, "
                   "rejecting, discarding, passing and forcing each have their phase.",
    "no_offer": "There is no offered card to meld: turn the stock card instead.",
    "unknown_card": "A card named is not a card of Conquian's 40-card deck.",
    "duplicate_card": "A card appears more than once in the melds.",
    "melded_card_missing": "The new melds leave out a card the mover had already melded: every melded card stays.",
    "card_not_melded": "The new melds leave out the card to be melded (the offered or face-up card).",
    "card_not_in_hand": "A card named is not in the mover's hand.",
    "hand_cards_not_allowed": "A forced player adds only the forced card to his melds, no hand cards.",
    "nothing_melded": "The melds add no card to those already on the table.",
    "sequence_too_long": "A sequence is longer than the option `max_sequence_len` allows.",
    "invalid_meld": "A meld is neither a group (three or four of a rank) nor a sequence (three or more of a suit "
                    "in order).",
    "stock_empty": "The stock is empty: take the offered card or pass.",
    "stock_not_empty": "Passing is allowed only once the stock is empty.",
}


def other(seat: int) -> int:
    return 1 - seat


# --- setup (seeds/conquian.md 2) ------------------------------------------------------------------


def _deal(cards: Sequence[str], dealer: int) -> tuple[tuple[tuple[str, ...], tuple[str, ...]], tuple[str, ...]]:
    """Deal 10 cards each, one at a time, non-dealer first; the other 20 are the stock, top first."""
    pone = other(dealer)
    first = sort_hand(cards[0 : 2 * HAND_SIZE : 2])
    second = sort_hand(cards[1 : 2 * HAND_SIZE : 2])
    hands = (first, second) if pone == 0 else (second, first)
    return hands, tuple(cards[2 * HAND_SIZE :])


def _cut_for_dealer(seed: str) -> tuple[tuple[str, ...], int]:
    """Both players draw from a separately shuffled deck; the lower rank deals, equal ranks draw again.

    Seat 0 draws first. Returns the drawn cards and the dealer (seeds/conquian.md 2.1).
    """
    pack = shuffled(DECK, seed, "cut")
    for i in range(0, len(pack), 2):
        a, b = RANK_INDEX[rank_of(pack[i])], RANK_INDEX[rank_of(pack[i + 1])]
        if a != b:
            return pack[: i + 2], (0 if a < b else 1)
    raise AssertionError("a 40-card deck cannot tie on every pair")  # four of each rank, 20 pairs


def pack(players: int, options: Mapping[str, Any]) -> tuple[str, ...]:
    """The cards in play: the 40 of every deal, a standard deck without its 8s, 9s and 10s (seeds/conquian.md 1)."""
    return DECK


def new_game(players: int, options: Mapping[str, Any], seed: str, deck: Sequence[str] | None) -> ConquianState:
    """Set up a match and deal its first deal (seeds/conquian.md 2).

    ``deck`` (top card first) replaces ``shuffled(DECK, seed, "deal")`` for the first deal only.
    """
    rules = Rules(**options)
    cards = deal_from(deck, pack(players, options), seed)
    if rules.first_dealer == "low_card_draw":
        cut, dealer = _cut_for_dealer(seed)
    else:
        cut, dealer = (), int(rules.first_dealer[-1])
    return _start_deal(
        ConquianState(
            rules=rules,
            seed=seed,
            cut=cut,
            deal=0,
            dealer=dealer,
            turn=other(dealer),
            phase=CHOOSE,
            hands=((), ()),
            melds=((), ()),
            stock=(),
            offer=None,
            face_up=None,
            dead=(),
            scores=(0, 0),
            draws_in_a_row=0,
            drawn_deals=0,
        ),
        dealer,
        cards,
    )


def _start_deal(state: ConquianState, dealer: int, cards: Sequence[str]) -> ConquianState:
    """Deal the next deal from ``cards``; the non-dealer turns the first card (no upcard)."""
    hands, stock = _deal(cards, dealer)
    return replace(
        state,
        deal=state.deal + 1,
        dealer=dealer,
        turn=other(dealer),
        phase=CHOOSE,
        hands=hands,
        melds=((), ()),
        stock=stock,
        offer=None,
        face_up=None,
        dead=(),
    )


# --- whose move ----------------------------------------------------------------------------------


def to_move(state: ConquianState) -> tuple[int, ...]:
    """The seat to move: ``turn``, except in the force phases where his opponent decides."""
    if state.phase == OVER:
        return ()
    if state.phase in (FORCE_OFFER, FORCE_REJECT):
        return (other(state.turn),)
    return (state.turn,)


def stake(state: ConquianState) -> int:
    """Units the current deal is worth after ``draws_in_a_row`` drawn deals (seeds/conquian.md 6.2)."""
    k = state.draws_in_a_row
    return 1 + k if state.rules.draw_multiplier == "additive" else 2**k


def fits(state: ConquianState, seat: int, card: str) -> bool:
    """Whether ``card`` fits ``seat``'s melds, so that he can be forced to add it (seeds/conquian.md 5)."""
    melds = state.melds[seat]
    if not melds:
        return False
    r = state.rules
    if fits_simple(melds, card, r.max_sequence_len):
        return True
    if r.force_fit_includes_rearrangement:
        return find_arrangement((*melded_cards(melds), card), (), r.max_sequence_len) is not None
    return False


# --- legal moves (seeds/conquian.md 4.3) -----------------------------------------------------------


def _meld_target(state: ConquianState) -> tuple[str | None, bool, bool]:
    """For a meld now: the card it must include, whether hand cards may join, whether the card is required."""
    r = state.rules
    if state.phase == CHOOSE:
        return state.offer, True, True
    if state.phase == TURNED:
        return state.face_up, True, not r.meld_from_hand_without_upcard
    if state.phase == FORCED:
        return state.face_up, r.forced_may_meld_extra, True
    return None, False, True


def _new_cards(arrangement: Arrangement, melded: Sequence[str]) -> set[str]:
    return set(melded_cards(arrangement)) - set(melded)


def _complete(
    found: list[Arrangement], melded: Sequence[str], base: Sequence[str], targets: Sequence[str],
    joinable: Sequence[str], cap: int | None,
) -> None:
    """Append to ``found`` one searched arrangement for each of ``targets`` that no entry melds yet.

    The arrangement holds the melded cards, ``base`` (the card to be melded, or nothing), the target
    and any of ``joinable``; the search may rearrange the melds and add further cards (seeds/conquian.md
    4.3 (c)). A target that forms no meld with the cards available is skipped without a search; when a
    card of ``base`` is the target and cannot be melded, nothing is searched further.
    """
    covered: set[str] = set().union(*(_new_cards(a, melded) for a in found)) if found else set()
    for target in targets:
        if target in covered:
            continue
        spare = [c for c in joinable if c != target]
        arrangement = None
        if melds_containing(target, (*melded, *base, *spare), cap):
            arrangement = find_arrangement((*melded, *base, target), spare, cap)
        if arrangement is not None:
            found.append(arrangement)
            covered |= _new_cards(arrangement, melded)
        elif target in base:
            return  # the card cannot be melded at all, so no hand card can be melded with it


def listed_melds(state: ConquianState) -> list[Arrangement]:
    """The listed meld moves of the seat to move, as arrangements (seeds/conquian.md 4.3).

    For the card to be melded: (a) each lay-off on one existing meld; (b) when hand cards may join,
    each new meld of that card with hand cards (all groups, all sequences); (c) for the card and then
    each joinable hand card in hand order that (a), (b) and earlier (c) entries do not meld yet, the
    first arrangement a search finds that melds it with the card (rearranging the melds, joining and
    laying off hand cards in one move). So every card that some legal meld adds is in a listed one.
    With ``meld_from_hand_without_upcard``, in phase ``turned`` also (d) each lay-off of one hand card,
    each new meld of hand cards alone, and (e) as (c) for each hand card, without the turned card.
    """
    card, hand_ok, _ = _meld_target(state)
    if card is None:
        return []
    seat = state.turn
    melds = state.melds[seat]
    melded = melded_cards(melds)
    hand = state.hands[seat]
    joinable = hand if hand_ok else ()
    cap = state.rules.max_sequence_len
    found = layoffs(melds, card, cap)
    found += [canonical((*melds, m)) for m in melds_containing(card, joinable, cap)]
    _complete(found, melded, (card,), (card, *joinable), joinable, cap)
    if state.phase == TURNED and state.rules.meld_from_hand_without_upcard:
        alone: list[Arrangement] = []
        for h in hand:
            alone += layoffs(melds, h, cap)
        # each new meld of hand cards alone, built from its lowest card so that none is listed twice
        for h in hand:
            alone += [canonical((*melds, m)) for m in melds_containing(h, hand, cap) if m[0] == h]
        _complete(alone, melded, (), hand, hand, cap)
        found += alone
    seen: set[Arrangement] = set()
    out = []
    for a in found:
        if a not in seen:
            seen.add(a)
            out.append(a)
    return out


def legal_moves(state: ConquianState, seat: int) -> tuple[Move, ...]:
    """Every listed move of ``seat`` (to move); all of them apply as they are (seeds/conquian.md 4)."""
    phase = state.phase
    if phase in (FORCE_OFFER, FORCE_REJECT):
        return (ConquianForce(), ConquianDeclineForce())
    if phase == DISCARD:
        return tuple(ConquianDiscard(card=c) for c in state.hands[seat])
    moves: list[Move] = [ConquianMeld(melds=a) for a in listed_melds(state)]
    if phase == CHOOSE:
        moves.append(ConquianDraw() if state.stock else ConquianPass())
    elif phase == TURNED:
        moves.append(ConquianReject())
    assert moves, f"no legal move in phase {phase}"
    return tuple(moves)


# --- apply ---------------------------------------------------------------------------------------


def _wrong_phase(move: Move, state: ConquianState) -> IllegalMove:
    return IllegalMove("wrong_phase", f"a {move.type} move is not allowed in phase {state.phase}")


def _check_meld(state: ConquianState, seat: int, move: ConquianMeld) -> tuple[Arrangement, tuple[str, ...], bool]:
    """Validate a meld move atomically (seeds/conquian.md 3 and 4).

    Returns the new canonical arrangement, the hand cards it uses, and whether it melds the
    offered/face-up card. Raises IllegalMove with the first problem found.
    """
    if state.phase not in (CHOOSE, TURNED, FORCED):
        raise _wrong_phase(move, state)
    card, hand_ok, card_required = _meld_target(state)
    if card is None:
        raise IllegalMove("no_offer", "there is no offered card to meld; turn the stock card instead")
    melds = move.melds
    if not isinstance(melds, tuple) or not all(
        isinstance(m, tuple) and all(isinstance(c, str) for c in m) for m in melds
    ):
        raise IllegalMove("malformed_move", "melds must be a list of lists of card codes")
    flat = [c for m in melds for c in m]
    for c in flat:
        if c not in CARDS:
            raise IllegalMove("unknown_card", f"{c!r} is not a Conquian card")
    if len(set(flat)) != len(flat):
        raise IllegalMove("duplicate_card", "a card appears more than once in the melds")
    old = melded_cards(state.melds[seat])
    given = set(flat)
    if any(c not in given for c in old):
        raise IllegalMove("melded_card_missing", "every card already melded must stay in the melds")
    old_set = set(old)
    new = [c for c in flat if c not in old_set]
    has_card = card in new
    if card_required and not has_card:
        raise IllegalMove("card_not_melded", f"the melds must include {card}")
    hand_used = tuple(c for c in new if c != card)
    hand = state.hands[seat]
    for c in hand_used:
        if c not in hand:
            raise IllegalMove("card_not_in_hand", f"{c} is not in your hand")
    if hand_used and not hand_ok:
        raise IllegalMove("hand_cards_not_allowed", "a forced player adds only the forced card")
    if not has_card and not hand_used:
        raise IllegalMove("nothing_melded", "the melds add no card")
    cap = state.rules.max_sequence_len
    for m in melds:
        if meld_kind(m, cap) is None:
            if cap is not None and is_long_sequence(m):
                raise IllegalMove("sequence_too_long", f"a sequence may hold at most {cap} cards")
            raise IllegalMove("invalid_meld", f"{'-'.join(m) or 'an empty meld'} is neither a group nor a sequence")
    return canonical(melds), hand_used, has_card


def _offer_to(state: ConquianState, receiver: int, card: str, ev: list[Event] | None) -> ConquianState:
    """Make ``card`` the offer to ``receiver``; open force window F1 if it fits his melds (section 5)."""
    assert state.offer is None
    force = state.rules.forcing_enabled and fits(state, receiver, card)
    if force and ev is not None:
        ev.append(events.ForceWindow(other(receiver), receiver, card, "offer").event())
    return replace(state, turn=receiver, offer=card, face_up=None, phase=FORCE_OFFER if force else CHOOSE)


def apply(state: ConquianState, seat: int, move: Move, ev: list[Event] | None) -> ConquianState:
    """The state after ``seat`` (to move) makes ``move`` (seeds/conquian.md 4-6); IllegalMove otherwise.

    When ``ev`` is a list, what the move causes is appended to it as events (section 11; every
    event is public: only the cards of a new deal are private)."""
    phase = state.phase
    if isinstance(move, ConquianMeld):
        arrangement, hand_used, has_card = _check_meld(state, seat, move)
        if ev is not None:
            ev.append(events.meld(state, seat, arrangement, hand_used, has_card))
        hands = list(state.hands)
        rest = remove_cards(state.hands[seat], hand_used)
        assert rest is not None
        hands[seat] = rest
        melds = list(state.melds)
        melds[seat] = arrangement
        after = replace(state, hands=(hands[0], hands[1]), melds=(melds[0], melds[1]))
        if not has_card:  # hand cards alone (meld_from_hand_without_upcard); the turned card still waits
            return after
        after = replace(after, offer=None, face_up=None)
        if len(melded_cards(arrangement)) == WINNING_MELD_COUNT:
            return _end_deal(after, seat, ev)
        return replace(after, phase=DISCARD)
    if isinstance(move, ConquianDraw):
        if phase != CHOOSE:
            raise _wrong_phase(move, state)
        if not state.stock:
            raise IllegalMove("stock_empty", "the stock is empty; take the offered card or pass")
        top = state.stock[0]
        if ev is not None:
            if state.offer is not None:
                ev.append(events.Buried(seat, state.offer).event())
            ev.append(events.Turned(seat, top, len(state.stock) - 1).event())
        dead = state.dead if state.offer is None else (*state.dead, state.offer)
        return replace(state, phase=TURNED, face_up=top, stock=state.stock[1:], offer=None, dead=dead)
    if isinstance(move, ConquianReject):
        if phase != TURNED:
            raise _wrong_phase(move, state)
        turned = state.face_up
        assert turned is not None
        if ev is not None:
            ev.append(events.Rejected(seat, turned).event())
        if state.rules.forcing_enabled and fits(state, seat, turned):
            if ev is not None:
                ev.append(events.ForceWindow(other(seat), seat, turned, "reject").event())
            return replace(state, phase=FORCE_REJECT)
        return _offer_to(replace(state, face_up=None), other(seat), turned, ev)
    if isinstance(move, ConquianDiscard):
        if phase != DISCARD:
            raise _wrong_phase(move, state)
        hand = state.hands[seat]
        if not isinstance(move.card, str) or move.card not in hand:
            raise IllegalMove("card_not_in_hand", f"{move.card} is not in your hand")
        if ev is not None:
            ev.append(events.Discarded(seat, move.card).event())
        hands = list(state.hands)
        hands[seat] = tuple(c for c in hand if c != move.card)
        return _offer_to(replace(state, hands=(hands[0], hands[1])), other(seat), move.card, ev)
    if isinstance(move, ConquianPass):
        if phase != CHOOSE:
            raise _wrong_phase(move, state)
        if state.stock:
            raise IllegalMove("stock_not_empty", "passing is allowed only when the stock is empty")
        if ev is not None:
            ev.append(events.Passed(seat, state.offer).event())
        return _end_deal(state, None, ev)
    assert isinstance(move, ConquianForce | ConquianDeclineForce), move
    if phase not in (FORCE_OFFER, FORCE_REJECT):
        raise _wrong_phase(move, state)
    card = state.offer if phase == FORCE_OFFER else state.face_up
    assert card is not None
    forcing = isinstance(move, ConquianForce)
    if ev is not None:
        ev.append((events.Forced if forcing else events.ForceDeclined)(seat, state.turn, card).event())
    if forcing:
        return replace(state, phase=FORCED, face_up=card, offer=None)
    if phase == FORCE_OFFER:
        return replace(state, phase=CHOOSE)
    return _offer_to(replace(state, face_up=None), other(state.turn), card, ev)


# --- end of a deal and of the match (seeds/conquian.md 6) -----------------------------------------


def _end_deal(state: ConquianState, winner: int | None, ev: list[Event] | None) -> ConquianState:
    """Score the deal, then end the match or deal the next deal (section 6)."""
    units = stake(state)
    r = state.rules
    if winner is None:
        scores = state.scores
    else:
        s = list(state.scores)
        s[winner] += units
        scores = (s[0], s[1])
    summary = DealSummary(
        deal=state.deal,
        dealer=state.dealer,
        outcome="drawn" if winner is None else "won",
        winner=winner,
        stake=units,
        melds=state.melds,
        stock_left=len(state.stock),
        hand_counts=(len(state.hands[0]), len(state.hands[1])),
        dead=state.dead,
        discard=state.offer,
        scores=scores,
    )
    if ev is not None:
        ev.append(events.DealEnded(events.deal_summary_json(summary)).event())
    if winner is None:
        after = replace(
            state, last_deal=summary, draws_in_a_row=state.draws_in_a_row + 1, drawn_deals=state.drawn_deals + 1
        )
    else:
        after = replace(state, last_deal=summary, scores=scores, draws_in_a_row=0)
    if winner is not None and scores[winner] >= r.target:
        return replace(after, phase=OVER, end="target")
    if r.max_deals is not None and state.deal >= r.max_deals:
        return replace(after, phase=OVER, end="max_deals")
    if winner is None or r.dealer_rotation == "alternate":
        dealer = other(state.dealer)
    elif r.dealer_rotation == "loser_deals":
        dealer = other(winner)
    else:
        dealer = winner
    cards = shuffled(DECK, state.seed, f"deal/{state.deal + 1}")
    nxt = _start_deal(after, dealer, cards)
    if ev is not None:
        ev.append(events.Dealt(nxt.deal, nxt.dealer, nxt.turn, stake(nxt), [len(h) for h in nxt.hands],
                               len(nxt.stock), dict(enumerate(nxt.hands))).event())
    return nxt


def result(state: ConquianState) -> Result | None:
    """None while the match runs; the match result once it is over (seeds/conquian.md 6.3)."""
    if state.phase != OVER:
        return None
    a, b = state.scores
    if a == b:
        winners: tuple[int, ...] = ()
        losers: tuple[int, ...] = ()
    else:
        w = 0 if a > b else 1
        winners, losers = (w,), (other(w),)
    return Result(
        status="finished",
        winners=winners,
        losers=losers,
        scores=state.scores,
        detail={
            "end": state.end,
            "deals_played": state.deal,
            "drawn_deals": state.drawn_deals,
            "target": state.rules.target,
        },
    )
