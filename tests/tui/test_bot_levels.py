"""Picking a bot level for a seat on the new-game form, and playing against it."""

from __future__ import annotations

import asyncio

import pytest

from coldwater.core.bots import EasyBot
from coldwater.core.search import SearchBot
from coldwater.tui.screens.table import TableScreen

from .driver import start_game


async def test_a_seat_plays_at_the_level_picked(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        # The bot sits first, so the game opens on its search.
        await start_game(pilot, mode_key="s", game="crown", seats=["bot:normal", "person"], seed="41")
        screen = app.screen
        assert isinstance(screen, TableScreen)
        table = screen.table
        assert table.seats[0].bot == "normal"
        assert isinstance(table._bots[0], SearchBot) and table._bots[0].name == "normal"
        # The app answers keys while the bot thinks: help opens and closes over the table.
        await pilot.press("question_mark")
        await pilot.pause()
        assert app.screen is not screen
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is screen
        for _ in range(3000):
            if screen.my_turn():
                break
            await asyncio.sleep(0.05)
        assert screen.my_turn(), "the normal bot never finished its turn"
        assert table.state.ply > 0 and table.current == 1


@pytest.mark.parametrize("level", ["easy", "hard"])
async def test_each_level_can_be_picked_for_a_seat(make_app, level: str) -> None:
    """The form offers every level; the table seats the bot picked (normal plays above)."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await start_game(pilot, mode_key="s", game="aquatica", seats=["person", f"bot:{level}"], seed="7")
        screen = app.screen
        assert isinstance(screen, TableScreen)
        table = screen.table
        assert table.seats[1].bot == level
        bot = table._bots[1]
        assert bot.name == level
        assert isinstance(bot, SearchBot) == (level == "hard")
        if level == "easy":
            assert isinstance(bot, EasyBot)
