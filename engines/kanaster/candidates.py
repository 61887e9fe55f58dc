"""Candidate new melds for ``legal_moves`` (seeds/kanaster.md section 13).

Which cards can form new melds is a small optimisation problem (a first meld must reach the
minimum, a move must keep a card for the discard, keeping exactly one needs a canasta), so the
candidates are built from the hand's *rank groups*: the most valuable set of melds the hand holds
(every rank with three naturals, pairs completed by wild cards, the other wild cards where they
fit, jokers first), with one rank or one wild card forced in, trimmed of its cheapest cards until
it keeps two cards -- or exactly one, which is going out. ``rules.legal_moves`` checks each
candidate with ``apply`` and keeps those that add a card not yet offered.

Within a rank, suits never matter for a meld; each rank's cards are ordered distinct codes
first, and a candidate that uses only part of a rank is also written with the rank rotated, so
that every card code of the rank appears in some candidate.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from engines.cards import CODES, JOKER

from .melds import BLACK_THREE_RANK, POINTS, RED_THREES, card_points, is_wild, natural_rank

Melds = tuple[tuple[str, ...], ...]


def round_robin(cards: Iterable[str]) -> list[str]:
    """Each distinct code once (in hand order), then the second copies, and so on."""
    cards = list(cards)
    counts = dict.fromkeys(cards, 0)  # in hand order
    if len(counts) == len(cards):  # no code twice: the hand order is the answer
        return cards
    for c in cards:
        counts[c] += 1
    out: list[str] = []
    copy = 0
    while len(out) < len(cards):
        out.extend(c for c, n in counts.items() if n > copy)
        copy += 1
    return out


#: Each card code's group in a hand (``Groups.of``): its rank for a natural card (4 .. ace), ``JOKER``
#: for a joker, "2" for a 2, ``BLACK_THREE_RANK`` for a black 3; a red 3 has none.
_GROUP_OF: dict[str, str] = {c: natural_rank(c) or (JOKER if c == JOKER else "2" if is_wild(c) else BLACK_THREE_RANK)
                             for c in CODES if c not in RED_THREES}


def rotated(cards: Sequence[str], k: int) -> list[str]:
    if not cards:
        return []
    k %= len(set(cards)) or 1
    return list(cards[k:]) + list(cards[:k])


@dataclass(slots=True)
class Groups:
    """A hand split into natural rank groups, wild cards (jokers first, then 2s) and black 3s; worked
    out once per listing, with what the candidates ask of it again and again: the wild cards in
    order and their distinct codes. Read only, once built."""

    naturals: dict[str, list[str]]
    jokers: list[str]
    twos: list[str]
    black: list[str]
    wilds: list[str] = field(default_factory=list)  # jokers + twos
    wild_codes: list[str] = field(default_factory=list)  # the distinct codes of ``wilds``, in order

    @classmethod
    def of(cls, hand: Sequence[str]) -> Groups:
        if len(hand) > _FEW_CARDS:
            return cls._of_many(hand)
        by = _grouped(hand)
        jokers = by.pop(JOKER, [])
        for g, cs in by.items():  # each group's distinct codes first, where a code is in it twice
            if len(cs) > 1 and len(set(cs)) < len(cs):
                by[g] = round_robin(cs)
        twos = by.pop("2", [])
        black = by.pop(BLACK_THREE_RANK, [])
        wilds = jokers + twos
        return cls(by, jokers, twos, black, wilds, list(dict.fromkeys(wilds)) if wilds else wilds)

    @classmethod
    def _of_many(cls, hand: Sequence[str]) -> Groups:
        """``of`` for a large hand, which holds many codes twice or more (a long match plays with
        three packs): grouped by its distinct codes, each counted once, and each group written
        round robin from its codes' counts -- as ``round_robin`` writes it."""
        counts = Counter(hand)  # in hand order
        by = _grouped(counts)
        jokers = [JOKER] * counts[JOKER] if by.pop(JOKER, None) else []
        # the groups with a code twice
        twice = {g for c, n in counts.items() if n > 1 and (g := _GROUP_OF.get(c)) is not None and g != JOKER}
        for g in twice:
            codes = by[g]
            cards = list(codes)
            copy = 1
            more = [c for c in codes if counts[c] > copy]
            while more:
                cards.extend(more)
                copy += 1
                more = [c for c in more if counts[c] > copy]
            by[g] = cards
        twos = by.pop("2", [])
        black = by.pop(BLACK_THREE_RANK, [])
        wilds = jokers + twos
        return cls(by, jokers, twos, black, wilds, list(dict.fromkeys(wilds)) if wilds else wilds)


