"""A seat at someone else's table: verify every step on our own core, play our seat, recover.

A peer holds only its own seat's view. It applies every :class:`~messages.Step`
itself, checks legality and the public digest, asks for a resync when anything
differs, audits the whole game at the end, reconnects when the connection
breaks, and takes part in choosing (or becoming) a new host when the host goes
away. Its life is a :class:`PeerPhase`.

Each phase of the protocol is a class of its own that owns its state, and its constructor
names all it may touch (shared.py): the seed round (``seed``, peerseed.py), checking each step
(``checker``, stepcheck.py), a fair-dealer table's rounds (``fair_peer``, fairpeer.py), the
audit at the end (``audit``, audit.py), the save (``saves``, peersave.py), the lobby and
presence (``lobby_view``, lobbyview.py) and losing the host (``failover``, peerfailover.py:
reconnect, a new host, or becoming it; the seat's listener). The app reaches a phase by its
attribute. The heartbeat to the host is hostlink.py's.

What stays here is the seat itself, which no phase owns: what it knows of the table (its
view, seats, host), joining, the connection loop that hands each message to its phase,
playing our own seat (the person, the bot past the clock) and the rematch offer after the end.
"""

from __future__ import annotations

import asyncio
import logging
import time
from pathlib import Path
from typing import Any

import msgspec

from coldwater.core.errors import IllegalAction
from coldwater.core.notation import Action
from coldwater.core.record import GameRecord
from coldwater.core.state import Game, State

from ... import beacon
from ... import fairplay as fp
from ... import messages as m
from ...fairdeal.deck import FairDealError
from ...fairdeal.seat import FairSeat
from ...identity import Identity
from ...link import TCP, Link, Network
from ...transport import (
    SAME_KEY,
    AlreadySeated,
    HostCheck,
    Refusal,
)
from ..events import (
    Chooser,
    Emitter,
    Event,
    Finished,
    HostLeft,
    Problem,
    RematchOffered,
    Result,
)
from ..fairtable import fair_record
from ..fairwire import autoplay_message
from ..forfeit import VerdictRecord
from ..host.host import JOIN_TIMEOUT, TableHost, fp_pass_key
from ..hostlink import heartbeat
from ..joining import connect_to_table, rematch_refusal
from ..persist import PeerSave
from ..record import TableRecord
from ..standin import StandIn
from ..turnclock import TurnClock
from .audit import PeerAudit
from .fairpeer import FairPeer, restore_fair
from .lobbyview import LobbyView
from .peerfailover import PeerFailover
from .peersave import PeerSaves
from .peerseed import PeerSeed
from .shared import PeerPhase as PeerPhase  # (re-exported: its old home)
from .shared import SentAway as SentAway
from .stepcheck import StepCheck

log = logging.getLogger("coldwater.net")

HOST_SILENCE = 6.0
"""A host not heard from for this long (it pings when quiet) is treated as gone: reconnect, then fail over."""


