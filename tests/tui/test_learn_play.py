"""Learn to play in the app, by keys: from the menu into a first game of each title, the
first lesson on screen, a few decisions, leave, resume, and no lesson comes twice; a whole
lesson game ends on the score sheet with its closing lesson."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Static

from coldwater.net.play.table import list_saves
from coldwater.tui.coach import LESSON_META, SHOWN_META
from coldwater.tui.screens.learn import LearnScreen
from coldwater.tui.screens.score import ScoreScreen
from coldwater.tui.screens.table import TableScreen
from coldwater.tui.widgets.choices import ChoiceList
from coldwater.tui.widgets.coach import CoachedTable, CoachPanel
from tests.tui.driver import by_table, rotating
from tests.tui.screen_text import screen_text
from tests.tui.test_crown_play import decision

KEYS = {"crown": "c", "fisheries": "f", "aquatica": "a"}
FIRST = {
    "crown": "Coldwater Crown: how a turn goes",
    "fisheries": "Fisheries: how a day goes",
    "aquatica": "Aquatica: how a turn goes",
}


async def choose_by_key(pilot: Any, screen: TableScreen, n: int) -> None:
    """Make `n` decisions with the first choice's hotkey, waiting for each to be asked."""
    for _ in range(n):
        ply = screen.table.state.ply
        for _attempt in range(3):  # a key that lands while the list is being refilled is ignored (stale)
            assert await decision(pilot, screen)
            values = screen.query_one("#decision", ChoiceList).values
            only_done = len(values) == 1 and screen.words.is_done(screen.current_view(), values[0])
            await pilot.press("e" if only_done else "1")  # the done choice's key is always e
            for _ in range(2000):
                if screen.table.state.ply != ply:
                    break
                await asyncio.sleep(0.001)
            if screen.table.state.ply != ply:
                break
        assert screen.table.state.ply != ply, "the hotkey made no move:\n" + screen_text(pilot.app)


@pytest.mark.parametrize("game", ["crown", "fisheries", "aquatica"])
async def test_learn_to_play_from_the_menu_leave_and_resume(make_app, home: Path, game: str) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("l")
        assert isinstance(app.screen, LearnScreen)
        await pilot.press(KEYS[game])
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, TableScreen) and isinstance(screen, CoachedTable)
        assert await decision(pilot, screen)
        panel = screen.query_one(CoachPanel)
        assert panel.display and panel.lesson is not None and panel.lesson.title == FIRST[game]
        assert FIRST[game] in screen_text(pilot.app)
        assert not screen.query_one("#log").display  # the panel has the log's place
        # G pages through the lesson, then brings the next one; nothing is moved meanwhile.
        ply = screen.table.state.ply
        for _ in range(6):
            if panel.lesson is None or panel.lesson.title != FIRST[game] or not panel.display:
                break
            await pilot.press("G")
            await pilot.pause()
        assert not panel.display or panel.lesson is None or panel.lesson.title != FIRST[game]
        assert screen.table.state.ply == ply
        await choose_by_key(pilot, screen, 4)
        taught = set(screen.coach.taught)
        assert any(k.startswith("flow.") for k in taught) and len(taught) >= 2
        meta = screen.table.record.meta
        assert meta[LESSON_META] == game and set(meta[SHOWN_META].split(",")) == taught
        await pilot.press("escape", "q")  # leave mid-game: the app quits, the game is saved
    (save,) = list_saves()
    assert save.game == game

    app2 = make_app()
    async with app2.run_test(size=(80, 24)) as pilot:
        await pilot.press("r")
        await pilot.press("1")
        await pilot.pause()
        resumed = app2.screen
        assert isinstance(resumed, CoachedTable) and isinstance(resumed, TableScreen)
        assert resumed.coach.taught == taught
        assert await decision(pilot, resumed)
        assert FIRST[game] not in screen_text(pilot.app)
        await choose_by_key(pilot, resumed, 3)
        # Every lesson shown after the resume is a new one.
        new = resumed.coach.taught - taught
        shown = resumed.coach.last
        assert shown is None or shown.key == "word" or set(shown.keys) <= new