#: Up to this many cards ``Groups.of`` groups a hand card by card; a larger hand by its distinct codes.
_FEW_CARDS = 16


def _grouped(codes: Iterable[str]) -> dict[str, list[str]]:
    """``codes`` by their group (``_GROUP_OF``: a natural rank, the joker, the 2s, the black 3s), each
    group's in the order given; codes of no group (red 3s) left out."""
    by: dict[str, list[str]] = {}
    group_of = _GROUP_OF.get
    for c in codes:
        g = group_of(c)
        if g is not None:
            cards = by.get(g)
            if cards is None:
                by[g] = [c]
            else:
                cards.append(c)
    return by


@dataclass(slots=True)
class _Meld:
    rank: str
    extra: tuple[str, ...]  # cards not from the hand (the pile's top card)
    n: int  # naturals from the hand
    wild: list[str] = field(default_factory=list)

    @property
    def naturals(self) -> int:
        return self.n + len(self.extra)

    @property
    def size(self) -> int:
        return self.naturals + len(self.wild)


def _value(cfg: dict[str, _Meld], groups: Groups) -> int:
    return sum(card_points(c) for m in cfg.values() for c in groups.naturals.get(m.rank, [])[:m.n])


def build(
    groups: Groups,
    budget: int,
    top: str | None = None,
    rank: str | None = None,
    wild: str | None = None,
    black: bool = False,
) -> list[_Meld] | None:
    """The most valuable melds of ``groups`` using at most ``budget`` hand cards (approximately:
    the cheapest removable cards are dropped first), with the meld of ``top`` (the pile's top card)
    always in it, and ``rank`` / the wild card ``wild`` / the black 3s forced in; None if impossible."""
    melds = _gather(groups, top, rank, wild, black)
    if melds is None or not _trim(groups, melds, budget, top, rank, wild):
        return None
    return melds


class _Base(NamedTuple):
    """What ``_gather`` finds in a hand (with the pile's top card) whatever is forced in: the ranks
    that make a meld of naturals alone and the pairs that need a wild card, each as (rank, the top
    card if it joins that rank, naturals from the hand), in the hand's rank order. Worked out once
    per listing, for every target."""

    top_rank: str | None
    triples: tuple[tuple[str, tuple[str, ...], int], ...]
    pairs: tuple[tuple[str, tuple[str, ...], int], ...]


def _base(groups: Groups, top: str | None) -> _Base | None:
    """``groups``' ``_Base`` with ``top``; None when the top card's rank has no card in the hand
    (no candidate can hold it)."""
    top_rank = natural_rank(top) if top else None
    if top_rank and top_rank not in groups.naturals:
        return None
    triples = []
    pairs = []
    for r, cs in groups.naturals.items():
        n = len(cs)
        extra: tuple[str, ...] = ()
        if r == top_rank and top is not None:
            extra = (top,)
        total = n + len(extra)
        if total >= 3:
            triples.append((r, extra, n))
        elif total == 2:
            pairs.append((r, extra, n))
    return _Base(top_rank, tuple(triples), tuple(pairs))


def _gather(groups: Groups, top: str | None, rank: str | None, wild: str | None, black: bool) -> list[_Meld] | None:
    """``build``'s melds before any card is dropped for the budget; None if impossible."""
    return _gather_from(groups, _base(groups, top), rank, wild, black)


