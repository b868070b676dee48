"""A seat's side of losing its host: reconnect, choose a new host, or become it (docs/lan.md, "Failover").

When the host's connection breaks mid-game, :meth:`PeerFailover.recover` first tries the same
host again (through :class:`~.hostlink.HostLink`, the key it proved pinned), briefly when the
host fell silent, so that a frozen host is replaced soon. Failing that, every seat picks the
same candidate (``failover.candidates``: the lobby's order): a seat reaches the candidate and
proves it is the peer that sat there, or, being the candidate itself, hands what it holds to a
new :class:`~.host.TableHost` as one typed :class:`~.failover.Handover` and hosts from here,
announcing the table again on the LAN. The host's side (gathering the seats' records and
shares, rebuilding the position) is ``host/takeover.py``'s :class:`~..host.takeover.Takeover`.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import msgspec

from ... import fairplay as fp
from ... import messages as m
from ...admission import Guard
from ...link import Link, Listening, Terms
from ...transport import AlreadySeated, Refusal
from ..events import Chooser, HostChanged
from ..failover import Handover, candidates
from ..fairtable import FairDriver
from ..host.host import TableHost
from ..hostlink import HostLink
from ..persist import PeerSave
from .shared import Outbox, PeerPhase, SentAway

if TYPE_CHECKING:
    from coldwater.core.state import Game, State

    from ...identity import Identity
    from ...link import Network
    from ..record import TableRecord
    from .fairpeer import FairPeer
    from .peersave import PeerSaves


class FailoverSeat(Protocol):
    """What losing the host reads and writes of the seat, beside the record and the phases."""

    game: Game[Any, Any]
    identity: Identity
    network: Network
    name: str
    passphrase: str | None
    pass_key: bytes
    bind: str
    save_dir: Path | None
    chooser: Chooser | None
    info: m.TableInfo | None
    seat: int
    seats: list[m.SeatInfo]
    host_seat: int
    host_addr: str
    host_port: int
    host_fingerprint: str
    host_changes: int
    gone_hosts: set[int]
    listen_port: int
    share: bytes
    dealt_by: list[tuple[int, int]]
    conn: Link | None
    state: State[Any, Any] | None
    phase: PeerPhase
    takeover: TableHost | None

    async def hello(self, conn: Link, *, resume_ply: int = -1, failover: bool = False) -> None: ...


class PeerFailover:
    """What a seat does when its host is gone; it keeps whether the host fell silent and the new advert."""

    def __init__(
        self,
        record: TableRecord,
        out: Outbox,
        fair_peer: FairPeer,
        saves: PeerSaves,
        seat: FailoverSeat,
        *,
        reconnect_for: float,
    ) -> None:
        self.record = record
        self.out = out
        self.me = seat
        self.saves = saves
        """The seat's save, which a new host here starts from."""
        self.fair_peer = fair_peer
        """A fair table's rounds: stopped when this seat hosts (the host's run ends the game)."""
        self.reconnect_for = reconnect_for
        """Seconds to find a host again (the same one, or a new one) before the game ends here."""
        self.host_silent = False
        """The last connection ended because the host went silent (frozen, cut off), not closed."""
        self.advert_task: asyncio.Future[Any] | None = None
        """This seat's announcement of the table, once it hosts it."""
        self.listener: Listening | None = None
        """This seat's door, open from the start so that it can host if the host goes away."""

    async def listen(self, bind: str, port: int) -> int:
        """Open this seat's listener (on `port` if it is free, else any); returns the port it holds."""
        if self.listener is None:
            try:
                self.listener = await self.me.network.listen(self, bind, port, guard=Guard())
            except OSError:
                self.listener = await self.me.network.listen(self, bind, 0, guard=Guard())
        return self.listener.port

    def close_listener(self) -> None:
        if self.listener is not None:
            self.listener.close()
            self.listener = None

    def host_silent_for(self, quiet: float) -> None:
        """The host has been silent too long (frozen, cut off): its connection is closed next."""
        self.out.problem(f"the host has been silent for {quiet:.0f} s; treating it as gone")
        self.host_silent = True

    # ---- this seat's listener (a link.Door): closed to everyone until this seat hosts the table ----
    def terms(self) -> Terms | None:
        host = self.me.takeover
        return host.connections.terms() if host is not None else None

    async def enter(self, link: Link, joined: Callable[[], None]) -> None:
        host = self.me.takeover
        if host is None:
            await link.close()
            return
        await host.connections.enter(link, joined)

    def refused(self, text: str) -> None:
        if self.me.takeover is not None:
            self.me.takeover.connections.refused(text)

    async def recover(self) -> None:
        """The host connection broke mid-game: reconnect, or fail over to a new host."""
        c = self.me
        c.conn = None
        # A silent host is frozen or cut off: a short try only, so that failover comes within ~10 s.
        within = min(self.reconnect_for, 1.0 if self.host_silent else 3.0)
        self.host_silent = False

        async def rejoin(conn: Link) -> None:
            await c.hello(conn, resume_ply=len(self.record.steps))
            if self.fair_peer.fair is not None:
                # What we sent while cut off may be lost: send it all again (the host drops copies).
                self.fair_peer.send_own(conn)

        # The host we rejoin must prove the key it proved before (an impostor at its address gets nothing).
        # SentAway: the host is there and does not want us back (no failover); AlreadySeated: another
        # process plays this seat with our key, and retrying would only fight it.
        link = HostLink(c.network, c.game, c.identity, c.passphrase)
        last = await link.reach_again(
            c.host_addr,
            c.host_port,
            c.host_fingerprint,
            rejoin,
            within=within,
            fatal=(SentAway, AlreadySeated),
        )
        if last is None:
            return
        escrow = c.info is not None and c.info.dealer != "fair"  # a fair table has no secret to gather
        if c.info is not None and (not c.info.failover or (escrow and not c.share and fp.has_sealed_values(c.game))):
            raise Refusal(
                f"the host is gone ({last}); failover is off at this table (fewer than two remote "
                "seats hold escrow shares), so the game ends here"
            )
        self.out.problem(f"the host is gone ({last}); choosing a new host")
        await self._choose_new_host()

    async def _choose_new_host(self) -> None:
        """Every seat tries the same candidates in the lobby's order; the one that is us hosts."""
        me = self.me
        me.gone_hosts.add(me.host_seat)
        tried: set[int] = set()
        deadline = time.monotonic() + self.reconnect_for
        while time.monotonic() < deadline:
            cands = [c for c in candidates(me.seats, me.host_seat) if c.seat not in tried]
            if not cands:
                break
            c = cands[0]
            me.host_changes += 1
            if c.seat == me.seat:
                self._become_host()
                self.out.emit(HostChanged(me.seat, "", me.listen_port))
                return
            self.out.emit(HostChanged(c.seat, c.addr, c.port))

            async def seat_at(conn: Link, c: m.SeatInfo = c) -> None:
                await me.hello(conn, resume_ply=len(self.record.steps), failover=True)
                if self.fair_peer.fair is not None:
                    self.fair_peer.send_own(conn)  # the new host may lack some of ours
                me.host_addr, me.host_port, me.host_seat = c.addr, c.port, c.seat
                me.dealt_by.append((len(self.record.steps) + 1, c.seat))
                if (sv := self.saves.save) is not None:
                    sv.host_addr, sv.host_port, sv.host_seat = c.addr, c.port, c.seat
                me.host_fingerprint = conn.fingerprint

            # The new host must be the peer that sat in that seat, not whoever answers there.
            link = HostLink(me.network, me.game, me.identity, me.passphrase)
            within = min(8.0, deadline - time.monotonic())
            if (
                await link.reach_again(c.addr, c.port, c.fingerprint, seat_at, within=within, fatal=(AlreadySeated,))
                is None
            ):
                return
            tried.add(c.seat)
        raise Refusal("the host went away and no other peer could take over")

    def spawn_advert(self) -> None:
        """Announce the table again from here, so a restarted peer finds it by name."""
        assert self.me.takeover is not None
        self.advert_task = asyncio.ensure_future(self.me.takeover.announcement().start(0))

    def _become_host(self) -> None:
        """Host the table from here: a new TableHost takes what this seat holds, in one Handover."""
        c, save = self.me, self.saves.save
        assert save is not None
        if self.fair_peer.fair is not None:
            self._become_fair_host(self.fair_peer.fair, save)
            return
        save.steps = list(self.record.steps)
        # The old host's seat (and any seat played by its bots) is played by a bot from now on.
        save.seats = [msgspec.structs.replace(s, by_bot=s.seat == save.host_seat) for s in save.seats]
        handover = Handover(
            save,
            share=c.share,
            steps=list(self.record.steps),
            chain=self.record.chain,
            guard=self._guard(),  # one count of handshakes per socket
        )
        # The listener already bound to our advertised port hands new connections to the new host.
        c.takeover = self._host_from(handover, chooser=c.chooser)
        c.dealt_by.append((len(self.record.steps) + 1, c.seat))
        c.phase = PeerPhase.HOSTING

    def _guard(self) -> Guard | None:
        """Our listener's count of unfinished handshakes, which a new host here keeps (one per socket)."""
        return self.listener.guard if self.listener is not None else None

    def _become_fair_host(self, drv: FairDriver, save: PeerSave) -> None:
        """Host a fair table from here: our own rounds go on as they were; we relay every seat's."""
        c = self.me
        self.saves.update_seats()

        def our_view() -> None:
            c.state = drv.fs.view

        handover = Handover(
            save,
            fair=drv,
            on_step=our_view,
            guard=self._guard(),
        )
        host = self._host_from(handover)
        if self.fair_peer.task is not None:
            self.fair_peer.task.cancel()  # the host's run audits and ends the game now
            self.fair_peer.task = None
        c.takeover = host
        c.phase = PeerPhase.HOSTING

    def _host_from(self, handover: Handover, *, chooser: Chooser | None = None) -> TableHost:
        """The new host, on the port this seat's listener already holds, under this seat's name and key."""
        c = self.me
        return TableHost.from_handover(
            c.game,
            c.identity,
            handover,
            chooser=chooser,
            host_name=c.name,
            bind=c.bind,
            port=c.listen_port,
            save_dir=c.save_dir,
            pass_key=c.pass_key,
            network=c.network,
        )
