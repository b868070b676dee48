"""Watching someone's table: the public view, the log and the scores, live; never a seat.

A :class:`TableWatcher` connects like a peer (same handshake, identity and
passphrase) and asks to watch (:class:`~messages.Watch`). The host sends it what
a spectator may know and nothing else (see spectators.py): the lobby, the public
view, every step in public form, and at the end the scores. The watcher still
checks what it is told: every step must follow on from the last and end at the
public digest the step announces (else it asks for a resync), so a watcher's
board is the board the seats verify.

It never holds a sealed value: its state is ``view(None)`` at every ply, and it
has no seat, no share and no dealer secret. It cannot move (:meth:`submit` says
so); it leaves with :meth:`close`. If the connection breaks it reconnects to the
same host (which must prove the same key) for a few seconds; a failover to a new
host is the seats' business, so a watcher of a table whose host is gone stops
and says so.
"""

from __future__ import annotations

import asyncio
import enum
import logging
import time
from typing import Any

import msgspec

from coldwater.core.errors import IllegalAction, NotationError
from coldwater.core.notation import Action
from coldwater.core.state import Game, State

from .. import fairplay as fp
from .. import messages as m
from ..identity import Identity
from ..link import TCP, Link, Network
from ..transport import HostCheck, Refusal
from .events import (
    ChatReceived,
    Emitter,
    Event,
    Finished,
    GameStarted,
    HostLeft,
    LobbyChanged,
    PresenceChanged,
    Problem,
    RematchOffered,
    Result,
    StepApplied,
)
from .host.host import JOIN_TIMEOUT, fp_pass_key
from .hostlink import HostLink, heartbeat
from .joining import SyncRefused, connect_to_table, read_sync, rematch_refusal
from .persist import public_step, unpack_view
from .turnclock import TurnClock

log = logging.getLogger("coldwater.net")

HOST_SILENCE = 8.0
"""A host not heard from for this long is treated as gone (it pings when quiet)."""
WATCHER = -1
"""A watcher's seat: none."""


class NotAdmitted(Refusal):
    """The table refused to let us watch (it admits no watchers, it is full of them, ...)."""


class WatchPhase(enum.Enum):
    LOBBY = "lobby"
    WATCHING = "watching"
    RESYNCING = "resyncing"
    """A step did not follow; steps are ignored until the host's Sync arrives."""
    OVER = "over"


