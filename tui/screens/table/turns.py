"""Whose eyes are on the table: the :class:`~.driver.Stage` the driver plays for, and what
follows a drive: the next person's view (solo), a hand-over screen between two people at one
keyboard (hotseat: nothing private stays on screen behind it), or the end of the game.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from coldwater.net.play import records
from coldwater.net.play.table import seat_label

from .logwriter import records_dir

if TYPE_CHECKING:
    from .screen import TableScreen


class Turns:
    """The table screen's part that follows the turns (see the module docstring)."""

    def __init__(self, screen: TableScreen[Any, Any, Any]) -> None:
        self.screen = screen
        self.finished = False
        """The game is over and its end screen shown."""
        self.handing_over = False
        """A hand-over screen stands between two people (hotseat)."""

    # (the Stage)
    def refresh_view(self) -> None:
        self.screen.refresh_view()

    def show_waiting(self, seat: int) -> None:
        if self.screen.drawable():
            self.screen.status.start(seat)

    def pace(self) -> float:
        return self.screen.cw.bot_delay

    def on_screen(self) -> bool:
        return self.screen in self.screen.app.screen_stack

    def after_drive(self) -> None:
        s = self.screen
        if not s.is_mounted:
            return
        t = s.table
        if t.state.is_over:
            self.finish()
            return
        cur = t.current
        if cur is not None and t.waiting_for_person and cur != s.viewer:
            if s.hotseat:
                self.hand_over(cur)
                return
            s.viewer = cur
        s.refresh_view()

    def hand_over(self, seat: int) -> None:
        from coldwater.tui.screens.handover import HandOverScreen

        s = self.screen
        self.handing_over = True
        s.viewer = None  # nothing private stays on screen behind the hand-over
        s.refresh_view()

        def ready(_: object) -> None:
            self.handing_over = False
            s.viewer = seat
            s.refresh_view()

        s.app.push_screen(HandOverScreen(seat_label(s.table.seats, seat), s.table.game.title), ready)

    def finish(self) -> None:
        s = self.screen
        if self.finished or s.app.screen is not s:
            return  # (not on top: finish when the table is back, TableScreen.on_screen_resume)
        self.finished = True
        t = s.table
        if t.save_path is not None and t.record is not None:
            records.save(t.record, records_dir() / Path(t.save_path).name)
            t.delete_save()
        s.app.switch_screen(s.end_screen())
