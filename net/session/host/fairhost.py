"""The host's side of a fair-dealer table: its seats' rounds, the relay of every seat's messages, the end.

At a fair-dealer table (docs/fairplay.md, fairtable.py) the host holds only its own
seat's view: each seat played in this process (the host's own, each bot seat, or with
neither an observer) is a :class:`~.fairtable.FairDriver`, and :class:`FairHost` runs
them, relays every seat's :class:`~messages.Fair` messages to the others, keeps the
public record and the host seat's save, times the rounds, and audits the game at its end.
Two parts of it keep state of their own: the table's clock at a fair table (who is out of
time, whose own bot plays, when a round has stalled: :class:`~.fairtimer.FairTimer`) and a
forfeit with the answers it collects (:class:`~.fairforfeit.Forfeits`).
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import msgspec

from coldwater.core.notation import Action
from coldwater.core.rng import Rng
from coldwater.core.state import Bot, State

from ... import fairplay as fp
from ... import messages as m
from ...fairdeal.deck import FairDealError
from ...fairdeal.seat import FairSeat
from ...link import Link, Network
from ...transport import Refusal
from ..events import Chooser, Finished, GameStarted, Problem, Result, StepApplied, scores_of
from ..failover import FAIR_SAVE_EVERY, Handover, fair_peer_save
from ..fairtable import FairDriver, fair_record
from ..fairwire import Allowance, fair_message
from ..persist import Saver, safe_name
from ..standin import StandIn
from .fairforfeit import Forfeits
from .shared import HostPhase, Outbox, Remote, TableTerms, Tasks

if TYPE_CHECKING:
    from coldwater.core.record import GameRecord

    from ..record import TableRecord
    from ..turnclock import TurnClock
    from .ending import Finals
    from .fairtimer import FairTimer

log = logging.getLogger("coldwater.net")

RESEND_SLACK = 64
"""Known messages a seat may send again on one connection beyond all it ever sent (a reconnect resends
its own once, and a round's message may cross the host's copy)."""


class FairHostTable(Protocol):
    """What :class:`FairHost` reads and sets of the host beyond its record, terms and clock: the seats
    and who plays the host's own, the table's life and result, where it listens, the seat list."""

    @property
    def remotes(self) -> dict[int, Remote]: ...

    @property
    def host_seat(self) -> int: ...

    @property
    def chooser(self) -> Chooser | None: ...

    @property
    def problems(self) -> list[str]: ...

    @property
    def cheaters(self) -> list[str]: ...

    @property
    def linger(self) -> bool: ...

    @property
    def port(self) -> int: ...

    @property
    def network(self) -> Network:
        """Where the table's links come from: a frozen host asks there whether a peer hosts it now."""

    phase: HostPhase
    result: Result | None

    def lobby(self) -> list[m.SeatInfo]: ...


