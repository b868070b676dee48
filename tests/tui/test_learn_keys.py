"""The Learn table at 80x24 (issue 45 item 3): the panel's lowercase keys work and are
never a choice's hotkey, the strip is the taller one while a lesson shows, and the list
opens at choice 1."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from coldwater.tui.catalog import Catalog
from coldwater.tui.coach import new_table
from coldwater.tui.widgets.choices import ChoiceList
from coldwater.tui.widgets.coach import CoachPanel, coached
from tests.tui.test_crown_play import decision
from tests.tui.test_learn_play import choose_by_key


async def test_lowercase_g_t_x_work_and_no_choice_takes_them(make_app: Any, home: Path) -> None:
    app = make_app(Catalog(names=("crown",)))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = coached(app.catalog.table_screen("crown"))(new_table(app.catalog.get("crown")))
        await app.push_screen(screen)
        assert await decision(pilot, screen)
        panel = screen.query_one(CoachPanel)
        assert panel.display and "g " in str(panel.border_subtitle) and "x off" in str(panel.border_subtitle)
        first = panel.lesson
        ply = screen.table.state.ply
        for _ in range(4):  # g turns the page, then "got it"
            await pilot.press("g")
            await pilot.pause()
            if panel.lesson is not first or not panel.display:
                break
        assert panel.lesson is not first or not panel.display, "g did nothing"
        assert screen.table.state.ply == ply, "g chose a move"
        for _ in range(5):
            await choose_by_key(pilot, screen, 1)
            assert await decision(pilot, screen)
            keys = set(screen.query_one("#decision", ChoiceList)._keys)
            assert not keys & set("gtx"), keys
        await pilot.press("x")
        await pilot.pause()
        assert screen.coach.off and not panel.display


async def test_a_lesson_gets_the_taller_strip_and_the_list_opens_at_choice_1(make_app: Any, home: Path) -> None:
    app = make_app(Catalog(names=("crown",)))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = coached(app.catalog.table_screen("crown"))(new_table(app.catalog.get("crown")))
        await app.push_screen(screen)
        for _ in range(12):
            assert await decision(pilot, screen)
            await pilot.pause()
            choices = screen.query_one("#decision", ChoiceList)
            if screen.query_one(CoachPanel).display:
                assert screen.query_one("#side").outer_size.height >= 10
            if choices.highlighted is not None and choices.highlighted < choices.size.height - 1:
                assert choices.scroll_y == 0, "the list opened past choice 1"
            await choose_by_key(pilot, screen, 1)
