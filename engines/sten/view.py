"""What each seat may see of a game of Sten (seeds/sten.md section 9), and where the cards it cannot see lie."""

from __future__ import annotations

from engines.cards import SUITS, code, sort_cards
from engines.core import JSON
from engines.hidden import Hidden
from engines.sten.rules import ended_summary, judged_declarations, layout_fits
from engines.sten.state import OPENING_CARD, RANK_CODE, StenState


def view(state: StenState, seat: int | None) -> dict[str, JSON]:
    """The game-specific ``state`` of a view, for ``seat`` (None = spectator).

    Keys (always all present):

    - ``hand`` (list[str] | None): the viewer's own cards, sorted by suit C, D, H, S then rank
      A..K; None for a spectator.
    - ``hand_counts`` (list[int]): number of cards in each seat's hand, indexed by seat.
    - ``layout`` (list[dict], always 4 entries, suits C, D, H, S), each entry:
        - ``suit`` (str): "C" | "D" | "H" | "S".
        - ``opened`` (bool): the suit's 7 is on the table.
        - ``cards`` (list[str]): every card placed in this suit, ascending rank; [] when not opened.
        - ``upper_done`` (bool): the king is placed, so the upper stack 8..K is out of play.
        - ``lower_done`` (bool): the ace is placed, so the lower stack 6..A is out of play.
        - ``fits`` (list[str]): the cards of this suit that may be placed now, by whoever holds
          them (0 to 2 codes; the 7 while the suit is not opened). Only 7H during the opening; none
          once the game is over; never a hearts 7 known to be dead (``rules.layout_fits``).
    - ``remainder`` (list[str]): the open remainder, face up, sorted (policy "open"; else []).
    - ``dead_count`` (int): face-down cards out of play (policy "dead"; else 0).
    - ``stone_holder`` (int | None): seat holding the stone; None while it lies in the middle.
    - ``opening`` (bool): the 7H holder has still to open the game (his only move is playing 7H).
    - ``failed_play_all`` (bool): the seat to move already failed a play-all declaration this
      turn and must now play a card or say "Stein" (option failed_play_all_ends_turn=false).
    - ``play_all_wins`` (list[bool] | None): for the seat to move, one entry per ``play_all``
      declaration that ``legal_moves`` lists, in that order: whether posting it now wins (section 6,
      under the game's options). The first is true exactly when some declaration can win now. None
      when the viewer may not declare now (not his turn, the opening, a failed declaration this
      turn, the game is over) and for a spectator. Decided by the viewer's own hand, the layout and
      the open remainder alone, so it reveals nothing hidden.
    - ``current`` (int | None): the seat whose turn it is; None once the game is over.
    - ``turns_played`` (int): turns completed so far (the count the option ``max_turns`` caps).
    - ``ended`` (dict | None): None while the game runs; once it is over, the end as the table shows
      it (seeds/sten.md section 13, ``rules.ended_summary``): the hands left laid open, the dead
      cards, the final layout and remainder, winner, losers, stone holder and the cards each kept --
      the same facts as the ``deal_ended`` event, so a client can show them after a reload.
    """
    fitting = layout_fits(state)
    return {
        "hand": None if seat is None else list(state.hands[seat]),
        "hand_counts": [len(h) for h in state.hands],
        "layout": [_suit_view(state, i, s, fitting) for i, s in enumerate(SUITS)],
        "remainder": list(state.remainder),
        "dead_count": len(state.dead),
        "stone_holder": state.stone,
        "opening": state.opening,
        "failed_play_all": state.failed_play_all,
        "play_all_wins": _play_all_wins(state, seat),
        "current": None if state.over else state.current,
        "turns_played": state.turn,
        "ended": ended_summary(state) if state.over else None,
    }


def _play_all_wins(state: StenState, seat: int | None) -> list[bool] | None:
    """The view's ``play_all_wins``: computed only for the seat that may declare now (the
    conditions under which ``rules.legal_moves`` lists declarations), so other views cost nothing."""
    if seat is None or seat != state.current or state.over or state.opening or state.failed_play_all:
        return None
    return [wins for _, wins in judged_declarations(state, seat)]


#: Per suit, its card codes by rank (1 = ace ... 13 = king; index 0 unused): a suit's row is a slice.
_CODES: dict[str, tuple[str, ...]] = {s: ("", *(code(RANK_CODE[r], s) for r in range(1, 14))) for s in SUITS}


def _suit_view(state: StenState, i: int, suit: str, fitting: tuple[str, ...]) -> dict[str, JSON]:
    low, high = state.low[i], state.high[i]
    return {
        "suit": suit,
        "opened": low != 0,
        "cards": list(_CODES[suit][low:high + 1]) if low else [],
        "upper_done": high == 13,
        "lower_done": low == 1,
        "fits": [c for c in fitting if c[-1] == suit],
    }


def hidden(state: StenState, seat: int | None) -> tuple[Hidden, ...]:
    """Where the cards hidden from ``seat`` lie (``engines.hidden``): the other hands and the dead pile.

    Every other card is public: the layout, the open remainder. An unplaced 7H stays where it is:
    while the game is opening its holder is public (he is the seat to move), and a dead 7H is what
    lets seat 0 begin.
    """
    pinned = (OPENING_CARD,) if state.low[SUITS.index("H")] == 0 else ()
    places = [Hidden("hands", s, known=tuple(c for c in pinned if c in state.hands[s]), order=sort_cards)
              for s in range(state.players) if s != seat]
    if state.dead:
        places.append(Hidden("dead", known=tuple(c for c in pinned if c in state.dead)))
    return tuple(places)


def seat_facts(state: StenState) -> tuple[tuple[int, int | None], ...]:
    """Each seat's cards in hand; Sten keeps no score (section 7: one winner, one loser)."""
    return tuple((len(hand), None) for hand in state.hands)
