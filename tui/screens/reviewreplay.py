"""The replay the review opens: at a reviewed decision the better choice is marked on the board.

A :class:`ReplayScreen` whose board, at the decision's position, marks with ``•`` the rows
the better choice would change (the board drawn after that choice, compared row by row
with the board as it is: the same marks the table uses for the last move, so they read
in every game, theme and under NO_COLOR). The marks stay while that position is shown,
and come back whenever the replay returns to it.
"""

from __future__ import annotations

from typing import Any

from coldwater.core.state import Game
from coldwater.tui.screens.replays import ReplayScreen
from coldwater.tui.screens.table.lastmove import changed_things
from coldwater.tui.widgets.board import BoardView


class CoachReplay(ReplayScreen):
    def __init__(
        self,
        rec: Any,
        game: Game[Any, Any],
        board: type[BoardView[Any]],
        *,
        coach: tuple[int, int, str],
        best: str = "",
    ) -> None:
        """`best`: the better choice's notation at the coach's position ("" for none)."""
        super().__init__(rec, game, board, coach=coach)
        self.best = best
        self.marked: frozenset[int] = frozenset()
        """Rows marked on the board now (tests read them)."""

    def show(self) -> None:
        super().show()
        board = self.query_one("#board", BoardView)
        if self.coach is None or not self.best or self.pos != self.coach[0]:
            self.marked = frozenset()
            board.set_marks({})
            return
        if board.size.width:
            self._mark(board)
        else:  # not laid out yet: its rows have no width to be compared at
            self.call_after_refresh(self._mark_later)

    def action_step(self, delta: int) -> None:
        # The coach's position is a stop too: before a game's first decision it is none of the
        # timeline's (they are the positions after a decision), and a step back from one move
        # on must come back to it, not to the game's start.
        if self.timeline is not None and self.coach is not None:
            to, at = self.timeline.step(self.pos, "decision", delta), self.coach[0]
            if min(self.pos, to) < at < max(self.pos, to):
                self.move_to(at)
                return
        super().action_step(delta)

    def _mark_later(self) -> None:
        if self.is_mounted and self.coach is not None and self.pos == self.coach[0]:
            self._mark(self.query_one("#board", BoardView))

    def _mark(self, board: BoardView[Any]) -> None:
        state, viewer = self.board_state()
        if self.timeline is not None and self.timeline.over and self.view_index == len(self.names) + 1:
            state, viewer = self.states[self.pos].view(0), 0
        before = board.row_texts()
        try:
            after = state.clone()
            after.apply(self.game.parse_action(self.best))
        except Exception:  # a choice the shown view cannot play (a spectator's): no marks
            self.marked = frozenset()
            board.set_marks({})
            return
        board.show(after, self.names, viewer)
        rows = board.row_texts()
        board.show(state, self.names, viewer)
        marks = changed_things(before, rows)
        self.marked = frozenset(marks)
        board.set_marks(marks)
