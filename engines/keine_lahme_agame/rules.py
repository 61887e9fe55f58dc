"""Keine lahme Agame: setup, legality and the effect of every move.

Section numbers (§) refer to ``seeds/keine-lahme-agame.md``. What the published text states
(§2-§5) is implemented as stated; the publisher's page stops after the catching round, so
trick-card disposal, what fits a row, scoring and game end (§6-§7) are a provisional
reconstruction, selected by options (each reading and its reason: §6-§7 and §11).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import combinations, product
from typing import Literal

from engines.cards import remove_cards, shuffled
from engines.core import (
    JSON,
    Event,
    IllegalMove,
    Move,
    Result,
    check_deck,
)

from . import events
from .cards import (
    COLOURS,
    HAT_STRENGTH,
    colour_cards,
    colour_index,
    full_deck,
    is_code,
    is_hat,
    is_single_digit,
    sort_cards,
    strength,
    value_of,
)
from .moves import Catch, DiscardSingle, PassCatch, Place, Trick
from .options import Config
from .state import CATCHING, LEAD, OVER, PLACE, TRICK, TRICK_LEAD, Caught, Play, SectionRecord, State, TrickRecord

#: Every reason the rules of Keine lahme Agame refuse a move for (``IllegalMove.reason``), with what it means:
#: the ``illegal_move`` answer's ``reason``. Core's own (``engines.core.CORE_REASONS``) come on top.
REASONS: Mapping[str, str] = {
    "wrong_phase": "This kind of move is not allowed in the game's phase (`state.phase`): catching, passing, "
                   "playing to a trick, placing won cards and discarding a single card each have their phase.",
    "bad_card_count": "A play to a trick is one or two cards.",
    "hat_not_alone": "The hat is always played alone.",
    "lone_single_digit_lead": "The leader may not lead a single-digit card alone.",
    "not_catchable": "The card is not where the catch says: not on top of the discard pile, or not in that seat's "
                     "display.",
    "own_display": "A player does not catch from his own display.",
    "does_not_fit": "The card does not fit a free position of the mover's own display (row).",
    "bad_payment_count": "A catch is paid with one or two hand cards.",
    "card_not_in_hand": "A card named is not in the mover's hand.",
    "hat_payment_forbidden": "The hat may not be paid (option `hut_payment`).",
    "payment_too_low": "The payment is worth less than the card caught.",
    "card_not_in_trick": "Only cards of the won trick may be placed.",
    "discard_single_not_allowed": "Only a leader whose hand is one single-digit card discards it.",
}


# --- setup (§1, §8) ------------------------------------------------------------------------


def pack(players: int, options: Mapping[str, JSON]) -> tuple[str, ...]:
    """The cards in play: the cards of the players' colours (§1). Each card goes to the player of its
    colour, so any order of them deals the same hands."""
    return full_deck(players, str(options["card_set"]))


def new_game(players: int, options: Mapping[str, JSON], seed: str, deck: Sequence[str] | None) -> State:
    """Each player takes the cards of his colour (§1). The deal does not depend on the order of
    a given ``deck``: every card goes to the player of its colour, so dealing from any deck,
    shuffled or fixed, gives the same hands; a fixed ``deck`` must hold exactly the cards in play."""
    opts = options
    sections = opts["sections_per_game"]
    config = Config(
        players=players,
        card_set=opts["card_set"],
        first_leader=opts["first_leader"],
        trick_capture=opts["trick_capture"],
        trick_placement=opts["trick_placement"],
        row_accepts_own_colour=opts["row_accepts_own_colour"],
        hut_has_slot=opts["hut_has_slot"],
        hut_payment=opts["hut_payment"],
        section_scoring=opts["section_scoring"],
        section_reset=opts["section_reset"],
        sections_per_game=players if sections is None else sections,
        max_turns=opts["max_turns"],
    )
    expected = pack(players, options)
    if deck is not None:
        check_deck(deck, expected)
    # The first leader is the only draw of the game: the deal itself is fixed by the colours.
    first = shuffled(tuple(range(players)), seed, "first_leader")[0] if config.first_leader == "random" else 0
    empty: tuple[tuple[str, ...], ...] = ((),) * players
    state = State(
        config=config,
        seed=seed,
        first_leader=first,
        section=0,
        phase=LEAD,
        leader=first,
        current=first,
        hands=empty,
        rows=empty,
        discard=(),
        caught=(),
        trick=(),
        scores=(0,) * players,
        history=(),
        last_trick=None,
        last_section=None,
        turn=0,
        aborted=False,
    )
    return _start_section(state, 0, [])


def _start_section(state: State, section: int, ev: list[Event]) -> State:
    """Begin section ``section`` (§7): hands per ``section_reset``, the first leader rotating
    clockwise from the game's first leader. Reports ``dealt`` (each seat's new hand only to it)
    when a later section is dealt by a move."""
    cfg = state.config
    n = cfg.players
    if cfg.section_reset == "rows_persist" and section > 0:
        rows = state.rows
        in_rows = [c for row in rows for c in row]
    else:
        rows = ((),) * n
        in_rows = []
    hands = []
    for seat in range(n):
        own = colour_cards(COLOURS[seat], cfg.card_set)
        rest = remove_cards(own, [c for c in in_rows if colour_index(c) == seat])
        assert rest is not None
        hands.append(sort_cards(rest))
    leader = (state.first_leader + section) % n
    state = state.replace(
        section=section,
        phase=LEAD,
        leader=leader,
        current=leader,
        hands=tuple(hands),
        rows=rows,
        discard=(),
        caught=(),
        trick=(),
        last_trick=None,
    )
    if section > 0:
        ev.append(events.Dealt(section + 1, leader, [len(h) for h in hands], dict(enumerate(hands))).event())
    if any(not h for h in state.hands):
        # Only possible with rows_persist and hut_has_slot: a player whose cards all lie in rows
        # starts without hand cards, so the section is over at once (§7).
        return _end_section(state, ev)
    return state


# --- what fits a row (§6) ------------------------------------------------------------------


def free_positions(cfg: Config, row: tuple[str, ...], value: int | None) -> int:
    """How many positions of ``value`` (None = hat) are still empty in ``row``."""
    return cfg.slots().count(value) - sum(1 for c in row if value_of(c) == value)


def fits(cfg: Config, row: tuple[str, ...], owner: int, card: str) -> bool:
    """A card fits a row when a position of its value is free (§6.1); the hat only with a
    hat position (hut_has_slot); own colour only with row_accepts_own_colour."""
    if not cfg.row_accepts_own_colour and colour_index(card) == owner:
        return False
    return free_positions(cfg, row, value_of(card)) > 0


def missing_slots(cfg: Config, row: tuple[str, ...]) -> tuple[int | None, ...]:
    """The row positions still empty, in slot order."""
    have = [value_of(c) for c in row]
    out = []
    for v in cfg.slots():
        if v in have:
            have.remove(v)
        else:
            out.append(v)
    return tuple(out)


# --- tricks (§4) ---------------------------------------------------------------------------


def no_legal_lead(hand: tuple[str, ...]) -> bool:
    """The leader cannot lead when his hand is one single-digit card (§4.3)."""
    return len(hand) == 1 and is_single_digit(hand[0])


def _check_play(cards: tuple[str, ...], leading: bool) -> None:
    """One or two cards; the hat only alone; the leader never a lone single-digit card (§4)."""
    if len(cards) not in (1, 2):
        raise IllegalMove("bad_card_count", "play one or two cards")
    if len(cards) == 2 and any(is_hat(c) for c in cards):
        raise IllegalMove("hat_not_alone", "the hat is always played alone")
    if leading and len(cards) == 1 and is_single_digit(cards[0]):
        raise IllegalMove("lone_single_digit_lead", "the leader may not lead a single-digit card alone")


def play_value(cards: tuple[str, ...]) -> int:
    """A play counts the value of its card or the sum of its two cards; a hat beats all (§4.2)."""
    return sum(strength(c) for c in cards)


def shown_value(cards: tuple[str, ...]) -> int | None:
    """A play's value as views and events show it: the sum, or None for a hat (§4.2)."""
    v = play_value(cards)
    return None if v >= HAT_STRENGTH else v