def _gather_from(groups: Groups, base: _Base | None, rank: str | None, wild: str | None, black: bool
                 ) -> list[_Meld] | None:
    """``_gather`` from the hand's ``_Base``: every rank's naturals as a meld, pairs completed by wild
    cards (the forced rank first, then by points), the other wild cards where they fit (forced rank
    first, then the largest), ``wild`` handed out first."""
    if base is None or (black and len(groups.black) < 3):
        return None
    pool = list(groups.wilds)
    if wild is not None:
        if wild not in pool:
            return None
        pool.remove(wild)
        pool.insert(0, wild)
    top_rank = base.top_rank
    focus = (rank, top_rank)
    cfg = {r: _Meld(r, extra, n) for r, extra, n in base.triples}
    if pool and base.pairs:
        # the forced rank first, then by the points of the pair's hand cards
        for r, extra, n in sorted(base.pairs, key=lambda p: (p[0] not in focus, -POINTS[p[0]] * p[2])):
            if not pool:
                break
            cfg[r] = _Meld(r, extra, n, [pool.pop(0)])
    if pool:
        for m in sorted(cfg.values(), key=lambda m: (m.rank not in focus, -m.n - len(m.extra))):
            while pool and len(m.wild) < m.n + len(m.extra) - 1:
                m.wild.append(pool.pop(0))
    if (rank is not None and rank not in cfg) or (top_rank is not None and top_rank not in cfg):
        return None
    if wild is not None and not any(wild in m.wild for m in cfg.values()):
        return None
    melds = list(cfg.values())
    if black:
        melds.append(_Meld(BLACK_THREE_RANK, (), len(groups.black)))
    return melds


def _trim(groups: Groups, melds: list[_Meld], budget: int, top: str | None, rank: str | None,
          wild: str | None) -> bool:
    """Drop the cheapest removable cards of ``melds`` (in place) until they use at most ``budget``
    hand cards; False if that is impossible. Each step depends on the melds alone, so trimming to
    a smaller budget goes on from where a larger one stopped."""
    used = 0  # hand cards the melds use
    for m in melds:
        used += m.n + len(m.wild)
    if used <= budget:
        return True
    top_rank = natural_rank(top) if top else None
    protected = {rank, top_rank} - {None}
    while used > budget:
        options: list[tuple[int, int, _Meld, str | None]] = []
        for m in melds:
            if m.rank == BLACK_THREE_RANK:
                if m.n > 3:
                    options.append((card_points(groups.black[0]), 0, m, None))
                continue
            low = [c for c in m.wild if c != wild]
            if low and m.size > 3:
                c = min(low, key=card_points)
                options.append((card_points(c), 1, m, c))
            if m.n > (1 if m.extra else 0) and m.naturals - 1 > len(m.wild) and m.size > 3:
                options.append((card_points(groups.naturals[m.rank][0]), 0, m, None))
        if options:
            _, _, m, dropped = min(options, key=lambda o: (o[0], o[1], -o[2].size))
            if dropped is None:
                m.n -= 1
            else:
                m.wild.remove(dropped)
            used -= 1
            continue
        whole = [m for m in melds if m.rank not in protected and not (wild and wild in m.wild)]
        if not whole:
            return False
        gone = min(whole, key=lambda m: (m.rank == BLACK_THREE_RANK, m.size))
        melds.remove(gone)
        used -= gone.n + len(gone.wild)
    return True


def write(groups: Groups, melds: Sequence[_Meld], k: int = 0) -> Melds:
    """The concrete melds of a candidate; ``k`` rotates each partly used rank (and the 2s)."""
    if not k:  # no rotation: each rank's first cards, the wild cards as chosen
        return tuple((*m.extra, *(groups.black if m.rank == BLACK_THREE_RANK else groups.naturals[m.rank])[:m.n],
                      *m.wild) for m in melds)
    twos = rotated(groups.twos, k)
    chosen = [c for m in melds for c in m.wild]
    used_twos = [c for c in chosen if c != "JK"]
    swap = dict(zip(sorted(used_twos), twos[:len(used_twos)], strict=True)) if k else {}
    out = []
    for m in melds:
        cards = groups.black if m.rank == BLACK_THREE_RANK else groups.naturals[m.rank]
        part = rotated(cards, k)[:m.n] if 0 < m.n < len(cards) else cards[:m.n]
        wild = [swap.get(c, c) for c in m.wild] if k else list(m.wild)
        out.append((*m.extra, *part, *wild))
    return tuple(out)


