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
from typing import TYPE_CHECKING

from ... import beacon
from ... import fairplay as fp
from ... import messages as m
from ...link import Link
from ..events import GameStarted
from ..host.host import MAX_ROUNDS
from ..turnclock import TurnClock
from .peercore import PeerCore, PeerPhase

if TYPE_CHECKING:
    from .fairpeer import FairPeer
    from .peersave import PeerSaves


class PeerSeed:
    """One peer's seed rounds (``TablePeer.seed``)."""

    def __init__(self, core: PeerCore, fair_peer: FairPeer, saves: PeerSaves) -> None:
        self.core = core
        self.fair_peer = fair_peer
        """A fair table's rounds, begun once the seed round is done."""
        self.saves = saves
        """The seat's save, made when the game starts."""
        self.rounds = 0
        """Seed rounds this peer was asked to take part in (capped: a host could grind the deal)."""
        self._contribution = b""

    async def on_request(self, conn: Link, msg: m.CommitRequest) -> None:
        """A (new) seed round: every restart is counted, explained and checked, and capped."""
        c = self.core
        self.rounds += 1
        if self.rounds > 1:
            names = ", ".join(str(s + 1) for s in msg.blamed) or "nobody"
            c.problem(
                f"the table restarted the seed round (round {self.rounds}): {msg.why or 'no reason given'}; "
                f"blamed: seat(s) {names}"
            )
            if c.seat in msg.blamed:
                c.evidence.append(
                    f"the table blamed us for withholding in seed round {self.rounds - 1}, "
                    "but we committed and revealed"
                )
                c.problem(c.evidence[-1])
            # The previous round's reveals, checked against the commitments we saw.
            for seat in fp.check_reveals({s: x for s, x in c.record.commits.items() if s in msg.reveals}, msg.reveals):
                c.problem(f"seat {seat + 1}'s seed reveal in round {self.rounds - 1} does not match its commitment")
            missing = sorted(set(c.record.commits) - set(msg.reveals) - set(msg.blamed) - {c.seat})
            if c.record.commits and missing:
                c.problem(
                    f"the table restarted the round without naming seat(s) "
                    f"{', '.join(str(s + 1) for s in missing)}, whose reveals it did not show"
                )
        if self.rounds > MAX_ROUNDS:
            c.problem(
                f"the table asked for a seed {self.rounds} times (at most {MAX_ROUNDS}): a host that "
                "restarts rounds can choose the deal; leaving"
            )
            await conn.close()
            return
        c.record.commits = {}
        c.record.chain = beacon.Chain(c.seat)  # fresh each round: its tip goes into this round's contribution
        self._contribution = fp.contribution(fp.new_contribution(), c.record.chain.tip)
        conn.send_nowait(m.Commit(digest=fp.seed_commitment(c.seat, self._contribution)))

    def on_commits(self, conn: Link, msg: m.Commits) -> None:
        """Every seat's commitment is in: ours must be as we sent it before we reveal."""
        c = self.core
        if msg.commits.get(c.seat) != fp.seed_commitment(c.seat, self._contribution):
            c.problem("the table altered our seed commitment; not revealing")
            return
        c.record.commits, c.dealer_commit = dict(msg.commits), msg.dealer
        conn.send_nowait(m.Reveal(value=self._contribution))

    def begin(self, msg: m.Begin) -> None:
        """Every reveal is in: the game starts from the joint seed (a fair table's rounds in fairpeer.py)."""
        c = self.core
        if c.state is not None:
            c.problem("refused a second game start")
            return
        bad = fp.check_reveals(c.record.commits, msg.reveals)
        if bad:
            c.problem(f"seed reveals do not match commitments for seat(s) {', '.join(str(s + 1) for s in bad)}")
            return
        assert c.info is not None
        c.record.joint = fp.joint_seed(msg.reveals)
        c.record.reveals = dict(msg.reveals)
        c.record.book = beacon.Book(fp.tips(c.record.reveals))
        c.share = msg.share
        c.seats = msg.seats
        c.record.seat_keys = {s.seat: s.key for s in msg.seats if s.key and s.kind != "host"}
        c.dealt_by = [(1, c.host_seat)]
        c.clock = TurnClock(c.info.turn, c.info.bank, c.info.players, c.info.game_time)
        if c.info.dealer == "fair":
            self.fair_peer.begin(msg)
            return
        if not c.info.failover or (not c.share and fp.has_sealed_values(c.game)):
            c.problem(
                "failover is off at this table (fewer than two remote seats hold escrow shares): "
                "if the host goes away, the game ends"
            )
        full = c.game.new(c.info.players, seed=fp.game_seed(c.record.joint), options=c.info.options)
        c.state = full.view(c.seat)
        c.clock.at(c.state.ply, c.state.current, time.monotonic())
        c.phase = PeerPhase.PLAYING
        self.saves.make()
        self.saves.persist()
        c.emit(GameStarted(c.seat))
        c.maybe_move()
        c.maybe_link()
