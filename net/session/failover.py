"""Host failover: what a new host gathers before play resumes, and how peers pick it.

When the host goes away, every remaining peer computes the same candidate
list from the seat list they all received (the lowest present remote seat
first). The chosen peer becomes a :class:`~.host.TableHost` built from its own
save; the others join it with their escrow shares and records, which a
:class:`FailoverGather` collects until the dealer's secret can be rebuilt (a
game with no sealed values has no secret: the new host waits a moment for the
records and goes on drawing in public with its own beacon chain).

**At a fair-dealer table** (docs/fairplay.md) there is no secret to gather: the new
host keeps its own :class:`~.fairtable.FairDriver` and relays every message it holds
(a :class:`Handover` with its driver). Every seat's layer is still needed for
every card, the old host's included, so the old host's seat must come back: its
process writes its seat's save (:func:`fair_peer_save`, the secrets before they are
used) and, restarted, joins the new host as a peer (``coldwater join TABLE``). The
new host waits for it (``FAIR_RETURN_WAIT``) as for any away seat.

A peer that becomes the host describes what it hands over in one :class:`Handover`;
:meth:`~.host.host.TableHost.from_handover` builds the host from it, each of the host's
pieces taking its part at construction. This module is what both sides share (the
candidates, the handover, a fair seat's save); the host's side of the failover (what it
gathers, then the position rebuilt) is ``host/takeover.py``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final

import msgspec

from .. import beacon
from .. import messages as m
from .persist import PeerSave, SavedSeat, with_fair

if TYPE_CHECKING:
    from ..admission import Guard
    from .fairtable import FairDriver

FAIR_SAVE_EVERY: Final = 0.25
"""Seconds between writes of a fair seat's save as the game goes (its secrets are written at once): a seat
restarted from an older save catches up from the messages the host relays, so a write per step would
only cost time (the whole transcript, a few hundred KB by the end)."""
FAIR_RETURN_WAIT: Final = 120.0
EX_HOST_WAIT: Final = 15.0
"""After a failover, seconds the old host's seat has to come back before a round waiting on it ends the
game by its forfeit: it was silent long enough already to be replaced (frozen, or cut off for good)."""
"""Seconds a fair table waits for an away seat to come back (its process restarted from its save,
the old host's after a failover) before the game ends naming it: no one else holds its layer."""


@dataclass(frozen=True)
class Handover:
    """What a peer hands the host it becomes after the old host went away (built by the peer, taken by
    :meth:`~.host.TableHost.from_handover`). Its listener, already bound to the port it advertised, hands
    new connections to that host."""

    save: PeerSave
    """The peer's save: the table, the seats and their keys, the seed round's commitments and reveals."""
    share: bytes = b""
    """Its escrow share of the dealer's secret (a committed table with sealed values)."""
    steps: list[m.Step] = field(default_factory=list)
    """Every step it applied."""
    chain: beacon.Chain | None = None
    """Its beacon chain (a committed table: the new host's contribution to every public draw)."""
    fair: FairDriver | None = None
    """At a fair-dealer table: its own seat's rounds, which go on as they were (None: a committed table)."""
    on_step: Callable[[], None] | None = None
    """At a fair-dealer table: what the peer still does after each step of its driver (before the host's part)."""
    guard: Guard | None = None
    """Its listener's guard: one count of unfinished handshakes per socket (None: the host makes its own)."""

    @property
    def seat(self) -> int:
        """Our seat, the new host's."""
        return self.save.seat

    def seat_kinds(self) -> list[str]:
        """The seat kinds of the new host's table: at a fair table every other seat comes back as a remote
        one (the old host's too: its layer is needed for every card); else as :func:`kinds_for_new_host`."""
        if self.fair is not None:
            return ["host" if s.seat == self.seat else "open" for s in self.save.seats]
        return kinds_for_new_host(self.save, self.seat)


def candidates(seats: list[m.SeatInfo], host_seat: int) -> list[m.SeatInfo]:
    """Remote peers that may host, lowest seat first (every peer computes the same list)."""
    return sorted((s for s in seats if s.kind == "remote" and s.seat != host_seat and not s.away), key=lambda s: s.seat)


def kinds_for_new_host(save: PeerSave, me: int) -> list[str]:
    """The seat kinds of the table a peer hosts after a failover: itself, the remote peers, bots."""
    kinds: list[str] = []
    for s in save.seats:
        if s.seat == me:
            kinds.append("host")
        elif s.kind == "remote" and s.seat != save.host_seat:
            kinds.append("open")
        else:
            kinds.append("bot")
    return kinds


def fair_peer_save(
    info: m.TableInfo,
    drv: FairDriver,
    *,
    host_seat: int,
    seats: list[m.SeatInfo],
    reveals: dict[int, bytes],
    commits: dict[int, bytes],
    listen_port: int,
    host_addr: str = "",
    host_port: int = 0,
) -> PeerSave:
    """A fair-dealer seat's save: its ``FairSave`` and what it needs to rejoin or host (no view: the
    restore replays the transcript). The host's own seat writes one too, to come back as a peer."""
    fs = drv.fs
    fair = fs.save()  # (a seat's: an observer keeps none)
    save = PeerSave(
        table=info,
        seat=fair.seat,
        host_addr=host_addr,
        host_port=host_port,
        host_seat=host_seat,
        joint=fs.joint,
        dealer_commit=b"",
        share=b"",
        seats=[SavedSeat(seat=s.seat, kind=s.kind, name=s.name, addr=s.addr, port=s.port, away=s.away) for s in seats],
        keys=dict(drv.keys),
        commits=dict(commits),
        reveals=dict(reveals),
        listen_port=listen_port,
        chain=fair.chain_end,
        fair_sent=drv.recent_own(),
    )
    return with_fair(save, msgspec.msgpack.encode(fair))
