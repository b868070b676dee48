"""asyncio TCP connections carrying sealed, framed messages: the joiner's side.

:func:`connect` runs the joiner's side of the handshake; a :class:`Connection`
then sends and receives :data:`messages.Message` values. A frame that fails
any check (authentication, signature, sequence, shape) is refused with a logged
reason and counted; the connection survives, unless a peer keeps sending junk
(``max_strikes``) or breaks the framing itself, when it closes cleanly. The
table's side (listening, the limits on strangers, :func:`~.admission.accept`) is
in ``admission.py``.

- Every connection has TCP keepalive and ``TCP_USER_TIMEOUT`` (:func:`tune_socket`),
  so a vanished link is noticed without any message being sent.
- A connection whose unsent bytes pass ``max_buffer`` (a peer that stops reading)
  is closed instead of growing without bound.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import time
from collections.abc import Callable
from typing import Any

from . import messages as m
from .crypto import Channel, ChannelError, ClientHandshake, HandshakeError
from .identity import Identity, fingerprint
from .link import ping_answered
from .play.framing import MAX_FRAME, FrameError, encode_frame, read_frame

log = logging.getLogger("coldwater.net")

HANDSHAKE_TIMEOUT = 10.0
"""Seconds a joiner waits for the table's side of the handshake."""
ACCEPT_TIMEOUT = 5.0
"""Seconds the table gives a new connection to finish the handshake (SPAKE2 included)."""
MAX_BUFFER = 4 << 20
"""Unsent bytes one connection may hold before it is closed (a peer that does not read)."""

# TCP liveness (Linux names; other systems keep what they support). A link that
# dies is noticed after KEEPIDLE + KEEPINTVL * KEEPCNT seconds of silence, and
# data unacknowledged for USER_TIMEOUT ms closes the socket.
KEEPIDLE = 5
KEEPINTVL = 2
KEEPCNT = 3
USER_TIMEOUT_MS = 10_000


class Refusal(Exception):
    """A connection refused during the handshake; the text says why, for a person."""


class PassphraseNeeded(Refusal):
    """The table needs a passphrase and none was given (ask the person for one)."""


class WrongPassphrase(Refusal):
    """The passphrase given is not the table's."""


class Throttled(Refusal):
    """Too many wrong passphrases from this address: wait, then try again."""


class AlreadySeated(Refusal):
    """Another live connection holds our seat with our key: the same identity runs twice."""


SAME_KEY = (
    "another live connection already holds this seat with your key (is coldwater running twice with one data folder?)"
)
"""The host's refusal text for a second live connection with one identity key."""


class HostKeyMismatch(Refusal):
    """The table proved a key other than the one advertised, pinned or remembered (a possible impostor)."""


_BY_CODE: dict[str, type[Refusal]] = {
    "needs-passphrase": PassphraseNeeded,
    "wrong-passphrase": WrongPassphrase,
    "throttled": Throttled,
}


def tune_socket(sock: Any) -> None:
    """TCP keepalive and TCP_USER_TIMEOUT on `sock` (a socket or asyncio's TransportSocket)."""
    if sock is None:
        return
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
        for name, value in (
            ("TCP_KEEPIDLE", KEEPIDLE),
            ("TCP_KEEPINTVL", KEEPINTVL),
            ("TCP_KEEPCNT", KEEPCNT),
            ("TCP_USER_TIMEOUT", USER_TIMEOUT_MS),
            ("TCP_NODELAY", 1),
        ):
            opt = getattr(socket, name, None)
            if opt is not None:
                sock.setsockopt(socket.IPPROTO_TCP, opt, value)
    except OSError as e:  # a socket already reset by the other side
        log.debug("could not set TCP options: %s", e)


class Backoff:
    """Delays between reconnect attempts: doubling from `base` to `cap`, with jitter.

    The jitter (each delay is 50–100 % of its step) comes from os.urandom, so peers
    that lost the same host do not retry in lockstep. :meth:`reset` after a success.
    """

    def __init__(self, base: float = 0.25, cap: float = 5.0) -> None:
        self.base = base
        self.cap = cap
        self.attempts = 0

    def next_delay(self) -> float:
        step: float = min(self.cap, self.base * 2.0 ** min(self.attempts, 30))
        self.attempts += 1
        u = int.from_bytes(os.urandom(4), "big") / 2**32
        return step * (0.5 + 0.5 * u)

    async def sleep(self) -> None:
        await asyncio.sleep(self.next_delay())

    def reset(self) -> None:
        self.attempts = 0