def won_cards(plays: tuple[Play, ...]) -> tuple[str, ...]:
    """The cards of a trick in play order."""
    return tuple(c for p in plays for c in p.cards)


def trick_winner(plays: tuple[Play, ...]) -> int:
    """The highest play wins; on equal values the earliest of them (§4.2, the publisher's tie rule)."""
    best = plays[0]
    for p in plays[1:]:
        if play_value(p.cards) > play_value(best.cards):
            best = p
    return best.seat


def trick_plays(hand: tuple[str, ...], leading: bool) -> list[tuple[str, ...]]:
    """Every distinct play from ``hand`` (by card codes), each in canonical order."""
    distinct = sorted(set(hand), key=hand.index)
    out: list[tuple[str, ...]] = []
    for c in distinct:
        if not (leading and is_single_digit(c)):
            out.append((c,))
    plain = [c for c in hand if not is_hat(c)]
    seen: set[tuple[str, ...]] = set()
    for a, b in combinations(plain, 2):
        if (a, b) not in seen:
            seen.add((a, b))
            out.append((a, b))
    return out


# --- catching (§5) -------------------------------------------------------------------------


def catch_targets(state: State, seat: int) -> list[tuple[str, int | None]]:
    """The cards ``seat`` may catch now, as (card, from_seat): any card of another player's row,
    or the top of the discard pile, that fits ``seat``'s row (§5.2). Cards caught in this round
    lie beside the rows and are not targets."""
    cfg = state.config
    row = state.rows[seat]
    out: list[tuple[str, int | None]] = []
    if state.discard and fits(cfg, row, seat, state.discard[-1]):
        out.append((state.discard[-1], None))
    for owner in range(cfg.players):
        if owner == seat:
            continue
        for card in sorted(set(state.rows[owner]), key=state.rows[owner].index):
            if fits(cfg, row, seat, card):
                out.append((card, owner))
    return out


