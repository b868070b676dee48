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
(:meth:`~.host.TableHost.take_over_fair`). Every seat's layer is still needed for
every card, the old host's included, so the old host's seat must come back: its
process writes its seat's save (:func:`fair_peer_save`, the secrets before they are
used) and, restarted, joins the new host as a peer (``coldwater join TABLE``). The
new host waits for it (``FAIR_RETURN_WAIT``) as for any away seat.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Final

import msgspec

from .. import messages as m
from .persist import PeerSave, SavedSeat, public_step, with_fair

if TYPE_CHECKING:
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


class FailoverGather:
    """Every remote peer's share and steps, offered as they rejoin the new host."""

    def __init__(
        self, save: PeerSave, own_seat: int, own_share: bytes, own_steps: list[m.Step], on_change: Callable[[], None]
    ) -> None:
        self.save = save
        self.own_seat = own_seat
        self.shares: dict[int, bytes] = {own_seat: own_share}
        self.steps: dict[int, list[m.Step]] = {own_seat: own_steps}
        self._on_change = on_change

    def offer(self, seat: int, join: m.Join) -> None:
        if join.share:
            self.shares[seat] = join.share
        self.steps[seat] = list(join.steps)
        self._on_change()

    def ready(self) -> bool:
        need = {s.seat for s in self.save.seats if s.kind == "remote" and s.seat != self.save.host_seat}
        return need <= set(self.shares)

    def all_offered(self) -> bool:
        """Every other remote peer has rejoined with its record (what a new host with no escrow waits for)."""
        need = {s.seat for s in self.save.seats if s.kind == "remote" and s.seat != self.save.host_seat}
        return need <= set(self.steps)

    def best_steps(self) -> list[m.Step]:
        """The longest record among the peers that agrees with ours (a peer may have seen one step more)."""
        mine = self.steps[self.own_seat]
        best = mine
        for st in self.steps.values():
            if len(st) > len(best) and [s.digest for s in st[: len(mine)]] == [s.digest for s in mine]:
                best = st
        return [public_step(s) for s in best]


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
