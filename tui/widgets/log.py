"""The game log: what happened, in words, newest at the bottom."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import RichLog


class GameLog(RichLog):
    """A read-only log. Not focusable: the decision list keeps the keyboard."""

    can_focus = False

    def __init__(self, *, id: str | None = None) -> None:
        # min_width: RichLog's default (78) would cut lines instead of wrapping them.
        super().__init__(id=id, wrap=True, markup=False, highlight=False, max_lines=500, min_width=10)

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
        self.write(line)
