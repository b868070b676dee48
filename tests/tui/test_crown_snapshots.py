"""Snapshots of the Coldwater Crown table in mid-game at 80×24, 120×40 and 200×60,
and of its board pane at 80×24 (SVGs in ``__snapshots__``).

The position is reached from a fixed seed by the random bot playing every seat
through the table (so the log is the real log of those moves), then the person's
turn is shown. Update after an intended change with
``pytest tests/tui/test_crown_snapshots.py --snapshot-update`` and look at them.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from coldwater.core.rng import Rng
from coldwater.net.play.table import Seat, SeatKind, Table
from coldwater.tui.app import ColdwaterApp
from coldwater.tui.catalog import Catalog
from coldwater.tui.screens.table import TableScreen
from coldwater.tui.settings import Settings

SEATS = [Seat(SeatKind.PERSON, "Ada"), Seat(SeatKind.BOT, "Bo", bot="random"), Seat(SeatKind.BOT, "Cy", bot="random")]


def mid_game(home: Path, plies: int = 420) -> Table:
    """A 3-player table some way into the game, waiting for Ada (seat 0)."""
    table = Table.new("crown", SEATS, seed="snapshot", save_path=home / "saves" / "mid.json")
    bot = table.game.bot("random")
    rng = Rng("crown snapshots")
    while table.state.ply < plies or table.state.current != 0:
        cur = table.state.current
        assert cur is not None
        action = (
            table.state.sample_chance() if cur < 0 else bot.choose(table.state.view(cur), rng.fork(table.state.ply))
        )
        table.apply(cur, action)
    return table


async def settle(pilot: Pilot[Any]) -> None:
    for _ in range(4000):
        screen = pilot.app.screen
        if not isinstance(screen, TableScreen) or not screen.busy:
            break
        await asyncio.sleep(0.005)
    await pilot.pause()


@pytest.mark.parametrize("size", [(80, 24), (120, 40), (200, 60)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_crown_table(snap_compare: Any, home: Path, size: tuple[int, int]) -> None:
    (home / "saves").mkdir(parents=True, exist_ok=True)
    app = ColdwaterApp(strict=True, catalog=Catalog(names=("crown",)), settings=Settings(bot_delay=0.0))

    async def run_before(pilot: Pilot[Any]) -> None:
        cls = pilot.app.catalog.table_screen("crown")
        await pilot.app.push_screen(cls(mid_game(home)))
        await settle(pilot)

    assert snap_compare(app, terminal_size=size, run_before=run_before)


def test_crown_board_pane(snap_compare: Any, home: Path) -> None:
    (home / "saves").mkdir(parents=True, exist_ok=True)
    app = ColdwaterApp(strict=True, catalog=Catalog(names=("crown",)), settings=Settings(bot_delay=0.0))

    async def run_before(pilot: Pilot[Any]) -> None:
        cls = pilot.app.catalog.table_screen("crown")
        await pilot.app.push_screen(cls(mid_game(home)))
        await settle(pilot)
        await pilot.press("f2")
        await pilot.pause()

    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)
