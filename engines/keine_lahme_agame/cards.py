"""The cards of Keine lahme Agame (seeds/keine-lahme-agame.md §1): colours, values and the hat.

Every card belongs to one player's colour ("Farbe"); a card's code is ``<colour>-<value>``: ``red-1``
... ``red-21`` (``red-34`` with card set H1) and ``red-hat`` for the hat ("Hut"). A colour's two 1s
are identical and share the code ``red-1``.
"""

from __future__ import annotations

from collections.abc import Sequence

#: Colours in seat order: seat i plays COLOURS[i] (the real colours are not published; seeds §1).
COLOURS: tuple[str, ...] = ("red", "yellow", "green", "blue", "purple")

#: The numbered cards ("Agamenkarten") of one colour, per card set (option ``card_set``, §1).
VALUES: dict[str, tuple[int, ...]] = {
    "H2": (1, 1, 2, 3, 5, 8, 13, 21),
    "H1": (1, 1, 2, 3, 5, 8, 13, 21, 34),
}

HAT = "hat"

#: The hat's strength in a trick and as payment ("Der Hut ist die höchste Karte"): above any sum.
HAT_STRENGTH = 1_000_000


def card_code(colour: str, value: int | None) -> str:
    """The code of a card; ``value`` None is the hat."""
    return f"{colour}-{HAT if value is None else value}"


def _all_cards() -> dict[str, tuple[int, int | None]]:
    info: dict[str, tuple[int, int | None]] = {}
    for ci, colour in enumerate(COLOURS):
        for v in VALUES["H1"]:
            info[card_code(colour, v)] = (ci, v)
        info[card_code(colour, None)] = (ci, None)
    return info


#: code -> (colour index, value or None for the hat), for every card of every card set.
CARD_INFO: dict[str, tuple[int, int | None]] = _all_cards()


def is_code(card: object) -> bool:
    """True for a well-formed card code of any colour and card set."""
    return isinstance(card, str) and card in CARD_INFO


def colour_index(card: str) -> int:
    return CARD_INFO[card][0]


def value_of(card: str) -> int | None:
    """Face value of a numbered card; None for the hat."""
    return CARD_INFO[card][1]


def is_hat(card: str) -> bool:
    return CARD_INFO[card][1] is None


def strength(card: str) -> int:
    """What a card counts in a trick or as payment: its value; the hat beats every sum."""
    v = CARD_INFO[card][1]
    return HAT_STRENGTH if v is None else v


def is_single_digit(card: str) -> bool:
    """The single-digit values are 1, 1, 2, 3, 5 and 8 ("Einstellige Kartenwerte")."""
    v = CARD_INFO[card][1]
    return v is not None and v < 10


def sort_key(card: str) -> tuple[int, int]:
    """Canonical order: colour in seat order, then value, the hat last."""
    ci, v = CARD_INFO[card]
    return (ci, HAT_STRENGTH if v is None else v)


def sort_cards(cards: Sequence[str]) -> tuple[str, ...]:
    return tuple(sorted(cards, key=sort_key))


def colour_cards(colour: str, card_set: str) -> tuple[str, ...]:
    """The playing cards of one colour, in canonical order (the reference card is not one)."""
    return tuple(card_code(colour, v) for v in VALUES[card_set]) + (card_code(colour, None),)


def full_deck(players: int, card_set: str) -> tuple[str, ...]:
    """Every playing card of a game: the colours of seats 0..players-1, in canonical order."""
    return tuple(c for colour in COLOURS[:players] for c in colour_cards(colour, card_set))
