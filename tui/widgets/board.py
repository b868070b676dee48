"""The board widget protocol, and a generic board for games without their own."""

from __future__ import annotations

import pprint
from collections.abc import Sequence
from typing import Any, Generic, TypeVar

import msgspec
from rich.console import RenderableType
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.geometry import Region
from textual.strip import Strip
from textual.widgets import Static

from coldwater.core.state import Game, State

S = TypeVar("S", bound=State[Any, Any])


class BoardView(Static, Generic[S]):
    """Draws one position as seen by `viewer`. Per-game boards subclass it,
    naming their game's State (``CrownBoard(BoardView[CrownState])``)."""

    def __init__(self, game: Game[Any, Any], *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.game = game
        self.shown: RenderableType = ""
        """What was drawn last (tests read it as text)."""

    MARK = "•"
    """Drawn in the board's left column beside a row the last move changed (a symbol, so it
    reads in every theme and under NO_COLOR; see :meth:`set_marks`)."""

    marks: frozenset[int] = frozenset()
    """Rows (of the board as drawn) the other seats changed since the person last acted."""

    def set_marks(self, rows: frozenset[int]) -> None:
        """Mark `rows` beside the board until the person acts (the table's last-move marks)."""
        if rows != self.marks:
            self.marks = rows
            self.refresh()

    LOOK = "›"
    """Drawn in the left column of the row under the look-up cursor (table.look), which is
    also shown reversed."""

    look_row: int | None = None

    def set_look(self, row: int | None) -> None:
        """Put the look-up cursor on `row` (None: away)."""
        if row != self.look_row:
            self.look_row = row
            self.refresh()

    def drawing(self) -> RenderableType:
        """What the board draws now, for :meth:`row_texts` (a board that renders itself says so)."""
        if type(self).render is not Static.render:
            return self.render()  # type: ignore[return-value]
        content = self.content
        return Text(content) if isinstance(content, str) else content  # type: ignore[return-value]

    def row_texts(self) -> list[str]:
        """The board's rows as plain text, at the width it is drawn at (the last move's diff)."""
        width = self.content_region.width or self.size.width
        if width <= 0:
            return []
        console = self.app.console
        rows = console.render_lines(self.drawing(), console.options.update_width(width), pad=False)
        return ["".join(seg.text for seg in row).rstrip() for row in rows]

    def render_lines(self, crop: Region) -> list[Strip]:
        lines = super().render_lines(crop)
        if (not self.marks and self.look_row is None) or crop.x > 0:
            return lines
        out: list[Strip] = []
        for n, strip in enumerate(lines):
            y = crop.y + n - self.styles.padding.top
            sign = self.LOOK if y == self.look_row else self.MARK if y in self.marks else ""
            if sign and strip.cell_length:
                first = next(iter(strip), Segment(" "))
                mark = Strip([Segment(sign, (first.style or Style()) + Style(bold=True))], 1)
                rest = strip.crop(1)
                if y == self.look_row:
                    rest = rest.apply_style(Style(reverse=True))  # (reverse reads under NO_COLOR too)
                strip = Strip.join([mark, rest])
            out.append(strip)
        return out

    def show(self, view: S, names: Sequence[str], viewer: int | None) -> None:
        """Redraw from `view` (already redacted for `viewer`); `names` are the seat names."""
        data = msgspec.to_builtins(view.data)
        self.shown = pprint.pformat(data, width=60, compact=True)
        self.update(self.shown)