async def test_x_turns_the_lessons_off_and_the_table_plays_on(make_app, home: Path) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("l", "c")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, CoachedTable) and isinstance(screen, TableScreen)
        assert await decision(pilot, screen)
        await pilot.press("X")
        await pilot.pause()
        assert not screen.query_one(CoachPanel).display and screen.query_one("#log").display
        await choose_by_key(pilot, screen, 3)
        assert not screen.query_one(CoachPanel).display
        assert screen.table.record.meta.get("lessons_off") == "1"


TITLES = {"crown": "Coldwater Crown", "fisheries": "Fisheries of Gloucester", "aquatica": "Aquatica"}


@pytest.mark.parametrize("game", ["crown", "fisheries", "aquatica"])
async def test_the_closing_lesson_is_on_the_end_screen(make_app, home: Path, game: str) -> None:
    """A whole lesson game (the first decisions by key, the rest straight on the table), then
    the closing lesson is on the end screen, at its top at 80x24, quoting the final score."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("l", KEYS[game])
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, CoachedTable) and isinstance(screen, TableScreen)
        await choose_by_key(pilot, screen, 2)
        assert await decision(pilot, screen)
        table = screen.table
        await by_table(screen, rotating, 0, 100_000)
        loop = asyncio.get_running_loop()
        end = loop.time() + 120
        while not isinstance(app.screen, ScoreScreen):
            assert loop.time() < end, f"the game did not end: {app.screen!r}"
            await asyncio.sleep(0.01)
        await pilot.pause()
        points = table.state.scores().totals[0]
        shown = app.screen.query_one("#closing-lesson", Static)
        assert shown.border_title == f"Your first game of {TITLES[game]}"
        text = screen_text(pilot.app)
        assert f"Your first game of {TITLES[game]}" in text and f"You scored {points}" in text
        assert "flow.closing" in screen.coach.taught


async def test_the_panel_explains_the_step_asked_not_the_one_before(make_app, home: Path) -> None:
    """Crown's first turn at 80x24: choosing step 1 while the first lesson is up does not bring
    step 1's lesson up under step 2's question (it did); step 2's own lesson comes instead."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("l", "c")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, CoachedTable) and isinstance(screen, TableScreen)
        assert await decision(pilot, screen)
        assert screen.query_one(CoachPanel).lesson is not None
        await choose_by_key(pilot, screen, 1)  # step 1 chosen with "how a turn goes" up
        assert await decision(pilot, screen)
        assert "Step 2" in str(screen.query_one("#decision-title", Static).content)
        text = screen_text(pilot.app)
        assert "Step 1: place your Angler token" not in text
        panel = screen.query_one(CoachPanel)
        assert panel.display and panel.lesson is not None and panel.lesson.key == "remove"
        assert panel.border_title == "Step 2: remove another token"


@pytest.mark.parametrize("game", ["crown", "fisheries", "aquatica"])
async def test_at_80x24_the_panel_leaves_the_prompt_the_choices_and_the_help_key_in_view(
    make_app, home: Path, game: str
) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("l", KEYS[game])
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, CoachedTable) and isinstance(screen, TableScreen)
        assert await decision(pilot, screen)
        panel = screen.query_one(CoachPanel)
        assert panel.display
        title = screen.query_one("#decision-title", Static)
        choices = screen.query_one("#decision", ChoiceList)
        for widget in (title, choices, screen.query_one("#status"), screen.query_one("#board-scroll")):
            assert not panel.region.overlaps(widget.region), widget
            assert widget.region.height > 0, widget
        text = screen_text(pilot.app)
        assert FIRST[game] in text and "? Help" in text.splitlines()[-1]