def payment_options(cfg: Config, hand: tuple[str, ...], need: int) -> list[tuple[str, ...]]:
    """The listed payments for a catch of value ``need`` (§5.4, §9): one payment per distinct
    multiset of 1 or 2 values from ``hand`` worth at least ``need`` -- minimal ones and overpayments
    alike (the worked example pays an 8 with 2+8 or 13+5), since paying two cards sheds one more
    and a section ends on an empty hand. Of several hand cards of one value the first in hand
    order is paid (any equal card is accepted); two values are paid the lower first, so the
    higher ends on top of the pile (the other order is accepted)."""
    by_strength: dict[int, list[str]] = {}
    for c in hand:
        if is_hat(c) and cfg.hut_payment == "forbidden":
            continue
        by_strength.setdefault(strength(c), []).append(c)
    values = sorted(by_strength)
    out: list[tuple[str, ...]] = [(by_strength[v][0],) for v in values if v >= need]
    for i, a in enumerate(values):
        for b in values[i:]:
            if a + b < need:
                continue
            if a != b:
                out.append((by_strength[a][0], by_strength[b][0]))
            elif len(by_strength[a]) >= 2:
                out.append((by_strength[a][0], by_strength[a][1]))
    return out


def _check_catch(state: State, seat: int, move: Catch) -> None:
    """Verify a catch without changing anything (§5.2-§5.4)."""
    cfg = state.config
    if not is_code(move.card):
        raise IllegalMove("malformed_move", "card is not a card code")
    if not isinstance(move.payment, tuple) or not all(is_code(c) for c in move.payment):
        raise IllegalMove("malformed_move", "payment must be a list of card codes")
    src = move.from_seat
    if src is None:
        if not state.discard or state.discard[-1] != move.card:
            raise IllegalMove("not_catchable", "that card is not the top of the discard pile")
    else:
        if isinstance(src, bool) or not isinstance(src, int) or not 0 <= src < cfg.players:
            raise IllegalMove("malformed_move", "from_seat must be a seat or null")
        if src == seat:
            raise IllegalMove("own_display", "a player does not catch from his own display")
        if move.card not in state.rows[src]:
            raise IllegalMove("not_catchable", "that card is not in that display")
    if not fits(cfg, state.rows[seat], seat, move.card):
        raise IllegalMove("does_not_fit", "the caught card must fit your own display")
    if len(move.payment) not in (1, 2):
        raise IllegalMove("bad_payment_count", "pay with one or two hand cards")
    if remove_cards(state.hands[seat], move.payment) is None:
        raise IllegalMove("card_not_in_hand", "payment cards must come from your hand")
    if cfg.hut_payment == "forbidden" and any(is_hat(c) for c in move.payment):
        raise IllegalMove("hat_payment_forbidden", "the hat may not be paid")
    if sum(strength(c) for c in move.payment) < strength(move.card):
        raise IllegalMove("payment_too_low", "the payment must be worth at least the caught card")


