"""The Python SDK that openapi-python-client generates from the committed spec plays a whole game.

The client is generated into a temporary directory (tests/sdk/conftest.py), imported, and driven
against the service under gunicorn on a real redis-server: a two-player Sten game, all seats human,
every move taken from ``legal_moves`` as the generated typed move classes (``StenPlay``, ``StenStein``,
``StenPlayAll``) and posted through ``submit_sten_move``, until the game is over.
"""

from __future__ import annotations

import enum
import importlib
import json
import random
import time
import typing
from http import HTTPStatus
from types import ModuleType

from tests.sdk.tools import SPEC

MAX_MOVES = 2_000  # a two-player Sten game ends within 2 * 52 card plays plus stones; this is a safety cap
MAX_SECONDS = 60.0


def _move_classes(sdk: ModuleType, prefix: str) -> dict[str, type]:
    """The generated model class of each move kind named in the spec's ``<Prefix>Move`` discriminator."""
    spec = json.loads(SPEC.read_text())
    mapping = spec["components"]["schemas"][f"{prefix}Move"]["discriminator"]["mapping"]
    return {tag: getattr(sdk.models, ref.rsplit("/", 1)[1]) for tag, ref in mapping.items()}


def test_every_game_in_the_spec_has_typed_methods_and_move_classes(python_sdk: ModuleType) -> None:
    spec = json.loads(SPEC.read_text())
    prefixes = [op["operationId"][len("create"):-len("Game")] for path in spec["paths"].values()
                for op in path.values() if isinstance(op, dict)
                and op.get("operationId", "").startswith("create") and op["operationId"].endswith("Game")]
    assert "Sten" in prefixes
    for prefix in prefixes:
        snake = "".join("_" + c.lower() if c.isupper() else c for c in prefix).lstrip("_")
        create = next(item["post"] for item in spec["paths"].values()
                      if item.get("post", {}).get("operationId") == f"create{prefix}Game")
        tag = create["tags"][0]
        for op in (f"create_{snake}_game", f"get_{snake}_view", f"submit_{snake}_move", f"get_{snake}_log"):
            module = importlib.import_module(f"{python_sdk.__name__}.api.{tag.replace('-', '_')}.{op}")
            assert callable(module.sync_detailed), op
        for kind, cls in _move_classes(python_sdk, prefix).items():
            # The generator ignores `discriminator` and parses a union by trying each member in turn;
            # that is sound only while each move class's `type` is an enum of its own tag alone.
            tag_type = typing.get_type_hints(cls)["type_"]
            assert isinstance(tag_type, enum.EnumMeta), f"{cls.__name__}.type_ is {tag_type}, not an enum"
            assert [e.value for e in tag_type] == [kind], f"{cls.__name__}.type_ admits {list(tag_type)}"


