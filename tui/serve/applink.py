"""The served app's end of the control path (control.py): ask the server, get its one reply.

Inside a `coldwater serve` session the app finds its end of the socket pair from ``COLDWATER_SERVE_FD``
(``link()``; None outside a served session) and the key it was started for from the environment
(``served_key()``). Its screens ask the server to open, list and close tables, for a rematch, for
history and replays, and to play turn-based tables. The server's refusal or silence is raised as
``ServerUnavailable``, with words for a person.
"""

from __future__ import annotations

import asyncio
import os
import socket
from pathlib import Path
from typing import TYPE_CHECKING

import msgspec

from coldwater.tui.serve.control import (
    FD_ENV,
    KEY_ENV,
    OPENSSH_KEY_ENV,
    Failed,
    History,
    HistoryReply,
    ListTables,
    Opened,
    OpenTable,
    ReplayOf,
    Reply,
    Request,
    Saved,
    ServedTable,
    Tables,
    frame,
    read_frame,
    reply_decoder,
)
from coldwater.tui.serve.turnwire import DealBoards, TurnPosition, TurnReply, TurnRequest, TurnTables

if TYPE_CHECKING:
    from coldwater.net.discovery import Listing

REPLY_TIMEOUT = 10.0
"""Seconds the app waits for the server's reply before it says the server does not answer."""


def served_key() -> str:
    """The SSH key fingerprint this app was started for, or "" outside `coldwater serve`."""
    return os.environ.get(KEY_ENV, "")


def served_openssh_key() -> str:
    """The same key as `ssh-keygen -l` prints it (``SHA256:…``), or "" outside `coldwater serve`."""
    return os.environ.get(OPENSSH_KEY_ENV, "")


def die_with_server() -> None:
    """In a served app: end when the server process ends, however it ends.

    The server stops its apps when it is stopped politely; this covers SIGKILL
    and crashes, after which an orphaned app would keep its key's data folder
    locked and the key could not play on a restarted server. Linux only
    (prctl); elsewhere the polite stop is all there is.
    """
    if not os.environ.get(FD_ENV):
        return
    import ctypes
    import signal

    # The server ends a session with SIGHUP, and SIGHUP is how a dead server is noticed; a server
    # started under `nohup` would hand its apps SIGHUP ignored (exec keeps SIG_IGN), and then an
    # app whose server is gone reads a closed terminal forever.
    signal.signal(signal.SIGHUP, signal.SIG_DFL)
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, int(signal.SIGHUP))  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        return
    if os.getppid() == 1:  # the server was already gone before the line above
        raise SystemExit("coldwater: the server that started this app is gone")


class ServerUnavailable(Exception):
    """The control path to the server is missing or broken; the message says so for a person."""


class ServeLink:
    """The app's end of its control socket: one request at a time, one reply each."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self._streams: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None
        self._lock = asyncio.Lock()
        self._owed = 0
        """Replies the server owes for requests written on this link and not read yet."""

    @classmethod
    def from_env(cls) -> ServeLink | None:
        raw = os.environ.get(FD_ENV, "")
        return cls(int(raw)) if raw.isdigit() else None

    async def ask(self, request: Request) -> Reply:
        """The server's reply to `request`.

        A caller may be cancelled at any await (a screen's worker replaced, the screen closed). So the
        link works on a duplicate of the inherited descriptor (a half-opened socket dropped with its
        task closes the copy, never the original), and counts the replies it is owed: one left unread
        by a cancelled or timed-out request is read and dropped before the next request's own, which
        would otherwise get it as its answer."""
        async with self._lock:
            try:
                if self._streams is None:
                    sock = socket.socket(fileno=os.dup(self.fd))
                    self._streams = await asyncio.open_unix_connection(sock=sock)
                reader, writer = self._streams
                writer.write(frame(request))
                self._owed += 1  # (written: the server answers it, read or not)
                await writer.drain()
                while self._owed > 1:
                    await asyncio.wait_for(read_frame(reader), REPLY_TIMEOUT)  # a cancelled request's
                    self._owed -= 1
                data = await asyncio.wait_for(read_frame(reader), REPLY_TIMEOUT)
                self._owed -= 1
            except (OSError, TimeoutError, ValueError) as e:
                raise ServerUnavailable(f"the server does not answer ({str(e) or type(e).__name__})") from None
            if data is None:
                raise ServerUnavailable("the server closed the control connection")
            try:
                return reply_decoder.decode(data)
            except msgspec.DecodeError as e:
                raise ServerUnavailable(f"the server's reply is garbled ({e})") from None

    async def open_table(self, request: OpenTable) -> ServedTable:
        reply = await self.ask(request)
        if isinstance(reply, Opened):
            return reply.table
        raise ServerUnavailable(reply.reason if isinstance(reply, Failed) else "unexpected reply")

    async def tables(self) -> list[ServedTable]:
        reply = await self.ask(ListTables())
        if isinstance(reply, Tables):
            return reply.tables
        raise ServerUnavailable(reply.reason if isinstance(reply, Failed) else "unexpected reply")

    async def turn(self, request: TurnRequest) -> TurnReply:
        """A turn-based table request (turnwire.py); the server's refusal is raised as ServerUnavailable."""
        reply = await self.ask(request)
        if isinstance(reply, TurnTables | TurnPosition | DealBoards):
            return reply
        raise ServerUnavailable(reply.reason if isinstance(reply, Failed) else "unexpected reply")

    async def history(self) -> HistoryReply:
        reply = await self.ask(History())
        if isinstance(reply, HistoryReply):
            return reply
        raise ServerUnavailable(reply.reason if isinstance(reply, Failed) else "unexpected reply")

    async def replay_of(self, game_id: int) -> Path:
        reply = await self.ask(ReplayOf(game_id))
        if isinstance(reply, Saved):
            return Path(reply.path)
        raise ServerUnavailable(reply.reason if isinstance(reply, Failed) else "unexpected reply")


_links: dict[int, ServeLink] = {}


def link() -> ServeLink | None:
    """This process's link to its server (one per inherited descriptor), or None when not served."""
    found = ServeLink.from_env()
    if found is None:
        return None
    return _links.setdefault(found.fd, found)


def listing(t: ServedTable) -> Listing:
    """A server table as a LAN :class:`~coldwater.net.discovery.Listing` on loopback, for the Join screen."""
    from coldwater.net.discovery import Listing
    from coldwater.net.messages import PROTOCOL

    return Listing(
        service=f"served:{t.name}",
        table=t.name,
        game=t.game,
        host="127.0.0.1",
        port=t.port,
        open_seats=t.open_seats,
        v=PROTOCOL,
        content=t.content,
        fingerprint=t.fingerprint,
        needs_passphrase=t.needs_passphrase,
    )
