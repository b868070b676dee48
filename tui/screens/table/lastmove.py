"""The last move on the board (issue 45): the rows the other seats changed since the person
last acted are marked beside the board (BoardView.MARK) until they act again.

The board is read as drawn (its rows as text, at its width) twice: when the others start
(the board then shows the position the person left) and when the person's turn comes back;
the rows that differ, or are new, are the marks. Both readings happen while others play,
never on a keypress; a key only clears the marks. Any game, any size and theme: the mark
is a symbol in the board's own left column.
"""

from __future__ import annotations

import difflib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from coldwater.tui.widgets.board import BoardView


def _plain(row: str) -> str:
    # Whose turn it is (▶) moves with every turn: not a change a move made; nor is the room
    # the pointer leaves or takes.
    return " ".join(row.replace("▶", " ").split())


def changed_rows(before: list[str], after: list[str]) -> frozenset[int]:
    """Rows of `after` that are not in `before` where they stand (changed or added)."""
    out: set[int] = set()
    old = [_plain(row) for row in before]
    new = [_plain(row) for row in after]
    for tag, _i1, _i2, j1, j2 in difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        if tag in ("replace", "insert"):
            out.update(range(j1, j2))
    return frozenset(r for r in out if after[r].strip())


class LastMove:
    """The table's part that keeps the board as the person left it and marks what changed."""

    def __init__(self) -> None:
        self.armed = False
        """The person acted: the next time others start, read the board as they left it."""
        self.before: list[str] | None = None

    def acted(self, board: BoardView[Any]) -> None:
        """The person made a move: their marks go, and the next reading is armed."""
        self.armed = True
        self.before = None
        board.set_marks(frozenset())

    def others_start(self, board: BoardView[Any]) -> None:
        """Another seat starts to play: the board shows the position the person left."""
        if self.armed:
            self.armed = False
            self.before = board.row_texts()

    def back_to_you(self, board: BoardView[Any]) -> None:
        """The person's turn is back (the board shows it now): mark what the others changed."""
        if self.before is not None:
            board.set_marks(changed_rows(self.before, board.row_texts()))
            self.before = None
