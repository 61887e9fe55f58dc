"""Kanaster's rules: the deal with the cut, red 3s, the phases of a turn, the end of a hand and
the match (seeds/kanaster.md; section numbers below refer to it).

Every move kind has one function that checks it (``_CHECKS``) and one that builds the next state
after running that check (``_APPLY``); ``legal_moves`` lists candidate moves and keeps those the
check accepts, so a listed move always applies and ``apply`` refuses a move for the same reason
whether it was listed or not. The listing builds no state: what a check answers (legal, and the
cards the mover then holds) is all it asks of a candidate.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from itertools import chain
from typing import Any, NamedTuple

from engines.cards import CODES, SUITS, shuffled, standard_deck
from engines.core import Event, IllegalMove, InvalidOptions, Move, Result, deal_from
from engines.core import evolve as replace
from engines.memo import Kept

from . import events
from .candidates import (
    CandidateCards,
    Groups,
    Melds,
    candidate_cards,
    most_points,
    new_meld_candidates_by_budget,
    round_robin,
    single_meld_candidates,
)
from .melds import (
    BLACK_THREE_RANK,
    CANASTA_SIZE,
    MELD_SIZE,
    NATURAL_RANKS,
    RED_THREES,
    held_without,
    is_black_three,
    is_canasta,
    is_red_three,
    is_wild,
    lay_off,
    lay_off_size,
    meld_rank,
    natural_rank,
    points,
    sort_hand,
    take,
    wild_count,
)
from .moves import Discard, Draw, EndHand, LayOff, MeldCards, TakePile, TakePileLayOff, Tuck
from .options import Rules
from .scoring import minimum_meld, score_hand
from .state import ABORTED, DRAW, FINISHED, PLAY, HandRecord, HandTable, KanasterState, Meld

#: Every reason the rules of Kanaster refuse a move for (``IllegalMove.reason``), with what it means:
#: the ``illegal_move`` answer's ``reason``. Core's own (``engines.core.CORE_REASONS``) come on top.
REASONS: Mapping[str, str] = {
    "already_drawn": "The mover has drawn (or taken the pile) this turn already: meld, lay off or discard.",
    "must_draw_first": "The turn starts with drawing from the talon or taking the pile.",
    "unknown_card": "A card named is not a card code of the game.",
    "no_melds": "The move names no meld.",
    "no_such_meld": "No meld on the table has that id.",
    "black_threes_not_meldable": "Black 3s are never melded (the game's options say so).",
    "black_threes_only_going_out": "Black 3s are melded only in the move that goes out.",
    "must_keep_a_card": "The move would empty the hand: one card must stay for the discard.",
    "canasta_needed_to_go_out": "Going out needs a canasta of the mover's own.",
    "below_minimum_meld": "The first meld of a hand does not reach the minimum count the mover's score asks for.",
    "no_meld_after_taking_pile": "After taking the pile only tucking and the discard remain (the game's options "
                                 "say so).",
    "talon_empty": "The talon is empty: take the pile or end the hand.",
    "pile_blocked": "The pile may not be taken now: it is empty, or a wild card, a 3 or a blocking card (a rank "
                    "with a canasta) lies on top.",
    "top_card_not_melded": "Taking the pile needs a meld that holds the pile's top card.",
    "pile_frozen": "The pile is frozen: it is taken only with two natural cards of the top card's rank.",
    "not_own_meld": "Cards go only onto the mover's own melds (and, under the options, only under his own "
                    "canasta).",
    "pile_not_taken": "Only the player who took the pile this turn may tuck.",
    "no_cards": "The move names no card.",
    "not_a_canasta": "Blocking cards are tucked only under a canasta.",
    "card_does_not_fit": "A card does not match the meld's rank (only black 3s go onto a meld of black 3s).",
    "not_from_pile": "Only cards taken with the pile this turn may be tucked.",
    "talon_not_empty": "A hand ends by declining the pile only once the talon is empty.",
    "must_take_pile": "The pile's top card fits one of the mover's melds, so the pile must be taken (option "
                      "`stock_exhausted` is `forced_lay_off`).",
    "meld_too_small": "A new meld needs at least three cards.",
    "red_three_not_meldable": "Red 3s are laid out, never melded.",
    "black_threes_alone": "Black 3s are melded only among themselves, without wild cards.",
    "no_natural_card": "A meld needs natural cards, not only wild ones.",
    "mixed_ranks": "The natural cards of a meld must all have one rank.",
    "too_many_wild_cards": "A meld needs more natural cards than wild ones.",
    "card_not_in_hand": "A card named is not in the mover's hand (as often as named).",
}


#: Where a move's events go, in order, while the rules apply it; None (``apply``, the listing of
#: legal moves) builds none, so that the hot path pays nothing for them (section 18).
Events = list[Event] | None

# --- setup (section 3) ---------------------------------------------------------------------


def full_deck(rules: Rules) -> tuple[str, ...]:
    """``decks`` packs of 52 cards, each with its jokers (2 for 2-3 players, 3 for 4-5)."""
    return standard_deck(jokers=rules.jokers_per_deck) * rules.decks


def deal(
    players: int, rules: Rules, deck: Sequence[str], dealer: int
) -> tuple[tuple[tuple[str, ...], ...], tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """Deal one hand from ``deck`` (top card first, already shuffled and cut); section 3.

    The deck's last cards are the cut face: while the bottom card is a 2 or a joker the cutter
    (the player before the dealer) keeps it and looks at the next one up. Then the cards are
    dealt one at a time from the top, starting left of the dealer and going round; a player who
    holds ``cards_per_player`` cards is passed over, so the cutter gets as many fewer as he
    kept. The next card opens the pile; while the pile's top is a 2, a joker or a red 3 it is
    covered with the next talon card. Returns (hands, talon, pile bottom first, cut cards).
    """
    n = rules.cards_per_player
    cutter = (dealer - 1) % players
    cards = list(deck)
    cut: list[str] = []
    if rules.cut_bonus:
        while cards and is_wild(cards[-1]) and len(cut) < n:
            cut.append(cards.pop())
    hands: list[list[str]] = [[] for _ in range(players)]
    hands[cutter] = list(cut)
    pos = 0
    seat = (dealer + 1) % players
    while any(len(h) < n for h in hands):
        if len(hands[seat]) < n:
            hands[seat].append(cards[pos])
            pos += 1
        seat = (seat + 1) % players
    talon = cards[pos:]
    pile = [talon.pop(0)]
    while talon and (is_wild(pile[-1]) or is_red_three(pile[-1])):
        pile.append(talon.pop(0))
    return tuple(sort_hand(h) for h in hands), tuple(talon), tuple(pile), tuple(cut)


def _rules(players: int, options: Mapping[str, Any]) -> Rules:
    """The match's rules from the resolved options: ``decks`` null is 2 packs for 2-3 players, 3 for 4-5."""
    resolved = dict(options)
    if resolved["decks"] is None:
        resolved["decks"] = 2 if players <= 3 else 3
    return Rules(**resolved)


def pack(players: int, options: Mapping[str, Any]) -> tuple[str, ...]:
    """The cards in play: every pack of the match with its jokers (section 2)."""
    return full_deck(_rules(players, options))