# --- the effect of moves -------------------------------------------------------------------


def apply(state: State, seat: int, move: Move, events: list[Event] | None) -> State:
    """The state after ``seat`` (to move) makes ``move`` (verify first, then build; nothing is mutated),
    and the events the move caused appended to ``events`` in order (seeds "Events"): the move's own
    effect, then what the rules do by themselves (the catching round ending, the trick won and its
    cards disposed of, the section ending and the next one dealt)."""
    ev: list[Event] = events if events is not None else []
    if isinstance(move, Catch):
        new = _apply_catch(state, seat, move, ev)
    elif isinstance(move, PassCatch):
        new = _apply_pass(state, seat, ev)
    elif isinstance(move, Trick):
        new = _apply_trick(state, seat, move, ev)
    elif isinstance(move, DiscardSingle):
        new = _apply_discard_single(state, seat, move, ev)
    else:
        assert isinstance(move, Place), move
        new = _apply_place(state, seat, move, ev)
    new = new.replace(turn=state.turn + 1)
    if new.phase != OVER and new.turn >= new.config.max_turns:
        new = new.replace(phase=OVER, aborted=True)
    return new


def _apply_catch(state: State, seat: int, move: Catch, ev: list[Event]) -> State:
    """§5: the leader's catch opens the catching round; later catchers follow clockwise."""
    if state.phase not in (LEAD, CATCHING):
        raise IllegalMove("wrong_phase", "catching is possible only at the start of a round")
    _check_catch(state, seat, move)
    rows = list(state.rows)
    discard = state.discard
    if move.from_seat is None:
        discard = discard[:-1]
    else:
        rest = remove_cards(rows[move.from_seat], (move.card,))
        assert rest is not None
        rows[move.from_seat] = rest
    hand = remove_cards(state.hands[seat], move.payment)
    assert hand is not None
    hands = list(state.hands)
    hands[seat] = hand
    new = state.replace(
        phase=CATCHING,
        rows=tuple(rows),
        hands=tuple(hands),
        discard=discard + move.payment,
        caught=state.caught + (Caught(seat, move.card, move.from_seat),),
    )
    ev.append(events.Caught(seat, move.card, move.from_seat, move.payment).event())
    if not hand:
        # §7: a player without hand cards ends the section; the round stops with this catch.
        return _end_section(new, ev)
    return _next_catcher(new, seat, ev)


