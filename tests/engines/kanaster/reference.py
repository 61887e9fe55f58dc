"""The independent judge of Kanaster's listed moves (tests/test_move_coverage.py; seeds/kanaster.md section 13).

``reference_moves`` builds candidates of every move shape from the mover's cards and keeps those
``ENGINE.apply`` accepts; it shares no code with ``rules.legal_moves``. New melds (``meld``,
``take_pile``) are enumerated over *rank groups*: for every rank the number of its natural cards
and of 2s and jokers in its meld, every combination over all ranks (a depth-first search), then
written out with concrete cards. Three reductions keep this fast; none can change which coverage
keys are found, which is all the coverage test compares:

1. *Suits.* No rule of seeds/kanaster.md looks at a card's suit in a meld (points go by rank), so
   choosing 2 of KC KD KH is legal for one choice iff for all. Each count-level candidate is written
   out once per rotation of each rank's cards, so every card code of the group appears in a
   candidate that is judged.
2. *One new meld per rank.* Several new melds of one rank in one move are never needed to use some
   cards: one meld of the same cards holds at least as many wild cards (w <= n - 1 instead of
   n - k), is at least as large (canasta) and counts the same points.
3. *Single melds after the first meld.* Once the mover has melded there is no minimum, so a card in
   a legal move of several new melds that keeps two or more cards is also in a legal move of its own
   meld alone (it keeps even more cards; black 3s never are in such a move). Moves of several melds
   are then enumerated only when they keep exactly one card (going out), where the card count prunes
   the search hard.

A candidate is judged by ``apply`` only when it would add a coverage key not yet found, and the
search stops once every key the hand could give is found; a first meld is pruned when all the
points still available cannot reach the mover's published minimum (his ``minimum`` in the view).
``going_out_moves`` (the legal moves that leave exactly one card, after which the discard goes
out) is the judge of the going-out guarantee, which ``coverage_keys`` cannot see from a move alone.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable, Iterator, Sequence
from typing import Any

from engines.core import IllegalMove, Move
from engines.kanaster import ENGINE
from engines.kanaster.melds import card_points, is_black_three, is_wild, natural_rank
from engines.kanaster.moves import Discard, Draw, EndHand, LayOff, MeldCards, TakePile, TakePileLayOff, Tuck
from engines.kanaster.state import DRAW, KanasterState

#: The documented bound of ``legal_moves`` (seeds/kanaster.md section 13).
LIST_BOUND = 316

_BLACK = "3"
#: Safety net: a search that visits more count-level candidates than this is a bug of the reference.
_NODE_LIMIT = 400_000


def coverage_keys(move: Move) -> set[Hashable]:
    """``(type,)`` and ``(type, card)`` for every card the move melds, lays off, tucks or discards."""
    keys: set[Hashable] = {(move.type,)}
    if isinstance(move, MeldCards | TakePile):
        keys.update((move.type, c) for m in move.melds for c in m)
    elif isinstance(move, LayOff | Tuck):
        keys.update((move.type, c) for c in move.cards)
    elif isinstance(move, Discard):
        keys.add((move.type, move.card))
    return keys


def _legal(state: KanasterState, seat: int, move: Move) -> bool:
    try:
        ENGINE.apply(state, seat, move)
    except IllegalMove:
        return False
    return True


def _round_robin(cards: Iterable[str]) -> list[str]:
    """Cards ordered distinct codes first, then the second copies, ...: a rotation by k < number of
    distinct codes starts with the k-th distinct code."""
    count = Counter(cards)
    out: list[str] = []
    copy = 0
    while len(out) < sum(count.values()):
        out.extend(c for c in sorted(count) if count[c] > copy)
        copy += 1
    return out


def _rot(cards: Sequence[str], k: int) -> list[str]:
    if not cards:
        return []
    k %= len(cards)
    return list(cards[k:]) + list(cards[:k])


class _Hand:
    """The mover's hand split into rank groups (each in round-robin order), 2s, jokers, black 3s."""

    def __init__(self, hand: Sequence[str]) -> None:
        groups: dict[str, list[str]] = {}
        for c in hand:
            r = natural_rank(c)
            if r is not None:
                groups.setdefault(r, []).append(c)
            elif is_black_three(c):
                groups.setdefault(_BLACK, []).append(c)
        self.groups = {r: _round_robin(cs) for r, cs in sorted(groups.items())}
        self.twos = _round_robin(c for c in hand if is_wild(c) and c != "JK")
        self.jokers = [c for c in hand if c == "JK"]
        self.size = len(hand)

    def offsets(self) -> int:
        return max([len(set(cs)) for cs in self.groups.values()] + [len(set(self.twos)), 1])

    def write(self, config: Sequence[tuple[str, int, int, int]], k: int, extra: dict[str, str]) -> tuple:
        """Concrete melds of a count-level config (rank, naturals from hand, 2s, jokers), rotation k;
        ``extra`` puts a card that is not from the hand (the pile's top) into its rank's meld."""
        twos = _rot(self.twos, k)
        jokers = list(self.jokers)
        melds = []
        for rank, n, t, j in config:
            cards = ([extra[rank]] if rank in extra else []) + _rot(self.groups.get(rank, []), k)[:n]
            cards += twos[:t] + jokers[:j]
            del twos[:t], jokers[:j]
            melds.append(tuple(cards))
        return tuple(melds)


