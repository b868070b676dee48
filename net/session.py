"""LAN table sessions: the host that seats peers and orders actions, and the peers.

The host runs the game on a :class:`~coldwater.net.table.Table` whose remote
seats wait for the peers' moves and whose chance source is the fair-play
dealer. Every applied action goes out as a :class:`~messages.Step` in ply
order; each peer applies it to its own view, checks legality and the public
digest, and asks for a resync when anything differs. The full protocol,
fault handling and what a cheating host can and cannot do are in docs/lan.md.

Both sides publish :data:`Event` values to listeners (the TUI's lobby and table
screens, the headless CLI); nothing here prints.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import msgspec

from coldwater.core import record
from coldwater.core.errors import IllegalAction, NotationError
from coldwater.core.rng import Rng
from coldwater.core.state import CHANCE, State

from . import fairplay as fp
from . import messages as m
from .files import write_atomic
from .identity import Identity
from .table import Applied, SaveFile, Seat, SeatKind, Table
from .transport import Connection, Refusal, accept, connect

log = logging.getLogger("coldwater.net")

JOIN_TIMEOUT = 10.0
ROUND_TIMEOUT = 30.0
END_GRACE = 60.0
"""Seconds a finished table stays up (and advertised) for seats that were away at the end."""


# ---- events for the UI ------------------------------------------------------
class LobbyChanged(msgspec.Struct, frozen=True):
    seats: list[m.SeatInfo]
    started: bool


class ChatReceived(msgspec.Struct, frozen=True):
    seat: int
    name: str
    text: str


class PresenceChanged(msgspec.Struct, frozen=True):
    seat: int
    away: bool


class GameStarted(msgspec.Struct, frozen=True):
    seat: int
    """This process's seat."""


class StepApplied(msgspec.Struct, frozen=True):
    ply: int
    seat: int
    action: str | None
    """None for a sealed chance outcome that is not ours."""


class Problem(msgspec.Struct, frozen=True):
    """Something refused, a desync repaired, a fair-play failure; for the log pane."""

    text: str


class HostChanged(msgspec.Struct, frozen=True):
    seat: int
    addr: str
    port: int


class Finished(msgspec.Struct, frozen=True):
    result: Result


class Result(msgspec.Struct, frozen=True):
    game: str
    table: str
    seat: int
    scores: dict[str, int]
    digest: str
    """Digest of the final full position (every sealed value revealed); all peers agree."""
    plies: int
    outcome: str
    audit_ok: bool
    problems: list[str] = []


Event = LobbyChanged | ChatReceived | PresenceChanged | GameStarted | StepApplied | Problem | HostChanged | Finished
Listener = Callable[[Event], None]
Chooser = Callable[[State[Any, Any], int], Awaitable[Any]]
"""Plays a seat: given that seat's view and the seat, returns the chosen action."""


def bot_chooser(game: Any, bot: str | None = None, *, think: float = 0.0) -> Chooser:
    """A Chooser that lets the game's bot play, thinking in a worker thread (at least `think` seconds)."""
    b = game.bot(bot or game.bots[0])

    async def choose(view: State[Any, Any], seat: int) -> Any:
        rng = Rng(os.urandom(16))
        if think > 0:
            await asyncio.sleep(think)
        return await asyncio.to_thread(b.choose, view, rng)

    return choose


class _Emitter:
    def __init__(self) -> None:
        self._listeners: list[Listener] = []

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    def emit(self, event: Event) -> None:
        for listener in list(self._listeners):
            try:
                listener(event)
            except Exception:  # a broken listener must not stop the table
                log.exception("listener failed on %r", event)


def _public(step: m.Step) -> m.Step:
    """The part of a step every peer may see (what is saved and used for failover)."""
    return m.Step(ply=step.ply, seat=step.seat, digest=step.digest, action=step.action, commit=step.commit)


def _scores(state: State[Any, Any]) -> tuple[dict[str, int], str]:
    sc = state.scores()
    return dict(zip(sc.labels, sc.totals)), sc.outcome


def _decode_view(game: Any, data: bytes, ply: int) -> State[Any, Any]:
    view: State[Any, Any] = game.state_type(msgspec.msgpack.decode(data, type=game.state_type.DATA), seed=None, ply=ply)
    return view


# =============================================================================
#   saving off the event loop
# =============================================================================
class _Saver:
    """Writes one file off the event loop: coalesced, in order, atomically (not fsynced).

    A rename costs milliseconds on some filesystems and an fsync ~8 ms; either on
    the path of every move would dominate the round trip. The snapshot is taken
    on the loop, so what is written is always a consistent state. A killed
    process loses nothing the kernel already has; against power loss every peer
    holds the public record and an escrow share (docs/lan.md).
    """

    def __init__(self) -> None:
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="coldwater-save")
        self._pending: tuple[Path, Callable[[], bytes]] | None = None
        self._scheduled = False

    def save(self, path: Path, make: Callable[[], bytes]) -> None:
        self._pending = (path, make)
        if self._scheduled:
            return
        self._scheduled = True
        try:
            asyncio.get_running_loop().call_soon(self.flush)
        except RuntimeError:  # no loop (tools, tests): write now
            self.flush()

    def flush(self) -> None:
        self._scheduled = False
        if self._pending is None:
            return
        path, make = self._pending
        self._pending = None
        self._pool.submit(write_atomic, path, make(), durable=False)

    def close(self, *, delete: Path | None = None) -> None:
        """Write what is pending (then delete `delete`), and wait for the writes."""
        self.flush()
        if delete is not None:
            self._pool.submit(delete.unlink, missing_ok=True)
        self._pool.shutdown(wait=True)


# =============================================================================
#   host
# =============================================================================
class _LanTable(Table):
    """A Table whose autosave runs off the event loop (see :class:`_Saver`)."""

    saver: _Saver | None = None

    def save(self) -> None:
        if self.save_path is None:
            return
        if self.saver is None:
            self.saver = _Saver()
        path = Path(self.save_path)
        self.saver.save(path, lambda: msgspec.json.encode(
            SaveFile(seats=self.seats, record=self.record, created=self.created, updated=time.time())))


