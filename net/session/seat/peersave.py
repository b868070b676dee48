"""A peer's save of its seat: made at the game's start, kept as it goes, read back on a restart.

Every phase of play writes it (a step applied, a fair round taken, a host that changed); it is
given the table's record and clock it copies, and reads the rest of the seat through
:class:`SaveSeat`. The save itself (:class:`~.persist.PeerSave`) and its off-loop writer (:class:`~.persist.Saver`)
are in persist.py. A restart reads it back before rejoining (docs/lan.md, "Faults").
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import msgspec

from ... import beacon
from ... import messages as m
from ..persist import PeerSave, SavedSeat, Saver, decode_view, safe_name, with_fair
from .shared import PeerPhase

if TYPE_CHECKING:
    from coldwater.core.state import Game, State

    from ..fairtable import FairDriver
    from ..host.host import TableHost
    from ..record import TableRecord
    from ..turnclock import TurnClock


class SaveSeat(Protocol):
    """What the save reads (and a restore writes back) of the seat, beside the record and the clock."""

    game: Game[Any, Any]
    save_dir: Path | None
    info: m.TableInfo | None
    seat: int
    seats: list[m.SeatInfo]
    host_seat: int
    host_addr: str
    host_port: int
    listen_port: int
    dealer_commit: bytes
    share: bytes
    views: dict[int, bytes]
    dealt_by: list[tuple[int, int]]
    state: State[Any, Any] | None
    phase: PeerPhase
    takeover: TableHost | None


class PeerSaves:
    """One peer's save (``TablePeer.saves``): what is on disk and the writer that puts it there."""

    def __init__(self, record: TableRecord, clock: TurnClock, seat: SaveSeat) -> None:
        self.record = record
        self.clock = clock
        self.me = seat
        """The seat, as far as its save reads and restores it."""
        self.save: PeerSave | None = None
        """This seat's save (None before the game starts, unless it was restored)."""
        self.saver = Saver()
        """Writes the save off the loop (at most one write waiting)."""
        self.transcript: FairDriver | None = None
        """At a fair table: this seat's rounds, whose transcript the save keeps instead of a view (fairpeer.py)."""

    @property
    def path(self) -> Path | None:
        """Where this seat's save is written (None without a folder, or before the table is known)."""
        c = self.me
        if c.save_dir is None or c.info is None:
            return None
        return c.save_dir / f"lan-peer-{safe_name(c.info.name)}.json"

    def make(self) -> None:
        """A new save for the game that starts now."""
        c = self.me
        assert c.info is not None
        self.save = PeerSave(
            table=c.info,
            seat=c.seat,
            host_addr=c.host_addr,
            host_port=c.host_port,
            host_seat=c.host_seat,
            joint=self.record.joint,
            dealer_commit=c.dealer_commit,
            share=c.share,
            seats=[],
            listen_port=c.listen_port,
            commits=self.record.commits,
            reveals=self.record.reveals,
            keys=dict(self.record.seat_keys),
            views=c.views,
            dealt_by=c.dealt_by,
            chain=self.record.chain.end if self.record.chain is not None else b"",
        )
        self.update_seats()

    def update_seats(self) -> None:
        """The seats as the lobby or a presence change shows them now."""
        if self.save is None:
            return
        c = self.me
        self.save.seats = [
            SavedSeat(seat=s.seat, kind=s.kind, name=s.name, addr=s.addr, port=s.port, away=s.away) for s in c.seats
        ]
        self.save.host_seat = c.host_seat
        if not self.save.keys:
            self.save.keys = dict(self.record.seat_keys)

    def persist(self, *, now: bool = False) -> None:
        """Write the save as the seat is now (`now`: before anything more goes out)."""
        c = self.me
        if self.save is None or c.state is None or c.takeover is not None:
            return
        self.save.steps = self.record.steps
        at = time.monotonic()
        self.save.banks = [round(self.clock.bank_left(at, s), 1) for s in range(len(self.clock.banks))]
        self.save.used = [round(self.clock.used_at(at, s), 1) for s in range(len(self.clock.used))]
        drv = self.transcript
        if drv is None:
            self.save.view = c.state.encode()
        p = self.path
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

    def restore(self, sv: PeerSave) -> None:
        """Come back to the game `sv` holds (a fair seat's rounds are restarted from its transcript by
        fairpeer.py; the book of links is rebuilt from the record by stepcheck.py)."""
        c = self.me
        self.save = sv
        c.info, c.seat = sv.table, sv.seat
        self.record.joint, c.dealer_commit, c.share = sv.joint, sv.dealer_commit, sv.share
        self.record.commits, self.record.reveals = dict(sv.commits), dict(sv.reveals)
        c.host_seat = sv.host_seat
        self.record.seat_keys, c.views, c.dealt_by = dict(sv.keys), dict(sv.views), list(sv.dealt_by)
        self.record.steps = list(sv.steps)
        # The table's clock again, with the banks as they were: a restart is no way to a fresh bank.
        self.clock.restart(sv.table.turn, sv.table.bank, sv.table.players, sv.table.game_time)
        if len(sv.banks) == len(self.clock.banks):
            self.clock.banks = [min(max(0.0, b), float(sv.table.bank)) for b in sv.banks]
        if len(sv.used) == len(self.clock.used):
            self.clock.used = [max(0.0, u) for u in sv.used]  # a restart is no way to a fresh game clock
        self.record.chain = beacon.Chain(sv.seat, sv.chain) if len(sv.chain) == beacon.LINK_BYTES else None
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
        if sv.fair:
            return  # its view is its transcript's (fairpeer.py)
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
