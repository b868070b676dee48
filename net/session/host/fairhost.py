"""The host's side of a fair-dealer table: its seats' rounds, the relay of every seat's messages, the end.

At a fair-dealer table (docs/fairplay.md, fairtable.py) the host holds only its own
seat's view: each seat played in this process (the host's own, each bot seat, or with
neither an observer) is a :class:`~.fairtable.FairDriver`, and :class:`FairHost` runs
them, relays every seat's :class:`~messages.Fair` messages to the others, keeps the
public record and the host seat's save, times the rounds, and audits the game at its end.
It reaches the rest of the table through :class:`~.hostcore.HostCore`.

One module of ~750 lines, on purpose: every part of it (the drivers, the relay and its
log, the save, the round timer, the forfeit and the answers it collects, the audit) reads
and writes the same few fields of one fair table's rounds, and the run loop that ties
them together is short only because they sit beside it.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from functools import partial
from pathlib import Path
from typing import Any

import msgspec

from coldwater.core.notation import Action
from coldwater.core.rng import Rng
from coldwater.core.state import Bot, State

from ... import fairplay as fp
from ... import messages as m
from ...fairdeal.deck import FairDealError
from ...fairdeal.seat import FairSeat
from ...link import Link
from ...transport import Refusal
from .. import forfeit as ff
from ..events import Finished, GameStarted, Problem, Result, StepApplied
from ..failover import EX_HOST_WAIT, FAIR_RETURN_WAIT, FAIR_SAVE_EVERY, Handover, fair_peer_save
from ..fairtable import FairDriver
from ..fairwire import STRIP_TIMEOUT, Allowance, fair_message
from ..persist import Saver, safe_name
from ..standin import StandIn
from ..turnclock import game_spent, idle_words, out_of_time_text
from .hostcore import HostCore, HostPhase, Remote, scores_of

log = logging.getLogger("coldwater.net")

RESEND_SLACK = 64
"""Known messages a seat may send again on one connection beyond all it ever sent (a reconnect resends
its own once, and a round's message may cross the host's copy)."""

ACT_GRACE = 30.0
"""Seconds a connected seat's move may take at a fair table, once its bot is due to play it, before the
seat forfeits: past its move's time and its bank at a strict table, past another player's hand-over at a
normal one (turnclock.py). Its own app's bot plays it then, so only a seat that plays no move stalls."""


