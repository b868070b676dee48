"""The table's full-screen panes: **F2** the board alone, **F3** the whole log, **F4**…
the game's own (``TableScreen.PANES``); the same key or Esc comes back to the table.

:class:`Panes` is the table screen's part that opens and closes them and knows which
widget PgUp / PgDn scroll (the board, or the open pane), whatever has focus.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import msgspec
from textual.containers import VerticalScroll
from textual.widget import Widget

from coldwater.tui.widgets.log import LogPane

if TYPE_CHECKING:
    from .screen import TableScreen


class Pane(msgspec.Struct, frozen=True):
    """A game's own full-screen pane (see :attr:`TableScreen.PANES`)."""

    id: str
    """Widget id suffix: the pane's container is ``#pane-<id>``."""
    title: str
    """Shown in the footer beside its key, and as the pane's heading."""
    letter: str = ""
    """A capital letter that opens it too (beside F4, F5, F6 by position)."""


class Panes:
    """See the module docstring; the open pane is ``screen.pane`` ("" for the table itself)."""

    def __init__(self, screen: TableScreen[Any, Any, Any]) -> None:
        self.screen = screen

    def scroller(self) -> Widget:
        """What PgUp / PgDn scroll now: the open pane, or the board."""
        s = self.screen
        if s.pane == "log":
            return s.query_one("#log-pane", LogPane)
        if s.pane and s.pane != "board":
            return s.query_one(f"#pane-{s.pane}", VerticalScroll)
        return s.query_one("#board-scroll", VerticalScroll)

    def scroll(self, key: str) -> bool:
        """↑ ↓ Home End scroll the open log pane, which takes no focus; True when `key` did."""
        if self.screen.pane != "log" or key not in ("up", "down", "home", "end"):
            return False
        pane = self.scroller()
        {"up": pane.scroll_up, "down": pane.scroll_down, "home": pane.scroll_home, "end": pane.scroll_end}[key](
            animate=False
        )
        return True

    def toggle(self, pane_id: str) -> None:
        """Open pane `pane_id` full-screen, or close it if it is open (back to the table)."""
        s = self.screen
        if pane_id not in {"board", "log"} | {p.id for p in s.PANES}:
            return
        s.pane = "" if s.pane == pane_id else pane_id
        s.filter_box.close(refocus=False)
        s.query_one("#table-main").display = s.pane in ("", "board")
        s.query_one("#side").display = s.pane == ""
        log_pane = s.query_one("#log-pane", LogPane)
        log_pane.display = s.pane == "log"
        for pane in s.PANES:
            s.query_one(f"#pane-{pane.id}").display = s.pane == pane.id
        s.set_class(s.pane == "board", "-pane-board")
        s.decision.asleep = False
        board = s.query_one("#board-scroll")
        board.can_focus = s.pane == "board"
        if s.pane == "board":
            board.focus()
            board.scroll_home(animate=False, immediate=True)  # the whole board opens at its top
        elif s.pane == "log":
            log_pane.catch_up()
            # The list keeps the focus, asleep (a focus change repaints the whole screen once more,
            # and restyles the list and the pane): the screen scrolls the log (scroll()).
            s.decision.asleep = True
            # At once, from the size it had when last shown: a scroll after the repaint would repaint it all again.
            log_pane.scroll_end(animate=False, immediate=True)
        elif s.pane:
            s.update_pane(s.pane, s.current_view())
            s.query_one(f"#pane-{s.pane}").focus()
        elif s.focused is not s.decision:
            s.decision.focus()
