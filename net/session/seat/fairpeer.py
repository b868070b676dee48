"""The peer's side of a fair-dealer table: its own rounds, a forfeit's verdict, its own audit at the end.

At a fair-dealer table (docs/lan.md, "The fair dealer") this seat's process runs its own
:class:`~.fairtable.FairDriver` around its own :class:`~coldwater.net.fairdeal.seat.FairSeat`:
it holds only its own view, sends its own signed messages for each round, and checks every
other seat's the host relays. A seat that stalls a round forfeits only once every other
seat signs the host's proposal (forfeit.py); at the end every key is revealed and this seat
audits the game itself before it signs its final digest (audit.py compares them).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

import msgspec

from coldwater.core.notation import Action
from coldwater.core.state import Game, State

from ... import fairplay as fp
from ... import messages as m
from ...fairdeal.deck import FairDealError
from ...fairdeal.save import FairSave
from ...fairdeal.seat import WIRED, FairSeat
from ...identity import verify
from ...link import Link
from .. import forfeit as ff
from ..events import GameStarted, Result, StepApplied, scores_of
from ..failover import FAIR_SAVE_EVERY
from ..fairtable import FairDriver
from ..fairwire import fair_message
from ..persist import PeerSave, fair_damage
from ..standin import StandIn
from ..turnclock import SLACK, fmt, idle_words
from .shared import Outbox, PeerPhase

if TYPE_CHECKING:
    from ...identity import Identity
    from ..events import Chooser
    from ..host.host import TableHost
    from ..record import TableRecord
    from ..turnclock import TurnClock
    from .audit import PeerAudit
    from .peersave import PeerSaves


class FairPeerSeat(Protocol):
    """What a fair table's rounds read and write of the seat, beside the record, the clock and the phases."""

    game: Game[Any, Any]
    identity: Identity
    chooser: Chooser | None
    info: m.TableInfo | None
    seat: int
    seats: list[m.SeatInfo]
    host_seat: int
    gone_hosts: set[int]
    """Seats whose host this process replaced (failover): gone for good."""
    conn: Link | None
    """The connection to the host now (None while cut off)."""
    state: State[Any, Any] | None
    phase: PeerPhase
    stand_in: StandIn | None
    takeover: TableHost | None
    evidence: list[str]
    problems: list[str]
    result: Result | None

    def autoplay(self, on: bool, ply: int) -> m.AutoPlay: ...


async def _until(done: Callable[[], bool], seconds: float) -> None:
    end = asyncio.get_running_loop().time() + seconds
    while not done() and asyncio.get_running_loop().time() < end:
        await asyncio.sleep(0.05)


def restore_fair(game: Game[Any, Any], sv: PeerSave) -> FairSeat:
    """A fair seat from its save, every message in it taken again with every check."""
    why = fair_damage(sv)
    if why is not None:
        raise ValueError(why)
    return FairSeat.restore(game, msgspec.msgpack.decode(sv.fair, type=FairSave))


