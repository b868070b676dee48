"""A peer's save of its seat: made at the game's start, kept as it goes, read back on a restart.

Every phase of play writes it (a step applied, a fair round taken, a host that changed); the
save itself (:class:`~.persist.PeerSave`) and its off-loop writer (:class:`~.persist.Saver`)
are in persist.py. A restart reads it back before rejoining (docs/lan.md, "Faults").
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

import msgspec

from ... import beacon
from ... import messages as m
from ..persist import PeerSave, SavedSeat, Saver, decode_view, with_fair
from ..turnclock import TurnClock
from .peercore import PeerCore, PeerPhase

if TYPE_CHECKING:
    from pathlib import Path

    from ...fairdeal.seat import FairSeat


class PeerSaves:
    """One peer's save (``TablePeer.saves``): what is on disk and the writer that puts it there."""

    def __init__(
        self,
        core: PeerCore,
        *,
        rebook: Callable[[], None],
        drive: Callable[[FairSeat, dict[int, bytes] | None, bool], None],
    ) -> None:
        """`rebook` rebuilds the book of links from the record (stepcheck.py) and `drive` runs a restored
        fair seat's rounds (fairpeer.py): what a restore needs of the other phases."""
        self.core = core
        self.rebook = rebook
        self.drive = drive
        self.save: PeerSave | None = None
        self.saver = Saver()
        """Writes the save off the loop (at most one write waiting)."""

    def make(self) -> None:
        """A new save for the game that starts now."""
        c = self.core
        assert c.info is not None
        self.save = PeerSave(
            table=c.info,
            seat=c.seat,
            host_addr=c.host_addr,
            host_port=c.host_port,
            host_seat=c.host_seat,
            joint=c.record.joint,
            dealer_commit=c.dealer_commit,
            share=c.share,
            seats=[],
            listen_port=c.listen_port,
            commits=c.record.commits,
            reveals=c.record.reveals,
            keys=dict(c.record.seat_keys),
            views=c.views,
            dealt_by=c.dealt_by,
            chain=c.record.chain.end if c.record.chain is not None else b"",
        )
        self.update_seats()

    def update_seats(self) -> None:
        """The seats as the lobby or a presence change shows them now."""
        if self.save is None:
            return
        c = self.core
        self.save.seats = [
            SavedSeat(seat=s.seat, kind=s.kind, name=s.name, addr=s.addr, port=s.port, away=s.away) for s in c.seats
        ]
        self.save.host_seat = c.host_seat
        if not self.save.keys:
            self.save.keys = dict(c.record.seat_keys)

    def persist(self, *, now: bool = False) -> None:
        """Write the save as the seat is now (`now`: before anything more goes out)."""
        c = self.core
        if self.save is None or c.state is None or c.takeover is not None:
            return
        self.save.steps = c.record.steps
        at = time.monotonic()
        self.save.banks = [round(c.clock.bank_left(at, s), 1) for s in range(len(c.clock.banks))]
        self.save.used = [round(c.clock.used_at(at, s), 1) for s in range(len(c.clock.used))]
        drv = c.fair
        if drv is None:
            self.save.view = c.state.encode()
        p = c.save_path
        if p is None:
            return
        save = self.save

        def make() -> bytes:
            if drv is not None:  # a fair seat keeps its transcript, not its view (the restore replays it)
                with_fair(save, msgspec.msgpack.encode(drv.fs.save()))
                save.fair_sent = drv.recent_own()
            return msgspec.json.encode(save)

        if now:
            self.saver.save_now(p, make)
        else:
            self.saver.save(p, make)

    def restore(self, sv: PeerSave, fair: FairSeat | None = None) -> None:
        """Come back to the game `sv` holds (`fair`: its fair seat, already replayed off the loop)."""
        c = self.core
        self.save = sv
        c.info, c.seat = sv.table, sv.seat
        c.record.joint, c.dealer_commit, c.share = sv.joint, sv.dealer_commit, sv.share
        c.record.commits, c.record.reveals = dict(sv.commits), dict(sv.reveals)
        c.host_seat = sv.host_seat
        c.record.seat_keys, c.views, c.dealt_by = dict(sv.keys), dict(sv.views), list(sv.dealt_by)
        c.record.steps = list(sv.steps)
        # The table's clock again, with the banks as they were: a restart is no way to a fresh bank.
        c.clock = TurnClock(sv.table.turn, sv.table.bank, sv.table.players, sv.table.game_time)
        if len(sv.banks) == len(c.clock.banks):
            c.clock.banks = [min(max(0.0, b), float(sv.table.bank)) for b in sv.banks]
        if len(sv.used) == len(c.clock.used):
            c.clock.used = [max(0.0, u) for u in sv.used]  # a restart is no way to a fresh game clock
        c.record.chain = beacon.Chain(sv.seat, sv.chain) if len(sv.chain) == beacon.LINK_BYTES else None
        self.rebook()
        c.seats = [
            m.SeatInfo(
                seat=s.seat,
                kind=s.kind,  # type: ignore[arg-type]
                name=s.name,
                addr=s.addr,
                port=s.port,
                away=s.away,
            )
            for s in sv.seats
        ]
        if fair is not None:
            # Paused until the host has sent what it relayed: our own earlier messages are our word.
            self.drive(fair, None, True)
            assert c.fair is not None
            c.fair.keep_own(sv.fair_sent)
            return
        ply = sv.steps[-1].ply if sv.steps else 0
        c.state = decode_view(c.game, sv.view, ply) if sv.view else None
        if c.state is not None:
            c.phase = PeerPhase.PLAYING

    async def close(self, delete: Path | None) -> None:
        """Finish the writes off the loop, then delete `delete` (a finished game's save)."""
        # Swapped before it is closed off the loop: a close() while run() is closing (the app
        # leaving as the game ends) must not reach a saver that is shutting down.
        saver, self.saver = self.saver, Saver(every=self.saver.every)
        await asyncio.to_thread(saver.close, delete=delete)