def _options(rank: str, m: int, t_left: int, j_left: int, extra: int) -> Iterator[tuple[int, int, int]]:
    """Every (naturals from hand, 2s, jokers) of one new meld of ``rank``, largest first; ``extra``
    naturals (the pile's top) are in it besides. Only the card counts of a meld are used here: at
    least three cards; black 3s take no wild cards (anything else is left to ``apply``)."""
    low = 1 if extra else 2
    for n in range(m, low - 1, -1):
        naturals = n + extra
        max_w = 0 if rank == _BLACK else naturals - 1
        for t in range(min(t_left, max_w), -1, -1):
            for j in range(min(j_left, max_w - t), -1, -1):
                if naturals + t + j >= 3:
                    yield n, t, j


class _Search:
    """Count-level candidates of new melds, judged by ``apply`` as they come (see module doc)."""

    def __init__(self, state: KanasterState, seat: int, kind: str, out_only: bool = False) -> None:
        self.state, self.seat, self.kind, self.out_only = state, seat, kind, out_only
        self.hand = _Hand(state.hands[seat])
        self.found: set[Hashable] = set()
        self.moves: list[Move] = []
        self.nodes = 0
        self.top: str | None = state.pile[-1] if kind == "take_pile" and state.pile else None
        self.top_rank = natural_rank(self.top) if self.top else None
        first = not any(m.owner == seat for m in state.melds)
        self.need = ENGINE.view(state, seat)["players"][seat]["minimum"] if first else 0
        if state.rules.concealed_exempt_from_minimum:
            self.need = 0  # a going-out first meld may be below the minimum: no pruning by points
        self.first = first
        self.wild_points = sum(card_points(c) for c in self.hand.twos + self.hand.jokers)
        keys: set[Hashable] = {(kind,)}
        for cs in self.hand.groups.values():
            keys.update((kind, c) for c in cs)
        keys.update((kind, c) for c in self.hand.twos + self.hand.jokers)
        if self.top:
            keys.add((kind, self.top))
        self.universe = {("out",)} if out_only else keys

    def done(self) -> bool:
        return self.universe <= self.found

    def judge(self, config: Sequence[tuple[str, int, int, int]]) -> None:
        extra = {self.top_rank: self.top} if self.top and self.top_rank else {}
        for k in range(self.hand.offsets()):
            melds = self.hand.write(config, k, extra)
            move: Move = TakePile(melds) if self.kind == "take_pile" else MeldCards(melds)
            keys = {("out",)} if self.out_only else coverage_keys(move)
            if keys <= self.found or not _legal(self.state, self.seat, move):
                continue
            if self.out_only and not _leaves_one(self.state, self.seat, move):
                continue
            self.found |= keys
            self.moves.append(move)

    def search(self, ranks: Sequence[str], forced: str | None, exact: int | None, single: bool) -> None:
        """Depth-first over ``ranks``; ``forced`` must have a meld; ``exact``: cards used from the hand
        must be exactly this many; ``single``: at most one meld besides the forced one."""
        hand = self.hand
        rest_points = [0] * (len(ranks) + 1)
        rest_cards = [0] * (len(ranks) + 1)
        for i in range(len(ranks) - 1, -1, -1):
            cs = hand.groups.get(ranks[i], [])
            rest_points[i] = rest_points[i + 1] + sum(card_points(c) for c in cs)
            rest_cards[i] = rest_cards[i + 1] + len(cs)
        wilds = len(hand.twos) + len(hand.jokers)
        top_points = card_points(self.top) if self.top else 0

        def go(i: int, config: list[tuple[str, int, int, int]], used: int, points: int, t: int, j: int,
               melds: int) -> None:
            if self.done():
                return
            self.nodes += 1
            assert self.nodes < _NODE_LIMIT, "reference search too large"
            if self.need and points + rest_points[i] + self.wild_points + top_points < self.need:
                return  # even every card left cannot reach the published minimum
            if exact is not None and (used > exact or used + rest_cards[i] + wilds - t - j < exact):
                return
            if used > hand.size:
                return
            if i == len(ranks):
                if config and (exact is None or used == exact):
                    self.judge(config)
                return
            rank = ranks[i]
            m = len(hand.groups.get(rank, []))
            extra = 1 if rank == forced and self.top else 0
            can_add = not single or melds == 0 or rank == forced
            if can_add:
                for n, dt, dj in _options(rank, m, len(hand.twos) - t, len(hand.jokers) - j, extra):
                    pts = points + sum(card_points(c) for c in hand.groups.get(rank, [])[:n])
                    pts += sum(card_points(c) for c in hand.twos[t:t + dt]) + 50 * dj
                    go(i + 1, [*config, (rank, n, dt, dj)], used + n + dt + dj, pts, t + dt, j + dj,
                       melds + (rank != forced))
            if rank != forced:
                go(i + 1, config, used, points, t, j, melds)

        go(0, [], 0, 0, 0, 0, 0)