class _Remote:
    """A remote seat at the host: who sits there and how to reach them."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.key: bytes = b""
        self.name = ""
        self.conn: Connection | None = None
        self.ready = False
        self.addr = ""
        self.port = 0
        self.share = b""
        self.by_bot = False
        self.told_end = False
        """The game's End went out on this seat's connection."""

    @property
    def present(self) -> bool:
        return self.conn is not None and not self.conn.closed


class TableHost(_Emitter):
    """Hosts one table: lobby, fair play, the game, and the end-of-game audit.

    `seats` lists every seat's kind: ``"host"`` (this process's own seat,
    played by `chooser` or, with None, by a person through :meth:`submit`),
    ``"bot"`` (played here), ``"open"`` (a remote peer) or ``"reserved:<fingerprint>"``
    (a remote seat only the peer with that identity fingerprint may take).
    """

    def __init__(self, game: Any, identity: Identity, *, name: str, seats: list[str], options: Any = None,
                 passphrase: str | None = None, chooser: Chooser | None = None, host_name: str = "host",
                 bind: str = "0.0.0.0", port: int = 0, save_dir: Path | None = None, auto_start: bool = True,
                 listener_ready: Callable[[TableHost], Awaitable[None] | None] | None = None) -> None:
        super().__init__()
        if len(seats) < game.min_players or len(seats) > game.max_players:
            raise ValueError(f"{game.title} is for {game.min_players} to {game.max_players} players, not {len(seats)}")
        if seats.count("host") > 1 or any(k not in ("host", "bot", "open") and not k.startswith("reserved:")
                                          for k in seats):
            raise ValueError("seats are 'host' (at most one), 'bot', 'open' or 'reserved:<fingerprint>'")
        self.reserved: dict[int, str] = {i: k.split(":", 1)[1].strip().lower() for i, k in enumerate(seats)
                                         if k.startswith("reserved:")}
        seats = ["open" if k.startswith("reserved:") else k for k in seats]
        self.game = game
        self.identity = identity
        self.name = name
        self.kinds = list(seats)
        self.options = msgspec.to_builtins(game.make_options(options))
        self.info = m.TableInfo(game=game.name, name=name, players=len(seats), content=game.content_hash,
                                options=self.options)
        self.host_seat = seats.index("host") if "host" in seats else -1
        self.host_name = host_name
        self.chooser = chooser
        self.bind = bind
        self.port = port
        self.auto_start = auto_start
        self.save_dir = save_dir
        self._pass_key = fp_pass_key(passphrase)
        self.remotes: dict[int, _Remote] = {i: _Remote(i) for i, k in enumerate(seats) if k == "open"}
        self.extra_bots: set[int] = set()
        """Seats that were remote (or the old host's) and are now played by a bot here."""
        self.server: asyncio.AbstractServer | None = None
        self.advertiser: Any = None
        """A discovery.Advertiser to withdraw when the table closes (set by lan.open_table)."""
        self.external_listener = False
        self._closing = False
        self.started = False
        self.table: Table | None = None
        self.dealer: fp.CommittedDealer = fp.CommittedDealer()
        self.joint = b""
        self.steps: list[m.Step] = []
        self._draw: fp.Draw | None = None
        self._commits: dict[int, bytes] = {}
        self._reveals: dict[int, bytes] = {}
        self._views: dict[int, State[Any, Any]] = {}
        """Each remote seat's view as that peer holds it (to know when a step must carry the view)."""
        self._act_waiters: dict[int, asyncio.Future[Any]] = {}
        self._early: dict[int, tuple[int, Any]] = {}
        self._changed = asyncio.Event()
        self._person_moved = asyncio.Event()
        self._round: fp.CommitReveal | None = None
        self._round_done = asyncio.Event()
        self._tasks: set[asyncio.Task[Any]] = set()
        self._seats_listener: list[Callable[[int], None]] = []
        self._listener_ready = listener_ready
        self.result: Result | None = None
        self._start_requested = asyncio.Event()
        self.traffic: list[Connection] = []
        """Every seated connection ever accepted (bytes on the wire, for benchmarks)."""
        self.cheaters: list[str] = []
        """Peers named for breaking the fair-play protocol."""
        self.round_timeout = ROUND_TIMEOUT
        self.end_grace = END_GRACE
        self._end: m.End | None = None
        self.refusals: list[str] = []
        """Every refused message and connection, with the reason (tests, the log pane)."""
        self._failover: _FailoverState | None = None

    # ---- public API ------------------------------------------------------------
    @property
    def open_seats(self) -> int:
        return sum(1 for r in self.remotes.values() if not r.key)

    def on_seats_changed(self, fn: Callable[[int], None]) -> None:
        """`fn(open_seats)` whenever the count changes (zeroconf TXT updates)."""
        self._seats_listener.append(fn)

    def lobby(self) -> list[m.SeatInfo]:
        out: list[m.SeatInfo] = []
        for i, kind in enumerate(self.kinds):
            if i in self.remotes:
                r = self.remotes[i]
                if not r.key:
                    out.append(m.SeatInfo(seat=i, kind="open", reserved=self.reserved.get(i, "")))
                else:
                    out.append(m.SeatInfo(seat=i, kind="remote", name=r.name, fingerprint=_fp(r.key), key=r.key,
                                          ready=r.ready,
                                          away=not r.present and not r.by_bot, addr=r.addr, port=r.port))
            elif kind == "host":
                out.append(m.SeatInfo(seat=i, kind="host", name=self.host_name, fingerprint=self.identity.fingerprint,
                                      ready=True))
            else:
                out.append(m.SeatInfo(seat=i, kind="bot", name=f"{self.game.bots[0]} bot", ready=True))
        return out

    async def listen(self) -> int:
        """Start accepting peers; returns the port."""
        self.server = await asyncio.start_server(self._on_connect, self.bind, self.port)
        self.port = self.server.sockets[0].getsockname()[1]
        return self.port

    def start_game(self) -> None:
        """The host person presses Start (headless tables start by themselves)."""
        self._start_requested.set()
        self._changed.set()

    def send_chat(self, text: str) -> None:
        self._broadcast(m.Chat(text=text[:500], seat=self.host_seat))
        self.emit(ChatReceived(self.host_seat, self.host_name, text[:500]))

    def submit(self, action: Any) -> None:
        """A move by the person at this host's own seat (IllegalAction if not allowed)."""
        if self.table is None:
            raise IllegalAction("the game has not started")
        self.table.submit(action)
        self._person_moved.set()

    async def run(self) -> Result:
        """Lobby → fair play → game → audit; returns the result. Listens first if needed."""
        if self.server is None and not self.external_listener:
            await self.listen()
        if self._listener_ready is not None:
            r = self._listener_ready(self)
            if r is not None:
                await r
        try:
            if self._failover is None:
                await self._lobby_and_round()
            else:
                await self._resume_after_failover()
            await self._play()
            return await self._finish()
        finally:
            await self.close()

    async def close(self) -> None:
        # Closing connections one by one must not tell the others that those peers are
        # away: they would then choose different new hosts.
        self._closing = True
        if self.advertiser is not None:
            adv, self.advertiser = self.advertiser, None
            try:
                await adv.close()
            except Exception:  # withdrawing is best effort; the record expires anyway
                log.exception("withdrawing the table advertisement")
        if self.server is not None:
            self.server.close()
            self.server = None
        if isinstance(self.table, _LanTable) and self.table.saver is not None:
            await asyncio.to_thread(self.table.saver.close)
        for r in self.remotes.values():
            if r.conn is not None:
                await r.conn.close()
        for t in list(self._tasks):
            t.cancel()

    # ---- lobby ------------------------------------------------------------------
    def _spawn(self, coro: Awaitable[Any]) -> None:
        t = asyncio.ensure_future(coro)
        self._tasks.add(t)
        t.add_done_callback(self._tasks.discard)

    def _broadcast(self, msg: Any, *, exclude: int | None = None) -> None:
        for r in self.remotes.values():
            if r.present and r.seat != exclude:
                assert r.conn is not None
                r.conn.send_nowait(msg)

    def _lobby_changed(self) -> None:
        seats = self.lobby()
        self._broadcast(m.Lobby(seats=seats, started=self.started, host_seat=self.host_seat))
        self.emit(LobbyChanged(seats, self.started))
        for fn in self._seats_listener:
            fn(self.open_seats)
        self._changed.set()

    def _refuse(self, conn: Connection | None, what: str, reason: str) -> None:
        who = conn.label if conn else "?"
        text = f"refused {what} from {who}: {reason}"
        self.refusals.append(text)
        log.warning("%s", text)
        self.emit(Problem(text))
        if conn is not None:
            conn.send_nowait(m.Notice(text=f"refused {what}: {reason}"))

    async def _on_connect(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        conn = await accept(reader, writer, self.identity, self.game.name, self.game.content_hash,
                            pass_key=self._pass_key, table=self.name, refused=self.refusals)
        if conn is None:
            return
        try:
            first = await asyncio.wait_for(conn.recv(), JOIN_TIMEOUT)
        except asyncio.TimeoutError:
            first = None
        if not isinstance(first, m.Join):
            if first is not None:
                self._refuse(conn, type(first).__name__, "the first message must be a join")
                await conn.drain()
            await conn.close()
            return
        seat = self._seat_for(conn, first)
        if seat is None:
            await conn.drain()
            await conn.close()
            return
        r = self.remotes[seat]
        self.traffic.append(conn)
        if r.conn is not None and not r.conn.closed:
            await r.conn.close()  # a reconnect replaces a half-dead old connection
        r.conn, r.key, r.name = conn, conn.peer_key, first.name[:40] or f"Seat {seat + 1}"
        r.addr, r.port = conn.peer_addr, first.port
        if first.share:
            r.share = first.share
        conn.send_nowait(m.Welcome(seat=seat, table=self.info))
        if self.started:
            r.ready = True
            if self._failover is not None and not self._failover.done:
                self._failover.offer(seat, first)
            else:
                self._sync(r, max(first.resume_ply, 0), fair=True)
            if self._end is not None:
                # The game ended while this seat was away: it gets the end now and audits it itself.
                conn.send_nowait(self._end)
                r.told_end = True
            self._broadcast(m.Presence(seat=seat, away=False))
            self.emit(PresenceChanged(seat, False))
        self._lobby_changed()
        await self._serve(r, conn)

    def _seat_for(self, conn: Connection, join: m.Join) -> int | None:
        for r in self.remotes.values():
            if r.key == conn.peer_key:
                if r.by_bot:
                    self._refuse(conn, "join", "your seat is now played by a bot")
                    conn.send_nowait(m.Refuse(reason="your seat is now played by a bot"))
                    return None
                return r.seat
        if self.started:
            conn.send_nowait(m.Refuse(reason="the game has started and every seat is taken"))
            self._refuse(conn, "join", "the game has started")
            return None
        mine = conn.fingerprint.lower()
        free = [r.seat for r in self.remotes.values() if not r.key]
        for seat in free:  # a seat reserved for this peer first
            if self.reserved.get(seat) == mine:
                return seat
        for seat in free:
            if seat not in self.reserved:
                return seat
        conn.send_nowait(m.Refuse(reason="the table is full"))
        self._refuse(conn, "join", "the table is full")
        return None

    async def _serve(self, r: _Remote, conn: Connection) -> None:
        while True:
            msg = await conn.recv()
            if msg is None:
                break
            try:
                self._handle(r, conn, msg)
            except Exception as e:  # nothing a peer sends may crash the table
                log.exception("handling %s", type(msg).__name__)
                self._refuse(conn, type(msg).__name__, f"internal error: {e}")
        for kind, reason in conn.refused:
            self.refusals.append(f"{kind}: {reason}")
        if r.conn is conn and not self._closing:
            r.conn = None
            if not self.started:
                # Leaving the lobby frees the seat.
                r.key, r.name, r.ready = b"", "", False
                self._lobby_changed()
            else:
                self._broadcast(m.Presence(seat=r.seat, away=True))
                self.emit(PresenceChanged(r.seat, True))
                self._lobby_changed()

    def _handle(self, r: _Remote, conn: Connection, msg: m.Message) -> None:
        if isinstance(msg, m.Ready):
            if not self.started:
                r.ready = msg.ready
                self._lobby_changed()
        elif isinstance(msg, m.Chat):
            text = msg.text[:500]
            self._broadcast(m.Chat(text=text, seat=r.seat))
            self.emit(ChatReceived(r.seat, r.name, text))
        elif isinstance(msg, m.Commit):
            if self._round is None or r.seat in self._round.commits:
                self._refuse(conn, "commit", "no commitment is due from this seat now")
                return
            try:
                self._round.commit(r.seat, msg.digest)
            except fp.FairPlayError as e:
                self._refuse(conn, "commit", str(e))
            self._changed.set()
        elif isinstance(msg, m.Reveal):
            if self._round is None or not self._round.all_committed or r.seat in self._round.reveals:
                self._refuse(conn, "reveal", "no reveal is due from this seat now")
                return
            try:
                self._round.reveal(r.seat, msg.value)
            except fp.FairPlayError as e:
                # Named to everyone, and sent away: this peer changed its contribution after
                # seeing others'. The round starts again when the seat is filled.
                text = f"{r.name} (seat {r.seat + 1}, {_fp(r.key)}) cheated: {e}"
                self._refuse(conn, "reveal", str(e))
                self._broadcast(m.Notice(text=text))
                self.emit(Problem(text))
                self.cheaters.append(text)
                conn.send_nowait(m.Refuse(reason="your seed reveal does not match your commitment"))
                self._spawn(conn.close())
            self._changed.set()
        elif isinstance(msg, m.Act):
            self._on_act(r, conn, msg)
        elif isinstance(msg, m.Mismatch):
            self.emit(Problem(f"seat {r.seat + 1} reports a digest mismatch at ply {msg.ply}; resyncing it"))
            self._sync(r, 0)
        elif isinstance(msg, m.Ping):
            conn.send_nowait(m.Pong(t=msg.t))
        elif isinstance(msg, m.Pong | m.Notice):
            pass
        else:
            self._refuse(conn, type(msg).__name__, "peers may not send this message")

    def _on_act(self, r: _Remote, conn: Connection, msg: m.Act) -> None:
        t = self.table
        if t is None:
            self._refuse(conn, "act", "the game has not started")
            return
        if t.state.current != r.seat:
            self._refuse(conn, "act", f"out of turn: it is not seat {r.seat + 1}'s turn")
            return
        if msg.ply != t.state.ply:
            self._refuse(conn, "act", f"stale move for ply {msg.ply}; the table is at ply {t.state.ply}")
            return
        try:
            action = self.game.parse_action(msg.action)
        except NotationError as e:
            self._refuse(conn, "act", f"not a move: {e}")
            return
        if not t.state.is_legal(action):
            self._refuse(conn, "act", f"illegal: {t.state.why_illegal(action)}")
            return
        fut = self._act_waiters.get(r.seat)
        if fut is None or fut.done():
            # A valid move for this very position that arrived before the table asked
            # for it (just after a resync or a failover): keep it for when it does.
            self._early[r.seat] = (t.state.ply, action)
            return
        fut.set_result(action)

    def _sync(self, r: _Remote, from_ply: int, *, fair: bool = False) -> None:
        """Send a peer its view now and every public step since `from_ply` (resume, repair)."""
        if self.table is None or r.conn is None:
            return
        from_ply = min(max(from_ply, 0), len(self.steps))
        st = self.table.state
        self._views[r.seat] = st.view(r.seat)
        fs = (m.FairState(commits=self._commits, reveals=self._reveals, dealer=self.dealer.commitment, share=r.share)
              if fair and self._reveals else None)
        r.conn.send_nowait(m.Sync(ply=st.ply, view=st.view(r.seat).encode(), steps=self.steps[from_ply:], fair=fs))

    async def _wait(self, cond: Callable[[], bool], timeout: float | None = None) -> bool:
        async def loop() -> None:
            while not cond():
                self._changed.clear()
                await self._changed.wait()

        try:
            await asyncio.wait_for(loop(), timeout)
        except asyncio.TimeoutError:
            return False
        return True

    def _filled(self) -> bool:
        return all(r.key and r.present and r.ready for r in self.remotes.values())

    async def _lobby_and_round(self) -> None:
        for _ in range(100):  # a round that fails (someone left) goes back to the lobby
            await self._wait(lambda: self._filled() and (self.auto_start or self._start_requested.is_set()))
            if await self._commit_reveal():
                return
            self.emit(Problem("the fair-play round failed; waiting for every seat again"))
        raise RuntimeError("the fair-play round failed 100 times")

    async def _commit_reveal(self) -> bool:
        seats = sorted(self.remotes) + [self.host_seat if self.host_seat >= 0 else -1]
        rnd = fp.CommitReveal(seats)
        mine = fp.new_contribution()
        own = seats[-1]
        rnd.commit(own, fp.seed_commitment(own, mine))
        self._round = rnd
        self._broadcast(m.CommitRequest())
        ok = await self._wait(lambda: rnd.all_committed or not self._filled(), self.round_timeout)
        if not ok or not rnd.all_committed:
            self._round = None
            return False
        # Every commitment (and the dealer's) is published before anyone reveals.
        self._broadcast(m.Commits(commits=dict(rnd.commits), dealer=self.dealer.commitment))
        rnd.reveal(own, mine)
        ok = await self._wait(lambda: rnd.done or not self._filled(), self.round_timeout)
        self._round = None
        if not ok or not rnd.done:
            return False
        self.joint = rnd.seed()
        self.dealer.start(self.joint)
        self.started = True
        shares = self.dealer.shares(len(self.remotes))
        seats_info = self.lobby()
        for r, share in zip(sorted(self.remotes.values(), key=lambda x: x.seat), shares):
            r.share = share
            if r.conn is not None:
                r.conn.send_nowait(m.Begin(reveals=dict(rnd.reveals), seats=seats_info, share=share))
        self._commits = dict(rnd.commits)
        self._reveals = dict(rnd.reveals)
        state = self.game.new(self.info.players, seed=fp.game_seed(self.joint), options=self.options)
        rec = record.start(self.game, state, self.options, meta={"table": self.name})
        self._make_table(state, rec)
        self._lobby_changed()
        return True

    # ---- the game -----------------------------------------------------------------
    def _seat_objects(self) -> list[Seat]:
        bot = self.game.bots[0]
        out: list[Seat] = []
        for i, kind in enumerate(self.kinds):
            if i in self.extra_bots:
                out.append(Seat(SeatKind.BOT, f"Seat {i + 1} (bot)", bot=bot))
            elif kind == "host":
                out.append(Seat(SeatKind.REMOTE if self.chooser is not None else SeatKind.PERSON, self.host_name))
            elif kind == "bot":
                out.append(Seat(SeatKind.BOT, f"{bot} bot", bot=bot))
            else:
                out.append(Seat(SeatKind.REMOTE, self.remotes[i].name or f"Seat {i + 1}"))
        return out

    def _make_table(self, state: State[Any, Any], rec: record.GameRecord) -> None:
        save = None
        if self.save_dir is not None:
            save = self.save_dir / f"lan-host-{_safe(self.name)}.json"
        self.table = _LanTable(self.game, state, self._seat_objects(), rec, save_path=save, chance=self._chance,
                           remote=self._remote)
        self._views = {seat: state.view(seat) for seat in self.remotes}
        self.table.subscribe(self._on_applied)
        self.emit(GameStarted(self.host_seat))

    async def _chance(self, state: State[Any, Any]) -> Any:
        self._draw = self.dealer.draw(state)
        return self._draw.action

    async def _remote(self, seat: int, view: State[Any, Any]) -> Any:
        if seat == self.host_seat and self.chooser is not None:
            return await self.chooser(view, seat)
        early = self._early.pop(seat, None)
        if early is not None and early[0] == view.ply:
            return early[1]
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[Any] = loop.create_future()
        self._act_waiters[seat] = fut
        try:
            return await fut  # the table waits, however long the seat is away
        finally:
            self._act_waiters.pop(seat, None)

    def _on_applied(self, ev: Any) -> None:
        if not isinstance(ev, Applied):
            return
        t = self.table
        assert t is not None
        st = t.state
        digest = st.view(None).digest()
        draw, self._draw = self._draw, None
        sealed = ev.seat == CHANCE and draw is not None and draw.sealed
        if sealed:
            assert draw is not None
            step = m.Step(ply=st.ply, seat=CHANCE, digest=digest, commit=draw.commit)
        else:
            step = m.Step(ply=st.ply, seat=ev.seat, digest=digest, action=ev.action)
        self.steps.append(step)
        for r in self.remotes.values():
            truth = st.view(r.seat)
            before = self._views.get(r.seat)
            self._views[r.seat] = truth
            if not r.present:
                continue  # it gets a Sync when it is back
            assert r.conn is not None
            out = step
            if sealed:
                assert draw is not None
                reveal = (m.SealedReveal(action=str(draw.action), salt=draw.salt or b"")
                          if r.seat in draw.owners else None)
                out = msgspec.structs.replace(step, view=truth.encode(), reveal=reveal)
            elif not self._peer_can_follow(before, ev.action, truth):
                # The step reveals something the peer's view cannot derive (e.g. the end of the
                # game uncovers every secret): send the peer its new view with it.
                out = msgspec.structs.replace(step, view=truth.encode())
            r.conn.send_nowait(out)
        self.emit(StepApplied(st.ply, ev.seat, None if sealed else ev.action))

    def _peer_can_follow(self, before: State[Any, Any] | None, action: str, truth: State[Any, Any]) -> bool:
        """Whether a peer applying `action` to its view reaches exactly its true new view."""
        if before is None or before.ply + 1 != truth.ply:
            return False
        try:
            nxt = before.clone()
            nxt.apply(self.game.parse_action(action))
        except (IllegalAction, NotationError):
            return False
        return nxt.digest() == truth.digest()

    async def _play(self) -> None:
        t = self.table
        assert t is not None
        while not t.state.is_over:
            self._person_moved.clear()
            await t.advance()
            if t.waiting_for_person:
                await self._person_moved.wait()
        for r in self.remotes.values():
            if r.conn is not None:
                await r.conn.drain()

    async def _finish(self) -> Result:
        t = self.table
        assert t is not None
        st = t.state
        scores, outcome = _scores(st)
        end = m.End(dealer_secret=self.dealer.secret(), digest=st.digest(), public_digest=st.view(None).digest(),
                    scores=st.scores().as_dict())
        self._end = end
        self._broadcast(end)
        for r in self.remotes.values():
            r.told_end = r.told_end or r.present
        self.result = Result(game=self.game.name, table=self.name, seat=self.host_seat, scores=scores,
                             digest=st.digest(), plies=st.ply, outcome=outcome, audit_ok=True)
        self.emit(Finished(self.result))
        # Give every present peer a moment to read the end before the sockets close.
        for r in self.remotes.values():
            if r.conn is not None:
                await r.conn.drain()
        # A seat away at the end (a crash, a restart) is still held for its player: the
        # table stays up and advertised a while so they come back to the result, with
        # the dealer's secret to audit it, rather than to "no such table".
        owed = [r for r in self.remotes.values() if r.key and not r.by_bot]
        if not all(r.told_end for r in owed):
            log.info("the game is over; waiting up to %.0f s for away seats to collect the result", self.end_grace)
            await self._wait(lambda: all(r.told_end for r in owed), self.end_grace)
        await self._wait(lambda: all(not r.present for r in self.remotes.values()), 5.0)
        return self.result

    # ---- failover: this peer becomes the host -----------------------------------
    @classmethod
    def take_over(cls, peer: TablePeer) -> TableHost:
        """A host built from a peer's record after the old host went away."""
        assert peer.info is not None and peer.save is not None
        sv = peer.save
        kinds: list[str] = []
        for s in sv.seats:
            if s.seat == peer.seat:
                kinds.append("host")
            elif s.kind == "remote" and s.seat != sv.host_seat:
                kinds.append("open")
            else:
                kinds.append("bot")
        host = cls(peer.game, peer.identity, name=peer.info.name, seats=kinds, options=peer.info.options,
                   chooser=peer.chooser, host_name=peer.name, bind=peer.bind, port=peer.listen_port,
                   save_dir=peer.save_dir)
        host._pass_key = peer.pass_key
        host.joint = sv.joint
        host._commits, host._reveals = dict(sv.commits), dict(sv.reveals)
        host.started = True
        host.host_seat = peer.seat
        for s in sv.seats:
            if s.seat == sv.host_seat or (s.kind == "remote" and s.by_bot):
                host.extra_bots.add(s.seat)
            if s.seat in host.remotes:
                r = host.remotes[s.seat]
                r.name, r.key = s.name, _key_for(sv, s.seat)
        host._failover = _FailoverState(host, sv, peer.share, list(peer.steps))
        return host

    async def _resume_after_failover(self) -> None:
        fo = self._failover
        assert fo is not None
        await self._wait(lambda: fo.ready(), None)
        secret = fp.combine_shares(fo.shares.values())
        if fp.dealer_commitment(secret) != fo.save.dealer_commit:
            raise fp.FairPlayError("the escrow shares do not rebuild the dealer's committed secret", ["dealer"])
        self.dealer = fp.CommittedDealer(secret)
        self.dealer.start(self.joint)
        steps = fo.best_steps()
        state0 = self.game.new(self.info.players, seed=fp.game_seed(self.joint), options=self.options)
        rec = record.start(self.game, state0, self.options, meta={"table": self.name})
        state = fp.rebuild(self.game, self.info.players, self.options, self.joint, secret, steps,
                           on_apply=lambda seat, a, s: record.append(rec, seat, a, s))
        self.steps = [_public(s) for s in steps]
        self._make_table(state, rec)
        fo.done = True
        # Fresh escrow shares of the same secret for the peers now at this table, so the
        # game survives this host going away too.
        for r, share in zip(sorted(self.remotes.values(), key=lambda x: x.seat), self.dealer.shares(len(self.remotes))):
            r.share = share
        for r in self.remotes.values():
            if r.present:
                self._sync(r, 0, fair=True)
        self._lobby_changed()


class _FailoverState:
    """What a new host gathers before play resumes: every remote peer's share and steps."""

    def __init__(self, host: TableHost, save: PeerSave, own_share: bytes, own_steps: list[m.Step]) -> None:
        self.host = host
        self.save = save
        self.shares: dict[int, bytes] = {host.host_seat: own_share}
        self.steps: dict[int, list[m.Step]] = {host.host_seat: own_steps}
        self.done = False

    def offer(self, seat: int, join: m.Join) -> None:
        if join.share:
            self.shares[seat] = join.share
        self.steps[seat] = list(join.steps)
        self.host._changed.set()

    def ready(self) -> bool:
        need = {s.seat for s in self.save.seats if s.kind == "remote" and s.seat != self.save.host_seat}
        return need <= set(self.shares)

    def best_steps(self) -> list[m.Step]:
        """The longest record among the peers that agrees with ours (a peer may have seen one step more)."""
        mine = self.steps[self.host.host_seat]
        best = mine
        for st in self.steps.values():
            if len(st) > len(best) and [s.digest for s in st[: len(mine)]] == [s.digest for s in mine]:
                best = st
        return [_public(s) for s in best]


def _fp(key: bytes) -> str:
    from .identity import fingerprint

    return fingerprint(key) if key else ""


def _safe(name: str) -> str:
    return "".join(c if c.isalnum() or c in "-_" else "_" for c in name)[:60] or "table"


def fp_pass_key(passphrase: str | None) -> bytes:
    from .crypto import passphrase_key

    return passphrase_key(passphrase)


def _key_for(save: PeerSave, seat: int) -> bytes:
    return save.keys.get(seat, b"")


# =============================================================================
#   peer
# =============================================================================
class WrongTable(Refusal):
    """The address answered as another table than the one asked for (e.g. a stale save)."""


class SavedSeat(msgspec.Struct):
    seat: int
    kind: str
    name: str = ""
    addr: str = ""
    port: int = 0
    away: bool = False
    by_bot: bool = False


class PeerSave(msgspec.Struct, kw_only=True):
    """A peer's record of a LAN game: enough to resume after a restart or to take over as host."""

    format: int = 1
    table: m.TableInfo
    seat: int
    host_addr: str
    host_port: int
    host_seat: int
    joint: bytes
    dealer_commit: bytes
    share: bytes
    seats: list[SavedSeat]
    keys: dict[int, bytes] = {}
    commits: dict[int, bytes] = {}
    reveals: dict[int, bytes] = {}
    steps: list[m.Step] = []
    view: bytes = b""
    listen_port: int = 0


class TablePeer(_Emitter):
    """A seat at someone else's table. `chooser` plays it (None: a person, via :meth:`submit`)."""

    def __init__(self, game: Any, identity: Identity, *, name: str = "peer", passphrase: str | None = None,
                 chooser: Chooser | None = None, save_dir: Path | None = None, bind: str = "0.0.0.0",
                 reconnect_for: float = 20.0, advertise_on_takeover: bool = False) -> None:
        super().__init__()
        self.game = game
        self.identity = identity
        self.name = name
        self.passphrase = passphrase
        self.pass_key = fp_pass_key(passphrase)
        self.chooser = chooser
        self.save_dir = save_dir
        self.bind = bind
        self.reconnect_for = reconnect_for
        self.advertise_on_takeover = advertise_on_takeover
        """Announce the table with zeroconf if this peer becomes the host."""
        self._advert_task: asyncio.Future[Any] | None = None
        self.conn: Connection | None = None
        self.info: m.TableInfo | None = None
        self.seat = -1
        self.seats: list[m.SeatInfo] = []
        self.host_seat = 0
        self.state: State[Any, Any] | None = None
        """This seat's view of the game."""
        self.steps: list[m.Step] = []
        self.commits: dict[int, bytes] = {}
        self.reveals: dict[int, bytes] = {}
        self.dealer_commit = b""
        self.joint = b""
        self.share = b""
        self.save: PeerSave | None = None
        self.result: Result | None = None
        self.problems: list[str] = []
        self.listen_port = 0
        self.host_addr = ""
        self.host_port = 0
        self._contribution = b""
        self._move_task: asyncio.Task[Any] | None = None
        self._person: asyncio.Future[Any] | None = None
        self._listener: asyncio.AbstractServer | None = None
        self._takeover: TableHost | None = None
        self.rtts: list[float] = []
        """Seconds from sending a move to seeing it applied (benchmarks)."""
        self._sent_at: float | None = None
        self.joined_at: float | None = None
        self.seated_at: float | None = None
        self.resyncs = 0
        self.host_changes = 0
        self._awaiting_sync = False
        self._saver = _Saver()
        self._finished_save = False

    # ---- public API ------------------------------------------------------------
    @property
    def save_path(self) -> Path | None:
        if self.save_dir is None or self.info is None:
            return None
        return self.save_dir / f"lan-peer-{_safe(self.info.name)}.json"

    @classmethod
    def load_save(cls, path: Path) -> PeerSave | None:
        try:
            return msgspec.json.decode(Path(path).read_bytes(), type=PeerSave)
        except (OSError, msgspec.DecodeError, msgspec.ValidationError):
            return None

    def submit(self, action: Any) -> None:
        """A move by the person at this seat (IllegalAction if not allowed now)."""
        if self.state is None or self.state.current != self.seat:
            raise IllegalAction("it is not your turn")
        if not self.state.is_legal(action):
            raise IllegalAction(self.state.why_illegal(action))
        if self._person is not None and not self._person.done():
            self._person.set_result(action)

    def send_chat(self, text: str) -> None:
        if self.conn is not None:
            self.conn.send_nowait(m.Chat(text=text[:500]))

    def set_ready(self, ready: bool = True) -> None:
        if self.conn is not None:
            self.conn.send_nowait(m.Ready(ready=ready))

    async def join(self, host: str, port: int, *, resume: PeerSave | None = None, table: str = "") -> None:
        """Connect and sit down (Refusal says why not). With `resume`, come back to a saved game.

        With `table`, only at the table of that name (:class:`WrongTable` otherwise).
        """
        await self._ensure_listener(resume.listen_port if resume else 0)
        self.joined_at = time.perf_counter()
        conn, answered = await connect(host, port, self.identity, self.game.name, self.game.content_hash,
                                       passphrase=self.passphrase)
        if table and answered != table:
            await conn.close()
            raise WrongTable(f"{host}:{port} hosts the table {answered!r}, not {table!r}")
        if resume is not None and answered != resume.table.name:
            # A save belongs to one table; another table now at that address is another game.
            log.warning("%s:%d hosts %r now; not resuming our game at %r", host, port, answered, resume.table.name)
            resume = None
        self.host_addr, self.host_port = host, port
        if resume is not None:
            self._restore(resume)
        await self._hello(conn, resume_ply=len(self.steps) if resume is not None else -1)

    async def run(self) -> Result:
        """Play until the game ends (reconnecting and failing over as needed)."""
        try:
            while self.result is None:
                if self._takeover is not None:
                    if self.advertise_on_takeover:
                        self._spawn_advert()
                    res = await self._takeover.run()
                    audit_ok = True
                    self.result = msgspec.structs.replace(res, seat=self.seat, audit_ok=audit_ok)
                    break
                assert self.conn is not None
                await self._serve(self.conn)
                if self.result is not None:
                    break
                if self.state is None:
                    raise Refusal("the table closed before the game started")
                await self._recover()
            self.emit(Finished(self.result))
            return self.result
        finally:
            await self.close()

    async def close(self) -> None:
        if self._move_task is not None:
            self._move_task.cancel()
        # A finished game's save is deleted once the writes before it are done.
        delete = self.save_path if self._finished_save else None
        await asyncio.to_thread(self._saver.close, delete=delete)
        self._saver = _Saver()
        if self.conn is not None:
            await self.conn.close()
        if self._listener is not None:
            self._listener.close()
            self._listener = None

    # ---- connection -------------------------------------------------------------
    async def _ensure_listener(self, port: int) -> None:
        """Listen from the start, so this peer can become the host if the host goes away."""
        if self._listener is not None:
            return

        async def not_hosting(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            if self._takeover is not None:
                await self._takeover._on_connect(reader, writer)
                return
            writer.close()

        try:
            self._listener = await asyncio.start_server(not_hosting, self.bind, port)
        except OSError:
            self._listener = await asyncio.start_server(not_hosting, self.bind, 0)
        self.listen_port = self._listener.sockets[0].getsockname()[1]

    async def _hello(self, conn: Connection, *, resume_ply: int = -1, failover: bool = False) -> None:
        conn.send_nowait(m.Join(name=self.name, port=self.listen_port, resume_ply=resume_ply,
                                share=self.share if failover else b"", steps=self.steps if failover else []))
        msg = await asyncio.wait_for(conn.recv(), JOIN_TIMEOUT)
        if isinstance(msg, m.Refuse):
            await conn.close()
            raise Refusal(f"the table refused: {msg.reason}")
        if not isinstance(msg, m.Welcome):
            await conn.close()
            raise Refusal("the table did not welcome us")
        if msg.table.game != self.game.name or msg.table.content != self.game.content_hash:
            await conn.close()
            raise Refusal(f"the table plays {msg.table.game} with content {msg.table.content[:12]}")
        if self.info is not None and self.seat >= 0 and msg.seat != self.seat:
            await conn.close()
            raise Refusal(f"the table moved us from seat {self.seat + 1} to {msg.seat + 1}")
        self.info, self.seat, self.conn = msg.table, msg.seat, conn
        self._awaiting_sync = False
        self.seated_at = time.perf_counter()
        if self.chooser is not None and self.state is None:
            conn.send_nowait(m.Ready(ready=True))

    async def _serve(self, conn: Connection) -> None:
        while True:
            msg = await conn.recv()
            if msg is None:
                return
            try:
                await self._handle(conn, msg)
            except Exception as e:  # a hostile or buggy host must not crash us
                log.exception("handling %s", type(msg).__name__)
                self._problem(f"refused {type(msg).__name__} from the table: {e}")
            if self.result is not None:
                await conn.close()
                return

    def _problem(self, text: str) -> None:
        self.problems.append(text)
        log.warning("%s", text)
        self.emit(Problem(text))

    async def _handle(self, conn: Connection, msg: m.Message) -> None:
        if isinstance(msg, m.Lobby):
            self.seats = msg.seats
            self.host_seat = msg.host_seat
            self._update_save_seats()
            self.emit(LobbyChanged(msg.seats, msg.started))
        elif isinstance(msg, m.Chat):
            name = next((s.name for s in self.seats if s.seat == msg.seat), f"Seat {msg.seat + 1}")
            self.emit(ChatReceived(msg.seat, name, msg.text))
        elif isinstance(msg, m.CommitRequest):
            self._contribution = fp.new_contribution()
            conn.send_nowait(m.Commit(digest=fp.seed_commitment(self.seat, self._contribution)))
        elif isinstance(msg, m.Commits):
            if msg.commits.get(self.seat) != fp.seed_commitment(self.seat, self._contribution):
                self._problem("the table altered our seed commitment; not revealing")
                return
            self.commits, self.dealer_commit = dict(msg.commits), msg.dealer
            conn.send_nowait(m.Reveal(value=self._contribution))
        elif isinstance(msg, m.Begin):
            self._begin(msg)
        elif isinstance(msg, m.Step):
            self._on_step(conn, msg)
        elif isinstance(msg, m.Sync):
            self._on_sync(msg)
        elif isinstance(msg, m.Presence):
            for i, s in enumerate(self.seats):
                if s.seat == msg.seat:
                    self.seats[i] = msgspec.structs.replace(s, away=msg.away)
            self._update_save_seats()
            self.emit(PresenceChanged(msg.seat, msg.away))
        elif isinstance(msg, m.End):
            self._on_end(msg)
        elif isinstance(msg, m.Notice):
            self._problem(f"table says: {msg.text}")
        elif isinstance(msg, m.Ping):
            conn.send_nowait(m.Pong(t=msg.t))
        elif isinstance(msg, m.Pong):
            pass
        else:
            self._problem(f"refused {type(msg).__name__} from the table: not a host message")

    def _begin(self, msg: m.Begin) -> None:
        if self.state is not None:
            self._problem("refused a second game start")
            return
        bad = fp.check_reveals(self.commits, msg.reveals)
        if bad:
            self._problem(f"seed reveals do not match commitments for seat(s) {', '.join(str(s + 1) for s in bad)}")
            return
        assert self.info is not None
        self.joint = fp.joint_seed(msg.reveals)
        self.reveals = dict(msg.reveals)
        self.share = msg.share
        self.seats = msg.seats
        full = self.game.new(self.info.players, seed=fp.game_seed(self.joint), options=self.info.options)
        self.state = full.view(self.seat)
        self._make_save()
        self._persist()
        self.emit(GameStarted(self.seat))
        self._maybe_move()

    def _make_save(self) -> None:
        assert self.info is not None
        self.save = PeerSave(table=self.info, seat=self.seat, host_addr=self.host_addr, host_port=self.host_port,
                             host_seat=self.host_seat, joint=self.joint, dealer_commit=self.dealer_commit,
                             share=self.share, seats=[], listen_port=self.listen_port, commits=self.commits,
                             reveals=self.reveals)
        self._update_save_seats()

    def _update_save_seats(self) -> None:
        if self.save is None:
            return
        self.save.seats = [SavedSeat(seat=s.seat, kind=s.kind, name=s.name, addr=s.addr, port=s.port, away=s.away)
                           for s in self.seats]
        self.save.host_seat = self.host_seat
        self.save.keys = {s.seat: s.key for s in self.seats if s.key}

    def _on_step(self, conn: Connection, step: m.Step) -> None:
        st = self.state
        if st is None:
            self._problem("refused a step before the game started")
            return
        if step.ply <= st.ply or self._awaiting_sync:
            return  # already have it, or a resync is on its way and will bring it
        if step.ply != st.ply + 1:
            self._problem(f"missed steps before ply {step.ply}; asking for a resync")
            self._ask_resync(conn, st.ply, st.view(None).digest())
            return
        try:
            if step.seat != st.current:
                raise IllegalAction(f"seat {step.seat} acted but it was {st.current}'s turn")
            if step.action is not None:
                action = self.game.parse_action(step.action)
                if step.view is None:
                    # The host says our view can follow this step: our own core must accept it.
                    nxt = st.clone()
                    nxt.apply(action)
                elif step.seat == self.seat:
                    # Our own move: our view knows everything its legality depends on.
                    st.clone().apply(action)
                # Otherwise our view may lack what makes the move legal (another seat's hidden
                # tackle, the order of a deck); the end-of-game audit replays it in full.
            elif step.seat != CHANCE or step.commit is None or step.view is None:
                raise IllegalAction("a sealed step without its commitment or view")
            if step.reveal is not None:
                want = fp.sealed_commitment(step.reveal.salt, st.ply, step.reveal.action)
                if want != step.commit:
                    self._problem(f"DEALER CHEATED: ply {step.ply}: our sealed value does not match its commitment")
            if step.view is not None:
                nxt = _decode_view(self.game, step.view, step.ply)
        except (IllegalAction, NotationError, msgspec.DecodeError, msgspec.ValidationError) as e:
            self._problem(f"the table sent an impossible step at ply {step.ply}: {e}; asking for a resync")
            self._ask_resync(conn, st.ply, st.view(None).digest())
            return
        if nxt.view(None).digest() != step.digest:
            self._problem(f"digest mismatch after ply {step.ply}; asking for a resync")
            self._ask_resync(conn, step.ply, nxt.view(None).digest())
            return
        self.state = nxt
        self.steps.append(_public(step))
        if self._sent_at is not None and step.seat == self.seat:
            self.rtts.append(time.perf_counter() - self._sent_at)
            self._sent_at = None
        self._persist()
        self.emit(StepApplied(step.ply, step.seat, step.action if step.action is not None else
                              (step.reveal.action if step.reveal else None)))
        self._maybe_move()

    def _ask_resync(self, conn: Connection, ply: int, digest: str) -> None:
        self._awaiting_sync = True
        conn.send_nowait(m.Mismatch(ply=ply, digest=digest))

    def _on_sync(self, msg: m.Sync) -> None:
        self._awaiting_sync = False
        if self.info is None:
            return
        try:
            view = _decode_view(self.game, msg.view, msg.ply)
        except (msgspec.DecodeError, msgspec.ValidationError) as e:
            self._problem(f"refused a malformed resync: {e}")
            return
        start = msg.ply - len(msg.steps)
        if start < 0 or start > len(self.steps):
            self._problem("refused a resync that does not join our record")
            return
        if msg.steps and msg.steps[-1].digest != view.view(None).digest():
            self._problem("refused a resync whose view does not match its last step")
            return
        if not self.joint and msg.fair is not None:
            # We lost our save (or joined by address): take the fair-play data, checking it.
            bad = fp.check_reveals(msg.fair.commits, msg.fair.reveals)
            if bad:
                self._problem(f"refused fair-play data: reveals do not match commitments for seat(s) {bad}")
                return
            self.commits, self.reveals = dict(msg.fair.commits), dict(msg.fair.reveals)
            self.joint, self.dealer_commit, self.share = fp.joint_seed(self.reveals), msg.fair.dealer, msg.fair.share
            self._make_save()
        elif msg.fair is not None and msg.fair.share:
            self.share = msg.fair.share  # re-split by a new host after a failover
            if self.save is not None:
                self.save.share = self.share
        self.steps = self.steps[:start] + [_public(s) for s in msg.steps]
        self.state = view
        self.resyncs += 1
        self._persist()
        self._maybe_move(force=True)

    def _on_end(self, msg: m.End) -> None:
        assert self.info is not None
        rep = fp.audit(self.game, self.info.players, self.info.options, self.joint, self.dealer_commit,
                       msg.dealer_secret, self.steps)
        problems = list(rep.problems)
        if rep.ok and rep.final_digest != msg.digest:
            problems.append("the final position announced differs from the replay")
        if problems:
            self._problem(f"AUDIT FAILED, the dealer (host, seat {self.host_seat + 1}) cheated or erred: "
                          + "; ".join(problems))
        scores = {row["label"]: row["total"] for row in msg.scores.get("scores", [])}
        self.result = Result(game=self.game.name, table=self.info.name, seat=self.seat, scores=scores,
                             digest=rep.final_digest if rep.ok else msg.digest, plies=rep.plies,
                             outcome=str(msg.scores.get("outcome", "")), audit_ok=not problems, problems=problems)
        self._finished_save = True

    # ---- playing our seat ------------------------------------------------------
    def _maybe_move(self, *, force: bool = False) -> None:
        st = self.state
        if st is None or st.current != self.seat:
            return
        if self._move_task is not None and not self._move_task.done():
            if not force:
                return
            self._move_task.cancel()
        self._move_task = asyncio.ensure_future(self._move(st.clone()))

    async def _move(self, view: State[Any, Any]) -> None:
        if self.chooser is not None:
            action = await self.chooser(view, self.seat)
        else:
            self._person = asyncio.get_running_loop().create_future()
            action = await self._person
        if self.conn is None or self.state is None or self.state.ply != view.ply:
            return  # the position moved on (resync) while we thought
        self._sent_at = time.perf_counter()
        self.conn.send_nowait(m.Act(ply=view.ply, action=str(action)))

    def _persist(self) -> None:
        if self.save is None or self.state is None:
            return
        self.save.steps = self.steps
        self.save.view = self.state.encode()
        p = self.save_path
        if p is None:
            return
        save = self.save
        self._saver.save(p, lambda: msgspec.json.encode(save))

    def _restore(self, sv: PeerSave) -> None:
        self.save = sv
        self.info, self.seat = sv.table, sv.seat
        self.joint, self.dealer_commit, self.share = sv.joint, sv.dealer_commit, sv.share
        self.commits, self.reveals = dict(sv.commits), dict(sv.reveals)
        self.host_seat = sv.host_seat
        self.steps = list(sv.steps)
        self.seats = [m.SeatInfo(seat=s.seat, kind=s.kind, name=s.name, addr=s.addr, port=s.port,  # type: ignore[arg-type]
                                 away=s.away) for s in sv.seats]
        ply = sv.steps[-1].ply if sv.steps else 0
        self.state = _decode_view(self.game, sv.view, ply) if sv.view else None

    # ---- faults ------------------------------------------------------------------
    async def _recover(self) -> None:
        """The host connection broke mid-game: reconnect, or fail over to a new host."""
        self.conn = None
        deadline = time.monotonic() + min(self.reconnect_for, 3.0)
        last = "no answer"
        while time.monotonic() < deadline:
            try:
                conn, _ = await connect(self.host_addr, self.host_port, self.identity, self.game.name,
                                        self.game.content_hash, passphrase=self.passphrase, timeout=2.0)
                await self._hello(conn, resume_ply=len(self.steps))
                return
            except (Refusal, asyncio.TimeoutError, OSError) as e:
                last = str(e)
            await asyncio.sleep(0.3)
        self._problem(f"the host is gone ({last}); choosing a new host")
        await self._failover()

    def _candidates(self) -> list[m.SeatInfo]:
        """Remote peers that may host, lowest seat first (every peer computes the same list)."""
        return sorted((s for s in self.seats if s.kind == "remote" and s.seat != self.host_seat and not s.away),
                      key=lambda s: s.seat)

    async def _failover(self) -> None:
        tried: set[int] = set()
        deadline = time.monotonic() + self.reconnect_for
        while time.monotonic() < deadline:
            cands = [c for c in self._candidates() if c.seat not in tried]
            if not cands:
                break
            c = cands[0]
            self.host_changes += 1
            if c.seat == self.seat:
                self._become_host()
                self.emit(HostChanged(self.seat, "", self.listen_port))
                return
            self.emit(HostChanged(c.seat, c.addr, c.port))
            inner = time.monotonic() + 8.0
            while time.monotonic() < min(inner, deadline):
                try:
                    conn, _ = await connect(c.addr, c.port, self.identity, self.game.name, self.game.content_hash,
                                            passphrase=self.passphrase, timeout=2.0)
                    await self._hello(conn, resume_ply=len(self.steps), failover=True)
                    self.host_addr, self.host_port, self.host_seat = c.addr, c.port, c.seat
                    if self.save is not None:
                        self.save.host_addr, self.save.host_port, self.save.host_seat = c.addr, c.port, c.seat
                    return
                except (Refusal, asyncio.TimeoutError, OSError):
                    await asyncio.sleep(0.3)
            tried.add(c.seat)
        raise Refusal("the host went away and no other peer could take over")

    def _spawn_advert(self) -> None:
        """Announce the table again from here, so a restarted peer finds it by name."""
        from .discovery import Advertiser

        assert self.info is not None and self._takeover is not None
        adv = Advertiser(table=self.info.name, game=self.game.name, content=self.game.content_hash,
                         port=self.listen_port, fingerprint=self.identity.fingerprint,
                         addresses=None if self.bind in ("0.0.0.0", "") else [self.bind])
        self._takeover.advertiser = adv
        self._takeover.on_seats_changed(adv.update_soon)
        self._advert_task = asyncio.ensure_future(adv.start(0))

    def _become_host(self) -> None:
        assert self.save is not None
        self.save.steps = list(self.steps)
        # The old host's seat (and any seat played by its bots) is played by a bot from now on.
        self.save.seats = [msgspec.structs.replace(s, by_bot=s.seat == self.save.host_seat) for s in self.save.seats]
        self._takeover = TableHost.take_over(self)
        # The listener already bound to our advertised port hands new connections to the new host.
        self._takeover.external_listener = True
