"""A seat at someone else's table: verify every step on our own core, play our seat, recover.

A peer holds only its own seat's view. It applies every :class:`~messages.Step`
itself, checks legality and the public digest, asks for a resync when anything
differs, audits the whole game at the end, reconnects when the connection
breaks, and takes part in choosing (or becoming) a new host when the host goes
away. Its life is a :class:`PeerPhase`.
"""

from __future__ import annotations

import asyncio
import enum
import logging
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec

from coldwater.core import record
from coldwater.core.errors import IllegalAction, NotationError
from coldwater.core.notation import Action
from coldwater.core.record import GameRecord
from coldwater.core.state import CHANCE, Game, State

from .. import beacon
from .. import fairplay as fp
from .. import messages as m
from ..admission import Guard, Listener, listen
from ..fairdeal.deck import FairDealError
from ..fairdeal.seat import WIRED, FairSave, FairSeat
from ..identity import Identity, fingerprint, verify
from ..transport import (
    SAME_KEY,
    AlreadySeated,
    Connection,
    HostCheck,
    Refusal,
)
from . import forfeit as ff
from . import probe
from .events import (
    ChatReceived,
    Chooser,
    Emitter,
    Event,
    Finished,
    GameStarted,
    HostChanged,
    HostLeft,
    LobbyChanged,
    PresenceChanged,
    Problem,
    RematchOffered,
    Result,
    StepApplied,
)
from .failover import FAIR_SAVE_EVERY, Handover, candidates
from .fairtable import FairDriver, autoplay_message, fair_message, fair_record
from .host import HEARTBEAT, JOIN_TIMEOUT, MAX_ROUNDS, TableHost, fp_pass_key
from .hostcore import FINALS_WAIT, scores_of
from .hostlink import HostLink
from .joining import SyncRefused, connect_to_table, read_sync, rematch_refusal
from .persist import (
    PeerSave,
    SavedSeat,
    Saver,
    decode_view,
    fair_damage,
    load_peer_save,
    public_step,
    safe_name,
    unpack_view,
    with_fair,
)
from .spectators import advertise_watchers
from .standin import StandIn
from .turnclock import SLACK, TurnClock, fmt

log = logging.getLogger("coldwater.net")

HOST_SILENCE = 6.0
"""A host not heard from for this long (it pings when quiet) is treated as gone: reconnect, then fail over."""


class WrongTable(Refusal):
    """The address answered as another table than the one asked for (e.g. a stale save)."""


class SentAway(Refusal):
    """The table itself refused us (our seat went to a bot, we were sent away): do not retry."""


class _Evident(IllegalAction):
    """A step refused on evidence already recorded (not to be reported twice)."""


class PeerPhase(enum.Enum):
    LOBBY = "lobby"
    """Seated (or joining); no game yet."""
    PLAYING = "playing"
    RESYNCING = "resyncing"
    """We reported a mismatch or a gap; steps are ignored until the host's Sync arrives."""
    FINISHED = "finished"
    """The End arrived and was audited; the save is deleted on close."""
    HOSTING = "hosting"
    """The host went away and this peer hosts the table now."""


async def _until(done: Callable[[], bool], seconds: float) -> None:
    end = asyncio.get_running_loop().time() + seconds
    while not done() and asyncio.get_running_loop().time() < end:
        await asyncio.sleep(0.05)


