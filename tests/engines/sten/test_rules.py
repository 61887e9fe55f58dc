"""Rules of Sten, one test per rule paragraph of seeds/sten.md (section numbers in the names' docstrings).

Positions come from a fixed ``deck=`` (``deck_for``) or a direct state builder (``position``) that
checks card conservation; no test hunts for a seed.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

import pytest

from engines.cards import RANK_VALUE, SUITS, rank_of, shuffled, standard_deck, suit_of
from engines.core import IllegalMove, InvalidOptions, move_from_json, resolve_options
from engines.sten import ENGINE
from engines.sten.moves import Play, PlayAll, Stein
from engines.sten.options import OPTIONS
from engines.sten.state import StenOptions, StenState

E = ENGINE
DECK = standard_deck()
FULL = (1, 13)


# --- builders ------------------------------------------------------------------------------------------


def deck_for(
    players: int, hands: Mapping[int, Sequence[str]] | None = None, rest: Sequence[str] = (), uneven: bool = False
) -> list[str]:
    """A whole deck (top first) whose deal gives each seat in ``hands`` at least those cards and
    puts ``rest`` among the cards left over; everything else is filled in deck order."""
    hands = hands or {}
    n = 52 // players
    sizes = [n + (1 if uneven and s < 52 % players else 0) for s in range(players)]
    used = {c for h in hands.values() for c in h} | set(rest)
    filler = iter(c for c in DECK if c not in used)
    dealt = [list(hands.get(s, ())) for s in range(players)]
    for s in range(players):
        dealt[s] += [next(filler) for _ in range(sizes[s] - len(dealt[s]))]
    leftover = list(rest) + list(filler)
    deck: list[str] = []
    for i in range(max(sizes)):
        deck += [dealt[s][i] for s in range(players) if i < sizes[s]]
    return deck + leftover


def position(
    hands: Sequence[Sequence[str]],
    layout: Mapping[str, tuple[int, int]],
    *,
    remainder: Sequence[str] = (),
    dead: Sequence[str] = (),
    current: int = 0,
    stone: int | None = None,
    stone_before: int | None = None,
    options: Mapping[str, object] | None = None,
    turn: int = 10,
) -> StenState:
    """A mid-game state; every card must be placed, in a hand, in the remainder or dead."""
    opts = StenOptions(**resolve_options(OPTIONS, options))
    low = tuple(layout.get(s, (0, 0))[0] for s in SUITS)
    high = tuple(layout.get(s, (0, 0))[1] for s in SUITS)
    placed = [
        c
        for c in DECK
        if low[SUITS.index(c[-1])] and low[SUITS.index(c[-1])] <= RANK_VALUE[c[:-1]] <= high[SUITS.index(c[-1])]
    ]
    everything = [c for h in hands for c in h] + list(remainder) + list(dead) + placed
    assert Counter(everything) == Counter(DECK), sorted(set(DECK) - set(everything))
    return StenState(
        players=len(hands),
        options=opts,
        hands=tuple(tuple(h) for h in hands),
        remainder=tuple(remainder),
        dead=tuple(dead),
        low=low,
        high=high,
        current=current,
        opening=False,
        stone=stone,
        stone_before=stone_before,
        turn=turn,
        failed_play_all=False,
        winner=None,
        end=None,
    )


#: Clubs, diamonds and spades are finished; hearts lie from 5 to 9.
LATE = {"C": FULL, "D": FULL, "S": FULL, "H": (5, 9)}


def play(state: StenState, *moves: tuple[int, object]) -> StenState:
    for seat, move in moves:
        state = E.apply(state, seat, move)
    return state


def refused(state: StenState, seat: int, move: object, reason: str) -> None:
    with pytest.raises(IllegalMove) as info:
        E.apply(state, seat, move)
    assert info.value.reason == reason


# --- 2. dealing ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", range(2, 9))
def test_equal_hands_and_open_remainder_per_player_count(players: int) -> None:
    """seeds/sten.md 2.2: 52 // N cards each, 52 % N face up beside the layout (policy open)."""
    expected = {2: (26, 0), 3: (17, 1), 4: (13, 0), 5: (10, 2), 6: (8, 4), 7: (7, 3), 8: (6, 4)}[players]
    state = E.new_game(players, None, "sizes", deck=deck_for(players, {1: ["7H"]}))
    assert [len(h) for h in state.hands] == [expected[0]] * players
    assert len(state.remainder) == expected[1]
    assert state.dead == ()


