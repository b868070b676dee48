"""The host's connections: the table's door, each seat's messages handed to the phase they are for, the heartbeat.

A link that passed the handshake comes in at :class:`Connections` (the table's
``link.Door``): the seating seats it (or hands it to the watchers, or turns it away),
then every message of that seat goes, in turn, to the one phase it is for (a Commit to
the seed rounds, an Act to the relay, a Fair to the fair host, …) until the link
closes and the seating hears the seat left. The heartbeat pings quiet seats and drops
silent ones.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from ... import messages as m
from ...link import Link, Terms
from ..events import ChatReceived
from .shared import Outbox, Remote, Tasks

if TYPE_CHECKING:
    from .beacons import Beacons
    from .ending import Finals
    from .fairhost import FairHost
    from .relay import Relay
    from .rematch import RematchOffer
    from .seating import Seating
    from .seedround import Seeding

log = logging.getLogger("coldwater.net")

HEARTBEAT = 1.0
"""Seconds between pings on a quiet connection (both sides)."""
PEER_SILENCE = 10.0
"""A peer not heard from for this long is treated as gone (marked away until it reconnects)."""


class ConnectionsTable(Protocol):
    """What :class:`Connections` reads of the host: the seats, the refusals it keeps, whether the game is on."""

    @property
    def remotes(self) -> dict[int, Remote]: ...

    @property
    def refusals(self) -> deque[str]: ...

    @property
    def started(self) -> bool: ...


class Connections:
    """The door and the seats' messages of one host (``TableHost.connections``)."""

    def __init__(
        self,
        out: Outbox,
        tasks: Tasks,
        host: ConnectionsTable,
        *,
        seating: Seating,
        seeding: Seeding,
        relay: Relay,
        beacons: Beacons,
        fair_host: FairHost,
        finals: Finals,
        rematch: RematchOffer,
    ) -> None:
        """Every phase a seat's message may be for."""
        self.out = out
        self.tasks = tasks
        self.host = host
        self.seating = seating
        self.seeding = seeding
        self.relay = relay
        self.beacons = beacons
        self.fair_host = fair_host
        self.finals = finals
        self.rematch = rematch

    # ---- the door (link.Door) --------------------------------------------------------
    def terms(self) -> Terms:
        return self.seating.door_terms()

    def refused(self, text: str) -> None:
        self.host.refusals.append(text)

    async def enter(self, conn: Link, joined: Callable[[], None]) -> None:
        """Serve one link that passed the handshake: seated (or watching, or turned away), then its messages."""
        r = await self.seating.admit(conn, joined)
        if r is not None:
            await self.serve(r, conn)

    # ---- a seat's messages -----------------------------------------------------------
    async def serve(self, r: Remote, conn: Link) -> None:
        """Seat `r`'s messages on `conn`, each handled in turn, until it closes."""
        while True:
            msg = await conn.recv()
            if msg is None:
                break
            r.heard = time.monotonic()
            try:
                self.handle(r, conn, msg)
            except Exception as e:  # nothing a peer sends may crash the table
                log.exception("handling %s", type(msg).__name__)
                self.out.refuse(conn, type(msg).__name__, f"internal error: {e}")
        for kind, reason in conn.refused:
            self.host.refusals.append(f"{kind}: {reason}")
        self.seating.left(r, conn)

    def handle(self, r: Remote, conn: Link, msg: m.Message) -> None:
        """One message of seat `r`, to the phase it is for (refused when a peer may not send it)."""
        if isinstance(msg, m.Ready):
            if not self.host.started:
                r.ready = msg.ready
                self.out.lobby_changed()
        elif isinstance(msg, m.Chat):
            if not r.chat.take():
                self.out.refuse(conn, "chat", "too many chat messages; slow down")
                return
            text = msg.text[:500]
            self.out.broadcast(m.Chat(text=text, seat=r.seat))
            self.out.emit(ChatReceived(r.seat, r.name, text))
        elif isinstance(msg, m.Commit):
            self.seeding.on_commit(r, conn, msg)
        elif isinstance(msg, m.Reveal):
            self.seeding.on_reveal(r, conn, msg)
        elif isinstance(msg, m.Act):
            self.relay.on_act(r, conn, msg)
        elif isinstance(msg, m.Link):
            self.beacons.on_link(r, conn, msg)
        elif isinstance(msg, m.Fair):
            self.fair_host.on_fair(r, conn, msg)
        elif isinstance(msg, m.AutoPlay):
            self.relay.on_autoplay(r, conn, msg)
        elif isinstance(msg, m.HandOver):
            self.seating.on_hand_over(r, conn, msg)
        elif isinstance(msg, m.Mismatch):
            self.relay.on_mismatch(r, conn, msg)
        elif isinstance(msg, m.Final):
            self.finals.on_final(r, conn, msg)
        elif isinstance(msg, m.RematchReply):
            self.rematch.on_reply(r, conn, msg)
        elif isinstance(msg, m.Ping):
            if not r.pings.take():
                self.out.refuse(conn, "ping", "too many pings")
                return
            conn.send_nowait(m.Pong(t=msg.t))
        elif isinstance(msg, m.Pong | m.Notice):
            pass
        else:
            self.out.refuse(conn, type(msg).__name__, "peers may not send this message")

    async def heartbeat(self) -> None:
        """Ping quiet peers so they know the host lives; drop peers that stopped answering."""
        while True:
            await asyncio.sleep(HEARTBEAT)
            now = time.monotonic()
            for r in self.host.remotes.values():
                if not r.present:
                    continue
                assert r.conn is not None
                if now - r.heard > PEER_SILENCE:
                    log.warning(
                        "seat %d (%s) silent for %.0f s; dropping its connection", r.seat + 1, r.name, now - r.heard
                    )
                    self.tasks.spawn(r.conn.close())
                elif r.conn.bytes_out == r.sent_mark:
                    r.conn.send_nowait(m.Ping(t=now))  # only on a quiet connection: steps are heartbeats too
                r.sent_mark = r.conn.bytes_out
