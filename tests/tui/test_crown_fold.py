"""Crown at 80×24 with three seats (issue #30): the trophies each stack gives next and
every opponent's line are on the table without a key."""

from __future__ import annotations

from pathlib import Path

from coldwater.tui.catalog import Catalog
from coldwater.tui.games.crown.screen import CrownTableScreen

from .frame_driver import my_turn, screen_text
from .test_crown_snapshots import mid_game


async def test_next_trophies_and_every_seat_above_the_fold(make_app, home: Path) -> None:
    (home / "saves").mkdir(parents=True, exist_ok=True)
    app = make_app(Catalog(names=("crown",)))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = CrownTableScreen(mid_game(home))
        await app.push_screen(screen)
        await my_turn(pilot)
        board = screen.query_one("#board-scroll").region
        rows = screen_text(pilot).split("\n")[board.y : board.bottom]
        shown = "\n".join(rows)
        assert any(row.startswith(" Next: ") for row in rows), shown
        for name in ("Bo", "Cy"):
            assert any(row.lstrip().startswith(f"{name} token") for row in rows), f"{name}'s line\n{shown}"
        assert screen.query_one("#board-scroll").scroll_y == 0
