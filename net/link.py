"""The one transport seam of a LAN table: a :class:`Link` to one other process, and a :class:`Network` of them.

Every table session (host, seat, watcher) sends and receives through a
:class:`Link` and opens or accepts links through a :class:`Network`, never through
sockets itself. Two networks implement them:

- :class:`TcpNetwork` (the default): asyncio TCP, the sealed handshake of
  ``crypto.py``/``admission.py``, a :class:`~.transport.Connection` per link;
- ``memlink.MemoryNetwork``: an in-memory pair per link, in one process, the
  messages encoded and decoded as on the wire. Tests and the LAN benchmark run the
  real host and seats over it (as boardgame.io's tests run its master in process).

A listening table is a :class:`Door`: the terms a handshake checks (identity,
game, content, passphrase, the admission guard), and what to do with a link that
passed them. A peer's listener that hosts only after a failover is a door whose
terms are None until then.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from . import messages as m

if TYPE_CHECKING:
    from .admission import Guard
    from .identity import Identity
    from .transport import HostCheck


class Link(Protocol):
    """One open channel to one other process: ordered, authenticated messages (what a session uses)."""

    closed: bool
    close_reason: str
    """Why we closed it ourselves (empty when it closed otherwise)."""
    last_heard: float
    """When the last accepted message arrived (monotonic clock)."""
    refused: list[tuple[str, str]]
    """(kind, reason) of every refused incoming frame."""
    bytes_in: int
    bytes_out: int
    peer_addr: str
    label: str

    @property
    def peer_key(self) -> bytes: ...

    @property
    def fingerprint(self) -> str: ...

    def send_nowait(self, msg: m.Message) -> None: ...

    async def send(self, msg: m.Message) -> None: ...

    async def drain(self) -> None: ...

    def unsent(self) -> int:
        """Bytes queued for the other side and not yet taken by it."""
        ...

    async def recv(self) -> m.Message | None:
        """The next acceptable message; None once the link has closed."""
        ...

    async def answers(self, wait: float = 1.0) -> bool:
        """Whether the other side still answers a Ping within `wait` seconds."""
        ...

    def alive(self, within: float) -> bool: ...

    async def close(self) -> None: ...


async def ping_answered(link: Link, wait: float) -> bool:
    """Whether the other side of `link` answers a Ping within `wait` seconds (any message heard after
    it counts, so whoever reads `link` must be reading it): every link's :meth:`Link.answers`."""
    before = link.last_heard
    link.send_nowait(m.Ping(t=time.monotonic()))
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline and not link.closed:
        if link.last_heard != before:
            return True
        await asyncio.sleep(0.02)
    return False


@dataclass(frozen=True)
class Terms:
    """What a listening table's handshake checks and proves."""

    identity: Identity
    game: str
    content: str
    table: str
    pass_key: bytes
    guard: Guard | None


class Door(Protocol):
    """A listening table's side: its terms, and the links that passed them."""

    def terms(self) -> Terms | None:
        """The terms now (None: not admitting anyone; the connection is closed)."""
        ...

    async def enter(self, link: Link, joined: Callable[[], None]) -> None:
        """Serve one admitted link until it closes; `joined()` once it is no stranger's (it sent its join)."""
        ...

    def refused(self, text: str) -> None:
        """A handshake refused at this door, for the table's list of refusals."""
        ...


class Listening(Protocol):
    """A door open on a network: where, and how to close it."""

    @property
    def port(self) -> int: ...

    @property
    def guard(self) -> Guard | None: ...

    def close(self) -> None: ...


class Network(Protocol):
    """Where links come from: listening at a door, connecting to one, asking one what it plays."""

    async def listen(self, door: Door, bind: str, port: int, *, guard: Guard | None) -> Listening: ...

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
        """The link to the table at `host`:`port` and its name; raises transport.Refusal saying why not."""
        ...

    async def probe_table(self, host: str, port: int, *, timeout: float | None = None) -> tuple[str, str, int, bool]:
        """(game, content hash, protocol version, needs a passphrase) of the table there, without joining."""
        ...


class TcpNetwork:
    """asyncio TCP with the sealed handshake: the network every real table uses."""

    async def listen(self, door: Door, bind: str, port: int, *, guard: Guard | None) -> Listening:
        from .admission import accept, listen

        async def handler(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            t = door.terms()
            if t is None:
                writer.close()
                return
            refused: list[str] = []
            conn = await accept(
                reader,
                writer,
                t.identity,
                t.game,
                t.content,
                pass_key=t.pass_key,
                table=t.table,
                refused=refused,
                guard=t.guard,
                keep_slot=True,
            )
            for text in refused:
                door.refused(text)
            if conn is None:
                return
            g = t.guard
            await door.enter(conn, (lambda: g.leave(writer)) if g is not None else (lambda: None))

        return await listen(handler, bind, port, guard=guard)

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
        from .transport import HANDSHAKE_TIMEOUT, connect

        return await connect(
            host,
            port,
            identity,
            game,
            content,
            passphrase=passphrase,
            timeout=HANDSHAKE_TIMEOUT if timeout is None else timeout,
            check_host=check_host,
        )

    async def probe_table(self, host: str, port: int, *, timeout: float | None = None) -> tuple[str, str, int, bool]:
        from .transport import HANDSHAKE_TIMEOUT, probe_table

        return await probe_table(host, port, timeout=HANDSHAKE_TIMEOUT if timeout is None else timeout)


TCP = TcpNetwork()
"""The default network (it holds no state: one is enough)."""