def _new_meld_moves(state: KanasterState, seat: int, kind: str, out_only: bool = False) -> list[Move]:
    s = _Search(state, seat, kind, out_only)
    if kind == "take_pile" and (s.top_rank is None):
        # A top card without a natural rank (wild card, 3) cannot be melded with two hand cards;
        # one candidate per shape shows apply's refusal.
        s.judge([(r, min(2, len(cs)), 0, 0) for r, cs in list(s.hand.groups.items())[:1]])
        return s.moves
    ranks = list(s.hand.groups)
    forced = s.top_rank if kind == "take_pile" else None
    if forced and forced not in ranks:
        ranks.append(forced)
    ranks.sort(key=lambda r: (r != forced, r))
    after = 0
    if kind == "take_pile":
        after = sum(1 for c in state.pile[:-1] if c not in ("3D", "3H"))
    going_out = s.hand.size + after - 1
    if out_only:
        s.search(ranks, forced, going_out, False)
    elif s.first:
        s.search(ranks, forced, None, False)
    else:
        s.search(ranks, forced, None, True)
        s.search(ranks, forced, going_out, False)
    return s.moves


def _count_candidates(state: KanasterState, seat: int, fits: Sequence[str], build: Any, found: set[Hashable],
                      out: list[Move], out_only: bool = False) -> None:
    """Every (naturals, 2s, jokers) sub-multiset of ``fits`` by counts and rotations, judged by apply."""
    hand = _Hand(fits)
    groups = [cs for cs in hand.groups.values()]
    naturals = groups[0] if groups else []
    for n in range(len(naturals) + 1):
        for t in range(len(hand.twos) + 1):
            for j in range(len(hand.jokers) + 1):
                if n + t + j == 0:
                    continue
                for k in range(hand.offsets()):
                    if out_only and n + t + j != len(state.hands[seat]) - 1:
                        continue
                    cards = tuple(_rot(naturals, k)[:n] + _rot(hand.twos, k)[:t] + hand.jokers[:j])
                    move = build(cards)
                    keys: set[Hashable] = {("out",)} if out_only else coverage_keys(move)
                    if keys <= found or not _legal(state, seat, move):
                        continue
                    found |= keys
                    out.append(move)


