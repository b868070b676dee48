"""The host's side of watching: people who see a table's public view and nothing else.

A watcher connects like a peer (the same handshake, identity and passphrase) and
sends :class:`~messages.Watch` instead of a Join. From then on it gets only what a
spectator may know, built here field by field rather than copied from what the
seats get, so that nothing private can ride along by accident:

- :class:`~messages.Watching` (the table's info), then :class:`~messages.Lobby`
  (seats without their addresses, the watchers),
- a :class:`~messages.Sync` with ``state.view(None)`` and the public steps so far,
- every :class:`~messages.Step` without ``reveal``; when the public view cannot
  follow a step by itself (a sealed chance outcome, the end uncovering things) the
  step carries the new *public* view,
- :class:`~messages.Over` at the end: the public digest, scores and outcome;
  never the seats' :class:`~messages.End`, whose dealer secret would let a
  watcher replay the undealt decks.

No escrow share, commitment round, reveal or private view ever goes to a watcher.
Anything a watcher sends beyond pings and resync requests is refused and counted
against its identity like any refused message at the table (``TableHost.strikes``).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

import msgspec

from coldwater.core.errors import IllegalAction, NotationError
from coldwater.core.state import State

from ... import fairplay as fp
from ... import messages as m
from ...link import Link
from ...ratelimit import TokenBucket
from ..events import ChatReceived, Event, GameStarted, LobbyChanged, Problem, StepApplied
from ..persist import pack_view

if TYPE_CHECKING:
    from ...discovery import Advertiser
    from ...play.table import Table
    from ..events import Emitter
    from ..record import TableRecord
    from .fairhost import FairHost
    from .shared import Outbox, Remote, TableTerms

log = logging.getLogger("coldwater.net")

WATCHERS = 16
"""Watchers a table admits at once unless its host says otherwise."""
MAX_WATCHERS = 64
"""The most a host may allow: each watcher costs the host a copy of every step."""
HEARTBEAT = 1.0
SILENCE = 10.0
"""A watcher not heard from for this long is dropped (it reconnects if it still cares)."""

NOT_ALLOWED = "this table does not admit watchers"


def watcher_step(step: m.Step, view: bytes | None = None) -> m.Step:
    """What a watcher may see of a step: the public fields, and a public view if one is needed.

    Built from a whitelist, never by stripping: a field added to :class:`~messages.Step`
    for the seats does not reach watchers unless it is added here on purpose.
    """
    return m.Step(
        ply=step.ply,
        seat=step.seat,
        digest=step.digest,
        action=step.action,
        commit=step.commit,
        view=view,
        sig=step.sig,
        bot=step.bot,
    )


def _public_seat(s: m.SeatInfo) -> m.SeatInfo:
    """A lobby row for watchers: who sits where, without the address peers use for failover."""
    return msgspec.structs.replace(s, addr="", port=0)


class Spectator:
    """One watcher's connection at the host."""

    def __init__(self, conn: Link, name: str) -> None:
        self.conn = conn
        self.name = name
        self.heard = time.monotonic()
        self.sent_mark = -1
        self.told_over = False
        self.pings = TokenBucket(5.0, 10.0)
        self.resyncs = TokenBucket(1.0, 3.0)

    @property
    def info(self) -> m.WatcherInfo:
        return m.WatcherInfo(name=self.name, fingerprint=self.conn.fingerprint)


class SpectatorsTable(Protocol):
    """What :class:`Spectators` reads of the host beyond its record and terms: the seats, whether the
    game is on, the committed game's table, the seat list; and its events, which watchers follow."""

    @property
    def remotes(self) -> dict[int, Remote]: ...

    @property
    def host_seat(self) -> int: ...

    @property
    def started(self) -> bool: ...

    @property
    def closing(self) -> bool: ...

    @property
    def refusals(self) -> deque[str]: ...

    @property
    def table(self) -> Table | None: ...

    def lobby(self) -> list[m.SeatInfo]: ...

    def subscribe(self, listener: Callable[[Event], None]) -> Callable[[], None]: ...


