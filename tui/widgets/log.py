"""The game log: what happened, in words, newest at the bottom."""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.widgets import RichLog

MAX_LINES = 500


class GameLog(RichLog):
    """A read-only log. Not focusable: the decision list keeps the keyboard.

    RichLog wraps a line once, at the width it has when the line is written; the
    table's layout can still change after that (breakpoints, a resized terminal),
    so the log keeps its lines and wraps them again whenever its width changes.
    """

    can_focus = False

    def __init__(self, *, id: str | None = None) -> None:
        # min_width: RichLog's default (78) would cut lines instead of wrapping them.
        super().__init__(id=id, wrap=True, markup=False, highlight=False, max_lines=MAX_LINES, min_width=10)
        self._kept: list[Text] = []
        self._width = 0

    def add(self, who: str, text: str, *, quiet: bool = False) -> None:
        """Log `text`; `who` is prefixed unless the text already starts with it.

        `quiet` lines (chance: a bait drawn, a card turned) are dimmed so the
        players' own moves stand out.
        """
        line = Text(style="dim" if quiet else "")
        if who and not text.startswith(who):
            line.append(who, style="bold")
            line.append(": ")
        line.append(text)
        self._kept.append(line)
        del self._kept[:-MAX_LINES]
        self.write(line)

    def clear_all(self) -> None:
        self._kept.clear()
        self.clear()

    def on_resize(self, event: events.Resize) -> None:
        if event.size.width != self._width:
            self._width = event.size.width
            self.clear()
            for line in self._kept:
                self.write(line)
