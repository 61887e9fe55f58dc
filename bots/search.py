"""Information-set search for the ``strong`` bot level, over the engine contract only.

The scheme is single-observer information-set MCTS (Cowling, Powley and Whitehouse 2012), in the
shape of OpenSpiel's ``open_spiel/python/algorithms/ismcts.py``:

1. every simulation starts from a fresh world ``engine.determinize(state, seat, rng)``: the cards
   hidden from ``seat`` dealt anew, consistent with what it has seen (``check=True`` asserts that
   the seat's view of that world equals its view of the real state, as OpenSpiel asserts the
   information state of each sampled world). The real hidden cards are never read: the real state
   is passed only to ``determinize``, to ``legal_moves``/``heuristic_move`` of the searching seat
   (both depend on its view only) and to ``to_move``;
2. one tree, keyed by the moves played from the root. Moves listed in one world may be missing in
   another (an opponent's cards differ), so a child's UCB counts the simulations in which it was
   *available*, not its parent's visits;
3. a short rollout (``rollout_depth`` moves of ``heuristic_move``, or random moves) and then
   ``engine.evaluate`` for each mover on the path: rollouts are kept short on purpose, so that a
   game's own evaluation, not the noise of random play to the end, decides;
4. the most visited root move is played (ties: the better mean, then the heuristic's move first).

Where that tree search does not beat the game's own ``greedy`` heuristic (measured in
``bench/bots.py``: Conquian, Kanaster, Keine lahme Agame and Siebenschläfer, where a 50 ms budget
affords too few simulations for the many root moves), a game's budget names ``method="rollout"``:
a determinized rollout search in the manner of Tesauro and Galperin's rollout algorithm and of
perfect-information Monte Carlo (Ginsberg's GIB, Long et al. 2010), which improves on the heuristic
instead of ignoring it (``rollout_search``):

1. the candidates are the first ``candidates`` moves of ``engine.ranked_moves`` (the heuristic's
   order of the seat's own listed moves, its move first; a game without its own ranking gives the
   heuristic's move, then the others as listed);
2. every candidate is played in the *same* determinized worlds and followed by the *same* seeded
   rollout of ``heuristic_move`` for every seat (common random numbers: a candidate's lead is a paired
   difference, not the luck of its own deals), ``rollout_depth`` moves long, then ``evaluate``;
3. sequential halving (Karnin, Koren and Somekh 2013) spends the simulations: each round the worse
   half of the candidates is dropped and the rest get more worlds;
4. the heuristic's move is kept unless another candidate's mean over the same worlds is higher.

The budget is a count (simulations, rollout moves), so that the same seed plays the same move on
any machine; the counts per game are calibrated (``BUDGETS``, measured with ``bench/bots.py``) to stay
well inside 50 ms of CPU per move here. ``Budget.cpu_ms`` is only a safety net: a search that hits
it returns its best move so far, which a replay on a faster or slower machine would not reproduce;
``SearchStats.capped`` reports it and the bench counts it (it should stay 0).
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field, replace
from typing import Any

from engines.core import Engine, Move

#: Budget per move of every game at the default 50 ms; see ``budget_for``.
DEFAULT_MS = 50.0


@dataclass(frozen=True)
class Budget:
    """How much a ``strong`` move may search.

    ``simulations`` and ``rollout_depth`` are the deterministic budget; ``cpu_ms`` the safety cap
    (CPU time, ``time.process_time``); ``max_root_moves`` bounds the root moves considered when a
    seat has very many (the heuristic's move always among them); ``exploration`` is UCB's constant;
    ``rollout`` is ``heuristic`` (``engine.heuristic_move``) or ``random``. ``method`` is ``ismcts``
    (the tree search) or ``rollout`` (``rollout_search``, which weighs the first ``candidates`` moves of
    ``engine.ranked_moves`` and spends ``simulations`` as rollouts of ``rollout_depth`` moves).
    """

    simulations: int = 40
    rollout_depth: int = 4
    cpu_ms: float = DEFAULT_MS
    max_root_moves: int = 24
    exploration: float = 0.7
    rollout: str = "heuristic"
    method: str = "ismcts"
    candidates: int = 3

    def scaled(self, ms: float) -> Budget:
        """This budget (calibrated for ``DEFAULT_MS``) for a per-move budget of ``ms``: the
        simulations in proportion (at least one), the cap at ``ms``."""
        return replace(self, simulations=max(1, round(self.simulations * ms / DEFAULT_MS)), cpu_ms=ms)


#: Calibrated budgets at 50 ms per move, by game id (a search is generic; only its cost differs:
#: a Kanaster ``legal_moves`` is ten times Sten's). Figures from ``bench/bots.py``
#: (README, "Bots"); a game not named here gets ``Budget()``.
BUDGETS: dict[str, Budget] = {
    # The tree search, calibrated with Sten's heuristic and evaluation (2-player games, every 5th
    # position with a choice): CPU ms per strong move p50/p95/max about 21/30/33, under the 50 ms
    # cap. Re-measure with `bench.bots` (its `capped` column should stay 0) when a game's hooks change.
    "sten": Budget(simulations=48, rollout_depth=4),
    # The rollout search (README, "Bots"): CPU ms per strong move p95/max about 27/39 in Conquian and
    # 34/(cap) in Kanaster, where a position with a very long list (a big pile taken) can reach the
    # cap: about 0.5-0.8% of strong moves in 200 hands against greedy (bench.bots' `capped`).
    "conquian": Budget(method="rollout", simulations=20, rollout_depth=20, candidates=3),
    # Keine lahme Agame and Siebenschlaefer: the tree search lost to greedy at 4 players (0.16, 0.10
    # in bench.bots); the rollout search plays level with it or better (README, "Bots"). CPU ms per
    # strong move p95/max about 28/34 (KLA, 4 players) and 26/51 (Siebenschlaefer, 4 players).
    "keine-lahme-agame": Budget(method="rollout", simulations=16, rollout_depth=8, candidates=3),
    "siebenschlaefer": Budget(method="rollout", simulations=24, rollout_depth=12, candidates=3),
    "kanaster": Budget(method="rollout", simulations=12, rollout_depth=8, candidates=3),
}


def budget_for(engine: Engine, ms: float = DEFAULT_MS) -> Budget:
    """The calibrated budget of ``engine``'s game for ``ms`` of CPU per move."""
    return BUDGETS.get(engine.id, Budget()).scaled(ms)


@dataclass
class SearchStats:
    """What one search did, for the bench and the service's safety accounting."""

    simulations: int = 0
    rollout_moves: int = 0
    capped: bool = False  # the CPU cap ended the search: a replay elsewhere may differ
    skipped: bool = False  # one legal move: nothing to search
    cpu_ms: float = 0.0


@dataclass
class _Node:
    """A tree node: reached by ``mover`` playing the edge's move; ``value`` sums that mover's
    evaluations (0..1) over the ``visits``; ``available`` counts the simulations whose world
    listed the move (the UCB's parent count in information-set MCTS)."""

    mover: int
    visits: int = 0
    value: float = 0.0
    available: int = 0
    children: dict[Move, _Node] = field(default_factory=dict)


def root_moves(engine: Engine, state: Any, seat: int, rng: random.Random, budget: Budget) -> list[Move]:
    """The moves the search weighs: the heuristic's first, then the others in a seeded order, at
    most ``max_root_moves`` (a seat with hundreds of listed moves, as in Siebenschläfer, would
    otherwise spend the whole budget trying each once). Only the seat's own legal moves and its
    heuristic are asked of the real state: both depend on its view alone."""
    moves = list(engine.legal_moves(state, seat))
    preferred = engine.heuristic_move(state, seat, rng)
    others = [m for m in moves if m != preferred]
    _shuffle(others, rng)
    first = [preferred] if preferred in moves else []
    return (first + others)[: max(1, budget.max_root_moves)]


def _shuffle(items: list[Any], rng: random.Random) -> None:
    """Fisher-Yates on ``rng.random()`` only (STYLE.md: ``random.shuffle`` may change between
    Python versions, ``random()`` does not)."""
    for i in range(len(items) - 1, 0, -1):
        j = int(rng.random() * (i + 1))
        items[i], items[j] = items[j], items[i]


def search(engine: Engine, state: Any, seat: int, rng: random.Random, budget: Budget,
           stats: SearchStats | None = None, check: bool = False) -> Move:
    """The ``strong`` move of ``seat`` (to move in ``state``): information-set MCTS within ``budget``.

    ``check`` asserts, for every world, that ``seat``'s view of it is its view of ``state`` (tests
    and debugging; it costs a view per simulation)."""
    stats = stats if stats is not None else SearchStats()
    started = time.process_time()
    legal = engine.legal_moves(state, seat)
    if len(legal) == 1:
        stats.skipped = True
        return legal[0]
    if budget.method == "rollout":
        return rollout_search(engine, state, seat, rng, budget, stats, check, started)
    if budget.method != "ismcts":
        raise ValueError(f"unknown search method {budget.method!r}")
    candidates = root_moves(engine, state, seat, rng, budget)
    order = {m: i for i, m in enumerate(candidates)}
    real_view = engine.view(state, seat) if check else None
    root = _Node(mover=-1)
    cap = budget.cpu_ms / 1000.0
    for _ in range(max(1, budget.simulations)):
        if stats.simulations and time.process_time() - started > cap:
            stats.capped = True
            break
        world = engine.determinize(state, seat, rng)
        if check:
            assert engine.view(world, seat) == real_view, f"{engine.id}: determinize changed seat {seat}'s view"
        _simulate(engine, world, seat, root, candidates, rng, budget, stats)
        stats.simulations += 1
    stats.cpu_ms = (time.process_time() - started) * 1000.0
    best = max(root.children.items(),
               key=lambda kv: (kv[1].visits, kv[1].value / max(1, kv[1].visits), -order.get(kv[0], 0)))
    return best[0]


def _simulate(engine: Engine, world: Any, seat: int, root: _Node, candidates: list[Move], rng: random.Random,
              budget: Budget, stats: SearchStats) -> None:
    """One simulation on one determinized world: select and expand in the tree, roll out, back up."""
    path: list[_Node] = []
    node = root
    while engine.result(world) is None:
        movers = engine.to_move(world)
        if not movers:
            break
        mover = movers[0]
        if node is root:
            listed = engine.legal_moves(world, mover)
            moves = [m for m in candidates if m in listed] if mover == seat else list(listed)
        else:
            moves = list(engine.legal_moves(world, mover))
        if not moves:  # a world in which none of the candidates is legal: a broken determinize
            raise AssertionError(f"{engine.id}: no root move of seat {seat} is legal in a determinized world")
        for m in moves:
            child = node.children.get(m)
            if child is not None:
                child.available += 1
        untried = [m for m in moves if m not in node.children]
        if untried:
            # Root: the heuristic's move first, then the seeded order; deeper: a seeded pick.
            move = untried[0] if node is root else untried[int(rng.random() * len(untried))]
            child = _Node(mover=mover, available=1)
            node.children[move] = child
            world = engine.apply(world, mover, move)
            path.append(child)
            break
        move = max(moves, key=lambda m: _ucb(node.children[m], budget.exploration))
        node = node.children[move]
        world = engine.apply(world, mover, move)
        path.append(node)
    world = _rollout(engine, world, rng, budget, stats)
    values: dict[int, float] = {}
    for n in path:
        if n.mover not in values:
            values[n.mover] = float(engine.evaluate(world, n.mover))
        n.visits += 1
        n.value += values[n.mover]


def _ucb(node: _Node, c: float) -> float:
    """UCB1 with the availability count in place of the parent's visits (ISMCTS's subset-armed bandit)."""
    if node.visits == 0:
        return math.inf
    return node.value / node.visits + c * math.sqrt(math.log(node.available) / node.visits)


def _rollout(engine: Engine, world: Any, rng: random.Random, budget: Budget, stats: SearchStats) -> Any:
    """At most ``rollout_depth`` moves of the rollout policy, or fewer if the game ends."""
    for _ in range(budget.rollout_depth):
        movers = engine.to_move(world)
        if not movers or engine.result(world) is not None:
            break
        mover = movers[0]
        if budget.rollout == "heuristic":
            move = engine.heuristic_move(world, mover, rng)
        else:
            listed = engine.legal_moves(world, mover)
            move = listed[int(rng.random() * len(listed))]
        world = engine.apply(world, mover, move)
        stats.rollout_moves += 1
    return world


def rollout_search(engine: Engine, state: Any, seat: int, rng: random.Random, budget: Budget,
                   stats: SearchStats, check: bool = False, started: float | None = None) -> Move:
    """The ``rollout`` method (module docstring): the first ``budget.candidates`` moves of
    ``engine.ranked_moves``, each played in the same determinized worlds and followed by the same
    seeded heuristic rollout, weighed by ``evaluate`` for ``seat``, under sequential halving.

    The real state is asked only for the seat's own ranking and moves (its view) and is passed to
    ``determinize``; ``check`` asserts each world shows the seat what it saw."""
    started = time.process_time() if started is None else started
    ranked = list(engine.ranked_moves(state, seat, rng))
    candidates = ranked[: max(1, budget.candidates)]
    if len(candidates) == 1:
        stats.skipped = True
        return candidates[0]
    real_view = engine.view(state, seat) if check else None
    base = repr(rng.random())
    totals = dict.fromkeys(candidates, 0.0)
    alive = list(candidates)
    played = 0  # worlds weighed so far: every candidate still alive has been played in each of them
    rounds = max(1, math.ceil(math.log2(len(candidates))))
    cap = budget.cpu_ms / 1000.0
    for r in range(rounds):
        per = max(1, budget.simulations // rounds // len(alive))
        for _ in range(per):
            if played and time.process_time() - started > cap:
                stats.capped = True
                break
            world = engine.determinize(state, seat, random.Random(f"{base}/world/{played}"))
            if check:
                assert engine.view(world, seat) == real_view, f"{engine.id}: determinize changed seat {seat}'s view"
            rollout = f"{base}/rollout/{played}"
            for move in alive:  # the same world and rollout for every candidate: a paired comparison
                totals[move] += _rollout_value(engine, world, seat, move, random.Random(rollout), budget, stats)
            played += 1
            stats.simulations += 1
        if stats.capped:
            break
        if r < rounds - 1:  # the alive share one count of worlds, so their totals compare as means
            alive.sort(key=lambda m: (-totals[m], candidates.index(m)))
            alive = alive[: max(1, math.ceil(len(alive) / 2))]
    stats.cpu_ms = (time.process_time() - started) * 1000.0
    return max(alive, key=lambda m: (totals[m], -candidates.index(m)))


def _rollout_value(engine: Engine, world: Any, seat: int, move: Move, rng: random.Random, budget: Budget,
                   stats: SearchStats) -> float:
    """``seat`` plays ``move`` in ``world``, every seat then plays ``heuristic_move`` for at most
    ``rollout_depth`` moves; ``evaluate`` for ``seat``."""
    world = engine.apply(world, seat, move)
    for _ in range(budget.rollout_depth):
        if engine.result(world) is not None:
            break
        movers = engine.to_move(world)
        if not movers:
            break
        mover = movers[0]
        world = engine.apply(world, mover, engine.heuristic_move(world, mover, rng))
        stats.rollout_moves += 1
    return float(engine.evaluate(world, seat))
