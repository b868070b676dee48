"""The host side of a failover: what a new host gathers before play resumes, and the position rebuilt.

A peer that becomes the host (``failover.py``: the candidates, its :class:`~..failover.Handover`)
first takes its own part of the handover (:func:`take_handover`: the seats, keys, record and
clock it brings), then gets a :class:`Takeover`: at a committed table it collects every other peer's escrow
share and record as they rejoin (:class:`FailoverGather`) until the dealer's secret can be
rebuilt (a game with no sealed values has no secret: the new host waits a moment for the
records and goes on drawing in public with its own beacon chain).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Final, Protocol

from coldwater.core import record

from ... import beacon
from ... import fairplay as fp
from ... import messages as m
from ..failover import Handover
from ..persist import PeerSave, public_step
from .shared import HostPhase

if TYPE_CHECKING:
    from ..record import TableRecord
    from ..turnclock import TurnClock
    from .relay import Relay
    from .seedround import Seeding
    from .shared import Outbox, Remote, TableTerms, Tasks

GATHER_GRACE: Final = 8.0
"""Seconds a new host with no escrow to rebuild waits for the other peers' records before play resumes."""


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


class HandoverTable(Protocol):
    """What :func:`take_handover` sets of a new host (before its phases are built)."""

    info: m.TableInfo
    host_seat: int
    beacon_id: int
    phase: HostPhase
    failover_ply: int

    @property
    def remotes(self) -> dict[int, Remote]: ...

    @property
    def extra_bots(self) -> set[int]: ...


def take_handover(host: HandoverTable, record: TableRecord, clock: TurnClock, handover: Handover) -> None:
    """A new host's own part of a handover: the seed round's outcome, the seats and their keys, the
    beacon chain, every seat's bank; the old host's seat (and any seat its bots played) is a bot here
    from now on."""
    save = handover.save
    host.info.hints = save.table.hints  # announced to the seats that come back, as the old host did
    # Each seat's bank as this peer last measured it: a new host is no way to a fresh bank.
    if len(save.banks) == len(clock.banks):
        clock.banks = [min(max(0.0, b), float(save.table.bank)) for b in save.banks]
    if len(save.used) == len(clock.used):
        clock.used = [max(0.0, u) for u in save.used]
    record.joint = save.joint
    record.commits, record.reveals = dict(save.commits), dict(save.reveals)
    host.host_seat = host.beacon_id = save.seat
    drv = handover.fair
    if drv is None:
        host.phase = HostPhase.GATHERING
        for s in save.seats:
            if s.seat == save.host_seat or (s.kind == "remote" and s.by_bot):
                host.extra_bots.add(s.seat)
            if s.seat in host.remotes:
                r = host.remotes[s.seat]
                r.name, r.key = s.name, save.key_for(s.seat)
        record.seat_keys = dict(save.keys)
        record.chain = handover.chain
        return
    # A fair table: nothing to gather (no one holds the deal); every other seat comes back with its
    # own key and view, and the rounds go on from the last ply this peer took.
    host.info = save.table
    record.seat_keys = dict(drv.keys)
    for r in host.remotes.values():
        r.key = drv.keys.get(r.seat, b"")
        r.name = next((s.name for s in save.seats if s.seat == r.seat), f"Seat {r.seat + 1}")
        r.ready = True
    record.chain = drv.fs.chain
    host.failover_ply = drv.fs.view.ply
    host.phase = HostPhase.PLAYING


class TakeoverTable(Protocol):
    """What :class:`Takeover` reads and sets of the host beyond its record and terms: the seats, the
    committed dealer it rebuilds, where the old host's part of the game ends, the table's life."""

    @property
    def remotes(self) -> dict[int, Remote]: ...

    dealer: fp.CommittedDealer
    dealer_ok: bool
    failover_ply: int
    phase: HostPhase


class Takeover:
    """The host side of a failover (``TableHost.took_over``): at a committed table it gathers the
    peers' escrow shares and records as they rejoin (:class:`FailoverGather`), then rebuilds the
    position and play resumes (:meth:`resume`). A fair table's takeover gathers nothing: its rounds
    go on in :class:`~.fairhost.FairHost`, which took the driver from the handover."""

    def __init__(
        self,
        record: TableRecord,
        out: Outbox,
        tasks: Tasks,
        terms: TableTerms,
        host: TakeoverTable,
        handover: Handover,
        *,
        relay: Relay,
        seeding: Seeding,
    ) -> None:
        self.record = record
        self.out = out
        self.tasks = tasks
        self.terms = terms
        self.host = host
        self.handover = handover
        self.relay = relay
        """Moves and steps: a seat that comes back is synced from it."""
        self.seeding = seeding
        """The seed rounds: the escrow is split again once the position is rebuilt."""
        self.gather: FailoverGather | None = (
            None
            if handover.fair is not None
            else FailoverGather(handover.save, handover.seat, handover.share, list(handover.steps), tasks.wake)
        )

    def offer(self, seat: int, join: m.Join) -> None:
        """A peer rejoined while this host gathers: its share and record."""
        assert self.gather is not None
        self.gather.offer(seat, join)

    async def resume(self) -> None:
        """Rebuild the dealer's secret (if the game has one) and the position from the gathered records,
        then play on from there, with fresh escrow shares for the peers now at the table."""
        host, fo = self.host, self.gather
        assert fo is not None
        secret: bytes | None = None
        if fp.has_sealed_values(self.terms.game):
            await self.tasks.wait(lambda: fo.ready(), None)
            secret = fp.combine_shares(fo.shares.values())
            if fp.dealer_commitment(secret) != fo.save.dealer_commit:
                raise fp.FairPlayError("the escrow shares do not rebuild the dealer's committed secret", ["dealer"])
            host.dealer = fp.CommittedDealer(secret)
        else:
            # Every draw is public: no secret to rebuild, only the peers' records to wait for a while.
            await self.tasks.wait(lambda: fo.all_offered(), GATHER_GRACE)
            host.dealer_ok = False
        host.dealer.start(self.record.joint)
        if self.record.chain is None:
            raise fp.FairPlayError("this peer's save holds no beacon chain: it cannot draw in public as the host")
        book = beacon.Book(fp.tips(self.record.reveals))
        steps = fo.best_steps()
        state0 = self.terms.game.new(
            self.terms.info.players, seed=fp.game_seed(self.record.joint), options=self.terms.options
        )
        rec = record.start(self.terms.game, state0, self.terms.options, meta={"table": self.terms.name})
        try:
            state = fp.rebuild(
                self.terms.game,
                self.terms.info.players,
                self.terms.options,
                self.record.joint,
                secret,
                steps,
                on_apply=lambda seat, a, s: record.append(rec, seat, a, s),
                keys=self.record.seat_keys,
                book=book,
            )
        except fp.FairPlayError as e:
            # The record was dealt by the old host: a record that does not rebuild is its doing.
            raise fp.FairPlayError(f"the old host's record does not check out: {e}", ["dealer"]) from None
        self.record.book = book
        self.record.steps = [public_step(s) for s in steps]
        host.failover_ply = len(self.record.steps)
        self.relay.start_table(state, rec)
        host.phase = HostPhase.PLAYING
        # Fresh escrow shares of the same secret for the peers now at this table, so the
        # game survives this host going away too.
        self.seeding.split_escrow()
        for r in host.remotes.values():
            if r.present:
                self.relay.sync(r, 0, fair=True)
        self.out.lobby_changed()
