"""asyncio TCP connections carrying sealed, framed messages, and the limits around them.

:func:`connect` and :func:`accept` run the handshake; a :class:`Connection`
then sends and receives :data:`messages.Message` values. A frame that fails
any check (authentication, signature, sequence, shape) is refused with a logged
reason and counted; the connection survives, unless a peer keeps sending junk
(``max_strikes``) or breaks the framing itself, when it closes cleanly.

Limits, so that a stranger on the LAN cannot pin a table:

- :func:`listen` runs its own accept loop: a failing ``accept()`` (out of file
  descriptors, say) is logged once per minute with a count, never a traceback per
  attempt, and the loop backs off instead of spinning.
- A :class:`Guard` admits a bounded number of connections that have not finished
  the handshake, per address and overall; past the overall cap the oldest waiting
  one is dropped, so a flood of idle connections cannot keep an honest joiner out.
  The table's side of the handshake must finish within :data:`ACCEPT_TIMEOUT`.
- Passphrase attempts are throttled per address (a token bucket in the Guard).
- Every connection has TCP keepalive and ``TCP_USER_TIMEOUT`` (:func:`tune_socket`),
  so a vanished link is noticed without any message being sent.
- A connection whose unsent bytes pass ``max_buffer`` (a peer that stops reading)
  is closed instead of growing without bound.
"""

from __future__ import annotations

import asyncio
import collections
import logging
import os
import socket
import time
from collections.abc import Awaitable, Callable
from typing import Any

from . import messages as m
from .crypto import Channel, ChannelError, ClientHandshake, HandshakeError, ServerHandshake
from .framing import MAX_FRAME, FrameError, encode_frame, read_frame
from .identity import Identity, fingerprint
from .ratelimit import TokenBucket

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


class Quiet:
    """Logs a kind of event once, then at most once per `every` seconds with a count of the rest.

    For events a stranger can cause at will (failed accepts, dropped connections):
    a flood must not become a flood of log lines. Holds at most `kinds` keys.
    """

    def __init__(self, every: float = 60.0, *, kinds: int = 256, clock: Callable[[], float] = time.monotonic) -> None:
        self.every = every
        self._kinds = kinds
        self._clock = clock
        self._last: dict[str, float] = {}
        self._held: dict[str, int] = {}
        self.logged = 0
        """Lines actually written (tests)."""

    def warn(self, kind: str, text: str, level: int = logging.WARNING) -> None:
        now = self._clock()
        last = self._last.get(kind)
        if last is not None and now - last < self.every:
            self._held[kind] = self._held.get(kind, 0) + 1
            return
        if len(self._last) >= self._kinds and kind not in self._last:
            self._last.clear()
            self._held.clear()
        held = self._held.pop(kind, 0)
        self._last[kind] = now
        self.logged += 1
        more = f" ({held} more like it since)" if held else ""
        log.log(level, "%s%s", text, more)


