"""Look up anything on the board (issue 45): the terminal's tooltip.

**F7** (or **I**) puts a cursor on a row of the board; ↑ ↓ move it, and the panel beside
the choices (where the short log is) says what is on that row in full: a card's whole
text, a Location's Depths, a zone's fish and deck, as the game's words have it
(``TableWords.look``; the row itself, unwrapped and never cut, where a game has nothing
more to say). Esc or the same key puts the cursor away. The choices keep their keys
meanwhile, except ↑ ↓, which move the cursor while it is out.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual.geometry import Region

from coldwater.tui.widgets.board import BoardView
from coldwater.tui.widgets.hint import HintPanel

if TYPE_CHECKING:
    from .screen import TableScreen


class LookPanel(HintPanel):
    """The hint panel's look, with the look-up cursor's keys in its border."""

    def update_keys(self) -> None:
        self.border_subtitle = "↑ ↓ another row · Esc done"


class Look:
    """The table screen's look-up cursor and its panel."""

    def __init__(self, screen: TableScreen[Any, Any, Any]) -> None:
        self.screen = screen
        self.row: int | None = None
        """The board row under the cursor; None while it is put away."""

    @property
    def active(self) -> bool:
        return self.row is not None

    def board(self) -> BoardView[Any]:
        return self.screen.query_one("#board", BoardView)

    def toggle(self) -> None:
        s = self.screen
        if self.active:
            self.close()
            return
        if s.pane not in ("", "board"):
            s.notify("Look works on the board: close this pane first (Esc).", timeout=3)
            return
        rows = self.board().row_texts()
        if not rows:
            s.notify("There is no board to look at yet.", timeout=3)
            return
        scroll = s.query_one("#board-scroll")
        first = int(scroll.scroll_y)  # the cursor starts on the first row in view
        self.row = max(0, min(first, len(rows) - 1))
        self._show(rows)

    def move(self, delta: int) -> None:
        rows = self.board().row_texts()
        if self.row is None or not rows:
            return
        row = self.row + delta
        while 0 <= row < len(rows) and not rows[row].strip():
            row += delta  # blank rows say nothing: skip them
        if not 0 <= row < len(rows):
            self.screen.app.bell()  # the first or last row: nothing further
            return
        self.row = row
        self._show(rows)

    def close(self) -> None:
        if self.row is None:
            return
        self.row = None
        self.board().set_look(None)
        self._panel(False)

    def _show(self, rows: list[str]) -> None:
        s = self.screen
        assert self.row is not None
        board = self.board()
        board.set_look(self.row)
        s.query_one("#board-scroll").scroll_to_region(Region(0, self.row, 1, 1), animate=False, immediate=True)
        text = rows[self.row]
        lines = s.guard.call([text.strip()], s.words.look, s.current_view(), text, s.viewer)
        panel = self._panel(True)
        panel.show(lines or [text.strip()], f"Look · row {self.row + 1} of {len(rows)}")

    def _panel(self, on: bool) -> LookPanel:
        s = self.screen
        panel = s.query_one("#look-panel", LookPanel)
        panel.display = on
        others = s.hints.active or any(p.display for p in s.query("#coach"))
        for log in s.query("#log"):
            log.display = not on and not others
        s.fit_side()  # a panel wants the taller strip
        return panel
