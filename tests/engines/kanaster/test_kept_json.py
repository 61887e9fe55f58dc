"""A meld's and a finished hand's JSON, kept on the object once a view has shown it
(``engines.memo``), is what a view works out anew: over random playouts, every view of a state that
comes from earlier states (its melds and last hand shown before, kept) equals the view of the same
state decoded afresh, for every seat and the spectator, and a meld copied with other cards (tucked
under a canasta) shows its new cards."""

from __future__ import annotations

import json
import random

from engines.core import evolve
from engines.kanaster import ENGINE as E
from engines.kanaster.events import meld_json
from engines.kanaster.state import Meld
from engines.memo import SHOWN


def test_kept_views_equal_views_worked_out_anew() -> None:
    kept_seen = 0
    for game in range(6):
        rng = random.Random(game)
        players = 2 + game % 3
        state = E.new_game(players, {}, f"kept-{game}")
        for _ in range(400):
            if E.result(state) is not None:
                break
            fresh = E.decode(json.loads(json.dumps(E.encode(state))))
            for viewer in (None, *range(players)):
                assert E.view(state, viewer) == E.view(fresh, viewer)
            kept_seen += sum(1 for m in state.melds if SHOWN in m.__dict__)
            seat = E.to_move(state)[0]
            moves = E.legal_moves(state, seat)
            state = E.apply(state, seat, moves[int(rng.random() * len(moves))])
    assert kept_seen > 0, "no meld was shown twice: the test checks nothing kept"


def test_a_copy_of_a_meld_with_other_cards_shows_its_own_cards() -> None:
    meld = Meld(0, "K", ("KC", "KD", "KH", "KS", "KC", "KD", "KH"))
    assert meld_json(0, meld)["tucked"] == []
    tucked = evolve(meld, tucked=("KS",))
    assert SHOWN not in tucked.__dict__
    assert meld_json(0, tucked)["tucked"] == ["KS"]
    assert meld_json(1, meld)["id"] == 1  # shown under another id: worked out again
