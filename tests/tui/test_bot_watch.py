"""While a bot thinks (issue 45 item 6): the screen says what it has done so far this turn
and shows a bar of the decision its search is on."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from textual.widgets import Static

from coldwater.net.play.table import Seat, SeatKind, Table
from coldwater.tui.catalog import Catalog
from coldwater.tui.screens.table.botwatch import bar, so_far, watching
from coldwater.tui.widgets.log import LogBook
from tests.tui.test_crown_play import decision


def test_the_turn_so_far_and_the_bar_in_words() -> None:
    book = LogBook()
    book.add("move", "Ann places a 1 on Red", "Ann")
    book.add("move", "Gil places a 2 on Blue", "Gil")
    book.add("chance", "draws red, blue", "")
    book.add("move", "Gil casts 2 blue", "Gil")
    assert so_far(book.entries, "Gil") == ["places a 2 on Blue", "casts 2 blue"]
    assert bar(0.5, 10) == "█████░░░░░" and bar(2.0, 4) == "████" and bar(-1, 3) == "░░░"
    text = watching("Gil", "hard", book.entries, 1.0)
    assert "%" in text.splitlines()[0] and "█" in text
    assert text.splitlines()[1] == "This turn: places a 2 on Blue; casts 2 blue"
    assert "█" not in watching("Gil", "greedy", book.entries, 1.0)  # a quick bot: no bar
    assert watching("Gil", "hard", book.entries, 1.0, last=1).splitlines()[1] == "This turn: …; casts 2 blue"


async def test_a_hard_bots_turn_shows_its_moves_and_a_filling_bar(make_app: Any, home: Path) -> None:
    app = make_app(Catalog(names=("crown",)))
    async with app.run_test(size=(80, 24)) as pilot:
        seats = [Seat(SeatKind.PERSON, "Ann"), Seat(SeatKind.BOT, "Gil", bot="hard")]
        table = Table.new("crown", seats, seed="watch", autosave=False)
        screen = app.catalog.table_screen("crown")(table)
        await app.push_screen(screen)
        assert await decision(pilot, screen)
        seen: list[str] = []
        for _ in range(12):  # until the bot's turn has a move in it, or the turn comes back
            screen.choose(screen.query_one("#decision").values[0])  # type: ignore[attr-defined]
            for _ in range(400):
                await asyncio.sleep(0.05)
                if screen.driver.thought_for()[0] == 1:
                    text = str(screen.query_one("#decision-preview", Static).content)
                    if "█" in text:
                        seen.append(text)
                if screen.my_turn() and not screen.busy:
                    break
            if any("This turn: " in t for t in seen):
                break
            assert await decision(pilot, screen)
        assert seen, "no bar while the hard bot thought"
        assert any("This turn: " in t for t in seen), seen[-3:]
