"""Look up anything on the board (issue 45): the terminal's tooltip.

**F7** (or **I**) puts a cursor on a thing of the board: a card, a space, a zone, a tile's
square, whatever a board row lists as one item (``lastmove.things``); ← → move it along the
row, ↑ ↓ to the row above or below (to the thing nearest the same column). The thing is shown
reversed, with a › beside its row, and the panel beside the choices (where the short log is)
says it in full: a card's whole text, a Location's Depths, as the game's words have it
(``TableWords.look``), then the whole row it stands on, unwrapped and never cut. Esc or the
same key puts the cursor away. The choices keep their keys meanwhile, except the arrows,
which move the cursor while it is out.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual.geometry import Region

from coldwater.tui.widgets.board import BoardView
from coldwater.tui.widgets.hint import HintPanel

from .lastmove import cells, things

if TYPE_CHECKING:
    from .screen import TableScreen


class LookPanel(HintPanel):
    """The hint panel's look, with the look-up cursor's keys in its border."""

    def update_keys(self) -> None:
        self.border_subtitle = "← → ↑ ↓ move · Esc done"


class Look:
    """The table screen's look-up cursor and its panel."""

    def __init__(self, screen: TableScreen[Any, Any, Any]) -> None:
        self.screen = screen
        self.row: int | None = None
        """The board row under the cursor; None while it is put away."""
        self.thing = 0
        """Which thing of the row (``lastmove.things``) the cursor is on."""

    @property
    def active(self) -> bool:
        return self.row is not None

    def board(self) -> BoardView[Any]:
        return self.screen.board

    def toggle(self) -> None:
        s = self.screen
        if self.active:
            self.close()
            return
        if s.pane not in ("", "board"):
            s.notify("Look works on the board: close this pane first (Esc).", timeout=3)
            return
        rows = self.board().row_texts()
        if not any(row.strip() for row in rows):
            s.notify("There is no board to look at yet.", timeout=3)
            return
        first = int(s.query_one("#board-scroll").scroll_y)  # the cursor starts on the first row in view
        row = max(0, min(first, len(rows) - 1))
        while not rows[row].strip():
            row = (row + 1) % len(rows)
        self.row, self.thing = row, 0
        self._show(rows)

    def move(self, delta: int) -> None:
        """To the row above or below (blank rows skipped), on the thing nearest the same column."""
        rows = self.board().row_texts()
        if self.row is None or not rows:
            return
        row = self.row + delta
        while 0 <= row < len(rows) and not rows[row].strip():
            row += delta  # blank rows say nothing: skip them
        if not 0 <= row < len(rows):
            self.screen.app.bell()  # the first or last row: nothing further
            return
        here = things(rows[self.row])
        column = here[min(self.thing, len(here) - 1)][0] if here else 0
        there = things(rows[row])
        self.row = row
        self.thing = min(range(len(there)), key=lambda n: abs(there[n][0] - column)) if there else 0
        self._show(rows)

    def step(self, delta: int) -> None:
        """To the next or previous thing along the row (then on to the next or previous row)."""
        rows = self.board().row_texts()
        if self.row is None or not rows:
            return
        thing = self.thing + delta
        if 0 <= thing < len(things(rows[self.row])):
            self.thing = thing
            self._show(rows)
            return
        before = self.row
        self.move(delta)
        if self.row != before and delta < 0:
            self.thing = max(0, len(things(rows[self.row])) - 1)
            self._show(rows)
        elif self.row != before:
            self.thing = 0
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
        row = rows[self.row]
        spans = things(row) or [(0, len(row.rstrip()))]
        self.thing = min(self.thing, len(spans) - 1)
        span = spans[self.thing]
        self.board().set_look(self.row, cells(row, span))
        s.query_one("#board-scroll").scroll_to_region(Region(0, self.row, 1, 1), animate=False, immediate=True)
        text = row[span[0] : span[1]]
        lines = s.guard.call([text], s.words.look, s.current_view(), text, s.viewer) or [text]
        if len(spans) > 1:  # the row the thing stands on, in full (its neighbours, its heading)
            lines = [*lines, "", f"On its row: {row.strip()}"]
        where = f"row {self.row + 1} of {len(rows)}" + (
            f", thing {self.thing + 1} of {len(spans)}" if len(spans) > 1 else ""
        )
        self._panel(True).show(lines, f"Look · {where}")

    def _panel(self, on: bool) -> LookPanel:
        s = self.screen
        panel = s.query_one("#look-panel", LookPanel)
        panel.display = on
        others = s.hints.active or any(p.display for p in s.query("#coach"))
        for log in s.query("#log"):
            log.display = not on and not others
        s.fit_side()  # a panel wants the taller strip
        return panel
