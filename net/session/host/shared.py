"""What the pieces of a LAN host share: the table's life, a remote seat, and what each phase is handed.

:class:`~.host.TableHost` is the host; the phases of its protocol live in modules
of their own (``fairhost.py``, ``relay.py``, ``beacons.py``, ``rematch.py``, …), each
a class that owns its state. A phase's constructor names everything it may touch, and
mypy holds it to that: the table's shared :class:`~..record.TableRecord`, an
:class:`Outbox` (what it says to the table), the :class:`Tasks` it runs and waits on,
the :class:`~..turnclock.TurnClock` where it times moves, the table's :class:`TableTerms`
where it reads them, the other phases it works with, and one small protocol of its own
(``BeaconsTable``, ``RelayTable``, … beside the phase) listing the few further members
of the table it reads or sets. The host is the one object that has them all; no phase
is handed the whole of it, and no phase reaches another through it
(tests/net/session/test_narrow.py holds both).
"""

from __future__ import annotations

import asyncio
import enum
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from ... import messages as m
from ...identity import fingerprint
from ...link import Link
from ...ratelimit import TokenBucket

if TYPE_CHECKING:
    from coldwater.core.state import Game

    from ...identity import Identity
    from ..events import Event


class HostPhase(enum.Enum):
    LOBBY = "lobby"
    """Seats are filling; a peer that leaves frees its seat."""
    SEEDING = "seeding"
    """The commit-reveal round is running."""
    GATHERING = "gathering"
    """A new host after a failover, collecting escrow shares and records."""
    PLAYING = "playing"
    ENDED = "ended"
    """The End went out; away seats may still come back for it."""


def fp_text(key: bytes) -> str:
    """A key's fingerprint, or "" for no key."""
    return fingerprint(key) if key else ""


class Remote:
    """A remote seat at the host: who sits there and how to reach them."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.key: bytes = b""
        self.name = ""
        self.conn: Link | None = None
        self.ready = False
        self.addr = ""
        self.port = 0
        self.share = b""
        self.by_bot = False
        """The seat is played by a bot here for good (its player withheld a reveal or kept cheating)."""
        self.timed_out = False
        """The seat ran out of time: a bot plays it until its player acts or reconnects."""
        self.back_asked = False
        """Its person said "I am back" (a committed table, AutoPlay off): the next move is asked of them."""
        self.told_end = False
        """The game's End went out on this seat's connection."""
        self.heard = time.monotonic()
        self.linkless = False
        """The peer came back without its beacon chain (it lost its save): it contributes no links."""
        self.silent_draws = 0
        """Public draws this seat missed while silent (the first is forgiven as a network fault)."""
        self.sent_mark = -1
        self.chat = TokenBucket(2.0, 5.0)
        self.pings = TokenBucket(5.0, 10.0)
        self.resyncs = TokenBucket(1.0, 3.0)
        self.autoplays = TokenBucket(0.5, 4.0)
        self.handovers = TokenBucket(0.5, 4.0)

    @property
    def present(self) -> bool:
        return self.conn is not None and not self.conn.closed


class Outbox(Protocol):
    """What a phase says to the table: to every seat (and watcher), a refusal to one, an event to listeners,
    a rule-breaker named to all, and the seat list sent again after a change."""

    def broadcast(self, msg: m.Message, *, exclude: int | None = None) -> None: ...

    def refuse(self, conn: Link | None, what: str, reason: str) -> None: ...

    def emit(self, event: Event) -> None: ...

    def blame(self, text: str) -> None:
        """Tell everyone who broke the rules (the cheaters list, every peer, the log)."""

    def lobby_changed(self) -> None:
        """The seat list changed: every seat, watcher and listener hears it."""


class TableTerms(Protocol):
    """What the table is, as its phases read it: the game, the host's identity, the table's name and
    options, its announced terms (``info``: the clock, the dealer, …) and where saves go."""

    @property
    def game(self) -> Game[Any, Any]: ...

    @property
    def identity(self) -> Identity: ...

    @property
    def name(self) -> str: ...

    @property
    def options(self) -> Any: ...

    info: m.TableInfo

    @property
    def save_dir(self) -> Path | None: ...


class Tasks:
    """The host's background tasks, and the one condition its phases wait on (anything a waiting phase
    may be waiting for changed: a commitment, a link, a final digest, a seat leaving)."""

    def __init__(self) -> None:
        self._changed = asyncio.Event()
        self._tasks: set[asyncio.Task[Any]] = set()

    def spawn(self, coro: Awaitable[Any]) -> None:
        t = asyncio.ensure_future(coro)
        self._tasks.add(t)
        t.add_done_callback(self._tasks.discard)

    def wake(self) -> None:
        self._changed.set()

    async def wait(self, cond: Callable[[], bool], timeout: float | None = None) -> bool:
        # asyncio.timeout, not wait_for: on 3.11 wait_for can swallow a cancellation that
        # lands as the wait completes, and the host waits here at every public draw.
        try:
            async with asyncio.timeout(timeout):
                while not cond():
                    self._changed.clear()
                    await self._changed.wait()
        except TimeoutError:
            return False
        return True

    def cancel(self) -> None:
        for t in list(self._tasks):
            t.cancel()
