"""An in-memory :class:`~.link.Network`: the real host and seats in one process, no sockets.

Each :meth:`MemoryNetwork.connect` makes a pair of :class:`MemoryLink` ends; every
message is encoded on one end and decoded on the other (``messages.encode`` /
``decode``), so what crosses is what would cross a socket, shape checks and byte
counts included. The handshake is the door's terms checked directly: the game and
its content, the passphrase, the key the table proves (``check_host``). Nothing is
encrypted: both ends are in this process. Tests and ``tests/bench/bench_lan.py`` run
tables over it; the TCP network is the one players use.

A test may pass an :data:`Outgoing` filter: every message any end sends goes through it first,
with the sender's key (a dishonest process, rewriting or withholding what it sends, is one
filter; the messages it sees are the session's own, and it knows nothing of what they mean).
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from . import messages as m
from .crypto import passphrase_key
from .identity import Identity, fingerprint
from .link import Door, Link, ping_answered
from .transport import MAX_BUFFER, HostCheck, PassphraseNeeded, Refusal, WrongPassphrase

Outgoing = Callable[[bytes, m.Message], m.Message | None]
"""(the sender's key, a message it sends) → what leaves instead (None: nothing does)."""

FIRST_PORT = 40_000
"""The first port a door listening on port 0 is given (each next one is one more)."""


class MemoryLink:
    """One end of an in-memory pair (:func:`link_pair`); a :class:`~.link.Link`."""

    def __init__(
        self,
        own_key: bytes,
        peer_key: bytes,
        peer_addr: str,
        *,
        max_buffer: int = MAX_BUFFER,
        outgoing: Outgoing | None = None,
    ) -> None:
        self._peer_key = peer_key
        self.outgoing = outgoing
        self.own_key = own_key
        self.peer_addr = peer_addr
        self.label = f"{peer_addr} {fingerprint(peer_key)}"
        self.max_buffer = max_buffer
        self.closed = False
        self.close_reason = ""
        self.last_heard = time.monotonic()
        self.refused: list[tuple[str, str]] = []
        self.bytes_in = 0
        self.bytes_out = 0
        self.other: MemoryLink | None = None
        self._inbox: deque[bytes] = deque()
        self._queued = 0
        """Bytes in the inbox, not yet read (bounded by the sender's `max_buffer`)."""
        self._eof = False
        self._arrived = asyncio.Event()

    @property
    def peer_key(self) -> bytes:
        return self._peer_key

    @property
    def fingerprint(self) -> str:
        return fingerprint(self._peer_key)

    def _take(self, data: bytes | None) -> None:
        if data is None:
            self._eof = True
        else:
            self._inbox.append(data)
            self._queued += len(data)
        self._arrived.set()

    def send_nowait(self, msg: m.Message) -> None:
        if self.closed or self.other is None:
            return
        if self.outgoing is not None:
            out = self.outgoing(self.own_key, msg)
            if out is None:
                return
            msg = out
        data = m.encode(msg)
        self.bytes_out += len(data) + 4  # as a frame: its length prefix too
        self.other._take(data)
        if self.other._queued > self.max_buffer:
            # The other side stopped reading: drop it rather than hold its backlog (as TCP does).
            self.close_reason = f"more than {self.max_buffer} bytes unsent: {self.label} is not reading"
            self._shut()

    def unsent(self) -> int:
        return self.other._queued if self.other is not None and not self.closed else 0

    async def send(self, msg: m.Message) -> None:
        self.send_nowait(msg)
        await self.drain()

    async def drain(self) -> None:
        await asyncio.sleep(0)  # a turn of the loop, as a socket's drain gives the reader one

    async def recv(self) -> m.Message | None:
        while not self.closed:
            if self._inbox:
                data = self._inbox.popleft()
                self._queued -= len(data)
                self.bytes_in += len(data) + 4
                try:
                    msg = m.decode(data)
                except m.BadMessage as e:
                    self.refused.append(("malformed", str(e)))
                    continue
                self.last_heard = time.monotonic()
                return msg
            if self._eof:
                self._shut()
                return None
            self._arrived.clear()
            await self._arrived.wait()
        return None

    async def answers(self, wait: float = 1.0) -> bool:
        if self.closed:
            return False
        return await ping_answered(self, wait)

    def alive(self, within: float) -> bool:
        return not self.closed and time.monotonic() - self.last_heard <= within

    def _shut(self) -> None:
        if self.closed:
            return
        self.closed = True
        self._arrived.set()
        if self.other is not None:
            self.other._take(None)  # the other side reads what was sent, then the end

    async def close(self) -> None:
        self._shut()


def link_pair(
    a_key: bytes, b_key: bytes, a_addr: str, b_addr: str, *, outgoing: Outgoing | None = None
) -> tuple[MemoryLink, MemoryLink]:
    """Two joined ends: `a` (whose key is `a_key`, at `a_addr`) and `b`; each sees the other's key."""
    a = MemoryLink(a_key, b_key, b_addr, outgoing=outgoing)
    b = MemoryLink(b_key, a_key, a_addr, outgoing=outgoing)
    a.other, b.other = b, a
    return a, b


class _Open:
    """A door listening on the in-memory network (a :class:`~.link.Listening`)."""

    def __init__(self, net: MemoryNetwork, where: tuple[str, int], guard: Any) -> None:
        self._net = net
        self._where = where
        self._guard = guard

    @property
    def port(self) -> int:
        return self._where[1]

    @property
    def guard(self) -> Any:
        return self._guard

    def close(self) -> None:
        self._net.doors.pop(self._where, None)


class MemoryNetwork:
    """Doors by (address, port), and the links made to them; one per test or benchmark."""

    def __init__(self, *, outgoing: Outgoing | None = None) -> None:
        self.outgoing = outgoing
        """Every message sent on this network's links passes through it first (a test's filter), if any."""
        self.doors: dict[tuple[str, int], Door] = {}
        self._next_port = FIRST_PORT
        self._tasks: set[asyncio.Task[None]] = set()
        self.links: list[MemoryLink] = []
        """Every link end made (the joiner's), for tests that count bytes or cut a link."""

    @staticmethod
    def _addr(host: str) -> str:
        return "127.0.0.1" if host in ("", "0.0.0.0", "localhost", "::") else host

    async def listen(self, door: Door, bind: str, port: int, *, guard: Any = None) -> _Open:
        addr = self._addr(bind)
        if port == 0:
            while (addr, self._next_port) in self.doors:
                self._next_port += 1
            port = self._next_port
            self._next_port += 1
        elif (addr, port) in self.doors:
            raise OSError(f"{addr}:{port} is in use")
        self.doors[(addr, port)] = door
        return _Open(self, (addr, port), guard)

    def _door(self, host: str, port: int) -> Door:
        door = self.doors.get((self._addr(host), port))
        if door is None:
            raise Refusal(f"cannot reach {host}:{port}: connection refused")
        return door

    async def connect(
        self,
        host: str,
        port: int,
        identity: Identity,
        game: str,
        content: str,
        *,
        passphrase: str | None = None,
        timeout: float | None = None,
        check_host: HostCheck | None = None,
    ) -> tuple[Link, str]:
        await asyncio.sleep(0)
        door = self._door(host, port)
        t = door.terms()
        if t is None:
            raise Refusal(f"handshake failed: {host}:{port} closed the connection")
        if (t.game, t.content) != (game, content):
            door.refused("handshake: another game or content")
            raise Refusal(f"the table at {host}:{port} plays another game or content")
        given = passphrase_key(passphrase)
        if t.pass_key and not given:
            raise PassphraseNeeded("this table needs a passphrase")
        if t.pass_key and given != t.pass_key:
            door.refused("handshake: wrong passphrase")
            raise WrongPassphrase("wrong passphrase")
        if check_host is not None:
            check_host(t.table, t.identity.public)
        mine, theirs = link_pair(
            identity.public, t.identity.public, "127.0.0.1", self._addr(host), outgoing=self.outgoing
        )
        self.links.append(mine)
        task = asyncio.ensure_future(door.enter(theirs, lambda: None))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return mine, t.table

    async def probe_table(self, host: str, port: int, *, timeout: float | None = None) -> tuple[str, str, int, bool]:
        await asyncio.sleep(0)
        t = self._door(host, port).terms()
        if t is None:
            raise Refusal(f"{host}:{port} is not a coldwater table (closed)")
        return t.game, t.content, m.PROTOCOL, bool(t.pass_key)
