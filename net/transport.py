"""asyncio TCP connections carrying sealed, framed messages.

:func:`connect` and :func:`accept` run the handshake; a :class:`Connection`
then sends and receives :data:`messages.Message` values. A frame that fails
any check (authentication, signature, sequence, shape) is refused with a logged
reason and counted; the connection survives, unless a peer keeps sending junk
(``max_strikes``) or breaks the framing itself, when it closes cleanly.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from . import messages as m
from .crypto import Channel, ChannelError, ClientHandshake, HandshakeError, ServerHandshake
from .framing import MAX_FRAME, FrameError, encode_frame, read_frame
from .identity import Identity

log = logging.getLogger("coldwater.net")

HANDSHAKE_TIMEOUT = 10.0


class Refusal(Exception):
    """A connection refused during the handshake; the text says why, for a person."""


class Connection:
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, channel: Channel,
                 *, max_frame: int = MAX_FRAME, max_strikes: int = 64) -> None:
        self.reader = reader
        self.writer = writer
        self.channel = channel
        self.max_frame = max_frame
        self.max_strikes = max_strikes
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

    def send_nowait(self, msg: Any) -> None:
        """Queue `msg` on the socket without waiting (order is kept: one writer per connection)."""
        if self.closed:
            return
        frame = encode_frame(self.channel.seal(m.encode(msg)), self.max_frame)
        self.bytes_out += len(frame)
        try:
            self.writer.write(frame)
        except (ConnectionError, RuntimeError):
            self.closed = True

    async def send(self, msg: Any) -> None:
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
                return m.decode(self.channel.open(payload))
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
        except (ConnectionError, OSError, asyncio.TimeoutError, RuntimeError):
            pass


async def _read(reader: asyncio.StreamReader) -> bytes:
    data = await read_frame(reader, 64 * 1024)
    if data is None:
        raise HandshakeError("the other side closed during the handshake")
    return data


def _refusal_reason(e: BaseException) -> str:
    """Why a handshake failed, in words for the log and the person."""
    return e.reason if isinstance(e, HandshakeError) else f"handshake failed: {str(e) or 'timed out'}"


async def _close_refused(writer: asyncio.StreamWriter, e: BaseException) -> None:
    """Tell the other side why (when the handshake has a reply for it), then hang up."""
    if isinstance(e, HandshakeError) and e.reply:
        try:
            writer.write(encode_frame(e.reply))
            await writer.drain()
        except OSError:
            pass
    writer.close()


async def connect(host: str, port: int, identity: Identity, game: str, content: str, *,
                  passphrase: str | None = None, timeout: float = HANDSHAKE_TIMEOUT,
                  version: int = m.PROTOCOL) -> tuple[Connection, str]:
    """Open a channel to a table; returns the connection and the table's name. Refusal says why."""
    try:
        reader, writer = await asyncio.wait_for(asyncio.open_connection(host, port), timeout)
    except (OSError, asyncio.TimeoutError) as e:
        raise Refusal(f"cannot reach {host}:{port}: {str(e) or 'timed out'}") from None
    hs = ClientHandshake(identity, game, content, passphrase, version=version)
    try:
        async with asyncio.timeout(timeout):
            writer.write(encode_frame(hs.hello()))
            fin = hs.receive(await _read(reader))
            writer.write(encode_frame(fin))
            channel = hs.confirm(await _read(reader))
    except (HandshakeError, FrameError, OSError, asyncio.TimeoutError) as e:
        reason = _refusal_reason(e)
        await _close_refused(writer, e)
        raise Refusal(reason) from None
    return Connection(reader, writer, channel), hs.table_name


async def probe(host: str, port: int, *, timeout: float = HANDSHAKE_TIMEOUT) -> tuple[str, str, int]:
    """Ask a table at HOST:PORT which game, content and protocol it plays, without joining.

    A hello for no game is refused by the table with its own game, content hash and
    version, which is all we need to pick the engine before the real handshake.
    """
    try:
        reader, writer = await asyncio.wait_for(asyncio.open_connection(host, port), timeout)
    except (OSError, asyncio.TimeoutError) as e:
        raise Refusal(f"cannot reach {host}:{port}: {str(e) or 'timed out'}") from None
    try:
        async with asyncio.timeout(timeout):
            hs = ClientHandshake(Identity.generate(), "", "")
            writer.write(encode_frame(hs.hello()))
            reply = m.decode_handshake(await _read(reader))
    except (HandshakeError, FrameError, OSError, asyncio.TimeoutError, m.BadMessage) as e:
        raise Refusal(f"{host}:{port} is not a coldwater table ({str(e) or 'timed out'})") from None
    finally:
        writer.close()
    if isinstance(reply, m.HandshakeRefused | m.HelloBack):
        return reply.game, reply.content, reply.v
    raise Refusal(f"{host}:{port} is not a coldwater table")


async def accept(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, identity: Identity, game: str,
                 content: str, *, pass_key: bytes = b"", table: str = "",
                 timeout: float = HANDSHAKE_TIMEOUT, refused: list[str] | None = None) -> Connection | None:
    """The table's side of a new connection; None (logged, closed, reason added to `refused`) when refused."""
    hs = ServerHandshake(identity, game, content, table=table, pass_key=pass_key)
    peer = writer.get_extra_info("peername")
    try:
        async with asyncio.timeout(timeout):
            writer.write(encode_frame(hs.receive_hello(await _read(reader))))
            fin, channel = hs.receive_finish(await _read(reader))
            writer.write(encode_frame(fin))
            await writer.drain()
    except (HandshakeError, FrameError, OSError, asyncio.TimeoutError) as e:
        reason = _refusal_reason(e)
        if reason == "probe":
            log.info("answered a probe from %s", peer)
        else:
            log.warning("refused connection from %s: %s", peer, reason)
            if refused is not None:
                refused.append(f"handshake: {reason}")
        await _close_refused(writer, e)
        return None
    return Connection(reader, writer, channel)
