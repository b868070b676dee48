"""Public draws at a committed LAN table: every seat's hash-chain beacon link, gathered by the host.

A draw that every seat may know (``beacon.is_public_draw``) is made from the links of
the seats' beacon chains (net/beacon.py, docs/fairplay.md) instead of the dealer's
secret. The host files its own link, waits a while for every present seat's, names a
seat that holds its link back (the relay gives its seat to a bot) and refuses bad links.
"""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING, Any, Protocol

from coldwater.core.state import CHANCE, State

from ... import beacon
from ... import messages as m
from ...link import Link
from ..events import Problem
from .shared import HostPhase, Outbox, Remote, Tasks, fp_text

if TYPE_CHECKING:
    from ...play.table import Table
    from ..record import TableRecord

log = logging.getLogger("coldwater.net")

LINK_TIMEOUT = 10.0
"""Seconds the host waits at a public draw for a present seat's beacon link (links are sent unasked)."""
LINK_SILENCE = 4.0
"""A seat not heard from for this long when its link is due is taken for a frozen link, not a withholder
(live peers ping every second): the first time, its connection is dropped and the draw goes on without it."""


class BeaconsTable(Protocol):
    """What :class:`Beacons` reads of the host beyond its record: the seats, the game being played."""

    @property
    def remotes(self) -> dict[int, Remote]: ...

    @property
    def table(self) -> Table | None: ...

    @property
    def phase(self) -> HostPhase: ...

    @property
    def beacon_id(self) -> int:
        """The seat this host's links are filed under."""

    @property
    def problems(self) -> list[str]: ...


class Beacons:
    """The links of one host's public draws (``TableHost.beacons``)."""

    def __init__(self, record: TableRecord, out: Outbox, tasks: Tasks, host: BeaconsTable) -> None:
        self.record = record
        self.out = out
        self.tasks = tasks
        self.host = host
        self.withheld: list[Remote] = []
        """Seats named at the last draw for holding back their link: the relay gives them to a bot."""
        self.link_timeout = LINK_TIMEOUT
        self._link_box: dict[int, bytes] = {}
        self._link_ply = -1
        self._public_at = (-1, False)
        self._link_named: set[int] = set()

    def is_public(self, state: State[Any, Any]) -> bool:
        if self._public_at[0] != state.ply:
            self._public_at = (state.ply, beacon.is_public_draw(state))
        return self._public_at[1]

    def _box(self, ply: int) -> dict[int, bytes]:
        """The links gathered for the draw at `ply` (links for an earlier ply are dropped)."""
        if self._link_ply != ply:
            self._link_ply, self._link_box = ply, {}
        return self._link_box

    def _owed(self, box: dict[int, bytes]) -> list[Remote]:
        """Present seats of the beacon whose link for this draw is not in yet (away seats are not waited for)."""
        return [
            r
            for r in self.host.remotes.values()
            if r.seat in self.record.book.last and not r.by_bot and not r.linkless and r.present and r.seat not in box
        ]

    async def gather_links(self, state: State[Any, Any]) -> dict[int, bytes]:
        """Our link and every present seat's, or the others' once the deadline passes (the late are named
        and left in :attr:`withheld`)."""
        assert self.record.chain is not None
        ply = state.ply
        box = self._box(ply)
        box[self.host.beacon_id] = self.record.chain.link(beacon.index_of(ply))
        await self.tasks.wait(lambda: not self._owed(box), self.link_timeout)
        now = time.monotonic()
        for r in self._owed(box):
            if now - r.heard > LINK_SILENCE and r.silent_draws == 0 and r.conn is not None:
                # Not a word from it (not even a ping): a frozen process or a dead link, which the
                # heartbeat would drop anyway. Once, that is not withholding: it is away and may come back.
                r.silent_draws += 1
                text = (
                    f"{r.name} (seat {r.seat + 1}) was silent when its beacon link for the draw at ply {ply} "
                    "was due; the draw goes on without it and its connection is dropped (it may come back)"
                )
                self.host.problems.append(text)
                log.warning("%s", text)
                self.out.broadcast(m.Notice(text=text))
                self.out.emit(Problem(text))
                self.tasks.spawn(r.conn.close())
            else:
                self._withheld(r, ply)
        links = dict(box)
        self._link_box = {}
        return links

    def _withheld(self, r: Remote, ply: int) -> None:
        """The table's rule for a seat that holds back its link: named, its seat to a bot, the draw goes on."""
        self.out.blame(
            f"{r.name} (seat {r.seat + 1}, {fp_text(r.key)}) did not send its beacon link for the draw at ply {ply} "
            f"within {self.link_timeout:.0f} s; a bot plays seat {r.seat + 1} "
            "and the draw goes on with the others' links"
        )
        if r.conn is not None:
            r.conn.send_nowait(m.Refuse(reason="you did not send your beacon link in time; a bot plays your seat"))
            self.tasks.spawn(r.conn.close())
        self.withheld.append(r)

    def _bad_link(self, r: Remote, conn: Link, why: str) -> None:
        """Refused (a strike), and the first bad link of a seat is named to everyone."""
        self.out.refuse(conn, "link", why)
        if r.seat not in self._link_named:
            self._link_named.add(r.seat)
            self.out.blame(f"{r.name} (seat {r.seat + 1}, {fp_text(r.key)}) sent a bad beacon link: {why}")

    def on_link(self, r: Remote, conn: Link, msg: m.Link) -> None:
        t = self.host.table
        if t is None or self.host.phase is not HostPhase.PLAYING:
            self.out.refuse(conn, "link", "no draw is pending: the game is not being played")
            return
        if r.by_bot or r.seat not in self.record.book.last:
            self._bad_link(r, conn, f"seat {r.seat + 1} is not part of this table's beacon")
            return
        st = t.state
        if msg.ply > st.ply or (msg.ply == st.ply and st.current != CHANCE):
            self._bad_link(
                r, conn, f"a link for ply {msg.ply}, which is no pending draw (the table is at ply {st.ply})"
            )
            return
        why = self.record.book.why_not(r.seat, msg.ply, msg.link)
        if msg.ply < st.ply:
            if why is None and msg.ply < len(self.record.steps) and not self.record.steps[msg.ply].links:
                return  # a good link for a draw the dealer made before it arrived: nothing to use it for
            self._bad_link(r, conn, why or f"a link for ply {msg.ply}, whose draw is over (the table is at {st.ply})")
            return
        if why is not None:
            self._bad_link(r, conn, why)
            return
        if not self.is_public(st):
            return  # the dealer's draw (the peer cannot tell from its view): unused
        box = self._box(msg.ply)
        if r.seat not in box:  # a second copy (after a reconnect) is the same link: the chain fixes it
            box[r.seat] = msg.link
            self.tasks.wake()
