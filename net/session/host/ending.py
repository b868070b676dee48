"""The end of a committed game at the host: the End, the audit of a game another host began, the signed finals.

When the game is over the host publishes the :class:`~messages.End` (the dealer's
secret and the final digest), audits the whole game itself if it took over from
another host, gathers every present seat's signed final digest and relays them all
so that the peers compare their stories, and stays up a while for seats that were
away at the end. :class:`Ending` keeps that bookkeeping; :class:`Finals` keeps the
seats' signed final digests, which a fair-dealer table's end (fairhost.py) relays too.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Protocol

from ... import fairplay as fp
from ... import messages as m
from ...identity import verify
from ...link import Link
from ..events import FINALS_WAIT, Finished, Result, scores_of
from .shared import HostPhase, Outbox, Remote, TableTerms, Tasks

if TYPE_CHECKING:
    from ...play.table import Table
    from ..record import TableRecord

END_GRACE = 60.0
"""Seconds a finished table stays up (and advertised) for seats that were away at the end."""

log = logging.getLogger("coldwater.net")


class FinalsTable(Protocol):
    """What :class:`Finals` reads of the host: where the table is in its life."""

    @property
    def phase(self) -> HostPhase: ...


class Finals:
    """The seats' signed final digests at one table (``TableHost.finals``), a committed or a fair one."""

    def __init__(self, record: TableRecord, out: Outbox, tasks: Tasks, host: FinalsTable) -> None:
        self.record = record
        self.out = out
        self.tasks = tasks
        self.host = host
        self.by_seat: dict[int, m.Final] = {}
        """Each seat's signed final digest, as received (the host's own too), by seat."""
        self.ply: int | None = None
        """The ply the game ended at, once it has (set by whichever end it had): what a final digest signs."""
        self.sent = False
        """The finals went out to everyone: one that comes later is answered with them all."""

    async def relay(self, waiting: list[Remote]) -> None:
        """Wait a while for the signed final digest of every seat in `waiting` still present, then send them all."""
        await self.tasks.wait(lambda: all(r.seat in self.by_seat or not r.present for r in waiting), FINALS_WAIT)
        self.sent = True
        self.out.broadcast(m.Finals(finals=list(self.by_seat.values())))

    def on_final(self, r: Remote, conn: Link, msg: m.Final) -> None:
        """A seat's signed final digest, once the game has ended."""
        if self.host.phase is not HostPhase.ENDED or self.ply is None:
            self.out.refuse(conn, "final", "the game has not ended")
            return
        key = self.record.seat_keys.get(r.seat, r.key)
        if msg.seat != r.seat or not verify(key, msg.sig, fp.final_message(self.record.joint, self.ply, msg.digest)):
            self.out.refuse(conn, "final", "not this seat's signed final digest")
            return
        self.by_seat[r.seat] = msg
        self.tasks.wake()
        if self.sent:  # a seat that came back after the end
            conn.send_nowait(m.Finals(finals=list(self.by_seat.values())))


class EndingTable(Protocol):
    """What :class:`Ending` reads and sets of the host beyond its record and terms."""

    @property
    def remotes(self) -> dict[int, Remote]: ...

    @property
    def host_seat(self) -> int: ...

    @property
    def table(self) -> Table | None: ...

    @property
    def dealer(self) -> fp.CommittedDealer: ...

    @property
    def failover_ply(self) -> int:
        """After a failover: the last ply the old host dealt (0: none)."""

    @property
    def problems(self) -> list[str]: ...

    @property
    def linger(self) -> bool: ...

    phase: HostPhase
    result: Result | None


class Ending:
    """The end of one table's committed game (``TableHost.ending``)."""

    def __init__(
        self, record: TableRecord, out: Outbox, tasks: Tasks, terms: TableTerms, finals: Finals, host: EndingTable
    ) -> None:
        self.record = record
        self.out = out
        self.tasks = tasks
        self.terms = terms
        self.finals = finals
        """The seats' signed final digests, gathered and relayed once the End is out."""
        self.host = host
        self.end: m.End | None = None
        """The End as it went out (None before the end): a seat that comes back afterwards is sent it."""
        self.grace = END_GRACE
        """Seconds a finished table stays up for seats that were away at the end."""

    async def finish(self) -> Result:
        """The committed game is over: the End, the audit (after a takeover), the finals; returns the result."""
        host = self.host
        t = host.table
        assert t is not None
        st = t.state
        scores, outcome = scores_of(st)
        end = m.End(dealer_secret=host.dealer.secret(), digest=fp.full_digest(st))
        self.end = end
        self.finals.ply = st.ply
        host.phase = HostPhase.ENDED
        self.out.broadcast(end)
        for r in host.remotes.values():
            r.told_end = r.told_end or r.present
        problems = list(host.problems)
        if host.failover_ply:
            # A new host audits the whole game as every peer does: the old host dealt its first part.
            rep = await asyncio.to_thread(
                fp.audit,
                self.terms.game,
                self.terms.info.players,
                self.terms.options,
                self.record.joint,
                host.dealer.commitment,
                host.dealer.secret(),
                self.record.steps,
                tips=fp.tips(self.record.reveals),
                final=st,
                keys=self.record.seat_keys,
            )
            if not rep.ok:
                who = "the old host" if 0 <= rep.bad_ply <= host.failover_ply else "this host"
                problems.append(f"AUDIT FAILED, {who} cheated or erred: " + "; ".join(rep.problems))
        if host.host_seat >= 0 and host.host_seat in self.record.seat_keys:
            d = fp.full_digest(st)
            self.finals.by_seat[host.host_seat] = m.Final(
                seat=host.host_seat,
                digest=d,
                sig=self.terms.identity.sign(fp.final_message(self.record.joint, st.ply, d)),
            )
        # Every present seat's signed final digest, relayed to all, so peers compare their stories.
        await self.finals.relay([r for r in host.remotes.values() if r.present and not r.by_bot])
        host.result = Result(
            game=self.terms.game.name,
            table=self.terms.name,
            seat=host.host_seat,
            scores=scores,
            digest=st.digest(),
            plies=st.ply,
            outcome=outcome,
            audit_ok=not any(p.startswith("AUDIT FAILED") for p in problems),
            problems=problems,
        )
        self.out.emit(Finished(host.result))
        # Give every present peer a moment to read the end before the sockets close.
        for r in host.remotes.values():
            if r.conn is not None:
                await r.conn.drain()
        # A seat away at the end (a crash, a restart) is still held for its player: the
        # table stays up and advertised a while so they come back to the result, with
        # the dealer's secret to audit it, rather than to "no such table".
        owed = [r for r in host.remotes.values() if r.key and not r.by_bot]
        if not all(r.told_end for r in owed):
            log.info("the game is over; waiting up to %.0f s for away seats to collect the result", self.grace)
            await self.tasks.wait(lambda: all(r.told_end for r in owed), self.grace)
        if not host.linger:
            await self.tasks.wait(lambda: all(not r.present for r in host.remotes.values()), 5.0)
        return host.result
