"""The driver for bots and chance: plays every seat that is not a person at this keyboard.

:class:`Driver` runs the table's ``step()`` (a chance draw, a bot's move, a remote
player's move arriving) until a person here must act or the game ends, and keeps
who is thinking and since when. It runs inside a Textual worker the table screen
starts (``TableScreen.drive``); a bot's search happens off the event loop (the
app's worker process, or a thread), so the screen keeps repainting. What the
person sees is the screen's business, told through :class:`Stage`: the driver
says when a picture is worth drawing, never how.
"""

from __future__ import annotations

import asyncio
import time
from typing import Protocol

from coldwater.core.state import CHANCE
from coldwater.net.play.table import SeatKind
from coldwater.net.play.tablelike import TableLike


class Stage(Protocol):
    """What the driver asks of the screen it plays for."""

    def refresh_view(self) -> None:
        """Draw the position as it is now."""

    def show_waiting(self, seat: int) -> None:
        """Say that `seat` (a bot or a remote player) is thinking."""

    def pace(self) -> float:
        """Seconds to wait after a bot's move, so a person can follow it (0: none)."""

    def on_screen(self) -> bool:
        """Whether the screen is still up (a drive can outlive it: the person left the table)."""

    def after_drive(self) -> None:
        """The drive stopped: a person's turn here, a hand-over, or the end."""


class Driver:
    """Plays chance, bots and remote seats for one table (see the module docstring)."""

    def __init__(self, table: TableLike, stage: Stage) -> None:
        self.table = table
        self.stage = stage
        self.thinking: tuple[int, float] = (-1, 0.0)
        """The seat now thinking and since when (``time.monotonic``); seat -1: nobody."""
        self.step_at = time.monotonic()
        """When the step being played now began (a search bot's bar counts from it)."""

    def waiting_on(self, seat: int) -> None:
        """`seat` starts to think about its move now."""
        self.thinking = (seat, time.monotonic())

    def thought_for(self) -> tuple[int, int]:
        """(seat, whole seconds) of the move being thought over now; seat -1 when nobody is."""
        seat, since = self.thinking
        if seat < 0 or self.table.current != seat:
            return -1, 0
        return seat, int(time.monotonic() - since)

    async def run(self) -> None:
        # Repaint only where a person can see a difference: once when a bot starts
        # thinking, after each bot move when moves are paced, and at the end. Chance
        # steps (a fill draws up to six bait) do not each need a frame.
        t, stage = self.table, self.stage
        waiting_on: int | None = None
        while t.current is not None and not t.waiting_for_person:
            cur = t.current
            if cur != CHANCE and cur != waiting_on:
                # The position the seat thinks over, chance steps included (a remote player may think
                # for minutes: the board must not stay as it was before the setup's draws).
                stage.refresh_view()
                stage.show_waiting(cur)
                waiting_on = cur
            self.step_at = time.monotonic()
            if not await t.step():
                break
            if cur != CHANCE and t.seats[cur].kind is SeatKind.BOT and (pace := stage.pace()) > 0:
                stage.refresh_view()
                await asyncio.sleep(pace)
            elif cur != CHANCE and (not t.person_seats() or t.seats[cur].kind is SeatKind.REMOTE) and stage.on_screen():
                # Watching (no turn of ours ends this loop), or another person at a LAN table
                # making the several decisions of one turn: draw each, as it is in the log.
                stage.refresh_view()
        stage.after_drive()
