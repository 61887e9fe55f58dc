"""The rules of Sten ("Stein"): dealing, legal moves, applying a move, the result.

Rules as implemented, and every ruling with its reason: seeds/sten.md (section numbers below refer
to it).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engines.cards import RANK_VALUE, SUITS, code, is_card, rank_of, remove_cards, sort_cards, standard_deck
from engines.core import JSON, Event, IllegalMove, InvalidOptions, Move, Result, deal_from, evolve
from engines.sten import events as ev
from engines.sten.moves import Play, PlayAll, Stein
from engines.sten.options import StenOptions
from engines.sten.state import (
    OPENING_CARD,
    RANK_CODE,
    StenState,
    fits,
    next_cards,
    place,
    suit_index,
)

#: Every reason the rules of Sten refuse a move for (``IllegalMove.reason``), with what it means:
#: the ``illegal_move`` answer's ``reason``. Core's own (``engines.core.CORE_REASONS``) come on top.
REASONS: Mapping[str, str] = {
    "must_open_with_7h": "The game has not been opened yet: the first move must place the 7 of hearts (section "
                         "4).",
    "card_not_in_hand": "A card named is neither in the mover's hand nor in the open remainder.",
    "card_does_not_fit": "The card does not fit the layout now: only a suit's 7, or the card next above or below "
                         "a suit's placed cards, may be placed.",
    "card_fits": "Saying Stein is allowed only when none of the mover's cards fits (unless the option "
                 "`allow_voluntary_stein` is on).",
    "play_all_already_failed": "The mover already failed a play-all declaration this turn; it cannot be repeated.",
    "duplicate_card": "A play-all declaration names a card twice.",
    "play_all_not_whole_hand": "A play-all declaration must name every card of the mover's hand.",
    "remainder_not_allowed": "A play-all declaration may name only hand cards (option "
                             "`play_all_may_use_remainder` is off).",
}

DECK: tuple[str, ...] = standard_deck()


# --- setup -------------------------------------------------------------------------------------------


def pack(players: int, options: Mapping[str, JSON]) -> tuple[str, ...]:
    """The cards in play: one pack of 52, whatever the table (section 2)."""
    return DECK


def new_game(players: int, options: Mapping[str, JSON], seed: str, deck: Sequence[str] | None) -> StenState:
    """Deal a game (seeds/sten.md sections 2 and 3).

    The deck (top card first) is dealt one card at a time, clockwise, the first card to seat 0.
    Policies open/dead/restrict deal ``52 // N`` cards to each seat and the rest (in deck order)
    becomes the open remainder or the dead pile; ``uneven`` deals all 52 cards, so seats
    ``0 .. 52 % N - 1`` get one card more. The 7H holder must open; if the 7H lies in the open
    remainder it is placed at once and seat 0 moves first; if it is dead, seat 0 moves first.
    """
    opts = StenOptions(**options)
    if opts.remainder_policy == "restrict" and players not in (2, 4):
        raise InvalidOptions({"players": "remainder_policy 'restrict' allows only 2 or 4 players"})
    order = deal_from(deck, pack(players, options), seed)
    dealt = len(order) if opts.remainder_policy == "uneven" else len(order) // players * players
    hands = tuple(sort_cards(order[seat:dealt:players]) for seat in range(players))
    rest = order[dealt:]
    remainder = sort_cards(rest) if opts.remainder_policy == "open" else ()
    dead = rest if opts.remainder_policy == "dead" else ()
    low: tuple[int, ...] = (0, 0, 0, 0)
    high = low
    holder = next((seat for seat, hand in enumerate(hands) if OPENING_CARD in hand), None)
    if OPENING_CARD in remainder:
        # section 3: nobody holds the open 7H to open with, so it is laid out during setup; seat 0 begins.
        low, high = place(OPENING_CARD, low, high)
        remainder = tuple(c for c in remainder if c != OPENING_CARD)
    state = StenState(
        players=players,
        options=opts,
        hands=hands,
        remainder=remainder,
        dead=dead,
        low=low,
        high=high,
        current=0 if holder is None else holder,
        opening=holder is not None,
        stone=None,
        stone_before=None,
        turn=0,
        failed_play_all=False,
        winner=None,
        end=None,
    )
    return _check_stall(state)


# --- legality ----------------------------------------------------------------------------------------


def playable(state: StenState, seat: int) -> tuple[str, ...]:
    """The cards ``seat`` may place now: fitting hand cards, then fitting open-remainder cards."""
    hand = tuple(c for c in state.hands[seat] if fits(c, state.low, state.high))
    return hand + tuple(c for c in state.remainder if fits(c, state.low, state.high))


def play_all_order(state: StenState, seat: int) -> tuple[str, ...] | None:
    """One order in which ``seat`` can lay every hand card this turn, or None (section 6).

    Suit by suit: the 7 first when the suit is closed, then upwards, then downwards. With
    ``play_all_may_use_remainder`` the open-remainder cards needed to close gaps are included
    (only those); without it a gap makes the declaration impossible.
    """
    hand = state.hands[seat]
    if not hand:
        return None
    available = set(hand)
    if state.options.play_all_may_use_remainder:
        available.update(state.remainder)
    by_suit: dict[int, list[int]] = {}
    for c in hand:
        by_suit.setdefault(suit_index(c), []).append(_rank(c))
    order: list[str] = []
    for i in sorted(by_suit):
        ranks = by_suit[i]
        lo, hi = state.low[i], state.high[i]
        suit = SUITS[i]
        if lo == 0:
            lo = hi = 7
            wanted = [7]
        else:
            wanted = []
        wanted += list(range(hi + 1, max(max(ranks), hi) + 1))
        wanted += list(range(lo - 1, min(min(ranks), lo) - 1, -1))
        for r in wanted:
            c = code(RANK_CODE[r], suit)
            if c not in available:
                return None
            order.append(c)
    return tuple(order)


def judge_play_all(state: StenState, cards: tuple[str, ...]) -> tuple[str, ...] | None:
    """The order to lay ``cards`` in, or None when the declaration fails (section 6).

    ``submitted_order``: the cards as given, each must fit when its turn comes (earlier cards
    count). ``any_order``: any order that fits; placing a card only ever makes more cards fit,
    so greedily placing whatever fits finds an order whenever one exists.
    """
    low, high = state.low, state.high
    if state.options.play_all_validation == "submitted_order":
        for c in cards:
            if not fits(c, low, high):
                return None
            low, high = place(c, low, high)
        return cards
    return _fitting_order(state, cards)


def layout_fits(state: StenState) -> tuple[str, ...]:
    """The cards that may be placed on the layout now, by whoever holds them (section 9, the view's ``fits``).

    Nothing once the game is over; only the 7H during the opening (section 3: the opening turn is
    placing the 7H); otherwise the cards that fit (section 4) -- except a closed hearts 7 outside the
    opening: it is then dead (section 3), which every seat knows, so it can never be placed. Whether a
    fitting card is in some hand, in the open remainder or dead stays hidden.
    """
    if state.over:
        return ()
    if state.opening:
        return (OPENING_CARD,)
    hearts_closed = state.low[SUITS.index("H")] == 0
    return tuple(c for c in next_cards(state.low, state.high) if not (hearts_closed and c == OPENING_CARD))


def legal_moves(state: StenState, seat: int) -> tuple[Move, ...]:
    """Every move ``seat`` (to move) may post now, in a bounded list (section 10; at most ``LIST_BOUND``).

    The opener may only play the 7H. Otherwise: one ``play`` per fitting card (hand, then open
    remainder, at most 8); ``stein`` when nothing fits (or always, with ``allow_voluntary_stein``);
    and, while a declaration may be made (not after a failed one this turn), at most two
    ``play_all`` declarations (``declarations``): a winning one when the hand can be laid, and one
    naming every card a declaration may name, which fails when no order of them fits. Any other
    declaration is legal too; a client builds it from the hand (section 10).
    """
    if state.opening:
        return (Play(OPENING_CARD),)
    plays = playable(state, seat)
    moves: list[Move] = [Play(c) for c in plays]
    if not plays or state.options.allow_voluntary_stein:
        moves.append(Stein())
    if not state.failed_play_all:
        moves.extend(PlayAll(cards) for cards in declarations(state, seat))
    return tuple(moves)


#: The most moves ``legal_moves`` lists (section 10): 8 plays (a suit offers at most its next card
#: above and below), "Stein", and two declarations.
LIST_BOUND = 8 + 1 + 2


def declarations(state: StenState, seat: int) -> tuple[tuple[str, ...], ...]:
    """The listed ``play_all`` declarations of ``seat`` (section 10), winning one first.

    1. When the whole hand can be laid this turn: one winning order (``play_all_order``: only the
       open-remainder cards needed to close gaps).
    2. The widest declaration, naming every card a declaration may name (the hand, plus the whole
       open remainder with ``play_all_may_use_remainder``), unless it is the first one already: in a
       winning order when one exists, else in hand order (then it fails and costs the stone, section
       6). So a declaration is listed whenever one may be made, and every card some declaration may
       name is in a listed one.
    """
    return tuple(cards for cards, _ in judged_declarations(state, seat))


def judged_declarations(state: StenState, seat: int) -> tuple[tuple[tuple[str, ...], bool], ...]:
    """The listed declarations of ``seat`` (``declarations``), each with whether posting it now wins.

    Judged as they are built, from the seat's hand, the layout and the open remainder alone: the
    winning order lays every card in turn, so it wins under either ``play_all_validation``; the
    widest wins exactly when it came out in a fitting order (then it fits as listed, and some
    order of its cards fits). When no winning order exists the widest has none either, so it is
    not searched for: ``play_all_order`` fails only when a card that some hand card needs laid
    before it (its closed suit's 7, or a rank between the layout and it) is none of the cards a
    declaration may name. Then the only
    listed declaration is the widest in hand order, and it fails. The view's ``play_all_wins``.
    """
    winning = play_all_order(state, seat)
    widest = state.hands[seat] + (state.remainder if state.options.play_all_may_use_remainder else ())
    if winning is None:
        return ((widest, False),)
    out: list[tuple[tuple[str, ...], bool]] = [(winning, True)]
    if set(widest) != set(winning):
        fitting = _fitting_order(state, widest)
        out.append((widest, False) if fitting is None else (fitting, True))
    return tuple(out)


def _fitting_order(state: StenState, cards: tuple[str, ...]) -> tuple[str, ...] | None:
    """An order in which all ``cards`` fit one after another, or None (placing a card only ever
    makes more cards fit, so greedily placing whatever fits finds one whenever one exists)."""
    low, high = state.low, state.high
    left = list(cards)
    order: list[str] = []
    progress = True
    while left and progress:
        progress = False
        for c in list(left):
            if fits(c, low, high):
                low, high = place(c, low, high)
                order.append(c)
                left.remove(c)
                progress = True
    return tuple(order) if not left else None


# --- applying a move ---------------------------------------------------------------------------------


def apply(state: StenState, seat: int, move: Move, events: list[Event] | None) -> StenState:
    """The state after ``seat`` (to move) makes ``move``, its events appended to ``events``
    (seeds/sten.md section 13); IllegalMove (and nothing changed) otherwise.

    The move's own effect first (``played``, ``passed``, ``declared``), then what follows from it:
    ``took_stone`` when the stone changes hands, and ``deal_ended`` with the hands laid open when
    the game ends (section 7).
    """
    out = events if events is not None else []
    if isinstance(move, Play):
        after = _apply_play(state, seat, move.card, out)
    elif isinstance(move, Stein):
        after = _apply_stein(state, seat, out)
    else:
        assert isinstance(move, PlayAll), move
        after = _apply_play_all(state, seat, move.cards, out)
    if after.over:
        out.append(ev.DealEnded(ended_summary(after)).event())
    return after


def _apply_play(state: StenState, seat: int, card: object, out: list[Event]) -> StenState:
    """Section 5.1: place one fitting card from the hand or the open remainder; the turn passes."""
    if not isinstance(card, str) or not is_card(card) or card == "JK":
        raise IllegalMove("malformed_move", "card must be a card code such as '8H'")
    if state.opening and card != OPENING_CARD:
        raise IllegalMove("must_open_with_7h", "the game opens with the 7 of hearts")
    hand = state.hands[seat]
    if card in hand:
        from_hand = True
    elif card in state.remainder:
        from_hand = False
    else:
        raise IllegalMove("card_not_in_hand", f"{card} is neither in your hand nor in the open remainder")
    if not fits(card, state.low, state.high):
        raise IllegalMove("card_does_not_fit", f"{card} does not fit the layout now")
    low, high = place(card, state.low, state.high)
    out.append(ev.Played(seat, card, "hand" if from_hand else "remainder").event())
    if from_hand:
        hands = _replace_hand(state.hands, seat, tuple(c for c in hand if c != card))
        state = evolve(state, hands=hands, low=low, high=high, opening=False)
        if not hands[seat]:
            return evolve(state, winner=seat, end="empty_hand", turn=state.turn + 1)
    else:
        remainder = tuple(c for c in state.remainder if c != card)
        state = evolve(state, remainder=remainder, low=low, high=high)
    return _next_turn(state)


def _apply_stein(state: StenState, seat: int, out: list[Event]) -> StenState:
    """Section 5.2: say "Stein" only when nothing fits (unless voluntary Stein is on); the sayer takes the stone."""
    if state.opening:
        raise IllegalMove("must_open_with_7h", "the game opens with the 7 of hearts")
    if not state.options.allow_voluntary_stein and playable(state, seat):
        raise IllegalMove("card_fits", "you may say 'Stein' only when none of your cards fits")
    out.append(ev.Passed(seat).event())
    return _next_turn(_take_stone(state, seat, out))


def _apply_play_all(state: StenState, seat: int, cards: object, out: list[Event]) -> StenState:
    """Section 6: the declaration to lay every hand card in one turn.

    A well-formed declaration names every hand card exactly once (plus, with
    ``play_all_may_use_remainder``, open-remainder cards); one that does not is refused
    unchanged. Success places them all and wins at once; failure takes nothing off the hand,
    restores the layout, and the declarer takes the stone. The ``declared`` event shows everyone
    the cards laid (on failure: those laid before the first that did not fit, section 9), the
    declarer his whole list.
    """
    if not isinstance(cards, tuple) or not all(isinstance(c, str) and is_card(c) for c in cards):
        raise IllegalMove("malformed_move", "cards must be a list of card codes")
    if state.opening:
        raise IllegalMove("must_open_with_7h", "the game opens with the 7 of hearts")
    if state.failed_play_all:
        raise IllegalMove("play_all_already_failed", "a failed declaration cannot be repeated in the same turn")
    if len(set(cards)) != len(cards):
        raise IllegalMove("duplicate_card", "a card is named twice")
    hand = state.hands[seat]
    extra = remove_cards(cards, hand)
    if extra is None:
        raise IllegalMove("play_all_not_whole_hand", "a declaration must name every card of your hand")
    for c in extra:
        if c not in state.remainder:
            raise IllegalMove("card_not_in_hand", f"{c} is neither in your hand nor in the open remainder")
        if not state.options.play_all_may_use_remainder:
            raise IllegalMove("remainder_not_allowed", "a declaration may name only your hand cards")
    order = judge_play_all(state, cards)
    if order is None:
        out.append(ev.Declared(seat, False, laid_before_mistake(state, cards), {seat: cards}).event())
        state = evolve(_take_stone(state, seat, out), failed_play_all=True)
        return _next_turn(state) if state.options.failed_play_all_ends_turn else state
    out.append(ev.Declared(seat, True, order, {}).event())
    low, high = state.low, state.high
    for c in order:
        low, high = place(c, low, high)
    used = set(extra)
    return evolve(
        state,
        hands=_replace_hand(state.hands, seat, ()),
        remainder=tuple(c for c in state.remainder if c not in used),
        low=low,
        high=high,
        winner=seat,
        end="play_all",
        turn=state.turn + 1,
    )


def laid_before_mistake(state: StenState, cards: tuple[str, ...]) -> tuple[str, ...]:
    """The cards of a failed declaration that lay on the table before the first one that did not fit,
    in the submitted order (section 9: what the other seats saw before the cards went back)."""
    low, high = state.low, state.high
    shown: list[str] = []
    for c in cards:
        if not fits(c, low, high):
            break
        low, high = place(c, low, high)
        shown.append(c)
    return tuple(shown)


def ended_summary(state: StenState) -> ev.Ended:
    """The end of the game as a real table shows it (section 13): the hands left laid open, the dead
    cards turned up, the final layout and open remainder, and the reckoning (Sten counts no points:
    who won, who holds the stone and so loses, how many cards each seat kept)."""
    res = result(state)
    assert res is not None and state.end is not None
    return {
        "reason": state.end,
        "winner": state.winner,
        "losers": list(res.losers),
        "stone_holder": state.stone,
        "hands": [list(h) for h in state.hands],
        "cards_left": [len(h) for h in state.hands],
        "dead": list(sort_cards(state.dead)),
        "layout": [
            [code(RANK_CODE[r], s) for r in range(state.low[i], state.high[i] + 1)] if state.low[i] else []
            for i, s in enumerate(SUITS)
        ],
        "remainder": list(state.remainder),
    }


def _take_stone(state: StenState, seat: int, out: list[Event]) -> StenState:
    """The seat takes the stone from whoever holds it (section 5.2); remember the previous holder."""
    if state.stone == seat:
        return state
    out.append(ev.TookStone(seat, state.stone).event())
    return evolve(state, stone=seat, stone_before=state.stone)


def _next_turn(state: StenState) -> StenState:
    """Pass the turn clockwise (the next seat), then apply the stall rule and the safety cap."""
    state = evolve(
        state, current=(state.current + 1) % state.players, turn=state.turn + 1, failed_play_all=False
    )
    state = _check_stall(state)
    if not state.over and state.turn >= state.options.max_turns:
        state = evolve(state, end="max_turns")
    return state


def _check_stall(state: StenState) -> StenState:
    """Section 7.3 (policy ``dead`` only): when no card in any hand fits and none ever can again, the game
    ends as "stalled"; the seat with the fewest cards wins (a tie: nobody).

    The layout changes only when a card is placed, so "no hand card fits now" means no card
    will ever fit. With the other policies every missing card is held by someone and the game
    cannot stall (termination invariant, tested).
    """
    if state.options.remainder_policy != "dead" or state.opening:
        return state
    if any(fits(c, state.low, state.high) for hand in state.hands for c in hand):
        return state
    sizes = [len(h) for h in state.hands]
    fewest = min(sizes)
    winner = sizes.index(fewest) if sizes.count(fewest) == 1 else None
    return evolve(state, winner=winner, end="stalled")


# --- the result --------------------------------------------------------------------------------------


def result(state: StenState) -> Result | None:
    """Section 7: the first empty hand wins; the stone holder loses (7.2 when he is the winner)."""
    if not state.over:
        return None
    detail: dict[str, JSON] = {"stone_holder": state.stone, "reason": state.end}
    if state.end == "max_turns":
        return Result(status="aborted", detail=detail)
    winners = () if state.winner is None else (state.winner,)
    return Result(status="finished", winners=winners, losers=_losers(state), detail=detail)


def _losers(state: StenState) -> tuple[int, ...]:
    if state.stone is None:
        return ()  # nobody ever said "Stein"
    if state.stone != state.winner:
        return (state.stone,)
    conflict = state.options.stone_winner_conflict
    if conflict == "both":
        return (state.stone,)
    if conflict == "previous_holder" and state.stone_before is not None:
        return (state.stone_before,)
    return ()


# --- helpers -----------------------------------------------------------------------------------------


def _replace_hand(hands: tuple[tuple[str, ...], ...], seat: int, hand: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    return hands[:seat] + (hand,) + hands[seat + 1 :]


def _rank(card: str) -> int:
    return RANK_VALUE[rank_of(card)]
