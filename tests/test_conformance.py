"""Conformance over engines.REGISTRY (after OpenSpiel's api_test): every game keeps the contract.

Random seeds, random listed moves; every listed move applies and survives JSON; refused moves
raise IllegalMove with a stable reason; decode(encode(s)) == s; games end; views pass their
schema; a view and the legal moves do not change when the cards hidden from that seat are dealt
differently. (What core checks for every game, the turn and the end: tests/test_contract.py.)
"""

from __future__ import annotations

import dataclasses
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engines import REGISTRY
from engines.core import Engine, IllegalMove, Move, Result, move_from_json
from tests.playout import built, canonical, playout, served_view, short_options

ENGINES = sorted(REGISTRY.values(), key=lambda e: e.id)
IDS = [e.id for e in ENGINES]

SETTINGS = settings(max_examples=6, deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.too_slow])

#: At most this many listed moves are applied per position (all of them when fewer).
PROBE = 12


def _players(engine: Engine) -> st.SearchStrategy[int]:
    return st.sampled_from(list(engine.players))


def _probe(moves: tuple[Move, ...]) -> tuple[Move, ...]:
    if len(moves) <= PROBE:
        return moves
    step = len(moves) / PROBE
    return tuple(moves[int(i * step)] for i in range(PROBE))


def _corruptions(move: Move) -> list[Move]:
    """Variants of a listed move that are usually illegal: an impossible card, an empty or
    doubled list, a shifted number."""
    out: list[Move] = []
    for f in dataclasses.fields(move):
        value = getattr(move, f.name)
        if isinstance(value, bool):
            out.append(dataclasses.replace(move, **{f.name: not value}))
        elif isinstance(value, int):
            out.extend(dataclasses.replace(move, **{f.name: value + d}) for d in (-1, 1, 1000))
        elif isinstance(value, str):
            out.append(dataclasses.replace(move, **{f.name: "ZZ"}))
        elif isinstance(value, tuple):
            out.append(dataclasses.replace(move, **{f.name: ()}))
            if value:
                out.append(dataclasses.replace(move, **{f.name: value + value[:1]}))
    return out


def _check_position(engine: Engine, state, seat: int, legal: tuple[Move, ...], players: int) -> None:
    encoded = engine.encode(state)
    json.dumps(encoded)  # JSON-native
    assert engine.decode(json.loads(json.dumps(encoded))) == state, "decode(encode(s)) != s"
    for m in _probe(legal):
        engine.apply(state, seat, m)  # every listed move applies as listed
        assert type(m) in engine.move_types
        assert move_from_json(engine.move_types, json.loads(json.dumps(m.to_json()))) == m, "a move lost in JSON"
    waiting = [s for s in range(players) if s not in engine.to_move(state)]
    for other in waiting:
        assert engine.legal_moves(state, other) == (), "a seat not to move has legal moves"
    for m in _probe(legal)[:3]:
        for bad in _corruptions(m):
            try:
                engine.apply(state, seat, bad)
            except IllegalMove as exc:
                assert exc.reason and exc.reason == exc.reason.lower()
    # A refused move leaves nothing behind by construction: states are values (tests/test_contract.py).


@pytest.mark.parametrize("engine", ENGINES, ids=IDS)
@SETTINGS
@given(data=st.data())
def test_random_playouts_keep_the_contract(engine: Engine, data: st.DataObject) -> None:
    players = data.draw(_players(engine), label="players")
    seed = data.draw(st.text(min_size=1, max_size=8), label="seed")
    last = None
    for steps, step in enumerate(playout(engine, players, seed)):
        if steps % 7 == 0:
            _check_position(engine, step.state, step.seat, step.legal, players)
        last = step
    assert last is not None, "the game ended before its first move"
    end = engine.apply(last.state, last.seat, last.move)
    result = engine.result(end)
    assert isinstance(result, Result)
    assert engine.to_move(end) == ()
    for seat in range(players):
        assert engine.legal_moves(end, seat) == ()
        with pytest.raises(IllegalMove):
            engine.apply(end, seat, last.move)
    assert result.status in {"finished", "aborted"}
    assert all(0 <= s < players for s in result.winners + result.losers)
    assert engine.decode(engine.encode(end)) == end


@pytest.mark.parametrize("engine", ENGINES, ids=IDS)
@SETTINGS
@given(data=st.data())
def test_views_hide_what_the_seat_cannot_see(engine: Engine, data: st.DataObject) -> None:
    players = data.draw(_players(engine), label="players")
    seed = data.draw(st.text(min_size=1, max_size=8), label="seed")
    for n, step in enumerate(playout(engine, players, seed)):
        if n % 5:
            continue
        for viewer in [None, *range(players)]:
            view = engine.view(step.state, viewer)
            legal = engine.legal_moves(step.state, viewer) if viewer is not None else ()
            for k in range(2):
                other = engine.shuffle_hidden(step.state, viewer, f"{seed}/hidden/{n}/{k}")
                assert canonical(engine.view(other, viewer)) == canonical(view), (
                    f"seat {viewer}'s view changed when hidden cards were dealt differently")
                if viewer is not None:
                    assert engine.legal_moves(other, viewer) == legal
            assert seed not in json.dumps(view) or len(seed) < 4, "the seed leaked into a view"


def _refusal(engine: Engine, state, seat: int, move: Move) -> tuple[str, str] | None:
    try:
        engine.apply(state, seat, move)
    except IllegalMove as exc:
        return exc.reason, exc.message
    return None


