"""The host side of a failover: what a new host gathers before play resumes, and the position rebuilt.

A peer that becomes the host (``failover.py``: the candidates, its :class:`~..failover.Handover`)
gets a :class:`Takeover`: at a committed table it collects every other peer's escrow
share and record as they rejoin (:class:`FailoverGather`) until the dealer's secret can be
rebuilt (a game with no sealed values has no secret: the new host waits a moment for the
records and goes on drawing in public with its own beacon chain).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Final

from coldwater.core import record

from ... import beacon
from ... import fairplay as fp
from ... import messages as m
from ..failover import Handover
from ..persist import PeerSave, public_step
from .hostcore import HostPhase

if TYPE_CHECKING:
    from .hostcore import HostCore
    from .relay import Relay
    from .seedround import Seeding

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


class Takeover:
    """The host side of a failover (``TableHost.took_over``): at a committed table it gathers the
    peers' escrow shares and records as they rejoin (:class:`FailoverGather`), then rebuilds the
    position and play resumes (:meth:`resume`). A fair table's takeover gathers nothing: its rounds
    go on in :class:`~.fairhost.FairHost`, which took the driver from the handover."""

    def __init__(self, host: HostCore, handover: Handover, relay: Relay, seeding: Seeding) -> None:
        self.host = host
        self.handover = handover
        self.relay = relay
        """Moves and steps: a seat that comes back is synced from it."""
        self.seeding = seeding
        """The seed rounds: the escrow is split again once the position is rebuilt."""
        self.gather: FailoverGather | None = (
            None
            if handover.fair is not None
            else FailoverGather(handover.save, handover.seat, handover.share, list(handover.steps), host.wake)
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
        if fp.has_sealed_values(host.game):
            await host.wait(lambda: fo.ready(), None)
            secret = fp.combine_shares(fo.shares.values())
            if fp.dealer_commitment(secret) != fo.save.dealer_commit:
                raise fp.FairPlayError("the escrow shares do not rebuild the dealer's committed secret", ["dealer"])
            host.dealer = fp.CommittedDealer(secret)
        else:
            # Every draw is public: no secret to rebuild, only the peers' records to wait for a while.
            await host.wait(lambda: fo.all_offered(), GATHER_GRACE)
            host.dealer_ok = False
        host.dealer.start(host.record.joint)
        if host.record.chain is None:
            raise fp.FairPlayError("this peer's save holds no beacon chain: it cannot draw in public as the host")
        book = beacon.Book(fp.tips(host.record.reveals))
        steps = fo.best_steps()
        state0 = host.game.new(host.info.players, seed=fp.game_seed(host.record.joint), options=host.options)
        rec = record.start(host.game, state0, host.options, meta={"table": host.name})
        try:
            state = fp.rebuild(
                host.game,
                host.info.players,
                host.options,
                host.record.joint,
                secret,
                steps,
                on_apply=lambda seat, a, s: record.append(rec, seat, a, s),
                keys=host.record.seat_keys,
                book=book,
            )
        except fp.FairPlayError as e:
            # The record was dealt by the old host: a record that does not rebuild is its doing.
            raise fp.FairPlayError(f"the old host's record does not check out: {e}", ["dealer"]) from None
        host.record.book = book
        host.record.steps = [public_step(s) for s in steps]
        host.failover_ply = len(host.record.steps)
        host.make_table(state, rec)
        host.phase = HostPhase.PLAYING
        # Fresh escrow shares of the same secret for the peers now at this table, so the
        # game survives this host going away too.
        self.seeding.split_escrow()
        for r in host.remotes.values():
            if r.present:
                self.relay.sync(r, 0, fair=True)
        host.lobby_changed()