def rotations(groups: Groups, melds: Sequence[_Meld]) -> int:
    """How many rotations show every code of every partly used group."""
    most = 1
    naturals = groups.naturals
    for m in melds:
        cards = groups.black if m.rank == BLACK_THREE_RANK else naturals[m.rank]
        if 0 < m.n < len(cards):
            most = max(most, len(set(cards)))
    twos = groups.twos
    if len(twos) > 1:
        used_twos = sum(1 for m in melds for c in m.wild if c != JOKER)
        if 0 < used_twos < len(twos):
            most = max(most, len(set(twos)))
    return most


def new_meld_candidates(hand: Sequence[str], after: int, top: str | None = None,
                        groups: Groups | None = None) -> list[Melds]:
    """Candidate sets of new melds from ``hand`` (with the pile's ``top`` in one of them, ``after``
    pile cards then joining the hand): for no target, every rank, every wild code and the black 3s
    as targets, the most valuable melds keeping two cards and keeping one (going out); each
    candidate once, where it first comes. ``groups``: ``Groups.of(hand)``, when the caller has it."""
    keep_two, keep_one = new_meld_candidates_by_budget(hand, after, top, groups)
    return list(dict.fromkeys([*keep_two, *keep_one]))


def new_meld_candidates_by_budget(hand: Sequence[str], after: int, top: str | None = None,
                                  groups: Groups | None = None, minimum: tuple[int, int] = (0, 0)
                                  ) -> tuple[Iterator[Melds], Iterator[Melds]]:
    """``new_meld_candidates`` as (those trimmed to keep two cards or more, those trimmed to keep one
    card), each without a candidate twice; a candidate may be in both (a rotation written for
    either budget), and the listing answers it again from its first judgement (``rules._Listing``).
    Both are worked out target by target as they are asked for, the first before the second: the
    listing stops asking for those that keep two once the listed moves show every card they can
    hold (most often before the first, on a long match's large hand), and for those that keep one
    once one of them goes out and every card shows (seeds/kanaster.md section 13), most often after
    the first; a large hand has dozens of them. Once the second is asked for, the first is over.

    ``minimum``: (for those that keep two, for those that keep one) the points below which the
    rules refuse a candidate whatever else (a first meld's minimum; 0 for none): such candidates
    are left out. Trimming only drops cards, so melds that count too few before trimming to keep
    two count too few after it, in every rotation (suits do not count), and are not written."""
    groups = groups or Groups.of(hand)
    base = _base(groups, top)
    # No meld at all (no rank with three naturals, no pair with a wild card, no three black 3s):
    # every target's melds are empty or miss what it forces in.
    if base is None or not (base.triples or (base.pairs and groups.wilds) or len(groups.black) >= 3):
        return iter(()), iter(())
    work = _Work(groups, base, len(hand) + after, top, minimum)
    return work.keep_two(), _written(groups, work.keep_one())


