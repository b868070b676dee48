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


async def test_200x60_uses_the_room(make_app, home: Path) -> None:
    """At 200×60 the shared board, the players and the log stand side by side, and what the
    board pane adds (your fish one per line: weight, tag, time) is on the table already."""
    (home / "saves").mkdir(parents=True, exist_ok=True)
    app = make_app(Catalog(names=("crown",)))
    async with app.run_test(size=(200, 60)) as pilot:
        table = mid_game(home)
        screen = CrownTableScreen(table)
        await app.push_screen(screen)
        await my_turn(pilot)
        rows = screen_text(pilot).split("\n")
        fish = len(table.state.data.parties[0].fish)
        head = next(n for n, r in enumerate(rows) if f"Your fish ({fish}): weight, tag, time" in r)
        assert head < 20, "your fish are near the top of the table"
        listed = [r for r in rows[head + 1 : head + 1 + fish] if " lb " in r and ":" in r]
        assert len(listed) == fish, rows[head : head + fish + 1]
        log = screen.query_one("#log").region
        board = screen.query_one("#board-scroll").region
        assert board.right <= log.x and log.height >= 20
        # The shared board (left) and the players (right) share rows.
        ring = next(r for r in rows if "⚓Port" in r)
        assert ring.index("⚓Port") < ring.index("Ada (you)")
        for name in ("Bo", "Cy"):
            assert any(r[board.x + 60 : board.right].lstrip().startswith(f"{name} token") for r in rows), name
        assert screen.query_one("#board-scroll").max_scroll_y == 0, "nothing of the board under the fold"
