"""The Aquatica board widget: the parts drawn by :mod:`.draw` (pure), shown for one viewer.

Below 110 columns of board, where the whole sheet would not fit the board's
height, the table shows the compact form (:mod:`.compact`: the Ocean, your
board, the Goals or Tribes and the others, a line each), and F2 the whole sheet
in one column; the screen's panes show the Ocean and the players
on their own. From 110 columns the whole sheet is drawn in two columns, the Ocean
and the Goals or Tribes beside your own things.
Everything comes from ``table.view(seat)``: other hands are a count, never a card.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.text import Text
from textual.widget import Widget

from coldwater.core.aquatica.content import Deck
from coldwater.core.aquatica.model import AqData
from coldwater.core.aquatica.state import AqState
from coldwater.core.state import Game
from coldwater.tui.games.aquatica import compact
from coldwater.tui.games.aquatica.draw import TWO_COLUMNS, Sheet, fit, frame_text, layout, pool_text, seat_names
from coldwater.tui.widgets.board import BoardView

__all__ = ["ALL_PARTS", "COMPACT", "AquaticaBoard", "frame_text", "pool_text"]

ALL_PARTS = ("turn", "hand", "me", "ocean", "goals", "others")
COMPACT = ("compact",)
"""The table's own board: the compact form where the board is narrow, else ALL_PARTS."""


class AquaticaBoard(BoardView[AqState]):
    """The whole table for one viewer (None: the public view, e.g. behind a hand-over)."""

    def __init__(self, game: Game[Any, Any], *, id: str | None = None) -> None:
        super().__init__(game, id=id)
        deck = getattr(game, "deck", None)
        if not isinstance(deck, Deck):
            raise TypeError(f"{game!r} is not an Aquatica game")
        self.deck = deck
        self._last: tuple[AqState, Sequence[str], int | None, tuple[str, ...]] | None = None
        self._lines = -1
        self._width = 0
        self.plain = ""
        """The board as plain text (for tests and for reading back what is shown)."""

    @property
    def width_now(self) -> int:
        w = self.size.width or (self.parent.size.width if isinstance(self.parent, Widget) else 0)
        return max(40, (w or 80) - 1)

    def on_resize(self) -> None:
        if self._last is not None and self.width_now != self._width:
            # Re-flow the columns (a change of height alone needs nothing), after this
            # layout pass: a new height asked for inside it was not applied.
            self.call_after_refresh(self._reflow)

    def _reflow(self) -> None:
        if self._last is not None and self.width_now != self._width:
            self.show(*self._last)

    def show(self, view: AqState, names: Sequence[str], viewer: int | None, parts: tuple[str, ...] = ALL_PARTS) -> None:
        self._last = (view, names, viewer, parts)
        d: AqData = view.data
        me = viewer if viewer is not None and 0 <= viewer < d.players else None
        width = self._width = self.width_now
        column = (width - 2) // 2 if width >= TWO_COLUMNS else width
        labels = seat_names(names, d.players)
        sheet = Sheet(self.deck, column)
        lines = layout(sheet.parts(d, labels, me), width, ALL_PARTS if parts == COMPACT else parts)
        room = self.parent.size.height if isinstance(self.parent, Widget) else 0
        if parts == COMPACT and width < TWO_COLUMNS and len(lines) > room:
            # The whole sheet would scroll: the compact form, which shows it all at once.
            sheet_scores = view.scores()
            hand = d.turn != me  # on your turn the choices list the cards you can play from it
            rows = compact.lines(
                self.deck, d, labels, me, width - 2, (sheet_scores.categories, sheet_scores.rows), hand
            )
            lines = fit(rows, width)
        # Rows are cut to the width here and not by Textual (text-wrap: nowrap in the
        # stylesheet), so the height is known: an update that keeps it skips a layout pass.
        text = Text("\n").join(lines)
        self.plain = text.plain
        self.update(text, layout=len(lines) != self._lines)
        self._lines = len(lines)
