"""The board widget protocol, and a generic board for games without their own."""

from __future__ import annotations

import pprint
from collections.abc import Mapping, Sequence
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
    naming their game's State (``<Game>Board(BoardView[<Game>State])``)."""

    def __init__(self, game: Game[Any, Any], *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.game = game
        self.shown: RenderableType = ""
        """What was drawn last (tests read it as text)."""

    MARK = "•"
    """Drawn in the board's left column beside a row the last move changed (a symbol, so it
    reads in every theme and under NO_COLOR; see :meth:`set_marks`)."""

    THING = "◆"
    """Drawn just before each thing on the board the last move changed (in the separator's cell
    before it), the thing itself underlined."""

    marks: Mapping[int, Sequence[tuple[int, int, int]]] = {}
    """Row (of the board as drawn) -> each thing on it the other seats changed since the person
    last acted, in cells: (where the thing starts, start, end of what changed in it)."""

    def set_marks(self, marks: Mapping[int, Sequence[tuple[int, int, int]]]) -> None:
        """Mark these rows and things until the person acts (the table's last-move marks)."""
        if marks != self.marks:
            self.marks = marks
            self.refresh()

    LOOK = "›"
    """Drawn in the left column of the row under the look-up cursor (table.look); the thing under
    it is shown reversed."""

    look_row: int | None = None
    look_span: tuple[int, int] | None = None
    """The cells of the thing under the look-up cursor on `look_row` (None: the whole row)."""

    def set_look(self, row: int | None, span: tuple[int, int] | None = None) -> None:
        """Put the look-up cursor on `row`, on the thing at `span` (None: away)."""
        if (row, span) != (self.look_row, self.look_span):
            self.look_row, self.look_span = row, span
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
        top, left = self.styles.padding.top, self.styles.padding.left
        return [
            self._marked(strip, crop.y + n - top, left) if strip.cell_length else strip for n, strip in enumerate(lines)
        ]

    def _marked(self, strip: Strip, y: int, left: int) -> Strip:
        """Row `y` with its marks: the sign in the left column, a THING before each changed thing
        (where a separator's space is there to take it), changed things underlined, the looked-at
        thing (or row) reversed. Symbols and attributes, so NO_COLOR reads them too."""
        looked = y == self.look_row
        if not looked and y not in self.marks:
            return strip
        width = strip.cell_length
        styles: dict[tuple[int, int], Style] = {}
        signs: dict[int, str] = {0: self.LOOK if looked else self.MARK}
        for thing, start, end in self.marks.get(y, ()):
            if end > start:
                styles[(left + start, min(width, left + end))] = Style(underline=True)
            if thing >= 1:
                signs.setdefault(left + thing - 1, self.THING)
        if looked:
            span = self.look_span or (0, width)
            styles[(left + span[0], min(width, left + span[1]))] = Style(reverse=True)  # (reads under NO_COLOR too)
        cuts = sorted(
            {c for c in (*signs, *(c + 1 for c in signs), *(c for span in styles for c in span)) if 0 < c < width}
        )
        parts = strip.divide([*cuts, width])
        out: list[Strip] = []
        at = 0
        for part in parts:
            end = at + part.cell_length
            sign = signs.get(at)
            if sign is not None and part.cell_length == 1 and (at == 0 or part.text == " "):
                first = next(iter(part), Segment(" "))
                part = Strip([Segment(sign, (first.style or Style()) + Style(bold=True))], 1)
            else:
                for (a, b), style in styles.items():
                    if a <= at and end <= b:
                        part = part.apply_style(style)
            out.append(part)
            at = end
        return Strip.join(out)

    def show(self, view: S, names: Sequence[str], viewer: int | None) -> None:
        """Redraw from `view` (already redacted for `viewer`); `names` are the seat names."""
        data = msgspec.to_builtins(view.data)
        self.shown = pprint.pformat(data, width=60, compact=True)
        self.update(self.shown)
