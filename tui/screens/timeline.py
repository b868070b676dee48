"""A finished or saved game laid out in time: positions, decisions, turns, rounds,
scores per round and the moments trophies and goals were won.

Used by the replay viewer (stepping by decision, turn or round) and by the end
of game screen (the score-over-time chart, "when was each trophy won"). Built
from a record by replaying it once; nothing here draws.

Terms, the same for every game (:mod:`coldwater.core.clock` counts them):

- a *decision* is a record entry made by a seat (chance outcomes are not);
- a *turn* is a party's turn as the game counts it (a solo rival that is no seat
  has turns, and a solo game's turns are counted one by one); where the game does
  not say, a run of decisions by one seat;
- a *round* is the game's own count where it has one (a day, say), else it
  begins each time the party that began the round plays again. Setup, before the
  first turn, is round 0.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from coldwater.core import record as record_mod
from coldwater.core.clock import START, Clock, advance
from coldwater.core.errors import RecordError
from coldwater.core.state import CHANCE, Game, State
from coldwater.tui.games import words_of
from coldwater.tui.games.words import TableWords


class Milestone(msgspec.Struct, frozen=True):
    pos: int
    """Position (state index) right after it was won."""
    seat: int
    text: str
    who: str = ""
    """Who won it when that is no seat (a solo game's rival); "" for `seat`."""


class Timeline:
    def __init__(
        self, rec: record_mod.GameRecord, game: Game[Any, Any], states: Sequence[State[Any, Any]] | None = None
    ) -> None:
        """With `states` (one per position, ``len(rec.entries) + 1``), lay those out instead of
        replaying the record: a watcher's public views, which no record can replay."""
        self.rec = rec
        self.game = game
        self.states: list[State[Any, Any]] = []
        """Full states: ``states[p]`` is the position after ``p`` entries."""
        self.error = ""
        if states is not None:
            self.states = list(states)[: len(rec.entries) + 1]
        else:
            try:
                _, state = record_mod.initial_state(rec, game)
                self.states.append(state.clone())
                for _, _, after in record_mod.replay_iter(rec, game):
                    self.states.append(after.clone())
            except RecordError as e:
                self.error = str(e)
        entries = rec.entries[: max(0, len(self.states) - 1)]
        self.entries = entries
        # decision_pos[k]: the position just before decision k (someone is asked).
        self.decision_pos = [i for i, e in enumerate(entries) if e.seat != CHANCE]
        self.clocks: list[Clock] = []
        """``clocks[p]``: round and turn at position ``p`` (as the record counts them)."""
        c = START
        for p, st in enumerate(self.states):
            c = advance(c, st) if p else START
            self.clocks.append(c)
        self.turn_pos = [p for p in range(1, len(self.clocks)) if self.clocks[p].turn != self.clocks[p - 1].turn]
        """Positions where a turn begins (its first decision or draw is next)."""
        self.round_of = [c.round for c in self.clocks]

    @property
    def end(self) -> int:
        return len(self.states) - 1

    @property
    def over(self) -> bool:
        return bool(self.states) and self.states[-1].is_over

    # ---- counting ---------------------------------------------------------------
    def decisions_before(self, pos: int) -> int:
        """How many decisions were made to reach `pos`."""
        return sum(1 for p in self.decision_pos if p < pos)

    def turn_at(self, pos: int) -> int:
        """The turn (1-based) under way at `pos` (about to begin if `pos` starts one); 0 before any."""
        return self.clocks[pos].turn if 0 <= pos < len(self.clocks) else 0

    # ---- moving -----------------------------------------------------------------
    def stops(self, unit: str) -> list[int]:
        """Positions one step of `unit` (decision, turn, round) moves between, in order."""
        if unit == "decision":
            # Right after each decision and the chance it set off: where the next one is asked.
            marks = set(self.decision_pos[1:])
        elif unit == "turn":
            marks = set(self.turn_pos)
        else:
            marks = {p for p in range(1, len(self.states)) if self.round_of[p] != self.round_of[p - 1]}
        marks.update({0, self.end})
        return sorted(m for m in marks if 0 <= m <= self.end)

    def step(self, pos: int, unit: str, delta: int) -> int:
        stops = self.stops(unit)
        if delta > 0:
            return next((p for p in stops if p > pos), self.end)
        return next((p for p in reversed(stops) if p < pos), 0)

    def decision_position(self, n: int) -> int:
        """The position right after decision `n` (1-based) and the chance it caused; 0 for n <= 0."""
        if n <= 0 or not self.decision_pos:
            return 0
        n = min(n, len(self.decision_pos))
        nxt = self.decision_pos[n] if n < len(self.decision_pos) else self.end
        return nxt

    # ---- scores and milestones ----------------------------------------------------
    def score_series(self) -> tuple[list[str], list[int], list[list[int]]]:
        """(row labels, round numbers, totals[row][i]): the score at the end of each round."""
        if not self.states:
            return [], [], []
        last_of: dict[int, int] = {}
        for p, r in enumerate(self.round_of):
            if r > 0:
                last_of[r] = p
        labels: list[str] = []
        rounds: list[int] = []
        series: list[list[int]] = []
        for r, p in sorted(last_of.items()):
            try:
                sc = self.states[p].scores()
            except Exception:  # provisional scores mid-game are a courtesy of the engine
                continue
            if not series:
                labels = list(sc.labels)
                series = [[] for _ in sc.labels]
            for row, total in enumerate(sc.totals[: len(series)]):
                series[row].append(total)
            rounds.append(r)
        return labels, rounds, series

    def milestones(self) -> list[Milestone]:
        """What each party won along the way, in order, as the game's own words tell it
        (:meth:`~coldwater.tui.games.words.TableWords.milestones`)."""
        words = self.words()
        out: list[Milestone] = []
        for p in range(len(self.states)):
            # Position 0 counts against nothing: what a party holds from the setup is won at "setup".
            before = self.states[p - 1] if p else None
            out += [Milestone(p, w.seat, w.text, who=w.who) for w in words.milestones(before, self.states[p])]
        return out

    def rival_result(self) -> str:
        """Where a solo rival that is no seat ended ("" in a game without one)."""
        return self.words().rival_result(self.states[-1]) if self.states else ""

    def words(self) -> TableWords[Any, Any, Any]:
        """The game's own words, which know what it wins along the way."""
        return words_of(self.game.name)(self.game, [])

    def when(self, pos: int) -> str:
        """'round 3, turn 12' for a position."""
        return self.clocks[pos].text(", ")

    def where(self, pos: int) -> str:
        """'round 3, turn 12, move 41' for the decision made at `pos`: the one numbering the
        review, the CLI and its JSON use (``core.grading.Moves``: move M is the M-th decision)."""
        return f"{self.when(pos)}, move {self.decisions_before(pos) + 1}"

    def won_when(self, m: Milestone) -> str:
        """When a milestone was won: the turn of the move that won it (the position
        right after may already be the next party's turn)."""
        return self.when(max(0, m.pos - 1))
