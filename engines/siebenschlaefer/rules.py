"""The rules of Siebenschläfer: dealing and the lot draw, legal moves, applying a move, the result.

Rules as implemented, and every ruling with its reason: seeds/siebenschlaefer.md (section numbers
below refer to it).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Literal

from engines.cards import is_card, rank_of, remove_cards, shuffled
from engines.core import JSON, Event, IllegalMove, Move, Result, deal_from
from engines.siebenschlaefer import events
from engines.siebenschlaefer.events import round_json
from engines.siebenschlaefer.moves import Draw, Pass, Play
from engines.siebenschlaefer.options import Settings
from engines.siebenschlaefer.state import (
    ACE,
    ACE_COUNT,
    ACES,
    COUNT_VALUE,
    FULL_DECK,
    HAND_SIZE,
    NUMBER_RANKS,
    SEVEN,
    RoundSummary,
    State,
    card_key,
    count_value,
    pair_value,
    sort_hand,
)

#: Every reason the rules of Siebenschläfer refuse a move for (``IllegalMove.reason``), with what it means:
#: the ``illegal_move`` answer's ``reason``. Core's own (``engines.core.CORE_REASONS``) come on top.
REASONS: Mapping[str, str] = {
    "pair_required": "A play is exactly two cards.",
    "unknown_card": "A card named is not a card code of the game.",
    "card_not_in_hand": "The two cards are not both in the mover's hand.",
    "two_face_cards": "Two face cards may not be laid together.",
    "ace_with_other_card": "An ace is laid only with another ace.",
    "too_low": "The pair's value does not beat the value on the table.",
    "already_drawn": "The mover has drawn this turn already: play or pass.",
    "must_play": "A pair can be laid, so it must be: no drawing or passing (unless the option "
                 "`allow_voluntary_pass` is on).",
    "nothing_to_draw": "No card is left to draw: pass.",
    "must_draw_first": "Passing comes only after drawing.",
}


# --- the pair rule (section 4) ------------------------------------------------------------


def beats(value: int, target: int | None, settings: Settings) -> bool:
    """Whether a legal pair of ``value`` may be laid on ``target`` (None = a free table)."""
    if target is None:
        return True
    if value == ACES:
        if settings.aa_rule == "always":
            return True
        return (22 if settings.aa_rule == "value_22" else 2) > target
    return value > target


def can_play(hand: Sequence[str], target: int | None, settings: Settings) -> bool:
    """Whether ``hand`` holds any pair that may be laid now (fast: no enumeration)."""
    numbers: list[int] = []
    faces = aces = 0
    for c in hand:
        r = rank_of(c)
        if r in NUMBER_RANKS:
            numbers.append(int(r))
        elif r == ACE:
            aces += 1
        else:
            faces += 1
    if aces >= 2 and beats(ACES, target, settings):
        return True
    if not numbers:
        return False
    numbers.sort()
    best = 2 * numbers[-1] if faces else 0
    if len(numbers) >= 2:
        best = max(best, numbers[-1] + numbers[-2])
    return best > 0 and beats(best, target, settings)


def legal_pairs(hand: Sequence[str], target: int | None, settings: Settings) -> tuple[tuple[str, str], ...]:
    """Every distinct pair of card codes from ``hand`` that may be laid now, each listed once,
    lower card first in ``card_key`` order (section 5)."""
    counts = Counter(hand)
    codes = sorted(counts, key=card_key)
    ranks = {c: rank_of(c) for c in codes}
    ok: dict[tuple[str, str], bool] = {}  # by rank pair: at most 91 values to work out, not one per card pair
    out: list[tuple[str, str]] = []
    for i, a in enumerate(codes):
        for b in codes[i:]:
            if a == b and counts[a] < 2:
                continue
            key = (ranks[a], ranks[b])
            legal = ok.get(key)
            if legal is None:
                v = pair_value(a, b)
                legal = ok[key] = isinstance(v, int) and beats(v, target, settings)
            if legal:
                out.append((a, b))
    return tuple(out)


def drawable(state: State) -> int:
    """Cards a draw can still reach: the stock plus the played pile under its top pair (section 8)."""
    return len(state.stock) + max(0, len(state.pile) - 2)


def pass_threshold(state: State) -> int:
    """Passes in a row that flip a new start value (section 7: one per player, or one fewer)."""
    return _threshold(state.players, state.settings)


def round_locked(hands: Sequence[Sequence[str]]) -> bool:
    """Section 12: the round can never end -- every ace is in a hand, one in each.

    An ace is laid only in a pair of aces (section 4), so it leaves a hand only when that hand holds
    two. With all aces in hands, one each, no stock or pile card is an ace, so no draw can ever
    bring anyone a second one: every hand keeps its ace, and nobody can empty his hand. Only 8
    players can hold the 8 aces one each.
    """
    if len(hands) != ACE_COUNT:
        return False
    return all(sum(rank_of(c) == ACE for c in h) == 1 for h in hands)


# --- the mutable scratch table of one move --------------------------------------------------


class _Table:
    """A mutable copy of the parts of a State one move changes; it never escapes ``apply``."""

    def __init__(self, s: State) -> None:
        self.s = s
        self.settings = s.settings
        self.n = s.players
        self.round = s.round
        # a hand the move does not touch stays the state's own tuple (sorted: every state's hands are),
        # one it changes becomes a list, sorted again by ``freeze``
        self.hands: list[Sequence[str]] = list(s.hands)
        self.stock = list(s.stock)
        self.pile = list(s.pile)
        self.top_kind = s.top_kind
        self.target = s.target
        self.current = s.current
        self.has_drawn = s.has_drawn
        self.passes = s.passes
        self.reshuffles = s.reshuffles
        self.opener = s.opener
        self.lots = s.lots
        self.moves = s.moves
        self.totals = s.totals
        self.paid = s.paid
        self.history = s.history
        self.out: list[Event] = []  # what the move caused (section 16): the log's events, and the view's
        self.status = s.status

    def freeze(self) -> State:
        return State(
            players=self.n,
            settings=self.settings,
            seed=self.s.seed,
            round=self.round,
            hands=tuple(h if h.__class__ is tuple else sort_hand(h) for h in self.hands),
            stock=tuple(self.stock),
            pile=tuple(self.pile),
            top_kind=self.top_kind,
            target=self.target,
            current=self.current,
            has_drawn=self.has_drawn,
            passes=self.passes,
            reshuffles=self.reshuffles,
            opener=self.opener,
            lots=self.lots,
            moves=self.moves,
            totals=self.totals,
            paid=self.paid,
            history=self.history,
            events=tuple(self.out),
            status=self.status,
        )

    # section 8: "Wird der Stapel ... aufgebraucht, werden die bereits abgelegten Karten neu gemischt"
    def take(self, k: int) -> list[str]:
        """Up to ``k`` cards off the stock, refilling it from the played pile (all but the top
        pair, shuffled) whenever it runs dry; fewer when even that is exhausted."""
        out: list[str] = []
        while len(out) < k:
            if not self.stock:
                if len(self.pile) <= 2:
                    break
                rest = self.pile[:-2]
                self.stock = list(shuffled(rest, self.s.seed, f"reshuffle/{self.reshuffles}"))
                self.reshuffles += 1
                self.pile = self.pile[-2:]
                self.out.append(events.Reshuffled(len(rest)).event())
            out.append(self.stock.pop(0))
        return out

    def draw_into(self, seat: int, k: int, reason: Literal["draw", "seven"]) -> list[str]:
        """``seat`` draws up to ``k`` cards; the ``drew`` event shows everyone how many, the drawer which."""
        cards = self.take(k)
        self.hands[seat] = [*self.hands[seat], *cards]
        self.out.append(events.Drew(seat, len(cards), reason, {seat: sort_hand(cards)}).event())
        return cards

    def penalty(self, seat: int) -> None:
        """A 7's draw of two (section 6): immediate, possibly fewer when no card is left."""
        self.draw_into(seat, 2, "seven")

    def flip_start_value(self) -> None:
        """Everybody passed in a row (section 7): two stock cards become the new start value.

        A flipped pair that is no legal pair is left on the pile and two more are flipped
        ('reflip'), or counted with the counting values ('sum_count_values'). The flip
        stops with a free table when fewer than two cards can be reached, or when as many cards
        as were reachable have been flipped without a legal pair (only possible when nothing
        but face cards and single aces is left), so it always ends. 7s here have no effect.
        """
        flipped: list[str] = []
        budget = len(self.stock) + max(0, len(self.pile) - 2)
        self.target = None
        while len(self.stock) + max(0, len(self.pile) - 2) >= 2:
            pair = self.take(2)
            self.pile.extend(pair)
            flipped.extend(pair)
            self.top_kind = "start"
            v = pair_value(pair[0], pair[1])
            if isinstance(v, int):
                self.target = None if v == ACES else v
                break
            if self.settings.reset_illegal_pair == "sum_count_values":
                self.target = COUNT_VALUE[rank_of(pair[0])] + COUNT_VALUE[rank_of(pair[1])]
                break
            if len(flipped) >= budget:
                break
        self.passes = 0
        self.out.append(events.Reset(flipped, self.target).event())

    def count_pass(self) -> None:
        self.passes += 1
        if self.passes >= _threshold(self.n, self.settings):
            self.flip_start_value()

    def end_turn(self, nxt: int) -> None:
        self.current = nxt % self.n
        self.has_drawn = False

    def end_round(self, winner: int) -> None:
        """Section 9: the others count their hands; the highest total pays (all tied pay)."""
        hands = tuple(sort_hand(h) for h in self.hands)
        values = tuple(0 if s == winner else count_value(h) for s, h in enumerate(hands))
        high = max(v for s, v in enumerate(values) if s != winner)
        payers = tuple(s for s, v in enumerate(values) if s != winner and v == high)
        self.close_round(RoundSummary(self.round + 1, winner, payers, values, hands, "went_out", (winner,),
                                      *self.table()))
        self.next_round()

    def end_stalled_round(self) -> None:
        """Section 12 (``stalled_round=count_hands``): a round that can never end is counted as in the
        pub: every hand is counted, the fewest points win, the most pay (all tied pay); when
        every hand counts the same, all win and nobody pays."""
        hands = tuple(sort_hand(h) for h in self.hands)
        values = tuple(count_value(h) for h in hands)
        low, high = min(values), max(values)
        winners = tuple(s for s, v in enumerate(values) if v == low)
        payers = tuple(s for s, v in enumerate(values) if v == high and v != low)
        self.close_round(RoundSummary(self.round + 1, None, payers, values, hands, "stalled", winners,
                                      *self.table()))
        self.next_round()

    def settle_stall(self) -> None:
        """Section 12: end every round that can never end (``round_locked``) while the option says so.

        A loop, since the next round of a match may be dealt locked as well."""
        while self.status == "active" and self.settings.stalled_round == "count_hands" and round_locked(self.hands):
            self.end_stalled_round()

    def table(self) -> tuple[tuple[str, ...], int | None, int, int]:
        """The table as the round ends (section 9): top pair, value to beat, pile and stock sizes."""
        return (tuple(self.pile[-2:]) if len(self.pile) >= 2 else (), self.target, len(self.pile), len(self.stock))

    def close_round(self, summary: RoundSummary) -> None:
        """Book a finished round and report it: ``round_ended`` lays the hands open (section 16)."""
        self.history = (*self.history, summary)
        self.totals = tuple(t + v for t, v in zip(self.totals, summary.hand_values, strict=True))
        self.paid = tuple(p + (s in summary.payers) for s, p in enumerate(self.paid))
        self.out.append(events.RoundEnded(round_json(summary), self.totals, self.paid).event())

    def next_round(self) -> None:
        """Section 11: deal the match's next round, or finish."""
        if self.round + 1 < self.settings.rounds:
            self.round += 1
            # section 11: later rounds shuffle the same 104 cards from the seed
            self.deal(shuffled(FULL_DECK, self.s.seed, f"deal/{self.round}"))
        else:
            self.status = "finished"
            self.has_drawn = False

    def deal(self, deck: Sequence[str]) -> None:
        """Section 2: ten cards each, one at a time from seat 0; the rest is the stock; then the
        opener (section 3)."""
        n = self.n
        self.hands = [[deck[i * n + s] for i in range(HAND_SIZE)] for s in range(n)]
        self.stock = list(deck[HAND_SIZE * n :])
        self.pile = []
        self.top_kind = "none"
        self.target = None
        self.passes = 0
        self.moves = 0
        self.has_drawn = False
        holders = [s for s in range(n) if any(rank_of(c) == "2" for c in self.hands[s])]
        if len(holders) == 1:
            self.opener, self.lots = holders[0], ()
        else:
            self.opener, self.lots = draw_lots(holders or list(range(n)), self.stock)
            # "Die Loskarten werden wieder unter den Stapel gemischt": all lot cards go back,
            # so the stock is again the dealt stock, shuffled.
            self.stock = list(shuffled(self.stock, self.s.seed, f"lots/{self.round}"))
        self.current = self.opener
        # section 16: ``dealt`` (each seat sees only its own new hand), then the lot cards in order
        self.out.append(events.Dealt(self.round + 1, self.opener, [len(h) for h in self.hands], len(self.stock),
                                     {s: sort_hand(h) for s, h in enumerate(self.hands)}).event())
        self.out.extend(events.Lot(s, c).event() for s, c in self.lots)


