"""The end of a committed game at the host: the End, the audit of a game another host began, the signed finals.

When the game is over the host publishes the :class:`~messages.End` (the dealer's
secret and the final digest), audits the whole game itself if it took over from
another host, gathers every present seat's signed final digest and relays them all
so that the peers compare their stories, and stays up a while for seats that were
away at the end. :class:`Ending` keeps that bookkeeping and reaches the table
through :class:`~.hostcore.HostCore`; a fair-dealer table's end is the fair host's
(fairhost.py), which relays the finals through :meth:`Ending.relay_finals` too.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from coldwater.core import record

from ... import fairplay as fp
from ... import messages as m
from ...identity import verify
from ...link import Link
from ..events import Finished, Result
from ..fairtable import fair_record
from .hostcore import FINALS_WAIT, HostCore, HostPhase, Remote, scores_of

if TYPE_CHECKING:
    from .fairhost import FairHost

log = logging.getLogger("coldwater.net")


class Ending:
    """The end of one table's game (``TableHost.ending``)."""

    def __init__(self, host: HostCore, fair_host: FairHost) -> None:
        self.host = host
        self.fair_host = fair_host
        """At a fair table: its rounds, whose audit gives the whole game."""
        self.end: m.End | None = None
        """The End as it went out (None before the end): a seat that comes back afterwards is sent it."""
        self.finals: dict[int, m.Final] = {}
        """Each seat's signed final digest, as received (the host's own too), by seat."""
        self.finals_sent = False
        """The finals went out to everyone: one that comes later is answered with them all."""

    async def finish(self) -> Result:
        """The committed game is over: the End, the audit (after a takeover), the finals; returns the result."""
        host = self.host
        t = host.table
        assert t is not None
        st = t.state
        scores, outcome = scores_of(st)
        end = m.End(dealer_secret=host.dealer.secret(), digest=fp.full_digest(st))
        self.end = end
        host.phase = HostPhase.ENDED
        host.broadcast(end)
        for r in host.remotes.values():
            r.told_end = r.told_end or r.present
        problems = list(host.problems)
        if host.failover_ply:
            # A new host audits the whole game as every peer does: the old host dealt its first part.
            rep = await asyncio.to_thread(
                fp.audit,
                host.game,
                host.info.players,
                host.options,
                host.record.joint,
                host.dealer.commitment,
                host.dealer.secret(),
                host.record.steps,
                tips=fp.tips(host.record.reveals),
                final=st,
                keys=host.record.seat_keys,
            )
            if not rep.ok:
                who = "the old host" if 0 <= rep.bad_ply <= host.failover_ply else "this host"
                problems.append(f"AUDIT FAILED, {who} cheated or erred: " + "; ".join(rep.problems))
        if host.host_seat >= 0 and host.host_seat in host.record.seat_keys:
            d = fp.full_digest(st)
            self.finals[host.host_seat] = m.Final(
                seat=host.host_seat, digest=d, sig=host.identity.sign(fp.final_message(host.record.joint, st.ply, d))
            )
        # Every present seat's signed final digest, relayed to all, so peers compare their stories.
        await self.relay_finals([r for r in host.remotes.values() if r.present and not r.by_bot])
        host.result = Result(
            game=host.game.name,
            table=host.name,
            seat=host.host_seat,
            scores=scores,
            digest=st.digest(),
            plies=st.ply,
            outcome=outcome,
            audit_ok=not any(p.startswith("AUDIT FAILED") for p in problems),
            problems=problems,
        )
        host.emit(Finished(host.result))
        # Give every present peer a moment to read the end before the sockets close.
        for r in host.remotes.values():
            if r.conn is not None:
                await r.conn.drain()
        # A seat away at the end (a crash, a restart) is still held for its player: the
        # table stays up and advertised a while so they come back to the result, with
        # the dealer's secret to audit it, rather than to "no such table".
        owed = [r for r in host.remotes.values() if r.key and not r.by_bot]
        if not all(r.told_end for r in owed):
            log.info("the game is over; waiting up to %.0f s for away seats to collect the result", host.end_grace)
            await host.wait(lambda: all(r.told_end for r in owed), host.end_grace)
        if not host.linger:
            await host.wait(lambda: all(not r.present for r in host.remotes.values()), 5.0)
        return host.result

    async def relay_finals(self, waiting: list[Remote]) -> None:
        """Wait a while for the signed final digest of every seat in `waiting` still present, then send them all."""
        await self.host.wait(lambda: all(r.seat in self.finals or not r.present for r in waiting), FINALS_WAIT)
        self.finals_sent = True
        self.host.broadcast(m.Finals(finals=list(self.finals.values())))

    def on_final(self, r: Remote, conn: Link, msg: m.Final) -> None:
        """A seat's signed final digest, once the game has ended."""
        host = self.host
        t = host.table
        rec = self.fair_host.record
        if host.phase is not HostPhase.ENDED or (t is None and rec is None):
            host.refuse(conn, "final", "the game has not ended")
            return
        ply = t.state.ply if t is not None else rec.fs.view.ply if rec is not None else 0
        key = host.record.seat_keys.get(r.seat, r.key)
        if msg.seat != r.seat or not verify(key, msg.sig, fp.final_message(host.record.joint, ply, msg.digest)):
            host.refuse(conn, "final", "not this seat's signed final digest")
            return
        self.finals[r.seat] = msg
        host.wake()
        if self.finals_sent:  # a seat that came back after the end
            conn.send_nowait(m.Finals(finals=list(self.finals.values())))

    def full_record(self, meta: dict[str, str] | None = None) -> record.GameRecord | None:
        """At a fair-dealer table, the whole game as this host's seat's audit replayed it, once
        every key is out (None before then; a committed table's record is the table's)."""
        drv = self.fair_host.record
        return fair_record(drv, meta) if drv is not None else None
