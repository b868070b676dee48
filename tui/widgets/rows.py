"""Rows that never lose their end: a row too wide for its room is broken between its
items onto indented rows of its own, not cut with "…"; :class:`TextLine` is such a row
on screen, its words a reactive.

Table rows are made of items joined by separators ("Points you: 3 · Ann: 5",
"3:KKY 4:BBRK", "Salmon, Pike"); breaking at the widest separator that fits keeps
each item whole. Only a single item wider than the room is cut (the one place an
ellipsis can still appear). The breaking is pure: Rich text only.
"""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widgets import Static

SEPARATORS: tuple[str, ...] = (" │ ", " · ", "  ", ", ", " ")
"""Where a row may break, best first: a "," stays at the end of its row."""


def _head_fits(line: Text, cut: int, keep: int, width: int) -> bool:
    return line[: cut + keep].cell_len <= width


def break_row(line: Text, width: int, indent: int | None = None) -> list[Text]:
    """`line` as rows of at most `width` cells. Continuation rows start with `indent`
    spaces (default: the row's own leading spaces plus two, at most eight)."""
    width = max(1, width)
    if indent is None:
        lead = len(line.plain) - len(line.plain.lstrip(" "))
        indent = min(8, lead + 2)
    out: list[Text] = []
    line = line.copy()
    while line.cell_len > width:
        plain = line.plain
        cut, sep = -1, ""
        for candidate in SEPARATORS:
            keep = 1 if candidate == ", " else 0
            end = len(plain)
            while True:
                at = plain.rfind(candidate, 0, end)
                if at <= indent or not plain[:at].strip():
                    break
                if _head_fits(line, at, keep, width):
                    cut, sep = at, candidate
                    break
                end = at
            if cut > 0:
                break
        if cut < 0:  # one item wider than the room: cut it (nothing else is)
            line.truncate(max(1, width - 1))
            line.append("…", style="dim")
            break
        keep = 1 if sep == ", " else 0
        out.append(line[: cut + keep])
        line = Text(" " * indent) + line[cut + len(sep) :]
    line.no_wrap = True
    out.append(line)
    for row in out:
        row.no_wrap = True
    return out


def break_rows(lines: list[Text], width: int) -> list[Text]:
    return [row for line in lines for row in break_row(line, width)]


class TextLine(Static):
    """A text row of a screen whose words come from a reactive (``text``, usually bound with
    ``data_bind`` to the screen's own), redrawn only when they change.

    ``broken``: a text wider than the row goes onto more rows, broken between its items
    (:func:`break_row`), never cut, and the row's height follows (a relayout only when it
    changes). ``hide_empty``: no text, no row."""

    text: reactive[str] = reactive("", layout=False, repaint=False)

    def __init__(self, *, broken: bool = False, hide_empty: bool = False, id: str | None = None) -> None:
        super().__init__(id=id, markup=False)
        self.broken = broken
        self.hide_empty = hide_empty
        self._rows = 0
        """Rows the text takes now (``broken``); 0 before it was first drawn."""

    def watch_text(self, text: str) -> None:
        self.draw(text)

    def _fits_as_laid_out(self) -> bool:
        """Whether the text now takes the rows the row was laid out with (Textual's own measure)."""
        width = self.content_region.width
        if width <= 0 or not self.is_attached:
            return False
        self.clear_cached_dimensions()
        return self.get_content_height(self.size, self.size, width) == self.content_region.height

    def on_resize(self) -> None:
        if self.broken and self.text:
            self.draw(self.text)  # broken again for the new width

    def draw(self, text: str) -> None:
        shown = text
        if self.broken and text:
            width = max(20, (self.size.width or (self.app.size.width if self.is_attached else 80)) - 2)
            rows = break_row(Text(text), width)
            shown = "\n".join(r.plain for r in rows)
            if len(rows) != self._rows:
                self._rows = len(rows)
                self.styles.height = len(rows)  # (Textual lays the screen out again for a new height)
        if self.content != shown:
            # A broken row's height is the frame's, and a wrapped one's changes only with its number
            # of rows: a new text of the same height costs a repaint, not a relayout of the screen.
            self.update(shown, layout=False)
            if not self.broken and not self._fits_as_laid_out():
                self.refresh(layout=True)
        if self.hide_empty and self.display != bool(text):
            self.display = bool(text)