def _threshold(n: int, settings: Settings) -> int:
    return n if settings.pass_reset_threshold == "all_players" else n - 1


def draw_lots(candidates: Sequence[int], stock: Sequence[str]) -> tuple[int, tuple[tuple[int, str], ...]]:
    """Section 3: the candidates draw lots from the top of the stock, in seat order.

    A face card or ace is set aside and the same player draws again (a lot must be a number); the
    lowest number opens; players tied for lowest draw again, in seat order, from where the stock stands.
    Returns the opener and every card drawn as ``(seat, card)``. If the stock runs out of cards
    first, the lowest seat still in contention opens (only a stock of face cards can do that).
    """
    contenders = list(candidates)
    lots: list[tuple[int, str]] = []
    pos = 0
    while len(contenders) > 1:
        drawn: dict[int, int] = {}
        for seat in contenders:
            while pos < len(stock):
                card = stock[pos]
                pos += 1
                lots.append((seat, card))
                if rank_of(card) in NUMBER_RANKS:
                    drawn[seat] = int(rank_of(card))
                    break
            else:
                return contenders[0], tuple(lots)
        low = min(drawn.values())
        contenders = [s for s in contenders if drawn[s] == low]
    return contenders[0], tuple(lots)


# --- setting up ---------------------------------------------------------------------------


