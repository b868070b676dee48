"""Host failover: what a new host gathers before play resumes, and how peers pick it.

When the host goes away, every remaining peer computes the same candidate
list from the seat list they all received (the lowest present remote seat
first). The chosen peer becomes a :class:`~.host.TableHost` built from its own
save; the others join it with their escrow shares and records, which a
:class:`FailoverGather` collects until the dealer's secret can be rebuilt (a
game with no sealed values has no secret: the new host waits a moment for the
records and goes on drawing in public with its own beacon chain).
"""

from __future__ import annotations

from collections.abc import Callable

from .. import messages as m
from .persist import PeerSave, public_step


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
