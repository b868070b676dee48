"""The host's lobby and who sits where: admitting a connection to a seat, the seat list, a seat leaving, hand-overs.

An incoming connection is handshaken (admission.py), turned away if its identity was
sent away, handed to the watchers if it asks to watch, and otherwise seated: at the seat
its key already holds (a reconnect), at a seat reserved for its key, or at a free one.
:class:`Seating` also says what every seat is (the lobby every peer is shown), frees a
lobby seat when its peer leaves, and hands a seat that ran out of time to a bot. The
seat list itself (:func:`seat_list`) is a function of the seats, which the host shows.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from ... import messages as m
from ...identity import fingerprint
from ...link import Link
from ...link import Terms as DoorTerms
from ...names import shown_player
from ...transport import SAME_KEY
from ..events import PresenceChanged, Problem
from ..turnclock import fmt
from .shared import HostPhase, Outbox, Remote, TableTerms, fp_text

if TYPE_CHECKING:
    from ...admission import Guard
    from ..turnclock import TurnClock
    from .ending import Ending
    from .fairhost import FairHost
    from .relay import Relay
    from .rematch import RematchOffer
    from .spectators import Spectators
    from .takeover import Takeover

log = logging.getLogger("coldwater.net")

JOIN_TIMEOUT = 10.0


class SeatListTable(Protocol):
    """The seats as :func:`seat_list` reads them."""

    @property
    def kinds(self) -> list[str]: ...

    @property
    def remotes(self) -> dict[int, Remote]: ...

    @property
    def reserved(self) -> dict[int, str]: ...

    @property
    def reserved_labels(self) -> dict[int, str]: ...

    @property
    def host_name(self) -> str: ...

    @property
    def host_by_bot(self) -> bool: ...


def seat_list(host: SeatListTable, terms: TableTerms) -> list[m.SeatInfo]:
    """Every seat as the peers are shown it (the host's lobby)."""
    out: list[m.SeatInfo] = []
    for i, kind in enumerate(host.kinds):
        if i in host.remotes:
            r = host.remotes[i]
            if not r.key:
                held = host.reserved.get(i, "")
                held = host.reserved_labels.get(i, held) if held else ""
                out.append(m.SeatInfo(seat=i, kind="open", reserved=held))
            elif r.by_bot:
                out.append(
                    m.SeatInfo(
                        seat=i,
                        kind="bot",
                        name=f"{r.name} (bot)",
                        fingerprint=fp_text(r.key),
                        key=r.key,
                        ready=True,
                    )
                )
            else:
                out.append(
                    m.SeatInfo(
                        seat=i,
                        kind="remote",
                        name=r.name,
                        fingerprint=fp_text(r.key),
                        key=r.key,
                        ready=r.ready,
                        bot=r.timed_out,
                        away=not r.present and not r.by_bot,
                        addr=r.addr,
                        port=r.port,
                    )
                )
        elif kind == "host":
            out.append(
                m.SeatInfo(
                    seat=i,
                    kind="host",
                    name=host.host_name,
                    fingerprint=terms.identity.fingerprint,
                    key=terms.identity.public,
                    ready=True,
                    bot=host.host_by_bot,
                )
            )
        elif terms.info.dealer == "fair":
            # A bot seat with its own layer, run (and signed for) by the host's process: said in its name.
            out.append(
                m.SeatInfo(
                    seat=i,
                    kind="bot",
                    name=f"{terms.game.bots[0]} bot (run by the host)",
                    fingerprint=terms.identity.fingerprint,
                    key=terms.identity.public,
                    ready=True,
                )
            )
        else:
            out.append(m.SeatInfo(seat=i, kind="bot", name=f"{terms.game.bots[0]} bot", ready=True))
    return out


class SeatingTable(Protocol):
    """What :class:`Seating` reads and sets of the host beyond its terms and clock: the seats, who was sent
    away, the connections kept, the guard, the table's life."""

    @property
    def remotes(self) -> dict[int, Remote]: ...

    @property
    def reserved(self) -> dict[int, str]: ...

    @property
    def host_seat(self) -> int: ...

    @property
    def host_name(self) -> str: ...

    @property
    def banned(self) -> set[bytes]: ...

    @property
    def traffic(self) -> list[Link]: ...

    @property
    def host_by_bot(self) -> bool:
        """At a fair table: this process's bot plays the host's own seat."""

    @property
    def guard(self) -> Guard: ...

    @property
    def phase(self) -> HostPhase: ...

    @property
    def started(self) -> bool: ...

    @property
    def closing(self) -> bool: ...

    @property
    def problems(self) -> list[str]: ...


class Seating:
    """Who sits where at one table (``TableHost.seating``); `pass_key` is the table's passphrase key."""

    def __init__(
        self,
        out: Outbox,
        clock: TurnClock,
        terms: TableTerms,
        host: SeatingTable,
        pass_key: bytes,
        *,
        relay: Relay,
        ending: Ending,
        watch: Spectators,
        rematch: RematchOffer,
        fair_host: FairHost,
        took_over: Takeover | None,
    ) -> None:
        """`relay` syncs a seat that comes back (and releases a turn a bot takes over), `ending` has the End
        for a seat that was away, `watch` takes a connection that asks to watch, `rematch` hears of a seat
        leaving after the end, `fair_host` says whether a bot plays the host's seat and hands a fair seat to
        its bot, and `took_over` (after a failover) gathers what a returning seat brings."""
        self.out = out
        self.clock = clock
        self.terms = terms
        self.host = host
        self.pass_key = pass_key
        self.relay = relay
        self.ending = ending
        self.watch = watch
        self.rematch = rematch
        self.fair_host = fair_host
        self.took_over = took_over

    def seated_key(self, key: bytes) -> bool:
        """Whether `key` sits at this table (a seat coming back) or a seat is reserved for it: the guessing
        limit never refuses such a key (admission.Guard.trusted)."""
        if any(r.key == key for r in self.host.remotes.values()):
            return True
        return fingerprint(key).lower() in {fp.lower() for fp in self.host.reserved.values()}

    def door_terms(self) -> DoorTerms:
        """What a joiner's handshake is checked against (the table's link.Door says it)."""
        t = self.terms
        return DoorTerms(t.identity, t.game.name, t.game.content_hash, t.name, self.pass_key, self.host.guard)

    async def admit(self, conn: Link, joined: Callable[[], None]) -> Remote | None:
        """Seat one link that passed the handshake (its join), or hand it to the watchers, or turn it away:
        the seat it now holds, whose messages the caller serves; None when it holds none."""
        host = self.host
        if conn.peer_key in host.banned:
            conn.send_nowait(m.Refuse(reason="you were sent away from this table"))
            await conn.drain()
            await conn.close()
            return None
        try:
            first = await asyncio.wait_for(conn.recv(), JOIN_TIMEOUT)
        except TimeoutError:
            first = None
        joined()  # a join (or not) arrived: the connection no longer counts as a stranger's
        if isinstance(first, m.Watch):
            await self.watch.serve(conn, first)
            return None
        if not isinstance(first, m.Join):
            if isinstance(first, m.Link):
                self.out.refuse(conn, "link", f"a beacon link from {conn.fingerprint}, who is not seated at this table")
            elif first is not None:
                self.out.refuse(conn, type(first).__name__, "the first message must be a join")
                await conn.drain()
            await conn.close()
            return None
        seat = self._seat_for(conn, first)
        if seat is None:
            await conn.drain()
            await conn.close()
            return None
        r = host.remotes[seat]
        host.traffic.append(conn)
        if r.conn is not None and not r.conn.closed:
            if await r.conn.answers():
                # The same key twice, both alive: a second process, not a reconnect (attack 14).
                conn.send_nowait(m.Refuse(reason=SAME_KEY))
                await conn.drain()
                await conn.close()
                return None
            await r.conn.close()  # a reconnect replaces a half-dead old connection
        r.conn, r.key, r.name = conn, conn.peer_key, shown_player(first.name.strip()) or f"Seat {seat + 1}"
        r.addr, r.port = conn.peer_addr, first.port
        r.heard = time.monotonic()
        if first.share:
            r.share = first.share
        if host.started and first.linkless:
            r.linkless = True
        conn.send_nowait(m.Welcome(seat=seat, table=self.terms.info))
        if host.started:
            r.ready = True
            if host.phase is HostPhase.GATHERING:
                assert self.took_over is not None
                self.took_over.offer(seat, first)
            else:
                self.relay.sync(r, max(first.resume_ply, 0), fair=True)
            if r.timed_out and self.terms.info.dealer != "fair":
                # (At a fair table only the seat's own process knows: it says so again on joining.)
                self.relay.back_from_bot(r)
            end = self.ending.end
            if end is not None:
                # The game ended while this seat was away: it gets the end now and audits it itself.
                conn.send_nowait(end)
                r.told_end = True
            self.out.broadcast(m.Presence(seat=seat, away=False))
            self.out.emit(PresenceChanged(seat, False))
        self.out.lobby_changed()
        return r

    def _seat_for(self, conn: Link, join: m.Join) -> int | None:
        host = self.host
        for r in host.remotes.values():
            if r.key == conn.peer_key:
                if r.by_bot:
                    self.out.refuse(conn, "join", "your seat is now played by a bot")
                    conn.send_nowait(m.Refuse(reason="your seat is now played by a bot"))
                    return None
                return r.seat
        if host.started:
            conn.send_nowait(m.Refuse(reason="the game has started and every seat is taken"))
            self.out.refuse(conn, "join", "the game has started")
            return None
        mine = conn.fingerprint.lower()
        free = [r.seat for r in host.remotes.values() if not r.key]
        for seat in free:  # a seat reserved for this peer first
            if host.reserved.get(seat) == mine:
                return seat
        for seat in free:
            if seat not in host.reserved:
                return seat
        # Say why when seats are free but kept for others, so nobody thinks they typed something wrong.
        why = f"the free seats are reserved for other keys (yours is {mine})" if free else "the table is full"
        conn.send_nowait(m.Refuse(reason=why))
        self.out.refuse(conn, "join", why)
        return None

    def left(self, r: Remote, conn: Link) -> None:
        """`conn`, seat `r`'s connection, ended: in the lobby the seat is free again; later the seat is away."""
        host = self.host
        if r.conn is not conn or host.closing:
            return
        r.conn = None
        if not host.started:
            # Leaving the lobby frees the seat.
            r.key, r.name, r.ready = b"", "", False
            self.out.lobby_changed()
        else:
            # (A seat a bot plays stays so: a Presence without by_bot would tell the peers it is not,
            # and the bot's next step would look like the host's cheating.)
            self.out.broadcast(m.Presence(seat=r.seat, away=True, by_bot=r.timed_out or r.by_bot))
            self.out.emit(PresenceChanged(r.seat, True))
            self.out.lobby_changed()
            self.rematch.seat_left(r)

    def hand_over(self, seat: int, by: int = -1, conn: Link | None = None) -> str | None:
        """Hand `seat`, out of time, to a bot: asked by seat `by` (-1: the host's person; `conn` its
        connection). Only a seat whose move runs and whose time and bank are spent by this host's clock,
        and only by another seat. Returns why not (None: handed over, told to everyone)."""
        host = self.host
        clock, fair = self.clock, self.fair_host
        if host.phase is not HostPhase.PLAYING or not clock.running:
            return "no seat's move is being timed now"
        if seat != clock.seat:
            return f"it is not seat {seat + 1}'s move"
        if seat == by or (by < 0 and seat == host.host_seat):
            return "a seat out of time is handed to a bot by the others (its own person takes it back)"
        now = time.monotonic()
        if not clock.out(now):
            return f"seat {seat + 1} is not out of time: it has {fmt(clock.left(now))} left"
        who = host.host_name if by < 0 or by == host.host_seat else host.remotes[by].name if by in host.remotes else ""
        r = host.remotes.get(seat)
        if r is None and not (seat == host.host_seat and fair.stand_in is not None):
            return f"seat {seat + 1} is played by a program, which is never out of time"
        if (r is not None and (r.timed_out or r.by_bot)) or (r is None and host.host_by_bot):
            return f"seat {seat + 1} is played by a bot already"
        if self.terms.info.dealer == "fair" and fair.timer.handed.get(seat, (-1, 0.0))[0] == clock.ply:
            # One grace per out-of-time spell: asking again (Ctrl+O pressed twice, or by every player)
            # changes nothing, so a seat that plays no move forfeits ACT_GRACE after the first hand-over.
            since = now - fair.timer.handed[seat][1]
            return f"seat {seat + 1} was handed to a bot {since:.0f} s ago at this move; its grace runs from then"
        name = r.name if r is not None else host.host_name
        text = f"{name} (seat {seat + 1}) is out of time; {who or 'the host'} hands the seat to a bot until they return"
        host.problems.append(text)
        log.warning("%s", text)
        self.out.emit(Problem(text))
        if self.terms.info.dealer != "fair":
            assert r is not None
            r.timed_out = True  # the host's bot plays it until its person acts or says they are back
            self.out.broadcast(m.Notice(text=text))
            self.out.broadcast(m.Presence(seat=seat, away=not r.present, by_bot=True))
            self.relay.release(seat)
            self.out.lobby_changed()
            return None
        # At a fair table only the seat's own process can play it: it is asked to (its own clock must
        # agree), and forfeits past a grace if it plays nothing (fairhost.stalled).
        self.out.broadcast(m.Notice(text=text), exclude=seat)
        fair.timer.handed[seat] = (clock.ply, now)
        if r is not None:
            if r.conn is not None:
                r.conn.send_nowait(m.HandOver(seat=seat, ply=clock.ply, by=by))
        elif fair.stand_in is not None:
            fair.stand_in.hand_over()
        return None

    def on_hand_over(self, r: Remote, conn: Link, msg: m.HandOver) -> None:
        """A seated player asks for a seat out of time to go to a bot. Asked a little early (its clock runs
        a network delay behind this one) it is only told so; a flood is refused."""
        if not r.handovers.take():
            self.out.refuse(conn, "handover", "too many hand-over requests; slow down")
            return
        if abs(msg.ply - self.clock.ply) > 1 or msg.seat not in range(self.terms.info.players):
            self.out.refuse(conn, "handover", f"seat {msg.seat + 1} at ply {msg.ply} is not the move being timed")
            return
        why = self.hand_over(msg.seat, by=r.seat, conn=conn)
        if why is not None:
            conn.send_nowait(m.Notice(text=f"not handed to a bot: {why}"))