def reference_moves(state: KanasterState, seat: int) -> list[Move]:
    """Legal moves of ``seat`` covering every coverage key any legal move has (module doc)."""
    out: list[Move] = []
    hand = state.hands[seat]
    for move in (Draw(), EndHand()):
        if _legal(state, seat, move):
            out.append(move)
    out.extend(m for i in range(len(state.melds)) if _legal(state, seat, m := TakePileLayOff(i)))
    out.extend(m for c in sorted(set(hand)) if _legal(state, seat, m := Discard(c)))
    if state.over or seat != state.current:
        return out
    if state.phase == DRAW:
        out.extend(_new_meld_moves(state, seat, "take_pile"))
        probe: list[Move] = [MeldCards((tuple(hand[:3]),)), LayOff(0, tuple(hand[:1])), Tuck(0, tuple(hand[:1]))]
        out.extend(m for m in probe if _legal(state, seat, m))  # refused before the draw
        return out
    out.extend(_new_meld_moves(state, seat, "meld"))
    lay_found: set[Hashable] = set()
    tuck_found: set[Hashable] = set()
    for i, meld in enumerate(state.melds):
        if meld.owner == seat:
            fits = [c for c in hand if is_wild(c) or natural_rank(c) == meld.rank
                    or (meld.rank == _BLACK and is_black_three(c))]
            _count_candidates(state, seat, fits, lambda cs, i=i: LayOff(i, cs), lay_found, out)
        else:  # another player's meld: every single card, to see apply refuse it
            out.extend(m for c in sorted(set(hand)) if _legal(state, seat, m := LayOff(i, (c,))))
        same = [c for c in hand if natural_rank(c) == meld.rank]
        _count_candidates(state, seat, same, lambda cs, i=i: Tuck(i, cs), tuck_found, out)
    out.extend(m for m in (TakePile(((hand[0],) * 3,)),) if _legal(state, seat, m))  # refused after the draw
    return out


def _leaves_one(state: KanasterState, seat: int, move: Move) -> bool:
    after = ENGINE.apply(state, seat, move)
    return after.current == seat and not after.over and len(after.hands[seat]) == 1


def going_out_moves(state: KanasterState, seat: int) -> dict[str, list[Move]]:
    """Per move kind, a legal move after which exactly one card is left in the hand (the discard
    then goes out), if there is one: the same searches restricted to moves of that size."""
    if state.over or seat != state.current:
        return {}
    hand = state.hands[seat]
    out: dict[str, list[Move]] = {}
    if state.phase == DRAW:
        out["take_pile"] = _new_meld_moves(state, seat, "take_pile", out_only=True)
        out["take_pile_lay_off"] = [m for i in range(len(state.melds))
                                    if _legal(state, seat, m := TakePileLayOff(i)) and _leaves_one(state, seat, m)]
    else:
        out["meld"] = _new_meld_moves(state, seat, "meld", out_only=True)
        out["lay_off"], out["tuck"] = [], []
        for i, meld in enumerate(state.melds):
            fits = [c for c in hand if is_wild(c) or natural_rank(c) == meld.rank
                    or (meld.rank == _BLACK and is_black_three(c))]
            _count_candidates(state, seat, fits, lambda cs, i=i: LayOff(i, cs), set(), out["lay_off"], True)
            same = [c for c in hand if natural_rank(c) == meld.rank]
            _count_candidates(state, seat, same, lambda cs, i=i: Tuck(i, cs), set(), out["tuck"], True)
    return {k: v[:1] for k, v in out.items() if v}
