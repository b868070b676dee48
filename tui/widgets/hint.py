"""The hint panel beside the table's choices (``h``; issue 31).

It stands where the short log is (the log comes back when it closes), like the
lesson panel of *Learn to play* (tui/widgets/coach.py), and takes no focus: the
choice list keeps the keyboard, so a hint never blocks a move. Its border says
what Esc does now (stop the thinking, or close the hint), and, when the hint is longer
than the panel (at 80x24 it has about eight rows), that h shows the rest.
"""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static


class HintPanel(VerticalScroll):
    DEFAULT_CSS = """
    HintPanel {
        height: 1fr;
        border: round $success;
        border-title-style: bold;
        padding: 0 1;
        background: $surface;
        scrollbar-size-vertical: 1;
    }
    """

    def __init__(self, **kw: Any) -> None:
        super().__init__(can_focus=False, **kw)
        self.text = ""
        """What the panel says now (tests read it)."""

    def compose(self) -> ComposeResult:
        yield Static(id="hint-text", markup=False)

    def thinking(self) -> None:
        self.border_title = "Hint"
        self.border_subtitle = "Esc stops"
        self._say("thinking… (your choices stay yours to make meanwhile)")

    def show(self, lines: list[str], title: str = "Hint") -> None:
        self.border_title = title
        self._say("\n".join(lines))
        self.scroll_home(animate=False)
        self.update_keys()
        self.call_after_refresh(self.update_keys)  # how much is hidden is known once laid out

    @property
    def more_below(self) -> bool:
        return self.scroll_y < self.max_scroll_y

    def update_keys(self) -> None:
        self.border_subtitle = "h more · Esc closes" if self.more_below else "Esc closes"

    def page(self) -> None:
        """The next page of a long hint (h again), then back to its top."""
        if self.more_below:
            self.scroll_page_down(animate=False)
        else:
            self.scroll_home(animate=False)
        self.call_after_refresh(self.update_keys)

    def _say(self, text: str) -> None:
        self.text = text
        self.query_one("#hint-text", Static).update(text)
