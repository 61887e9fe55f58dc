"""A meld's JSON is kept on the meld once a view has shown it (``engines.memo``; that a kept answer is
what a view works out anew is tests/engines/test_kept_views.py): a meld copied with other cards (tucked
under a canasta) shows its new cards, not the kept ones, and a meld shown under another id shows that id."""

from __future__ import annotations

from engines.core import evolve
from engines.kanaster.events import meld_json
from engines.kanaster.state import Meld
from engines.memo import SHOWN


def test_a_copy_of_a_meld_with_other_cards_shows_its_own_cards() -> None:
    meld = Meld(0, "K", ("KC", "KD", "KH", "KS", "KC", "KD", "KH"))
    assert meld_json(0, meld)["tucked"] == []
    tucked = evolve(meld, tucked=("KS",))
    assert SHOWN not in tucked.__dict__
    assert meld_json(0, tucked)["tucked"] == ["KS"]
    assert meld_json(1, meld)["id"] == 1  # shown under another id: worked out again