def new_game(players: int, options: Mapping[str, Any], seed: str, deck: Sequence[str] | None) -> KanasterState:
    """Set up a match and deal its first hand; seat 0 deals it (section 3).

    ``deck`` (top card first) replaces ``shuffled(full deck, seed, "deal")`` for the first hand
    only; later hands shuffle the same cards with purpose ``deal/<hand number>``.
    """
    rules = _rules(players, options)
    cards = pack(players, options)
    if players * rules.cards_per_player + 20 > len(cards):  # unreachable within the option bounds
        raise InvalidOptions({"options.cards_per_player": "too many cards for the packs in play"})
    order = deal_from(deck, cards, seed)
    empty = tuple(() for _ in range(players))
    base = KanasterState(
        players=players,
        rules=rules,
        seed=seed,
        hand_number=0,
        dealer=0,
        cut=(),
        scores=(0,) * players,
        hands=empty,
        talon=(),
        pile=(),
        melds=(),
        red_threes=empty,
        started=(False,) * players,
        current=0,
        phase=DRAW,
        took_pile=False,
        pile_taken=(),
        first_meld_turn=False,
        turns=0,
        history=(),
        last_hand=None,
    )
    return _start_hand(base, 1, 0, order)


def _start_hand(state: KanasterState, number: int, dealer: int, deck: Sequence[str], ev: Events = None
                ) -> KanasterState:
    """Deal hand ``number``; the player left of the dealer begins (section 3). Events: ``dealt``,
    ``turned``, then the first player's red 3s."""
    hands, talon, pile, cut = deal(state.players, state.rules, deck, dealer)
    empty = tuple(() for _ in range(state.players))
    fresh = replace(
        state,
        hand_number=number,
        dealer=dealer,
        cut=cut,
        hands=hands,
        talon=talon,
        pile=pile,
        melds=(),
        red_threes=empty,
        started=(False,) * state.players,
    )
    if ev is not None:
        ev.extend(events.dealt(fresh))
    return _start_turn(fresh, (dealer + 1) % state.players, ev)


# --- red 3s (section 4) --------------------------------------------------------------------


def _receive(
    hand: Sequence[str], talon: tuple[str, ...], area: tuple[str, ...], incoming: Sequence[str], seat: int,
    ev: Events,
) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...], int]:
    """Put ``incoming`` talon cards into ``seat``'s hand; each red 3 among them is laid out and
    replaced by the next talon card (again and again; a ``red_three`` event each time). Returns
    (hand, talon, red 3 area, number of cards that reached the hand)."""
    cards = list(hand)
    reds = list(area)
    received = 0
    pending = list(incoming)
    while pending:
        new_reds = [c for c in pending if is_red_three(c)]
        normal = [c for c in pending if not is_red_three(c)]
        cards.extend(normal)
        received += len(normal)
        reds.extend(new_reds)
        pending = list(talon[: len(new_reds)])
        talon = talon[len(new_reds):]
        if new_reds and ev is not None:
            ev.append(events.red_three(seat, new_reds, pending, events.FROM_TALON))
    return sort_hand(cards), talon, tuple(reds), received


def _start_turn(state: KanasterState, seat: int, ev: Events = None, **changes: Any) -> KanasterState:
    """Begin ``seat``'s turn, with ``changes`` (what ended the turn before changed: built into the same
    new state). At a player's first turn of the hand his red 3s are laid out and replaced from the
    talon ("beim ersten Ausspielen ... herausgelegt und durch eine Neue vom Talon ersetzt"), so that
    he starts with a full hand."""
    state = replace(state, current=seat, phase=DRAW, took_pile=False, pile_taken=(), first_meld_turn=False,
                    **changes)
    if state.started[seat]:
        return state
    hand = state.hands[seat]
    reds = [c for c in hand if is_red_three(c)]
    started = _set(state.started, seat, True)
    if not reds:
        return replace(state, started=started)
    keep = [c for c in hand if not is_red_three(c)]
    area = state.red_threes[seat] + tuple(reds)
    replacements = state.talon[: len(reds)]
    if ev is not None:
        ev.append(events.red_three(seat, reds, replacements, events.FROM_HAND))
    new_hand, talon, area, _ = _receive(keep, state.talon[len(reds):], area, replacements, seat, ev)
    return replace(
        state,
        started=started,
        hands=_set(state.hands, seat, new_hand),
        talon=talon,
        red_threes=_set(state.red_threes, seat, area),
    )


# --- helpers ----------------------------------------------------------------------------------