def test_a_whole_sten_game_through_the_generated_client(python_sdk: ModuleType, sdk_live_url: str) -> None:
    from cardtable_client import AuthenticatedClient, Client
    from cardtable_client.api.sten import (
        check_sten_move,
        create_sten_game,
        get_sten_log,
        get_sten_view,
        submit_sten_move,
    )
    from cardtable_client.models import (
        MoveCheck,
        StenCreated,
        StenCreateRequest,
        StenLog,
        StenLogEntry,
        StenLoggedPlayAll,
        StenMoveAnswer,
        StenMoveProblem,
        StenMoveProblemReason,
        StenMoveRequest,
        StenPlay,
        StenPlayAll,
        StenPlayType,
        StenResult,
        StenStein,
        StenView,
        StenViewStatus,
    )

    moves_by_tag = _move_classes(python_sdk, "Sten")
    assert set(moves_by_tag.values()) == {StenPlay, StenStein, StenPlayAll}

    anonymous = Client(base_url=sdk_live_url, raise_on_unexpected_status=True)
    created = create_sten_game.sync_detailed(client=anonymous, body=StenCreateRequest(players=2, seed="sdk-python-1"))
    assert created.status_code == HTTPStatus.CREATED, created.content
    assert isinstance(created.parsed, StenCreated)
    game = created.parsed
    assert game.players == 2 and game.version == 0 and len(game.seats) == 2
    assert all(not s.bot and isinstance(s.token, str) for s in game.seats)
    seats = {s.seat: AuthenticatedClient(base_url=sdk_live_url, token=s.token, raise_on_unexpected_status=True)
             for s in game.seats}

    # A move built by hand with the typed classes: a card that is not in the game is refused with a
    # typed problem, its reason one of the game's, and nothing changes.
    opener = get_sten_view.sync(game.game_id, client=seats[0])
    assert isinstance(opener, StenView)
    to_move = opener.to_move[0]
    bogus = StenMoveRequest(move=StenPlay(type_=StenPlayType.PLAY, card="ZZ"), version=0)
    refused = submit_sten_move.sync_detailed(game.game_id, client=seats[to_move], body=bogus)
    assert refused.status_code == HTTPStatus.UNPROCESSABLE_ENTITY, refused.content
    assert isinstance(refused.parsed, StenMoveProblem)
    assert refused.parsed.code == "illegal_move" and refused.parsed.status == 422
    assert refused.parsed.reason == StenMoveProblemReason.MALFORMED_MOVE
    checked = check_sten_move.sync_detailed(game.game_id, client=seats[to_move], body=bogus)
    assert checked.status_code == HTTPStatus.UNPROCESSABLE_ENTITY and isinstance(checked.parsed, StenMoveProblem)
    assert checked.parsed.code == refused.parsed.code and checked.parsed.reason == refused.parsed.reason

    rng = random.Random("sdk-python")
    posted: dict[str, int] = {tag: 0 for tag in moves_by_tag}
    view: StenView | StenMoveAnswer | StenMoveProblem | None = opener
    deadline = time.monotonic() + MAX_SECONDS
    for _ in range(MAX_MOVES):
        assert isinstance(view, StenView | StenMoveAnswer)
        if view.status.value == StenViewStatus.FINISHED.value:
            break
        assert time.monotonic() < deadline, f"game not over after {MAX_SECONDS}s ({sum(posted.values())} moves)"
        seat = view.to_move[0]
        mine = get_sten_view.sync(game.game_id, client=seats[seat])
        assert isinstance(mine, StenView) and mine.seat == seat and seat in mine.to_move
        assert mine.legal_moves, "the seat to move has no legal move"
        for move in mine.legal_moves:
            assert isinstance(move, moves_by_tag[move.type_.value]), move
        move = rng.choice(mine.legal_moves)
        # A frontend checks a composed move first: the typed check answers legal, and changes nothing.
        check = check_sten_move.sync(game.game_id, client=seats[seat],
                                     body=StenMoveRequest(move=move, version=mine.version))
        assert isinstance(check, MoveCheck) and check.legal is True
        reply = submit_sten_move.sync_detailed(game.game_id, client=seats[seat],
                                               body=StenMoveRequest(move=move, version=mine.version))
        assert reply.status_code == HTTPStatus.OK, reply.content
        posted[move.type_.value] += 1
        view = reply.parsed
        assert isinstance(view, StenMoveAnswer) and view.version == mine.version + 1
        # the answer says what the request wrote: the move, typed as the log types it
        assert [type(e) for e in view.entries] == [StenLogEntry]
        assert (view.entries[0].seat, view.entries[0].version) == (seat, view.version)
        assert view.seats[seat].hand_count == len(view.state.hand)
    else:
        raise AssertionError(f"no end after {MAX_MOVES} moves")

    assert isinstance(view, StenMoveAnswer)
    assert view.to_move == [] and view.legal_moves == []
    assert posted["play"] > 0
    # The typed result: with a spec whose nullable `result` is modelled right, the generated client
    # parses it into StenResult (not an untyped catch-all object).
    assert isinstance(view.result, StenResult), (
        f"result parsed as {type(view.result).__name__}, not StenResult: the spec's nullable `result` "
        "admits any object besides StenResult (see tests/sdk/test_responses_match_spec.py)")
    assert view.result.status.value in {"finished", "aborted"}
    assert set(view.result.winners) <= {0, 1} and view.result.winners

    spectator = get_sten_view.sync(game.game_id, client=anonymous)
    assert isinstance(spectator, StenView) and spectator.seat is None and spectator.state.hand is None
    log = get_sten_log.sync(game.game_id, client=seats[0])
    assert isinstance(log, StenLog) and len(log.entries) == sum(posted.values()) == view.version
    # The log's moves are typed too (a play-all as the log shows it: its cards as the caller may see them).
    logged = (StenPlay, StenStein, StenLoggedPlayAll)
    assert all(isinstance(e.move, logged) for e in log.entries), {type(e.move).__name__ for e in log.entries}

    over = submit_sten_move.sync_detailed(game.game_id, client=seats[0],
                                          body=StenMoveRequest(move=StenStein.from_dict({"type": "stein"})))
    assert over.status_code == HTTPStatus.CONFLICT
    assert isinstance(over.parsed, StenMoveProblem) and over.parsed.code == "game_over"
    for client in (anonymous, *seats.values()):  # the server keeps connections alive: close ours
        client.get_httpx_client().close()


