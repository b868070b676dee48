"""Checking every step on our own core: a committed game's play, as a seat sees it.

Each :class:`~messages.Step` the host sends is applied to this seat's own view: the
move must be its seat's signed move (ours the one we sent), a public draw the seats'
beacon links' draw, a sealed value its commitment, and the public digest the host's.
A gap or a mismatch asks for a resync; a resync may extend our record, never rewrite it.
What an honest host cannot cause is kept as evidence (docs/lan.md, "Playing: who knows
what" and "What a cheating host can and cannot do").
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any, Protocol

import msgspec

from coldwater.core.errors import IllegalAction, NotationError
from coldwater.core.state import CHANCE, State

from ... import beacon
from ... import fairplay as fp
from ... import messages as m
from ...identity import fingerprint
from ...link import Link
from ..events import StepApplied
from ..joining import SyncRefused, read_sync
from ..persist import public_step, unpack_view
from .shared import Outbox, PeerPhase

if TYPE_CHECKING:
    from coldwater.core.state import Game

    from ..record import TableRecord
    from ..turnclock import TurnClock
    from .peersave import PeerSaves


class CheckSeat(Protocol):
    """What the step check reads and writes of the seat, beside the record, the clock and the save."""

    game: Game[Any, Any]
    info: m.TableInfo | None
    seat: int
    seats: list[m.SeatInfo]
    host_seat: int
    state: State[Any, Any] | None
    """This seat's view, which each step advances."""
    phase: PeerPhase
    linked: int
    """The ply whose beacon link this seat sent on this connection."""
    botted: set[int]
    """Seats the host announced as played by its bot."""
    views: dict[int, bytes]
    dealt_by: list[tuple[int, int]]
    dealer_commit: bytes
    share: bytes
    evidence: list[str]

    def maybe_move(self, *, force: bool = False) -> None: ...

    def maybe_link(self) -> None: ...


class _Evident(IllegalAction):
    """A step refused on evidence already recorded (not to be reported twice)."""


