"""Turns and rounds, counted the same way for every game and mode.

A position's :class:`Clock` follows from the previous position's clock and the
position's own :meth:`State.turn <coldwater.core.state.State.turn>` (public data,
so every view and the full state count alike):

- a *turn* begins when the party changes, or its stage drops (a solo game's turns
  are all one seat's: Aquatica's turn goes pre → main → post, then pre again);
  chance outcomes belong to the turn they interrupt, and setup has no turn;
- a *round* is the game's own count where it keeps one (Fisheries' day), else it
  begins each time the party that began the round has its turn again (Practice
  Pond: your turn and the silent player's; a solo Aquatica game: each of your turns);
- where the engine does not say whose turn it is, each run of one seat's
  decisions is that seat's turn.

The record stores each entry's clock (``Entry.clock``), so a list of saves can say
how far a game went without replaying it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

import msgspec

from .state import CHANCE, SETUP, State, Turn


class Clock(msgspec.Struct, frozen=True, array_like=True):
    """Round and turn of one position (the one after a record entry)."""

    round: int = 0
    """1-based; 0 while setting up."""
    turn: int = 0
    """Turns begun so far, 1-based; 0 while setting up."""
    party: int = SETUP
    """Whose turn it is (see :class:`~coldwater.core.state.Turn`)."""
    stage: int = 0
    lead: int = SETUP
    """The party whose turn began this round."""

    @property
    def setup(self) -> bool:
        return self.turn == 0

    def text(self, sep: str = " · ") -> str:
        """'round 3 · turn 5', or 'setup'."""
        return "setup" if self.setup else f"round {self.round}{sep}turn {self.turn}"


START = Clock()


def advance(prev: Clock, after: State[Any, Any]) -> Clock:
    """The clock of `after`, a position reached from one whose clock is `prev`."""
    if after.is_over:
        return prev  # the last turn is over, not a new one begun
    t = after.turn()
    if t is None:
        cur = after.current
        if cur is None or cur == CHANCE:
            return prev
        t = Turn(cur)
    if t.party == SETUP:
        return prev
    if not (prev.setup or t.party != prev.party or t.stage < prev.stage):
        return prev if t.stage == prev.stage else msgspec.structs.replace(prev, stage=t.stage)
    if t.round is not None:
        rnd, lead = t.round, t.party if t.round != prev.round else prev.lead
    elif prev.setup or t.party == prev.lead:
        rnd, lead = prev.round + 1, t.party
    else:
        rnd, lead = prev.round, prev.lead
    return Clock(rnd, prev.turn + 1, t.party, t.stage, lead)


def clocks(states: Iterable[State[Any, Any]]) -> Iterator[Clock]:
    """The clock of each position in order (the first is counted from the start)."""
    c = START
    for st in states:
        c = advance(c, st)
        yield c