def _set(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return values[:index] + (value,) + values[index + 1:]


class _Table(NamedTuple):
    """What the rules ask again and again of one table's melds (``_table``)."""

    melded: frozenset[int]  # seats with a meld
    canasta: frozenset[int]  # seats with a canasta
    canasta_ranks: frozenset[str]  # ranks with a canasta (anyone's)
    canastas: frozenset[tuple[int, str]]  # (owner, rank) of every canasta


#: The last table asked about (its melds tuple, and what it answers). A move's checks ask it again and
#: again while the legal moves are listed, and a view asks it per seat; a table's tuple is never
#: changed, and the one kept here cannot be collected meanwhile, so its identity is enough.
_seen: tuple[tuple[Meld, ...], _Table] = ((), _Table(frozenset(), frozenset(), frozenset(), frozenset()))
#: The tables asked about before, by their melds tuple's identity: the matches on one worker take turns
#: (and a state decoded anew holds the tuple decoded before, ``engines.snapshot.shared``).
_tables: Kept[tuple[Meld, ...], _Table] = Kept(256)


_NONE: frozenset[Any] = frozenset()


def _table(melds: tuple[Meld, ...]) -> _Table:
    global _seen
    if _seen[0] is melds:
        return _seen[1]
    seen = _tables.get(melds)
    if seen is None:
        # (lists, not generators: most tables asked are new ones, most often without a canasta)
        canastas = frozenset([(m.owner, m.rank) for m in melds if is_canasta(m)])
        owners = frozenset([m.owner for m in melds])
        if canastas:
            seen = _Table(owners, frozenset([o for o, _ in canastas]), frozenset([r for _, r in canastas]), canastas)
        else:
            seen = _Table(owners, _NONE, _NONE, _NONE)
        _tables.put(melds, seen)
    _seen = (melds, seen)
    return seen


def has_melded(state: KanasterState, seat: int) -> bool:
    return seat in _table(state.melds).melded


def has_canasta(state: KanasterState, seat: int) -> bool:
    return seat in _table(state.melds).canasta


def canasta_ranks(state: KanasterState) -> frozenset[str]:
    """The ranks with a canasta on the table (anyone's)."""
    return _table(state.melds).canasta_ranks


def blocking_ranks(state: KanasterState, seat: int) -> frozenset[str]:
    """Ranks that are blocking cards (Sperrkarten) for ``seat``: a canasta of that rank lies on
    the table (anyone's, or with sperr_scope=own only ``seat``'s); section 7."""
    table = _table(state.melds)
    if state.rules.sperr_scope == "own":
        return frozenset(r for o, r in table.canastas if o == seat)
    return table.canasta_ranks


def pile_frozen(state: KanasterState) -> bool:
    """Option wild_discard_freezes_pile: a wild card anywhere in the pile freezes it (section 7)."""
    return state.rules.wild_discard_freezes_pile and any(is_wild(c) for c in state.pile)


def pile_block(state: KanasterState, seat: int) -> str | None:
    """Why ``seat`` may not take the pile because of its top card, or None (section 7)."""
    if not state.pile:
        return "the pile is empty"
    top = state.pile[-1]
    if is_wild(top):
        return "a wild card on top blocks the pile"
    if is_black_three(top) or is_red_three(top):
        return "a 3 on top blocks the pile"
    if natural_rank(top) in blocking_ranks(state, seat):
        return "a blocking card (its rank has a canasta) is on top of the pile"
    return None


def _require_phase(state: KanasterState, phase: str) -> None:
    """The move belongs to the phase of the turn (section 5): drawing first, then melding and discarding."""
    if state.phase != phase:
        if phase == DRAW:
            raise IllegalMove("already_drawn", "you have drawn this turn; meld, lay off or discard")
        raise IllegalMove("must_draw_first", "draw from the talon or take the pile first")


def _cards_arg(cards: Any) -> tuple[str, ...]:
    if isinstance(cards, tuple | list):
        try:
            if CODES.issuperset(cards):  # (a str subclass counts as the code it equals)
                return tuple(cards)
        except TypeError:  # something unhashable among them: no card code
            pass
    raise IllegalMove("unknown_card", "cards must be card codes such as 'KH' or 'JK'")


def _melds_arg(melds: Any) -> tuple[tuple[str, ...], ...]:
    if not isinstance(melds, tuple | list) or not melds:
        raise IllegalMove("no_melds", "name at least one meld")
    if type(melds) is tuple and all(type(m) is tuple for m in melds):  # a move as built: all at once
        try:
            if CODES.issuperset(chain.from_iterable(melds)):
                return melds
        except TypeError:  # something unhashable among them: ``_cards_arg`` says so
            pass
    return tuple(_cards_arg(m) for m in melds)


def _meld_at(state: KanasterState, index: Any) -> Meld:
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(state.melds):
        raise IllegalMove("no_such_meld", "no meld on the table has that id")
    return state.melds[index]


def _new_meld_ranks(state: KanasterState, melds: Sequence[Sequence[str]]) -> tuple[str, ...]:
    """The rank of each new meld, each checked (``meld_rank``; black 3s only by option)."""
    out = []
    for cards in melds:
        rank = meld_rank(cards)
        if rank == BLACK_THREE_RANK and not state.rules.black3_meld_on_going_out:
            raise IllegalMove("black_threes_not_meldable", "black 3s are never melded (option)")
        out.append(rank)
    return tuple(out)


def _new_melds(seat: int, melds: Sequence[Sequence[str]]) -> tuple[Meld, ...]:
    """The new melds of a checked move (``_new_meld_ranks``)."""
    return tuple(Meld(seat, meld_rank(cards), sort_hand(cards)) for cards in melds)


def _check_remaining(held: int, canasta_after: bool, black_threes: bool) -> None:
    """After melding a player must keep a card to discard (he holds ``held``); keeping only one
    means going out, which needs a canasta; black 3s are melded only in that going-out move
    (section 6)."""
    if black_threes and held != 1:
        raise IllegalMove("black_threes_only_going_out", "black 3s are melded only when going out")
    if not held:
        raise IllegalMove("must_keep_a_card", "one card must stay in the hand for the discard")
    if held == 1 and not canasta_after:
        raise IllegalMove("canasta_needed_to_go_out", "going out needs a canasta of your own")


def _check_minimum(state: KanasterState, seat: int, cards: Sequence[str]) -> None:
    need = minimum_meld(state.scores[seat], state.rules)
    got = points(cards)
    if got < need:
        raise IllegalMove("below_minimum_meld", f"a first meld needs {need} points; this one counts {got}")


def _require_meld_allowed(state: KanasterState) -> None:
    if state.took_pile and not state.rules.meld_after_taking_pile:
        raise IllegalMove("no_meld_after_taking_pile", "after taking the pile only tucking and the discard remain "
                          "(option)")


def _pile_rest(state: KanasterState) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The pile under its top card, split into (cards for the hand, red 3s to lay out unreplaced)."""
    rest = state.pile[:-1]
    return tuple(c for c in rest if not is_red_three(c)), tuple(c for c in rest if is_red_three(c))


def _pile_normal_count(state: KanasterState) -> int:
    """How many cards of the pile under its top card would go into the hand (all but red 3s)."""
    rest = state.pile[:-1]
    return len(rest) - sum(map(rest.count, RED_THREES))


# --- moves (section 5) ------------------------------------------------------------------------
#
# Each kind of move has one function that checks it (``_check_*``: IllegalMove when refused, and
# nothing built) and one that builds the state after it, which runs the check first and then
# cannot refuse. The listing of legal moves runs only the checks (``_CHECKS``): what a check
# answers is all it asks of a candidate, and building a state for each was most of its cost.

#: A check's answer for a move after which the mover cannot hold exactly one card in the same
#: turn: a draw adds a card to a hand of one or more; a discard and ``end_hand`` end the turn.
NO_SINGLE_CARD = -1


def _check_draw(state: KanasterState, seat: int, move: Draw) -> int:
    _require_phase(state, DRAW)
    if not state.talon:
        raise IllegalMove("talon_empty", "the talon is empty: take the pile or end the hand")
    return NO_SINGLE_CARD


def _draw(state: KanasterState, seat: int, move: Draw, ev: Events) -> KanasterState:
    """Take the talon's top card; red 3s are laid out and replaced. If the talon runs out while
    replacing, so that no card reaches the hand, the hand ends at once (section 11)."""
    _check_draw(state, seat, move)
    if ev is not None:
        ev.append(events.drew(seat, state.talon[:1]))
    hand, talon, area, received = _receive(state.hands[seat], state.talon[1:], state.red_threes[seat],
                                           state.talon[:1], seat, ev)
    hands, red_threes = _set(state.hands, seat, hand), _set(state.red_threes, seat, area)
    if received == 0:
        return _end_hand(replace(state, hands=hands, talon=talon, red_threes=red_threes), None, False, ev)
    return replace(state, hands=hands, talon=talon, red_threes=red_threes, phase=PLAY)


def _take(state: KanasterState, seat: int, hand: tuple[str, ...], melds: tuple[Meld, ...], first: bool,
          ev: Events) -> KanasterState:
    """The pile goes into the hand (red 3s in it are laid out, not replaced; section 4)."""
    normal, reds = _pile_rest(state)
    if ev is not None:
        ev.append(events.TookPile(seat, state.pile[-1], normal).event())
        if reds:
            ev.append(events.red_three(seat, reds, (), events.FROM_PILE))
    return replace(
        state,
        hands=_set(state.hands, seat, sort_hand(hand + normal)),
        red_threes=_set(state.red_threes, seat, state.red_threes[seat] + reds),
        pile=(),
        melds=melds,
        phase=PLAY,
        took_pile=True,
        pile_taken=sort_hand(normal),
        first_meld_turn=first,
    )


def _check_take_pile(state: KanasterState, seat: int, move: TakePile) -> int:
    """Section 5.2; answers the cards held after taking the pile."""
    _require_phase(state, DRAW)
    melds = _melds_arg(move.melds)
    block = pile_block(state, seat)
    if block:
        raise IllegalMove("pile_blocked", block)
    top = state.pile[-1]
    where = next((i for i, m in enumerate(melds) if top in m), None)
    if where is None:
        raise IllegalMove("top_card_not_melded", "one of the melds must contain the pile's top card")
    from_hand = [c for m in melds for c in m]
    from_hand.remove(top)
    kept = held_without(state.hands[seat], from_hand)
    ranks = _new_meld_ranks(state, melds)
    if pile_frozen(state) and len(melds[where]) - wild_count(melds[where]) < 3:
        raise IllegalMove("pile_frozen", "a frozen pile is taken only with two natural cards of the top card's rank")
    if not has_melded(state, seat):
        _check_minimum(state, seat, [c for m in melds for c in m])
    held = kept + _pile_normal_count(state)
    canasta = has_canasta(state, seat) or any(len(m) >= CANASTA_SIZE for m in melds)
    _check_remaining(held, canasta, BLACK_THREE_RANK in ranks)
    return held


def _take_pile(state: KanasterState, seat: int, move: TakePile, ev: Events) -> KanasterState:
    """Take the pile by melding its top card with at least two hand cards; a first meld must
    reach the minimum with the cards of this move (section 5.2)."""
    _check_take_pile(state, seat, move)
    melds = _melds_arg(move.melds)
    from_hand = [c for m in melds for c in m]
    from_hand.remove(state.pile[-1])
    rest = take(state.hands[seat], from_hand)
    new = _new_melds(seat, melds)
    if ev is not None:
        ev.append(events.melded(seat, tuple(enumerate(new, len(state.melds)))))
    return _take(state, seat, rest, state.melds + new, not has_melded(state, seat), ev)


def _check_take_pile_lay_off(state: KanasterState, seat: int, move: TakePileLayOff) -> int:
    """Section 5.2; answers the cards held after taking the pile."""
    _require_phase(state, DRAW)
    block = pile_block(state, seat)
    if block:
        raise IllegalMove("pile_blocked", block)
    if pile_frozen(state):
        raise IllegalMove("pile_frozen", "a frozen pile is taken only with two natural cards of the top card's rank")
    meld = _meld_at(state, move.meld)
    if meld.owner != seat:
        raise IllegalMove("not_own_meld", "you may only add to your own melds")
    size = lay_off_size(meld, (state.pile[-1],))
    held = len(state.hands[seat]) + _pile_normal_count(state)
    canasta = has_canasta(state, seat) or size >= CANASTA_SIZE
    _check_remaining(held, canasta, False)
    return held


def _take_pile_lay_off(state: KanasterState, seat: int, move: TakePileLayOff, ev: Events) -> KanasterState:
    """Take the pile by laying its top card onto one of the mover's melds (section 5.2)."""
    _check_take_pile_lay_off(state, seat, move)
    top = state.pile[-1]
    meld = state.melds[move.meld]
    grown = Meld(meld.owner, meld.rank, lay_off(meld, (top,)), meld.tucked)
    if ev is not None:
        ev.append(events.laid_off(seat, move.meld, (top,), grown))
    return _take(state, seat, state.hands[seat], _set(state.melds, move.meld, grown), False, ev)


def _check_meld(state: KanasterState, seat: int, move: MeldCards) -> int:
    """Section 8; answers the cards held after the melds."""
    _require_phase(state, PLAY)
    _require_meld_allowed(state)
    melds = _melds_arg(move.melds)
    cards = [c for m in melds for c in m]
    held = held_without(state.hands[seat], cards)
    ranks = _new_meld_ranks(state, melds)
    table = _table(state.melds)
    canasta = seat in table.canasta or any(len(m) >= CANASTA_SIZE for m in melds)
    _check_remaining(held, canasta, BLACK_THREE_RANK in ranks)
    if seat not in table.melded:
        exempt = state.rules.concealed_exempt_from_minimum and not state.took_pile and held == 1
        if not exempt:
            _check_minimum(state, seat, cards)
    return held


def _meld(state: KanasterState, seat: int, move: MeldCards, ev: Events) -> KanasterState:
    """Lay out new melds from the hand; the first meld of the hand must reach the minimum in this
    one move (section 8)."""
    _check_meld(state, seat, move)
    melds = _melds_arg(move.melds)
    rest = take(state.hands[seat], [c for m in melds for c in m])
    new = _new_melds(seat, melds)
    if ev is not None:
        ev.append(events.melded(seat, tuple(enumerate(new, len(state.melds)))))
    return replace(
        state,
        hands=_set(state.hands, seat, rest),
        melds=state.melds + new,
        first_meld_turn=state.first_meld_turn or not has_melded(state, seat),
    )


def _check_lay_off(state: KanasterState, seat: int, move: LayOff) -> int:
    """Section 6; answers the cards held after laying off."""
    _require_phase(state, PLAY)
    _require_meld_allowed(state)
    meld = _meld_at(state, move.meld)
    cards = _cards_arg(move.cards)
    if meld.owner != seat:
        raise IllegalMove("not_own_meld", "you may only add to your own melds")
    size = lay_off_size(meld, cards)
    held = held_without(state.hands[seat], cards)
    canasta = has_canasta(state, seat) or size >= CANASTA_SIZE
    _check_remaining(held, canasta, meld.rank == BLACK_THREE_RANK)
    return held


def _lay_off(state: KanasterState, seat: int, move: LayOff, ev: Events) -> KanasterState:
    """Add hand cards to one of the mover's own melds (section 6)."""
    _check_lay_off(state, seat, move)
    meld = state.melds[move.meld]
    cards = _cards_arg(move.cards)
    grown = Meld(meld.owner, meld.rank, lay_off(meld, cards), meld.tucked)
    if ev is not None:
        ev.append(events.laid_off(seat, move.meld, cards, grown))
    return replace(state, hands=_set(state.hands, seat, take(state.hands[seat], cards)),
                   melds=_set(state.melds, move.meld, grown))


def _check_tuck(state: KanasterState, seat: int, move: Tuck) -> int:
    """Section 7; answers the cards held after tucking."""
    _require_phase(state, PLAY)
    if not state.took_pile:
        raise IllegalMove("pile_not_taken", "only the player who took the pile this turn may tuck")
    meld = _meld_at(state, move.meld)
    cards = _cards_arg(move.cards)
    if not cards:
        raise IllegalMove("no_cards", "name at least one card")
    if not is_canasta(meld):
        raise IllegalMove("not_a_canasta", "blocking cards are tucked only under a canasta")
    if state.rules.tuck_scope == "own_canasta" and meld.owner != seat:
        raise IllegalMove("not_own_meld", "blocking cards are tucked only under your own canasta (option)")
    if any(natural_rank(c) != meld.rank for c in cards):
        raise IllegalMove("card_does_not_fit", "a tucked card must have the canasta's rank")
    held = held_without(state.hands[seat], cards)
    came = Counter(state.pile_taken)
    came.subtract(cards)
    if any(v < 0 for v in came.values()):
        raise IllegalMove("not_from_pile", "only cards taken with the pile this turn may be tucked")
    _check_remaining(held, has_canasta(state, seat), False)
    return held


def _tuck(state: KanasterState, seat: int, move: Tuck, ev: Events) -> KanasterState:
    """Tuck blocking cards that came with the pile this turn under a canasta of their rank;
    they stay there without effect (section 7)."""
    _check_tuck(state, seat, move)
    meld = state.melds[move.meld]
    cards = _cards_arg(move.cards)
    grown = replace(meld, tucked=sort_hand(meld.tucked + cards))
    came = Counter(state.pile_taken)
    came.subtract(cards)
    if ev is not None:
        ev.append(events.Tucked(seat, move.meld, cards).event())
    return replace(
        state,
        hands=_set(state.hands, seat, take(state.hands[seat], cards)),
        melds=_set(state.melds, move.meld, grown),
        pile_taken=sort_hand(came.elements()),
    )


def _check_discard(state: KanasterState, seat: int, move: Discard) -> int:
    """Section 5.4."""
    _require_phase(state, PLAY)
    _cards_arg((move.card,))
    held_without(state.hands[seat], (move.card,))
    return NO_SINGLE_CARD


def _discard(state: KanasterState, seat: int, move: Discard, ev: Events) -> KanasterState:
    """Discard one card: the turn ends; the last card of the hand is going out (section 5.4)."""
    _check_discard(state, seat, move)
    card = move.card
    rest = take(state.hands[seat], (card,))
    hands, pile = _set(state.hands, seat, rest), state.pile + (card,)
    if ev is not None:
        ev.append(events.Discarded(seat, card).event())
    if not rest:
        assert has_canasta(state, seat), "a hand of one card without a canasta cannot reach the discard"
        return _end_hand(replace(state, hands=hands, pile=pile), seat, state.first_meld_turn, ev)
    return _end_turn(state, ev, hands=hands, pile=pile)


def _check_end_hand(state: KanasterState, seat: int, move: EndHand) -> int:
    """Section 11."""
    _require_phase(state, DRAW)
    if state.talon:
        raise IllegalMove("talon_not_empty", "the hand ends only when the talon is empty")
    if state.rules.stock_exhausted == "forced_lay_off":
        for i, m in enumerate(state.melds):
            if m.owner == seat and _accepts(state, seat, TakePileLayOff(i)):
                raise IllegalMove("must_take_pile", "the pile's top card fits one of your melds: take the pile")
    return NO_SINGLE_CARD


def _end_hand_move(state: KanasterState, seat: int, move: EndHand, ev: Events) -> KanasterState:
    """With the talon empty the player to move may decline the pile: the hand ends (section 11).
    With stock_exhausted=forced_lay_off he must take it when its top card fits one of his melds."""
    _check_end_hand(state, seat, move)
    return _end_hand(state, None, False, ev)


_APPLY: dict[type[Move], Callable[[KanasterState, int, Any, Events], KanasterState]] = {
    Draw: _draw,
    TakePile: _take_pile,
    TakePileLayOff: _take_pile_lay_off,
    MeldCards: _meld,
    LayOff: _lay_off,
    Tuck: _tuck,
    Discard: _discard,
    EndHand: _end_hand_move,
}

#: Per kind of move, its check alone: IllegalMove when refused, else how many cards the mover holds
#: after it while his turn goes on (``NO_SINGLE_CARD`` where that cannot be one card).
_CHECKS: dict[type[Move], Callable[[KanasterState, int, Any], int]] = {
    Draw: _check_draw,
    TakePile: _check_take_pile,
    TakePileLayOff: _check_take_pile_lay_off,
    MeldCards: _check_meld,
    LayOff: _check_lay_off,
    Tuck: _check_tuck,
    Discard: _check_discard,
    EndHand: _check_end_hand,
}


def apply(state: KanasterState, seat: int, move: Move, ev: Events) -> KanasterState:
    """The state after ``seat`` (to move) makes ``move``; IllegalMove (and nothing changed) otherwise.

    What the move caused is appended to ``ev`` in order (section 18): the move's own effect, then
    what the rules do by themselves (red 3s laid out and replaced, the count of a hand, the next
    deal). With ``ev`` None the same rules run without collecting events (a search)."""
    return _APPLY[type(move)](state, seat, move, ev)


def _accepts(state: KanasterState, seat: int, move: Move) -> bool:
    try:
        _CHECKS[type(move)](state, seat, move)
    except IllegalMove:
        return False
    return True


# --- end of a turn, a hand, the match (sections 9-11) ------------------------------------------


def _hands_capped(state: KanasterState) -> bool:
    """Option hand_cap: the match has played that many hands without reaching the target (section 10)."""
    cap = state.rules.hand_cap
    return cap is not None and len(state.history) >= cap


def _capped(rules: Rules, turns: int) -> bool:
    """Option max_turns: the match has played that many turns."""
    cap = rules.max_turns
    return cap is not None and turns >= cap


def _end_turn(state: KanasterState, ev: Events, **changes: Any) -> KanasterState:
    """The mover's turn ends, with ``changes`` (what his last move changed): the next one begins, in
    one new state built with all of it."""
    turns = state.turns + 1
    if _capped(state.rules, turns):
        return replace(state, turns=turns, phase=ABORTED, **changes)
    return _start_turn(state, (state.current + 1) % state.players, ev, turns=turns, **changes)


def _end_hand(state: KanasterState, went_out: int | None, concealed: bool, ev: Events) -> KanasterState:
    """Count the hand, write the totals, and either end the match or deal the next hand.

    Red 3s still in a hand (a player who never had his first turn) are laid out for the count.
    The match ends after a hand in which a total reaches the target, or after ``max_hands``.
    The record keeps the final table for the view until the next hand ends; events: those red 3s,
    ``hand_ended``, then the next deal's (section 18).
    """
    hands = list(state.hands)
    reds = list(state.red_threes)
    for s in range(state.players):
        found = tuple(c for c in hands[s] if is_red_three(c))
        if found:
            hands[s] = tuple(c for c in hands[s] if not is_red_three(c))
            reds[s] = reds[s] + found
            if ev is not None:
                ev.append(events.red_three(s, found, (), events.AT_COUNT))
    seats = score_hand(state.players, state.melds, hands, reds, went_out, concealed, state.rules)
    totals = tuple(a + b.total for a, b in zip(state.scores, seats, strict=True))
    history = state.history + (tuple(s.total for s in seats),)
    record = HandRecord(state.hand_number, went_out, concealed, seats, totals,
                        HandTable(state.melds, tuple(reds), state.pile, len(state.talon)))
    if ev is not None:
        ev.append(events.hand_ended(record))
    state = replace(
        state,
        hands=tuple(hands),
        red_threes=tuple(reds),
        scores=totals,
        history=history,
        last_hand=record,
        turns=state.turns + 1,
        took_pile=False,
        pile_taken=(),
        first_meld_turn=False,
    )
    rules = state.rules
    if any(t >= rules.target for t in totals) or (rules.max_hands is not None and len(history) >= rules.max_hands):
        return replace(state, phase=FINISHED)
    if _hands_capped(state) or _capped(rules, state.turns):
        return replace(state, phase=ABORTED)
    number = state.hand_number + 1
    deck = shuffled(full_deck(rules), state.seed, f"deal/{number}")
    return _start_hand(state, number, (state.dealer + 1) % state.players, deck, ev)


def result(state: KanasterState) -> Result | None:
    """Finished: the highest total wins (ties: co-winners). Aborted by hand_cap or max_turns: no winner."""
    if not state.over:
        return None
    rules = state.rules
    if state.phase == ABORTED:
        reason = "hand_cap" if _hands_capped(state) else "max_turns"
    elif any(t >= rules.target for t in state.scores):
        reason = "target"
    else:
        reason = "max_hands"
    detail = {
        "reason": reason,
        "hands_played": len(state.history),
        "target": rules.target,
        "hand_scores": [list(h) for h in state.history],
    }
    if state.phase == ABORTED:
        return Result("aborted", (), (), state.scores, detail)
    best = max(state.scores)
    winners = tuple(s for s in range(state.players) if state.scores[s] == best)
    losers = tuple(s for s in range(state.players) if state.scores[s] != best)
    return Result("finished", winners, losers, state.scores, detail)


# --- legal moves (section 13) -----------------------------------------------------------------


def _cards_of(move: Move) -> tuple[str, ...]:
    return _CARDS_OF.get(type(move), _no_cards)(move)


def _no_cards(move: Move) -> tuple[str, ...]:
    return ()


_CARDS_OF: dict[type[Move], Callable[[Any], tuple[str, ...]]] = {
    MeldCards: lambda move: tuple(chain.from_iterable(move.melds)),
    TakePile: lambda move: tuple(chain.from_iterable(move.melds)),
    LayOff: lambda move: move.cards,
    Tuck: lambda move: move.cards,
}


def _held_if_legal(state: KanasterState, seat: int, move: Move) -> int:
    """What ``_CHECKS`` answers for a well-formed candidate ``move`` if it is legal: the cards the
    mover then holds while his turn goes on (``NO_SINGLE_CARD`` where that cannot be one card)."""
    hand = len(state.hands[seat])
    if isinstance(move, MeldCards):
        return hand - sum(map(len, move.melds))
    if isinstance(move, LayOff | Tuck):
        return hand - len(move.cards)
    if isinstance(move, TakePile):
        return hand - sum(map(len, move.melds)) + 1 + _pile_normal_count(state)
    if isinstance(move, TakePileLayOff):
        return hand + _pile_normal_count(state)
    return NO_SINGLE_CARD


class _Listing:
    """Collects listed moves: every candidate is checked by the rules (``held_after``); ``plain``
    ones are listed whenever they are legal, the others only when they show a card not yet offered
    in a move of their kind, or are the first of their kind that leaves exactly one card (going out
    next)."""

    def __init__(self, state: KanasterState, seat: int) -> None:
        self.state, self.seat = state, seat
        self.moves: dict[Move, None] = {}
        self.shown: dict[str, set[str]] = {}  # per kind of move, the cards its listed moves show
        self.going_out: set[str] = set()
        # A first meld of the hand (``meld``, ``take_pile``) needs this many points (0: the mover has
        # melded): ``_check_minimum``, asked of a candidate before the rest of its check.
        table = _table(state.melds)
        self.minimum = 0 if seat in table.melded else minimum_meld(state.scores[seat], state.rules)
        # Candidates offered and not listed: True when the rules refuse them. The listing only grows
        # what a candidate is compared with (the cards shown, the kinds going out), so one passed
        # over stays passed over, and one refused stays refused: several targets of the new melds
        # write the same candidate, and it is judged once.
        self.refused: dict[Move, bool] = {}
        # What the checks of a plain meld or single-card lay-off ask beyond the cards themselves
        # (``_offer_plain``): the cards held before it, and whether the mover owns a canasta.
        self.hand = len(state.hands[seat])
        self.canasta = seat in table.canasta
        # What the plain take-pile candidates' checks ask of the pile (``_offer_take``), once asked:
        # the cards under its top that go into the hand, and whether it is frozen.
        self.pile: tuple[int, bool] | None = None

    def held_after(self, move: Move) -> int | None:
        """None when the rules refuse ``move``; else how many cards the mover holds after it while
        his turn goes on (another number when that cannot be one card): the move's checks only
        (``_CHECKS``), no state is built."""
        try:
            return _CHECKS[type(move)](self.state, self.seat, move)
        except IllegalMove:
            return None

    def offer(self, move: Move, plain: bool = False) -> bool:
        if plain:
            if type(move) is MeldCards or (type(move) is LayOff and len(move.cards) == 1):
                return self._offer_plain(move)
            if type(move) is TakePile or type(move) is TakePileLayOff:
                return self._offer_take(move)
            if type(move) is Draw and self.state.phase == DRAW and self.state.talon:  # ``_check_draw``
                self.moves[move] = None
                self.shown.setdefault(Draw.type, set())
                return True
        if move in self.moves:
            return True
        refused = self.refused.get(move)
        if refused is not None and (refused or not plain):
            return False
        kind = move.type
        cards = _cards_of(move)
        shown = self.shown.get(kind)
        if shown is None:
            shown = self.shown[kind] = set()
        known = not plain and shown.issuperset(cards)  # (a plain one is listed whenever it is legal)
        # A candidate that shows no new card is listed only if it leaves one card, the first of its
        # kind to: when it could not, whether it is legal does not matter.
        if known and (kind in self.going_out or _held_if_legal(self.state, self.seat, move) != 1):
            self.refused[move] = False
            return False
        held = None if self.minimum and self.below_minimum(move, cards) else self.held_after(move)
        if held is None:
            self.refused[move] = True
            return False
        out = held == 1
        if plain or not known or (out and kind not in self.going_out):
            self.moves[move] = None
            shown.update(cards)
            if out:
                self.going_out.add(kind)
            return True
        self.refused[move] = False
        return False

    def _offer_plain(self, move: MeldCards | LayOff) -> bool:
        """``offer`` for a plain meld, one of ``single_meld_candidates``' in the play phase, or a
        plain lay-off of one card, one of ``_lay_off_candidates``' singles: hand cards that form
        one valid meld of a rank the hand holds, or a hand card that fits the meld of the mover's
        it goes onto (its rank, a wild card, or a black 3 onto black 3s). Their checks
        (``_check_meld``, ``_check_lay_off``) ask nothing else of the cards but whether a lay-off
        leaves strictly fewer wild than natural cards in the meld; the rest they ask here alike:
        that the move keeps a card, keeps one only with a canasta of the mover's or one it makes,
        melds black 3s only going out, and reaches the minimum of a first meld. Each is judged
        afresh when offered again, as it was: no plain candidate is passed over, and one listed
        already is listed again where it stands (its key hashed once: a long match's hand offers
        dozens)."""
        if isinstance(move, MeldCards):
            (cards,) = move.melds
            size = len(cards)
            held = self.hand - size
            black = False
            if self.minimum and self.below_minimum(move, cards):
                held = 0
        else:
            cards = move.cards
            meld = self.state.melds[move.meld]
            size = len(meld.cards) + 1
            held = self.hand - 1
            black = meld.rank == BLACK_THREE_RANK
            if 2 * (wild_count(meld.cards) + is_wild(cards[0])) >= size:
                held = 0
        if held < 1 or (held == 1 and not (self.canasta or size >= CANASTA_SIZE)) or (black and held != 1):
            self.refused[move] = True
            return False
        return self._listed(move, cards, held)

    def _listed(self, move: Move, cards: Iterable[str], held: int) -> bool:
        """List ``move``, a plain candidate its check accepts that leaves ``held`` cards in hand: its
        cards shown, and its kind going out when it leaves one."""
        self.moves[move] = None
        shown = self.shown.get(move.type)
        if shown is None:
            shown = self.shown[move.type] = set()
        shown.update(cards)
        if held == 1:
            self.going_out.add(move.type)
        return True

    def _offer_take(self, move: TakePile | TakePileLayOff) -> bool:
        """``offer`` for a plain take-pile candidate of the draw phase (``_draw_phase``), with the pile
        not blocked: a single meld of ``single_meld_candidates`` (the pile's top card first, hand cards
        of its rank, wild cards, more natural than wild), or the top card onto a meld of the mover's of
        its rank, which it always fits. Their checks (``_check_take_pile``,
        ``_check_take_pile_lay_off``) ask nothing else of the cards but that a frozen pile is taken
        only with a meld of three naturals, the lay-off never; the rest they ask here alike: that the
        mover keeps a card after the pile's cards under its top join the hand, keeps one only with a
        canasta of the mover's or one the move makes, and that a first meld reaches the minimum.
        Judged afresh when offered again, as ``_offer_plain`` judges its candidates."""
        pile = self.pile
        if pile is None:
            pile = self.pile = (_pile_normal_count(self.state), pile_frozen(self.state))
        after, frozen = pile
        if isinstance(move, TakePile):
            (cards,) = move.melds
            size = len(cards)
            held = self.hand - size + 1 + after
            refused = ((frozen and size - wild_count(cards) < 3)  # the top card and two naturals
                       or (self.minimum != 0 and points(cards) < self.minimum))
        else:
            cards = ()
            size = len(self.state.melds[move.meld].cards) + 1
            held = self.hand + after
            refused = frozen
        if refused or held < 1 or (held == 1 and not (self.canasta or size >= CANASTA_SIZE)):
            self.refused[move] = True
            return False
        return self._listed(move, cards, held)

    def below_minimum(self, move: Move, cards: Sequence[str]) -> bool:
        """Whether ``move``, a first meld of the hand, counts fewer points than the minimum, so
        that its check refuses it whatever else it asks (``_check_meld``, ``_check_take_pile``;
        a meld that leaves one card may be exempt by option); a candidate's cards are hand cards
        and the pile's top card, all with card points."""
        if not self.minimum or not isinstance(move, MeldCards | TakePile):
            return False
        state = self.state
        if (isinstance(move, MeldCards) and state.rules.concealed_exempt_from_minimum and not state.took_pile
                and len(state.hands[self.seat]) - len(cards) == 1):
            return False
        return points(cards) < self.minimum

    def new_meld_minimum(self, kind: type[MeldCards] | type[TakePile]) -> tuple[int, int]:
        """The points below which the checks refuse a new meld's candidate of ``kind`` whatever else
        they ask (``below_minimum``): (for those that keep two cards, for those that keep one). A
        first meld of the hand needs the minimum; one that leaves one card may be exempt (option
        ``concealed_exempt_from_minimum``, not after taking the pile); a take_pile never is."""
        if kind is MeldCards and self.state.rules.concealed_exempt_from_minimum and not self.state.took_pile:
            return self.minimum, 0
        return self.minimum, self.minimum

    def new_melds(self, kind: type[MeldCards] | type[TakePile], candidates: tuple[Iterable[Melds], Iterable[Melds]],
                  cards: CandidateCards) -> None:
        """Offer the new melds' candidates (``new_meld_candidates_by_budget``: those that keep two
        cards or more, then those that keep one) as moves of ``kind``. A candidate that shows no
        new card is listed only when it leaves one card, the first of its kind to; so once the
        listed moves of the kind show every card a candidate can hold (``cards``), none of those
        that keep two can be listed, nor any at all once one of the kind leaves one card (or when
        none can), and the rest are not offered (nor worked out: the candidates come as they are
        asked for)."""
        keep_two, keep_one = iter(candidates[0]), iter(candidates[1])
        shown = self.shown.setdefault(kind.type, set())
        every = cards.keep_two
        while not (len(shown) >= len(every) and shown >= every):
            melds = next(keep_two, None)
            if melds is None:
                break
            self.offer(kind(melds))
        every = cards.keep_one
        while not ((kind.type in self.going_out or not cards.going_out) and len(shown) >= len(every)
                   and shown >= every):
            melds = next(keep_one, None)
            if melds is None:
                break
            self.offer(kind(melds))

    def discards(self, hand: Sequence[str]) -> None:
        """Every distinct card of the mover's hand as a discard, in hand order, each as ``offer``
        would list it (plain) without asking its check: in the play phase ``_check_discard`` refuses
        only a card the hand does not hold or no card code at all, and every card of a hand is a
        card code held. A discard shows no card (``_cards_of``) and never leaves one card, so no
        other listing changes."""
        self.shown.setdefault(Discard.type, set())
        self.moves.update(dict.fromkeys(map(_DISCARD.__getitem__, hand)))  # (none of them is listed yet)


#: The discard of each card code: the play phase lists one per distinct card of the hand, every time.
_DISCARD: dict[str, Discard] = {c: Discard(c) for c in CODES}


def _lay_off_candidates(state: KanasterState, seat: int, meld: Meld, groups: Groups
                        ) -> tuple[list[tuple[str, ...]], list[tuple[str, ...]]]:
    """(single cards, larger sets) to lay off onto ``meld``: each natural of its rank and each
    wild card alone; all its naturals; all naturals with wild cards up to the limit (jokers first),
    with each wild card, and without one card when that would empty the hand (section 6).
    ``groups``: the mover's hand by rank (``candidates.Groups``)."""
    hand = state.hands[seat]
    if meld.rank == BLACK_THREE_RANK:
        naturals = [c for c in hand if is_black_three(c)]
        wilds: list[str] = []
        codes = list(dict.fromkeys(naturals))
    else:
        naturals = groups.naturals.get(meld.rank, [])
        wilds = groups.wilds
        if not naturals and not wilds:
            return [], []
        codes = [*dict.fromkeys(naturals), *groups.wild_codes]
    singles: list[tuple[str, ...]] = [(c,) for c in codes]
    wild = wild_count(meld.cards)
    room = max(0, len(meld.cards) - 2 * wild + len(naturals) - 1)
    sets: list[tuple[str, ...]] = []
    if len(naturals) > 1:
        sets.append(tuple(naturals))
    filled = naturals + wilds[:room]
    sets.append(tuple(filled))
    if len(filled) == len(hand) and len(filled) > 1:
        sets.append(tuple(filled[:-1]))
        if naturals and room:
            sets.append(tuple(naturals[1:] + wilds[:room]))
    if room:
        sets.extend((*naturals, w) for w in (groups.wild_codes if wilds else ()))
    return singles, [s for s in sets if s]


#: The card codes of each natural rank: does a hand hold one (``_draw_phase``)?
_CODES_OF_RANK: dict[str, frozenset[str]] = {r: frozenset(f"{r}{s}" for s in SUITS) for r in NATURAL_RANKS}


def _draw_phase(state: KanasterState, seat: int, listing: _Listing) -> None:
    if state.talon:
        listing.offer(Draw(), plain=True)
    if not pile_block(state, seat):
        top = state.pile[-1]
        hand = state.hands[seat]
        rank = natural_rank(top)
        assert rank is not None, "a wild card or a 3 on top blocks the pile"
        # Every candidate melds the top card with hand cards of its rank: none without one, and with
        # one only and no wild card none at all (a meld needs three cards, more natural than wild).
        groups = None if _CODES_OF_RANK[rank].isdisjoint(hand) else Groups.of(hand)
        if groups is not None and (groups.wilds or len(groups.naturals[rank]) >= 2):
            for melds in single_meld_candidates(hand, top, groups):
                listing.offer(TakePile(melds), plain=True)
            after = _pile_normal_count(state)
            listing.new_melds(TakePile, new_meld_candidates_by_budget(hand, after, top, groups,
                                                                      listing.new_meld_minimum(TakePile)),
                              candidate_cards(groups, len(hand) + after, top))
        for i, m in enumerate(state.melds):
            if m.owner == seat and m.rank == rank:
                listing.offer(TakePileLayOff(i), plain=True)
    if not state.talon:
        listing.offer(EndHand(), plain=True)


def _play_phase(state: KanasterState, seat: int, listing: _Listing) -> None:
    hand = state.hands[seat]
    if not (state.took_pile and not state.rules.meld_after_taking_pile):
        groups = Groups.of(hand)
        # A new meld takes three cards and keeps one for the discard; keeping only one needs a
        # canasta, which a meld of fewer than seven cards does not make (section 6). A first meld
        # of the hand needs the minimum (``new_meld_minimum``): no candidate is offered when no
        # melds the hand can make count that many points (a hand just dealt, most often).
        if len(hand) > MELD_SIZE + (not listing.canasta) and not (
                listing.minimum and most_points(groups) < min(listing.new_meld_minimum(MeldCards))):
            for melds in single_meld_candidates(hand, None, groups):
                listing.offer(MeldCards(melds), plain=True)
            listing.new_melds(MeldCards, new_meld_candidates_by_budget(hand, 0, None, groups,
                                                                       listing.new_meld_minimum(MeldCards)),
                              candidate_cards(groups, len(hand)))
        _own_lay_offs(state, seat, groups, listing)
    if state.took_pile and state.pile_taken:
        offer_tucks(state, hand, listing)
    assert state.phase == PLAY, state.phase
    listing.discards(hand)


def _own_lay_offs(state: KanasterState, seat: int, groups: Groups, listing: _Listing) -> None:
    """The lay-offs onto the mover's own melds, meld by meld (``offer_lay_offs``), leaving out those
    that cannot be listed. Lay-offs onto an own meld ask of it only its rank, size and wild cards
    (its candidates and ``_check_lay_off`` alike): onto a meld like one offered before, each
    candidate is judged as it was, and none can be listed (section 13): a single card either was
    listed (its key is in ``single_ranks``) or was refused; a set showed its cards, or was refused,
    or was passed over, and the listing only grows what passes one over, with the kind going out
    already if one left one card. A long match's hand owns a dozen melds of a few ranks, many of
    them alike. A set of cards that shows no new card is listed only when it leaves one card, the
    first lay-off to (``_Listing.offer``): one that cannot is not offered either.

    Onto a meld of a rank the hand holds no card of, with no wild card in the hand, there is no
    candidate. A lay-off must keep a card, and keeping only one needs a canasta (section 6): from
    a hand of one card none is legal, and from a hand of two only a single card, only with a
    canasta of the mover's or onto a meld it makes one. Most positions of a long match's end
    hold two cards and no canasta (the mover draws, discards, and draws again).

    Once every single card onto a meld was listed (onto an earlier meld of its rank, or, a wild
    card, onto any), every card a set can hold shows too, so a set is listed only as the first
    lay-off to leave one card: when one went out already, or the hand holds too many other cards
    for that, nothing onto that meld is offered, whatever its shape."""
    hand = state.hands[seat]
    held = len(hand)
    if held < 2:
        return
    short = held == 2 and not has_canasta(state, seat)  # only onto a meld a single card makes a canasta
    naturals, wilds = groups.naturals, groups.wilds
    shown = listing.shown.setdefault(LayOff.type, set())
    single_ranks: set[tuple[str, str]] = set()
    firsts: dict[str, int] = {}  # per rank, the first own meld's id
    shapes: dict[str, set[tuple[int, int]]] = {}  # per rank with several, the (size, wild cards) offered
    wild_keys = [("*", w) for w in groups.wild_codes]
    for i, m in enumerate(state.melds):
        if (m.owner != seat or (short and len(m.cards) + 1 < CANASTA_SIZE)
                or (not wilds and m.rank not in naturals and m.rank != BLACK_THREE_RANK)):
            continue
        if single_ranks and m.rank != BLACK_THREE_RANK:  # every single listed, no set can be
            nat = naturals.get(m.rank, ())
            if ((LayOff.type in listing.going_out or len(nat) + len(wilds) < held - 1)
                    and single_ranks.issuperset(wild_keys) and single_ranks.issuperset([(m.rank, c) for c in nat])):
                continue
        first = firsts.setdefault(m.rank, i)
        if first != i:
            offered = shapes.get(m.rank)
            if offered is None:
                cards = state.melds[first].cards
                offered = shapes[m.rank] = {(len(cards), wild_count(cards))}
            shape = (len(m.cards), wild_count(m.cards))
            if shape in offered:
                continue
            offered.add(shape)
        singles, sets = _lay_off_candidates(state, seat, m, groups)
        going_out = listing.going_out  # read as each set comes, after the singles were listed
        offer_lay_offs(listing, i, m.rank, singles, (s for s in sets if not shown.issuperset(s) or (
            LayOff.type not in going_out and len(hand) - len(s) == 1)), single_ranks)


def offer_lay_offs(listing: _Listing, i: int, rank: str, singles: Iterable[tuple[str, ...]],
                   sets: Iterable[tuple[str, ...]], single_ranks: set[tuple[str, str]]) -> None:
    """The lay-offs onto meld ``i`` (of ``rank``): each single card, once per rank it shows (a wild
    card shows as any), then each set of cards."""
    for (c,) in singles:
        key = (rank if not is_wild(c) else "*", c)
        if key not in single_ranks and listing.offer(LayOff(i, (c,)), plain=True):
            single_ranks.add(key)
    for cards in sets:
        listing.offer(LayOff(i, cards))


def offer_tucks(state: KanasterState, hand: tuple[str, ...], listing: _Listing) -> None:
    """The tucks of the turn that took the pile: onto each canasta, the pile's cards of its rank that
    the hand holds, one by one, all of them, and all but the last."""
    tucked_ranks: set[str] = set()
    for i, m in enumerate(state.melds):
        if not is_canasta(m) or m.rank in tucked_ranks:
            continue
        came = Counter(state.pile_taken)
        usable = []
        for c in round_robin(c for c in hand if natural_rank(c) == m.rank):
            if came[c] > 0:
                came[c] -= 1
                usable.append(c)
        if not usable:
            continue
        listed = [listing.offer(Tuck(i, (c,)), plain=True) for c in dict.fromkeys(usable)]
        listed.append(listing.offer(Tuck(i, tuple(usable)), plain=True))
        if any(listed):  # one canasta per rank: any other of the rank takes the same cards
            tucked_ranks.add(m.rank)
        listing.offer(Tuck(i, tuple(usable[:-1])))


def legal_moves(state: KanasterState, seat: int) -> tuple[Move, ...]:
    """The moves listed for ``seat`` (section 13), each checked by ``apply``: every kind of move
    that is legal, every card that some legal move of a kind uses in a listed move of that kind,
    a move that leaves one card (going out next) whenever one is legal; at most ``LIST_BOUND``.
    Never empty for the seat to move: a draw or end_hand before drawing, a discard after."""
    listing = _Listing(state, seat)
    if state.phase == DRAW:
        _draw_phase(state, seat, listing)
    else:
        _play_phase(state, seat, listing)
    moves = tuple(listing.moves)
    assert moves, "the seat to move always has a move"
    return moves
