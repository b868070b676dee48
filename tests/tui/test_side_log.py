"""The short log beside the choices follows the game around the lesson and hint panels
and the panes (issue 45 item 1): it never comes back on an old turn, blank after an
undo, or with lines wrapped at a width it is not drawn at."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from coldwater.tui.catalog import Catalog
from coldwater.tui.coach import new_table
from coldwater.tui.screens.table import TableScreen
from coldwater.tui.widgets.coach import coached
from coldwater.tui.widgets.log import GameLog, LogPane
from tests.tui.test_crown_play import decision
from tests.tui.test_learn_play import choose_by_key


def words(text: str) -> str:
    return " ".join(text.split())


def wrapped(log: GameLog | LogPane, width: int, last: int) -> list[str]:
    """The newest `last` kept lines as they read wrapped at `width` columns."""
    console = log.app.console
    options = console.options.update_width(width)
    out: list[str] = []
    for line, indent in log._kept[-last:]:
        rows = console.render_lines(log._shape(line, indent), options, pad=False)
        out += ["".join(seg.text for seg in row).rstrip() for row in rows]
    return out


def assert_in_step(log: GameLog | LogPane) -> None:
    """What the log draws is every kept line, wrapped at the width it is drawn at."""
    width = log.scrollable_content_region.width
    assert width > 20
    assert log.lines, "blank"
    want = wrapped(log, width, 8)
    have = [strip.text.rstrip() for strip in log.lines][-len(want) :]
    assert have == want, (have, want)


async def shown(pilot: Any) -> None:
    """Until the screen is idle: the logs' lines are written after a repaint (on Show, Resize)."""
    for _ in range(3):
        await pilot.pause()
    await pilot.wait_for_scheduled_animations()
    await pilot.pause()


@pytest.mark.parametrize("size", [(80, 24), (200, 60)])
@pytest.mark.parametrize("game", ["crown", "aquatica"])
async def test_the_log_behind_a_lesson_comes_back_on_the_turn_now(
    make_app: Any, home: Path, game: str, size: tuple[int, int]
) -> None:
    app = make_app(Catalog(names=(game,)))
    async with app.run_test(size=size) as pilot:
        screen = coached(app.catalog.table_screen(game))(new_table(app.catalog.get(game)))
        await app.push_screen(screen)
        assert await decision(pilot, screen)
        log = screen.query_one("#log", GameLog)
        assert not log.display  # the first lesson has its place
        await choose_by_key(pilot, screen, 6)  # the bot plays between: lines come while hidden
        assert await decision(pilot, screen)
        await pilot.press("X")  # lessons off: the log comes back
        await shown(pilot)
        assert log.display
        assert_in_step(log)


async def test_lines_written_while_a_pane_hides_the_side_keep_the_logs_width(make_app: Any, home: Path) -> None:
    app = make_app(Catalog(names=("aquatica",)))
    async with app.run_test(size=(80, 24)) as pilot:
        from tests.tui.test_hints import solo

        screen: TableScreen[Any, Any, Any] = app.catalog.table_screen("aquatica")(solo(home, "aquatica"))
        await app.push_screen(screen)
        assert await decision(pilot, screen)
        await pilot.press("f2")  # the board alone: the side column (and its log) hidden
        await shown(pilot)
        screen.log_writer.entry("note", "a line written while the board pane is open, long enough to wrap twice " * 2)
        await shown(pilot)
        await pilot.press("f2")
        await shown(pilot)
        assert_in_step(screen.query_one("#log", GameLog))
        await pilot.press("f3")
        await shown(pilot)
        assert_in_step(screen.query_one("#log-pane", LogPane))


async def test_after_an_undo_behind_a_lesson_the_log_is_the_rebuilt_one(make_app: Any, home: Path) -> None:
    app = make_app(Catalog(names=("aquatica",)))
    async with app.run_test(size=(200, 60)) as pilot:
        screen = coached(app.catalog.table_screen("aquatica"))(new_table(app.catalog.get("aquatica")))
        await app.push_screen(screen)
        assert await decision(pilot, screen)
        await choose_by_key(pilot, screen, 2)
        assert await decision(pilot, screen)
        assert not screen.query_one("#log").display
        # What Ctrl+Z does to the log (an undo here may be refused, past a draw), behind the panel:
        screen.log_writer.rebuild(screen.log_seat, screen.as_view)
        screen.log_writer.entry("note", "(undone)")
        await pilot.press("X")
        await shown(pilot)
        log = screen.query_one("#log", GameLog)
        assert log.display and log.lines, "blank after the undo"
        assert "(undone)" in "\n".join(strip.text for strip in log.lines)
        assert_in_step(log)
