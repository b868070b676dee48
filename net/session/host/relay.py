"""The host's relay of a committed LAN game: moves asked and checked, chance drawn, every step broadcast.

The host's :class:`~coldwater.net.play.table.Table` asks :meth:`Relay.remote` for a remote
seat's move (the seat's signed :class:`~messages.Act`, or its bot once the turn timer
runs out) and :meth:`Relay.chance` for a draw (the dealer's, or a public draw from the
seats' beacon links). Each applied action goes out as a :class:`~messages.Step` that
carries the peer's new view where the peer cannot derive it. A peer that reports a
digest mismatch, or comes back, is resynced (:meth:`Relay.sync`). The relay also builds
that table when the game starts (:meth:`Relay.start_table`) and gives a seat to a bot
(:meth:`Relay.give_to_bot`).
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from typing import TYPE_CHECKING, Any, Protocol

import msgspec

from coldwater.core import record as game_record
from coldwater.core.errors import IllegalAction, NotationError
from coldwater.core.notation import Action
from coldwater.core.rng import Rng
from coldwater.core.state import CHANCE, State

from ... import beacon
from ... import fairplay as fp
from ... import messages as m
from ...identity import verify
from ...link import Link
from ...play.table import Applied, Seat, SeatKind, Table
from ...play.table import Event as TableEvent
from ..events import Chooser, GameStarted, Problem, StepApplied
from ..fairwire import AHEAD, autoplay_message
from ..persist import HostTable, pack_view, safe_name
from ..turnclock import TurnClock, game_spent, idle_words, out_of_time_text
from .shared import HostPhase, Outbox, Remote, TableTerms, fp_text

if TYPE_CHECKING:
    from ..record import TableRecord
    from .beacons import Beacons
    from .fairhost import FairHost

log = logging.getLogger("coldwater.net")


class RelayTable(Protocol):
    """What :class:`Relay` reads and sets of the host beyond its record, terms and clock: who sits where
    and who plays them, the committed dealer, the table it builds."""

    @property
    def remotes(self) -> dict[int, Remote]: ...

    @property
    def kinds(self) -> list[str]: ...

    @property
    def host_seat(self) -> int: ...

    @property
    def host_name(self) -> str: ...

    @property
    def chooser(self) -> Chooser | None: ...

    @property
    def extra_bots(self) -> set[int]:
        """Seats that were remote (or the old host's) and are now played by a bot here."""

    @property
    def dealer(self) -> fp.CommittedDealer: ...

    @property
    def dealer_ok(self) -> bool: ...

    @property
    def phase(self) -> HostPhase: ...

    @property
    def problems(self) -> list[str]: ...

    table: Table | None


class Relay:
    """The moves, draws and steps of one host's committed game (``TableHost.relay``)."""

    def __init__(
        self,
        record: TableRecord,
        out: Outbox,
        clock: TurnClock,
        terms: TableTerms,
        host: RelayTable,
        *,
        beacons: Beacons,
        fair_host: FairHost,
    ) -> None:
        self.record = record
        self.out = out
        self.clock = clock
        self.terms = terms
        self.host = host
        self.beacons = beacons
        """The public draws' links, gathered before each draw."""
        self.fair_host = fair_host
        """At a fair table: its rounds, whose messages a seat coming back is sent again."""
        self._draw: fp.Draw | None = None
        self._links: dict[int, bytes] | None = None
        self._views: dict[int, State[Any, Any]] = {}
        """Each remote seat's view as that peer holds it (to know when a step must carry the view)."""
        self._act_waiters: dict[int, asyncio.Future[Action | None]] = {}
        self._early: dict[int, tuple[int, Action]] = {}
        self._sigs: dict[int, bytes] = {}
        """The signature of the move each remote seat sent for the position now being played."""
        self._bot_move = False
        self._bot = terms.game.bot(terms.game.bots[0])

    def _seat_objects(self) -> list[Seat]:
        bot = self.terms.game.bots[0]
        host = self.host
        out: list[Seat] = []
        for i, kind in enumerate(host.kinds):
            if i in host.extra_bots:
                out.append(Seat(SeatKind.BOT, f"Seat {i + 1} (bot)", bot=bot))
            elif kind == "host":
                out.append(Seat(SeatKind.REMOTE if host.chooser is not None else SeatKind.PERSON, host.host_name))
            elif kind == "bot":
                out.append(Seat(SeatKind.BOT, f"{bot} bot", bot=bot))
            else:
                out.append(Seat(SeatKind.REMOTE, host.remotes[i].name or f"Seat {i + 1}"))
        return out

    def start_table(self, state: State[Any, Any], rec: game_record.GameRecord) -> None:
        """The committed game starts (or goes on after a takeover) at `state`: the host's table, played here."""
        terms = self.terms
        save = None
        if terms.save_dir is not None:
            save = terms.save_dir / f"lan-host-{safe_name(terms.name)}.json"
        table = HostTable(
            terms.game, state, self._seat_objects(), rec, save_path=save, chance=self.chance, remote=self.remote
        )
        self.host.table = table
        self.reset_views(state)
        table.subscribe(self.on_applied)
        self.out.emit(GameStarted(self.host.host_seat))

    def give_to_bot(self, r: Remote) -> None:
        """Seat `r` is played by a bot here for good (its player withheld its part or kept cheating)."""
        r.by_bot = True
        self.host.extra_bots.add(r.seat)
        if self.host.table is not None:
            self.host.table.seats[r.seat] = Seat(SeatKind.REMOTE, f"{r.name} (bot)")
        self.out.broadcast(m.Presence(seat=r.seat, away=False, by_bot=True))
        self.release(r.seat)  # the waiting turn is played by the bot now
        self.out.lobby_changed()

    def reset_views(self, state: State[Any, Any]) -> None:
        """The game (re)starts at `state`: each remote seat holds its view of it."""
        self._views = {seat: state.view(seat) for seat in self.host.remotes}

    def release(self, seat: int) -> None:
        """`seat` is played by a bot now: a move awaited from its person is not awaited any more."""
        fut = self._act_waiters.get(seat)
        if fut is not None and not fut.done():
            fut.set_result(None)

    def on_act(self, r: Remote, conn: Link, msg: m.Act) -> None:
        t = self.host.table
        if t is None:
            self.out.refuse(conn, "act", "the game has not started")
            return
        if t.state.current != r.seat:
            self.out.refuse(conn, "act", f"out of turn: it is not seat {r.seat + 1}'s turn")
            return
        if msg.ply != t.state.ply:
            self.out.refuse(conn, "act", f"stale move for ply {msg.ply}; the table is at ply {t.state.ply}")
            return
        try:
            action = self.terms.game.parse_action(msg.action)
        except NotationError as e:
            self.out.refuse(conn, "act", f"not a move: {e}")
            return
        if not t.state.is_legal(action):
            self.out.refuse(conn, "act", f"illegal: {t.state.why_illegal(action)}")
            return
        why = fp.check_act(self.record.seat_keys, self.record.joint, msg.ply, r.seat, msg.action, msg.sig)
        if why is not None:
            self.out.refuse(conn, "act", f"{'forged' if msg.sig else 'unsigned'} move: {why}")
            return
        fut = self._act_waiters.get(r.seat)
        if r.timed_out:
            if fut is not None and not fut.done():
                self.back_from_bot(r)  # the bot is racing the person for this move: the person's wins
            else:
                # The bot is making this move already (its Step must go out while the seat is botted,
                # or every peer would take it for the host's cheating): the person has the next one.
                r.back_asked = True
        self._sigs[r.seat] = msg.sig
        if fut is None or fut.done():
            # A valid move for this very position that arrived before the table asked
            # for it (just after a resync or a failover): keep it for when it does.
            self._early[r.seat] = (t.state.ply, action)
            return
        fut.set_result(action)

    def back_from_bot(self, r: Remote) -> None:
        r.timed_out = r.back_asked = False
        self.out.broadcast(m.Presence(seat=r.seat, away=not r.present, by_bot=False))
        self.out.lobby_changed()
        self.out.emit(Problem(f"{r.name} (seat {r.seat + 1}) is back; the bot stops playing the seat"))

    def on_mismatch(self, r: Remote, conn: Link, msg: m.Mismatch) -> None:
        """A peer reports a digest it does not share: one resync in flight, from the ply the peer has."""
        if not r.resyncs.take():
            self.out.refuse(conn, "mismatch", "too many resync requests")
            return
        if conn.unsent() > 0:
            self.out.refuse(conn, "mismatch", "a resync is already on its way; read it first")
            return
        self.out.emit(Problem(f"seat {r.seat + 1} reports a digest mismatch after ply {msg.ply}; resyncing it"))
        self.sync(r, msg.ply)

    def sync(self, r: Remote, from_ply: int, *, fair: bool = False) -> None:
        """Send a peer its view now and every public step since `from_ply` (resume, repair)."""
        rec = self.fair_host.record
        if rec is not None and r.conn is not None:
            # A fair table has no view to send: the seat's process kept its own, and gets again
            # every message it may have missed (it drops those it has).
            for msg in self.fair_host.fair_log:  # its own too: a seat restarted from its save adopts them
                r.conn.send_nowait(msg)
            r.conn.send_nowait(m.Sync(ply=rec.fs.view.ply, view=b""))  # that was all
            return
        if self.host.table is None or r.conn is None:
            return
        from_ply = min(max(from_ply, 0), len(self.record.steps))
        st = self.host.table.state
        self._views[r.seat] = st.view(r.seat)
        fs = (
            m.FairState(
                commits=self.record.commits,
                reveals=self.record.reveals,
                dealer=self.host.dealer.commitment,
                share=r.share,
                keys=self.record.seat_keys,
            )
            if fair and self.record.reveals
            else None
        )
        r.conn.send_nowait(
            m.Sync(ply=st.ply, view=pack_view(st.view(r.seat)), steps=self.record.steps[from_ply:], fair=fs)
        )

    async def chance(self, state: State[Any, Any]) -> Action:
        if self.beacons.is_public(state):
            links = await self.beacons.gather_links(state)
            withheld, self.beacons.withheld = self.beacons.withheld, []
            for r in withheld:  # named for holding their links back: their seats go to a bot
                self.give_to_bot(r)
            self._links = links
            self._draw = fp.Draw(beacon.draw(state, self.record.joint, links), False)
            return self._draw.action
        if not self.host.dealer_ok:
            raise fp.FairPlayError("this draw needs the dealer's secret, which no one holds after the failover")
        self._draw = self.host.dealer.draw(state)
        return self._draw.action

    async def remote(self, seat: int, view: State[Any, Any]) -> Action:
        if seat == self.host.host_seat and self.host.chooser is not None:
            return await self.host.chooser(view, seat)
        r = self.host.remotes.get(seat)
        if r is not None and r.timed_out and r.back_asked and not r.by_bot:
            self.back_from_bot(r)  # before this move is asked: told to everyone, then the person plays
        if r is not None and (r.by_bot or r.timed_out):
            return await self._bot_plays(view)
        early = self._early.pop(seat, None)
        if early is not None and early[0] == view.ply:
            return early[1]
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[Action | None] = loop.create_future()
        self._act_waiters[seat] = fut
        try:
            action = await self._person_or_time(seat, view, r, fut)
            if action is not None:
                return action
            # Timed out, or the seat was given to a bot meanwhile. A move the player still
            # sends while the bot thinks wins: it is their seat.
            bot = asyncio.ensure_future(asyncio.to_thread(self._bot.choose, view, Rng(os.urandom(16))))
            both: set[asyncio.Future[Action | None] | asyncio.Future[Action]] = {fut, bot}
            await asyncio.wait(both, return_when=asyncio.FIRST_COMPLETED)
            if fut.done() and (moved := fut.result()) is not None:
                bot.cancel()
                return moved
            self._bot_move = True
            return await bot
        finally:
            self._act_waiters.pop(seat, None)

    async def _person_or_time(
        self, seat: int, view: State[Any, Any], r: Remote | None, fut: asyncio.Future[Action | None]
    ) -> Action | None:
        """The person's move, or None once a bot is to play it (docs/lan.md, "The turn clock"): an absent
        seat after its move's time, a present one at a strict table after its move's time and its bank.
        A present seat out of time at a normal table keeps thinking, announced once, until it moves,
        drops, or another player hands it to a bot (Seating.hand_over releases `fut`)."""
        clock = self.clock
        clock.at(view.ply, seat, time.monotonic())
        announced = False
        while True:
            if not clock.running:
                return await fut  # no clock: the person thinks as long as they like
            now = time.monotonic()
            present = r is not None and r.present
            # An absent seat is not thinking: its bank is for a person at the table.
            left = clock.left(now) if present else clock.move_left(now)
            if left > 0:
                wait = min(left, 1.0)  # (presence may change meanwhile)
                try:
                    return await asyncio.wait_for(asyncio.shield(fut), wait)
                except TimeoutError:
                    continue
            if fut.done():
                return fut.result()
            if r is None or self.terms.info.strict or not present:
                if r is not None:
                    r.timed_out = True
                    self._name_slow(r)
                return None
            if not announced:
                announced = True
                self._name_out_of_time(r)
            try:
                return await asyncio.wait_for(asyncio.shield(fut), 1.0)
            except TimeoutError:
                continue

    def _name_out_of_time(self, r: Remote) -> None:
        text = out_of_time_text(r.name, r.seat, self.terms.info.turn)
        log.warning("%s", text)
        self.out.broadcast(m.Notice(text=text), exclude=r.seat)
        if r.conn is not None:
            r.conn.send_nowait(m.Notice(text="you are out of time: the other players may hand your seat to a bot"))
        self.out.emit(Problem(text))

    def _name_slow(self, r: Remote) -> None:
        clock, turn = self.clock, self.terms.info.turn
        now = time.monotonic()
        why = idle_words(
            clock.elapsed(now) if clock.seat == r.seat else float(turn), turn, game_spent(clock, r.seat, now)
        )
        text = f"{r.name} (seat {r.seat + 1}, {fp_text(r.key)}) {why}; a bot plays the seat until they return"
        self.host.problems.append(text)
        log.warning("%s", text)
        self.out.broadcast(m.Notice(text=text))
        self.out.broadcast(m.Presence(seat=r.seat, away=not r.present, by_bot=True))
        self.out.emit(Problem(text))
        self.out.lobby_changed()

    async def _bot_plays(self, view: State[Any, Any]) -> Action:
        self._bot_move = True
        return await asyncio.to_thread(self._bot.choose, view, Rng(os.urandom(16)))

    def on_applied(self, ev: TableEvent) -> None:
        if not isinstance(ev, Applied):
            return
        t = self.host.table
        assert t is not None
        st = t.state
        self.clock.at(st.ply, st.current, time.monotonic())  # the move made is charged, the next starts
        digest = fp.public_digest(st)
        draw, self._draw = self._draw, None
        links, self._links = self._links, None
        bot, self._bot_move = self._bot_move, False
        sealed = ev.seat == CHANCE and draw is not None and draw.sealed
        if sealed:
            assert draw is not None
            step = m.Step(ply=st.ply, seat=CHANCE, digest=digest, commit=draw.commit)
        elif ev.seat in self.record.seat_keys:
            # A signed seat: its own signature, the host's for the host's seat, or marked as a bot's move.
            if ev.seat == self.host.host_seat:
                sig = self.terms.identity.sign(fp.act_message(self.record.joint, st.ply - 1, ev.seat, ev.action))
                step = m.Step(ply=st.ply, seat=ev.seat, digest=digest, action=ev.action, sig=sig)
            else:
                sig = self._sigs.pop(ev.seat, b"")
                r = self.host.remotes.get(ev.seat)
                if bot or r is None or r.by_bot or ev.seat in self.host.extra_bots:
                    step = m.Step(ply=st.ply, seat=ev.seat, digest=digest, action=ev.action, bot=True)
                else:
                    step = m.Step(ply=st.ply, seat=ev.seat, digest=digest, action=ev.action, sig=sig)
        elif ev.seat == CHANCE and links is not None:
            step = m.Step(ply=st.ply, seat=CHANCE, digest=digest, action=ev.action, links=links)
            self.record.book.accept(st.ply - 1, links)
        else:
            step = m.Step(ply=st.ply, seat=ev.seat, digest=digest, action=ev.action)
        self.record.steps.append(step)
        for r in self.host.remotes.values():
            truth = st.view(r.seat)
            before = self._views.get(r.seat)
            self._views[r.seat] = truth
            if not r.present:
                continue  # it gets a Sync when it is back
            assert r.conn is not None
            out = step
            if step.sig and r.seat == ev.seat and r.seat != self.host.host_seat:
                out = msgspec.structs.replace(step, sig=b"")  # the mover has its own signature
            elif step.links and r.seat in step.links:
                # The peer has its own link (it puts it back; a draw made without it would not be the links' draw).
                out = msgspec.structs.replace(step, links={s: x for s, x in step.links.items() if s != r.seat})
            if sealed:
                assert draw is not None
                reveal = (
                    m.SealedReveal(action=str(draw.action), salt=draw.salt or b"") if r.seat in draw.owners else None
                )
                out = msgspec.structs.replace(step, view=pack_view(truth), reveal=reveal)
            elif not self._peer_can_follow(before, ev.action, truth):
                # The step reveals something the peer's view cannot derive (e.g. the end of the
                # game uncovers every secret): send the peer its new view with it.
                out = msgspec.structs.replace(step, view=pack_view(truth))
            r.conn.send_nowait(out)
        self.out.emit(StepApplied(st.ply, ev.seat, None if sealed else ev.action))

    def _peer_can_follow(self, before: State[Any, Any] | None, action: str, truth: State[Any, Any]) -> bool:
        """Whether a peer applying `action` to its view reaches exactly its true new view."""
        if before is None or before.ply + 1 != truth.ply:
            return False
        try:
            nxt = before.clone()
            nxt.apply(self.terms.game.parse_action(action))
        except (IllegalAction, NotationError):
            return False
        return nxt.digest() == truth.digest()

    def on_autoplay(self, r: Remote, conn: Link, msg: m.AutoPlay) -> None:
        """A seat's own word that its process's bot plays it now (or that its person is back): about itself
        only, signed by it; at a fair table with a turn timer told to everyone, at a committed one (only
        "back" is the seat's to say) honoured at the seat's next move."""
        drv = self.fair_host.record
        state = drv.fs.view if drv is not None else self.host.table.state if self.host.table is not None else None
        if state is None or self.host.phase is not HostPhase.PLAYING:
            self.out.refuse(conn, "autoplay", "no game is being played at this table now")
            return
        committed = drv is None
        if msg.seat != r.seat:
            self.out.refuse(
                conn, "autoplay", f"seat {r.seat + 1} spoke for seat {msg.seat + 1}: a seat speaks for itself"
            )
            return
        if not verify(r.key, msg.sig, autoplay_message(self.record.joint, msg.ply, msg.seat, msg.on)):
            self.out.refuse(conn, "autoplay", f"not signed by seat {r.seat + 1}")
            return
        if msg.on and committed:
            self.out.refuse(conn, "autoplay", "at this table the host plays a seat that runs out of time")
            return
        if msg.on and not self.terms.info.turn:
            self.out.refuse(conn, "autoplay", "this table has no turn timer: no seat runs out of time")
            return
        if abs(msg.ply - state.ply) > AHEAD:
            self.out.refuse(conn, "autoplay", f"for ply {msg.ply}, far from this table's ply {state.ply}")
            return
        if committed:
            # The host's bot plays a timed-out seat here; its person says "I am back" (Ctrl+T in the
            # app): the seat's next move is asked of them again. (A move of theirs does it too, but the
            # bot answers at once, so a move seldom gets the chance.) Not at once: a move the bot is
            # making now still goes out as the bot's, and every peer must see it while the seat is botted.
            if r.timed_out and r.autoplays.take():
                r.back_asked = True
            return
        if msg.on == r.timed_out:
            return  # said again after a reconnect: nothing new
        if not r.autoplays.take():
            self.out.refuse(conn, "autoplay", "too many turn-timer messages; slow down")
            return
        self.fair_host.timer.seat_autoplay(r.seat, msg.on)
