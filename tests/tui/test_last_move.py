"""The last move on the board (issue 45): the rows the other seats changed since the person
acted are marked beside the board with a symbol, in every title and size, until they act."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from coldwater.core.notation import Action
from coldwater.net.play.table import Seat, SeatKind, Table
from coldwater.tui.catalog import Catalog
from coldwater.tui.screens.table.lastmove import changed_rows, changed_things, things
from coldwater.tui.widgets.board import BoardView
from tests.tui.screen_text import screen_text
from tests.tui.test_crown_play import decision


def test_changed_rows_ignore_the_turn_pointer_and_mark_new_rows() -> None:
    before = ["▶ Ann  3 fish", "  Gil  2 fish", "Shore 3 Wrasse"]
    after = ["  Ann  3 fish", "▶ Gil  4 fish", "Shore 3 Pike", "  Gil won Fish 3"]
    assert changed_rows(before, after) == frozenset({1, 2, 3})


def test_a_rows_things_are_its_items_between_separators() -> None:
    row = "  Gil token [2] tackle 1  · MA Dogfish · Fish 0  3 Mackerel  4 Pike › Red[ ]"
    assert [row[a:b] for a, b in things(row)] == [
        "Gil token [2] tackle 1",
        "MA Dogfish",
        "Fish 0",
        "3 Mackerel",
        "4 Pike",
        "Red[ ]",
    ]
    # Fisheries' empty square is a thing of its own, not a separator.
    assert [row[a:b] for row in [" 3  ·  ·  K"] for a, b in things(row)] == ["3", "·", "·", "K"]


def test_each_changed_thing_is_marked_at_its_start_and_only_its_changed_words_underlined() -> None:
    before = ["Shore PG  3 Mackerel  4 Flounder", "  Gil token [2] tackle 1 3:YY 4:BRP  · MA Dogfish"]
    after = ["Shore PG  3 Mackerel  4 Pike", "  Gil token [2] tackle 1 3:YYB 4:BRP  · MA Dogfish"]
    pike, zone = after[0].index("4 Pike"), after[1].index("3:YYB")
    assert changed_things(before, after) == {0: [(pike, pike, pike + 6)], 1: [(2, zone, zone + 5)]}
    # A row new at the end is marked whole; a row that did not change is not marked.
    assert changed_things(["a  b"], ["a  b", "c  d"]) == {1: [(0, 0, 1), (3, 3, 4)]}


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
        # Each thing the others changed: the THING sign just before it (where a separator's space
        # is), on the rows in view, in the board's own cells (a symbol: NO_COLOR reads it).
        signs = [
            (r, thing)
            for r in shown
            for thing, _, _ in board.marks[r]
            if thing >= 1 and board.row_texts()[r][:thing].endswith(" ")
        ]
        for r, thing in signs:
            line = rows[top + r][board.region.x + 1 :]
            assert line[thing - 1] == BoardView.THING, (line, thing)
        # A move (not Fisheries' cursor opening, which only shows where a move could go):
        move = next(v for v in screen.query_one("#decision").values if isinstance(v, Action))  # type: ignore[attr-defined]
        screen.choose(move)
        assert not board.marks, "the marks stayed after the person acted"  # (before the others move again)