class FairHost:
    """The fair-dealer rounds of one host (``TableHost.fair_host``); idle at a committed table."""

    def __init__(self, host: HostCore, handover: Handover | None = None) -> None:
        self.host = host
        self.fair: FairDriver | None = None
        """At a fair-dealer table: this host's own seat's rounds (it holds only its own view); None without one."""
        self.fair_bots: dict[int, FairDriver] = {}
        """At a fair-dealer table: each bot seat's rounds, a seat of its own (its key, chain and view) run in
        this process. The host's person-seat code reads only :attr:`fair`, never these."""
        self.fair_watch: FairDriver | None = None
        """At a fair-dealer table with no seat in this process (no host seat, no bot): an observer's rounds
        (no key, no layer, the public view), which this host keeps the table's public record from."""
        self.stand_in: StandIn | None = None
        """At a fair-dealer table with a person in the host's seat: that seat's turn timer, kept here (the
        only process that holds its view), which hands it to this process's bot when the person is slow."""
        self.host_by_bot = False
        """At a fair-dealer table: the host's own seat is played by its process's bot (told to everyone)."""
        self.fair_log: list[m.Fair] = []
        """Every fair-table message this host sent or relayed (for a seat that reconnects). Bounded: each
        seat's part by :attr:`relayed`, the host's own and its bots' by the game."""
        self.sent_back: set[tuple[str, int, str, int]] = set()
        """Rounds whose first message went back to its seat (a second, different one came; see on_fair)."""
        self.relayed = Allowance()
        """How much of each remote seat's messages the relay log holds (fairwire.SEAT_BYTES): counted as
        each is relayed, before the drivers here take it on the next turn of the loop."""
        self.strip_timeout = STRIP_TIMEOUT
        self.act_grace = ACT_GRACE
        self.answer_by = ff.VERDICT_WAIT
        self._resent: dict[int, tuple[Link | None, int, int]] = {}
        """Per seat: its connection and how many known messages it sent again on it (see on_fair)."""
        """Seconds a forfeit's proposal gives every seat to answer (stated in it; tests shorten it)."""
        self.return_wait = FAIR_RETURN_WAIT
        """At a fair table: seconds an away seat has to come back before a round waiting on it ends the game."""
        self.ex_host = -1
        """After a failover: the seat of the host this one replaced (it has EX_HOST_WAIT to come back)."""
        self.handed: dict[int, tuple[int, float]] = {}
        """Seats another player handed to a bot, out of time: (ply, when). Past ACT_GRACE with no move
        from the seat's own process, a normal table's seat forfeits (stalled)."""
        self._told_out = -1
        """The ply at which a remote seat was last announced out of time (once a move)."""
        self.forfeiting: dict[int, str] = {}
        """Seats that forfeit as soon as a round waits on them (struck out), and why."""
        self.forfeit: ff.Forfeit | None = None
        """The forfeit this host proposed (the game's end once the other seats sign it)."""
        self.verdicts: list[m.Fair] = []
        """Each seat's signature over :attr:`forfeit` (this process's seats' among them)."""
        self.disputes: list[str] = []
        """Seats that answered the forfeit with why they cannot sign it."""
        self.proposal: m.Fair | None = None
        """The signed message of :attr:`forfeit`, as sent."""
        self.verdict_record: ff.VerdictRecord | None = None
        """The game ended by forfeit, as this host keeps it (forfeit.VerdictRecord), once it ended."""
        self._saver: Saver | None = None
        self.resuming = False
        """A peer took this fair table over: no lobby, no round; its rounds go on (a handover's driver)."""
        self.replaced_by = -1
        """At a fair table: the seat that hosts it now, found when this host woke from a freeze with every
        peer gone (its own seat then goes on as a peer, from its save: :attr:`save_path`)."""
        if handover is not None and handover.fair is not None:
            self._adopt(handover, handover.fair)

    def _adopt(self, handover: Handover, drv: FairDriver) -> None:
        """A fair table taken over by the peer that hands over its own seat's rounds (`drv`): they go on as
        they were, sending through this host's relay, which starts from every message the peer holds."""
        self.fair = drv
        self.fair_log = drv.messages()
        drv.send = self.send
        drv.secret_sent = lambda: self.save(now=True)
        on_step = handover.on_step

        def stepped() -> None:
            if on_step is not None:
                on_step()  # the peer's own part first (its view), as before it hosted
            self.stepped()

        drv.stepped = stepped
        self.resuming = True
        self.ex_host = handover.save.host_seat

    @property
    def record(self) -> FairDriver | None:
        """The driver whose view this host keeps the table's public record from: its own seat's, or
        (a host with no seat) its first bot seat's, or with no bot either its observer's. Only the
        public part of that view is used."""
        if self.fair is not None:
            return self.fair
        return self.fair_bots[min(self.fair_bots)] if self.fair_bots else self.fair_watch

    def local_drivers(self) -> list[FairDriver]:
        """Every driver in this process at a fair table: the host's own seat and each bot's, or its observer."""
        own = [d for d in (self.fair, self.fair_watch) if d is not None]
        return own + [self.fair_bots[s] for s in sorted(self.fair_bots)]

    def begin(self, seats_info: list[m.SeatInfo], reveals: dict[int, bytes]) -> None:
        keys = {s.seat: s.key for s in seats_info if s.key}
        tips = {s: t for s, t in fp.tips(reveals).items() if 0 <= s < self.host.info.players}
        # Every driver here signs as this host and sends through it; they differ in seat and moves.
        driver = partial(FairDriver, identity=self.host.identity, keys=keys, tips=tips, send=self.send)
        if self.host.host_seat >= 0:
            assert self.host.record.chain is not None
            seat = FairSeat(
                self.host.game,
                self.host.info.players,
                self.host.host_seat,
                self.host.record.joint,
                self.host.options,
                chain=self.host.record.chain,
            )
            chooser = self.host.chooser
            if chooser is None:
                # The person at the host (submit()), on the turn timer: only this process can play for them.
                self.stand_in = StandIn(
                    self.host.game,
                    self.host.info.turn,
                    lambda on, ply: self.seat_autoplay(self.host.host_seat, on),
                    clock=self.host.clock,
                    strict=self.host.info.strict,
                    out_of_time=lambda ply: self.out_of_time(self.host.host_seat),
                )
            stand_in = self.stand_in

            async def choose(view: State[Any, Any]) -> Action:
                if chooser is not None:
                    return await chooser(view, self.host.host_seat)
                assert stand_in is not None
                return await stand_in.choose(view)

            self.fair = driver(
                seat,
                choose=choose,
                stepped=self.stepped,
                secret_sent=lambda: self.save(now=True),
            )
            self.save(now=True)  # the seat's key is on disk before its share leaves
        for i, chain in sorted(self.host.record.bot_chains.items()):
            # A seat of its own: its key, its chain and its view live in this object only. The bot
            # plays from that view (as a peer's bot does), never from another seat's. It keeps no
            # save: its key lives and dies with this process (docs/fairplay.md, "Bot seats").
            bot_seat = FairSeat(
                self.host.game, self.host.info.players, i, self.host.record.joint, self.host.options, chain=chain
            )
            bot = self.host.game.bot(self.host.game.bots[0])

            async def bot_choose(view: State[Any, Any], bot: Bot = bot) -> Action:
                return await asyncio.to_thread(bot.choose, view, Rng(os.urandom(16)))

            self.fair_bots[i] = driver(  # signed by the host for its bots (their SeatInfo carries its key)
                bot_seat,
                choose=bot_choose,
                stepped=self.stepped if self.fair is None and i == min(self.host.record.bot_chains) else lambda: None,
            )
        if self.fair is None and not self.fair_bots:
            # No seat here: an observer follows the table from every seat's messages (which this host
            # relays anyway), checks them as a seat does and keeps the public view. It holds no key and
            # no layer, so it can read only what every seat opened to everyone; it sends nothing, and
            # no round waits for it.

            async def no_move(view: State[Any, Any]) -> Any:
                raise FairDealError("an observer has no move to make")

            self.fair_watch = driver(
                FairSeat(self.host.game, self.host.info.players, None, self.host.record.joint, self.host.options),
                choose=no_move,
                stepped=self.stepped,
            )
        self.host.phase = HostPhase.PLAYING
        self.host.emit(GameStarted(self.host.host_seat))

    @property
    def save_path(self) -> Path | None:
        """Where this host's own seat at a fair table is saved: as a peer's save, so that the process,
        restarted after a failover, comes back to its seat with ``coldwater join TABLE``."""
        return (
            self.host.save_dir / f"lan-peer-{safe_name(self.host.name)}.json"
            if self.host.save_dir is not None
            else None
        )

    def save(self, *, now: bool = False) -> None:
        path, drv = self.save_path, self.fair
        if path is None or drv is None:
            return
        if self._saver is None:
            self._saver = Saver(every=FAIR_SAVE_EVERY)

        def make() -> bytes:
            assert drv is not None
            save = fair_peer_save(
                self.host.info,
                drv,
                host_seat=self.host.host_seat,
                seats=self.host.lobby(),
                reveals=self.host.record.reveals,
                commits=self.host.record.commits,
                listen_port=self.host.port,
            )
            return msgspec.json.encode(save)

        if now:
            self._saver.save_now(path, make)
        else:
            self._saver.save(path, make)

    def send(self, msg: m.Fair) -> None:
        """A message of a seat played here (the host's or a bot's), or one relayed: to every other seat."""
        self.fair_log.append(msg)
        for r in self.host.remotes.values():
            if r.present and r.seat != msg.seat:
                assert r.conn is not None
                r.conn.send_nowait(msg)
        # The other seats in this process take it on the next turn of the loop, not inside the
        # sender's round (a driver is never re-entered while it takes one).
        loop = asyncio.get_running_loop()
        for drv in self.local_drivers():
            if drv.fs.seat != msg.seat:
                loop.call_soon(drv.receive, msg)

    def stepped(self) -> None:
        rec = self.record
        assert rec is not None
        fs = rec.fs
        self.host.clock.at(fs.view.ply, fs.view.current, time.monotonic())
        # The public record, for watchers: each step as everyone knows it (a drawn piece is "draw").
        self.host.record.steps.append(
            m.Step(ply=fs.view.ply, seat=fs.last[0], digest=rec.digest(), action=fs.last_public)
        )
        self.save()
        # The host's person sees its own seat's steps as it knows them; a bot's view stays the bot's.
        self.host.emit(StepApplied(fs.view.ply, fs.last[0], fs.last[1] if rec is self.fair else fs.last_public))

    def on_fair(self, r: Remote, conn: Link, msg: m.Fair) -> None:
        """A seat's message: its own and genuine (else refused), relayed unchanged to the others, then taken here."""
        drv = self.record
        if drv is not None and msg.kind in ("verdict", "dispute") and self.forfeit is not None:
            # An answer to the forfeit is taken whenever it comes, the game's end included: an answer
            # sent before the stated deadline is never refused (docs/lan.md, "The verdict").
            why = drv.check(msg) if msg.seat == r.seat else f"seat {r.seat + 1} sent a message as seat {msg.seat + 1}"
            if why is not None:
                self.host.refuse(conn, "fair", why)
            else:
                self._answer(r, conn, msg)
            return
        if drv is None or self.host.phase is not HostPhase.PLAYING:
            self.host.refuse(conn, "fair", "this table is not dealing with the fair dealer now")
            return
        if msg.seat == r.seat and drv.known(msg):
            # Sent again (a reconnect resends everything once, and the others have it): checked before
            # the signature, so copies cost no verification; past once what the seat ever sent on one
            # connection, each copy is refused, a strike (a seat replaying its own messages is struck).
            last, n, limit = self._resent.get(r.seat, (None, 0, 0))
            if last is not conn:
                # Once a connection: all the seat's messages this table holds (a new host after a
                # failover, or a seat restored from its save, gets every one of them again).
                n, limit = 0, sum(1 for x in drv.messages() if x.seat == r.seat) + RESEND_SLACK
            n += 1
            self._resent[r.seat] = (conn, n, limit)
            if n > limit:
                self.host.refuse(conn, "fair", f"a known {msg.kind} message sent again ({n} copies on one connection)")
            return
        why = drv.check(msg) if msg.seat == r.seat else f"seat {r.seat + 1} sent a message as seat {msg.seat + 1}"
        if why is None and msg.kind in ("verdict", "dispute"):
            self.host.refuse(conn, "fair", f"a {msg.kind} with no forfeit to answer")
            return
        if why is None and not drv.known(msg):
            why = self.relayed.why_not(msg)
        if why is not None:
            self.host.refuse(conn, "fair", why)
            return
        if drv.known(msg):
            return  # sent again after a reconnect: the others have it
        old = drv.inbox.get((msg.kind, msg.ply, msg.ref), {}).get(msg.seat)
        if old is not None:
            # A second, different message for a round (the seat restarted and made it anew): the table
            # keeps the first, which the others may hold already, and sends it back to be adopted. A
            # restarted seat does so once a round; more is a seat making messages to be sent back.
            key = (msg.kind, msg.ply, msg.ref, msg.seat)
            if key in self.sent_back:
                self.host.refuse(conn, "fair", f"a third {msg.kind} message for ply {msg.ply}")
                return
            self.sent_back.add(key)
            conn.send_nowait(old)
            return
        self.relayed.keep(msg)
        self.send(msg)

    def _answer(self, r: Remote, conn: Link, msg: m.Fair) -> None:
        """A seat's answer to the forfeit proposed: its signature over it, or why it cannot sign it (with,
        from the accused, its own messages for that ply). Taken before and after the deadline alike;
        only a second answer from the same seat, or one over another forfeit, is refused."""
        f = self.forfeit
        assert f is not None
        old = next((v for v in self.verdicts if v.seat == msg.seat), None)
        if old is not None:
            # The same answer again is a resend (counted, as every known message sent again); another
            # one is a seat changing its word, which the table never takes.
            self.host.refuse(conn, "fair", f"a second {msg.kind} from seat {msg.seat + 1} (its answer is kept)")
            return
        if msg.kind == "verdict" and (r.seat in f.seats or msg.body != ff.encode(f) or msg.ply != f.ply):
            self.host.refuse(conn, "fair", "a verdict over another forfeit than the one proposed")
            return
        if msg.ply != f.ply:
            self.host.refuse(conn, "fair", f"a dispute of a forfeit at ply {msg.ply}, not the one proposed")
            return
        self.verdicts.append(msg)
        if self.host.phase is HostPhase.ENDED and self.host.result is not None:
            text = f"{r.name} (seat {r.seat + 1}) answered the forfeit after this host's deadline ({msg.kind}); kept"
            log.warning("%s", text)
        if msg.kind == "dispute":
            d = ff.decode_dispute(msg.body)
            keys = self.record.keys if self.record is not None else {}
            backed = ff.genuine_evidence(f, d, msg.seat, self.host.record.joint, keys.get(msg.seat))
            note = " (with its evidence for that ply)" if backed else ""
            text = f"{r.name} (seat {r.seat + 1}) does not sign the forfeit{note}: {d.text}"
            self.disputes.append(text)
            self.host.emit(Problem(text))
        for other in self.host.remotes.values():
            if other.present and other.seat != msg.seat and other.conn is not None:
                other.conn.send_nowait(msg)
        self.host.wake()

    def strike(self, seat: int, why: str) -> None:
        """`seat` was struck out: it forfeits as soon as a round waits on it (no one can play its layer)."""
        self.forfeiting.setdefault(seat, why)
        rec = self.record
        if rec is not None:
            rec.changed.set()

    def out_of_time(self, seat: int) -> None:
        """At a normal table: the host's own person is out of time and keeps the seat; the others are told."""
        text = out_of_time_text(self.host.host_name, seat, self.host.info.turn)
        log.warning("%s", text)
        self.host.broadcast(m.Notice(text=text))
        self.host.emit(Problem(text))

    def _tell_out_of_time(self) -> None:
        """A present remote seat ran out of time at a normal table: everyone is told, once a move, by this
        host's clock (the seat's own process tells its person by its own)."""
        clock, now = self.host.clock, time.monotonic()
        if self.host.info.strict or not clock.out(now) or self._told_out == clock.ply:
            return
        r = self.host.remotes.get(clock.seat)
        if r is None or not r.present or r.timed_out or r.by_bot:
            return
        self._told_out = clock.ply
        text = out_of_time_text(r.name, r.seat, self.host.info.turn)
        log.warning("%s", text)
        self.host.broadcast(m.Notice(text=text), exclude=r.seat)
        self.host.emit(Problem(text))

    def seat_autoplay(self, seat: int, on: bool) -> None:
        """At a fair table: `seat`'s own process plays it with its bot now (`on`: its person did not move
        within the turn timer), or its person is back. Told to everyone, as for a timed-out seat."""
        r = self.host.remotes.get(seat)
        clock, turn = self.host.clock, self.host.info.turn
        if r is not None:
            r.timed_out = on
            name, away = r.name, not r.present
            # This host's clock of the seat's move (the bot has not moved yet when its seat says so).
            idle = clock.elapsed(time.monotonic()) if clock.seat == seat else float(turn)
        else:
            self.host_by_bot = on
            name, away = self.host.host_name, False
            idle = self.stand_in.idle if self.stand_in is not None else float(turn)
        if on:
            words = idle_words(idle, turn, game_spent(clock, seat, time.monotonic()))
            text = f"{name} (seat {seat + 1}) {words}; their own app plays the seat until they return"
            self.host.problems.append(text)
        else:
            text = f"{name} (seat {seat + 1}) is back; their own app's bot stops playing the seat"
        log.warning("%s", text)
        self.host.broadcast(m.Notice(text=text), exclude=seat)  # the seat's own process said it to its person
        self.host.broadcast(m.Presence(seat=seat, away=away, by_bot=on))
        self.host.emit(Problem(text))
        self.host.lobby_changed()

    def stalled(self, quiet: float = 0.0) -> FairDealError | None:
        """The error that ends a round stalled past the timer at any seat played here (None: none is).
        `quiet`: seconds since the table last moved on."""
        for drv in self.local_drivers():
            w = drv.waiting
            if w is None or not w[1]:
                continue
            # A person may think as long as they like; a program's message is due at once,
            # and so is a move from a seat whose player is gone (once it had time to come back).
            gone = all(s in self.host.remotes and not self.host.remotes[s].present for s in w[1])
            wait = min(self.return_wait, EX_HOST_WAIT) if self.ex_host in w[1] else self.return_wait
            back_soon = gone and time.monotonic() - min(self.host.remotes[s].heard for s in w[1]) < wait
            turn = self.host.info.turn
            if w[0][0] == "act" and not gone and turn > 0 and (why := self._act_due(w[1], quiet)):
                # The seat's own app plays it once its bot is due to; this one did not.
                return FairDealError(f"seat(s) {', '.join(str(s + 1) for s in w[1])} {why}", w[1])
            if (w[0][0] != "act" or gone) and not back_soon:
                (kind, ply, _), late = w
                return FairDealError(
                    f"seat(s) {', '.join(str(s + 1) for s in late)} did not send their {kind} for ply {ply} "
                    f"within {self.strip_timeout:.0f} s: no one else holds their layer, so the game "
                    "cannot go on without them and ends",
                    late,
                )
        return None

    def _act_due(self, seats: list[int], quiet: float) -> str:
        """Why the move awaited from `seats` (present) is overdue past every allowance ('' while it is not).
        A strict table: the move's time, the seat's bank and ACT_GRACE. A normal one: ACT_GRACE after
        another player handed the seat, out of time, to a bot; until then its person may think on."""
        clock, now, turn = self.host.clock, time.monotonic(), self.host.info.turn
        if self.host.info.strict:
            if clock.seat in seats:
                over = clock.over_by(now)
            else:  # (the clock has not seen this move start: counted from the table's last change)
                over = quiet - turn - max(clock.bank_left(now, s) for s in seats)
            if over < self.act_grace:
                return ""
            game = self.host.info.game_time
            if game and clock.seat in seats and clock.game_left(now) <= 0:
                return (
                    f"used its whole time for the game ({game} s) and did not move within {self.act_grace:.0f} s more"
                )
            return (
                f"did not move within the turn timer ({turn} s), the time bank ({self.host.info.bank} s) and "
                f"{self.act_grace:.0f} s more"
            )
        handed = [s for s in seats if s in self.handed and self.handed[s][0] == clock.ply]
        if not handed or now - min(self.handed[s][1] for s in handed) < self.act_grace:
            return ""
        return (
            f"ran out of time, was handed to a bot by another player and played no move within {self.act_grace:.0f} s"
        )

    async def run(self) -> Result:
        """The game's rounds until the end, the host's timer on every round but a person's move, then the audit."""
        drv = self.record
        assert drv is not None
        local = self.local_drivers()
        for d in local:
            d.changed = drv.changed  # any seat played here that moves on wakes the timer below
        for d in local:
            d.pump()
        quiet_since = time.monotonic()
        self.host.clock.at(drv.fs.view.ply, drv.fs.view.current, quiet_since)
        while not drv.over.done():
            # A seat played here that failed on its own (it checks every message too) ends the game for all
            # (below: the seats its error names forfeit).
            failed = next((d for d in local if d.over.done() and not d.over.cancelled() and d.over.exception()), None)
            if failed is not None:
                e = failed.over.exception()
                drv.fail(e if isinstance(e, FairDealError) else FairDealError(str(e)))
                break
            late = self._waits_on_forfeiting(drv)
            if late:
                # Its messages relayed before the strike reach the drivers here on later turns of the loop.
                await asyncio.sleep(0.5)
                late = self._waits_on_forfeiting(drv)
            if late:
                await self.declare(late, "; ".join(self.forfeiting[s] for s in late), "struck")
                break
            self._tell_out_of_time()
            drv.changed.clear()
            try:
                async with asyncio.timeout(1.0):  # short ticks: a stall is measured from the last change
                    await drv.changed.wait()
                quiet_since = time.monotonic()
                continue
            except TimeoutError:
                if time.monotonic() - quiet_since < self.strip_timeout:
                    continue
            await asyncio.sleep(0.5)  # after a freeze: let the closed connections be seen first
            if await self._replaced():
                break
            stalled = self.stalled(time.monotonic() - quiet_since)
            if stalled is not None:
                seats = [s for s in stalled.culprits if isinstance(s, int)]
                await self.declare(seats, str(stalled), self._cause(seats, str(stalled)))
                break
        if self.replaced_by >= 0:
            return await self._stand_down()
        if self.forfeit is None and drv.over.done() and not drv.over.cancelled():
            e = drv.over.exception()
            named = [s for s in getattr(e, "culprits", ()) if isinstance(s, int) and s in self.host.remotes]
            if named:  # a seat's own signed message failed the check here (and at every other seat)
                await self.declare(named, str(e), "failed")
        if self.forfeit is not None:
            return await self._end_by_verdict(local)
        self.host.phase = HostPhase.ENDED  # peers' signed finals may come while this host still audits
        problems = list(self.host.problems)
        scores: dict[str, int] = {}
        outcome, digest, plies, final = "", "", drv.fs.view.ply, None
        try:
            rep = await drv.audit(drv.over.result())
            if not rep.ok:
                problems.append("AUDIT FAILED: " + "; ".join(rep.problems))
            else:
                final = rep.full
                assert final is not None  # an audit that passed replayed the whole game
                scores, outcome = scores_of(final)
                digest, plies = final.digest(), final.ply
        except FairDealError as e:
            text = f"the game ends: {e}"
            problems.append(text)
            self.host.cheaters.append(text)
            self.abort(text)
            outcome = "ended: " + str(e)
        if final is not None:
            await self.host.relay_finals([r for r in self.host.remotes.values() if r.present])
        self._close_drivers(local)
        if self._saver is not None:
            # A game played to its end leaves nothing to come back to; one that ended early keeps the
            # seat's save (a frozen host that wakes to find the table gone must not delete its seat).
            delete = self.save_path if final is not None else None
            await asyncio.to_thread(self._saver.close, delete=delete)
            self._saver = None
        self.host.result = Result(
            game=self.host.game.name,
            table=self.host.name,
            seat=self.host.host_seat,
            scores=scores,
            digest=digest,
            plies=plies,
            outcome=outcome,
            audit_ok=final is not None and not any(p.startswith("AUDIT FAILED") for p in problems),
            problems=problems,
        )
        return await self._publish()

    @staticmethod
    def _close_drivers(local: list[FairDriver]) -> None:
        for d in local:
            if d.over.done() and not d.over.cancelled():
                d.over.exception()  # retrieved: a bot seat's copy of the same error is not news
            d.close()

    async def _publish(self) -> Result:
        """The game's result (host.result) to the app, then the last messages out, and the seats a while to go."""
        assert self.host.result is not None
        self.host.emit(Finished(self.host.result))
        for r in self.host.remotes.values():
            if r.conn is not None:
                await r.conn.drain()
        if not self.host.linger:
            await self.host.wait(lambda: all(not r.present for r in self.host.remotes.values()), 5.0)
        return self.host.result

    def _waits_on_forfeiting(self, drv: FairDriver) -> list[int]:
        w = drv.waiting
        return sorted(s for s in (w[1] if w is not None else []) if s in self.forfeiting)

    def _cause(self, seats: list[int], text: str) -> str:
        """What kind of forfeit a stalled round is (forfeit.CAUSES): gone when every seat named is away
        from the table, clock for a move past its time, stall for a program's message withheld."""
        if seats and all(s in self.host.remotes and not self.host.remotes[s].present for s in seats):
            return "gone"
        if self.ex_host in seats:
            return "gone"  # the host this one replaced: every seat saw it go
        return "clock" if "did not move" in text or "ran out of time" in text else "stall"

    async def declare(self, seats: list[int], reason: str, cause: str = "stall") -> None:
        """Propose that `seats` forfeit (signed, to every seat), sign it for this process's own seats, and
        wait for every present seat's answer (the accused's too) until the deadline it states."""
        drv = self.record
        assert drv is not None
        f = ff.propose(drv.fs.view, seats, reason, cause, self.answer_by)
        self.forfeit = f
        body, ply, digest = ff.encode(f), f.ply, drv.digest()
        by = drv.fs.seat if self.host.host_seat < 0 and drv.fs.seat is not None else self.host.host_seat
        sig = self.host.identity.sign(fair_message(self.host.record.joint, "forfeit", ply, "", by, body, digest))
        proposal = m.Fair(kind="forfeit", ply=ply, seat=by, body=body, sig=sig, digest=digest)
        self.proposal = proposal
        self.fair_log.append(proposal)
        text = f"the game ends: {ff.outcome(f)}"
        log.warning("%s", text)
        self.host.problems.append(text)
        self.host.emit(Problem(text))
        mine = [d.fs.seat for d in self.local_drivers() if d.fs.seat is not None and d.fs.seat not in f.seats]
        for seat in mine:
            vsig = self.host.identity.sign(fair_message(self.host.record.joint, "verdict", ply, "", seat, body, digest))
            self.verdicts.append(m.Fair(kind="verdict", ply=ply, seat=seat, body=body, sig=vsig, digest=digest))
        for r in self.host.remotes.values():
            if r.present and r.conn is not None:
                r.conn.send_nowait(proposal)
                for v in self.verdicts:
                    r.conn.send_nowait(v)

        def answered() -> bool:
            return all(any(v.seat == s for v in self.verdicts) or not r.present for s, r in self.host.remotes.items())

        await self.host.wait(answered, f.answer_by)  # each answer wakes it, and so does a seat leaving

    async def _end_by_verdict(self, local: list[FairDriver]) -> Result:
        """The game's end by a forfeit: the standings the honest seats signed (no audit: the forfeiting
        seats' keys are not revealed, so the hidden values stay hidden)."""
        f = self.forfeit
        assert f is not None
        self.host.phase = HostPhase.ENDED
        keys = self.record.keys if self.record is not None else {}
        j = ff.judge(f, self.verdicts, self.host.record.joint, keys, self.host.info.players)
        names = {s.seat: s.name for s in self.host.lobby()}
        verdict = ff.standings_text(f, names)
        if self.proposal is not None and self.record is not None:
            self.verdict_record = ff.make_record(
                game=self.host.game.name,
                table=self.host.name,
                players=self.host.info.players,
                seat=self.host.host_seat,
                joint=self.host.record.joint,
                keys=keys,
                proposer=self.host.identity.public,
                names=names,
                proposal=self.proposal,
                answers=self.verdicts,
                messages=self.record.messages(),
                steps=self.host.record.steps,
            )
        problems = [*self.host.problems, *self.disputes, f"the verdict is {ff.verdict_text(j)}"]
        for d in local:
            d.fail(FairDealError(ff.outcome(f), f.seats))
        self._close_drivers(local)
        if self._saver is not None:
            await asyncio.to_thread(self._saver.close, delete=self.save_path)
            self._saver = None
        self.host.result = Result(
            game=self.host.game.name,
            table=self.host.name,
            seat=self.host.host_seat,
            scores=ff.scores(f),
            digest="",
            plies=f.ply,
            outcome=ff.outcome(f),
            audit_ok=False,
            problems=problems,
            forfeit=list(f.seats),
            verdict=verdict,
            signed_by=j.signed_by,
            contested=j.contested,
            disputed_by=j.disputed_by,
        )
        return await self._publish()

    async def _replaced(self) -> bool:
        """Every peer left at once and the first of them answers as a table of this game: the peers chose
        a new host while this one was frozen or cut off (failover). Its seat must go on there."""
        if not self.host.remotes or any(r.present for r in self.host.remotes.values()):
            return False
        for r in sorted(self.host.remotes.values(), key=lambda x: x.seat):
            if not r.addr or not r.port:
                continue
            try:
                game, _, _, _ = await self.host.network.probe_table(r.addr, r.port, timeout=2.0)
            except Refusal:
                return False  # not hosting (a peer's listener hangs up when it is not the host)
            if game == self.host.game.name:
                self.replaced_by = r.seat
                return True
            return False
        return False

    async def _stand_down(self) -> Result:
        """The table has a new host: stop here, keeping this seat's save, for this seat to rejoin it.
        (Bot seats run here have no save: their layers end with this process.)"""
        drv = self.record
        assert drv is not None
        for d in self.local_drivers():
            d.close()
        self.save(now=True)  # the seat goes on from its save: it must be the latest
        if self._saver is not None:
            await asyncio.to_thread(self._saver.close)
            self._saver = None
        text = f"seat {self.replaced_by + 1} hosts this table now (failover while this host was away)"
        log.warning("%s; our seat goes on from its save", text)
        self.host.result = Result(
            game=self.host.game.name,
            table=self.host.name,
            seat=self.host.host_seat,
            scores={},
            digest="",
            plies=drv.fs.view.ply,
            outcome="replaced: " + text,
            audit_ok=False,
            problems=[text],
        )
        self.host.emit(Finished(self.host.result))
        return self.host.result

    def abort(self, text: str) -> None:
        """Tell every seat, signed, why the game ends (they name the same seats)."""
        drv = self.record
        assert drv is not None
        body = text.encode()
        # Signed as the host's seat, or (a host with no seat) as the first bot seat it runs: same key;
        # with no seat in this process at all, as the host (seat -1), whose key its channel proved.
        by = drv.fs.seat if self.host.host_seat < 0 and drv.fs.seat is not None else self.host.host_seat
        sig = self.host.identity.sign(fair_message(self.host.record.joint, "abort", drv.fs.view.ply, "", by, body))
        msg = m.Fair(kind="abort", ply=drv.fs.view.ply, seat=by, body=body, sig=sig)
        self.fair_log.append(msg)
        for r in self.host.remotes.values():
            if r.present and r.conn is not None:
                r.conn.send_nowait(msg)
        self.host.broadcast(m.Notice(text=text))
        self.host.emit(Problem(text))
