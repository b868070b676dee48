"""What the pieces of a LAN host share: its phases, a remote seat, and the narrow view of the host they use.

:class:`~.host.TableHost` is the host; the phases of its protocol live in modules
of their own (``fairhost.py``, ``relay.py``, ``beacons.py``, ``rematch.py``, …), each
a class that owns its state, is given the other phases it works with in its constructor,
and reaches the table itself only through :class:`HostCore` (the attributes and methods
listed there, nothing private). HostCore names no phase, so no phase reaches another
through the host.
"""

from __future__ import annotations

import enum
import time
from collections import deque
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from coldwater.core.state import State

from ... import messages as m
from ...identity import fingerprint
from ...link import Link, Network
from ...ratelimit import TokenBucket

if TYPE_CHECKING:
    from coldwater.core.record import GameRecord
    from coldwater.core.state import Game

    from ... import fairplay as fp
    from ...admission import Guard
    from ...identity import Identity
    from ...play.table import Table
    from ..events import Chooser, Event, Result
    from ..record import TableRecord
    from ..turnclock import TurnClock

FINALS_WAIT = 5.0
"""Seconds the host waits for every present seat's signed final digest before relaying them."""


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


def scores_of(state: State[Any, Any]) -> tuple[dict[str, int], str]:
    sc = state.scores()
    return dict(zip(sc.labels, sc.totals)), sc.outcome


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
    """What a phase says to the table: to every seat (and watcher), a refusal to one, an event to listeners."""

    def broadcast(self, msg: m.Message, *, exclude: int | None = None) -> None: ...

    def refuse(self, conn: Link | None, what: str, reason: str) -> None: ...

    def emit(self, event: Event) -> None: ...


class HostCore(Outbox, Protocol):
    """The part of :class:`~.host.TableHost` the phase modules use (mypy checks the host has it)."""

    game: Game[Any, Any]
    identity: Identity
    network: Network
    """Where the table's links come from (link.py: TCP, or in memory)."""
    info: m.TableInfo
    name: str
    host_seat: int
    host_name: str
    chooser: Chooser | None
    save_dir: Path | None
    port: int
    linger: bool
    auto_start: bool
    """The table starts by itself once every seat is filled (else when its person presses Start)."""
    round_timeout: float
    """Seconds each half of a seed round may take."""
    phase: HostPhase
    options: Any
    """The table's options, as plain data."""
    record: TableRecord
    """What the table agreed: the seed round, the seats' keys, the steps, the chains (record.py)."""
    remotes: dict[int, Remote]
    kinds: list[str]
    """Every seat's kind as the table was opened ("host", "bot", "open")."""
    reserved: dict[int, str]
    """Seats kept for one key's fingerprint."""
    reserved_labels: dict[int, str]
    """What the lobby says a reserved seat is for, where not its fingerprint."""
    guard: Guard
    refusals: deque[str]
    banned: set[bytes]
    """Identities sent away from this table."""
    traffic: list[Link]
    """Every seated connection ever accepted."""
    extra_bots: set[int]
    table: Table | None
    """The committed game's table (None before it starts and at a fair table)."""
    dealer: fp.CommittedDealer
    dealer_ok: bool
    beacon_id: int
    problems: list[str]
    cheaters: list[str]
    result: Result | None
    end_grace: float
    """Seconds a finished table stays up for seats that were away at the end."""
    failover_ply: int
    """After a failover: the last ply the old host dealt (0: none)."""
    clock: TurnClock
    """The seat to move's time and every seat's bank, as this host measures them."""

    @property
    def started(self) -> bool: ...

    @property
    def closing(self) -> bool: ...

    def lobby(self) -> list[m.SeatInfo]: ...

    def wake(self) -> None: ...

    def blame(self, text: str) -> None: ...

    def give_to_bot(self, r: Remote) -> None: ...

    async def serve(self, r: Remote, conn: Link) -> None: ...

    def make_table(self, state: State[Any, Any], rec: GameRecord) -> None: ...

    def subscribe(self, listener: Callable[[Event], None]) -> Callable[[], None]: ...

    def public_source(self) -> State[Any, Any] | None: ...

    def lobby_changed(self) -> None: ...

    def spawn(self, coro: Awaitable[Any]) -> None: ...

    async def wait(self, cond: Callable[[], bool], timeout: float | None = None) -> bool: ...

    async def relay_finals(self, waiting: list[Remote]) -> None: ...
