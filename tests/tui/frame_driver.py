"""Helpers for the frame tests: the screen as text, waiting for a person's turn."""

from __future__ import annotations

import asyncio
from typing import Any

from textual.pilot import Pilot

from coldwater.tui.screens.table import TableScreen

from .driver import settle


def screen_text(pilot: Pilot[Any]) -> str:
    """What the terminal shows now, as plain text (one line per row)."""
    strips = pilot.app.screen._compositor.render_strips()
    return "\n".join("".join(seg.text for seg in strip) for strip in strips)


async def my_turn(pilot: Pilot[Any], limit: float = 60.0) -> TableScreen:
    """Wait until the table waits for the person at this keyboard; return the screen."""
    loop = asyncio.get_running_loop()
    end = loop.time() + limit
    while loop.time() < end:
        await settle(pilot)
        screen = pilot.app.screen
        if isinstance(screen, TableScreen) and screen.my_turn() and not screen.busy:
            await settle(pilot)
            return screen
        await asyncio.sleep(0.002)
    raise AssertionError(f"no turn for the person; on {pilot.app.screen!r}")