class TablePeer(Emitter[Event]):
    """A seat at someone else's table. `chooser` plays it (None: a person, via :meth:`submit`)."""

    def __init__(
        self,
        game: Game[Any, Any],
        identity: Identity,
        *,
        name: str = "peer",
        passphrase: str | None = None,
        chooser: Chooser | None = None,
        save_dir: Path | None = None,
        bind: str = "0.0.0.0",
        reconnect_for: float = 20.0,
        advertise_on_takeover: bool = False,
    ) -> None:
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
        self.phase = PeerPhase.LOBBY
        self._advert_task: asyncio.Future[Any] | None = None
        self.conn: Connection | None = None
        self.info: m.TableInfo | None = None
        self.seat = -1
        self.seats: list[m.SeatInfo] = []
        self.watchers: list[m.WatcherInfo] = []
        self.host_seat = 0
        self.gone_hosts: set[int] = set()
        """Seats whose host this process replaced (failover): gone for good, so no bank keeps their move."""
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
        self._person: asyncio.Future[Action] | None = None
        self._person_early: tuple[int, Action] | None = None
        self.stand_in: StandIn | None = None
        """At a fair-dealer table with a person in this seat: its turn timer, kept here (standin.py)."""
        self.clock = TurnClock(0, 0, 1)
        """The seat to move's time and every seat's bank, as this process measures them (turnclock.py);
        the table's clock from the game's start."""
        self._listener: Listener | None = None
        self.check_host: HostCheck | None = None
        """Checks the key the table proves on join (lan.join_table: advertised, pinned, known hosts)."""
        self.host_fingerprint = ""
        """The fingerprint the host proved in the handshake (not what any message claims)."""
        self.takeover: TableHost | None = None
        """The table this peer hosts after a failover (phase HOSTING)."""
        self.rtts: list[float] = []
        """Seconds from sending a move to seeing it applied (benchmarks)."""
        self._sent_at: float | None = None
        self.joined_at: float | None = None
        self.seated_at: float | None = None
        self.resyncs = 0
        self.host_changes = 0
        self._saver = Saver()
        self.keys: dict[int, bytes] = {}
        """Seat → identity key of every seat whose moves must be signed (fixed when the game starts)."""
        self.views: dict[int, bytes] = {}
        """Ply → digest of each private view the host sent us (the audit checks them)."""
        self.dealt_by: list[tuple[int, int]] = []
        """(first ply, host seat) for each host that dealt part of this game."""
        self._forfeit: tuple[ff.Forfeit, m.Fair] | None = None
        """The forfeit the host proposed, and its signed message (forfeit.py)."""
        self._answers: list[m.Fair] = []
        """Every seat's verdict or dispute over it, ours among them."""
        self._answered = False
        self._verdict_done = False
        self.evidence: list[str] = []
        """What the host did that an honest host cannot do, naming who signed what (fails the audit)."""
        self.rounds = 0
        """Seed rounds this peer was asked to take part in (capped: a host could grind the deal)."""
        self._sent: tuple[int, str, bytes] | None = None
        """(ply, action, signature) of the move we sent and have not yet seen applied."""
        self._pending: Result | None = None
        """Our audited result, waiting for every seat's signed final digest."""
        self._finals_timer: asyncio.TimerHandle | None = None
        self._end_after_sync: m.End | None = None
        self._host_silent = False
        """The last connection ended because the host went silent (frozen, cut off), not closed."""
        self.botted: set[int] = set()
        """Seats the host announced as played by its bot (a bot step for another signed seat is evidence)."""
        self.chain: beacon.Chain | None = None
        """Our beacon chain (its tip is in our seed contribution); None after losing our save."""
        self.book = beacon.Book({})
        """Every seat's chain tip and latest link, as the steps we applied revealed them."""
        self._linked = -1
        """The ply whose link we sent on this connection (-1: none yet)."""
        self._auditing = False
        self.fair: FairDriver | None = None
        """At a fair-dealer table: this seat's rounds (fairtable.py); `state` is its own view."""
        self._fair_task: asyncio.Task[Any] | None = None
        self.linger = False
        """Stay connected after the end (the app: chat, a rematch offer) until close()."""
        self._after: asyncio.Task[Any] | None = None
        """After the end, with `linger`: reading the host's messages (chat, a rematch offer)."""
        self.rematch_port = 0
        """The port of the rematch the host offered (0: none yet)."""
        self.host_left = False
        """The host closed our lingering connection after the end (kept for a screen mounted after HostLeft)."""
        self._rematch_answered = False
        self.dealer_secret = b""
        """The dealer's secret from the End (with the public record it replays the whole game)."""

    # ---- public API ------------------------------------------------------------
    @property
    def save_path(self) -> Path | None:
        if self.save_dir is None or self.info is None:
            return None
        return self.save_dir / f"lan-peer-{safe_name(self.info.name)}.json"

    @classmethod
    def load_save(cls, path: Path) -> PeerSave | None:
        return load_peer_save(path)

    @property
    def awaiting_person(self) -> bool:
        """A person's move is asked for (the person API: :meth:`submit`)."""
        if self.stand_in is not None:
            return self.stand_in.awaiting
        return self._person is not None and not self._person.done()

    @property
    def bot_plays(self) -> bool:
        """Our person did not move in time, so a bot plays our seat until they come back: at a fair
        table this process's own (:meth:`submit` or :meth:`take_back`), at a committed one the host's."""
        if self.stand_in is not None:
            return self.stand_in.playing
        return self.seat in self.botted and self.fair is None

    def hand_over(self, seat: int) -> str | None:
        """Ask the table to hand `seat`, out of time by our clock, to a bot (the host checks its own).
        Returns why not (None: asked)."""
        if self.conn is None or self.state is None or self.phase is not PeerPhase.PLAYING:
            return "no game is being played here now"
        if seat == self.seat:
            return "your own seat is handed over by the other players"
        now = time.monotonic()
        if not self.clock.running or self.clock.seat != seat:
            return f"seat {seat + 1}'s move is not being timed"
        if not self.clock.out(now):
            return f"seat {seat + 1} still has {fmt(self.clock.left(now))}"
        self.conn.send_nowait(m.HandOver(seat=seat, ply=self.clock.ply))
        return None

    def _on_hand_over(self, msg: m.HandOver) -> None:
        """The host says another player handed our seat, out of time, to a bot: our own bot takes it if
        our own clock agrees (a fair table; at a committed one the host's bot plays and Presence says so)."""
        st = self.stand_in
        if msg.seat != self.seat or st is None:
            self._problem(f"refused a hand-over of seat {msg.seat + 1} from the table: not ours to play")
            return
        left = self.clock.left(time.monotonic()) if self.clock.seat == self.seat else 0.0
        if left > SLACK:
            self._problem(
                f"the table hands our seat to a bot, but our clock shows {fmt(left)} left: we keep it (the "
                "host's haste is the host's)"
            )
            return
        who = next((s.name for s in self.seats if s.seat == msg.by), "the host") if msg.by >= 0 else "the host"
        if st.hand_over():
            self._problem(f"you were out of time and {who} handed your seat to a bot")

    def take_back(self) -> bool:
        """Our person takes the seat back from the bot (False: no bot had it). At a committed table the
        host's bot has it: the host is told (a signed AutoPlay "off") and asks our next move of us."""
        if self.stand_in is not None:
            return self.stand_in.take_back()
        if not self.bot_plays or self.conn is None or self.state is None:
            return False
        self.conn.send_nowait(self._autoplay(False, self.state.ply))
        return True

    def submit(self, action: Action) -> None:
        """A move by the person at this seat (IllegalAction if not allowed now)."""
        if self.state is None or self.state.current != self.seat:
            raise IllegalAction("it is not your turn")
        if not self.state.is_legal(action):
            raise IllegalAction(self.state.why_illegal(action))
        if self.stand_in is not None:
            self.stand_in.submit(self.state.ply, action)  # our person is back, if the bot had the seat
            return
        if self._person is not None and not self._person.done():
            self._person.set_result(action)
        else:
            # The screen saw our turn before the move was asked for: kept for that ply.
            self._person_early = (self.state.ply, action)

    async def _ask_person(self, view: State[Any, Any]) -> Action:
        """The person's move for `view` (one submitted early for this very ply counts)."""
        early, self._person_early = self._person_early, None
        if early is not None and early[0] == view.ply:
            return early[1]
        self._person = asyncio.get_running_loop().create_future()
        return await self._person

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
        restored: FairSeat | None = None
        if resume is not None and resume.fair:
            # Replaying a fair seat's transcript checks every proof in it: off the loop, before connecting.
            probe.prepare()
            try:
                restored = await asyncio.to_thread(_restore_fair, self.game, resume)
            except (FairDealError, msgspec.DecodeError, msgspec.ValidationError, ValueError) as e:
                # Nothing is written over it: the file stays as it is for a person to look at.
                raise Refusal(
                    f"our saved seat at {resume.table.name!r} is damaged and does not restore ({e}); the save "
                    "is left as it is, and without it this seat's key is lost, so the seat cannot go on"
                ) from None
        self.joined_at = time.perf_counter()
        conn, answered = await connect_to_table(
            host,
            port,
            self.identity,
            self.game,
            passphrase=self.passphrase,
            check_host=self.check_host,
            table=table,
            wrong=WrongTable,
        )
        if resume is not None and answered != resume.table.name:
            # A save belongs to one table; another table now at that address is another game.
            log.warning("%s:%d hosts %r now; not resuming our game at %r", host, port, answered, resume.table.name)
            resume = None
        self.host_addr, self.host_port = host, port
        self.host_fingerprint = conn.fingerprint
        if resume is not None:
            self._restore(resume, restored)
        await self._hello(conn, resume_ply=len(self.steps) if resume is not None else -1)
        if restored is not None and resume is not None and self.fair is not None:
            # What we sent last may never have reached the table (a host that froze, then stood down).
            self._send_own(conn)

    async def run(self) -> Result:
        """Play until the game ends (reconnecting and failing over as needed)."""
        try:
            while self.result is None:
                if self.takeover is not None:
                    if self.advertise_on_takeover:
                        self._spawn_advert()
                    res = await self.takeover.run()
                    self.result = msgspec.structs.replace(
                        res,
                        seat=self.seat,
                        problems=[*self.evidence, *res.problems],
                        audit_ok=res.audit_ok and not self.evidence,
                    )
                    break
                assert self.conn is not None
                await self._serve(self.conn)
                if self.result is not None:
                    break
                if self._pending is not None:
                    self._conclude(None)  # the table closed before relaying the final digests
                    break
                if self.state is None:
                    raise Refusal("the table closed before the game started")
                await self._recover()
            assert self.result is not None
            self.emit(Finished(self.result))
            return self.result
        finally:
            await self._close(keep_link=self._after is not None)

    async def close(self) -> None:
        await self._close(keep_link=False)

    async def _close(self, *, keep_link: bool) -> None:
        """Everything but, with `keep_link`, the host's connection and the task reading it (after the end)."""
        if not keep_link and self._after is not None:
            self._after.cancel()
        if self._move_task is not None:
            self._move_task.cancel()
        if self.fair is not None:
            self.fair.close()
        if self._fair_task is not None:
            self._fair_task.cancel()
        # A finished game's save is deleted once the writes before it are done.
        delete = self.save_path if self.phase is PeerPhase.FINISHED else None
        # Swapped before it is closed off the loop: a close() while run() is closing (the app
        # leaving as the game ends) must not reach a saver that is shutting down.
        saver, self._saver = self._saver, Saver(every=self._saver.every)
        await asyncio.to_thread(saver.close, delete=delete)
        if self.conn is not None and not keep_link:
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
            if self.takeover is not None:
                await self.takeover.handle_connection(reader, writer)
                return
            writer.close()

        try:
            self._listener = await listen(not_hosting, self.bind, port, guard=Guard())
        except OSError:
            self._listener = await listen(not_hosting, self.bind, 0, guard=Guard())
        self.listen_port = self._listener.port

    async def _hello(self, conn: Connection, *, resume_ply: int = -1, failover: bool = False) -> None:
        conn.send_nowait(
            m.Join(
                name=self.name,
                port=self.listen_port,
                resume_ply=resume_ply,
                share=self.share if failover else b"",
                steps=self.steps if failover else [],
                linkless=self.chain is None,  # the host heeds it only once the game is on
            )
        )
        msg = await asyncio.wait_for(conn.recv(), JOIN_TIMEOUT)
        for _ in range(3):  # a refusal may come after the notice that explains it
            if not isinstance(msg, m.Notice):
                break
            self._problem(f"table says: {msg.text}")
            msg = await asyncio.wait_for(conn.recv(), JOIN_TIMEOUT)
        if isinstance(msg, m.Refuse):
            await conn.close()
            raise (AlreadySeated if msg.reason == SAME_KEY else SentAway)(f"the table refused: {msg.reason}")
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
        self._linked = -1  # a new connection: a link sent on the old one may be lost
        if self.phase is PeerPhase.RESYNCING:
            self.phase = PeerPhase.PLAYING  # a new connection: the host sends a Sync anyway
        self.seated_at = time.perf_counter()
        if self.chooser is not None and self.state is None:
            conn.send_nowait(m.Ready(ready=True))

    async def _watch(self, conn: Connection) -> None:
        """Ping a quiet host; close a connection whose host has gone silent (frozen, cut off)."""
        seen_in, seen_out, quiet_since = conn.bytes_in, conn.bytes_out, time.monotonic()
        while not conn.closed:
            await asyncio.sleep(HEARTBEAT)
            now = time.monotonic()
            if conn.bytes_out == seen_out:
                conn.send_nowait(m.Ping(t=now))
            seen_out = conn.bytes_out
            if conn.bytes_in != seen_in or self._auditing:
                # While we audit, we read nothing: the host's answers wait unread, not missing.
                seen_in, quiet_since = conn.bytes_in, now
            elif now - quiet_since > HOST_SILENCE and self.phase is not PeerPhase.LOBBY:
                self._problem(f"the host has been silent for {now - quiet_since:.0f} s; treating it as gone")
                self._host_silent = True
                await conn.close()
                return

    async def _serve(self, conn: Connection) -> None:
        watch = asyncio.ensure_future(self._watch(conn))
        try:
            await self._serve_messages(conn)
        finally:
            watch.cancel()

    async def _serve_messages(self, conn: Connection) -> None:
        while True:
            msg = await conn.recv()
            if msg is None:
                return
            await self._handle_safely(conn, msg)
            if self.evidence and self.result is None and self._pending is None and self.state is not None:
                self._leave_on_evidence()
            if self.result is not None:
                if self.linger and self.result.audit_ok and not conn.closed and self._after is None:
                    self._after = asyncio.ensure_future(self._after_end(conn))
                else:
                    await conn.close()
                return

    def _leave_on_evidence(self) -> None:
        """The host did what an honest host cannot: stop playing with it and say why."""
        assert self.info is not None and self.state is not None
        text = f"leaving: the host (seat {self.host_seat + 1}) cheated: " + "; ".join(self.evidence)
        self._problem(text)
        self.phase = PeerPhase.FINISHED
        self.result = Result(
            game=self.game.name,
            table=self.info.name,
            seat=self.seat,
            scores={},
            digest="",
            plies=self.state.ply,
            outcome="left the table: the host cheated",
            audit_ok=False,
            problems=[text],
        )

    def _problem(self, text: str) -> None:
        self.problems.append(text)
        log.warning("%s", text)
        self.emit(Problem(text))

    async def _handle(self, conn: Connection, msg: m.Message) -> None:
        if isinstance(msg, m.Lobby):
            self.seats = _proved_host(
                msg.seats,
                msg.host_seat,
                self.host_fingerprint,
                lambda t: None if t in self.problems else self._problem(t),
            )
            self.host_seat = msg.host_seat
            self.watchers = list(msg.watchers)
            self._update_save_seats()
            self.emit(LobbyChanged(msg.seats, msg.started, self.watchers))
        elif isinstance(msg, m.Chat):
            name = next((s.name for s in self.seats if s.seat == msg.seat), f"Seat {msg.seat + 1}")
            self.emit(ChatReceived(msg.seat, name, msg.text))
        elif isinstance(msg, m.CommitRequest):
            await self._on_commit_request(conn, msg)
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
        elif isinstance(msg, m.Fair):
            self._on_fair(msg)
        elif isinstance(msg, m.Sync):
            self._on_sync(msg)
            if self._end_after_sync is not None and self.phase is not PeerPhase.RESYNCING:
                end, self._end_after_sync = self._end_after_sync, None
                await self._on_end(conn, end)
        elif isinstance(msg, m.Presence):
            for i, s in enumerate(self.seats):
                if s.seat == msg.seat:
                    self.seats[i] = msgspec.structs.replace(s, away=msg.away)
            if msg.by_bot:
                self.botted.add(msg.seat)
                if self.fair is None:
                    self._problem(f"seat {msg.seat + 1} is played by the host's bot now")
                    now = time.monotonic()
                    if msg.seat == self.seat and self.clock.seat == self.seat and self.clock.left(now) > SLACK:
                        # Our own clock is the authority on our time: not evidence (clocks differ), but seen.
                        self._problem(
                            f"the host gave our seat to its bot with {fmt(self.clock.left(now))} left on our clock"
                        )
                # (At a fair table only the seat's own process can play it: the host's Notice says so.)
            else:
                self.botted.discard(msg.seat)
            self._update_save_seats()
            self.emit(PresenceChanged(msg.seat, msg.away))
        elif isinstance(msg, m.HandOver):
            self._on_hand_over(msg)
        elif isinstance(msg, m.End):
            await self._on_end(conn, msg)
        elif isinstance(msg, m.Finals):
            self._on_finals(msg)
        elif isinstance(msg, m.Refuse):
            if "beacon link" in msg.reason and self.state is not None and self._linked == self.state.ply:
                self.evidence.append(
                    f"the table says we withheld our beacon link for the draw at ply {self._linked}, but we sent it"
                )
                self._problem(self.evidence[-1])
            self._problem(f"the table sent us away: {msg.reason}")
            await conn.close()
        elif isinstance(msg, m.Notice):
            self._problem(f"table says: {msg.text}")
        elif isinstance(msg, m.Ping):
            conn.send_nowait(m.Pong(t=msg.t))
        elif isinstance(msg, m.Pong):
            pass
        elif isinstance(msg, m.Rematch):
            self._on_rematch(msg)
        else:
            self._problem(f"refused {type(msg).__name__} from the table: not a host message")

    # ---- after the end ----------------------------------------------------------------
    async def _after_end(self, conn: Connection) -> None:
        """Keep reading the host after the end (`linger`): chat, pings, a rematch offer; until either side leaves."""
        while True:
            msg = await conn.recv()
            if msg is None:
                self.host_left = True
                self.emit(HostLeft())  # our own close cancels this task first: this is the host's
                return
            await self._handle_safely(conn, msg)

    async def _handle_safely(self, conn: Connection, msg: m.Message) -> None:
        """One message from the host, during play or after the end: what breaks our handling is refused."""
        try:
            await self._handle(conn, msg)
        except Exception as e:  # a hostile or buggy host must not crash us
            log.exception("handling %s", type(msg).__name__)
            self._problem(f"refused {type(msg).__name__} from the table: {e}")

    def _on_rematch(self, msg: m.Rematch) -> None:
        why = rematch_refusal(self.result is not None and self.linger, self.rematch_port, msg.port)
        if why is not None:
            self._problem(why)
        else:
            self.rematch_port = msg.port
            self.emit(RematchOffered(msg.port))

    def full_record(self, meta: dict[str, str] | None = None) -> GameRecord | None:
        """The whole game, every sealed value in it, as a record the replay viewer and the end
        screen read: rebuilt from our public record and the dealer's secret the End revealed.

        At a fair-dealer table it is the audit's replay (every key revealed at the end). None
        before the End, or when the rebuild fails (the audit has already said why).
        """
        if self.fair is not None:
            return fair_record(self.fair, meta)
        if self.info is None or self.result is None or not self.steps or not self.dealer_secret:
            return None
        first = self.game.new(self.info.players, seed=fp.game_seed(self.joint), options=self.info.options)
        rec = record.start(self.game, first, self.info.options, meta)

        def add(seat: int, action: Action, after: State[Any, Any]) -> None:
            record.append(rec, seat, action, after)

        try:
            fp.rebuild(
                self.game,
                self.info.players,
                self.info.options,
                self.joint,
                self.dealer_secret,
                self.steps,
                on_apply=add,
                book=beacon.Book(fp.tips(self.reveals)),
            )
        except (fp.FairPlayError, IllegalAction, NotationError):
            return None
        return rec

    @property
    def rematch_answered(self) -> bool:
        """We told the host whether we take our seat at its rematch."""
        return self._rematch_answered

    def answer_rematch(self, accept: bool) -> None:
        """Tell the host whether we take our seat at its rematch (then, to take it: ``lan.join_rematch``)."""
        if not self.rematch_port:
            raise RuntimeError("the host has not offered a rematch")
        if self._rematch_answered:
            raise RuntimeError("the rematch offer was already answered")
        self._rematch_answered = True
        if self.conn is not None and not self.conn.closed:
            self.conn.send_nowait(m.RematchReply(accept=accept))

    async def _on_commit_request(self, conn: Connection, msg: m.CommitRequest) -> None:
        """A (new) seed round: every restart is counted, explained and checked, and capped."""
        self.rounds += 1
        if self.rounds > 1:
            names = ", ".join(str(s + 1) for s in msg.blamed) or "nobody"
            self._problem(
                f"the table restarted the seed round (round {self.rounds}): {msg.why or 'no reason given'}; "
                f"blamed: seat(s) {names}"
            )
            if self.seat in msg.blamed:
                self.evidence.append(
                    f"the table blamed us for withholding in seed round {self.rounds - 1}, "
                    "but we committed and revealed"
                )
                self._problem(self.evidence[-1])
            # The previous round's reveals, checked against the commitments we saw.
            for seat in fp.check_reveals({s: c for s, c in self.commits.items() if s in msg.reveals}, msg.reveals):
                self._problem(f"seat {seat + 1}'s seed reveal in round {self.rounds - 1} does not match its commitment")
            missing = sorted(set(self.commits) - set(msg.reveals) - set(msg.blamed) - {self.seat})
            if self.commits and missing:
                self._problem(
                    f"the table restarted the round without naming seat(s) "
                    f"{', '.join(str(s + 1) for s in missing)}, whose reveals it did not show"
                )
        if self.rounds > MAX_ROUNDS:
            self._problem(
                f"the table asked for a seed {self.rounds} times (at most {MAX_ROUNDS}): a host that "
                "restarts rounds can choose the deal; leaving"
            )
            await conn.close()
            return
        self.commits = {}
        self.chain = beacon.Chain(self.seat)  # fresh each round: its tip goes into this round's contribution
        self._contribution = fp.contribution(fp.new_contribution(), self.chain.tip)
        conn.send_nowait(m.Commit(digest=fp.seed_commitment(self.seat, self._contribution)))

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
        self.book = beacon.Book(fp.tips(self.reveals))
        self.share = msg.share
        self.seats = msg.seats
        self.keys = {s.seat: s.key for s in msg.seats if s.key and s.kind != "host"}
        self.dealt_by = [(1, self.host_seat)]
        self.clock = TurnClock(self.info.turn, self.info.bank, self.info.players)
        if self.info.dealer == "fair":
            self._fair_begin(msg)
            return
        if not self.info.failover or (not self.share and fp.has_sealed_values(self.game)):
            self._problem(
                "failover is off at this table (fewer than two remote seats hold escrow shares): "
                "if the host goes away, the game ends"
            )
        full = self.game.new(self.info.players, seed=fp.game_seed(self.joint), options=self.info.options)
        self.state = full.view(self.seat)
        self.clock.at(self.state.ply, self.state.current, time.monotonic())
        self.phase = PeerPhase.PLAYING
        self._make_save()
        self._persist()
        self.emit(GameStarted(self.seat))
        self._maybe_move()
        self._maybe_link()

    # ---- a fair-dealer table (fairtable.py): only our own view, advanced by ourselves ------------
    def _fair_begin(self, msg: m.Begin) -> None:
        assert self.info is not None
        if self.chain is None or self.info.game not in WIRED:
            self._problem(f"this table's fair dealer cannot deal {self.info.game} here")
            return
        probe.prepare()
        seat = FairSeat(
            self.game, self.info.players, self.seat, self.joint, self.info.options or None, chain=self.chain
        )
        self.keys = {s.seat: s.key for s in msg.seats if s.key}  # every seat signs its messages here
        # Seats' tips only (a host with no seat of its own commits one too, under seat -1).
        self._fair_drive(seat, {s: t for s, t in fp.tips(self.reveals).items() if 0 <= s < self.info.players})
        self._make_save()
        self._persist(now=True)  # our key is on disk before its share leaves
        self.clock.at(seat.view.ply, seat.view.current, time.monotonic())
        self.emit(GameStarted(self.seat))
        self.fair.pump()  # type: ignore[union-attr]

    def _fair_drive(self, seat: FairSeat, tips: dict[int, bytes] | None, *, paused: bool = False) -> None:
        def send(out: m.Fair) -> None:
            if self.conn is not None:
                self.conn.send_nowait(out)

        if self.chooser is None and self.stand_in is None:
            turn = self.info.turn if self.info is not None else 0
            self.stand_in = StandIn(
                self.game,
                turn,
                self._stand_in_told,
                clock=self.clock,
                strict=self.info is not None and self.info.strict,
                present=lambda: self.conn is not None,  # (cut off: the table cannot wait on us)
                out_of_time=lambda ply: self._problem(
                    "you are out of time (the move's time and your time bank): the other players may hand "
                    "your seat to a bot"
                ),
            )
        self.fair = FairDriver(
            seat,
            identity=self.identity,
            keys=self.keys,
            tips=tips,
            send=send,
            choose=self._fair_choose,
            stepped=self._fair_stepped,
            secret_sent=lambda: self._persist(now=True),
            paused=paused,
        )
        self.chain = seat.chain
        self.state = seat.view
        self.phase = PeerPhase.PLAYING
        self._saver.every = FAIR_SAVE_EVERY
        self._fair_task = asyncio.ensure_future(self._fair_end(self.conn))

    async def _fair_choose(self, view: State[Any, Any]) -> Action:
        if self.chooser is not None:
            return await self.chooser(view, self.seat)
        assert self.stand_in is not None
        return await self.stand_in.choose(view)

    def _autoplay(self, on: bool, ply: int) -> m.AutoPlay:
        """Our signed word to the table that our own bot plays our seat from `ply` (on) or we are back."""
        sig = self.identity.sign(autoplay_message(self.joint, ply, self.seat, on))
        return m.AutoPlay(seat=self.seat, ply=ply, on=on, sig=sig)

    def _stand_in_told(self, on: bool, ply: int) -> None:
        """Our stand-in took our seat (our person was slow) or gave it back: the table is told."""
        turn = self.info.turn if self.info is not None else 0
        self._problem(
            f"you did not move within {turn} s: your own app's bot plays your seat until you take it back"
            if on
            else "you are back: your seat is yours again"
        )
        if self.takeover is not None:  # we host the table now (failover): we tell everyone ourselves
            self.takeover.seat_autoplay(self.seat, on)
        elif self.conn is not None:
            self.conn.send_nowait(self._autoplay(on, ply))

    def _send_own(self, conn: Connection) -> None:
        """After a reconnect or a restart: every message we sent (the host drops copies), and whether our
        bot plays our seat now (the host may have missed it, or a restarted process's person is back)."""
        assert self.fair is not None
        for out in self.fair.own_messages():
            conn.send_nowait(out)
        if self.stand_in is not None:
            conn.send_nowait(self._autoplay(self.stand_in.playing, self.fair.fs.view.ply))

    def _fair_stepped(self) -> None:
        assert self.fair is not None
        fs = self.fair.fs
        self.state = fs.view
        self.clock.at(fs.view.ply, fs.view.current, time.monotonic())
        # The public record, as at the host (a drawn piece is "draw"): its length is the ply we are at.
        self.steps.append(m.Step(ply=fs.view.ply, seat=fs.last[0], digest=self.fair.digest(), action=fs.last_public))
        self._persist()
        self.emit(StepApplied(fs.view.ply, fs.last[0], fs.last[1]))

    def _on_fair(self, msg: m.Fair) -> None:
        drv = self.fair
        if drv is None:
            self._problem("refused a fair-dealer message: this table does not deal with it")
            return
        if msg.kind in ("verdict", "dispute"):
            if drv.check(msg) is None:
                self._answers.append(msg)
                if msg.kind == "dispute":
                    self._problem(
                        f"seat {msg.seat + 1} does not sign the forfeit: {msg.body.decode('utf-8', 'replace')}"
                    )
                self._verdict_check()
            return
        if msg.kind in ("abort", "forfeit") and (
            msg.seat == self.host_seat or (self.host_seat < 0 and self._host_runs(msg.seat))
        ):
            if msg.seat >= 0:
                ok = drv.check(msg) is None  # signed by the host's seat (or a bot seat it runs)
            else:  # a host with no seat in its process signs as itself, with the key its channel proved
                signed = fair_message(self.joint, msg.kind, msg.ply, msg.ref, msg.seat, msg.body, msg.digest)
                ok = self.conn is not None and verify(self.conn.peer_key, msg.sig, signed)
            if ok and msg.kind == "forfeit":
                f = ff.decode(msg.body)
                if f is not None and self._forfeit is None:
                    self._forfeit = (f, msg)
                    self._problem(f"the host proposes: {ff.outcome(f)}")
                    loop = asyncio.get_running_loop()
                    loop.call_later(ff.VERDICT_WAIT, self._verdict_late)
                    self._verdict_check()
            elif ok:  # the host's word on why the game ends: a claim, unless our own checks agree
                text = msg.body.decode("utf-8", "replace")
                if not (drv.over.done() and not drv.over.cancelled() and drv.over.exception() is not None):
                    text = f"the host ended the game: {text} (the host's claim; this seat's own checks found nothing)"
                drv.fail(FairDealError(text))
            return
        # Our own earlier message, sent back: we restarted from our save (or made a round's anew).
        why = drv.adopt(msg) if msg.seat == self.seat else drv.offer(msg)
        if why is not None:
            # Every seat signs its own: a message that does not check was altered on the host's watch.
            self.evidence.append(f"the host relayed {why}")
            self._problem(self.evidence[-1])

    def _verdict_check(self, *, late: bool = False) -> None:
        """The host proposed a forfeit: sign it once our own process agrees (same public position, our own
        rounds waiting on the seats named or our own check failed on theirs), else say why not; end the
        game once every other seat has answered."""
        drv = self.fair
        if drv is None or self._forfeit is None:
            return
        f, proposal = self._forfeit
        if not self._answered:
            evidence = list(drv.waiting[1]) if drv.waiting is not None else []
            if drv.over.done() and not drv.over.cancelled():
                e = drv.over.exception()
                if isinstance(e, FairDealError):
                    evidence += [s for s in e.culprits if isinstance(s, int)]
            why = ff.disagreement(f, drv.fs.view, evidence)
            now = time.monotonic()
            waits_act = drv.waiting is not None and drv.waiting[0][0] == "act"
            if (
                why is None
                and waits_act
                and self.clock.running
                and self.clock.seat in f.seats
                and self.clock.seat not in self.gone_hosts
                and self.clock.left(now) > SLACK
            ):
                # A move is not late before its seat is out of time, by this seat's own clock; a host this
                # seat replaced is gone for good, and its bank keeps no one waiting.
                left = fmt(self.clock.left(now))
                why = f"by this seat's clock seat {self.clock.seat + 1} still has {left} to move"
            if why is None and proposal.digest != drv.digest():
                why = "the host's public position at that ply is not this seat's"
            if self.seat in f.seats:  # the accused's answer, recorded beside the claim
                waits = ", ".join(str(s + 1) for s in evidence) or "no one"
                why = (
                    f"seat {self.seat + 1} answers: it sent what its rounds asked; "
                    f"at ply {drv.fs.view.ply} it waits on {waits}"
                )
            if why is None or late or f.ply < drv.fs.view.ply or self.seat in f.seats:
                kind = "verdict" if why is None else "dispute"
                body = ff.encode(f) if why is None else why.encode()[:500]
                self._answered = True
                if why is not None:
                    self._problem(f"this seat does not sign the forfeit: {why}")
                if self.conn is not None:
                    d = drv.digest()
                    sig = self.identity.sign(fair_message(self.joint, kind, f.ply, "", self.seat, body, d))
                    out = m.Fair(kind=kind, ply=f.ply, seat=self.seat, body=body, sig=sig, digest=d)
                    self._answers.append(out)
                    self.conn.send_nowait(out)
        others = [s for s in range(len(f.totals)) if s not in f.seats]
        if late or all(any(a.seat == s for a in self._answers) for s in others):
            self._verdict_done = True
            drv.fail(FairDealError(ff.outcome(f), f.seats))

    def _verdict_late(self) -> None:
        self._verdict_check(late=True)

    def _host_runs(self, seat: int) -> bool:
        """Whether `seat` is a bot the host's process runs (its messages are signed with the host's key)."""
        return any(s.seat == seat and s.kind == "bot" for s in self.seats)

    async def _fair_end(self, conn: Connection | None) -> None:
        """Every seat's key reveal, our own audit and replay, then our signed final digest."""
        drv = self.fair
        assert drv is not None and self.info is not None
        try:
            reveals = await asyncio.shield(drv.over)  # a takeover cancels this task, not the game
        except FairDealError as e:
            if self._forfeit is None and any(isinstance(s, int) and s != self.seat for s in e.culprits):
                # A seat's own message failed here: the host, which checks it too, proposes its forfeit.
                await _until(lambda: self._forfeit is not None, ff.VERDICT_WAIT)
            if self._forfeit is not None:
                await _until(lambda: self._verdict_done, ff.VERDICT_WAIT + 2)
                self._end_by_verdict()
                if self.conn is not None:
                    await self.conn.close()
                return
            text = str(e) if str(e).startswith("the game ends") else f"the game ends: {e}"
            self._problem(text)
            self.phase = PeerPhase.FINISHED
            self.result = Result(
                game=self.game.name,
                table=self.info.name,
                seat=self.seat,
                scores={},
                digest="",
                plies=drv.fs.view.ply,
                outcome="ended: " + text,
                audit_ok=False,
                problems=[text, *self.evidence],
            )
            if self.conn is not None:
                await self.conn.close()
            return
        except asyncio.CancelledError:
            raise
        rep = await drv.audit(reveals)
        problems = [f"AUDIT FAILED: {'; '.join(rep.problems)}"] if not rep.ok else []
        for p in problems:
            self._problem(p)
        problems += self.evidence
        full = rep.full
        scores, outcome = ({}, "") if full is None else scores_of(full)
        self._pending = Result(
            game=self.game.name,
            table=self.info.name,
            seat=self.seat,
            scores=scores,
            digest=full.digest() if full is not None else "",
            plies=full.ply if full is not None else drv.fs.view.ply,
            outcome=outcome,
            audit_ok=not problems,
            problems=problems,
        )
        self.phase = PeerPhase.FINISHED
        if full is not None and self.conn is not None:
            d = bytes.fromhex(full.digest())
            self.conn.send_nowait(
                m.Final(seat=self.seat, digest=d, sig=self.identity.sign(fp.final_message(self.joint, full.ply, d)))
            )
            self._finals_timer = asyncio.get_running_loop().call_later(FINALS_WAIT * 2, self._finals_late, self.conn)

    def _end_by_verdict(self) -> None:
        """Our result of a game ended by forfeit: the standings, and the seats whose signatures we hold."""
        assert self._forfeit is not None and self.info is not None
        f, _ = self._forfeit
        verdicts = [a for a in self._answers if a.kind == "verdict"]
        signers = ff.signed_by(f, verdicts, self.joint, self.keys)
        names = {s.seat: s.name for s in self.seats}
        self.phase = PeerPhase.FINISHED
        self.result = Result(
            game=self.game.name,
            table=self.info.name,
            seat=self.seat,
            scores=ff.scores(f),
            digest="",
            plies=f.ply,
            outcome=("you forfeit: " if self.seat in f.seats else "") + ff.outcome(f),
            audit_ok=False,
            problems=[p for p in self.problems if "forfeit" in p] + self.evidence,
            forfeit=list(f.seats),
            verdict=ff.standings_text(f, names),
            signed_by=signers,
        )

    def _make_save(self) -> None:
        assert self.info is not None
        self.save = PeerSave(
            table=self.info,
            seat=self.seat,
            host_addr=self.host_addr,
            host_port=self.host_port,
            host_seat=self.host_seat,
            joint=self.joint,
            dealer_commit=self.dealer_commit,
            share=self.share,
            seats=[],
            listen_port=self.listen_port,
            commits=self.commits,
            reveals=self.reveals,
            keys=dict(self.keys),
            views=self.views,
            dealt_by=self.dealt_by,
            chain=self.chain.end if self.chain is not None else b"",
        )
        self._update_save_seats()

    def _update_save_seats(self) -> None:
        if self.save is None:
            return
        self.save.seats = [
            SavedSeat(seat=s.seat, kind=s.kind, name=s.name, addr=s.addr, port=s.port, away=s.away) for s in self.seats
        ]
        self.save.host_seat = self.host_seat
        if not self.save.keys:
            self.save.keys = dict(self.keys)

    # ---- verifying steps ---------------------------------------------------------
    def _on_step(self, conn: Connection, step: m.Step) -> None:
        st = self.state
        if st is None:
            self._problem("refused a step before the game started")
            return
        if step.ply <= st.ply or self.phase is PeerPhase.RESYNCING:
            return  # already have it, or a resync is on its way and will bring it
        if step.ply != st.ply + 1:
            self._problem(f"missed steps before ply {step.ply}; asking for a resync")
            self._ask_resync(conn, st)
            return
        if step.links and self.chain is not None and self._linked == st.ply and self.seat not in step.links:
            # The host sends our own link back to us no more (bytes): it is in the draw, so put it back.
            mine = self.chain.link(beacon.index_of(st.ply))
            step = msgspec.structs.replace(step, links={**step.links, self.seat: mine})
        try:
            if step.seat != st.current:
                raise IllegalAction(f"seat {step.seat} acted but it was {st.current}'s turn")
            if step.action is not None:
                self._check_move(step)
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
            if step.links:
                self._check_draw(st, step)
            if step.view is not None:
                nxt = unpack_view(self.game, step.view, step.ply)
            if step.reveal is not None:
                self._check_reveal(st, step, nxt)
        except (IllegalAction, NotationError, msgspec.DecodeError, msgspec.ValidationError) as e:
            if not isinstance(e, _Evident):
                self._evidence(f"ply {step.ply}: the host sent an impossible step ({self._who(step)}): {e}")
            self._ask_resync(conn, st)
            return
        if fp.public_digest(nxt) != step.digest:
            # Reported, naming who signed what. Our own state may be the broken one, so this is not
            # yet evidence against the host: the resync may only extend our record, and the audit
            # replays every ply of it (and every view we were sent) with the dealer's secret.
            self._problem(
                f"digest mismatch after ply {step.ply}: {self._who(step)} gives public digest "
                f"{fp.public_digest(nxt).hex()[:16]} here; the host announced {step.digest.hex()[:16]}; "
                "asking for a resync"
            )
            self._ask_resync(conn, st)
            return
        if step.view is not None:
            self.views[step.ply] = bytes.fromhex(nxt.digest())
        if step.links:
            self.book.accept(st.ply, step.links)
        self.state = nxt
        self.clock.at(nxt.ply, nxt.current, time.monotonic())
        if (
            step.seat == self.seat
            and not step.sig
            and not step.bot
            and self._sent is not None
            and self._sent[0] == step.ply - 1
        ):
            step = msgspec.structs.replace(step, sig=self._sent[2])  # our record carries our signature
        self.steps.append(public_step(step))
        if step.seat == self.seat:
            self._sent = None
        if self._sent_at is not None and step.seat == self.seat:
            self.rtts.append(time.perf_counter() - self._sent_at)
            self._sent_at = None
        self._persist()
        self.emit(
            StepApplied(
                step.ply,
                step.seat,
                step.action if step.action is not None else (step.reveal.action if step.reveal else None),
            )
        )
        self._maybe_move()
        self._maybe_link()

    def _check_draw(self, before: State[Any, Any], step: m.Step) -> None:
        """A public draw: every link on its seat's chain, the host's and ours among them, and the outcome theirs."""
        if step.seat != CHANCE or step.action is None:
            raise IllegalAction("beacon links on a step that is not a public draw")
        why = self.book.check(before.ply, step.links)
        if why is None and self.host_seat not in step.links:
            why = f"the host (seat {self.host_seat + 1}) put no link of its own into the draw"
        chain, sent = self.chain, self._linked == before.ply
        if why is None and chain is not None and sent and step.links.get(self.seat) != chain.link(before.ply + 1):
            why = "the draw does not hold the link we sent"
        if why is not None:
            self._evidence(f"ply {step.ply}: a bad public draw: {why}")
            raise _Evident(why)
        want = str(beacon.draw(before, self.joint, step.links))
        if want != step.action:
            self._evidence(f"ply {step.ply}: the host drew {step.action!r}, but the seats' links draw {want!r}")
            raise _Evident("not the links' draw")

    def _maybe_link(self) -> None:
        """At a chance node our view's public part lists outcomes for: send our link unasked (saves a round trip)."""
        st = self.state
        if st is None or self.chain is None or self.conn is None or self.phase is not PeerPhase.PLAYING:
            return
        if self._linked == st.ply or not beacon.link_due(st):
            return
        self._linked = st.ply
        self.conn.send_nowait(m.Link(ply=st.ply, link=self.chain.link(beacon.index_of(st.ply))))

    def _rebook(self) -> None:
        """Every seat's latest link from our record (after a restart or a resync)."""
        book = beacon.Book(fp.tips(self.reveals))
        for s in self.steps:
            if s.links:
                try:
                    book.accept(s.ply - 1, s.links)
                except beacon.BeaconError as e:
                    self._problem(f"ply {s.ply} of our record holds a bad beacon link: {e}")
                    break
        self.book = book

    def _who(self, step: m.Step) -> str:
        """Who stands behind a step, for evidence: the seat, its move and who signed it."""
        if step.seat == CHANCE:
            return f"the dealer's chance outcome {step.action or '(sealed)'}"
        key = self.keys.get(step.seat, b"")
        signer = (
            "played by the host's bot"
            if step.bot
            else f"signed by {fingerprint(key)}"
            if key and step.sig
            else "unsigned"
        )
        return f"seat {step.seat + 1}'s move {step.action!r} ({signer})"

    def _evidence(self, text: str) -> None:
        """Something an honest host cannot cause: reported, kept, and it fails our audit."""
        self.evidence.append(text)
        self._problem("EVIDENCE: " + text)

    def _check_move(self, step: m.Step) -> None:
        """A seat's move must be that seat's own signed move; ours must be the one we sent."""
        assert step.action is not None
        if step.seat == self.seat and self._sent is not None and self._sent[0] == step.ply - 1:
            if step.bot:
                # Our move crossed the host's turn timer: named, not evidence (the timer is visible).
                self._problem(f"ply {step.ply}: the host's bot played our seat; our move {self._sent[1]!r} came late")
            elif step.action != self._sent[1]:
                self._evidence(f"ply {step.ply}: the host replaced our move {self._sent[1]!r} with {step.action!r}")
                raise _Evident("not the move we sent")
            elif not step.sig:
                return  # our own move comes back without the signature we hold (saves bytes); see _on_step
        if step.bot:
            bots = self.botted | {s.seat for s in self.seats if s.kind == "bot" or s.bot}
            if step.seat in self.keys and step.seat not in bots:
                self._evidence(
                    f"ply {step.ply}: the host played seat {step.seat + 1} with its bot without saying "
                    "that the seat ran out of time or was given to a bot"
                )
                raise _Evident("an unannounced bot move")
            return
        why = fp.check_act(self.keys, self.joint, step.ply - 1, step.seat, step.action, step.sig)
        if why is not None:
            self._evidence(f"ply {step.ply}: {why}")
            raise _Evident(why)

    def _check_reveal(self, before: State[Any, Any], step: m.Step, after: State[Any, Any]) -> None:
        """Our sealed value must match its commitment, and the view sent with it must be what it makes."""
        assert step.reveal is not None
        want = fp.sealed_commitment(step.reveal.salt, before.ply, step.reveal.action)
        if want != step.commit:
            self._evidence(f"ply {step.ply}: DEALER CHEATED: our sealed value does not match its commitment")
            return
        try:
            mine = before.clone()
            mine.apply(self.game.parse_action(step.reveal.action))
        except (IllegalAction, NotationError):
            return  # our view cannot apply this outcome itself; the audit checks the view we were sent
        if mine.view(self.seat).digest() != after.view(self.seat).digest():
            self._evidence(
                f"ply {step.ply}: the view the host sent does not hold the sealed value "
                f"{step.reveal.action!r} it revealed to us"
            )

    def _ask_resync(self, conn: Connection, st: State[Any, Any]) -> None:
        self.phase = PeerPhase.RESYNCING
        conn.send_nowait(m.Mismatch(ply=st.ply, digest=fp.public_digest(st)))

    def _on_sync(self, msg: m.Sync) -> None:
        if self.fair is not None:
            self.fair.resume()  # a fair table's host has sent every message it relayed
            return
        if self.phase is PeerPhase.RESYNCING:
            self.phase = PeerPhase.PLAYING
        if self.info is None:
            return
        try:
            view, start = read_sync(self.game, msg, len(self.steps))
        except SyncRefused as e:
            self._problem(str(e))
            return
        # A resync may add to our record, never rewrite it: what we already hold is evidence.
        for s in msg.steps:
            if s.ply <= len(self.steps) and self.steps[s.ply - 1].digest != s.digest:
                mine = self.steps[s.ply - 1]
                self._evidence(
                    f"ply {s.ply}: the host tried to rewrite our record: we hold {self._who(mine)}, "
                    f"its resync says {self._who(s)}"
                )
                return
            if self.keys and s.seat >= 0 and not s.bot and s.action is not None:
                why = fp.check_act(self.keys, self.joint, s.ply - 1, s.seat, s.action, s.sig)
                if why is not None:
                    self._evidence(f"ply {s.ply} (in a resync): {why}")
                    return
        if not self.joint and msg.fair is not None:
            # We lost our save (or joined by address): take the fair-play data, checking it.
            bad = fp.check_reveals(msg.fair.commits, msg.fair.reveals)
            if bad:
                self._problem(f"refused fair-play data: reveals do not match commitments for seat(s) {bad}")
                return
            self.commits, self.reveals = dict(msg.fair.commits), dict(msg.fair.reveals)
            self.joint, self.dealer_commit, self.share = fp.joint_seed(self.reveals), msg.fair.dealer, msg.fair.share
            self.keys = self.keys or dict(msg.fair.keys)
            self.dealt_by = self.dealt_by or [(1, self.host_seat)]
            self._make_save()
        elif msg.fair is not None and msg.fair.share:
            self.share = msg.fair.share  # re-split by a new host after a failover
            if self.save is not None:
                self.save.share = self.share
        self.steps = self.steps[:start] + [public_step(s) for s in msg.steps]
        self._rebook()
        self.views[view.ply] = bytes.fromhex(view.digest())
        self.state = view
        if self.phase is PeerPhase.LOBBY:
            self.phase = PeerPhase.PLAYING
        self.resyncs += 1
        self._persist()
        self._maybe_move(force=True)
        self._maybe_link()

    def _dealer_at(self, ply: int) -> int:
        """The seat of the host that dealt `ply` (hosts change at failovers)."""
        seat = self.host_seat
        for first, host in self.dealt_by:
            if first <= ply:
                seat = host
        return seat

    async def _on_end(self, conn: Connection, msg: m.End) -> None:
        """Audit the whole game ourselves (in a thread: it replays every ply), then compare finals."""
        assert self.info is not None
        if self._pending is not None or self.result is not None:
            return
        if self.phase is PeerPhase.RESYNCING:
            self._end_after_sync = msg  # our record lacks the last steps: audit once the resync is in
            return
        self._auditing = True
        try:
            rep = await self._audit(msg)
        finally:
            self._auditing = False
        problems = list(rep.problems)
        if rep.ok and bytes.fromhex(rep.final_digest) != msg.digest:
            problems.append("the final position announced differs from the replay")
        self._after_audit(conn, msg, rep, problems)

    async def _audit(self, msg: m.End) -> fp.AuditReport:
        assert self.info is not None
        self.dealer_secret = msg.dealer_secret
        return await asyncio.to_thread(
            fp.audit,
            self.game,
            self.info.players,
            self.info.options,
            self.joint,
            self.dealer_commit,
            msg.dealer_secret,
            self.steps,
            tips=fp.tips(self.reveals),
            keys=self.keys or None,
            seat=self.seat,
            views=self.views,
        )

    def _after_audit(self, conn: Connection, msg: m.End, rep: fp.AuditReport, problems: list[str]) -> None:
        assert self.info is not None
        if problems:
            culprit = self._dealer_at(rep.bad_ply) if rep.bad_ply >= 0 else self.host_seat
            problems = [f"AUDIT FAILED, the dealer (host, seat {culprit + 1}) cheated or erred: " + "; ".join(problems)]
            self._problem(problems[0])
        problems += self.evidence
        # Scores and the outcome from our own replay, never from the host's message.
        self._pending = Result(
            game=self.game.name,
            table=self.info.name,
            seat=self.seat,
            scores=rep.scores,
            digest=rep.final_digest if rep.ok else msg.digest.hex(),
            plies=rep.plies,
            outcome=rep.outcome,
            audit_ok=not problems,
            problems=problems,
        )
        self.phase = PeerPhase.FINISHED
        if rep.ok:
            d = bytes.fromhex(rep.final_digest)
            conn.send_nowait(
                m.Final(seat=self.seat, digest=d, sig=self.identity.sign(fp.final_message(self.joint, rep.plies, d)))
            )
        self._finals_timer = asyncio.get_running_loop().call_later(FINALS_WAIT * 2, self._finals_late, conn)

    def _finals_late(self, conn: Connection) -> None:
        if self.result is None and self._pending is not None:
            self._conclude(None)
            self._closing = asyncio.ensure_future(conn.close())  # held: the loop keeps only weak refs

    def _on_finals(self, msg: m.Finals) -> None:
        if self._pending is None:
            self._problem("refused final digests before the end")
            return
        self._conclude(msg.finals)

    def _conclude(self, finals: list[m.Final] | None) -> None:
        """Compare every seat's signed final digest with ours; name any seat whose story differs."""
        res = self._pending
        assert res is not None
        if self._finals_timer is not None:
            self._finals_timer.cancel()
        problems = list(res.problems)
        if finals is None:
            problems.append("the table did not relay the seats' final digests: we could not compare stories")
        else:
            mine = bytes.fromhex(res.digest) if res.audit_ok else b""
            for f in finals:
                key = self.keys.get(f.seat, b"")
                if f.seat == self.seat:
                    continue
                if not key or not verify(key, f.sig, fp.final_message(self.joint, res.plies, f.digest)):
                    problems.append(f"seat {f.seat + 1}'s final digest is not signed by seat {f.seat + 1}")
                elif mine and f.digest != mine:
                    problems.append(
                        f"seat {f.seat + 1} ({fingerprint(key)}) ended with another final position: "
                        "the table told different seats different stories"
                    )
        for p in problems[len(res.problems) :]:
            self._problem(p)
        self._pending = None
        self.result = msgspec.structs.replace(
            res, problems=problems, audit_ok=res.audit_ok and len(problems) == len(res.problems)
        )

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
            action = await self._ask_person(view)
        if self.conn is None or self.state is None or self.state.ply != view.ply:
            return  # the position moved on (resync) while we thought
        self._sent_at = time.perf_counter()
        text = str(action)
        sig = self.identity.sign(fp.act_message(self.joint, view.ply, self.seat, text))
        self._sent = (view.ply, text, sig)
        self.conn.send_nowait(m.Act(ply=view.ply, action=text, sig=sig))

    def _persist(self, *, now: bool = False) -> None:
        if self.save is None or self.state is None or self.takeover is not None:
            return
        self.save.steps = self.steps
        at = time.monotonic()
        self.save.banks = [round(self.clock.bank_left(at, s), 1) for s in range(len(self.clock.banks))]
        drv = self.fair
        if drv is None:
            self.save.view = self.state.encode()
        p = self.save_path
        if p is None:
            return
        save = self.save

        def make() -> bytes:
            if drv is not None:  # a fair seat keeps its transcript, not its view (the restore replays it)
                with_fair(save, msgspec.msgpack.encode(drv.fs.save()))
                save.fair_sent = drv.recent_own()
            return msgspec.json.encode(save)

        if now:
            self._saver.save_now(p, make)
        else:
            self._saver.save(p, make)

    def _restore(self, sv: PeerSave, fair: FairSeat | None = None) -> None:
        self.save = sv
        self.info, self.seat = sv.table, sv.seat
        self.joint, self.dealer_commit, self.share = sv.joint, sv.dealer_commit, sv.share
        self.commits, self.reveals = dict(sv.commits), dict(sv.reveals)
        self.host_seat = sv.host_seat
        self.keys, self.views, self.dealt_by = dict(sv.keys), dict(sv.views), list(sv.dealt_by)
        self.steps = list(sv.steps)
        # The table's clock again, with the banks as they were: a restart is no way to a fresh bank.
        self.clock = TurnClock(sv.table.turn, sv.table.bank, sv.table.players)
        if len(sv.banks) == len(self.clock.banks):
            self.clock.banks = [min(max(0.0, b), float(sv.table.bank)) for b in sv.banks]
        self.chain = beacon.Chain(sv.seat, sv.chain) if len(sv.chain) == beacon.LINK_BYTES else None
        self._rebook()
        self.seats = [
            m.SeatInfo(
                seat=s.seat,
                kind=s.kind,  # type: ignore[arg-type]
                name=s.name,
                addr=s.addr,
                port=s.port,
                away=s.away,
            )
            for s in sv.seats
        ]
        if fair is not None:
            # Paused until the host has sent what it relayed: our own earlier messages are our word.
            self._fair_drive(fair, None, paused=True)
            assert self.fair is not None
            self.fair.keep_own(sv.fair_sent)
            return
        ply = sv.steps[-1].ply if sv.steps else 0
        self.state = decode_view(self.game, sv.view, ply) if sv.view else None
        if self.state is not None:
            self.phase = PeerPhase.PLAYING

    # ---- faults ------------------------------------------------------------------
    async def _recover(self) -> None:
        """The host connection broke mid-game: reconnect, or fail over to a new host."""
        self.conn = None
        # A silent host is frozen or cut off: a short try only, so that failover comes within ~10 s.
        within = min(self.reconnect_for, 1.0 if self._host_silent else 3.0)
        self._host_silent = False

        async def rejoin(conn: Connection) -> None:
            await self._hello(conn, resume_ply=len(self.steps))
            if self.fair is not None:
                # What we sent while cut off may be lost: send it all again (the host drops copies).
                self._send_own(conn)

        # The host we rejoin must prove the key it proved before (an impostor at its address gets nothing).
        # SentAway: the host is there and does not want us back (no failover); AlreadySeated: another
        # process plays this seat with our key, and retrying would only fight it.
        link = HostLink(self.game, self.identity, self.passphrase)
        last = await link.reach_again(
            self.host_addr,
            self.host_port,
            self.host_fingerprint,
            rejoin,
            within=within,
            fatal=(SentAway, AlreadySeated),
        )
        if last is None:
            return
        escrow = self.info is not None and self.info.dealer != "fair"  # a fair table has no secret to gather
        if self.info is not None and (
            not self.info.failover or (escrow and not self.share and fp.has_sealed_values(self.game))
        ):
            raise Refusal(
                f"the host is gone ({last}); failover is off at this table (fewer than two remote "
                "seats hold escrow shares), so the game ends here"
            )
        self._problem(f"the host is gone ({last}); choosing a new host")
        await self._failover()

    async def _failover(self) -> None:
        self.gone_hosts.add(self.host_seat)
        tried: set[int] = set()
        deadline = time.monotonic() + self.reconnect_for
        while time.monotonic() < deadline:
            cands = [c for c in candidates(self.seats, self.host_seat) if c.seat not in tried]
            if not cands:
                break
            c = cands[0]
            self.host_changes += 1
            if c.seat == self.seat:
                self._become_host()
                self.emit(HostChanged(self.seat, "", self.listen_port))
                return
            self.emit(HostChanged(c.seat, c.addr, c.port))

            async def seat_at(conn: Connection, c: m.SeatInfo = c) -> None:
                await self._hello(conn, resume_ply=len(self.steps), failover=True)
                if self.fair is not None:
                    self._send_own(conn)  # the new host may lack some of ours
                self.host_addr, self.host_port, self.host_seat = c.addr, c.port, c.seat
                self.dealt_by.append((len(self.steps) + 1, c.seat))
                if self.save is not None:
                    self.save.host_addr, self.save.host_port, self.save.host_seat = c.addr, c.port, c.seat
                self.host_fingerprint = conn.fingerprint

            # The new host must be the peer that sat in that seat, not whoever answers there.
            link = HostLink(self.game, self.identity, self.passphrase)
            within = min(8.0, deadline - time.monotonic())
            if (
                await link.reach_again(c.addr, c.port, c.fingerprint, seat_at, within=within, fatal=(AlreadySeated,))
                is None
            ):
                return
            tried.add(c.seat)
        raise Refusal("the host went away and no other peer could take over")

    def _spawn_advert(self) -> None:
        """Announce the table again from here, so a restarted peer finds it by name."""
        from ..discovery import Advertiser

        assert self.info is not None and self.takeover is not None
        adv = Advertiser(
            table=self.info.name,
            game=self.game.name,
            content=self.game.content_hash,
            port=self.listen_port,
            fingerprint=self.identity.fingerprint,
            needs_passphrase=bool(self.pass_key),
            addresses=None if self.bind in ("0.0.0.0", "") else [self.bind],
            dealer=self.info.dealer,
            seats=self.info.players,
            turn=self.info.turn,
            strict=self.info.strict,
        )
        self.takeover.advertiser = adv
        self.takeover.on_seats_changed(adv.update_soon)
        advertise_watchers(self.takeover, adv)
        self._advert_task = asyncio.ensure_future(adv.start(0))

    def _become_host(self) -> None:
        assert self.save is not None
        if self.fair is not None:
            self._become_fair_host(self.fair)
            return
        self.save.steps = list(self.steps)
        # The old host's seat (and any seat played by its bots) is played by a bot from now on.
        self.save.seats = [msgspec.structs.replace(s, by_bot=s.seat == self.save.host_seat) for s in self.save.seats]
        handover = Handover(
            self.save,
            share=self.share,
            steps=list(self.steps),
            chain=self.chain,
            guard=self._listener.guard if self._listener is not None else None,  # one count of handshakes per socket
        )
        # The listener already bound to our advertised port hands new connections to the new host.
        self.takeover = TableHost.from_handover(
            self.game,
            self.identity,
            handover,
            chooser=self.chooser,
            host_name=self.name,
            bind=self.bind,
            port=self.listen_port,
            save_dir=self.save_dir,
            pass_key=self.pass_key,
        )
        self.dealt_by.append((len(self.steps) + 1, self.seat))
        self.phase = PeerPhase.HOSTING

    def _become_fair_host(self, drv: FairDriver) -> None:
        """Host a fair table from here: our own rounds go on as they were; we relay every seat's."""
        assert self.save is not None
        self._update_save_seats()

        def our_view() -> None:
            self.state = drv.fs.view

        handover = Handover(
            self.save,
            fair=drv,
            on_step=our_view,
            guard=self._listener.guard if self._listener is not None else None,
        )
        host = TableHost.from_handover(
            self.game,
            self.identity,
            handover,
            host_name=self.name,
            bind=self.bind,
            port=self.listen_port,
            save_dir=self.save_dir,
            pass_key=self.pass_key,
        )
        if self._fair_task is not None:
            self._fair_task.cancel()  # the host's run audits and ends the game now
            self._fair_task = None
        self.takeover = host
        self.phase = PeerPhase.HOSTING


def _restore_fair(game: Game[Any, Any], sv: PeerSave) -> FairSeat:
    """A fair seat from its save, every message in it taken again with every check."""
    why = fair_damage(sv)
    if why is not None:
        raise ValueError(why)
    return FairSeat.restore(game, msgspec.msgpack.decode(sv.fair, type=FairSave))


def _proved_host(
    seats: list[m.SeatInfo], host_seat: int, proved: str, problem: Callable[[str], None]
) -> list[m.SeatInfo]:
    """The lobby's seats with the host's fingerprint as its channel proved it (shown, never the claim)."""
    out: list[m.SeatInfo] = []
    for s in seats:
        if s.seat == host_seat and proved and s.fingerprint != proved:
            problem(f"the host's lobby names its key {s.fingerprint or 'none'}, but it proved {proved}")
            s = msgspec.structs.replace(s, fingerprint=proved)
        out.append(s)
    return out
