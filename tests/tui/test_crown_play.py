"""Whole Coldwater Crown games played by keyboard alone, through the real app.

Bots and seeds are fixed so every run plays the same games. Choices rotate
through the hotkeys of the decision list (see ``driver.play``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from coldwater.core import games
from coldwater.net.table import list_saves
from coldwater.tui.catalog import Catalog
from coldwater.tui.screens.handover import HandOverScreen
from coldwater.tui.screens.menu import MenuScreen
from coldwater.tui.screens.score import ScoreScreen
from coldwater.tui.screens.table import TableScreen
from coldwater.tui.widgets.crown.board import CrownBoard

from .driver import play, start_game

CROWN = games.get("crown")
SMART = "bot:greedy" if "greedy" in CROWN.bots else f"bot:{CROWN.bots[-1]}"


def crown_catalog() -> Catalog:
    return Catalog(names=("crown",))


@pytest.mark.parametrize("seats, seed", [
    (["person", SMART], "21"),
    (["person", SMART, "bot:random"], "22"),
    (["person", "bot:random", SMART, "bot:random"], "23"),
])
async def test_solo_crown_game_by_keyboard(make_app, home: Path, seats: list[str], seed: str) -> None:
    app = make_app(crown_catalog())
    async with app.run_test(size=(80, 24)) as pilot:
        await start_game(pilot, mode_key="s", game="crown", seats=seats, seed=seed)
        table = app.screen
        assert isinstance(table, TableScreen)
        assert isinstance(table.query_one("#board"), CrownBoard)
        made = await play(pilot)
        assert made > 20
        assert isinstance(app.screen, ScoreScreen)
        scores = app.screen.scores
        assert scores.final and len(scores.totals) == len(seats)
        await pilot.press("enter")
        assert isinstance(app.screen, MenuScreen)
    assert list_saves() == []
    assert len(list((home / "records").glob("*.json"))) == 1


async def test_hotseat_crown_hides_secrets_between_people(make_app) -> None:
    app = make_app(crown_catalog())
    async with app.run_test(size=(80, 24)) as pilot:
        await start_game(pilot, mode_key="h", game="crown", seats=["person", "person", SMART], seed="31")
        assert isinstance(app.screen, HandOverScreen)
        table = app.screen_stack[-2]
        assert isinstance(table, TableScreen)
        assert table.viewer is None  # nothing private drawn behind the hand-over
        handovers: list[str] = []
        await play(pilot, handovers=handovers)
        assert isinstance(app.screen, ScoreScreen)
        assert handovers[:2] == ["Player 1", "Player 2"]
        assert len(handovers) > 4


async def test_crown_resume_after_quitting_mid_game(make_app) -> None:
    app = make_app(crown_catalog())
    async with app.run_test(size=(80, 24)) as pilot:
        await start_game(pilot, mode_key="s", game="crown", seats=["person", SMART], seed="41")
        await play(pilot, stop_after=40)
        screen = app.screen
        assert isinstance(screen, TableScreen)
        ply, digest = screen.table.state.ply, screen.table.state.digest()
        await pilot.press("escape", "q")  # quit the whole app mid-game
    assert len(list_saves()) == 1

    app2 = make_app(crown_catalog())
    async with app2.run_test(size=(80, 24)) as pilot:
        await pilot.press("r")
        await pilot.press("1")
        await pilot.pause()
        resumed = app2.screen
        assert isinstance(resumed, TableScreen)
        assert resumed.table.state.ply == ply and resumed.table.state.digest() == digest
        await play(pilot)
        assert isinstance(app2.screen, ScoreScreen)