class FairHost:
    """The fair-dealer rounds of one host (``TableHost.fair_host``); idle at a committed table."""

    def __init__(
        self,
        record: TableRecord,
        out: Outbox,
        tasks: Tasks,
        clock: TurnClock,
        terms: TableTerms,
        host: FairHostTable,
        *,
        timer: FairTimer,
        finals: Finals,
        handover: Handover | None = None,
    ) -> None:
        """`timer` is the table's clock at a fair table (fairtimer.py), `finals` gathers and relays the seats'
        signed final digests, `handover` is a failover's (its driver goes on here)."""
        self.table_record = record
        """The table's shared record (record.py); :attr:`record` is the driver the public record is kept from."""
        self.out = out
        self.tasks = tasks
        self.clock = clock
        self.terms = terms
        self.host = host
        self.timer = timer
        self.finals = finals
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
        self.fair_log: list[m.Fair] = []
        """Every fair-table message this host sent or relayed (for a seat that reconnects). Bounded: each
        seat's part by :attr:`relayed`, the host's own and its bots' by the game."""
        self.sent_back: set[tuple[str, int, str, int]] = set()
        """Rounds whose first message went back to its seat (a second, different one came; see on_fair)."""
        self.relayed = Allowance()
        """How much of each remote seat's messages the relay log holds (fairwire.SEAT_BYTES): counted as
        each is relayed, before the drivers here take it on the next turn of the loop."""
        self._resent: dict[int, tuple[Link | None, int, int]] = {}
        """Per seat: its connection and how many known messages it sent again on it (see on_fair)."""
        self.forfeits = Forfeits(
            record,
            out,
            tasks,
            terms,
            host,
            driver=lambda: self.record,
            drivers=self.local_drivers,
            log=self.fair_log,
        )
        """The forfeit, once one is declared: the seats named, the proposal, every seat's answer (fairforfeit.py)."""
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
        self.fair_log[:] = drv.messages()
        drv.send = self.send
        drv.secret_sent = lambda: self.save(now=True)
        on_step = handover.on_step

        def stepped() -> None:
            if on_step is not None:
                on_step()  # the peer's own part first (its view), as before it hosted
            self.stepped()

        drv.stepped = stepped
        self.resuming = True
        self.timer.ex_host = handover.save.host_seat

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
        tips = {s: t for s, t in fp.tips(reveals).items() if 0 <= s < self.terms.info.players}
        # Every driver here signs as this host and sends through it; they differ in seat and moves.
        driver = partial(FairDriver, identity=self.terms.identity, keys=keys, tips=tips, send=self.send)
        if self.host.host_seat >= 0:
            assert self.table_record.chain is not None
            seat = FairSeat(
                self.terms.game,
                self.terms.info.players,
                self.host.host_seat,
                self.table_record.joint,
                self.terms.options,
                chain=self.table_record.chain,
            )
            chooser = self.host.chooser
            if chooser is None:
                # The person at the host (submit()), on the turn timer: only this process can play for them.
                self.stand_in = StandIn(
                    self.terms.game,
                    self.terms.info.turn,
                    lambda on, ply: self.timer.seat_autoplay(self.host.host_seat, on),
                    clock=self.clock,
                    strict=self.terms.info.strict,
                    out_of_time=lambda ply: self.timer.out_of_time(self.host.host_seat),
                )
            stand_in = self.timer.stand_in = self.stand_in

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
        for i, chain in sorted(self.table_record.bot_chains.items()):
            # A seat of its own: its key, its chain and its view live in this object only. The bot
            # plays from that view (as a peer's bot does), never from another seat's. It keeps no
            # save: its key lives and dies with this process (docs/fairplay.md, "Bot seats").
            bot_seat = FairSeat(
                self.terms.game, self.terms.info.players, i, self.table_record.joint, self.terms.options, chain=chain
            )
            bot = self.terms.game.bot(self.terms.game.bots[0])

            async def bot_choose(view: State[Any, Any], bot: Bot = bot) -> Action:
                return await asyncio.to_thread(bot.choose, view, Rng(os.urandom(16)))

            self.fair_bots[i] = driver(  # signed by the host for its bots (their SeatInfo carries its key)
                bot_seat,
                choose=bot_choose,
                stepped=self.stepped if self.fair is None and i == min(self.table_record.bot_chains) else lambda: None,
            )
        if self.fair is None and not self.fair_bots:
            # No seat here: an observer follows the table from every seat's messages (which this host
            # relays anyway), checks them as a seat does and keeps the public view. It holds no key and
            # no layer, so it can read only what every seat opened to everyone; it sends nothing, and
            # no round waits for it.

            async def no_move(view: State[Any, Any]) -> Any:
                raise FairDealError("an observer has no move to make")

            self.fair_watch = driver(
                FairSeat(self.terms.game, self.terms.info.players, None, self.table_record.joint, self.terms.options),
                choose=no_move,
                stepped=self.stepped,
            )
        self.host.phase = HostPhase.PLAYING
        self.out.emit(GameStarted(self.host.host_seat))

    def full_record(self, meta: dict[str, str] | None = None) -> GameRecord | None:
        """The whole game as the audit of the driver the public record is kept from replayed it, once
        every key is out (None before then, and at a committed table)."""
        drv = self.record
        return fair_record(drv, meta) if drv is not None else None

    @property
    def save_path(self) -> Path | None:
        """Where this host's own seat at a fair table is saved: as a peer's save, so that the process,
        restarted after a failover, comes back to its seat with ``coldwater join TABLE``."""
        return (
            self.terms.save_dir / f"lan-peer-{safe_name(self.terms.name)}.json"
            if self.terms.save_dir is not None
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
                self.terms.info,
                drv,
                host_seat=self.host.host_seat,
                seats=self.host.lobby(),
                reveals=self.table_record.reveals,
                commits=self.table_record.commits,
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
        self.clock.at(fs.view.ply, fs.view.current, time.monotonic())
        # The public record, for watchers: each step as everyone knows it (a drawn piece is "draw").
        self.table_record.steps.append(
            m.Step(ply=fs.view.ply, seat=fs.last[0], digest=rec.digest(), action=fs.last_public)
        )
        self.save()
        # The host's person sees its own seat's steps as it knows them; a bot's view stays the bot's.
        self.out.emit(StepApplied(fs.view.ply, fs.last[0], fs.last[1] if rec is self.fair else fs.last_public))

    def on_fair(self, r: Remote, conn: Link, msg: m.Fair) -> None:
        """A seat's message: its own and genuine (else refused), relayed unchanged to the others, then taken here."""
        drv = self.record
        if drv is not None and msg.kind in ("verdict", "dispute") and self.forfeits.forfeit is not None:
            # An answer to the forfeit is taken whenever it comes, the game's end included: an answer
            # sent before the stated deadline is never refused (docs/lan.md, "The verdict").
            why = drv.check(msg) if msg.seat == r.seat else f"seat {r.seat + 1} sent a message as seat {msg.seat + 1}"
            if why is not None:
                self.out.refuse(conn, "fair", why)
            else:
                self.forfeits.answer(r, conn, msg)
            return
        if drv is None or self.host.phase is not HostPhase.PLAYING:
            self.out.refuse(conn, "fair", "this table is not dealing with the fair dealer now")
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
                self.out.refuse(conn, "fair", f"a known {msg.kind} message sent again ({n} copies on one connection)")
            return
        why = drv.check(msg) if msg.seat == r.seat else f"seat {r.seat + 1} sent a message as seat {msg.seat + 1}"
        if why is None and msg.kind in ("verdict", "dispute"):
            self.out.refuse(conn, "fair", f"a {msg.kind} with no forfeit to answer")
            return
        if why is None and not drv.known(msg):
            why = self.relayed.why_not(msg)
        if why is not None:
            self.out.refuse(conn, "fair", why)
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
                self.out.refuse(conn, "fair", f"a third {msg.kind} message for ply {msg.ply}")
                return
            self.sent_back.add(key)
            conn.send_nowait(old)
            return
        self.relayed.keep(msg)
        self.send(msg)

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
        self.clock.at(drv.fs.view.ply, drv.fs.view.current, quiet_since)
        while not drv.over.done():
            # A seat played here that failed on its own (it checks every message too) ends the game for all
            # (below: the seats its error names forfeit).
            failed = next((d for d in local if d.over.done() and not d.over.cancelled() and d.over.exception()), None)
            if failed is not None:
                e = failed.over.exception()
                drv.fail(e if isinstance(e, FairDealError) else FairDealError(str(e)))
                break
            late = self.forfeits.waits_on(drv)
            if late:
                # Its messages relayed before the strike reach the drivers here on later turns of the loop.
                await asyncio.sleep(0.5)
                late = self.forfeits.waits_on(drv)
            if late:
                await self.forfeits.declare(late, "; ".join(self.forfeits.forfeiting[s] for s in late), "struck")
                break
            self.timer.tell_out_of_time()
            drv.changed.clear()
            try:
                async with asyncio.timeout(1.0):  # short ticks: a stall is measured from the last change
                    await drv.changed.wait()
                quiet_since = time.monotonic()
                continue
            except TimeoutError:
                if time.monotonic() - quiet_since < self.timer.strip_timeout:
                    continue
            await asyncio.sleep(0.5)  # after a freeze: let the closed connections be seen first
            if await self._replaced():
                break
            stalled = self.timer.stalled(local, time.monotonic() - quiet_since)
            if stalled is not None:
                seats = [s for s in stalled.culprits if isinstance(s, int)]
                await self.forfeits.declare(
                    seats, str(stalled), self.forfeits.cause(seats, str(stalled), self.timer.ex_host)
                )
                break
        if self.replaced_by >= 0:
            return await self._stand_down()
        if self.forfeits.forfeit is None and drv.over.done() and not drv.over.cancelled():
            e = drv.over.exception()
            named = [s for s in getattr(e, "culprits", ()) if isinstance(s, int) and s in self.host.remotes]
            if named:  # a seat's own signed message failed the check here (and at every other seat)
                await self.forfeits.declare(named, str(e), "failed")
        if self.forfeits.forfeit is not None:
            return await self._end_by_verdict(local)
        self.finals.ply = drv.fs.view.ply
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
            await self.finals.relay([r for r in self.host.remotes.values() if r.present])
        self._close_drivers(local)
        if self._saver is not None:
            # A game played to its end leaves nothing to come back to; one that ended early keeps the
            # seat's save (a frozen host that wakes to find the table gone must not delete its seat).
            delete = self.save_path if final is not None else None
            await asyncio.to_thread(self._saver.close, delete=delete)
            self._saver = None
        self.host.result = Result(
            game=self.terms.game.name,
            table=self.terms.name,
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
        self.out.emit(Finished(self.host.result))
        for r in self.host.remotes.values():
            if r.conn is not None:
                await r.conn.drain()
        if not self.host.linger:
            await self.tasks.wait(lambda: all(not r.present for r in self.host.remotes.values()), 5.0)
        return self.host.result

    async def _end_by_verdict(self, local: list[FairDriver]) -> Result:
        """The game's end by the forfeit declared (fairforfeit.py): the standings the honest seats signed."""
        rec = self.record
        if rec is not None:
            self.finals.ply = rec.fs.view.ply
        self.host.phase = HostPhase.ENDED
        result = self.forfeits.end(local)
        self._close_drivers(local)
        if self._saver is not None:
            await asyncio.to_thread(self._saver.close, delete=self.save_path)
            self._saver = None
        self.host.result = result
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
            if game == self.terms.game.name:
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
            game=self.terms.game.name,
            table=self.terms.name,
            seat=self.host.host_seat,
            scores={},
            digest="",
            plies=drv.fs.view.ply,
            outcome="replaced: " + text,
            audit_ok=False,
            problems=[text],
        )
        self.out.emit(Finished(self.host.result))
        return self.host.result

    def abort(self, text: str) -> None:
        """Tell every seat, signed, why the game ends (they name the same seats)."""
        drv = self.record
        assert drv is not None
        body = text.encode()
        # Signed as the host's seat, or (a host with no seat) as the first bot seat it runs: same key;
        # with no seat in this process at all, as the host (seat -1), whose key its channel proved.
        by = drv.fs.seat if self.host.host_seat < 0 and drv.fs.seat is not None else self.host.host_seat
        sig = self.terms.identity.sign(fair_message(self.table_record.joint, "abort", drv.fs.view.ply, "", by, body))
        msg = m.Fair(kind="abort", ply=drv.fs.view.ply, seat=by, body=body, sig=sig)
        self.fair_log.append(msg)
        for r in self.host.remotes.values():
            if r.present and r.conn is not None:
                r.conn.send_nowait(msg)
        self.out.broadcast(m.Notice(text=text))
        self.out.emit(Problem(text))
