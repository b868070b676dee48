"""What the pieces of a LAN peer share: its phases and the narrow view of the peer they use.

:class:`~.peer.TablePeer` is the peer; the phases of its side of the protocol live in
modules of their own (``peerseed.py``, ``stepcheck.py``, ``fairpeer.py``, ``audit.py``,
``peersave.py``, ``peerfailover.py``), each a class that owns its state, is given the
other phases it works with in its constructor, and reaches the seat itself only through
:class:`PeerCore` (the attributes and methods listed there, nothing private; it names no
phase), as the host's phases reach the host through :class:`~..host.hostcore.HostCore`.
"""

from __future__ import annotations

import enum
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from ...transport import Refusal

if TYPE_CHECKING:
    from coldwater.core.state import Game, State

    from ... import messages as m
    from ...admission import Guard
    from ...identity import Identity
    from ...link import Link, Network
    from ..events import Chooser, Event, Result
    from ..fairtable import FairDriver
    from ..host.host import TableHost
    from ..persist import PeerSave
    from ..record import TableRecord
    from ..standin import StandIn
    from ..turnclock import TurnClock


class SentAway(Refusal):
    """The table itself refused us (our seat went to a bot, we were sent away): do not retry."""


class PeerPhase(enum.Enum):
    LOBBY = "lobby"
    """Seated (or joining); no game yet."""
    PLAYING = "playing"
    RESYNCING = "resyncing"
    """We reported a mismatch or a gap; steps are ignored until the host's Sync arrives."""
    FINISHED = "finished"
    """The End arrived and was audited; the save is deleted on close."""
    HOSTING = "hosting"
    """The host went away and this peer hosts the table now."""


class PeerCore(Protocol):
    """The part of :class:`~.peer.TablePeer` the phase modules use (mypy checks the peer has it)."""

    game: Game[Any, Any]
    identity: Identity
    network: Network
    """Where this seat's links come from (link.py: TCP, or in memory)."""
    chooser: Chooser | None
    name: str
    """The name this seat sits under."""
    passphrase: str | None
    pass_key: bytes
    bind: str
    save_dir: Path | None
    host_fingerprint: str
    """The key the host proved in the handshake ("" before it)."""
    host_changes: int
    info: m.TableInfo | None
    seat: int
    seats: list[m.SeatInfo]
    host_seat: int
    host_addr: str
    host_port: int
    listen_port: int
    conn: Link | None
    phase: PeerPhase
    state: State[Any, Any] | None
    """This seat's view of the game."""
    record: TableRecord
    """What the table agreed, as this seat holds it (record.py)."""
    dealer_commit: bytes
    share: bytes
    views: dict[int, bytes]
    dealt_by: list[tuple[int, int]]
    evidence: list[str]
    """What the host did that an honest host cannot do (fails the audit)."""
    problems: list[str]
    result: Result | None
    dealer_secret: bytes
    linked: int
    """The ply whose beacon link we sent on this connection (-1: none yet)."""
    clock: TurnClock
    stand_in: StandIn | None
    takeover: TableHost | None
    gone_hosts: set[int]
    botted: set[int]
    resyncs: int
    rtts: list[float]

    @property
    def fair(self) -> FairDriver | None: ...

    @property
    def save_path(self) -> Path | None: ...

    @property
    def save(self) -> PeerSave | None: ...

    @property
    def listen_guard(self) -> Guard | None: ...

    async def hello(self, conn: Link, *, resume_ply: int = -1, failover: bool = False) -> None: ...

    def send_own(self, conn: Link) -> None: ...

    def update_save_seats(self) -> None: ...

    def problem(self, text: str) -> None: ...

    def emit(self, event: Event) -> None: ...

    def maybe_move(self, *, force: bool = False) -> None: ...

    def maybe_link(self) -> None: ...

    def autoplay(self, on: bool, ply: int) -> m.AutoPlay: ...