class StepCheck:
    """One peer's check of the host's steps and resyncs (``TablePeer.checker``)."""

    def __init__(self, record: TableRecord, out: Outbox, clock: TurnClock, saves: PeerSaves, seat: CheckSeat) -> None:
        self.record = record
        self.out = out
        self.clock = clock
        self.saves = saves
        """The seat's save, written after each step it takes."""
        self.me = seat
        self.resyncs = 0
        """Resyncs taken (a figure the headless join prints)."""
        self.rtts: list[float] = []
        """Seconds from sending a move to seeing it applied (benchmarks)."""
        self.sent: tuple[int, str, bytes] | None = None
        """(ply, action, signature) of the move we sent and have not yet seen applied."""
        self.sent_at: float | None = None
        """When that move went out (its round trip is timed for benchmarks)."""

    def on_step(self, conn: Link, step: m.Step) -> None:
        c = self.me
        st = c.state
        if st is None:
            self.out.problem("refused a step before the game started")
            return
        if step.ply <= st.ply or c.phase is PeerPhase.RESYNCING:
            return  # already have it, or a resync is on its way and will bring it
        if step.ply != st.ply + 1:
            self.out.problem(f"missed steps before ply {step.ply}; asking for a resync")
            self.ask_resync(conn, st)
            return
        if step.links and self.record.chain is not None and c.linked == st.ply and c.seat not in step.links:
            # The host sends our own link back to us no more (bytes): it is in the draw, so put it back.
            mine = self.record.chain.link(beacon.index_of(st.ply))
            step = msgspec.structs.replace(step, links={**step.links, c.seat: mine})
        try:
            if step.seat != st.current:
                raise IllegalAction(f"seat {step.seat} acted but it was {st.current}'s turn")
            if step.action is not None:
                self._check_move(step)
                action = c.game.parse_action(step.action)
                if step.view is None:
                    # The host says our view can follow this step: our own core must accept it.
                    nxt = st.clone()
                    nxt.apply(action)
                elif step.seat == c.seat:
                    # Our own move: our view knows everything its legality depends on.
                    st.clone().apply(action)
                # Otherwise our view may lack what makes the move legal (another seat's hidden
                # tackle, the order of a deck); the end-of-game audit replays it in full.
            elif step.seat != CHANCE or step.commit is None or step.view is None:
                raise IllegalAction("a sealed step without its commitment or view")
            if step.links:
                self._check_draw(st, step)
            if step.view is not None:
                nxt = unpack_view(c.game, step.view, step.ply)
            if step.reveal is not None:
                self._check_reveal(st, step, nxt)
        except (IllegalAction, NotationError, msgspec.DecodeError, msgspec.ValidationError) as e:
            if not isinstance(e, _Evident):
                self.evidence(f"ply {step.ply}: the host sent an impossible step ({self._who(step)}): {e}")
            self.ask_resync(conn, st)
            return
        if fp.public_digest(nxt) != step.digest:
            # Reported, naming who signed what. Our own state may be the broken one, so this is not
            # yet evidence against the host: the resync may only extend our record, and the audit
            # replays every ply of it (and every view we were sent) with the dealer's secret.
            self.out.problem(
                f"digest mismatch after ply {step.ply}: {self._who(step)} gives public digest "
                f"{fp.public_digest(nxt).hex()[:16]} here; the host announced {step.digest.hex()[:16]}; "
                "asking for a resync"
            )
            self.ask_resync(conn, st)
            return
        if step.view is not None:
            c.views[step.ply] = bytes.fromhex(nxt.digest())
        if step.links:
            self.record.book.accept(st.ply, step.links)
        c.state = nxt
        self.clock.at(nxt.ply, nxt.current, time.monotonic())
        if (
            step.seat == c.seat
            and not step.sig
            and not step.bot
            and self.sent is not None
            and self.sent[0] == step.ply - 1
        ):
            step = msgspec.structs.replace(step, sig=self.sent[2])  # our record carries our signature
        self.record.steps.append(public_step(step))
        if step.seat == c.seat:
            self.sent = None
        if self.sent_at is not None and step.seat == c.seat:
            self.rtts.append(time.perf_counter() - self.sent_at)
            self.sent_at = None
        self.saves.persist()
        self.out.emit(
            StepApplied(
                step.ply,
                step.seat,
                step.action if step.action is not None else (step.reveal.action if step.reveal else None),
            )
        )
        c.maybe_move()
        c.maybe_link()

    def _check_draw(self, before: State[Any, Any], step: m.Step) -> None:
        """A public draw: every link on its seat's chain, the host's and ours among them, and the outcome theirs."""
        c = self.me
        if step.seat != CHANCE or step.action is None:
            raise IllegalAction("beacon links on a step that is not a public draw")
        why = self.record.book.check(before.ply, step.links)
        if why is None and c.host_seat not in step.links:
            why = f"the host (seat {c.host_seat + 1}) put no link of its own into the draw"
        chain, sent = self.record.chain, c.linked == before.ply
        if why is None and chain is not None and sent and step.links.get(c.seat) != chain.link(before.ply + 1):
            why = "the draw does not hold the link we sent"
        if why is not None:
            self.evidence(f"ply {step.ply}: a bad public draw: {why}")
            raise _Evident(why)
        want = str(beacon.draw(before, self.record.joint, step.links))
        if want != step.action:
            self.evidence(f"ply {step.ply}: the host drew {step.action!r}, but the seats' links draw {want!r}")
            raise _Evident("not the links' draw")

    def rebook(self) -> None:
        """Every seat's latest link from our record (after a restart or a resync)."""
        book = beacon.Book(fp.tips(self.record.reveals))
        for s in self.record.steps:
            if s.links:
                try:
                    book.accept(s.ply - 1, s.links)
                except beacon.BeaconError as e:
                    self.out.problem(f"ply {s.ply} of our record holds a bad beacon link: {e}")
                    break
        self.record.book = book

    def _who(self, step: m.Step) -> str:
        """Who stands behind a step, for evidence: the seat, its move and who signed it."""
        if step.seat == CHANCE:
            return f"the dealer's chance outcome {step.action or '(sealed)'}"
        key = self.record.seat_keys.get(step.seat, b"")
        signer = (
            "played by the host's bot"
            if step.bot
            else f"signed by {fingerprint(key)}"
            if key and step.sig
            else "unsigned"
        )
        return f"seat {step.seat + 1}'s move {step.action!r} ({signer})"

    def evidence(self, text: str) -> None:
        """Something an honest host cannot cause: reported, kept, and it fails our audit."""
        self.me.evidence.append(text)
        self.out.problem("EVIDENCE: " + text)

    def _check_move(self, step: m.Step) -> None:
        """A seat's move must be that seat's own signed move; ours must be the one we sent."""
        c = self.me
        assert step.action is not None
        if step.seat == c.seat and self.sent is not None and self.sent[0] == step.ply - 1:
            if step.bot:
                # Our move crossed the host's turn timer: named, not evidence (the timer is visible).
                self.out.problem(f"ply {step.ply}: the host's bot played our seat; our move {self.sent[1]!r} came late")
            elif step.action != self.sent[1]:
                self.evidence(f"ply {step.ply}: the host replaced our move {self.sent[1]!r} with {step.action!r}")
                raise _Evident("not the move we sent")
            elif not step.sig:
                return  # our own move comes back without the signature we hold (saves bytes); see on_step
        if step.bot:
            bots = c.botted | {s.seat for s in c.seats if s.kind == "bot" or s.bot}
            if step.seat in self.record.seat_keys and step.seat not in bots:
                self.evidence(
                    f"ply {step.ply}: the host played seat {step.seat + 1} with its bot without saying "
                    "that the seat ran out of time or was given to a bot"
                )
                raise _Evident("an unannounced bot move")
            return
        why = fp.check_act(self.record.seat_keys, self.record.joint, step.ply - 1, step.seat, step.action, step.sig)
        if why is not None:
            self.evidence(f"ply {step.ply}: {why}")
            raise _Evident(why)

    def _check_reveal(self, before: State[Any, Any], step: m.Step, after: State[Any, Any]) -> None:
        """Our sealed value must match its commitment, and the view sent with it must be what it makes."""
        c = self.me
        assert step.reveal is not None
        want = fp.sealed_commitment(step.reveal.salt, before.ply, step.reveal.action)
        if want != step.commit:
            self.evidence(f"ply {step.ply}: DEALER CHEATED: our sealed value does not match its commitment")
            return
        try:
            mine = before.clone()
            mine.apply(c.game.parse_action(step.reveal.action))
        except (IllegalAction, NotationError):
            return  # our view cannot apply this outcome itself; the audit checks the view we were sent
        if mine.view(c.seat).digest() != after.view(c.seat).digest():
            self.evidence(
                f"ply {step.ply}: the view the host sent does not hold the sealed value "
                f"{step.reveal.action!r} it revealed to us"
            )

    def ask_resync(self, conn: Link, st: State[Any, Any]) -> None:
        self.me.phase = PeerPhase.RESYNCING
        conn.send_nowait(m.Mismatch(ply=st.ply, digest=fp.public_digest(st)))

    def on_sync(self, msg: m.Sync) -> None:
        c = self.me
        if c.phase is PeerPhase.RESYNCING:
            c.phase = PeerPhase.PLAYING
        if c.info is None:
            return
        try:
            view, start = read_sync(c.game, msg, len(self.record.steps))
        except SyncRefused as e:
            self.out.problem(str(e))
            return
        # A resync may add to our record, never rewrite it: what we already hold is evidence.
        for s in msg.steps:
            if s.ply <= len(self.record.steps) and self.record.steps[s.ply - 1].digest != s.digest:
                mine = self.record.steps[s.ply - 1]
                self.evidence(
                    f"ply {s.ply}: the host tried to rewrite our record: we hold {self._who(mine)}, "
                    f"its resync says {self._who(s)}"
                )
                return
            if self.record.seat_keys and s.seat >= 0 and not s.bot and s.action is not None:
                why = fp.check_act(self.record.seat_keys, self.record.joint, s.ply - 1, s.seat, s.action, s.sig)
                if why is not None:
                    self.evidence(f"ply {s.ply} (in a resync): {why}")
                    return
        if not self.record.joint and msg.fair is not None:
            # We lost our save (or joined by address): take the fair-play data, checking it.
            bad = fp.check_reveals(msg.fair.commits, msg.fair.reveals)
            if bad:
                self.out.problem(f"refused fair-play data: reveals do not match commitments for seat(s) {bad}")
                return
            self.record.commits, self.record.reveals = dict(msg.fair.commits), dict(msg.fair.reveals)
            self.record.joint = fp.joint_seed(self.record.reveals)
            c.dealer_commit, c.share = msg.fair.dealer, msg.fair.share
            self.record.seat_keys = self.record.seat_keys or dict(msg.fair.keys)
            c.dealt_by = c.dealt_by or [(1, c.host_seat)]
            self.saves.make()
        elif msg.fair is not None and msg.fair.share:
            c.share = msg.fair.share  # re-split by a new host after a failover
            if self.saves.save is not None:
                self.saves.save.share = c.share
        self.record.steps = self.record.steps[:start] + [public_step(s) for s in msg.steps]
        self.rebook()
        c.views[view.ply] = bytes.fromhex(view.digest())
        c.state = view
        if c.phase is PeerPhase.LOBBY:
            c.phase = PeerPhase.PLAYING
        self.resyncs += 1
        self.saves.persist()
        c.maybe_move(force=True)
        c.maybe_link()

    def dealer_at(self, ply: int) -> int:
        """The seat of the host that dealt `ply` (hosts change at failovers)."""
        c = self.me
        seat = c.host_seat
        for first, host in c.dealt_by:
            if first <= ply:
                seat = host
        return seat