class Spectators:
    """The watchers of one :class:`~.host.TableHost` (``host.watch``)."""

    def __init__(
        self, record: TableRecord, out: Outbox, terms: TableTerms, host: SpectatorsTable, *, fair_host: FairHost
    ) -> None:
        self.record = record
        self.out = out
        self.terms = terms
        self.host = host
        self.fair_host = fair_host
        """At a fair table: its rounds, whose public view the watchers are shown."""
        self.watching: dict[bytes, Spectator] = {}
        """By identity key: one watching connection per identity (a second replaces the first)."""
        self.refused = 0
        self._public: State[Any, Any] | None = None
        """The public view after the last step sent to watchers (to know when a step needs the view)."""
        self._listeners: list[Callable[[int], None]] = []
        self._beat: asyncio.Task[None] | None = None
        self._closed = False
        host.subscribe(self._on_event)

    # ---- what the host, its UI and its advert read ----------------------------------
    @property
    def cap(self) -> int:
        """The most watchers at once (0: none), the table option ``TableInfo.watch``."""
        return self.terms.info.watch

    @property
    def allowed(self) -> bool:
        return self.cap > 0

    @property
    def count(self) -> int:
        return len(self.watching)

    def infos(self) -> list[m.WatcherInfo]:
        return [w.info for w in sorted(self.watching.values(), key=lambda w: (w.name, w.conn.fingerprint))]

    def on_change(self, fn: Callable[[int], None]) -> None:
        """`fn(count)` whenever a watcher arrives or leaves (the advert's TXT record)."""
        self._listeners.append(fn)

    def public_source(self) -> State[Any, Any] | None:
        """The position whose public view watchers are shown: the table's, or at a fair table the view
        the host keeps the public record from (its public part is everyone's)."""
        rec = self.fair_host.record
        if rec is not None:
            return rec.fs.view
        t = self.host.table
        return t.state if t is not None else None

    # ---- a watcher arrives ----------------------------------------------------------
    def why_not(self, conn: Link) -> str | None:
        """Why this connection may not watch now (None: it may)."""
        if self._closed:
            return "the table is closing"
        if not self.allowed:
            return NOT_ALLOWED
        key = conn.peer_key
        seat = next((r.seat for r in self.host.remotes.values() if r.key == key), None)
        if seat is not None or key == self.terms.identity.public:
            where = f"seat {seat + 1}" if seat is not None else "the host's seat"
            return f"your key holds {where} at this table; join to play it instead of watching"
        if key not in self.watching and self.count >= self.cap:
            return f"this table already has {self.cap} watcher{'s' if self.cap != 1 else ''}, the most it admits"
        return None

    async def serve(self, conn: Link, msg: m.Watch) -> None:
        """Admit a watcher (or say why not), then read what it sends until it leaves."""
        why = self.why_not(conn)
        if why is not None:
            self.refused += 1
            self.host.refusals.append(f"refused watch from {conn.label}: {why}")
            log.info("refused a watcher %s: %s", conn.label, why)
            conn.send_nowait(m.Refuse(reason=why))
            await conn.drain()
            await conn.close()
            return
        old = self.watching.get(conn.peer_key)
        if old is not None:
            await old.conn.close()  # the same identity again: a reconnect replaces the old connection
        name = "".join(c for c in msg.name if c.isprintable()).strip()[:40]  # shown in every lobby
        w = Spectator(conn, name or f"watcher {conn.fingerprint[:4]}")
        self.watching[conn.peer_key] = w
        conn.send_nowait(m.Watching(table=self.terms.info, started=self.host.started))
        conn.send_nowait(self._lobby(self.host.lobby(), self.host.started))  # names before the game
        if self.public_source() is not None:
            self._sync(w, max(msg.resume_ply, 0))
        self._changed()
        self._start_heartbeat()
        try:
            await self._read(w)
        finally:
            if self.watching.get(conn.peer_key) is w:
                del self.watching[conn.peer_key]
                if not self._closed and not self.host.closing:
                    self._changed()

    def _changed(self) -> None:
        # The seats and everyone watching hear of it (Lobby), and so does the advert.
        self.out.lobby_changed()
        for fn in list(self._listeners):
            fn(self.count)

    async def _read(self, w: Spectator) -> None:
        conn = w.conn
        while True:
            msg = await conn.recv()
            if msg is None:
                return
            w.heard = time.monotonic()
            try:
                self._handle(w, msg)
            except Exception as e:  # nothing a watcher sends may crash the table
                log.exception("handling %s from a watcher", type(msg).__name__)
                self.out.refuse(conn, type(msg).__name__, f"internal error: {e}")

    def _handle(self, w: Spectator, msg: m.Message) -> None:
        conn = w.conn
        if isinstance(msg, m.Ping):
            if not w.pings.take():
                self.out.refuse(conn, "ping", "too many pings")
                return
            conn.send_nowait(m.Pong(t=msg.t))
        elif isinstance(msg, m.Pong | m.Notice):
            pass
        elif isinstance(msg, m.Mismatch):
            if self.public_source() is None:
                self.out.refuse(conn, "mismatch", "the game has not started")
            elif not w.resyncs.take():
                self.out.refuse(conn, "mismatch", "too many resync requests")
            else:
                self.out.emit(Problem(f"watcher {w.name} reports a digest mismatch after ply {msg.ply}; resyncing it"))
                self._sync(w, msg.ply)
        else:
            kind = type(msg).__name__.lower()
            self.out.refuse(conn, kind, "a watcher only watches: it may not move, sit, chat or take part in fair play")

    # ---- what watchers are sent ----------------------------------------------------
    def _present(self) -> list[Spectator]:
        return [w for w in self.watching.values() if not w.conn.closed]

    def _lobby(self, seats: list[m.SeatInfo], started: bool) -> m.Lobby:
        return m.Lobby(
            seats=[_public_seat(s) for s in seats],
            started=started,
            host_seat=self.host.host_seat,
            watchers=self.infos(),
        )

    def _sync(self, w: Spectator, from_ply: int) -> None:
        st = self.public_source()
        if st is None:
            return
        steps = self.record.steps[min(max(from_ply, 0), len(self.record.steps)) :]
        w.conn.send_nowait(m.Sync(ply=st.ply, view=pack_view(st.view(None)), steps=[watcher_step(s) for s in steps]))
        if st.is_over:
            self._over(w)

    def _over(self, w: Spectator) -> None:
        st = self.public_source()
        assert st is not None
        sc = st.view(None).scores() if self.fair_host.record is not None else st.scores()
        w.conn.send_nowait(
            m.Over(digest=fp.public_digest(st), scores=dict(zip(sc.labels, sc.totals)), outcome=sc.outcome)
        )
        w.told_over = True

    def _on_event(self, ev: Event) -> None:
        if isinstance(ev, StepApplied):
            self._step()
            return
        if not self.watching:
            return
        if isinstance(ev, LobbyChanged):
            lobby = self._lobby(ev.seats, ev.started)
            for w in self._present():
                w.conn.send_nowait(lobby)
        elif isinstance(ev, GameStarted):
            self._public = None
            for w in self._present():
                self._sync(w, 0)
        elif isinstance(ev, ChatReceived):
            for w in self._present():
                w.conn.send_nowait(m.Chat(text=ev.text, seat=ev.seat))

    def announce(self, msg: m.Message) -> None:
        """What the host tells every seat and a watcher may hear too: presence and public notices.

        Everything else the host broadcasts (the seed round, the end with its dealer secret,
        the finals, chat and lobby, which come another way) is not for watchers.
        """
        if isinstance(msg, m.Presence):
            out: m.Message = m.Presence(seat=msg.seat, away=msg.away, by_bot=msg.by_bot)
        elif isinstance(msg, m.Notice):
            out = m.Notice(text=msg.text)
        else:
            return
        for w in self._present():
            w.conn.send_nowait(out)

    def _step(self) -> None:
        st = self.public_source()
        if st is None or not self.record.steps:
            return
        if not self.watching:
            self._public = None  # nobody to keep up to date; the next watcher gets a Sync
            return
        step = self.record.steps[-1]
        truth = st.view(None)
        before, self._public = self._public, truth
        view = None if self._follows(before, step, truth) else pack_view(truth)
        out = watcher_step(step, view)
        for w in self._present():
            w.conn.send_nowait(out)
            if st.is_over and not w.told_over:
                self._over(w)

    def _follows(self, before: State[Any, Any] | None, step: m.Step, truth: State[Any, Any]) -> bool:
        """Whether a watcher applying the step's action to its public view reaches the public truth."""
        if before is None or step.action is None or before.ply + 1 != truth.ply:
            return False
        try:
            nxt = before.clone()
            nxt.apply(self.terms.game.parse_action(step.action))
        except (IllegalAction, NotationError):
            return False
        return nxt.digest() == truth.digest()

    # ---- liveness and the end ------------------------------------------------------
    def _start_heartbeat(self) -> None:
        if self._beat is None or self._beat.done():
            self._beat = asyncio.ensure_future(self._heartbeat())

    async def _heartbeat(self) -> None:
        while self.watching:
            await asyncio.sleep(HEARTBEAT)
            now = time.monotonic()
            for w in list(self.watching.values()):
                if w.conn.closed:
                    continue
                if now - w.heard > SILENCE:
                    log.info("watcher %s silent for %.0f s; dropping it", w.conn.label, now - w.heard)
                    await w.conn.close()
                elif w.conn.bytes_out == w.sent_mark:
                    w.conn.send_nowait(m.Ping(t=now))
                w.sent_mark = w.conn.bytes_out

    def offer_rematch(self, port: int) -> int:
        """Tell every watcher still here that the table listens again at `port` (they may watch it
        there); returns how many were told. The host closes them afterwards, with the old table."""
        told = 0
        for w in self._present():
            w.conn.send_nowait(m.Rematch(port=port))
            told += 1
        return told

    async def close(self) -> None:
        self._closed = True
        if self._beat is not None:
            self._beat.cancel()
        for w in list(self.watching.values()):
            await w.conn.drain()
            await w.conn.close()


def advertise_watchers(watch: Spectators, host: Emitter[Event], adv: Advertiser) -> None:
    """Keep `adv` told who may watch, how many do,
    and whether the game is on (`host`'s lobby events), so that listings offer Watch on a running table."""
    adv.watch = watch.cap

    def on(ev: Event) -> None:
        if isinstance(ev, LobbyChanged):
            adv.update_watch_soon(len(ev.watchers), ev.started)

    host.subscribe(on)
