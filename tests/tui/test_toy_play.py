"""Whole games by keyboard, with the toy game (the shared table machinery)."""

from __future__ import annotations

from pathlib import Path

import pytest

from coldwater.net.table import list_saves
from coldwater.tui.screens.handover import HandOverScreen
from coldwater.tui.screens.menu import MenuScreen
from coldwater.tui.screens.score import ScoreScreen
from coldwater.tui.screens.table import TableScreen

from .conftest import toy_catalog
from .driver import play, start_game


@pytest.mark.parametrize("seats", [
    ["person", "bot:random"],
    ["person", "bot:random", "bot:random"],
    ["person", "bot:random", "bot:random", "bot:random"],
])
async def test_solo_toy_game_to_the_end(make_app, home: Path, seats: list[str]) -> None:
    app = make_app(toy_catalog())
    async with app.run_test(size=(80, 24)) as pilot:
        await start_game(pilot, mode_key="s", game="toy", seats=seats, seed="11")
        assert isinstance(app.screen, TableScreen)
        await play(pilot)
        assert isinstance(app.screen, ScoreScreen)
        await pilot.press("enter")
        assert isinstance(app.screen, MenuScreen)
    assert list_saves() == []  # a finished game leaves the saves for the records
    assert len(list((home / "records").glob("*.json"))) == 1


async def test_hotseat_hands_over_between_people(make_app) -> None:
    app = make_app(toy_catalog())
    async with app.run_test(size=(80, 24)) as pilot:
        await start_game(pilot, mode_key="h", game="toy", seats=["person", "person"], seed="5")
        assert isinstance(app.screen, HandOverScreen)
        table = app.screen_stack[-2]
        assert isinstance(table, TableScreen) and table.viewer is None
        handovers: list[str] = []
        await play(pilot, handovers=handovers)
        assert handovers[:2] == ["Player 1", "Player 2"]
        assert len(handovers) >= 3


async def test_leave_mid_game_and_resume(make_app) -> None:
    app = make_app(toy_catalog())
    async with app.run_test(size=(80, 24)) as pilot:
        await start_game(pilot, mode_key="s", game="toy", seats=["person", "bot:random"], seed="3")
        await play(pilot, stop_after=3)
        await pilot.pause(0.05)
        screen = app.screen
        assert isinstance(screen, TableScreen)
        while screen.busy:
            await pilot.pause(0.01)
        ply = screen.table.state.ply
        await pilot.press("escape", "l")
        assert isinstance(app.screen, MenuScreen)
        await pilot.press("r")
        await pilot.press("1")
        await pilot.pause()
        resumed = app.screen
        assert isinstance(resumed, TableScreen)
        assert resumed.table.state.ply == ply
        await play(pilot)
        assert isinstance(app.screen, ScoreScreen)
