"""The game log: what happened, in words, newest at the bottom."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import RichLog


class GameLog(RichLog):
    """A read-only log. Not focusable: the decision list keeps the keyboard."""

    can_focus = False

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, wrap=True, markup=False, highlight=False, max_lines=500)

    def add(self, who: str, text: str) -> None:
        line = Text()
        if who:
            line.append(who, style="bold")
            line.append(": ")
        line.append(text)
        self.write(line)