def pack(players: int, options: Mapping[str, JSON]) -> tuple[str, ...]:
    """The cards in play: two packs of 52, whatever the table (section 1)."""
    return FULL_DECK


def new_game(players: int, options: Mapping[str, JSON], seed: str, deck: Sequence[str] | None) -> State:
    """Deal round 1 from ``deck`` (top first) or from ``shuffled(FULL_DECK, seed, "deal")``."""
    settings = Settings(**options)
    cards = deal_from(deck, pack(players, options), seed)
    blank = State(
        players=players,
        settings=settings,
        seed=seed,
        round=0,
        hands=(),
        stock=(),
        pile=(),
        top_kind="none",
        target=None,
        current=0,
        has_drawn=False,
        passes=0,
        reshuffles=0,
        opener=0,
        lots=(),
        moves=0,
        totals=(0,) * players,
        paid=(0,) * players,
        history=(),
        events=(),
        status="active",
    )
    t = _Table(blank)
    t.deal(cards)
    t.settle_stall()  # section 12: even a deal can lock a round
    return t.freeze()


# --- moves ---------------------------------------------------------------------------------


def legal_moves(state: State, seat: int) -> tuple[Move, ...]:
    """Section 5: every distinct legal pair; else ``draw``; after drawing (or with nothing left
    to draw) ``pass``. With ``allow_voluntary_pass`` draw/pass are offered beside the plays.

    Complete (every legal move but a pair's other order) and bounded: at most 1108 distinct legal
    pairs of the 52 codes plus one ``draw``/``pass`` (section 5)."""
    hand = state.hands[seat]
    moves: list[Move] = [Play(cards=p) for p in legal_pairs(hand, state.target, state.settings)]
    if moves and not state.settings.allow_voluntary_pass:
        return tuple(moves)
    if not state.has_drawn and drawable(state) > 0:
        moves.append(Draw())
    else:
        moves.append(Pass())
    return tuple(moves)


