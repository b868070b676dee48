"""A forfeit at a fair-dealer table's host: the seats that forfeit, the proposal, the answers, the verdict.

When a round waits on a seat past every allowance, or a seat's own message fails the check,
or a seat was struck out, the host proposes (signed, to every seat) that the seats it names
forfeit, signs it for the seats it plays, and collects every present seat's answer: its
signature over the proposal, or why it cannot sign (docs/lan.md, "The verdict").
:class:`Forfeits` keeps that exchange and judges it at the game's end (fairhost.py runs it).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from ... import messages as m
from ...fairdeal.deck import FairDealError
from ...link import Link
from .. import forfeit as ff
from ..events import Problem, Result
from ..fairwire import fair_message
from .shared import HostPhase, Outbox, Remote, TableTerms, Tasks

if TYPE_CHECKING:
    from ..fairtable import FairDriver
    from ..record import TableRecord

log = logging.getLogger("coldwater.net")


class ForfeitsTable(Protocol):
    """What :class:`Forfeits` reads of the host beyond its record and terms."""

    @property
    def remotes(self) -> dict[int, Remote]: ...

    @property
    def host_seat(self) -> int: ...

    @property
    def problems(self) -> list[str]: ...

    @property
    def phase(self) -> HostPhase: ...

    @property
    def result(self) -> Result | None: ...

    def lobby(self) -> list[m.SeatInfo]: ...


class Forfeits:
    """The forfeit of one fair table's host (``TableHost.fair_host.forfeits``): none until one is declared.
    `driver` gives the driver the host keeps the public record from, `drivers` every driver it runs, `log`
    is the fair host's relay log."""

    def __init__(
        self,
        record: TableRecord,
        out: Outbox,
        tasks: Tasks,
        terms: TableTerms,
        host: ForfeitsTable,
        *,
        driver: Callable[[], FairDriver | None],
        drivers: Callable[[], list[FairDriver]],
        log: list[m.Fair],
    ) -> None:
        self.record = record
        self.out = out
        self.tasks = tasks
        self.terms = terms
        self.host = host
        self.driver = driver
        self.drivers = drivers
        self.log = log
        """The fair host's log of every message sent or relayed (the proposal joins it, for a seat that reconnects)."""
        self.answer_by = ff.VERDICT_WAIT
        """Seconds a forfeit's proposal gives every seat to answer (stated in it; tests shorten it)."""
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

    def strike(self, seat: int, why: str) -> None:
        """`seat` was struck out: it forfeits as soon as a round waits on it (no one can play its layer)."""
        self.forfeiting.setdefault(seat, why)
        rec = self.driver()
        if rec is not None:
            rec.changed.set()

    def answer(self, r: Remote, conn: Link, msg: m.Fair) -> None:
        """A seat's answer to the forfeit proposed: its signature over it, or why it cannot sign it (with,
        from the accused, its own messages for that ply). Taken before and after the deadline alike;
        only a second answer from the same seat, or one over another forfeit, is refused."""
        f = self.forfeit
        assert f is not None
        old = next((v for v in self.verdicts if v.seat == msg.seat), None)
        if old is not None:
            # The same answer again is a resend (counted, as every known message sent again); another
            # one is a seat changing its word, which the table never takes.
            self.out.refuse(conn, "fair", f"a second {msg.kind} from seat {msg.seat + 1} (its answer is kept)")
            return
        if msg.kind == "verdict" and (r.seat in f.seats or msg.body != ff.encode(f) or msg.ply != f.ply):
            self.out.refuse(conn, "fair", "a verdict over another forfeit than the one proposed")
            return
        if msg.ply != f.ply:
            self.out.refuse(conn, "fair", f"a dispute of a forfeit at ply {msg.ply}, not the one proposed")
            return
        self.verdicts.append(msg)
        if self.host.phase is HostPhase.ENDED and self.host.result is not None:
            text = f"{r.name} (seat {r.seat + 1}) answered the forfeit after this host's deadline ({msg.kind}); kept"
            log.warning("%s", text)
        if msg.kind == "dispute":
            d = ff.decode_dispute(msg.body)
            drv = self.driver()
            keys = drv.keys if drv is not None else {}
            backed = ff.genuine_evidence(f, d, msg.seat, self.record.joint, keys.get(msg.seat))
            note = " (with its evidence for that ply)" if backed else ""
            text = f"{r.name} (seat {r.seat + 1}) does not sign the forfeit{note}: {d.text}"
            self.disputes.append(text)
            self.out.emit(Problem(text))
        for other in self.host.remotes.values():
            if other.present and other.seat != msg.seat and other.conn is not None:
                other.conn.send_nowait(msg)
        self.tasks.wake()

    def waits_on(self, drv: FairDriver) -> list[int]:
        w = drv.waiting
        return sorted(s for s in (w[1] if w is not None else []) if s in self.forfeiting)

    def cause(self, seats: list[int], text: str, ex_host: int) -> str:
        """What kind of forfeit a stalled round is (forfeit.CAUSES): gone when every seat named is away
        from the table, clock for a move past its time, stall for a program's message withheld."""
        if seats and all(s in self.host.remotes and not self.host.remotes[s].present for s in seats):
            return "gone"
        if ex_host in seats:
            return "gone"  # the host this one replaced: every seat saw it go
        return "clock" if "did not move" in text or "ran out of time" in text else "stall"

    async def declare(self, seats: list[int], reason: str, cause: str = "stall") -> None:
        """Propose that `seats` forfeit (signed, to every seat), sign it for this process's own seats, and
        wait for every present seat's answer (the accused's too) until the deadline it states."""
        drv = self.driver()
        assert drv is not None
        f = ff.propose(drv.fs.view, seats, reason, cause, self.answer_by)
        self.forfeit = f
        body, ply, digest = ff.encode(f), f.ply, drv.digest()
        by = drv.fs.seat if self.host.host_seat < 0 and drv.fs.seat is not None else self.host.host_seat
        sig = self.terms.identity.sign(fair_message(self.record.joint, "forfeit", ply, "", by, body, digest))
        proposal = m.Fair(kind="forfeit", ply=ply, seat=by, body=body, sig=sig, digest=digest)
        self.proposal = proposal
        self.log.append(proposal)
        text = f"the game ends: {ff.outcome(f)}"
        log.warning("%s", text)
        self.host.problems.append(text)
        self.out.emit(Problem(text))
        mine = [d.fs.seat for d in self.drivers() if d.fs.seat is not None and d.fs.seat not in f.seats]
        for seat in mine:
            vsig = self.terms.identity.sign(fair_message(self.record.joint, "verdict", ply, "", seat, body, digest))
            self.verdicts.append(m.Fair(kind="verdict", ply=ply, seat=seat, body=body, sig=vsig, digest=digest))
        for r in self.host.remotes.values():
            if r.present and r.conn is not None:
                r.conn.send_nowait(proposal)
                for v in self.verdicts:
                    r.conn.send_nowait(v)

        def answered() -> bool:
            return all(any(v.seat == s for v in self.verdicts) or not r.present for s, r in self.host.remotes.items())

        await self.tasks.wait(answered, f.answer_by)  # each answer wakes it, and so does a seat leaving

    def end(self, local: list[FairDriver]) -> Result:
        """The game's end by a forfeit: the standings the honest seats signed (no audit: the forfeiting
        seats' keys are not revealed, so the hidden values stay hidden)."""
        f, drv = self.forfeit, self.driver()
        assert f is not None
        keys = drv.keys if drv is not None else {}
        j = ff.judge(f, self.verdicts, self.record.joint, keys, self.terms.info.players)
        names = {s.seat: s.name for s in self.host.lobby()}
        verdict = ff.standings_text(f, names)
        if self.proposal is not None and drv is not None:
            self.verdict_record = ff.make_record(
                game=self.terms.game.name,
                table=self.terms.name,
                players=self.terms.info.players,
                seat=self.host.host_seat,
                joint=self.record.joint,
                keys=keys,
                proposer=self.terms.identity.public,
                names=names,
                proposal=self.proposal,
                answers=self.verdicts,
                messages=drv.messages(),
                steps=self.record.steps,
            )
        problems = [*self.host.problems, *self.disputes, f"the verdict is {ff.verdict_text(j)}"]
        for d in local:
            d.fail(FairDealError(ff.outcome(f), f.seats))
        return Result(
            game=self.terms.game.name,
            table=self.terms.name,
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
