"""A Tribes game's third pane is named Tribes in the footer and its heading (issue 45 item 7)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.widgets import Static

from coldwater.net.play.table import Seat, SeatKind, Table
from coldwater.tui.catalog import Catalog
from tests.tui.screen_text import screen_text
from tests.tui.test_crown_play import decision


async def test_the_footer_says_tribes_in_a_tribes_game_and_goals_in_a_goals_game(make_app: Any, home: Path) -> None:
    app = make_app(Catalog(names=("aquatica",)))
    async with app.run_test(size=(120, 30)) as pilot:
        for module, want, other in (("tribes", "Tribes", "Goals"), ("goals", "Goals", "Tribes")):
            options = {"module": module, "solo_level": 1} if module == "tribes" else {"module": module}
            table = Table.new("aquatica", [Seat(SeatKind.PERSON, "Ada")], seed="pane", options=options, autosave=False)
            screen = app.catalog.table_screen("aquatica")(table)
            await app.push_screen(screen)
            assert await decision(pilot, screen)
            await pilot.pause()
            footer = screen_text(app).splitlines()[-1]
            assert f"f6 {want}" in footer and f"f6 {other}" not in footer, footer
            assert str(screen.query_one("#pane-goals .pane-title", Static).content) == want
            app.pop_screen()
            await pilot.pause()
