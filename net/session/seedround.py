"""The host's side of the commit-reveal round that makes the joint seed (see fairplay.py).

The host gathers a commitment from every seat (its own included), publishes
them all with the dealer's commitment, then gathers the reveals. Each seat's
contribution ends with its beacon chain's tip (fairplay.contribution), so the
tip is committed, checked and published the same way as the seed value. This module
keeps the round's bookkeeping and judges each Commit and Reveal; the host
carries the messages and waits.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from .. import fairplay as fp


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