class FairPeer:
    """One peer's part in a fair-dealer table (``TablePeer.fair_peer``); idle at a committed one."""

    def __init__(
        self,
        record: TableRecord,
        out: Outbox,
        clock: TurnClock,
        audit: PeerAudit,
        saves: PeerSaves,
        seat: FairPeerSeat,
    ) -> None:
        self.record = record
        self.out = out
        self.clock = clock
        self.me = seat
        self.audit = audit
        """The end's signed finals, which a fair game's end waits for too."""
        self.saves = saves
        """The seat's save, written as its rounds go."""
        self.fair: FairDriver | None = None
        """This seat's rounds (fairtable.py); the peer's `state` is its own view."""
        self.task: asyncio.Task[Any] | None = None
        """Waiting for the game's end (:meth:`end`); a takeover cancels it."""
        self._forfeit: tuple[ff.Forfeit, m.Fair] | None = None
        """The forfeit the host proposed, and its signed message (forfeit.py)."""
        self._answers: list[m.Fair] = []
        """Every seat's verdict or dispute over it, ours among them."""
        self._answered = False
        self._verdict_done = False
        self._proposer = b""
        """The key that signed the proposal (the host's)."""
        self.verdict_record: ff.VerdictRecord | None = None
        """The game ended by forfeit, as this seat keeps it (forfeit.VerdictRecord), once it ended."""

    def begin(self, msg: m.Begin) -> None:
        """The seed round is done: this seat's rounds start from the joint seed."""
        c = self.me
        assert c.info is not None
        if self.record.chain is None or c.info.game not in WIRED:
            self.out.problem(f"this table's fair dealer cannot deal {c.info.game} here")
            return
        rec = self.record
        seat = FairSeat(c.game, c.info.players, c.seat, rec.joint, c.info.options or None, chain=rec.chain)
        self.record.seat_keys = {s.seat: s.key for s in msg.seats if s.key}  # every seat signs its messages here
        # Seats' tips only (a host with no seat of its own commits one too, under seat -1).
        self.drive(seat, {s: t for s, t in fp.tips(self.record.reveals).items() if 0 <= s < c.info.players})
        self.saves.make()
        self.saves.persist(now=True)  # our key is on disk before its share leaves
        self.clock.at(seat.view.ply, seat.view.current, time.monotonic())
        self.out.emit(GameStarted(c.seat))
        self.fair.pump()  # type: ignore[union-attr]

    def drive(self, seat: FairSeat, tips: dict[int, bytes] | None, *, paused: bool = False) -> None:
        """Run `seat`'s rounds from here on (`paused`: a restart, until the host resends what it relayed)."""
        c = self.me

        if c.chooser is None and c.stand_in is None:
            turn = c.info.turn if c.info is not None else 0
            c.stand_in = StandIn(
                c.game,
                turn,
                self.stand_in_told,
                clock=self.clock,
                strict=c.info is not None and c.info.strict,
                present=lambda: c.conn is not None,  # (cut off: the table cannot wait on us)
                out_of_time=lambda ply: self.out.problem(
                    "you are out of time (the move's time and your time bank): the other players may hand "
                    "your seat to a bot"
                ),
            )
        self.fair = FairDriver(
            seat,
            identity=c.identity,
            keys=self.record.seat_keys,
            tips=tips,
            send=self.out.send,
            choose=self.choose,
            stepped=self.stepped,
            secret_sent=lambda: self.saves.persist(now=True),
            paused=paused,
        )
        self.saves.transcript = self.fair
        self.record.chain = seat.chain
        c.state = seat.view
        c.phase = PeerPhase.PLAYING
        self.saves.saver.every = FAIR_SAVE_EVERY
        self.task = asyncio.ensure_future(self.end(c.conn))

    def restart(self, seat: FairSeat, sent: list[m.Fair]) -> None:
        """A restored seat's rounds (its transcript replayed off the loop), paused until the host has sent
        what it relayed: `sent`, our own earlier messages, are our word."""
        self.drive(seat, None, paused=True)
        assert self.fair is not None
        self.fair.keep_own(sent)

    async def choose(self, view: State[Any, Any]) -> Action:
        c = self.me
        if c.chooser is not None:
            return await c.chooser(view, c.seat)
        assert c.stand_in is not None
        return await c.stand_in.choose(view)

    def stand_in_told(self, on: bool, ply: int) -> None:
        """Our stand-in took our seat (our person was slow) or gave it back: the table is told."""
        c = self.me
        turn = c.info.turn if c.info is not None else 0
        idle = c.stand_in.idle if c.stand_in is not None else float(turn)
        self.out.problem(
            f"you {idle_words(idle, turn)}: your own app's bot plays your seat until you take it back"
            if on
            else "you are back: your seat is yours again"
        )
        if c.takeover is not None:  # we host the table now (failover): we tell everyone ourselves
            c.takeover.fair_host.timer.seat_autoplay(c.seat, on)
        elif c.conn is not None:
            c.conn.send_nowait(c.autoplay(on, ply))

    def send_own(self, conn: Link) -> None:
        """After a reconnect or a restart: every message we sent (the host drops copies), and whether our
        bot plays our seat now (the host may have missed it, or a restarted process's person is back)."""
        c = self.me
        assert self.fair is not None
        for out in self.fair.own_messages():
            conn.send_nowait(out)
        if c.stand_in is not None:
            conn.send_nowait(c.autoplay(c.stand_in.playing, self.fair.fs.view.ply))

    def stepped(self) -> None:
        """Our view took a step: the public record, the clock and the save follow."""
        c = self.me
        assert self.fair is not None
        fs = self.fair.fs
        c.state = fs.view
        self.clock.at(fs.view.ply, fs.view.current, time.monotonic())
        # The public record, as at the host (a drawn piece is "draw"): its length is the ply we are at.
        self.record.steps.append(
            m.Step(ply=fs.view.ply, seat=fs.last[0], digest=self.fair.digest(), action=fs.last_public)
        )
        self.saves.persist()
        self.out.emit(StepApplied(fs.view.ply, fs.last[0], fs.last[1]))

    def on_fair(self, msg: m.Fair) -> None:
        c = self.me
        drv = self.fair
        if drv is None:
            self.out.problem("refused a fair-dealer message: this table does not deal with it")
            return
        if msg.kind in ("verdict", "dispute"):
            if drv.check(msg) is None and not any(a.seat == msg.seat for a in self._answers):
                self._answers.append(msg)
                if msg.kind == "dispute":
                    d = ff.decode_dispute(msg.body)
                    backed = self._forfeit is not None and ff.genuine_evidence(
                        self._forfeit[0], d, msg.seat, self.record.joint, self.record.seat_keys.get(msg.seat)
                    )
                    note = " (with its evidence for that ply)" if backed else ""
                    self.out.problem(f"seat {msg.seat + 1} does not sign the forfeit{note}: {d.text}")
                self._verdict_check()
            return
        if msg.kind in ("abort", "forfeit") and (
            msg.seat == c.host_seat or (c.host_seat < 0 and self._host_runs(msg.seat))
        ):
            if msg.seat >= 0:
                ok = drv.check(msg) is None  # signed by the host's seat (or a bot seat it runs)
                host_key = self.record.seat_keys.get(msg.seat, b"")
            else:  # a host with no seat in its process signs as itself, with the key its channel proved
                signed = fair_message(self.record.joint, msg.kind, msg.ply, msg.ref, msg.seat, msg.body, msg.digest)
                ok = c.conn is not None and verify(c.conn.peer_key, msg.sig, signed)
                host_key = c.conn.peer_key if c.conn is not None else b""
            if ok and msg.kind == "forfeit":
                f = ff.decode(msg.body)
                if f is not None and self._forfeit is None:
                    self._forfeit = (f, msg)
                    self._proposer = host_key
                    self.out.problem(f"the host proposes: {ff.outcome(f)}")
                    loop = asyncio.get_running_loop()
                    # Our answer at the latest half-way to the host's stated deadline (a seat behind takes
                    # its rounds first); the verdict is read once every present seat answered, or past it.
                    loop.call_later(f.answer_by / 2, self._verdict_late)
                    loop.call_later(f.answer_by + 2, self._verdict_over)
                    self._verdict_check()
            elif ok:  # the host's word on why the game ends: a claim, unless our own checks agree
                text = msg.body.decode("utf-8", "replace")
                if not (drv.over.done() and not drv.over.cancelled() and drv.over.exception() is not None):
                    text = f"the host ended the game: {text} (the host's claim; this seat's own checks found nothing)"
                drv.fail(FairDealError(text))
            return
        # Our own earlier message, sent back: we restarted from our save (or made a round's anew).
        why = drv.adopt(msg) if msg.seat == c.seat else drv.offer(msg)
        if why is not None:
            # Every seat signs its own: a message that does not check was altered on the host's watch.
            c.evidence.append(f"the host relayed {why}")
            self.out.problem(c.evidence[-1])

    def gone(self) -> list[int]:
        """The seats this process saw leave: away by the host's word (Presence), or hosts it replaced."""
        c = self.me
        return sorted({s.seat for s in c.seats if s.away} | set(c.gone_hosts))

    def _verdict_check(self, *, late: bool = False, over: bool = False) -> None:
        """The host proposed a forfeit: sign it once our own process agrees (forfeit.disagreement: the same
        public position, and by its cause: the seat seen to go, or our own rounds waiting on it and it out
        of time by our clock, or our own check failed on its message), else say why not, with our own
        messages for that ply when we are the accused. The game ends once every present seat answered
        (`over`: the deadline passed)."""
        c = self.me
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
            why = ff.disagreement(f, drv.fs.view, evidence, self.gone())
            now = time.monotonic()
            waits_act = drv.waiting is not None and drv.waiting[0][0] == "act"
            if (
                why is None
                and f.cause not in ("gone", "struck")  # a seat that left has no clock to run out
                and waits_act
                and self.clock.running
                and self.clock.seat in f.seats
                and self.clock.seat not in c.gone_hosts
                and self.clock.left(now) > SLACK
            ):
                # A move is not late before its seat is out of time, by this seat's own clock; a host this
                # seat replaced is gone for good, and its bank keeps no one waiting.
                left = fmt(self.clock.left(now))
                why = f"by this seat's clock seat {self.clock.seat + 1} still has {left} to move"
            if why is None and proposal.digest != drv.digest():
                why = "the host's public position at that ply is not this seat's"
            own: list[m.Fair] = []
            if c.seat in f.seats:  # the accused's answer, recorded beside the claim, with its evidence
                waits = ", ".join(str(s + 1) for s in evidence) or "no one"
                own = ff.evidence_for(f, drv.own_messages(), c.seat)
                why = (
                    f"seat {c.seat + 1} answers: it sent what its rounds asked ({len(own)} signed message(s) "
                    f"for ply {f.ply} attached); at ply {drv.fs.view.ply} it waits on {waits}"
                )
            if why is None or late or over or f.ply < drv.fs.view.ply or c.seat in f.seats:
                kind = "verdict" if why is None else "dispute"
                # What our rounds wait on is evidence only at the forfeit's own ply (behind it, we have
                # not reached the round we are said to have stalled).
                at_ply = drv.fs.view.ply == f.ply
                waits_on = sorted(set(evidence)) if c.seat in f.seats and at_ply else []
                answer = ff.Dispute(text=why[:500], evidence=own, waits_on=waits_on) if why is not None else None
                body = ff.encode(f) if answer is None else ff.encode_dispute(answer)
                self._answered = True
                if why is not None:
                    self.out.problem(f"this seat does not sign the forfeit: {why}")
                if c.conn is not None:
                    d = drv.digest()
                    sig = c.identity.sign(fair_message(self.record.joint, kind, f.ply, "", c.seat, body, d))
                    out = m.Fair(kind=kind, ply=f.ply, seat=c.seat, body=body, sig=sig, digest=d)
                    self._answers.append(out)
                    c.conn.send_nowait(out)
        # Every seat still at the table answers, the accused included (its dispute is its side of it).
        gone = set(self.gone())
        present = [s for s in range(len(f.totals)) if s not in gone]
        if over or all(any(a.seat == s for a in self._answers) for s in present):
            self._verdict_done = True
            drv.fail(FairDealError(ff.outcome(f), f.seats))

    def _verdict_late(self) -> None:
        self._verdict_check(late=True)

    def _verdict_over(self) -> None:
        self._verdict_check(late=True, over=True)

    async def host_closed_verdict(self) -> bool:
        """The host's connection ended while a forfeit it proposed was being answered: it closed the
        verdict (its deadline passed, or every seat it saw answered). Our result is read from the answers
        this process holds, now, rather than choosing a new host for a game that has ended. True when so."""
        if self._forfeit is None or self.task is None or (self.task.done() and self.me.result is None):
            return False
        self._verdict_check(late=True, over=True)
        await asyncio.gather(self.task, return_exceptions=True)
        return self.me.result is not None

    def _host_runs(self, seat: int) -> bool:
        """Whether `seat` is a bot the host's process runs (its messages are signed with the host's key)."""
        return any(s.seat == seat and s.kind == "bot" for s in self.me.seats)

    async def end(self, conn: Link | None) -> None:
        """Every seat's key reveal, our own audit and replay, then our signed final digest."""
        c = self.me
        drv = self.fair
        assert drv is not None and c.info is not None
        try:
            reveals = await asyncio.shield(drv.over)  # a takeover cancels this task, not the game
        except FairDealError as e:
            if self._forfeit is None and any(isinstance(s, int) and s != c.seat for s in e.culprits):
                # A seat's own message failed here: the host, which checks it too, proposes its forfeit.
                await _until(lambda: self._forfeit is not None, ff.VERDICT_WAIT)
            if self._forfeit is not None:
                await _until(lambda: self._verdict_done, self._forfeit[0].answer_by + 4)
                self._end_by_verdict()
                if c.conn is not None:
                    await c.conn.close()
                return
            text = str(e) if str(e).startswith("the game ends") else f"the game ends: {e}"
            self.out.problem(text)
            c.phase = PeerPhase.FINISHED
            c.result = Result(
                game=c.game.name,
                table=c.info.name,
                seat=c.seat,
                scores={},
                digest="",
                plies=drv.fs.view.ply,
                outcome="ended: " + text,
                audit_ok=False,
                problems=[text, *c.evidence],
            )
            if c.conn is not None:
                await c.conn.close()
            return
        except asyncio.CancelledError:
            raise
        rep = await drv.audit(reveals)
        problems = [f"AUDIT FAILED: {'; '.join(rep.problems)}"] if not rep.ok else []
        for p in problems:
            self.out.problem(p)
        problems += c.evidence
        full = rep.full
        scores, outcome = ({}, "") if full is None else scores_of(full)
        self.audit.pending = Result(
            game=c.game.name,
            table=c.info.name,
            seat=c.seat,
            scores=scores,
            digest=full.digest() if full is not None else "",
            plies=full.ply if full is not None else drv.fs.view.ply,
            outcome=outcome,
            audit_ok=not problems,
            problems=problems,
        )
        c.phase = PeerPhase.FINISHED
        if full is not None and c.conn is not None:
            d = bytes.fromhex(full.digest())
            c.conn.send_nowait(
                m.Final(seat=c.seat, digest=d, sig=c.identity.sign(fp.final_message(self.record.joint, full.ply, d)))
            )
            self.audit.wait_finals(c.conn)

    def _end_by_verdict(self) -> None:
        """Our result of a game ended by forfeit: the standings, and the seats whose signatures we hold."""
        c = self.me
        assert self._forfeit is not None and c.info is not None
        f, _ = self._forfeit
        j = ff.judge(f, self._answers, self.record.joint, self.record.seat_keys, c.info.players)
        self.out.problem(f"the verdict is {ff.verdict_text(j)}")
        names = {s.seat: s.name for s in c.seats}
        assert self.fair is not None
        self.verdict_record = ff.make_record(
            game=c.game.name,
            table=c.info.name,
            players=c.info.players,
            seat=c.seat,
            joint=self.record.joint,
            keys=self.record.seat_keys,
            proposer=self._proposer,
            names=names,
            proposal=self._forfeit[1],
            answers=self._answers,
            messages=self.fair.messages(),
            steps=self.record.steps,
        )
        c.phase = PeerPhase.FINISHED
        c.result = Result(
            game=c.game.name,
            table=c.info.name,
            seat=c.seat,
            scores=ff.scores(f),
            digest="",
            plies=f.ply,
            outcome=("you forfeit: " if c.seat in f.seats else "") + ff.outcome(f),
            audit_ok=False,
            problems=[p for p in c.problems if "forfeit" in p or p.startswith("the verdict")] + c.evidence,
            forfeit=list(f.seats),
            verdict=ff.standings_text(f, names),
            signed_by=j.signed_by,
            contested=j.contested,
            disputed_by=j.disputed_by,
        )

    def close(self) -> None:
        """Stop this seat's rounds and the wait for the end (the peer is closing)."""
        if self.fair is not None:
            self.fair.close()
        if self.task is not None:
            self.task.cancel()
