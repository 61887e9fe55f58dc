"""The store's own packing of a command (``service.store._pack``) writes the bytes redis-py writes for
the same arguments, and a command sent that way answers what the client answers."""

from __future__ import annotations

import pytest
import redis

from service.store import RedisStore, _pack


def _client_and_store(server) -> tuple[redis.Redis, RedisStore]:
    """A redis-py client of ``server`` and a store on it."""
    client = redis.Redis.from_url(server.url)
    return client, RedisStore(client)


def _redis_py_packed(args: tuple) -> bytes:
    return b"".join(redis.Connection().pack_command(*args))


@pytest.mark.parametrize("args", [
    ("HMGET", "cardtable:game:{g}", "v", "s", "p"),
    ("EVALSHA", "0" * 40, 2, "k1", "k2", 0, -7, 10**15, b"", "", "Grüße \u2603", b"\x00\xff\r\n" * 3000),
])
def test_a_command_is_packed_as_redis_py_packs_it(args: tuple) -> None:
    assert _pack(args) == _redis_py_packed(args)


@pytest.mark.parametrize("odd", [1.5, None, True, ["a"]])
def test_only_bytes_text_and_whole_numbers_are_packed(odd) -> None:
    with pytest.raises(TypeError):
        _pack(("SET", "k", odd))


def test_a_command_sent_by_the_store_answers_what_the_client_answers(redis_server) -> None:
    client, store = _client_and_store(redis_server)
    client.hset("cardtable:game:{wire}", mapping={"v": 3, "s": b"\x00snapshot\xff"})
    assert store._send("HMGET", "cardtable:game:{wire}", "v", "s", "p") == client.hmget(
        "cardtable:game:{wire}", ["v", "s", "p"]) == [b"3", b"\x00snapshot\xff", None]
    with pytest.raises(redis.exceptions.ResponseError):
        store._send("HMGET")  # an error answer is raised, and the connection goes on
    assert store._send("HMGET", "cardtable:game:{wire}", "v") == [b"3"]


def test_a_connection_that_breaks_is_tried_once_more_and_a_timeout_never(redis_server, monkeypatch) -> None:
    """As the client's own Retry: a broken connection (the server closed it between the pool's check
    and the read) is tried again at once, on a fresh connection; a second break, or a timeout, is
    the caller's."""
    client, store = _client_and_store(redis_server)
    real = redis.Connection.send_packed_command
    failures: list[type[Exception]] = []

    def send_packed_command(self, command, *args, **kw):
        if failures and any(b"cardtable:game:{gone}" in bytes(part) for part in command):  # not the handshake's
            self.disconnect()
            raise failures.pop(0)("broken on the way")
        return real(self, command, *args, **kw)

    monkeypatch.setattr(redis.Connection, "send_packed_command", send_packed_command)
    failures[:] = [redis.exceptions.ConnectionError]
    assert store._send("HMGET", "cardtable:game:{gone}", "v") == [None] and not failures
    failures[:] = [redis.exceptions.ConnectionError] * 2
    with pytest.raises(redis.exceptions.ConnectionError):
        store._send("HMGET", "cardtable:game:{gone}", "v")
    failures[:] = [redis.exceptions.TimeoutError]
    with pytest.raises(redis.exceptions.TimeoutError):
        store._send("HMGET", "cardtable:game:{gone}", "v")
    assert store._send("HMGET", "cardtable:game:{gone}", "v") == [None]  # the pool goes on


def test_the_store_keeps_its_own_connections_and_a_forked_process_none_of_its_parents(
        redis_server, monkeypatch) -> None:
    client, store = _client_and_store(redis_server)
    before = len(client.client_list())
    for _ in range(50):
        assert store._send("HMGET", "cardtable:game:{gone}", "v") == [None]
    assert len(client.client_list()) == before + 1 and len(store._idle) == 1  # one connection, used again
    parents = store._idle[0]
    monkeypatch.setattr("service.store.os.getpid", lambda: -1)  # as in a forked worker
    assert store._send("HMGET", "cardtable:game:{gone}", "v") == [None]
    assert store._idle and store._idle[0] is not parents


def test_connections_the_server_closed_while_idle_are_let_go_and_the_command_goes_through(redis_server) -> None:
    """After a restart (here: the server closes every connection) the first command finds its idle
    connection closed: it is answered on a new one, and the other idle ones are let go too."""
    client, store = _client_and_store(redis_server)
    held = [store._connection(new=True) for _ in range(3)]
    store._idle.extend(held)
    client.client_kill_filter(_type="normal", skipme=True)
    assert store._send("HMGET", "cardtable:game:{gone}", "v") == [None]
    assert len(store._idle) == 1 and store._idle[0] not in held