class _Work:
    """``new_meld_candidates_by_budget`` for one hand, target by target (the melds forced in: nothing,
    each rank with two naturals or the top card's, each wild code), as its two lists are asked for.

    Per target: keeping one card (going out), then, trimming on from there, keeping two; those
    keeping two come first, as ``build`` for each budget would find them. Several targets often
    come to the same melds: a candidate written unrotated determines its melds, and so its
    rotations, so the rotations of one written before are not written again. Melds with the black
    3s forced in go out or are refused, so they only keep one card: they are gathered when asked
    for, in their place after the target's melds without them. Once those that keep one card are
    asked for, the targets left are trimmed for them alone."""

    def __init__(self, groups: Groups, base: _Base, held: int, top: str | None, minimum: tuple[int, int]) -> None:
        self.groups, self.base, self.held, self.top = groups, base, held, top
        self.minimum_two, self.minimum_one = minimum
        targets: list[tuple[str | None, str | None]] = [(None, None)]
        if groups.wilds:
            targets += [(r, None) for r, cs in groups.naturals.items() if len(cs) >= 2 or r == base.top_rank]
            targets += [(None, w) for w in groups.wild_codes]
        else:  # only a rank of three naturals (with the top card) makes a meld: the others miss theirs
            targets += [(r, None) for r, cs in groups.naturals.items() if len(cs) + (r == base.top_rank) >= 3]
        self.targets = iter(targets)
        self.black = len(groups.black) >= 3
        # Without a wild card or black 3s every rank's melds are those of no target (its naturals):
        # trimmed alike, unless a trim drops a whole meld (it spares the rank forced in). When those
        # of no target lost none, the ranks' are written already.
        self.alike = not groups.wilds and not self.black
        self.repeated = False
        self.two: list[Melds] = []  # written, each in every rotation
        self.seen_two: set[Melds] = set()  # the unrotated ones in ``two``
        # the melds trimmed to keep one card, or the target whose melds with the black 3s come here
        self.one: list[list[_Meld] | tuple[str | None, str | None]] = []
        self.two_over = False

    def step(self, two: bool) -> bool:
        """Work out the next target (for both lists, or only for keeping one); False when none is left."""
        target = next(self.targets, None)
        if target is None:
            return False
        groups, held, top = self.groups, self.held, self.top
        rank, wild = target
        if self.repeated:
            return True
        melds = _gather_from(groups, self.base, rank, wild, False)
        count = len(melds) if melds is not None else -1
        if melds is not None and _trim(groups, melds, held - 1, top, rank, wild):
            value = _points(melds) if self.minimum_two or self.minimum_one else 0
            # Melds that keep two cards already are the same when trimmed to keep two: written there.
            if melds and sum(m.n + len(m.wild) for m in melds) > held - 2 and value >= self.minimum_one:
                self.one.append([_Meld(m.rank, m.extra, m.n, list(m.wild)) for m in melds])
            if two and value >= self.minimum_two and _trim(groups, melds, held - 2, top, rank, wild) and melds:
                _write_all(groups, melds, self.two, self.seen_two)
            self.repeated = self.alike and len(melds) == count
        if self.black:
            self.one.append(target)
        return True

    def keep_two(self) -> Iterator[Melds]:
        i = 0
        while True:
            if i < len(self.two):
                yield self.two[i]
                i += 1
            else:
                assert not self.two_over, "those that keep two cards are asked for before those that keep one"
                if not self.step(True):
                    return

    def keep_one(self) -> Iterator[list[_Meld]]:
        """The melds trimmed to keep one card, those with the black 3s forced in gathered here."""
        self.two_over = True
        groups, top = self.groups, self.top
        i = 0
        while True:
            if i == len(self.one):
                if not self.step(False):
                    return
                continue
            item = self.one[i]
            i += 1
            if isinstance(item, list):
                yield item
                continue
            rank, wild = item
            melds = _gather_from(groups, self.base, rank, wild, True)
            if (melds is not None and _trim(groups, melds, self.held - 1, top, rank, wild) and melds
                    and (not self.minimum_one or _points(melds) >= self.minimum_one)):
                yield melds


def _points(melds: Sequence[_Meld]) -> int:
    """The card points of ``melds`` as written (a rank's cards all count the same, whichever suits)."""
    return sum(POINTS[m.rank] * (m.n + len(m.extra)) + sum(map(card_points, m.wild)) for m in melds)


class CandidateCards(NamedTuple):
    """What the candidates of ``new_meld_candidates_by_budget`` can show (``candidate_cards``): once
    the listed moves show every card here, no further candidate shows a new one
    (``rules._Listing.new_melds``)."""

    keep_two: set[str]  # every card a candidate that keeps two cards can hold
    keep_one: set[str]  # every card a candidate that keeps one card can hold and still be legal
    going_out: bool  # whether a candidate can leave exactly one card at all