def test_people_find_each_other_and_play_again_through_the_generated_client(python_sdk: ModuleType,
                                                                             sdk_live_url: str) -> None:
    """Ann creates a listed game with an open seat; Bo finds it in the lobby and joins it with the
    invite; they play it out; Ann asks for a rematch (201) and Bo takes his seat in it (200, the same
    token on a second call); a lookup finds both seats. Every call and answer through the typed client."""
    from cardtable_client import AuthenticatedClient, Client
    from cardtable_client.api.service import lookup_games
    from cardtable_client.api.sten import (
        create_sten_game,
        get_sten_view,
        join_sten_game,
        list_sten_games,
        rematch_sten_game,
        submit_sten_move,
    )
    from cardtable_client.models import (
        Joined,
        JoinRequest,
        Lobby,
        LookupAnswer,
        LookupItem,
        LookupRequest,
        Rematched,
        SeatOpen,
        SeatPerson,
        StenCreated,
        StenCreateRequest,
        StenMoveRequest,
        StenView,
    )

    anonymous = Client(base_url=sdk_live_url, raise_on_unexpected_status=True)
    created = create_sten_game.sync(client=anonymous, body=StenCreateRequest(
        players=2, seats=[SeatPerson(name="Ann"), SeatOpen(open_=True)], listed=True))
    assert isinstance(created, StenCreated) and created.status.value == "waiting" and isinstance(created.invite, str)
    ann = AuthenticatedClient(base_url=sdk_live_url, token=created.seats[0].token, raise_on_unexpected_status=True)

    lobby = list_sten_games.sync(client=anonymous, limit=50)
    assert isinstance(lobby, Lobby) and created.game_id in [g.game_id for g in lobby.games]
    joined = join_sten_game.sync_detailed(created.game_id, client=anonymous,
                                          body=JoinRequest(name="Bo", invite=created.invite))
    assert joined.status_code == HTTPStatus.CREATED and isinstance(joined.parsed, Joined)
    bo = AuthenticatedClient(base_url=sdk_live_url, token=joined.parsed.token, raise_on_unexpected_status=True)
    seats = {0: ann, 1: bo}

    rng = random.Random("sdk-people")
    view = get_sten_view.sync(created.game_id, client=anonymous)
    for _ in range(MAX_MOVES):
        assert isinstance(view, StenView)
        if view.status.value == "finished":
            break
        seat = view.to_move[0]
        mine = get_sten_view.sync(created.game_id, client=seats[seat])
        assert isinstance(mine, StenView) and [s.name for s in mine.seats] == ["Ann", "Bo"]
        submit_sten_move.sync(created.game_id, client=seats[seat],
                              body=StenMoveRequest(move=rng.choice(mine.legal_moves), version=mine.version))
        view = get_sten_view.sync(created.game_id, client=anonymous)
    assert isinstance(view, StenView) and view.status.value == "finished"

    first = rematch_sten_game.sync_detailed(created.game_id, client=ann)
    assert first.status_code == HTTPStatus.CREATED and isinstance(first.parsed, Rematched) and first.parsed.seat == 1
    later = rematch_sten_game.sync_detailed(created.game_id, client=bo)
    again = rematch_sten_game.sync_detailed(created.game_id, client=bo)
    assert later.status_code == again.status_code == HTTPStatus.OK and isinstance(later.parsed, Rematched)
    assert later.parsed.game_id == first.parsed.game_id and later.parsed.seat == 0
    assert again.parsed == later.parsed  # the same token again
    finished = get_sten_view.sync(created.game_id, client=anonymous)
    assert isinstance(finished, StenView) and finished.next_game_id == first.parsed.game_id

    found = lookup_games.sync(client=anonymous, body=LookupRequest(tokens=[first.parsed.token, "no-such-token"]))
    assert isinstance(found, LookupAnswer) and isinstance(found.games[0], LookupItem) and found.games[1] is None
    assert (found.games[0].game_id, found.games[0].seat, found.games[0].status.value) == (
        first.parsed.game_id, 1, "active")
    for client in (anonymous, ann, bo):
        client.get_httpx_client().close()
