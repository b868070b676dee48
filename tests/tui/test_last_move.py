"""The last move on the board (issue 45): the rows the other seats changed since the person
acted are marked beside the board with a symbol, in every title and size, until they act."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from coldwater.core.notation import Action
from coldwater.net.play.table import Seat, SeatKind, Table
from coldwater.tui.catalog import Catalog
from coldwater.tui.screens.table.lastmove import changed_rows
from coldwater.tui.widgets.board import BoardView
from tests.tui.screen_text import screen_text
from tests.tui.test_crown_play import decision


def test_changed_rows_ignore_the_turn_pointer_and_mark_new_rows() -> None:
    before = ["▶ Ann  3 fish", "  Gil  2 fish", "Shore 3 Wrasse"]
    after = ["  Ann  3 fish", "▶ Gil  4 fish", "Shore 3 Pike", "  Gil won Fish 3"]
    assert changed_rows(before, after) == frozenset({1, 2, 3})


@pytest.mark.parametrize("size", [(80, 24), (200, 60)])
@pytest.mark.parametrize("game", ["crown", "fisheries", "aquatica"])
async def test_the_others_changes_are_marked_until_you_act(
    make_app: Any, home: Path, game: str, size: tuple[int, int]
) -> None:
    app = make_app(Catalog(names=(game,)))
    async with app.run_test(size=size) as pilot:
        seats = [Seat(SeatKind.PERSON, "Ann"), Seat(SeatKind.BOT, "Gil", bot="greedy")]
        screen = app.catalog.table_screen(game)(Table.new(game, seats, seed="marks", autosave=False))
        await app.push_screen(screen)
        board = screen.query_one("#board", BoardView)
        marked = False
        for _ in range(40):
            assert await decision(pilot, screen)
            if board.marks:
                marked = True
                break
            screen.choose(screen.query_one("#decision").values[0])  # type: ignore[attr-defined]
        assert marked, "the others moved and nothing was marked"
        await pilot.pause()
        rows = screen_text(app).split("\n")
        scroll = screen.query_one("#board-scroll")
        top = scroll.region.y - int(scroll.scroll_y)
        shown = [r for r in board.marks if 0 <= top + r - scroll.region.y < scroll.region.height]
        assert shown, "no marked row in view"
        for r in shown:
            assert rows[top + r][board.region.x] == BoardView.MARK, rows[top + r]
        # A move (not Fisheries' cursor opening, which only shows where a move could go):
        move = next(v for v in screen.query_one("#decision").values if isinstance(v, Action))  # type: ignore[attr-defined]
        screen.choose(move)
        assert not board.marks, "the marks stayed after the person acted"  # (before the others move again)