def candidate_cards(groups: Groups, held: int, top: str | None = None) -> CandidateCards:
    """The cards the candidates of a hand (``groups``, with the pile's ``top``; ``held`` cards with
    the pile's) can hold: the top card, the naturals of each rank with two or more (counting the
    top card), the wild cards; a rank's single natural is in no meld of ``_gather``. The black 3s,
    when there are three, only in a candidate that keeps one card, and one that holds them is
    legal only if it leaves exactly one card (section 6): which none does when all the hand
    cards a candidate can hold are fewer than ``held`` - 1."""
    top_rank = natural_rank(top) if top else None
    cards = set(groups.wilds)
    usable = len(groups.wilds)
    for r, cs in groups.naturals.items():
        if len(cs) >= 2 or r == top_rank:
            cards.update(cs)
            usable += len(cs)
    if top is not None:
        cards.add(top)
    if len(groups.black) < 3:
        return CandidateCards(cards, cards, usable >= held - 1)
    usable += len(groups.black)
    going_out = usable >= held - 1
    return CandidateCards(cards, {*cards, *groups.black} if going_out else cards, going_out)


def most_points(groups: Groups) -> int:
    """At least the card points of any new melds the hand (``groups``) can lay out in one move (section
    6): a meld of a natural rank holds two naturals or more and fewer wild cards than naturals, so a
    rank of a single natural is in none, each pair of a rank needs a wild card of its own, and the
    wild cards number at most the naturals less one per meld; black 3s meld only among themselves,
    three or more. Counted: the naturals of every rank of three or more, the best pairs one per wild
    card, the highest wild cards (jokers first) up to that limit, the black 3s."""
    naturals = 0
    room = 0  # the wild cards the melds can hold at most
    pairs = []
    for rank, cards in groups.naturals.items():
        n = len(cards)
        if n >= 3:
            naturals += POINTS[rank] * n
            room += n - 1
        elif n == 2:
            pairs.append(POINTS[rank] * 2)
            room += 1
    wilds = groups.wilds
    if pairs and wilds:
        pairs.sort(reverse=True)
        naturals += sum(pairs[:len(wilds)])
    black = len(groups.black) >= 3
    return naturals + sum(map(card_points, wilds[:room])) + (sum(map(card_points, groups.black)) if black else 0)


def _written(groups: Groups, configurations: Iterable[Sequence[_Meld]]) -> Iterator[Melds]:
    """Each of ``configurations`` written in every rotation, as ``_write_all`` would append them,
    one candidate at a time as it is asked for."""
    seen: set[Melds] = set()
    for melds in configurations:
        first = write(groups, melds)
        if first in seen:
            continue
        seen.add(first)
        yield first
        for k in range(1, rotations(groups, melds)):
            yield write(groups, melds, k)


def _write_all(groups: Groups, melds: Sequence[_Meld], out: list[Melds], seen: set[Melds]) -> None:
    """Append ``melds`` written in every rotation to ``out``, unless they were written to it before
    (``seen``: the unrotated candidates in ``out``)."""
    first = write(groups, melds)
    if first in seen:
        return
    seen.add(first)
    out.append(first)
    out.extend(write(groups, melds, k) for k in range(1, rotations(groups, melds)))


def single_meld_candidates(hand: Sequence[str], top: str | None = None, groups: Groups | None = None
                           ) -> list[Melds]:
    """Small single melds (for a player who has melded, or the pile's top meld alone): per rank three
    naturals (two candidates, so that each of up to four suits shows), all naturals, two naturals
    with the lowest wild card, all naturals filled with wild cards (jokers first). ``groups``:
    ``Groups.of(hand)``, when the caller has it."""
    groups = groups or Groups.of(hand)
    high = groups.wilds
    low = groups.twos[:1] or groups.jokers[:1]  # the lowest wild card: every 2 counts the same
    top_rank = natural_rank(top) if top else None
    extra = (top,) if top else ()
    given = len(extra)
    need = 3 - given
    ranks: Iterable[tuple[str, list[str]]] = groups.naturals.items()
    if top_rank is not None:
        ranks = [(top_rank, groups.naturals[top_rank])] if top_rank in groups.naturals else []
    out: list[Melds] = []
    for _, cs in ranks:
        n = len(cs)
        if n >= need:  # each rotation (``rotated``) that starts a new set of ``need`` codes
            out.extend(((*extra, *(cs[k:] + cs[:k])[:need]),) for k in range(0, len(set(cs)), need))
            out.append(((*extra, *cs),))
        if low and n + given >= 2:
            out.append(((*extra, *cs[:2 - given], *low),))
            out.append(((*extra, *cs, *high[:n + given - 1]),))
    return out