def apply(state: State, seat: int, move: Move, out: list[Event] | None) -> State:
    """The state after ``seat`` (to move) makes ``move`` (section 5); IllegalMove and nothing changed
    otherwise. The events the move caused are appended to ``out``, in order (section 16): the move's
    own effect, the draws, skips, reshuffles and resets that follow, a round's end with the hands laid
    open, the next deal."""
    if isinstance(move, Play):
        t = _play(state, seat, move)
    elif isinstance(move, Draw):
        t = _draw(state, seat)
    else:
        assert isinstance(move, Pass), move
        t = _pass(state, seat)
    if t.round == state.round and t.status == "active":
        t.moves += 1
    t.settle_stall()  # section 12: this move (or the deal of the next round) may have locked the round
    if t.round == state.round and t.status == "active" and t.moves >= t.settings.max_turns:
        t.status = "aborted"  # section 12: the safety cap
    if out is not None:
        out.extend(t.out)
    return t.freeze()


def _play(state: State, seat: int, move: Play) -> _Table:
    cards = move.cards
    if not isinstance(cards, tuple) or len(cards) != 2:
        raise IllegalMove("pair_required", "a play is exactly two cards")
    if not all(isinstance(c, str) and is_card(c) and c != "JK" for c in cards):
        raise IllegalMove("unknown_card", f"not a card code: {list(cards)}")
    rest = remove_cards(state.hands[seat], cards)
    if rest is None:
        raise IllegalMove("card_not_in_hand", f"{' and '.join(cards)} are not both in the hand")
    value = pair_value(cards[0], cards[1])
    if value == "two_face_cards":
        raise IllegalMove("two_face_cards", "two face cards may not be laid together")
    if value == "ace_with_other_card":
        raise IllegalMove("ace_with_other_card", "an ace with another card may not be laid together")
    assert isinstance(value, int), value
    if not beats(value, state.target, state.settings):
        raise IllegalMove("too_low", f"the pair must exceed {state.target}")

    t = _Table(state)
    pair = sort_hand(cards)
    t.hands[seat] = list(rest)
    t.pile.extend(pair)
    t.top_kind = "play"
    t.target = None if value == ACES else value  # section 4: a pair of aces frees the table
    t.passes = 0
    t.out.append(events.Played(seat, pair, t.target).event())
    sevens = sum(rank_of(c) == SEVEN for c in pair)
    n = state.players
    won = not rest
    if won and not state.settings.apply_final_penalties:
        sevens = 0
    if sevens == 1:
        # section 6: the next player draws two at once and misses his turn (a face card + 7 counts too)
        victim = (seat + 1) % n
        t.penalty(victim)
        if not won:
            t.out.append(events.Skipped(victim).event())
            t.end_turn(seat + 2)
            if state.settings.skip_counts_as_pass:
                t.count_pass()
    elif sevens == 2:
        # section 6: every other player draws two, clockwise; the layer plays again and must exceed 14
        for k in range(1, n):
            t.penalty((seat + k) % n)
        if not won:
            t.end_turn(seat)
    elif not won:
        t.end_turn(seat + 1)
    if won:
        t.end_round(seat)
    return t