@pytest.mark.parametrize("engine", ENGINES, ids=IDS)
@SETTINGS
@given(data=st.data())
def test_log_entries_and_refusals_hide_what_the_seat_cannot_see(engine: Engine, data: st.DataObject) -> None:
    """A log entry shown to another seat or a spectator, and the reason and message of a
    refused move, are the same however the cards hidden from that viewer lie. (The mover's
    own entry may name what the move showed him, such as the cards he drew.)"""
    players = data.draw(_players(engine), label="players")
    seed = data.draw(st.text(min_size=1, max_size=8), label="seed")
    for n, step in enumerate(playout(engine, players, seed)):
        if n % 4:
            continue
        mover = step.seat
        attempts = [bad for m in _probe(step.legal)[:3] for bad in _corruptions(m)]
        for viewer in [None, *range(players)]:
            other = engine.shuffle_hidden(step.state, viewer, f"{seed}/log/{n}")
            if viewer == mover:
                for bad in attempts:
                    assert _refusal(engine, other, mover, bad) == _refusal(engine, step.state, mover, bad), (
                        f"the refusal of {bad} depends on cards hidden from the mover")
            elif _refusal(engine, other, mover, step.move) is None:
                # (in a redeal where the move would be illegal the mover would not have made it)
                shown = engine.redact_move(step.state, mover, step.move, viewer)
                assert canonical(engine.redact_move(other, mover, step.move, viewer)) == canonical(shown), (
                    f"the log entry shown to {viewer} depends on cards hidden from it")


@pytest.mark.parametrize("engine", ENGINES, ids=IDS)
@SETTINGS
@given(data=st.data())
def test_views_match_their_wire_schema(engine: Engine, data: st.DataObject) -> None:
    schemas = built(engine)
    view_schema = schemas.view()
    players = data.draw(_players(engine), label="players")
    seed = data.draw(st.text(min_size=1, max_size=8), label="seed")
    state = None
    for n, step in enumerate(playout(engine, players, seed)):
        state = step.state
        if n % 9:
            continue
        for viewer in [None, *range(players)]:
            _validate_view(engine, view_schema, state, viewer)
    assert state is not None
    end = engine.apply(state, step.seat, step.move)
    for viewer in [None, *range(players)]:
        _validate_view(engine, view_schema, end, viewer)


def _validate_view(engine: Engine, view_schema, state, viewer) -> None:
    body = served_view(engine, state, viewer)
    errors = view_schema.validate(body)
    assert not errors, f"{engine.id} view for {viewer} does not match its schema: {errors}"


@pytest.mark.parametrize("engine", ENGINES, ids=IDS)
def test_options_are_validated(engine: Engine) -> None:
    from engines.core import InvalidOptions

    players = engine.players.start
    with pytest.raises(InvalidOptions):
        engine.new_game(players, {"no_such_option": 1}, "s")
    with pytest.raises(InvalidOptions):
        engine.new_game(engine.players.stop, {}, "s")
    with pytest.raises(InvalidOptions):
        engine.new_game(engine.players.start - 1, {}, "s")
    for opt in engine.options:
        wrong = "not-a-valid-value" if opt.kind != "choice" else 12345
        with pytest.raises(InvalidOptions):
            engine.new_game(players, {opt.name: wrong}, "s")
    defaults = {o.name: o.default for o in engine.options}
    assert engine.new_game(players, {}, "s") == engine.new_game(players, defaults, "s")


@pytest.mark.parametrize("engine", ENGINES, ids=IDS)
def test_every_integer_option_is_bounded_both_ways(engine: Engine) -> None:
    """No option takes an integer without bounds: a create cannot ask for a target of 2**63 (a game
    that never ends) or a safety cap that caps nothing; the bounds themselves are accepted."""
    from engines.core import InvalidOptions

    players = engine.players.start
    for opt in (o for o in engine.options if o.kind == "int"):
        assert opt.minimum is not None and opt.maximum is not None, opt.name
        for outside in (opt.maximum + 1, opt.minimum - 1, 2**63):
            with pytest.raises(InvalidOptions) as refused:
                engine.new_game(players, {opt.name: outside}, "s")
            assert f"options.{opt.name}" in refused.value.errors
        for bound in (opt.minimum, opt.maximum):
            assert opt.check(bound) is None, (opt.name, bound)


@pytest.mark.parametrize("engine", ENGINES, ids=IDS)
def test_the_deal_is_a_function_of_the_seed(engine: Engine) -> None:
    players = engine.players.start
    a = engine.new_game(players, short_options(engine), "seed-a")
    assert engine.new_game(players, short_options(engine), "seed-a") == a
    assert engine.new_game(players, short_options(engine), "seed-b") != a


@pytest.mark.parametrize("engine", ENGINES, ids=IDS)
def test_the_first_deck_deals_the_very_same_game(engine: Engine) -> None:
    """``first_deck`` is the deck a game was dealt from (an export's ``deck``): a game created with it
    and the same seed is the same game at every table size, and a fixed deck is its own first deck."""
    options = short_options(engine)
    for players in engine.players:
        for seed in ("deck-a", "deck-b"):
            deck = engine.first_deck(players, options, seed)
            assert sorted(deck) == sorted(engine.first_deck(players, options, "another")), "not the same cards"
            assert engine.new_game(players, options, seed, deck) == engine.new_game(players, options, seed)
            assert engine.first_deck(players, options, "another", deck) == deck
    players = engine.players.start
    assert engine.first_deck(players, options, "deck-a") != engine.first_deck(players, options, "deck-b")


@pytest.mark.parametrize("engine", ENGINES, ids=IDS)
def test_moves_round_trip_through_json(engine: Engine) -> None:
    from engines.core import move_from_json

    seen = set()
    for step in playout(engine, engine.players.start, "round-trip"):
        for m in step.legal:
            if type(m) not in seen or len(seen) < 50:
                assert move_from_json(engine.move_types, json.loads(json.dumps(m.to_json()))) == m
                seen.add(type(m))
