"""A peer's end of a committed game: its own audit of the whole game, then every seat's final digest.

The host's :class:`~messages.End` reveals the dealer's secret; this seat replays every ply
with it (in a thread), checks every view it was sent and scores the game itself, never
from the host's word. It signs its final digest, and once the host relays every seat's
(:class:`~messages.Finals`) it names any seat told another story (docs/lan.md, "Fair
play"). A fair-dealer table's own audit (fairpeer.py) ends in the same comparison.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any, Protocol

import msgspec

from coldwater.core import record
from coldwater.core.errors import IllegalAction, NotationError
from coldwater.core.notation import Action
from coldwater.core.record import GameRecord
from coldwater.core.state import State

from ... import beacon
from ... import fairplay as fp
from ... import messages as m
from ...identity import fingerprint, verify
from ...link import Link
from ..events import FINALS_WAIT, Result
from .shared import Outbox, PeerPhase

if TYPE_CHECKING:
    from coldwater.core.state import Game

    from ...identity import Identity
    from ..record import TableRecord
    from .stepcheck import StepCheck


class AuditSeat(Protocol):
    """What the audit reads and writes of the seat, beside the record and the step check."""

    game: Game[Any, Any]
    identity: Identity
    info: m.TableInfo | None
    seat: int
    host_seat: int
    phase: PeerPhase
    state: State[Any, Any] | None
    views: dict[int, bytes]
    """Ply → digest of each private view the host sent us."""
    dealer_commit: bytes
    dealer_secret: bytes
    evidence: list[str]
    result: Result | None


class PeerAudit:
    """One peer's audit and comparison of final digests (``TablePeer.audit``)."""

    def __init__(self, record: TableRecord, out: Outbox, checker: StepCheck, seat: AuditSeat) -> None:
        self.record = record
        self.out = out
        self.me = seat
        self.checker = checker
        """The step check, which knows which host dealt each ply."""
        self.pending: Result | None = None
        """Our audited result, waiting for every seat's signed final digest."""
        self.auditing = False
        """Replaying the game (we read nothing meanwhile: the host's answers wait unread, not missing)."""
        self._finals_timer: asyncio.TimerHandle | None = None
        self._end_after_sync: m.End | None = None
        self._closing: asyncio.Future[Any] | None = None

    async def on_end(self, conn: Link, msg: m.End) -> None:
        """Audit the whole game ourselves (in a thread: it replays every ply), then compare finals."""
        c = self.me
        assert c.info is not None
        if self.pending is not None or c.result is not None:
            return
        if c.phase is PeerPhase.RESYNCING:
            self._end_after_sync = msg  # our record lacks the last steps: audit once the resync is in
            return
        self.auditing = True
        try:
            rep = await self._audit(msg)
        finally:
            self.auditing = False
        problems = list(rep.problems)
        if rep.ok and bytes.fromhex(rep.final_digest) != msg.digest:
            problems.append("the final position announced differs from the replay")
        self._after_audit(conn, msg, rep, problems)

    async def after_sync(self, conn: Link) -> None:
        """A resync came in: the End that waited for it is audited now (if the resync is done)."""
        if self._end_after_sync is not None and self.me.phase is not PeerPhase.RESYNCING:
            end, self._end_after_sync = self._end_after_sync, None
            await self.on_end(conn, end)

    async def _audit(self, msg: m.End) -> fp.AuditReport:
        c = self.me
        assert c.info is not None
        c.dealer_secret = msg.dealer_secret
        return await asyncio.to_thread(
            fp.audit,
            c.game,
            c.info.players,
            c.info.options,
            self.record.joint,
            c.dealer_commit,
            msg.dealer_secret,
            self.record.steps,
            tips=fp.tips(self.record.reveals),
            keys=self.record.seat_keys or None,
            seat=c.seat,
            views=c.views,
        )

    def _after_audit(self, conn: Link, msg: m.End, rep: fp.AuditReport, problems: list[str]) -> None:
        c = self.me
        assert c.info is not None
        if problems:
            culprit = self.checker.dealer_at(rep.bad_ply) if rep.bad_ply >= 0 else c.host_seat
            problems = [f"AUDIT FAILED, the dealer (host, seat {culprit + 1}) cheated or erred: " + "; ".join(problems)]
            self.out.problem(problems[0])
        problems += c.evidence
        # Scores and the outcome from our own replay, never from the host's message.
        self.pending = Result(
            game=c.game.name,
            table=c.info.name,
            seat=c.seat,
            scores=rep.scores,
            digest=rep.final_digest if rep.ok else msg.digest.hex(),
            plies=rep.plies,
            outcome=rep.outcome,
            audit_ok=not problems,
            problems=problems,
        )
        c.phase = PeerPhase.FINISHED
        if rep.ok:
            d = bytes.fromhex(rep.final_digest)
            conn.send_nowait(
                m.Final(seat=c.seat, digest=d, sig=c.identity.sign(fp.final_message(self.record.joint, rep.plies, d)))
            )
        self.wait_finals(conn)

    def wait_finals(self, conn: Link) -> None:
        """Our final digest is out: give the table time to relay every seat's, then conclude without."""
        self._finals_timer = asyncio.get_running_loop().call_later(FINALS_WAIT * 2, self._finals_late, conn)

    def _finals_late(self, conn: Link) -> None:
        if self.me.result is None and self.pending is not None:
            self.conclude(None)
            self._closing = asyncio.ensure_future(conn.close())  # held: the loop keeps only weak refs

    def on_finals(self, msg: m.Finals) -> None:
        if self.pending is None:
            self.out.problem("refused final digests before the end")
            return
        self.conclude(msg.finals)

    def conclude(self, finals: list[m.Final] | None) -> None:
        """Compare every seat's signed final digest with ours; name any seat whose story differs."""
        c = self.me
        res = self.pending
        assert res is not None
        if self._finals_timer is not None:
            self._finals_timer.cancel()
        problems = list(res.problems)
        if finals is None:
            problems.append("the table did not relay the seats' final digests: we could not compare stories")
        else:
            mine = bytes.fromhex(res.digest) if res.audit_ok else b""
            for f in finals:
                key = self.record.seat_keys.get(f.seat, b"")
                if f.seat == c.seat:
                    continue
                if not key or not verify(key, f.sig, fp.final_message(self.record.joint, res.plies, f.digest)):
                    problems.append(f"seat {f.seat + 1}'s final digest is not signed by seat {f.seat + 1}")
                elif mine and f.digest != mine:
                    problems.append(
                        f"seat {f.seat + 1} ({fingerprint(key)}) ended with another final position: "
                        "the table told different seats different stories"
                    )
        for p in problems[len(res.problems) :]:
            self.out.problem(p)
        self.pending = None
        c.result = msgspec.structs.replace(
            res, problems=problems, audit_ok=res.audit_ok and len(problems) == len(res.problems)
        )

    def leave_on_evidence(self) -> None:
        """The host did what an honest host cannot: stop playing with it and say why."""
        c = self.me
        assert c.info is not None and c.state is not None
        text = f"leaving: the host (seat {c.host_seat + 1}) cheated: " + "; ".join(c.evidence)
        self.out.problem(text)
        c.phase = PeerPhase.FINISHED
        c.result = Result(
            game=c.game.name,
            table=c.info.name,
            seat=c.seat,
            scores={},
            digest="",
            plies=c.state.ply,
            outcome="left the table: the host cheated",
            audit_ok=False,
            problems=[text],
        )

    def full_record(self, meta: dict[str, str] | None = None) -> GameRecord | None:
        """The whole game, every sealed value in it, as a record the replay viewer and the end
        screen read: rebuilt from our public record and the dealer's secret the End revealed.

        None before the End, or when the rebuild fails (the audit has already said why). (At a
        fair-dealer table it is the fair audit's replay: fairtable.fair_record.)
        """
        c = self.me
        if c.info is None or c.result is None or not self.record.steps or not c.dealer_secret:
            return None
        first = c.game.new(c.info.players, seed=fp.game_seed(self.record.joint), options=c.info.options)
        rec = record.start(c.game, first, c.info.options, meta)

        def add(seat: int, action: Action, after: State[Any, Any]) -> None:
            record.append(rec, seat, action, after)

        try:
            fp.rebuild(
                c.game,
                c.info.players,
                c.info.options,
                self.record.joint,
                c.dealer_secret,
                self.record.steps,
                on_apply=add,
                book=beacon.Book(fp.tips(self.record.reveals)),
            )
        except (fp.FairPlayError, IllegalAction, NotationError):
            return None
        return rec