@pytest.mark.parametrize("players", range(2, 9))
def test_uneven_deal_gives_the_first_seats_one_card_more(players: int) -> None:
    """seeds/sten.md 2.2: policy uneven deals all 52; seats 0 .. 52 % N - 1 get one card more."""
    state = E.new_game(players, {"remainder_policy": "uneven"}, "sizes")
    r = 52 % players
    assert [len(h) for h in state.hands] == [52 // players + (1 if s < r else 0) for s in range(players)]
    assert state.remainder == () and state.dead == ()


@pytest.mark.parametrize("players", range(2, 9))
def test_dead_deal_puts_the_leftover_face_down(players: int) -> None:
    """seeds/sten.md 2.2: policy dead: equal hands, the 52 % N leftover cards are out of play."""
    deck = deck_for(players, {0: ["7H"]})
    state = E.new_game(players, {"remainder_policy": "dead"}, "sizes", deck=deck)
    assert [len(h) for h in state.hands] == [52 // players] * players
    assert state.dead == tuple(deck[52 - 52 % players :])
    assert state.remainder == ()
    assert E.view(state, 0)["dead_count"] == 52 % players


def test_restrict_policy_allows_only_two_or_four_players() -> None:
    """seeds/sten.md 2.2: policy restrict refuses player counts that do not divide 52."""
    for players in (2, 4):
        E.new_game(players, {"remainder_policy": "restrict"}, "r")
    for players in (3, 5, 6, 7, 8):
        with pytest.raises(InvalidOptions) as info:
            E.new_game(players, {"remainder_policy": "restrict"}, "r")
        assert "players" in info.value.errors


def test_dealing_order_from_a_fixed_deck() -> None:
    """seeds/sten.md 2.1: one card at a time clockwise, the top card to seat 0; the rest, in deck
    order, is the remainder."""
    deck = list(DECK)
    deck.remove("7H")
    deck.insert(1, "7H")  # seat 1 gets it
    state = E.new_game(3, None, "order", deck=deck)
    for seat in range(3):
        assert sorted(state.hands[seat]) == sorted(deck[seat:51:3])
    assert state.remainder == (deck[51],)


def test_fixed_deck_deals_exactly_as_the_seeded_shuffle() -> None:
    """seeds/sten.md 2.1: dealing from ``deck`` equals dealing from shuffled(deck, seed, "deal")."""
    for players in (2, 3, 5, 8):
        seeded = E.new_game(players, None, "same-deal")
        fixed = E.new_game(players, None, "other-seed", deck=shuffled(DECK, "same-deal", "deal"))
        assert seeded == fixed


def test_bad_setup_is_refused() -> None:
    """seeds/sten.md 1 and 8: 2 to 8 players, valid options, the 52-card deck exactly."""
    for players in (1, 9, True):
        with pytest.raises(InvalidOptions):
            E.new_game(players, None, "x")  # type: ignore[arg-type]
    for options in ({"remainder_policy": "x"}, {"max_turns": 0}, {"nope": 1}, {"allow_voluntary_stein": 1}):
        with pytest.raises(InvalidOptions):
            E.new_game(4, options, "x")
    with pytest.raises(InvalidOptions):
        E.new_game(4, None, "x", deck=list(DECK[:-1]) + ["AC"])
    with pytest.raises(InvalidOptions):
        E.new_game(4, None, "x", deck=list(DECK) + ["JK"])


# --- 3. the opening ------------------------------------------------------------------------------------


def test_the_hearts_seven_holder_must_open() -> None:
    """seeds/sten.md 3: the 7H holder's first move is forced: he plays 7H, nothing else."""
    state = E.new_game(4, None, "open", deck=deck_for(4, {2: ["7H", "7S", "8H"]}))
    assert E.to_move(state) == (2,)
    assert E.legal_moves(state, 2) == (Play("7H"),)
    assert E.view(state, 2)["opening"] is True
    for seat in (0, 1, 3):
        assert E.legal_moves(state, seat) == ()
        refused(state, seat, Play("7H"), "not_your_turn")
    refused(state, 2, Play("7S"), "must_open_with_7h")
    refused(state, 2, Stein(), "must_open_with_7h")
    refused(state, 2, PlayAll(state.hands[2]), "must_open_with_7h")


def test_play_continues_left_of_the_opener() -> None:
    """seeds/sten.md 3: after the 7H the player to the opener's left (next seat) moves."""
    state = E.new_game(4, None, "open", deck=deck_for(4, {3: ["7H"]}))
    state = play(state, (3, Play("7H")))
    assert E.to_move(state) == (0,)
    assert state.opening is False
    assert E.view(state, None)["layout"][2]["cards"] == ["7H"]


def test_open_remainder_hearts_seven_is_placed_at_setup() -> None:
    """seeds/sten.md 3: a 7H in the open remainder is laid out at once; seat 0 begins."""
    state = E.new_game(3, None, "rem", deck=deck_for(3, rest=["7H"]))
    assert state.remainder == ()
    assert state.opening is False
    assert E.to_move(state) == (0,)
    layout = E.view(state, 0)["layout"][2]
    assert layout["opened"] is True and layout["cards"] == ["7H"]
    assert set(layout["fits"]) == {"6H", "8H"}


def test_dead_hearts_seven_lets_seat_zero_begin_and_hearts_never_open() -> None:
    """seeds/sten.md 3: a dead 7H: seat 0 begins, hearts stay closed for the whole game."""
    state = E.new_game(3, {"remainder_policy": "dead"}, "dead", deck=deck_for(3, rest=["7H"]))
    assert state.dead == ("7H",)
    assert E.to_move(state) == (0,)
    assert state.opening is False
    assert all(not (isinstance(m, Play) and m.card.endswith("H")) for m in E.legal_moves(state, 0))


# --- 4. the layout -------------------------------------------------------------------------------------


def test_hearts_build_up_from_eight_to_king() -> None:
    """seeds/sten.md 4.2: above the 7 the 8, then 9, 10, J, Q, K in order; the K closes the upper stack."""
    hearts_up = ["8H", "9H", "10H", "JH", "QH", "KH"]
    hands = [hearts_up + ["AC"], [c for c in DECK if c not in hearts_up and c not in ("AC", "7H")]]
    state = position(hands, {"H": (7, 7)})
    for i, card in enumerate(hearts_up):
        for later in hearts_up[i + 1 :]:
            refused(state, 0, Play(later), "card_does_not_fit")
        assert Play(card) in E.legal_moves(state, 0)
        state = E.apply(state, 0, Play(card))
        state = E.apply(state, 1, E.legal_moves(state, 1)[0])  # seat 1 plays anything that fits
    hearts = E.view(state, 0)["layout"][2]
    assert hearts["upper_done"] is True and hearts["lower_done"] is False
    assert hearts["cards"][-1] == "KH"
    assert hearts["fits"] and all(RANK_VALUE[rank_of(c)] < 7 for c in hearts["fits"])


def test_hearts_build_down_from_six_to_ace() -> None:
    """seeds/sten.md 4.2: below the 7 the 6, then 5, 4, 3, 2, A; the A closes the lower stack."""
    hearts_down = ["6H", "5H", "4H", "3H", "2H", "AH"]
    hands = [["AC"] + hearts_down, [c for c in DECK if c not in hearts_down and c not in ("AC", "7H")]]
    state = position(hands, {"H": (7, 7)})
    for i, card in enumerate(hearts_down):
        for later in hearts_down[i + 1 :]:
            refused(state, 0, Play(later), "card_does_not_fit")
        state = E.apply(state, 0, Play(card))
        state = E.apply(state, 1, E.legal_moves(state, 1)[0])
    hearts = E.view(state, 0)["layout"][2]
    assert hearts["lower_done"] is True and hearts["upper_done"] is False
    assert hearts["cards"][:2] == ["AH", "2H"]
    assert hearts["fits"] and all(RANK_VALUE[rank_of(c)] > 7 for c in hearts["fits"])


def test_no_card_of_a_suit_before_its_seven() -> None:
    """seeds/sten.md 4.1: no spade may be laid before the 7 of spades; then the stacks start with 8 and 6."""
    state = E.new_game(2, None, "spades", deck=deck_for(2, {0: ["7H", "9C"], 1: ["7S", "8S", "6S", "9S"]}))
    state = play(state, (0, Play("7H")))
    moves = E.legal_moves(state, 1)
    assert Play("7S") in moves
    assert not {Play("8S"), Play("6S"), Play("9S")} & set(moves)
    refused(state, 1, Play("8S"), "card_does_not_fit")
    state = play(state, (1, Play("7S")))
    state = play(state, (0, E.legal_moves(state, 0)[0]))
    moves = E.legal_moves(state, 1)
    assert Play("8S") in moves and Play("6S") in moves and Play("9S") not in moves


def test_a_seven_opens_its_suit_on_any_turn_by_free_choice() -> None:
    """seeds/sten.md 4.1: any 7 may open its suit on any own turn; playing it is a free choice."""
    state = E.new_game(2, None, "sevens", deck=deck_for(2, {0: ["7H", "8H", "7D"], 1: ["7C", "6H"]}))
    state = play(state, (0, Play("7H")))
    moves = E.legal_moves(state, 1)
    assert Play("7C") in moves and Play("6H") in moves
    after = play(state, (1, Play("6H")), (0, Play("7D")))
    assert E.view(after, None)["layout"][1]["cards"] == ["7D"]
    assert Play("7C") in E.legal_moves(after, 1)


# --- 5. turns: play and "Stein" ------------------------------------------------------------------------


def test_one_card_per_turn_then_the_next_seat() -> None:
    """seeds/sten.md 5.1: a play places exactly one card and passes the turn clockwise."""
    state = position([["4H", "10H"], ["3H", "JH", "QH"], ["2H", "AH", "KH"]], LATE)
    state = play(state, (0, Play("10H")))
    assert state.hands[0] == ("4H",)
    assert E.to_move(state) == (1,)
    assert state.turn == 11
    refused(state, 1, Play("10H"), "card_not_in_hand")
    refused(state, 1, Play("4H"), "card_not_in_hand")
    refused(state, 1, Play("QH"), "card_does_not_fit")
    refused(state, 1, Play("ZZ"), "malformed_move")
    refused(state, 1, Play(7), "malformed_move")  # type: ignore[arg-type]


def test_stein_only_when_no_card_fits_and_the_sayer_takes_the_stone() -> None:
    """seeds/sten.md 5.2: "Stein" is possible only when none of the cards fits; the sayer takes the
    stone from whoever holds it."""
    state = position([["QH", "KH"], ["AH", "2H", "3H", "4H", "10H", "JH"]], LATE, stone=1)
    assert E.legal_moves(state, 0) == (Stein(), PlayAll(("QH", "KH")))  # the declaration would fail (10)
    state = E.apply(state, 0, Stein())
    assert state.stone == 0 and state.stone_before == 1
    assert E.view(state, None)["stone_holder"] == 0
    assert E.to_move(state) == (1,)
    assert Stein() not in E.legal_moves(state, 1)
    refused(state, 1, Stein(), "card_fits")


def test_stein_again_by_the_holder_keeps_the_stone() -> None:
    """seeds/sten.md 5.2: saying "Stein" while holding the stone changes nothing but the turn."""
    state = position([["QH", "KH"], ["JH"], ["AH", "2H", "3H", "4H", "10H"]], LATE, stone=0, stone_before=2)
    state = E.apply(state, 0, Stein())
    assert (state.stone, state.stone_before) == (0, 2)


def test_voluntary_stein_option() -> None:
    """seeds/sten.md 5.2 and 8: allow_voluntary_stein lets a player pass (taking the stone) though a card fits."""
    hands = [["10H", "KH"], ["AH", "2H", "3H", "4H", "JH", "QH"]]
    state = position(hands, LATE, options={"allow_voluntary_stein": True})
    assert Stein() in E.legal_moves(state, 0) and Play("10H") in E.legal_moves(state, 0)
    assert E.apply(state, 0, Stein()).stone == 0


def test_open_remainder_card_may_be_played_by_anyone() -> None:
    """seeds/sten.md 5.1: under policy open a fitting remainder card counts as the mover's own; playing it
    takes it from the remainder and leaves the hand alone; "Stein" is refused while it fits."""
    state = position([["QH", "KH"], ["4H", "3H"], ["2H", "AH", "JH"]], LATE, remainder=["10H"])
    assert E.legal_moves(state, 0) == (Play("10H"), PlayAll(("QH", "KH")))
    refused(state, 0, Stein(), "card_fits")
    after = E.apply(state, 0, Play("10H"))
    assert after.remainder == () and after.hands[0] == ("QH", "KH")
    assert E.view(after, 1)["remainder"] == []
    assert E.to_move(after) == (1,)


# --- 6. the play-all declaration -----------------------------------------------------------------------

PA_HANDS = [["3H", "4H", "10H", "JH"], ["AH", "2H", "QH", "KH"]]


def test_play_all_in_the_right_order_wins_at_once() -> None:
    """seeds/sten.md 6: all hand cards laid in one turn in a fitting order: the declarer wins immediately."""
    state = position(PA_HANDS, LATE, stone=1)
    listed = [m for m in E.legal_moves(state, 0) if isinstance(m, PlayAll)]
    assert listed == [PlayAll(("10H", "JH", "4H", "3H"))]
    after = E.apply(state, 0, PlayAll(("4H", "10H", "3H", "JH")))
    assert after.hands[0] == ()
    assert E.to_move(after) == ()
    assert E.view(after, None)["layout"][2]["cards"][0] == "3H"
    res = E.result(after)
    assert res is not None and res.status == "finished"
    assert res.winners == (0,) and res.losers == (1,)
    assert dict(res.detail) == {"stone_holder": 1, "reason": "play_all"}


def test_failed_play_all_takes_the_cards_back_and_the_stone() -> None:
    """seeds/sten.md 6: submitted_order: a card that does not fit when reached is a mistake;
    every card goes back, the layout is as before, the declarer takes the stone, the turn ends."""
    state = position(PA_HANDS, LATE, stone=1)
    after = E.apply(state, 0, PlayAll(("10H", "JH", "3H", "4H")))
    assert after.hands == state.hands
    assert (after.low, after.high) == (state.low, state.high)
    assert (after.stone, after.stone_before) == (0, 1)
    assert E.to_move(after) == (1,)
    assert E.result(after) is None
    assert after.failed_play_all is False


def test_play_all_any_order_option_accepts_a_wrong_order_that_can_be_fixed() -> None:
    """seeds/sten.md 6 and 8: play_all_validation=any_order: success when some order fits."""
    state = position(PA_HANDS, LATE, options={"play_all_validation": "any_order"})
    after = E.apply(state, 0, PlayAll(("3H", "JH", "4H", "10H")))
    assert E.result(after) is not None and after.winner == 0 and after.end == "play_all"
    impossible = E.apply(E.apply(state, 0, Play("10H")), 1, PlayAll(("KH", "QH", "2H", "AH")))
    assert impossible.stone == 1 and impossible.hands[1] == ("AH", "2H", "QH", "KH")


def test_play_all_must_name_the_whole_hand_exactly() -> None:
    """seeds/sten.md 6: a declaration names every hand card once; anything else is refused unchanged."""
    state = position(PA_HANDS, LATE, remainder=(), stone=None)
    refused(state, 0, PlayAll(("10H", "JH", "4H")), "play_all_not_whole_hand")
    refused(state, 0, PlayAll(("10H", "JH", "4H", "3H", "3H")), "duplicate_card")
    refused(state, 0, PlayAll(("10H", "JH", "4H", "3H", "QH")), "card_not_in_hand")
    refused(state, 0, PlayAll(("10H", "JH", 4, "3H")), "malformed_move")  # type: ignore[arg-type]
    refused(state, 1, PlayAll(("AH", "2H", "QH", "KH")), "not_your_turn")


def test_play_all_may_use_remainder_option() -> None:
    """seeds/sten.md 6 and 8: open-remainder cards may bridge gaps only with the option."""
    hands = [["QH", "KH"], ["4H", "3H"], ["2H", "AH"]]
    state = position(hands, LATE, remainder=["10H", "JH"])
    assert [m for m in E.legal_moves(state, 0) if isinstance(m, PlayAll)] == [PlayAll(("QH", "KH"))]  # fails
    refused(state, 0, PlayAll(("10H", "JH", "QH", "KH")), "remainder_not_allowed")
    state = position(hands, LATE, remainder=["10H", "JH"], options={"play_all_may_use_remainder": True})
    listed = [m for m in E.legal_moves(state, 0) if isinstance(m, PlayAll)]
    assert listed == [PlayAll(("10H", "JH", "QH", "KH"))]
    after = E.apply(state, 0, listed[0])
    assert after.remainder == () and after.winner == 0


def test_failed_play_all_without_ending_the_turn() -> None:
    """seeds/sten.md 6: failed_play_all_ends_turn=false: the declarer keeps the stone and must then
    play a fitting card or say "Stein"; a second declaration in that turn is refused."""
    state = position(PA_HANDS, LATE, stone=1, options={"failed_play_all_ends_turn": False})
    after = E.apply(state, 0, PlayAll(("3H", "4H", "10H", "JH")))
    assert after.stone == 0 and E.to_move(after) == (0,)
    assert after.failed_play_all is True and E.view(after, 0)["failed_play_all"] is True
    moves = E.legal_moves(after, 0)
    assert moves == (Play("4H"), Play("10H"))
    refused(after, 0, PlayAll(("10H", "JH", "4H", "3H")), "play_all_already_failed")
    refused(after, 0, Stein(), "card_fits")
    nxt = E.apply(after, 0, Play("10H"))
    assert E.to_move(nxt) == (1,) and nxt.failed_play_all is False and nxt.stone == 0


def test_listed_play_all_wins_when_a_winning_one_exists_else_is_the_failing_whole_hand() -> None:
    """seeds/sten.md 10: legal_moves lists one winning declaration when one exists; otherwise the whole
    hand in hand order, a legal declaration that fails and costs the stone."""
    state = position(PA_HANDS, LATE, current=1)
    assert [m for m in E.legal_moves(state, 1) if isinstance(m, PlayAll)] == [PlayAll(("AH", "2H", "QH", "KH"))]
    after = E.apply(state, 1, PlayAll(("AH", "2H", "QH", "KH")))
    assert after.stone == 1 and after.hands == state.hands and E.result(after) is None
    state = position([["10H", "KH"], ["AH", "2H", "3H", "4H", "JH", "QH"]], LATE)
    assert [m for m in E.legal_moves(state, 0) if isinstance(m, PlayAll)] == [PlayAll(("10H", "KH"))]
    diamonds_elsewhere = [c for c in DECK if c[-1] == "D" and c not in ("6D", "7D", "8D")]
    hands = [["6D", "7D", "8D", "10H"], ["AH", "2H", "3H", "4H", "JH", "QH", "KH"] + diamonds_elsewhere]
    state = position(hands, {"C": FULL, "S": FULL, "H": (5, 9)})
    assert [m for m in E.legal_moves(state, 0) if isinstance(m, PlayAll)] == [PlayAll(("7D", "8D", "6D", "10H"))]


# --- 7. end of the game and the result -----------------------------------------------------------------


def test_first_empty_hand_wins_and_the_stone_holder_loses() -> None:
    """seeds/sten.md 7.1: the game ends as soon as a hand is empty; the stone holder loses."""
    state = position([["10H"], ["AH", "2H", "3H", "4H", "JH", "QH", "KH"]], LATE, stone=1, stone_before=0)
    after = E.apply(state, 0, Play("10H"))
    res = E.result(after)
    assert res is not None and res.status == "finished"
    assert (res.winners, res.losers) == ((0,), (1,))
    assert dict(res.detail) == {"stone_holder": 1, "reason": "empty_hand"}
    assert E.to_move(after) == () and E.legal_moves(after, 1) == ()
    refused(after, 1, Play("JH"), "game_over")


def test_a_remainder_play_does_not_empty_the_hand() -> None:
    """seeds/sten.md 7.1: only the hand counts; playing from the open remainder never wins."""
    state = position([["KH"], ["AH", "2H", "3H", "4H", "QH"], ["JH"]], LATE, remainder=["10H"])
    after = E.apply(state, 0, Play("10H"))
    assert E.result(after) is None


@pytest.mark.parametrize(
    ("conflict", "before", "losers"),
    [("previous_holder", 1, (1,)), ("previous_holder", None, ()), ("none", 1, ()), ("both", 1, (0,))],
)
def test_winner_holding_the_stone(conflict: str, before: int | None, losers: tuple[int, ...]) -> None:
    """seeds/sten.md 7.2: the winner holds the stone: stone_winner_conflict decides the loser."""
    state = position(
        [["10H"], ["AH", "2H", "3H", "4H", "JH", "QH", "KH"]],
        LATE,
        stone=0,
        stone_before=before,
        options={"stone_winner_conflict": conflict},
    )
    res = E.result(E.apply(state, 0, Play("10H")))
    assert res is not None and res.winners == (0,) and res.losers == losers
    assert res.detail["stone_holder"] == 0


def test_nobody_took_the_stone_means_no_loser() -> None:
    """seeds/sten.md 7.2: nobody ever said "Stein": there is no loser."""
    state = position([["10H"], ["AH", "2H", "3H", "4H", "JH", "QH", "KH"]], LATE)
    res = E.result(E.apply(state, 0, Play("10H")))
    assert res is not None and res.winners == (0,) and res.losers == ()
    assert res.detail["stone_holder"] is None


def test_stone_holder_after_a_long_game_loses() -> None:
    """seeds/sten.md 7.1: the stone passes from sayer to sayer; whoever holds it at the end loses."""
    state = position([["QH", "KH"], ["JH", "AH"], ["10H", "4H", "3H", "2H"]], LATE)
    state = play(state, (0, Stein()), (1, Stein()))
    assert (state.stone, state.stone_before) == (1, 0)
    state = play(state, (2, Play("10H")), (0, Stein()), (1, Play("JH")), (2, Play("4H")), (0, Play("QH")))
    state = play(state, (1, Stein()), (2, Play("3H")), (0, Play("KH")))
    res = E.result(state)
    assert res is not None and res.winners == (0,) and res.losers == (1,)
    assert res.detail == {"stone_holder": 1, "reason": "empty_hand"}


def test_dead_remainder_stall_ends_the_game() -> None:
    """seeds/sten.md 7.3: policy dead: once no hand card can ever fit, the game ends as stalled;
    fewest cards wins, the stone holder loses."""
    state = position(
        [["4H", "JH", "QH"], ["KH", "2H", "AH"]],
        LATE,
        dead=["10H", "3H"],
        stone=1,
        options={"remainder_policy": "dead"},
    )
    after = E.apply(state, 0, Play("4H"))
    res = E.result(after)
    assert res is not None and res.status == "finished"
    assert res.winners == (0,) and res.losers == (1,)
    assert dict(res.detail) == {"stone_holder": 1, "reason": "stalled"}
    assert E.to_move(after) == ()


def test_dead_remainder_stall_tie_has_no_winner() -> None:
    """seeds/sten.md 7.3: a tie for the fewest cards: nobody wins."""
    state = position(
        [["4H", "JH", "QH"], ["KH", "2H"]],
        LATE,
        dead=["10H", "3H", "AH"],
        stone=0,
        options={"remainder_policy": "dead"},
    )
    res = E.result(E.apply(state, 0, Play("4H")))
    assert res is not None and res.winners == () and res.losers == (0,)


def test_max_turns_aborts_the_game() -> None:
    """seeds/sten.md 7.4: the safety cap ends an endless game (voluntary "Stein") as aborted."""
    state = position(
        [["10H", "KH"], ["AH", "2H", "3H", "4H", "JH", "QH"]],
        LATE,
        turn=0,
        options={"allow_voluntary_stein": True, "max_turns": 3},
    )
    state = play(state, (0, Stein()), (1, Stein()))
    assert E.result(state) is None
    state = E.apply(state, 0, Stein())
    res = E.result(state)
    assert res is not None and res.status == "aborted"
    assert res.winners == () and res.losers == ()
    assert dict(res.detail) == {"stone_holder": 0, "reason": "max_turns"}


# --- 9. views, hidden information, the log -------------------------------------------------------------


def test_view_shows_only_the_viewers_hand() -> None:
    """seeds/sten.md 9: a seat sees its own hand, the others as counts; a spectator sees no hand."""
    state = E.new_game(3, None, "view", deck=deck_for(3, {0: ["7H"]}))
    mine = E.view(state, 1)
    assert mine["hand"] == list(state.hands[1])
    assert mine["hand_counts"] == [17, 17, 17]
    spectator = E.view(state, None)
    assert spectator["hand"] is None
    text = repr({k: v for k, v in spectator.items() if k != "layout"})  # layout "fits" names public 7s
    for card in state.hands[0] + state.hands[1] + state.hands[2]:
        assert f"'{card}'" not in text
    assert set(mine) == {
        "hand",
        "hand_counts",
        "layout",
        "remainder",
        "dead_count",
        "stone_holder",
        "opening",
        "failed_play_all",
        "play_all_wins",
        "current",
        "turns_played",
        "ended",
    }


def test_dead_cards_are_hidden_from_everyone() -> None:
    """seeds/sten.md 9: dead cards are face down: only their number is shown."""
    deck = deck_for(5, {0: ["7H"]})
    state = E.new_game(5, {"remainder_policy": "dead"}, "dead", deck=deck)
    for seat in (None, 0, 1):
        text = repr(E.view(state, seat))
        assert all(f"'{c}'" not in text for c in state.dead)


def test_shuffle_hidden_keeps_the_view_and_the_moves() -> None:
    """seeds/sten.md 9: what a seat sees and may do does not depend on the cards hidden from it."""
    state = E.new_game(5, {"remainder_policy": "dead"}, "hidden", deck=deck_for(5, {2: ["7H"]}))
    for seat in (None, 0, 1, 2):
        other = E.shuffle_hidden(state, seat, "another")
        assert other.hands != state.hands or other.dead != state.dead
        assert E.view(other, seat) == E.view(state, seat)
        if seat is not None:
            assert E.legal_moves(other, seat) == E.legal_moves(state, seat)
        assert E.to_move(other) == E.to_move(state)


def test_failed_declaration_log_shows_only_the_laid_cards() -> None:
    """seeds/sten.md 9: others see a failed declaration's cards up to the first that did not fit."""
    state = position(PA_HANDS, LATE)
    move = PlayAll(("10H", "JH", "3H", "4H"))
    assert E.redact_move(state, 0, move, 0) == move.to_json()
    assert E.redact_move(state, 0, move, 1) == {"type": "play_all", "cards": ["10H", "JH"]}
    assert E.redact_move(state, 0, move, None) == {"type": "play_all", "cards": ["10H", "JH"]}
    good = PlayAll(("10H", "JH", "4H", "3H"))
    assert E.redact_move(state, 0, good, None) == good.to_json()
    assert E.redact_move(state, 0, Play("10H"), 1) == {"type": "play", "card": "10H"}
    assert E.redact_move(state, 0, Stein(), None) == {"type": "stein"}


def test_moves_round_trip_through_json() -> None:
    """seeds/sten.md 5 and 6: the wire shapes of the three moves."""
    for move in (Play("7H"), Stein(), PlayAll(("8H", "9H"))):
        assert move_from_json(E.move_types, move.to_json()) == move
    assert PlayAll(("8H", "9H")).to_json() == {"type": "play_all", "cards": ["8H", "9H"]}
    assert Stein().to_json() == {"type": "stein"}


def test_snapshot_round_trip() -> None:
    """decode(encode(s)) == s, through JSON."""
    import json

    state = position(PA_HANDS, LATE, stone=1, stone_before=0, options={"remainder_policy": "dead"})
    assert E.decode(json.loads(json.dumps(E.encode(state)))) == state


def _cards_consistent(state: StenState) -> bool:
    placed = [
        c
        for c in DECK
        if state.low[SUITS.index(suit_of(c) or "C")]
        and state.low[SUITS.index(suit_of(c) or "C")]
        <= RANK_VALUE[rank_of(c)]
        <= state.high[SUITS.index(suit_of(c) or "C")]
    ]
    return Counter([c for h in state.hands for c in h] + list(state.remainder) + list(state.dead) + placed) == Counter(
        DECK
    )


def test_builders_are_consistent() -> None:
    """The test builders themselves keep every card exactly once."""
    assert _cards_consistent(position(PA_HANDS, LATE))
    assert _cards_consistent(E.new_game(7, None, "x", deck=deck_for(7, {6: ["7H"]}, rest=["KS"])))