def _apply_pass(state: State, seat: int, ev: list[Event]) -> State:
    """§5.5: the other players may catch, but need not."""
    if state.phase != CATCHING:
        raise IllegalMove("wrong_phase", "passing is possible only in a catching round")
    ev.append(events.Passed(seat).event())
    return _next_catcher(state, seat, ev)


def _next_catcher(state: State, seat: int, ev: list[Event]) -> State:
    """Clockwise to the next catcher; after the player before the leader the round ends, the
    caught cards go into their catchers' rows and the leader leads the trick (§5.6-§5.7)."""
    nxt = (seat + 1) % state.config.players
    if nxt != state.leader:
        return state.replace(current=nxt)
    return _insert_caught(state, ev).replace(phase=TRICK_LEAD, current=state.leader)


def _insert_caught(state: State, ev: list[Event]) -> State:
    """§5.6: at the end of the catching round each caught card goes into its catcher's row
    (reported as ``catching_ended``)."""
    if not state.caught:
        return state
    ev.append(events.CatchingEnded([events.CaughtCard(c.seat, c.card, c.from_seat) for c in state.caught]).event())
    rows = list(state.rows)
    for c in state.caught:
        assert fits(state.config, rows[c.seat], c.seat, c.card), "a caught card always still fits"
        rows[c.seat] = sort_cards(rows[c.seat] + (c.card,))
    return state.replace(rows=tuple(rows), caught=())


def _apply_trick(state: State, seat: int, move: Trick, ev: list[Event]) -> State:
    """§4: the leader leads, then the others follow clockwise; the last play decides the trick."""
    if state.phase not in (LEAD, TRICK_LEAD, TRICK):
        raise IllegalMove("wrong_phase", "no trick is being played now")
    cards = move.cards
    if not isinstance(cards, tuple) or not all(is_code(c) for c in cards):
        raise IllegalMove("malformed_move", "cards must be a list of card codes")
    leading = state.phase != TRICK
    _check_play(cards, leading)
    hand = remove_cards(state.hands[seat], cards)
    if hand is None:
        raise IllegalMove("card_not_in_hand", "play cards from your hand")
    hands = list(state.hands)
    hands[seat] = hand
    new = state.replace(phase=TRICK, hands=tuple(hands), trick=state.trick + (Play(seat, cards),))
    ev.append(events.Played(seat, cards, shown_value(cards), leading).event())
    nxt = (seat + 1) % state.config.players
    if nxt != state.leader:
        return new.replace(current=nxt)
    return _resolve_trick(new, ev)


def _fitting_subset_auto(cfg: Config, row: tuple[str, ...], winner: int, won: tuple[str, ...]) -> tuple[str, ...]:
    """trick_placement=auto: every won card that fits goes into the row, earliest played first."""
    placed: list[str] = []
    for c in won:
        if fits(cfg, row + tuple(placed), winner, c):
            placed.append(c)
    return tuple(placed)


def _resolve_trick(state: State, ev: list[Event]) -> State:
    """§6: the winner takes the trick (``trick_won``); with placement ``choose`` he first picks his
    row cards."""
    cfg = state.config
    winner = trick_winner(state.trick)
    won = won_cards(state.trick)
    row = state.rows[winner]
    best = next(p for p in state.trick if p.seat == winner)
    ev.append(events.TrickWon(winner, shown_value(best.cards), won).event())
    if cfg.trick_placement == "choose":
        if any(fits(cfg, row, winner, c) for c in won):
            return state.replace(phase=PLACE, current=winner)
        return _dispose(state, winner, (), ev)
    return _dispose(state, winner, _fitting_subset_auto(cfg, row, winner, won), ev)


