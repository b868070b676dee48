from __future__ import annotations

from coldwater.tui.screens.menu import MenuScreen
from coldwater.tui.screens.newgame import NewGameScreen
from coldwater.tui.screens.score import ScoreScreen
from coldwater.tui.screens.table import TableScreen

from .conftest import toy_catalog


async def test_toy_solo_game_by_keyboard(make_app) -> None:
    app = make_app(toy_catalog())
    async with app.run_test(size=(80, 24)) as pilot:
        assert isinstance(app.screen, MenuScreen)
        await pilot.press("s")
        assert isinstance(app.screen, NewGameScreen)
        await pilot.pause()
        app.screen.query_one("#seed").value = "7"
        app.screen.action_start()
        await pilot.pause()
        assert isinstance(app.screen, TableScreen)
        for _ in range(400):
            if isinstance(app.screen, ScoreScreen):
                break
            await pilot.pause()
            scr = app.screen
            if isinstance(scr, TableScreen) and scr.my_turn():
                await pilot.press("1")
        assert isinstance(app.screen, ScoreScreen)