class Connection:
    def __init__(
        self,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        channel: Channel,
        *,
        max_frame: int = MAX_FRAME,
        max_strikes: int = 64,
        max_buffer: int = MAX_BUFFER,
    ) -> None:
        self.reader = reader
        self.writer = writer
        self.channel = channel
        self.max_frame = max_frame
        self.max_strikes = max_strikes
        self.max_buffer = max_buffer
        self.close_reason = ""
        """Why we closed it ourselves (empty when it closed otherwise)."""
        self.last_heard = time.monotonic()
        """When the last accepted message arrived (monotonic clock): is the other side alive?"""
        self.refused: list[tuple[str, str]] = []
        """(kind, reason) of every refused incoming frame, for the log and tests."""
        self.bytes_in = 0
        self.bytes_out = 0
        self.closed = False
        peer = writer.get_extra_info("peername")
        self.peer_addr: str = peer[0] if peer else ""
        self.label = f"{self.peer_addr} {channel.peer_fingerprint}"

    @property
    def peer_key(self) -> bytes:
        return self.channel.peer

    @property
    def fingerprint(self) -> str:
        return self.channel.peer_fingerprint

    def send_nowait(self, msg: m.Message) -> None:
        """Queue `msg` on the socket without waiting (order is kept: one writer per connection)."""
        if self.closed:
            return
        frame = encode_frame(self.channel.seal(m.encode(msg)), self.max_frame)
        self.bytes_out += len(frame)
        try:
            self.writer.write(frame)
        except (ConnectionError, RuntimeError):
            self.closed = True
            return
        self._check_buffer()

    def _check_buffer(self) -> None:
        if self.writer.transport.get_write_buffer_size() > self.max_buffer:
            # The other side stopped reading: drop it rather than hold its backlog.
            self.close_reason = f"more than {self.max_buffer} bytes unsent: {self.label} is not reading"
            log.warning("closing %s", self.close_reason)
            self.closed = True
            self.writer.transport.abort()

    def unsent(self) -> int:
        """Bytes written and not yet taken by the socket (a backlog the other side has not read)."""
        return int(self.writer.transport.get_write_buffer_size())

    async def send(self, msg: m.Message) -> None:
        self.send_nowait(msg)
        await self.drain()

    async def drain(self) -> None:
        if self.closed:
            return
        try:
            await self.writer.drain()
        except (ConnectionError, RuntimeError):
            self.closed = True

    def send_raw(self, payload: bytes) -> None:
        """Write an arbitrary frame payload (hostile-peer tests)."""
        frame = encode_frame(payload, 1 << 30)
        self.bytes_out += len(frame)
        self.writer.write(frame)
        self._check_buffer()

    async def answers(self, wait: float = 1.0) -> bool:
        """Whether the other side still answers: a Ping, and a reply (any message) within `wait` seconds.

        Whoever reads this connection must be reading it (the reply moves ``last_heard``).
        """
        if self.closed or self.writer.is_closing():
            return False
        return await ping_answered(self, wait)

    def alive(self, within: float) -> bool:
        """Open, and heard from within the last `within` seconds."""
        return not self.closed and not self.writer.is_closing() and time.monotonic() - self.last_heard <= within

    def refuse(self, kind: str, reason: str) -> None:
        self.refused.append((kind, reason))
        log.warning("refused %s from %s: %s", kind, self.label, reason)

    async def recv(self) -> m.Message | None:
        """The next acceptable message; None once the connection has closed."""
        while not self.closed:
            try:
                payload = await read_frame(self.reader, self.max_frame)
            except FrameError as e:
                self.refuse("framing", str(e))
                await self.close()
                return None
            except (ConnectionError, OSError):
                await self.close()
                return None
            if payload is None:
                await self.close()
                return None
            self.bytes_in += len(payload) + 4
            try:
                msg = m.decode(self.channel.open(payload))
                self.last_heard = time.monotonic()
                return msg
            except ChannelError as e:
                self.refuse(e.kind, str(e))
            except m.BadMessage as e:
                self.refuse("malformed", str(e))
            if len(self.refused) >= self.max_strikes:
                log.warning("closing %s: too many refused frames", self.label)
                await self.close()
        return None

    async def close(self) -> None:
        if self.closed and self.writer.is_closing():
            return
        self.closed = True
        try:
            self.writer.close()
            await asyncio.wait_for(self.writer.wait_closed(), 2.0)
        except (TimeoutError, ConnectionError, OSError, RuntimeError):
            pass


async def read_handshake_frame(reader: asyncio.StreamReader) -> bytes:
    data = await read_frame(reader, 64 * 1024)
    if data is None:
        # An OSError, like a reset: hanging up is not a refusal of anything we said.
        raise ConnectionResetError("the other side closed during the handshake")
    return data


