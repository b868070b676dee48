"""The app while a hard bot thinks: keys are answered at once, and leaving or
quitting mid-thought neither waits for the bot nor loses a move."""

from __future__ import annotations

import asyncio
import math
import time
from pathlib import Path

from coldwater.core.search import SearchBot
from coldwater.net.play.table import Seat, SeatKind, Table, list_saves
from coldwater.tui.catalog import Catalog
from coldwater.tui.screens.table import TableScreen


def slow_hard_table(home: Path) -> Table:
    """Crown with a hard bot first whose budget would take minutes: every check
    below runs while it is certainly still thinking."""
    seats = [Seat(SeatKind.BOT, "Gil", bot="hard"), Seat(SeatKind.PERSON, "Ada")]
    table = Table.new("crown", seats, seed="think", save_path=home / "saves" / "think.json")
    bot = table._bots[0]
    assert isinstance(bot, SearchBot)
    bot.iterations = 10**7
    bot.max_seconds = math.inf
    return table


async def until_thinking(screen: TableScreen, table: Table) -> int:
    for _ in range(2000):
        if screen.busy and table.current == 0 and "thinking" in str(screen.query_one("#decision-title").render()):
            return table.state.ply
        await asyncio.sleep(0.01)
    raise AssertionError("the bot never started thinking")


async def test_a_key_is_answered_while_a_hard_bot_thinks(make_app, home: Path) -> None:
    app = make_app(Catalog(names=("crown",)))
    async with app.run_test(size=(80, 24)) as pilot:
        table = slow_hard_table(home)
        screen = app.catalog.table_screen("crown")(table)
        await app.push_screen(screen)
        ply = await until_thinking(screen, table)
        await pilot.press("f3")
        await pilot.pause()
        assert screen.pane == "log" and screen.query_one("#log-pane").display
        await pilot.press("f3")
        await pilot.pause()
        assert screen.pane == "" and not screen.query_one("#log-pane").display
        # All of that happened before the bot finished its move.
        assert screen.busy and table.current == 0 and table.state.ply == ply


async def test_quitting_mid_thought_is_prompt_and_loses_nothing(make_app, home: Path) -> None:
    app = make_app(Catalog(names=("crown",)))
    t0 = 0.0
    async with app.run_test(size=(80, 24)) as pilot:
        table = slow_hard_table(home)
        screen = app.catalog.table_screen("crown")(table)
        await app.push_screen(screen)
        ply = await until_thinking(screen, table)
        assert table.record is not None
        entries = list(table.record.entries)
        t0 = time.perf_counter()
        await pilot.press("escape", "q")  # quit the whole app while the bot thinks
    # The search stopped at its next playout instead of running out its budget.
    assert time.perf_counter() - t0 < 10
    (save,) = list_saves()
    assert save.plies == len(entries) == ply  # every move up to the unfinished one

    app2 = make_app(Catalog(names=("crown",)))
    async with app2.run_test(size=(80, 24)) as pilot:
        await pilot.press("r")
        await pilot.press("1")
        await pilot.pause()
        resumed = app2.screen
        assert isinstance(resumed, TableScreen)
        # The game goes on from there: the same moves, then the bot's (it thinks anew).
        rec = resumed.table.record
        assert rec is not None and rec.entries[: len(entries)] == entries
        assert resumed.table.state.ply >= ply
        await pilot.press("escape", "q")