def _draw(state: State, seat: int) -> _Table:
    if state.has_drawn:
        raise IllegalMove("already_drawn", "you have drawn this turn already; play or pass")
    if not state.settings.allow_voluntary_pass and can_play(state.hands[seat], state.target, state.settings):
        raise IllegalMove("must_play", "a pair can be laid, so it must be")
    if drawable(state) == 0:
        raise IllegalMove("nothing_to_draw", "no card is left to draw; pass")
    t = _Table(state)
    t.draw_into(seat, 2, "draw")
    t.has_drawn = True
    return t


def _pass(state: State, seat: int) -> _Table:
    if not state.settings.allow_voluntary_pass and can_play(state.hands[seat], state.target, state.settings):
        raise IllegalMove("must_play", "a pair can be laid, so it must be")
    if not state.has_drawn and drawable(state) > 0:
        raise IllegalMove("must_draw_first", "draw two cards before passing")
    t = _Table(state)
    t.out.append(events.Passed(seat).event())
    t.end_turn(seat + 1)
    t.count_pass()
    return t


# --- the end ---------------------------------------------------------------------------------


def result(state: State) -> Result | None:
    """Sections 9, 11 and 12: None while running; the last round's winners and payers (who went out,
    or the fewest counted points of a stalled round), a match's totals, or aborted by the cap."""
    if state.status == "active":
        return None
    detail: dict[str, JSON] = {
        "reason": "max_turns" if state.status == "aborted" else state.history[-1].reason,
        "rounds_played": len(state.history),
        "round_results": [round_json(r) for r in state.history],
        "totals": list(state.totals),
        "paid": list(state.paid),
    }
    if state.status == "aborted":
        detail |= {
            "winner": None,
            "winners": [],
            "payers": [],
            "hand_values": [count_value(h) for h in state.hands],
        }
        return Result("aborted", scores=state.totals, detail=detail)
    last = state.history[-1]
    detail |= {
        "winner": last.winner,
        "winners": list(last.winners),
        "payers": list(last.payers),
        "hand_values": list(last.hand_values),
    }
    if state.settings.rounds == 1:
        return Result("finished", last.winners, last.payers, last.hand_values, detail)
    # a match: fewest counted points wins, most counted points loses (section 11)
    low, high = min(state.totals), max(state.totals)
    winners = tuple(s for s, v in enumerate(state.totals) if v == low)
    losers = tuple(s for s, v in enumerate(state.totals) if v == high and v != low)
    return Result("finished", winners, losers, state.totals, detail)
