"""What a seat (or a spectator) sees of a match of Kanaster (seeds/kanaster.md section 14), and where
the cards it cannot see lie.

Own hand only; other hands and the talon as counts; the talon's order and the seed never.
The discard pile is shown whole: every card in it was face up when it was put there.
"""

from __future__ import annotations

from engines.core import JSON
from engines.hidden import Hidden
from engines.memo import Kept, ShownArray

from .events import hand_record_json, meld_json
from .melds import hand_order, is_red_three, sort_hand
from .options import Rules
from .rules import canasta_ranks, has_canasta, has_melded, pile_block, pile_frozen
from .scoring import minimum_meld
from .state import KanasterState, Meld


def view(state: KanasterState, seat: int | None) -> dict[str, JSON]:
    """The ``state`` part of a view for ``seat`` (None = spectator). The table's common facts carry the
    names every game gives them: the talon is the ``stock_count``, the pile the ``discard_pile``
    (``discard_count``, ``discard_top``), the totals before this hand the ``scores``; ``players``
    holds what is Kanaster's own per seat, ``current_turn`` what the mover did this turn.

    The parts a move most often leaves as they were (the melds, the players' row, the history) are
    shown as the view before showed them, kept by the identity of what they are worked out from
    (``engines.memo``): shared, never to be changed."""
    rules = state.rules
    running = not state.over
    pile = state.pile
    melds, blocking, players = _table_json(state)
    return {
        "hand_number": state.hand_number,
        "dealer": state.dealer,
        "cutter": state.cutter,
        "cut_cards": list(state.cut),
        "current": state.current if running else None,
        "phase": state.phase,
        "hand": list(state.hands[seat]) if seat is not None else None,
        "hand_counts": [len(h) for h in state.hands],
        "scores": list(state.scores),
        "players": players,
        "stock_count": len(state.talon),
        "discard_pile": list(pile),
        "discard_count": len(pile),
        "discard_top": pile[-1] if pile else None,
        "pile_blocked": running and pile_block(state, state.current) is not None,
        "pile_frozen": pile_frozen(state),
        "blocking_ranks": blocking,
        "melds": melds,
        "current_turn": {
            "took_pile": state.took_pile,
            "pile_cards": list(state.pile_taken),
            "first_meld": state.first_meld_turn,
        },
        "target": rules.target,
        "max_hands": rules.max_hands,
        "hand_cap": rules.hand_cap,
        "max_turns": rules.max_turns,
        "turns_played": state.turns,
        "hands_played": len(state.history),
        "history": _history(state.history),
        "last_hand": hand_record_json(state.last_hand),
    }


#: What each table of melds shows, by the melds' identity: a draw or a discard leaves the tuple as it
#: was, and a state decoded anew holds the tuple decoded before (``engines.snapshot.shared``), so most
#: views of a hand show the melds (and mostly the ``players``) the view before showed. Kept as
#: (``melds``, ``blocking_ranks``, and the ``players`` last shown with them, with the totals, rules and
#: laid-out red 3s they were worked out from): a plain tuple, built on every new table.
_shown: Kept[tuple[Meld, ...], tuple[list[dict[str, JSON]], list[str], tuple[int, ...], Rules,
                                     tuple[tuple[str, ...], ...], list[dict[str, JSON]]]] = Kept(256)


def _table_json(state: KanasterState) -> tuple[list[dict[str, JSON]], list[str], list[dict[str, JSON]]]:
    """A view's ``melds``, ``blocking_ranks`` (the ranks with a canasta, in hand order) and ``players``
    (per seat its first-meld minimum, whether it has melded and has a canasta, its laid-out red 3s)."""
    melds, scores, rules, reds = state.melds, state.scores, state.rules, state.red_threes
    kept = _shown.get(melds)
    if kept is not None:
        shown, blocking, kept_scores, kept_rules, kept_reds, players = kept
        # (a draw builds the red 3s anew, a decoded state the totals: equal, compared by value)
        if kept_scores == scores and kept_rules is rules and kept_reds == reds:
            return shown, blocking, players
    else:
        # written once by a writer that knows it (engines.memo)
        shown = ShownArray([meld_json(i, m) for i, m in enumerate(melds)])
        ranks = canasta_ranks(state)
        blocking = sorted(ranks, key=lambda r: hand_order(r + "C")) if ranks else []
    players = [
        {
            "seat": s,
            "minimum": minimum_meld(scores[s], rules),
            "melded": has_melded(state, s),
            "canasta": has_canasta(state, s),
            "red_threes": list(reds[s]),
        }
        for s in range(state.players)
    ]
    _shown.put(melds, (shown, blocking, scores, rules, reds, players))
    return shown, blocking, players


#: Each match's history as shown, by the tuple's identity (it changes once a hand).
_shown_history: Kept[tuple[tuple[int, ...], ...], list[list[int]]] = Kept(256)


def _history(history: tuple[tuple[int, ...], ...]) -> list[list[int]]:
    kept = _shown_history.get(history)
    if kept is not None:
        return kept
    return _shown_history.put(history, [list(h) for h in history])


def hidden(state: KanasterState, seat: int | None) -> tuple[Hidden, ...]:
    """Where the cards hidden from ``seat`` lie (``engines.hidden``), with what a seat knows of them
    (seeds/kanaster.md, "Bots"): the other hands and the talon. A player who has had his first turn
    holds no red 3 (he laid them out), and a cutter who has not played yet still holds the wild cards
    he kept at the cut (public). Cards an opponent took with the pile are public too, but the state
    does not record which of them he still holds (only the current turn's ``pile_taken``), so they
    are dealt like any unseen card."""
    places: list[Hidden] = []
    for s in range(state.players):
        if s == seat:
            continue
        if state.started[s]:
            places.append(Hidden("hands", s, allows=_not_red_three, order=sort_hand))
        else:
            known = state.cut if s == state.cutter else ()
            places.append(Hidden("hands", s, known=known, order=sort_hand))
    places.append(Hidden("talon"))
    return tuple(places)


def _not_red_three(card: str) -> bool:
    return not is_red_three(card)


def seat_facts(state: KanasterState) -> tuple[tuple[int, int | None], ...]:
    """Each seat's cards in hand and its match total (section 10: the highest wins)."""
    return tuple((len(hand), score) for hand, score in zip(state.hands, state.scores, strict=True))
