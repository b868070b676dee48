"""The host's side of the commit-reveal round that makes the joint seed (see fairplay.py).

The host gathers a commitment from every seat (its own included), publishes
them all with the dealer's commitment, then gathers the reveals. Each seat's
contribution ends with its beacon chain's tip (fairplay.contribution), so the
tip is committed, checked and published the same way as the seed value.
:class:`SeedRound` keeps one round's bookkeeping; :class:`Seeding` drives the
rounds at the host (it waits for the lobby, judges each Commit and Reveal, names
a seat that stalls a round, and at the end starts the game: the escrow shares of
the dealer's secret, every seat's Begin, the first position).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Protocol

import msgspec

from coldwater.core import record

from ... import beacon
from ... import fairplay as fp
from ... import messages as m
from ...link import Link
from ..events import Problem
from .shared import HostPhase, Outbox, Remote, TableTerms, Tasks, fp_text

if TYPE_CHECKING:
    from ..record import TableRecord
    from .fairhost import FairHost
    from .relay import Relay

log = logging.getLogger("coldwater.net")

MAX_ROUNDS = 3
"""Seed rounds a table may run; peers refuse a fourth (a host restarting rounds could grind the deal)."""
ROUND_TIMEOUT = 30.0
"""Seconds each half of a seed round may take."""


class SeedRound:
    """One commit-reveal round among `seats`; `own` is the host's seat (or -1 without one).

    `bots` maps each seat a bot plays in the host's process at a fair-dealer table
    to its own chain's tip: the host commits and reveals for it as for its own seat
    (such a bot is a seat with its own layer and chain, run by the host's program).
    """

    def __init__(self, seats: Iterable[int], own: int, tip: bytes, bots: Mapping[int, bytes] | None = None) -> None:
        self.round = fp.CommitReveal(seats)
        self.own = own
        self._mine = {own: fp.contribution(fp.new_contribution(), tip)}
        for seat, bot_tip in (bots or {}).items():
            self._mine[seat] = fp.contribution(fp.new_contribution(), bot_tip)
        for seat, value in self._mine.items():
            self.round.commit(seat, fp.seed_commitment(seat, value))

    @property
    def all_committed(self) -> bool:
        return self.round.all_committed

    @property
    def done(self) -> bool:
        return self.round.done

    @property
    def commits(self) -> dict[int, bytes]:
        return dict(self.round.commits)

    @property
    def reveals(self) -> dict[int, bytes]:
        return dict(self.round.reveals)

    def commit(self, seat: int, digest: bytes) -> str | None:
        """Take a seat's commitment; the reason it is refused, or None."""
        if seat in self.round.commits:
            return "no commitment is due from this seat now"
        try:
            self.round.commit(seat, digest)
        except fp.FairPlayError as e:
            return str(e)
        return None

    def reveal_own(self) -> None:
        for seat, value in self._mine.items():
            self.round.reveal(seat, value)

    def reveal_due(self, seat: int) -> bool:
        return self.round.all_committed and seat not in self.round.reveals

    def reveal(self, seat: int, value: bytes) -> None:
        """Take a seat's reveal; FairPlayError when it does not match its commitment or holds no chain tip."""
        if seat not in fp.tips({seat: value}):
            raise fp.FairPlayError(f"seat {seat}'s reveal holds no beacon chain tip", [seat])
        self.round.reveal(seat, value)

    def seed(self) -> bytes:
        return self.round.seed()


class SeedingTable(Protocol):
    """What :class:`Seeding` reads and sets of the host beyond its record and terms: the seats, the
    committed dealer, the table's life, the seat list the seats begin with."""

    @property
    def remotes(self) -> dict[int, Remote]: ...

    @property
    def kinds(self) -> list[str]: ...

    @property
    def host_seat(self) -> int: ...

    @property
    def dealer(self) -> fp.CommittedDealer: ...

    @property
    def cheaters(self) -> list[str]: ...

    phase: HostPhase
    beacon_id: int

    def lobby(self) -> list[m.SeatInfo]: ...


class Seeding:
    """The host's seed rounds (``TableHost.seeding``): once the lobby is filled, at most :data:`MAX_ROUNDS`
    commit-reveal rounds, each Commit and Reveal judged against the round running; then the game starts
    (the escrow shares of the dealer's secret, every seat's Begin, the first position)."""

    def __init__(
        self,
        record: TableRecord,
        out: Outbox,
        tasks: Tasks,
        terms: TableTerms,
        host: SeedingTable,
        *,
        relay: Relay,
        fair_host: FairHost,
        filled: Callable[[], bool],
        auto_start: bool,
    ) -> None:
        self.record = record
        self.out = out
        self.tasks = tasks
        self.terms = terms
        self.host = host
        self.relay = relay
        """The committed game's relay: it builds the table at the start, and plays a stalling seat's bot."""
        self.fair_host = fair_host
        """At a fair table: its rounds, begun once the seed round is done."""
        self.filled = filled
        """Whether every remote seat is taken by a present, ready peer (seating.py): a round needs it."""
        self.auto_start = auto_start
        """The table starts by itself once every seat is filled (else when its person presses Start)."""
        self.round_timeout = ROUND_TIMEOUT
        """Seconds each half of a seed round may take."""
        self.round: SeedRound | None = None
        """The round running now (None between rounds): a seat's Commit and Reveal are judged against it."""
        self.start_requested = asyncio.Event()
        """The host's person pressed Start (a table that does not start by itself waits for it)."""

    async def run(self) -> None:
        """Seed rounds until one completes: at most MAX_ROUNDS, each restart named to every peer.

        A seat that did not commit or reveal in time is named and its seat is given
        to a bot (the table's rule: a stall must not hold everyone), so the next
        round can complete; a seat that left the lobby simply frees its seat.
        """
        host = self.host
        filled = self.filled
        why, blamed, reveals = "", list[int](), dict[int, bytes]()
        for n in range(1, MAX_ROUNDS + 1):
            await self.tasks.wait(lambda: filled() and (self.auto_start or self.start_requested.is_set()))
            rnd = await self._commit_reveal(n, why, blamed, reveals)
            if rnd is None:
                return
            reveals = rnd.reveals
            late = [s for s in rnd.round.seats if s not in rnd.round.reveals and s != rnd.own]
            blamed = [s for s in late if s in host.remotes and host.remotes[s].key and host.remotes[s].present]
            for s in blamed:
                r = host.remotes[s]
                what = "reveal its seed contribution" if s in rnd.round.commits else "commit to a seed contribution"
                self.out.blame(
                    f"{r.name} (seat {s + 1}, {fp_text(r.key)}) did not {what} in time; a bot plays seat {s + 1}"
                )
                if r.conn is not None:
                    r.conn.send_nowait(m.Refuse(reason=f"you did not {what} in time; a bot plays your seat"))
                    self.tasks.spawn(r.conn.close())
                self.relay.give_to_bot(r)
            why = (
                "seat(s) " + ", ".join(str(s + 1) for s in blamed) + " withheld"
                if blamed
                else "a seat left during the round"
            )
            self.out.emit(Problem(f"the fair-play round {n} failed ({why}); starting round {n + 1}"))
        raise RuntimeError(f"the fair-play round failed {MAX_ROUNDS} times")

    async def _commit_reveal(self, n: int, why: str, blamed: list[int], last: dict[int, bytes]) -> SeedRound | None:
        """One round; None when it completed (the game then starts), else the failed round."""
        host = self.host
        filled = self.filled
        own = host.host_seat if host.host_seat >= 0 else -1
        self.record.chain = beacon.Chain(own)  # a fresh chain each round: its tip is part of this round's contribution
        host.beacon_id = own
        # At a fair table each bot seat is a seat of the protocol: its own chain, committed by this host for it.
        self.record.bot_chains = (
            {i: beacon.Chain(i) for i, k in enumerate(host.kinds) if k == "bot"}
            if self.terms.info.dealer == "fair"
            else {}
        )
        seats = sorted([s for s, r in host.remotes.items() if not r.by_bot] + [own, *self.record.bot_chains])
        rnd = SeedRound(seats, own, self.record.chain.tip, {i: c.tip for i, c in self.record.bot_chains.items()})
        self.round = rnd
        host.phase = HostPhase.SEEDING
        try:
            self.out.broadcast(m.CommitRequest(round=n, why=why, blamed=blamed, reveals=last))
            ok = await self.tasks.wait(lambda: rnd.all_committed or not filled(), self.round_timeout)
            if not ok or not rnd.all_committed:
                return rnd
            # Every commitment (and the dealer's) is published before anyone reveals.
            self.out.broadcast(m.Commits(commits=rnd.commits, dealer=host.dealer.commitment))
            rnd.reveal_own()
            ok = await self.tasks.wait(lambda: rnd.done or not filled(), self.round_timeout)
            if not ok or not rnd.done:
                return rnd
        finally:
            self.round = None
            if host.phase is HostPhase.SEEDING:
                host.phase = HostPhase.LOBBY
        self.record.joint = rnd.seed()
        host.dealer.start(self.record.joint)
        host.phase = HostPhase.PLAYING
        seats_info = host.lobby()
        # The remote seats sign their moves; the host's own need no signature (it deals and orders
        # everything anyway, and its channel authenticates it), which saves 64 bytes per peer per move.
        self.record.seat_keys = {s.seat: s.key for s in seats_info if s.key and s.kind != "host"}
        if self.terms.info.dealer == "fair":
            # No dealer secret, so no escrow: the layers are the seats' own keys.
            for r in host.remotes.values():
                r.share = b""
        else:
            self.split_escrow()
        for r in host.remotes.values():
            if r.conn is not None:
                r.conn.send_nowait(m.Begin(reveals=rnd.reveals, seats=seats_info, share=r.share))
        self.record.commits = rnd.commits
        self.record.reveals = rnd.reveals
        self.record.book = beacon.Book(fp.tips(rnd.reveals))
        if self.terms.info.dealer == "fair":
            self.fair_host.begin(seats_info, rnd.reveals)
            self.out.lobby_changed()
            return None
        state = self.terms.game.new(
            self.terms.info.players, seed=fp.game_seed(self.record.joint), options=self.terms.options
        )
        rec = record.start(self.terms.game, state, self.terms.options, meta={"table": self.terms.name})
        self.relay.start_table(state, rec)
        self.out.lobby_changed()
        return None

    def split_escrow(self) -> None:
        """Shares of the dealer's secret for the remote seats still played by their people (after the seed
        round, and again at a new host after a failover).

        Never fewer than two holders: one holder's share would be the secret itself.
        """
        host = self.host
        holders = sorted((r for r in host.remotes.values() if not r.by_bot), key=lambda x: x.seat)
        sealed = fp.has_sealed_values(self.terms.game)
        # A game with no sealed values draws everything in public: no secret to escrow, and
        # any other remote seat can carry the game on.
        shares = host.dealer.shares(len(holders)) if sealed else []
        for r in host.remotes.values():
            r.share = b""
        for r, share in zip(holders, shares):
            r.share = share
        on = len(shares) >= fp.MIN_HOLDERS if sealed else len(holders) >= 1
        if on != self.terms.info.failover:
            self.terms.info = msgspec.structs.replace(self.terms.info, failover=on)
        if not on:
            text = (
                "failover is off at this table: fewer than two remote seats hold escrow shares, "
                "so a lost host ends the game"
            )
            log.info("%s", text)
            self.out.emit(Problem(text))  # said plainly to the host's person too

    def on_commit(self, r: Remote, conn: Link, msg: m.Commit) -> None:
        if self.round is None:
            self.out.refuse(conn, "commit", "no commitment is due from this seat now")
            return
        why = self.round.commit(r.seat, msg.digest)
        if why is not None:
            self.out.refuse(conn, "commit", why)
        self.tasks.wake()

    def on_reveal(self, r: Remote, conn: Link, msg: m.Reveal) -> None:
        host = self.host
        if self.round is None or not self.round.reveal_due(r.seat):
            self.out.refuse(conn, "reveal", "no reveal is due from this seat now")
            return
        try:
            self.round.reveal(r.seat, msg.value)
        except fp.FairPlayError as e:
            # Named to everyone, and sent away: this peer changed its contribution after
            # seeing others'. The round starts again when the seat is filled.
            text = f"{r.name} (seat {r.seat + 1}, {fp_text(r.key)}) cheated: {e}"
            self.out.refuse(conn, "reveal", str(e))
            self.out.broadcast(m.Notice(text=text))
            self.out.emit(Problem(text))
            host.cheaters.append(text)
            conn.send_nowait(m.Refuse(reason="your seed reveal does not match your commitment"))
            self.tasks.spawn(conn.close())
        self.tasks.wake()