class Guard:
    """What a listening table admits before the handshake is done, and how often it lets a passphrase be tried.

    ``per_address`` / ``total`` cap connections still in the handshake. Passphrase
    attempts cost a token from a per-address bucket of ``burst`` tokens that refills
    one token every ``refill`` seconds; a successful attempt gives its token back.

    A guesser with many addresses meets a second bucket, the table's own: ``table_burst``
    attempts, then one per ``table_refill`` seconds, the wait doubling each time the
    bucket runs dry again (up to ``table_refill_max``) until it has filled up once more.
    Each time it runs dry, ``notice`` is told (the host shows it): someone is guessing.
    An honest joiner may then wait too; that is the price of a short passphrase.
    """

    def __init__(
        self,
        *,
        per_address: int = 8,
        total: int = 64,
        burst: int = 5,
        refill: float = 2.0,
        addresses: int = 4096,
        table_burst: int = 20,
        table_refill: float = 2.0,
        table_refill_max: float = 60.0,
        notice: Callable[[str], None] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.per_address = per_address
        self.total = total
        self.burst = burst
        self.refill = refill
        self._addresses = addresses
        self._clock = clock
        self._pending: collections.OrderedDict[int, tuple[str, asyncio.StreamWriter]] = collections.OrderedDict()
        self._per: dict[str, int] = {}
        self._buckets: dict[str, TokenBucket] = {}
        """Per address, least recently tried first (an address is moved to the end when it tries)."""
        self.quiet = Quiet()
        self.turned_away = 0
        self.evicted = 0
        self.table_burst = table_burst
        self.table_refill_base = table_refill
        self.table_refill_max = table_refill_max
        self.notice = notice
        self._table = TokenBucket(1.0 / table_refill, table_burst, clock=clock)
        self._dry = False
        """An attempt was refused for want of a table token since the last one was used."""

    # ---- connections in the handshake ------------------------------------------------
    @property
    def pending(self) -> int:
        return len(self._pending)

    def enter(self, addr: str, writer: asyncio.StreamWriter) -> bool:
        """Admit a new connection from `addr` into the handshake, or say no (the caller hangs up)."""
        if self._per.get(addr, 0) >= self.per_address:
            self.turned_away += 1
            self.quiet.warn(
                f"busy:{addr}", f"turning away connections from {addr}: {self.per_address} already in the handshake"
            )
            return False
        while len(self._pending) >= self.total:
            # Drop the connection that has waited longest: idle floods age out first,
            # and an honest joiner (who finishes in milliseconds) always gets a place.
            _, (old_addr, old) = self._pending.popitem(last=False)
            self._dec(old_addr)
            self.evicted += 1
            self.quiet.warn("evict", f"too many unfinished handshakes; dropping the oldest (from {old_addr})")
            old.transport.abort()
        self._pending[id(writer)] = (addr, writer)
        self._per[addr] = self._per.get(addr, 0) + 1
        return True

    def leave(self, writer: asyncio.StreamWriter) -> None:
        """The handshake on `writer` is over (either way); idempotent."""
        entry = self._pending.pop(id(writer), None)
        if entry is not None:
            self._dec(entry[0])

    def _dec(self, addr: str) -> None:
        n = self._per.get(addr, 0) - 1
        if n > 0:
            self._per[addr] = n
        else:
            self._per.pop(addr, None)

    # ---- passphrase attempts ------------------------------------------------------
    @property
    def table_refill(self) -> float:
        """The table bucket's current refill interval in seconds (doubles per dry spell)."""
        return 1.0 / self._table.rate

    def _table_level(self) -> float:
        tokens = self._table.level()
        if tokens >= self.table_burst:
            self._table.set_rate(1.0 / self.table_refill_base)  # quiet long enough to fill up: the first pace again
        return tokens

    def try_passphrase(self, addr: str) -> str | None:
        """Take a token for one passphrase attempt; the refusal text when there is none left."""
        mine = self._buckets.get(addr) or TokenBucket(1.0 / self.refill, self.burst, clock=self._clock)
        if mine.level() < 1.0:
            self.quiet.warn(f"throttle:{addr}", f"throttling passphrase attempts from {addr}")
            return f"too many passphrase attempts from your address; try again in {mine.wait():.0f} s"
        if self._table_level() < 1.0:
            if not self._dry:  # dry again since the last token was used: the wait doubles
                self._dry = True
                slower = min(self.table_refill * 2, self.table_refill_max)
                if slower != self.table_refill:
                    self._table.set_rate(1.0 / slower)  # the tokens earned so far are kept
                    text = (
                        "many wrong passphrases from several addresses: someone may be guessing; "
                        f"attempts now one per {slower:.0f} s"
                    )
                    self.quiet.warn("throttle:table", text)
                    if self.notice is not None:
                        self.notice(text)
            return f"too many passphrase attempts at this table; try again in {self._table.wait():.0f} s"
        self._table.take()
        self._dry = False
        mine.take()
        # Kept only once it has paid a token, (re-)inserted last: the dict stays in least-recently-used order.
        self._buckets.pop(addr, None)
        self._buckets[addr] = mine
        if len(self._buckets) > self._addresses:
            for a in [a for a, b in self._buckets.items() if b.full()]:
                del self._buckets[a]
            # Then the least recently tried, down to 3/4 so that pruning is rare (not once per attempt).
            while len(self._buckets) > self._addresses * 3 // 4:
                del self._buckets[next(iter(self._buckets))]
        return None

    def passphrase_ok(self, addr: str) -> None:
        """A right passphrase: give the token back (a person who knows it is never throttled by typos)."""
        mine = self._buckets.get(addr)
        if mine is not None:
            mine.give_back()
        self._table_level()
        self._table.give_back()


class Listener:
    """A listening TCP socket with its own accept loop (see the module text); made by :func:`listen`."""

    def __init__(
        self,
        sock: socket.socket,
        handler: Callable[[asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]],
        guard: Guard | None,
    ) -> None:
        self._sock = sock
        self._handler = handler
        self.guard = guard
        self.quiet = guard.quiet if guard is not None else Quiet()
        self.accept_errors = 0
        self._tasks: set[asyncio.Task[None]] = set()
        self._loop_task: asyncio.Task[None] | None = None

    @property
    def sockets(self) -> list[socket.socket]:
        return [self._sock]

    @property
    def port(self) -> int:
        return int(self._sock.getsockname()[1])

    def start(self) -> None:
        self._loop_task = asyncio.ensure_future(self._accept_loop())

    async def _accept_loop(self) -> None:
        loop = asyncio.get_running_loop()
        pause = 0.05
        while True:
            try:
                sock, addr = await loop.sock_accept(self._sock)
            except OSError as e:
                # EMFILE and friends: say so once a minute, wait, try again (never spin).
                self.accept_errors += 1
                self.quiet.warn("accept", f"cannot accept connections: {e}", logging.ERROR)
                await asyncio.sleep(pause)
                pause = min(pause * 2, 1.0)
                continue
            pause = 0.05
            task = asyncio.ensure_future(self._serve(sock, str(addr[0])))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _serve(self, sock: socket.socket, addr: str) -> None:
        loop = asyncio.get_running_loop()
        try:
            tune_socket(sock)
            reader = asyncio.StreamReader(limit=MAX_FRAME + 64)
            protocol = asyncio.StreamReaderProtocol(reader)
            transport, _ = await loop.connect_accepted_socket(lambda: protocol, sock)
        except OSError as e:
            sock.close()
            self.quiet.warn("setup", f"could not set up a connection from {addr}: {e}")
            return
        writer = asyncio.StreamWriter(transport, protocol, reader, loop)
        if self.guard is not None and not self.guard.enter(addr, writer):
            transport.abort()
            return
        try:
            await self._handler(reader, writer)
        except Exception as e:  # one connection's failure must not reach the loop's handler, once per attempt
            self.quiet.warn(f"handler:{type(e).__name__}", f"connection from {addr} failed: {type(e).__name__}: {e}")
            transport.abort()
        finally:
            if self.guard is not None:
                self.guard.leave(writer)

    def close(self) -> None:
        if self._loop_task is not None:
            self._loop_task.cancel()
            self._loop_task = None
        self._sock.close()

    async def wait_closed(self) -> None:
        for t in list(self._tasks):
            t.cancel()
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)