def _dispose(state: State, winner: int, placed: tuple[str, ...], ev: list[Event]) -> State:
    """Put ``placed`` into the winner's row and the rest of the trick into his hand or onto the
    discard pile (trick_capture); the winner leads the next round (§4.4, §6). Reported as
    ``placed``: where every card of the trick went."""
    cfg = state.config
    won = won_cards(state.trick)
    rest = remove_cards(won, placed)
    assert rest is not None
    rows = list(state.rows)
    rows[winner] = sort_cards(rows[winner] + placed)
    hands = list(state.hands)
    discard = state.discard
    rest_to: Literal["hand", "discard"]
    if cfg.trick_capture == "row_then_hand":
        hands[winner] = sort_cards(hands[winner] + rest)
        rest_to = "hand"
    else:
        discard = discard + rest
        rest_to = "discard"
    new = state.replace(
        phase=LEAD,
        leader=winner,
        current=winner,
        rows=tuple(rows),
        hands=tuple(hands),
        discard=discard,
        trick=(),
        last_trick=TrickRecord(state.trick, winner, placed, rest, rest_to),
    )
    ev.append(events.Placed(winner, placed, rest, rest_to).event())
    if any(not h for h in new.hands):
        return _end_section(new, ev)
    return new


def check_place(state: State, cards: tuple[str, ...]) -> None:
    """A placement must be won cards that all fit the winner's row together (§6)."""
    cfg = state.config
    won = won_cards(state.trick)
    if remove_cards(won, cards) is None:
        raise IllegalMove("card_not_in_trick", "place only cards of the won trick")
    row = state.rows[state.current]
    for c in cards:
        if not fits(cfg, row, state.current, c):
            raise IllegalMove("does_not_fit", "a placed card must fit a free position of your row")
        row = row + (c,)


def _apply_place(state: State, seat: int, move: Place, ev: list[Event]) -> State:
    if state.phase != PLACE:
        raise IllegalMove("wrong_phase", "there is no won trick to place")
    cards = move.cards
    if not isinstance(cards, tuple) or not all(is_code(c) for c in cards):
        raise IllegalMove("malformed_move", "cards must be a list of card codes")
    check_place(state, cards)
    return _dispose(state, seat, cards, ev)


def place_options(state: State) -> list[tuple[str, ...]]:
    """The listed placements of the won trick (§9): none, each single fitting card, and every
    maximal placement (for each value as many won cards as there are free positions, every
    distinct choice of codes). Any other set of won cards that fit together is accepted too."""
    cfg = state.config
    winner = state.current
    row = state.rows[winner]
    won = sort_cards(won_cards(state.trick))
    fitting = [c for c in won if fits(cfg, row, winner, c)]
    out: list[tuple[str, ...]] = [()]
    for c in sorted(set(fitting), key=fitting.index):
        out.append((c,))
    by_value: dict[int | None, list[str]] = {}
    for c in fitting:
        by_value.setdefault(value_of(c), []).append(c)
    choices: list[list[tuple[str, ...]]] = []
    for v, cards in by_value.items():
        take = min(free_positions(cfg, row, v), len(cards))
        choices.append(sorted(set(combinations(cards, take))))
    for combo in product(*choices):
        full = sort_cards(tuple(c for part in combo for c in part))
        if full not in out:
            out.append(full)
    return out


def _apply_discard_single(state: State, seat: int, move: DiscardSingle, ev: list[Event]) -> State:
    """§4.3: a leader whose only hand card is single-digit puts it face up on the discard pile;
    his hand is then empty, which ends the section (§7.1)."""
    if state.phase not in (LEAD, TRICK_LEAD):
        raise IllegalMove("wrong_phase", "only the leader, instead of leading, discards a single card")
    hand = state.hands[seat]
    if not no_legal_lead(hand):
        raise IllegalMove("discard_single_not_allowed", "only a leader holding one single-digit card discards it")
    if move.card != hand[0]:
        raise IllegalMove("card_not_in_hand", "discard your only hand card")
    hands = list(state.hands)
    hands[seat] = ()
    new = state.replace(hands=tuple(hands), discard=state.discard + (move.card,))
    ev.append(events.Discarded(seat, [move.card], True).event())
    return _end_section(new, ev)