class TableWatcher(Emitter[Event]):
    """Watches one table. ``await join(host, port)``, then ``await run()`` until the game ends."""

    seat = WATCHER
    """No seat (the lobby and table screens ask)."""

    def __init__(
        self,
        game: Game[Any, Any],
        identity: Identity,
        *,
        name: str = "watcher",
        passphrase: str | None = None,
        reconnect_for: float = 10.0,
        network: Network = TCP,
    ) -> None:
        super().__init__()
        self.game = game
        self.identity = identity
        self.network = network
        """Where the links to the table come from (link.py)."""
        self.name = name
        self.passphrase = passphrase
        self.pass_key = fp_pass_key(passphrase)
        self.reconnect_for = reconnect_for
        self.phase = WatchPhase.LOBBY
        self.conn: Link | None = None
        self.info: m.TableInfo | None = None
        self.seats: list[m.SeatInfo] = []
        self.watchers: list[m.WatcherInfo] = []
        self.host_seat = 0
        self.started = False
        self.state: State[Any, Any] | None = None
        """The public view of the game (``view(None)``): all a watcher ever holds."""
        self.clock = TurnClock(0, 0, 1)
        """The seat to move's time as this watcher measures it, from the positions it sees (turnclock.py):
        the countdown a watcher's title shows, like every seat's."""
        self.steps: list[m.Step] = []
        """Every step, in public form, as the log shows them."""
        self.result: Result | None = None
        self.problems: list[str] = []
        self.host_addr = ""
        self.host_port = 0
        self.host_fingerprint = ""
        """The key the host proved in the handshake."""
        self.check_host: HostCheck | None = None
        self.resyncs = 0
        self.received: list[m.Message] = []
        """Every message the host sent us, in order, when ``keep_received`` (tests check each for secrets)."""
        self.keep_received = False
        self._over: m.Over | None = None
        self._left = False
        self.linger = False
        """Stay connected after the end (the app) to hear of a rematch, until close() or the host goes."""
        self._after: asyncio.Task[None] | None = None
        self.rematch_port = 0
        """Where the host opened the same table again after the end (0: it has not)."""
        self.host_left = False
        """The host closed our lingering connection after the end (kept for a screen mounted after HostLeft)."""

    # ---- public API ------------------------------------------------------------
    def submit(self, action: Action) -> None:
        """Watchers cannot move; the table screen gets this sentence if it ever asks."""
        raise IllegalAction("you are watching this table: watchers cannot move")

    @property
    def awaiting_person(self) -> bool:
        return False

    async def join(self, host: str, port: int, *, table: str = "") -> None:
        """Connect and ask to watch (Refusal says why not: no watchers here, too many, a passphrase...)."""
        conn, _ = await connect_to_table(
            self.network,
            host,
            port,
            self.identity,
            self.game,
            passphrase=self.passphrase,
            check_host=self.check_host,
            table=table,
        )
        self.host_addr, self.host_port = host, port
        self.host_fingerprint = conn.fingerprint
        await self._hello(conn)

    async def run(self) -> Result:
        """Watch until the game ends (reconnecting to the same host if the link breaks)."""
        try:
            while self.result is None:
                assert self.conn is not None
                await self._serve(self.conn)
                if self.result is not None:
                    break
                if self._left:
                    self._stop("stopped watching", ok=True)
                    break
                await self._reconnect()
            res = self.result
            assert res is not None
            self.emit(Finished(res))
            return res
        finally:
            if self._after is None:  # (lingering after the end: close() ends that)
                await self.close()

    async def close(self) -> None:
        """Leave the table (any time: nobody waits for a watcher)."""
        self._left = True
        if self._after is not None:
            self._after.cancel()
        if self.conn is not None:
            await self.conn.close()

    # ---- connection -------------------------------------------------------------
    async def _hello(self, conn: Link) -> None:
        conn.send_nowait(m.Watch(name=self.name, resume_ply=len(self.steps) if self.state is not None else -1))
        try:
            msg = await asyncio.wait_for(conn.recv(), JOIN_TIMEOUT)
        except TimeoutError:
            msg = None
        if isinstance(msg, m.Refuse):
            await conn.close()
            raise NotAdmitted(f"the table refused: {msg.reason}")
        if not isinstance(msg, m.Watching):
            await conn.close()
            raise Refusal("the table did not let us watch (an older version without watchers?)")
        if msg.table.game != self.game.name or msg.table.content != self.game.content_hash:
            await conn.close()
            raise Refusal(f"the table plays {msg.table.game} with content {msg.table.content[:12]}")
        self.info, self.started, self.conn = msg.table, msg.started, conn
        if self.clock.turn != msg.table.turn or len(self.clock.banks) != msg.table.players:
            self.clock = TurnClock(msg.table.turn, msg.table.bank, msg.table.players, msg.table.game_time)
        if self.phase is WatchPhase.RESYNCING:
            self.phase = WatchPhase.WATCHING  # a new connection brings a Sync anyway

    async def _reconnect(self) -> None:
        self.conn = None
        link = HostLink(self.network, self.game, self.identity, self.passphrase)
        last = await link.reach_again(
            self.host_addr,
            self.host_port,
            self.host_fingerprint,
            self._hello,
            within=self.reconnect_for,
            fatal=(NotAdmitted,),
        )
        if last is not None:
            raise Refusal(f"the table went away ({last}); stopped watching")

    async def _serve(self, conn: Link) -> None:
        def gone(quiet: float) -> None:
            self._problem(f"the host has been silent for {quiet:.0f} s")

        beat = asyncio.ensure_future(heartbeat(conn, HOST_SILENCE, gone))
        try:
            while self.result is None:
                msg = await conn.recv()
                if msg is None:
                    return
                self._take(conn, msg)
        finally:
            beat.cancel()
            if self.result is not None:
                if self.linger and not self._left and not conn.closed and self._after is None:
                    self._after = asyncio.ensure_future(self._after_end(conn))
                else:
                    await conn.close()

    async def _after_end(self, conn: Link) -> None:
        """Keep the connection after the end (`linger`): answer pings and hear of a rematch, until a side leaves."""
        while True:
            msg = await conn.recv()
            if msg is None:
                self.host_left = True
                self.emit(HostLeft())  # our own close() cancels this task first: this is the host's
                return
            self._take(conn, msg)

    def _take(self, conn: Link, msg: m.Message) -> None:
        """One message from the host, during the game or after the end: what breaks our handling is refused."""
        if self.keep_received:
            self.received.append(msg)
        try:
            self._handle(conn, msg)
        except Exception as e:  # a hostile or buggy host must not crash a watcher
            log.exception("handling %s", type(msg).__name__)
            self._problem(f"refused {type(msg).__name__} from the table: {e}")

    def _problem(self, text: str) -> None:
        self.problems.append(text)
        log.warning("%s", text)
        self.emit(Problem(text))

    def _handle(self, conn: Link, msg: m.Message) -> None:
        if isinstance(msg, m.Lobby):
            self.seats, self.host_seat, self.watchers = list(msg.seats), msg.host_seat, list(msg.watchers)
            self.started = self.started or msg.started
            self.emit(LobbyChanged(self.seats, msg.started, self.watchers))
        elif isinstance(msg, m.Sync):
            self._on_sync(msg)
        elif isinstance(msg, m.Step):
            self._on_step(conn, msg)
        elif isinstance(msg, m.Over):
            self._on_over(msg)
        elif isinstance(msg, m.Presence):
            for i, s in enumerate(self.seats):
                if s.seat == msg.seat:
                    self.seats[i] = msgspec.structs.replace(s, away=msg.away)
            self.emit(PresenceChanged(msg.seat, msg.away))
        elif isinstance(msg, m.Chat):
            name = next((s.name for s in self.seats if s.seat == msg.seat), f"Seat {msg.seat + 1}")
            self.emit(ChatReceived(msg.seat, name, msg.text[:500]))
        elif isinstance(msg, m.Notice):
            self._problem(f"table says: {msg.text}")
        elif isinstance(msg, m.Refuse):
            self._problem(f"the table sent us away: {msg.reason}")
            self._stop(f"sent away: {msg.reason}")
        elif isinstance(msg, m.Ping):
            conn.send_nowait(m.Pong(t=msg.t))
        elif isinstance(msg, m.Pong):
            pass
        elif isinstance(msg, m.Rematch):
            self._on_rematch(msg)
        else:
            self._problem(f"refused {type(msg).__name__} from the table: not for a watcher")

    def _on_rematch(self, msg: m.Rematch) -> None:
        why = rematch_refusal(self.result is not None, self.rematch_port, msg.port)
        if why is not None:
            self._problem(why)
        else:
            self.rematch_port = msg.port
            self.emit(RematchOffered(msg.port))

    def _on_sync(self, msg: m.Sync) -> None:
        try:
            view, start = read_sync(self.game, msg, len(self.steps))
        except SyncRefused as e:
            self._problem(str(e))
            return
        if view.view(None).digest() != view.digest():
            self._problem("refused a resync that is not the public view")
            return
        first = self.state is None
        old = len(self.steps)
        self.steps = self.steps[:start] + [public_step(s) for s in msg.steps]
        self.state = view
        self.clock.at(view.ply, view.current, time.monotonic())
        self.phase = WatchPhase.WATCHING if self.phase is not WatchPhase.OVER else self.phase
        if first:
            self.started = True
            self.emit(GameStarted(WATCHER))
        else:
            self.resyncs += 1
        for s in self.steps[old:]:
            self.emit(StepApplied(s.ply, s.seat, s.action))
        if self._over is not None:
            self._on_over(self._over)

    def _on_step(self, conn: Link, step: m.Step) -> None:
        st = self.state
        if st is None:
            self._problem("refused a step before the game started")
            return
        if step.ply <= st.ply or self.phase is WatchPhase.RESYNCING:
            return
        if step.reveal is not None:
            # A host that sends a watcher a seat's secret broke the protocol: refuse to keep it.
            self._problem(f"ply {step.ply}: the table sent us a sealed value; refused it")
            self._ask_resync(conn, st)
            return
        try:
            if step.ply != st.ply + 1:
                raise IllegalAction(f"missed steps before ply {step.ply}")
            if step.view is not None:
                nxt = unpack_view(self.game, step.view, step.ply)
                if nxt.view(None).digest() != nxt.digest():
                    raise IllegalAction("the view sent is not the public view")
            elif step.action is not None:
                nxt = st.clone()
                nxt.apply(self.game.parse_action(step.action))
            else:
                raise IllegalAction("a sealed step without the public view")
        except (IllegalAction, NotationError, msgspec.DecodeError, msgspec.ValidationError) as e:
            self._problem(f"ply {step.ply}: {e}; asking for a resync")
            self._ask_resync(conn, st)
            return
        if fp.public_digest(nxt) != step.digest:
            self._problem(f"ply {step.ply}: the public digest differs from the table's; asking for a resync")
            self._ask_resync(conn, st)
            return
        self.state = nxt
        self.clock.at(nxt.ply, nxt.current, time.monotonic())
        self.steps.append(public_step(step))
        self.emit(StepApplied(step.ply, step.seat, step.action))

    def _ask_resync(self, conn: Link, st: State[Any, Any]) -> None:
        self.phase = WatchPhase.RESYNCING
        conn.send_nowait(m.Mismatch(ply=st.ply, digest=fp.public_digest(st)))

    def _on_over(self, msg: m.Over) -> None:
        st = self.state
        if st is None or self.phase is WatchPhase.RESYNCING or not st.is_over:
            self._over = msg  # our view is behind: conclude once it has caught up
            return
        self._over = None
        problems = list(self.problems)
        digest = fp.public_digest(st)
        if digest != msg.digest:
            problems.append("the table's final public digest differs from what we watched")
        scores, outcome = msg.scores, msg.outcome
        try:
            sc = st.scores()
            mine = dict(zip(sc.labels, sc.totals))
        except Exception:  # a public view may not score every category; the table's word is all we have
            mine = scores
        if mine != scores:
            problems.append(f"the table's scores {scores} differ from the public view's {mine}")
        self._stop(outcome, scores=scores, ok=digest == msg.digest)
        if self.result is not None:
            self.result = msgspec.structs.replace(self.result, problems=problems)

    def _stop(self, outcome: str, *, scores: dict[str, int] | None = None, ok: bool = False) -> None:
        self.phase = WatchPhase.OVER
        st = self.state
        self.result = Result(
            game=self.game.name,
            table=self.info.name if self.info is not None else "",
            seat=WATCHER,
            scores=scores or {},
            digest=fp.public_digest(st).hex() if st is not None else "",
            plies=st.ply if st is not None else 0,
            outcome=outcome,
            audit_ok=ok,
            problems=list(self.problems),
        )