class WrongTable(Refusal):
    """The address answered as another table than the one asked for (e.g. a stale save)."""


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
        network: Network = TCP,
    ) -> None:
        super().__init__()
        self.game = game
        self.identity = identity
        self.network = network
        """Where this seat's links come from: TCP, or an in-memory network in tests (link.py)."""
        self.name = name
        self.passphrase = passphrase
        self.pass_key = fp_pass_key(passphrase)
        self.chooser = chooser
        self.save_dir = save_dir
        self.bind = bind
        self.advertise_on_takeover = advertise_on_takeover
        """Announce the table with zeroconf if this peer becomes the host."""
        self.phase = PeerPhase.LOBBY
        self.conn: Link | None = None
        self.info: m.TableInfo | None = None
        self.seat = -1
        self.seats: list[m.SeatInfo] = []
        self.watchers: list[m.WatcherInfo] = []
        self.host_seat = 0
        self.gone_hosts: set[int] = set()
        """Seats whose host this process replaced (failover): gone for good, so no bank keeps their move."""
        self.state: State[Any, Any] | None = None
        """This seat's view of the game."""
        self.record = TableRecord()
        """What the table agreed, as this seat holds it: the seed round, the seats' keys, the steps it applied,
        its own beacon chain (None after losing its save) and the book of every seat's chain (record.py)."""
        self.dealer_commit = b""
        self.share = b""
        self.result: Result | None = None
        self.problems: list[str] = []
        self.listen_port = 0
        self.host_addr = ""
        self.host_port = 0
        self._move_task: asyncio.Task[Any] | None = None
        self._person: asyncio.Future[Action] | None = None
        self._person_early: tuple[int, Action] | None = None
        self.stand_in: StandIn | None = None
        """At a fair-dealer table with a person in this seat: its turn timer, kept here (standin.py)."""
        self.clock = TurnClock(0, 0, 1)
        """The seat to move's time and every seat's bank, as this process measures them (turnclock.py);
        the table's clock from the game's start."""
        self.check_host: HostCheck | None = None
        """Checks the key the table proves on join (lan.join_table: advertised, pinned, known hosts)."""
        self.host_fingerprint = ""
        """The fingerprint the host proved in the handshake (not what any message claims)."""
        self.takeover: TableHost | None = None
        """The table this peer hosts after a failover (phase HOSTING)."""
        self.joined_at: float | None = None
        self.seated_at: float | None = None
        self.host_changes = 0
        self.views: dict[int, bytes] = {}
        """Ply → digest of each private view the host sent us (the audit checks them)."""
        self.dealt_by: list[tuple[int, int]] = []
        """(first ply, host seat) for each host that dealt part of this game."""
        self.evidence: list[str] = []
        """What the host did that an honest host cannot do, naming who signed what (fails the audit)."""
        self.botted: set[int] = set()
        """Seats the host announced as played by its bot (a bot step for another signed seat is evidence)."""
        self.linked = -1
        """The ply whose link we sent on this connection (-1: none yet)."""
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
        # Each phase owns its state; its constructor names all it may touch (the record, this seat as
        # its outbox, the clock, the phases it works with, and the seat as its own small Protocol).
        rec, clock = self.record, self.clock
        self.saves = PeerSaves(rec, clock, self)
        """This seat's save and the writer that keeps it (peersave.py)."""
        self.checker = StepCheck(rec, self, clock, self.saves, self)
        """Every step and resync checked on our own core (stepcheck.py)."""
        self.audit = PeerAudit(rec, self, self.checker, self)
        """The end of a committed game: our own audit, then every seat's final digest (audit.py)."""
        self.fair_peer = FairPeer(rec, self, clock, self.audit, self.saves, self)
        """At a fair-dealer table: this seat's rounds (`.fair`), a forfeit's verdict, its own end (fairpeer.py)."""
        self.seed = PeerSeed(rec, self, clock, self.fair_peer, self.saves, self)
        """The commit-reveal seed round and the game's start (peerseed.py)."""
        self.lobby_view = LobbyView(self, clock, self.fair_peer, self.saves, self)
        """Who sits where, who is away or played by a bot, chat, hand-overs (lobbyview.py)."""
        self.failover = PeerFailover(rec, self, self.fair_peer, self.saves, self, reconnect_for=reconnect_for)
        """The host lost: reconnecting, choosing a new host or becoming it; this seat's listener (peerfailover.py)."""

    # ---- public API ------------------------------------------------------------
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
        return self.seat in self.botted and self.fair_peer.fair is None

    @property
    def bot_idle(self) -> float:
        """While :attr:`bot_plays`: seconds our person had not moved when the bot took the seat."""
        return self.stand_in.idle if self.stand_in is not None else self.lobby_view.botted_idle

    def take_back(self) -> bool:
        """Our person takes the seat back from the bot (False: no bot had it). At a committed table the
        host's bot has it: the host is told (a signed AutoPlay "off") and asks our next move of us."""
        if self.stand_in is not None:
            return self.stand_in.take_back()
        if not self.bot_plays or self.conn is None or self.state is None:
            return False
        self.conn.send_nowait(self.autoplay(False, self.state.ply))
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
        self.listen_port = await self.failover.listen(self.bind, resume.listen_port if resume else 0)
        restored: FairSeat | None = None
        if resume is not None and resume.fair:
            # Replaying a fair seat's transcript checks every proof in it: off the loop, before connecting.
            try:
                restored = await asyncio.to_thread(restore_fair, self.game, resume)
            except (FairDealError, msgspec.DecodeError, msgspec.ValidationError, ValueError) as e:
                # Nothing is written over it: the file stays as it is for a person to look at.
                raise Refusal(
                    f"our saved seat at {resume.table.name!r} is damaged and does not restore ({e}); the save "
                    "is left as it is, and without it this seat's key is lost, so the seat cannot go on"
                ) from None
        self.joined_at = time.perf_counter()
        conn, answered = await connect_to_table(
            self.network,
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
            self.saves.restore(resume)
            self.checker.rebook()
            if restored is not None:
                self.fair_peer.restart(restored, resume.fair_sent)
        await self.hello(conn, resume_ply=len(self.record.steps) if resume is not None else -1)
        if restored is not None and resume is not None and self.fair_peer.fair is not None:
            # What we sent last may never have reached the table (a host that froze, then stood down).
            self.fair_peer.send_own(conn)

    async def run(self) -> Result:
        """Play until the game ends (reconnecting and failing over as needed)."""
        try:
            while self.result is None:
                if self.takeover is not None:
                    if self.advertise_on_takeover:
                        self.failover.spawn_advert()
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
                if self.audit.pending is not None:
                    self.audit.conclude(None)  # the table closed before relaying the final digests
                    break
                if await self.fair_peer.host_closed_verdict():
                    break  # the host closed its verdict: ours is read from the answers we hold
                if self.state is None:
                    raise Refusal("the table closed before the game started")
                await self.failover.recover()
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
        self.fair_peer.close()
        # A finished game's save is deleted once the writes before it are done.
        await self.saves.close(self.saves.path if self.phase is PeerPhase.FINISHED else None)
        if self.conn is not None and not keep_link:
            await self.conn.close()
        self.failover.close_listener()

    # ---- connection -------------------------------------------------------------

    async def hello(self, conn: Link, *, resume_ply: int = -1, failover: bool = False) -> None:
        conn.send_nowait(
            m.Join(
                name=self.name,
                port=self.listen_port,
                resume_ply=resume_ply,
                share=self.share if failover else b"",
                steps=self.record.steps if failover else [],
                linkless=self.record.chain is None,  # the host heeds it only once the game is on
            )
        )
        try:
            msg = await asyncio.wait_for(conn.recv(), JOIN_TIMEOUT)
        except TimeoutError:
            if conn.refused:  # it answered, with something this app cannot read: say what, not "timed out"
                await conn.close()
                raise Refusal(f"the table's answer was refused: {conn.refused[-1][1]}") from None
            raise
        for _ in range(3):  # a refusal may come after the notice that explains it
            if not isinstance(msg, m.Notice):
                break
            self.problem(f"table says: {msg.text}")
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
        self.linked = -1  # a new connection: a link sent on the old one may be lost
        if self.phase is PeerPhase.RESYNCING:
            self.phase = PeerPhase.PLAYING  # a new connection: the host sends a Sync anyway
        self.seated_at = time.perf_counter()
        if self.chooser is not None and self.state is None:
            conn.send_nowait(m.Ready(ready=True))

    async def _serve(self, conn: Link) -> None:
        watch = asyncio.ensure_future(
            heartbeat(
                conn,
                HOST_SILENCE,
                self.failover.host_silent_for,
                # While we audit, we read nothing: the host's answers wait unread, not missing.
                excused=lambda: self.audit.auditing,
                counts=lambda: self.phase is not PeerPhase.LOBBY,
            )
        )
        try:
            await self._serve_messages(conn)
        finally:
            watch.cancel()

    async def _serve_messages(self, conn: Link) -> None:
        while True:
            msg = await conn.recv()
            if msg is None:
                return
            await self._handle_safely(conn, msg)
            if self.evidence and self.result is None and self.audit.pending is None and self.state is not None:
                self.audit.leave_on_evidence()
            if self.result is not None:
                if self.linger and self.result.audit_ok and not conn.closed and self._after is None:
                    self._after = asyncio.ensure_future(self._after_end(conn))
                else:
                    await conn.close()
                return

    def problem(self, text: str) -> None:
        """Something this seat saw go wrong: kept, logged and shown."""
        self.problems.append(text)
        log.warning("%s", text)
        self.emit(Problem(text))

    def send(self, msg: m.Message) -> None:
        """To the host on the connection open now (nothing while this seat is cut off)."""
        if self.conn is not None:
            self.conn.send_nowait(msg)

    async def _handle(self, conn: Link, msg: m.Message) -> None:
        if isinstance(msg, m.Lobby):
            self.lobby_view.on_lobby(msg)
        elif isinstance(msg, m.Chat):
            self.lobby_view.on_chat(msg)
        elif isinstance(msg, m.CommitRequest):
            await self.seed.on_request(conn, msg)
        elif isinstance(msg, m.Commits):
            self.seed.on_commits(conn, msg)
        elif isinstance(msg, m.Begin):
            self.seed.begin(msg)
        elif isinstance(msg, m.Step):
            self.checker.on_step(conn, msg)
        elif isinstance(msg, m.Fair):
            self.fair_peer.on_fair(msg)
        elif isinstance(msg, m.Sync):
            if self.fair_peer.fair is not None:
                self.fair_peer.fair.resume()  # a fair table's host has sent every message it relayed
            else:
                self.checker.on_sync(msg)
            await self.audit.after_sync(conn)
        elif isinstance(msg, m.Presence):
            self.lobby_view.on_presence(msg)
        elif isinstance(msg, m.HandOver):
            self.lobby_view.on_hand_over(msg)
        elif isinstance(msg, m.End):
            await self.audit.on_end(conn, msg)
        elif isinstance(msg, m.Finals):
            self.audit.on_finals(msg)
        elif isinstance(msg, m.Refuse):
            if "beacon link" in msg.reason and self.state is not None and self.linked == self.state.ply:
                self.evidence.append(
                    f"the table says we withheld our beacon link for the draw at ply {self.linked}, but we sent it"
                )
                self.problem(self.evidence[-1])
            self.problem(f"the table sent us away: {msg.reason}")
            await conn.close()
        elif isinstance(msg, m.Notice):
            self.problem(f"table says: {msg.text}")
        elif isinstance(msg, m.Ping):
            conn.send_nowait(m.Pong(t=msg.t))
        elif isinstance(msg, m.Pong):
            pass
        elif isinstance(msg, m.Rematch):
            self._on_rematch(msg)
        else:
            self.problem(f"refused {type(msg).__name__} from the table: not a host message")

    # ---- after the end ----------------------------------------------------------------
    async def _after_end(self, conn: Link) -> None:
        """Keep reading the host after the end (`linger`): chat, pings, a rematch offer; until either side leaves."""
        while True:
            msg = await conn.recv()
            if msg is None:
                self.host_left = True
                self.emit(HostLeft())  # our own close cancels this task first: this is the host's
                return
            await self._handle_safely(conn, msg)

    async def _handle_safely(self, conn: Link, msg: m.Message) -> None:
        """One message from the host, during play or after the end: what breaks our handling is refused."""
        try:
            await self._handle(conn, msg)
        except Exception as e:  # a hostile or buggy host must not crash us
            log.exception("handling %s", type(msg).__name__)
            self.problem(f"refused {type(msg).__name__} from the table: {e}")

    def _on_rematch(self, msg: m.Rematch) -> None:
        why = rematch_refusal(self.result is not None and self.linger, self.rematch_port, msg.port)
        if why is not None:
            self.problem(why)
        else:
            self.rematch_port = msg.port
            self.emit(RematchOffered(msg.port))

    def kept_record(self, meta: dict[str, str] | None = None) -> GameRecord | None:
        """The whole game to keep once it is over (the same as :meth:`full_record` for a seat)."""
        return self.full_record(meta)

    def verdict_record(self) -> VerdictRecord | None:
        """A game ended by forfeit, as this seat keeps it (forfeit.VerdictRecord); None otherwise (a seat
        that took over as host keeps the one its host's part made)."""
        if self.takeover is not None and self.takeover.verdict_record() is not None:
            return self.takeover.verdict_record()
        return self.fair_peer.verdict_record

    def full_record(self, meta: dict[str, str] | None = None) -> GameRecord | None:
        """The whole game, every sealed value in it, as a record the replay viewer and the end
        screen read (audit.py rebuilds it); None before the End, or when the rebuild fails."""
        if self.fair_peer.fair is not None:
            return fair_record(self.fair_peer.fair, meta)
        return self.audit.full_record(meta)

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

    # ---- playing our seat ------------------------------------------------------
    def maybe_move(self, *, force: bool = False) -> None:
        """Our seat is to move: think (or ask our person) and send it (`force`: anew, after a resync)."""
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
        self.checker.sent_at = time.perf_counter()
        text = str(action)
        sig = self.identity.sign(fp.act_message(self.record.joint, view.ply, self.seat, text))
        self.checker.sent = (view.ply, text, sig)  # the step that applies it must carry this very move
        self.conn.send_nowait(m.Act(ply=view.ply, action=text, sig=sig))

    def maybe_link(self) -> None:
        """At a chance node our view's public part lists outcomes for: send our link unasked (saves a round trip)."""
        st = self.state
        if st is None or self.record.chain is None or self.conn is None or self.phase is not PeerPhase.PLAYING:
            return
        if self.linked == st.ply or not beacon.link_due(st):
            return
        self.linked = st.ply
        self.conn.send_nowait(m.Link(ply=st.ply, link=self.record.chain.link(beacon.index_of(st.ply))))

    def autoplay(self, on: bool, ply: int) -> m.AutoPlay:
        """Our signed word to the table that our own bot plays our seat from `ply` (on) or we are back."""
        sig = self.identity.sign(autoplay_message(self.record.joint, ply, self.seat, on))
        return m.AutoPlay(seat=self.seat, ply=ply, on=on, sig=sig)