# --- section and game end (§7) -------------------------------------------------------------


def row_points(cfg: Config, row: tuple[str, ...], missing: tuple[int | None, ...] | None = None
               ) -> tuple[int, bool]:
    """Points of one row at a section's end and whether it is complete (section_scoring); ``missing``:
    its ``missing_slots``, when the caller has them."""
    complete = not (missing_slots(cfg, row) if missing is None else missing)
    if complete:
        return 100, True
    if cfg.section_scoring == "complete100_else_10_per_card":
        return 10 * len(row), False
    return 0, False


def _end_section(state: State, ev: list[Event]) -> State:
    """§7: a section ends when a player has no hand cards; rows are scored (``section_ended``, the
    hands revealed), then the next section is dealt (``dealt``) or, after ``sections_per_game``
    sections, the game ends."""
    state = _insert_caught(state, ev)
    cfg = state.config
    scored = [row_points(cfg, row) for row in state.rows]
    points = tuple(p for p, _ in scored)
    record = SectionRecord(
        section=state.section,
        emptied=tuple(s for s in range(cfg.players) if not state.hands[s]),
        points=points,
        complete=tuple(c for _, c in scored),
        hands=state.hands,
        rows=state.rows,
        discard=state.discard,
    )
    state = state.replace(
        scores=tuple(a + b for a, b in zip(state.scores, points, strict=True)),
        history=state.history + (points,),
        last_section=record,
        trick=(),
    )
    ev.append(events.SectionEnded(events.section_summary(cfg, record, state.history)).event())
    if state.section + 1 >= cfg.sections_per_game:
        return state.replace(phase=OVER)
    return _start_section(state, state.section + 1, ev)


def result(state: State) -> Result | None:
    """None while running; at the end the highest total wins, ties shared (§7); everybody else
    loses. An aborted game (max_turns) has no winner."""
    if state.phase != OVER:
        return None
    detail: dict[str, JSON] = {
        "reason": "max_turns" if state.aborted else "sections_complete",
        "sections_played": len(state.history),
        "section_points": [list(p) for p in state.history],
    }
    if state.aborted:
        return Result(status="aborted", scores=state.scores, detail=detail)
    best = max(state.scores)
    winners = tuple(s for s, v in enumerate(state.scores) if v == best)
    losers = tuple(s for s in range(state.config.players) if s not in winners)
    return Result(status="finished", winners=winners, losers=losers, scores=state.scores, detail=detail)


# --- listing (§9) --------------------------------------------------------------------------


def legal_moves(state: State, seat: int) -> tuple[Move, ...]:
    """The moves ``seat`` may post now (§9): every trick play and discard; every catch target with
    each distinct payment by values (another card of a listed value, or the other order of two
    cards, is accepted too); for a placement none, each single fitting card and every maximal one."""
    hand = state.hands[seat]
    moves: list[Move] = []
    if state.phase in (LEAD, CATCHING):
        cfg = state.config
        for card, src in catch_targets(state, seat):
            for pay in payment_options(cfg, hand, strength(card)):
                moves.append(Catch(card=card, payment=pay, from_seat=src))
    if state.phase == CATCHING:
        moves.append(PassCatch())
    elif state.phase in (LEAD, TRICK_LEAD):
        if no_legal_lead(hand):
            moves.append(DiscardSingle(card=hand[0]))
        else:
            moves.extend(Trick(cards=p) for p in trick_plays(hand, leading=True))
    elif state.phase == TRICK:
        moves.extend(Trick(cards=p) for p in trick_plays(hand, leading=False))
    elif state.phase == PLACE:
        moves.extend(Place(cards=p) for p in place_options(state))
    assert moves, "the seat to move always has a move"
    return tuple(moves)


__all__ = ["apply", "legal_moves", "new_game", "result"]
