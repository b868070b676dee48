"""Snapshots of the last move's marks (issue 45): each title at 80×24 and 200×60, and each under
NO_COLOR, after the person's first move and the bot's answer: a • beside each changed row, a ◆
before each changed thing, what changed in it underlined; and the look-up cursor on a thing.
(SVGs in ``__snapshots__``; update with ``--snapshot-update`` and look at them.)"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from coldwater.core.notation import Action
from coldwater.net.play.table import Seat, SeatKind, Table
from coldwater.tui.app import ColdwaterApp
from coldwater.tui.catalog import Catalog
from coldwater.tui.screens.table import TableScreen
from coldwater.tui.settings import Settings
from coldwater.tui.widgets.board import BoardView
from tests.tui.test_crown_play import decision

CASES = [(game, size) for game in ("crown", "fisheries", "aquatica") for size in ((80, 24), (200, 60))]


async def marked(pilot: Pilot[Any], game: str) -> None:
    seats = [Seat(SeatKind.PERSON, "Ann"), Seat(SeatKind.BOT, "Gil", bot="greedy")]
    screen: TableScreen = pilot.app.catalog.table_screen(game)(Table.new(game, seats, seed="marks", autosave=False))
    await pilot.app.push_screen(screen)
    board = screen.query_one("#board", BoardView)
    for _ in range(40):
        assert await decision(pilot, screen)
        if board.marks:
            break
        screen.choose(next(v for v in screen.query_one("#decision").values if isinstance(v, Action)))  # type: ignore[attr-defined]
    assert board.marks
    await pilot.pause()


@pytest.mark.parametrize(("game", "size"), CASES, ids=lambda c: c if isinstance(c, str) else f"{c[0]}x{c[1]}")
def test_last_move_marks(snap_compare: Any, home: Path, game: str, size: tuple[int, int]) -> None:
    app = ColdwaterApp(strict=True, catalog=Catalog(names=(game,)), settings=Settings(bot_delay=0.0))

    async def run_before(pilot: Pilot[Any]) -> None:
        await marked(pilot, game)

    assert snap_compare(app, terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("game", ["crown", "fisheries", "aquatica"])
def test_last_move_marks_no_color(snap_compare: Any, home: Path, monkeypatch: pytest.MonkeyPatch, game: str) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    app = ColdwaterApp(strict=True, catalog=Catalog(names=(game,)), settings=Settings(bot_delay=0.0))

    async def run_before(pilot: Pilot[Any]) -> None:
        await marked(pilot, game)

    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)


@pytest.mark.parametrize("game", ["crown", "fisheries", "aquatica"])
def test_look_up_cursor(snap_compare: Any, home: Path, game: str) -> None:
    """F7, three rows down and two things along: the cursor on a thing of the board, and the
    thing in full beside it (then its row)."""
    app = ColdwaterApp(strict=True, catalog=Catalog(names=(game,)), settings=Settings(bot_delay=0.0))

    async def run_before(pilot: Pilot[Any]) -> None:
        await marked(pilot, game)
        await pilot.press("f7", "down", "down", "down", "right", "right")
        await pilot.pause()

    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)
