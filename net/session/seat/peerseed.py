"""A peer's side of the commit-reveal seed round, and the game's start from its joint seed.

The host asks every seat to commit to a seed contribution (its beacon chain's tip rides in
it), publishes the commitments, then the reveals (docs/lan.md, "Fair play"). This seat
checks every restart of the round (a host that restarts rounds could choose the deal, so
they are capped), that its own commitment went out unaltered, and that every reveal
matches its commitment before the game starts from the joint seed. The host's side is
seedround.py.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any, Protocol

from ... import beacon
from ... import fairplay as fp
from ... import messages as m
from ...link import Link
from ..events import GameStarted
from ..host.host import MAX_ROUNDS
from .shared import Outbox, PeerPhase

if TYPE_CHECKING:
    from coldwater.core.state import Game, State

    from ..record import TableRecord
    from ..turnclock import TurnClock
    from .fairpeer import FairPeer
    from .peersave import PeerSaves


class SeedSeat(Protocol):
    """What the seed round reads and writes of the seat, beside the record, the clock and the phases."""

    game: Game[Any, Any]
    info: m.TableInfo | None
    seat: int
    seats: list[m.SeatInfo]
    host_seat: int
    state: State[Any, Any] | None
    phase: PeerPhase
    dealer_commit: bytes
    share: bytes
    dealt_by: list[tuple[int, int]]
    evidence: list[str]

    def maybe_move(self, *, force: bool = False) -> None: ...

    def maybe_link(self) -> None: ...


class PeerSeed:
    """One peer's seed rounds (``TablePeer.seed``)."""

    def __init__(
        self, record: TableRecord, out: Outbox, clock: TurnClock, fair_peer: FairPeer, saves: PeerSaves, seat: SeedSeat
    ) -> None:
        self.record = record
        self.out = out
        self.clock = clock
        self.me = seat
        self.fair_peer = fair_peer
        """A fair table's rounds, begun once the seed round is done."""
        self.saves = saves
        """The seat's save, made when the game starts."""
        self.rounds = 0
        """Seed rounds this peer was asked to take part in (capped: a host could grind the deal)."""
        self._contribution = b""

    async def on_request(self, conn: Link, msg: m.CommitRequest) -> None:
        """A (new) seed round: every restart is counted, explained and checked, and capped."""
        c = self.me
        self.rounds += 1
        if self.rounds > 1:
            names = ", ".join(str(s + 1) for s in msg.blamed) or "nobody"
            self.out.problem(
                f"the table restarted the seed round (round {self.rounds}): {msg.why or 'no reason given'}; "
                f"blamed: seat(s) {names}"
            )
            if c.seat in msg.blamed:
                c.evidence.append(
                    f"the table blamed us for withholding in seed round {self.rounds - 1}, "
                    "but we committed and revealed"
                )
                self.out.problem(c.evidence[-1])
            # The previous round's reveals, checked against the commitments we saw.
            shown = {s: x for s, x in self.record.commits.items() if s in msg.reveals}
            for seat in fp.check_reveals(shown, msg.reveals):
                self.out.problem(
                    f"seat {seat + 1}'s seed reveal in round {self.rounds - 1} does not match its commitment"
                )
            missing = sorted(set(self.record.commits) - set(msg.reveals) - set(msg.blamed) - {c.seat})
            if self.record.commits and missing:
                self.out.problem(
                    f"the table restarted the round without naming seat(s) "
                    f"{', '.join(str(s + 1) for s in missing)}, whose reveals it did not show"
                )
        if self.rounds > MAX_ROUNDS:
            self.out.problem(
                f"the table asked for a seed {self.rounds} times (at most {MAX_ROUNDS}): a host that "
                "restarts rounds can choose the deal; leaving"
            )
            await conn.close()
            return
        self.record.commits = {}
        self.record.chain = beacon.Chain(c.seat)  # fresh each round: its tip goes into this round's contribution
        self._contribution = fp.contribution(fp.new_contribution(), self.record.chain.tip)
        conn.send_nowait(m.Commit(digest=fp.seed_commitment(c.seat, self._contribution)))

    def on_commits(self, conn: Link, msg: m.Commits) -> None:
        """Every seat's commitment is in: ours must be as we sent it before we reveal."""
        c = self.me
        if msg.commits.get(c.seat) != fp.seed_commitment(c.seat, self._contribution):
            self.out.problem("the table altered our seed commitment; not revealing")
            return
        self.record.commits, c.dealer_commit = dict(msg.commits), msg.dealer
        conn.send_nowait(m.Reveal(value=self._contribution))

    def begin(self, msg: m.Begin) -> None:
        """Every reveal is in: the game starts from the joint seed (a fair table's rounds in fairpeer.py)."""
        c = self.me
        if c.state is not None:
            self.out.problem("refused a second game start")
            return
        bad = fp.check_reveals(self.record.commits, msg.reveals)
        if bad:
            self.out.problem(f"seed reveals do not match commitments for seat(s) {', '.join(str(s + 1) for s in bad)}")
            return
        assert c.info is not None
        self.record.joint = fp.joint_seed(msg.reveals)
        self.record.reveals = dict(msg.reveals)
        self.record.book = beacon.Book(fp.tips(self.record.reveals))
        c.share = msg.share
        c.seats = msg.seats
        self.record.seat_keys = {s.seat: s.key for s in msg.seats if s.key and s.kind != "host"}
        c.dealt_by = [(1, c.host_seat)]
        self.clock.restart(c.info.turn, c.info.bank, c.info.players, c.info.game_time)
        if c.info.dealer == "fair":
            self.fair_peer.begin(msg)
            return
        if not c.info.failover or (not c.share and fp.has_sealed_values(c.game)):
            self.out.problem(
                "failover is off at this table (fewer than two remote seats hold escrow shares): "
                "if the host goes away, the game ends"
            )
        full = c.game.new(c.info.players, seed=fp.game_seed(self.record.joint), options=c.info.options)
        c.state = full.view(c.seat)
        self.clock.at(c.state.ply, c.state.current, time.monotonic())
        c.phase = PeerPhase.PLAYING
        self.saves.make()
        self.saves.persist()
        self.out.emit(GameStarted(c.seat))
        c.maybe_move()
        c.maybe_link()
