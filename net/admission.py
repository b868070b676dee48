"""The table's side of a connection: who it admits before and during the handshake.

Limits, so that a stranger on the LAN cannot pin a table:

- :func:`listen` runs its own accept loop: a failing ``accept()`` (out of file
  descriptors, say) is logged once per minute with a count (:class:`Quiet`), never a
  traceback per attempt, and the loop backs off instead of spinning.
- A :class:`Guard` admits a bounded number of connections that have not finished
  the handshake, per address and overall; past the overall cap the oldest waiting
  one is dropped, so a flood of idle connections cannot keep an honest joiner out.
  The table's side of the handshake (:func:`accept`) must finish within
  :data:`~.transport.ACCEPT_TIMEOUT`.
- Passphrase attempts are throttled per address and per table (token buckets in the
  Guard, :mod:`.ratelimit`), except a trusted key's: one seated or reserved at the table
  (``Guard.seated``) or one that gave the right passphrase here before, so a stranger's
  guessing never keeps a seated player out (docs/lan.md, "Passphrases").
"""

from __future__ import annotations

import asyncio
import collections
import logging
import socket
import time
from collections.abc import Awaitable, Callable

from . import messages as m
from .crypto import HandshakeError, ServerHandshake
from .identity import Identity
from .play.framing import MAX_FRAME, FrameError, encode_frame
from .ratelimit import TokenBucket
from .transport import (
    ACCEPT_TIMEOUT,
    Connection,
    close_refused,
    read_handshake_frame,
    refusal_reason,
    tune_socket,
)

log = logging.getLogger("coldwater.net")


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
        self.seated: Callable[[bytes], bool] | None = None
        """The table's word on a joiner's key: seated or reserved here (the host sets it)."""
        self._friends: collections.OrderedDict[bytes, None] = collections.OrderedDict()
        """Keys that gave the right passphrase at this table (bounded, most recent last)."""
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

    def trusted(self, key: bytes) -> bool:
        """Whether `key` (proven by the joiner's signed hello) skips the guessing limits: seated or reserved
        at this table, or it gave the right passphrase here before. A guesser cannot sign as such a key, so
        no wrong guess of a stranger's ever throttles it; it must still know the passphrase (the PAKE runs)."""
        return bool(key) and (key in self._friends or (self.seated is not None and self.seated(key)))

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

    def passphrase_ok(self, addr: str, key: bytes = b"", *, took: bool = True) -> None:
        """A right passphrase: give the token back (a person who knows it is never throttled by typos), and
        trust `key` from now on. `took`: the attempt paid tokens (a trusted key's paid none)."""
        if key:
            self._friends.pop(key, None)
            self._friends[key] = None
            while len(self._friends) > 256:
                self._friends.popitem(last=False)
        if not took:
            return
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
    spared = [False]

    def admit(key: bytes) -> str | None:
        assert guard is not None
        if guard.trusted(key):
            spared[0] = True
            return None
        return guard.try_passphrase(addr)

    hs = ServerHandshake(
        identity, game, content, table=table, pass_key=pass_key, admit=admit if guard is not None else None
    )
    try:
        async with asyncio.timeout(timeout):
            writer.write(encode_frame(hs.receive_hello(await read_handshake_frame(reader))))
            fin, channel = hs.receive_finish(await read_handshake_frame(reader))
            writer.write(encode_frame(fin))
            await writer.drain()
    except (TimeoutError, HandshakeError, FrameError, OSError) as e:
        reason = refusal_reason(e)
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
        await close_refused(writer, e)
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
        guard.passphrase_ok(addr, hs.peer, took=not spared[0])
    tune_socket(writer.get_extra_info("socket"))
    return Connection(reader, writer, channel)
