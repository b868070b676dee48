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
from typing import TYPE_CHECKING, Any

import msgspec

from ... import fairplay as fp
from ... import messages as m
from ...link import Link, Terms
from ...transport import AlreadySeated, Refusal
from ..events import Chooser, HostChanged
from ..failover import Handover, candidates
from ..fairtable import FairDriver
from ..host.host import TableHost
from ..hostlink import HostLink
from .peercore import PeerCore, PeerPhase, SentAway

if TYPE_CHECKING:
    from .fairpeer import FairPeer


class PeerFailover:
    """What a seat does when its host is gone; it keeps whether the host fell silent and the new advert."""

    def __init__(self, core: PeerCore, fair_peer: FairPeer, *, reconnect_for: float) -> None:
        self.core = core
        self.fair_peer = fair_peer
        """A fair table's rounds: stopped when this seat hosts (the host's run ends the game)."""
        self.reconnect_for = reconnect_for
        """Seconds to find a host again (the same one, or a new one) before the game ends here."""
        self.host_silent = False
        """The last connection ended because the host went silent (frozen, cut off), not closed."""
        self.advert_task: asyncio.Future[Any] | None = None
        """This seat's announcement of the table, once it hosts it."""

    # ---- this seat's listener (a link.Door): closed to everyone until this seat hosts the table ----
    def terms(self) -> Terms | None:
        host = self.core.takeover
        return host.connections.terms() if host is not None else None

    async def enter(self, link: Link, joined: Callable[[], None]) -> None:
        host = self.core.takeover
        if host is None:
            await link.close()
            return
        await host.connections.enter(link, joined)

    def refused(self, text: str) -> None:
        if self.core.takeover is not None:
            self.core.takeover.connections.refused(text)

    async def recover(self) -> None:
        """The host connection broke mid-game: reconnect, or fail over to a new host."""
        c = self.core
        c.conn = None
        # A silent host is frozen or cut off: a short try only, so that failover comes within ~10 s.
        within = min(self.reconnect_for, 1.0 if self.host_silent else 3.0)
        self.host_silent = False

        async def rejoin(conn: Link) -> None:
            await c.hello(conn, resume_ply=len(c.record.steps))
            if self.fair_peer.fair is not None:
                # What we sent while cut off may be lost: send it all again (the host drops copies).
                c.send_own(conn)

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
        c.problem(f"the host is gone ({last}); choosing a new host")
        await self._choose_new_host()

    async def _choose_new_host(self) -> None:
        """Every seat tries the same candidates in the lobby's order; the one that is us hosts."""
        me = self.core
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
                me.emit(HostChanged(me.seat, "", me.listen_port))
                return
            me.emit(HostChanged(c.seat, c.addr, c.port))

            async def seat_at(conn: Link, c: m.SeatInfo = c) -> None:
                await me.hello(conn, resume_ply=len(me.record.steps), failover=True)
                if me.fair is not None:
                    me.send_own(conn)  # the new host may lack some of ours
                me.host_addr, me.host_port, me.host_seat = c.addr, c.port, c.seat
                me.dealt_by.append((len(me.record.steps) + 1, c.seat))
                if me.save is not None:
                    me.save.host_addr, me.save.host_port, me.save.host_seat = c.addr, c.port, c.seat
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
        assert self.core.takeover is not None
        self.advert_task = asyncio.ensure_future(self.core.takeover.announcement().start(0))

    def _become_host(self) -> None:
        """Host the table from here: a new TableHost takes what this seat holds, in one Handover."""
        c = self.core
        assert c.save is not None
        if self.fair_peer.fair is not None:
            self._become_fair_host(self.fair_peer.fair)
            return
        c.save.steps = list(c.record.steps)
        # The old host's seat (and any seat played by its bots) is played by a bot from now on.
        c.save.seats = [msgspec.structs.replace(s, by_bot=s.seat == c.save.host_seat) for s in c.save.seats]
        handover = Handover(
            c.save,
            share=c.share,
            steps=list(c.record.steps),
            chain=c.record.chain,
            guard=c.listen_guard,  # one count of handshakes per socket
        )
        # The listener already bound to our advertised port hands new connections to the new host.
        c.takeover = self._host_from(handover, chooser=c.chooser)
        c.dealt_by.append((len(c.record.steps) + 1, c.seat))
        c.phase = PeerPhase.HOSTING

    def _become_fair_host(self, drv: FairDriver) -> None:
        """Host a fair table from here: our own rounds go on as they were; we relay every seat's."""
        c = self.core
        assert c.save is not None
        c.update_save_seats()

        def our_view() -> None:
            c.state = drv.fs.view

        handover = Handover(
            c.save,
            fair=drv,
            on_step=our_view,
            guard=c.listen_guard,
        )
        host = self._host_from(handover)
        if self.fair_peer.task is not None:
            self.fair_peer.task.cancel()  # the host's run audits and ends the game now
            self.fair_peer.task = None
        c.takeover = host
        c.phase = PeerPhase.HOSTING

    def _host_from(self, handover: Handover, *, chooser: Chooser | None = None) -> TableHost:
        """The new host, on the port this seat's listener already holds, under this seat's name and key."""
        c = self.core
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