def refusal_reason(e: BaseException) -> str:
    """Why a handshake failed, in words for the log and the person."""
    return e.reason if isinstance(e, HandshakeError) else f"handshake failed: {str(e) or 'timed out'}"


async def close_refused(writer: asyncio.StreamWriter, e: BaseException) -> None:
    """Tell the other side why (when the handshake has a reply for it), then hang up."""
    if isinstance(e, HandshakeError) and e.reply:
        try:
            writer.write(encode_frame(e.reply))
            await asyncio.wait_for(writer.drain(), 1.0)
        except (TimeoutError, OSError):
            pass
    writer.close()


HostCheck = Callable[[str, bytes], None]
"""Called with (table name, the table's proved identity key) before we confirm the
handshake; raises :class:`Refusal` (usually :class:`HostKeyMismatch`) to hang up."""


def expect_key(fp: str) -> HostCheck:
    """A HostCheck that accepts only the key with fingerprint `fp` (a pin, or a reconnect to a known host)."""

    def check(table: str, key: bytes) -> None:
        if fingerprint(key) != fp:
            raise HostKeyMismatch(f"the table {table!r} proved key {fingerprint(key)}, not {fp}: it may be an impostor")

    return check


async def connect(
    host: str,
    port: int,
    identity: Identity,
    game: str,
    content: str,
    *,
    passphrase: str | None = None,
    timeout: float = HANDSHAKE_TIMEOUT,
    version: int = m.PROTOCOL,
    check_host: HostCheck | None = None,
    local_addr: str | None = None,
) -> tuple[Connection, str]:
    """Open a channel to a table; returns the connection and the table's name. Refusal says why.

    `check_host` sees the key the table proved before we send our key confirmation,
    so an impostor it refuses does not even get one passphrase guess. `local_addr`
    picks the address we connect from (multi-homed machines, tests).
    """
    try:
        reader, writer = await asyncio.wait_for(
            asyncio.open_connection(host, port, local_addr=(local_addr, 0) if local_addr else None), timeout
        )
    except (TimeoutError, OSError) as e:
        raise Refusal(f"cannot reach {host}:{port}: {str(e) or 'timed out'}") from None
    tune_socket(writer.get_extra_info("socket"))
    hs = ClientHandshake(identity, game, content, passphrase, version=version)
    try:
        async with asyncio.timeout(timeout):
            writer.write(encode_frame(hs.hello()))
            fin = hs.receive(await read_handshake_frame(reader))
            if check_host is not None:
                check_host(hs.table_name, hs.peer)
            writer.write(encode_frame(fin))
            channel = hs.confirm(await read_handshake_frame(reader))
    except Refusal:
        writer.close()
        raise
    except (TimeoutError, HandshakeError, FrameError, OSError) as e:
        reason = refusal_reason(e)
        await close_refused(writer, e)
        cls = _BY_CODE.get(e.code, Refusal) if isinstance(e, HandshakeError) else Refusal
        raise cls(reason) from None
    return Connection(reader, writer, channel), hs.table_name


async def probe(host: str, port: int, *, timeout: float = HANDSHAKE_TIMEOUT) -> tuple[str, str, int]:
    """Ask a table at HOST:PORT which game, content and protocol it plays, without joining.

    A hello for no game is refused by the table with its own game, content hash and
    version, which is all we need to pick the engine before the real handshake.
    """
    game, content, v, _ = await probe_table(host, port, timeout=timeout)
    return game, content, v


async def probe_table(host: str, port: int, *, timeout: float = HANDSHAKE_TIMEOUT) -> tuple[str, str, int, bool]:
    """As :func:`probe`, and whether the table needs a passphrase."""
    try:
        reader, writer = await asyncio.wait_for(asyncio.open_connection(host, port), timeout)
    except (TimeoutError, OSError) as e:
        raise Refusal(f"cannot reach {host}:{port}: {str(e) or 'timed out'}") from None
    try:
        async with asyncio.timeout(timeout):
            hs = ClientHandshake(Identity.generate(), "", "")
            writer.write(encode_frame(hs.hello()))
            reply = m.decode_handshake(await read_handshake_frame(reader))
    except (TimeoutError, HandshakeError, FrameError, OSError, m.BadMessage) as e:
        raise Refusal(f"{host}:{port} is not a coldwater table ({str(e) or 'timed out'})") from None
    finally:
        writer.close()
    if isinstance(reply, m.HandshakeRefused):
        return reply.game, reply.content, reply.v, reply.code == "needs-passphrase"
    if isinstance(reply, m.HelloBack):
        return reply.game, reply.content, reply.v, bool(reply.pake)
    raise Refusal(f"{host}:{port} is not a coldwater table")