async def listen(
    handler: Callable[[asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]],
    bind: str,
    port: int,
    *,
    guard: Guard | None = None,
    backlog: int = 128,
) -> Listener:
    """Listen on (bind, port) (port 0: any free port); `handler` runs for each admitted connection."""
    sock = socket.socket(socket.AF_INET6 if ":" in bind else socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((bind or "0.0.0.0", port))
        sock.listen(backlog)
        sock.setblocking(False)
    except OSError:
        sock.close()
        raise
    lst = Listener(sock, handler, guard)
    lst.start()
    return lst


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
        before = self.last_heard
        self.send_nowait(m.Ping(t=time.monotonic()))
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline and not self.closed:
            if self.last_heard != before:
                return True
            await asyncio.sleep(0.02)
        return False

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


async def _read(reader: asyncio.StreamReader) -> bytes:
    data = await read_frame(reader, 64 * 1024)
    if data is None:
        # An OSError, like a reset: hanging up is not a refusal of anything we said.
        raise ConnectionResetError("the other side closed during the handshake")
    return data


def _refusal_reason(e: BaseException) -> str:
    """Why a handshake failed, in words for the log and the person."""
    return e.reason if isinstance(e, HandshakeError) else f"handshake failed: {str(e) or 'timed out'}"


async def _close_refused(writer: asyncio.StreamWriter, e: BaseException) -> None:
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
            fin = hs.receive(await _read(reader))
            if check_host is not None:
                check_host(hs.table_name, hs.peer)
            writer.write(encode_frame(fin))
            channel = hs.confirm(await _read(reader))
    except Refusal:
        writer.close()
        raise
    except (TimeoutError, HandshakeError, FrameError, OSError) as e:
        reason = _refusal_reason(e)
        await _close_refused(writer, e)
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
            reply = m.decode_handshake(await _read(reader))
    except (TimeoutError, HandshakeError, FrameError, OSError, m.BadMessage) as e:
        raise Refusal(f"{host}:{port} is not a coldwater table ({str(e) or 'timed out'})") from None
    finally:
        writer.close()
    if isinstance(reply, m.HandshakeRefused):
        return reply.game, reply.content, reply.v, reply.code == "needs-passphrase"
    if isinstance(reply, m.HelloBack):
        return reply.game, reply.content, reply.v, bool(reply.pake)
    raise Refusal(f"{host}:{port} is not a coldwater table")


async def accept(
    reader: asyncio.StreamReader,
    writer: asyncio.StreamWriter,
    identity: Identity,
    game: str,
    content: str,
    *,
    pass_key: bytes = b"",
    table: str = "",
    timeout: float = ACCEPT_TIMEOUT,
    refused: list[str] | None = None,
    guard: Guard | None = None,
    keep_slot: bool = False,
) -> Connection | None:
    """The table's side of a new connection; None (logged, closed, reason added to `refused`) when refused.

    With a `guard`, passphrase attempts are throttled per address and the
    connection leaves the guard's count of unfinished handshakes when this returns,
    or, with `keep_slot`, only when the caller says (``guard.leave(conn.writer)``)
    that it has done what a stranger might not (the table's join), so a flood of
    handshakes that never join is capped as well.
    """
    peer = writer.get_extra_info("peername")
    addr = str(peer[0]) if peer else ""
    admit = (lambda: guard.try_passphrase(addr)) if guard is not None else None
    hs = ServerHandshake(identity, game, content, table=table, pass_key=pass_key, admit=admit)
    try:
        async with asyncio.timeout(timeout):
            writer.write(encode_frame(hs.receive_hello(await _read(reader))))
            fin, channel = hs.receive_finish(await _read(reader))
            writer.write(encode_frame(fin))
            await writer.drain()
    except (TimeoutError, HandshakeError, FrameError, OSError) as e:
        reason = _refusal_reason(e)
        quiet = guard.quiet if guard is not None else None
        if reason == "probe":
            log.info("answered a probe from %s", addr)
        elif not isinstance(e, HandshakeError):
            # Timeouts and hang-ups are what idle floods look like: log them sparingly, keep no record.
            text = f"dropped a connection from {addr} before the handshake finished: {reason}"
            quiet.warn(f"drop:{addr}", text, logging.INFO) if quiet else log.info("%s", text)
        else:
            text = f"refused connection from {addr}: {reason} (we are {m.build_label()})"
            quiet.warn(f"refuse:{addr}:{e.code or reason[:40]}", text) if quiet else log.warning("%s", text)
            if refused is not None:
                refused.append(f"handshake: {reason}")
        await _close_refused(writer, e)
        if guard is not None:
            guard.leave(writer)
        return None
    except BaseException:
        if guard is not None:
            guard.leave(writer)
        raise
    if guard is not None and not keep_slot:
        guard.leave(writer)
    if guard is not None and hs.attempted_passphrase:
        guard.passphrase_ok(addr)
    tune_socket(writer.get_extra_info("socket"))
    return Connection(reader, writer, channel)
