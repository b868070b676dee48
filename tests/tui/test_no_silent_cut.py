"""No table line is cut without "…" at 80 columns, across a whole game of each title
(issue 45 item 4): every few decisions a person is asked something, the title, the
standings and every board row are checked as drawn (table_checks.silent_cuts)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from coldwater.net.play.table import Seat, Table
from coldwater.tui.catalog import Catalog
from coldwater.tui.screens.score import ScoreScreen

from .driver import by_table, rotating
from .table_checks import silent_cuts
from .test_done_means import BOT, PERSON, waiting

pytestmark = pytest.mark.slow

MODES: dict[str, tuple[str, list[Seat], dict[str, Any]]] = {
    "crown": ("crown", [PERSON, BOT], {}),
    "fisheries": ("fisheries", [PERSON, BOT], {}),
    "aquatica": ("aquatica", [PERSON, BOT], {}),
    "tribes-solo": ("aquatica", [PERSON], {"module": "tribes", "solo_level": 1}),
}
EVERY = 4
"""Decisions made straight on the table between two looked at (a whole game each, in time)."""


@pytest.mark.parametrize("mode", list(MODES))
async def test_no_table_line_is_cut_without_an_ellipsis_at_80_columns(make_app: Any, home: Path, mode: str) -> None:
    game, seats, options = MODES[mode]
    app = make_app(Catalog(names=(game,)))
    async with app.run_test(size=(80, 24)) as pilot:
        table = Table.new(game, seats, seed=f"cut {mode}", options=options or None, autosave=False)
        await app.push_screen(app.catalog.table_screen(game)(table))
        problems: dict[str, str] = {}
        made = 0
        while True:
            screen = await waiting(pilot)
            if isinstance(screen, ScoreScreen):
                break
            for p in silent_cuts(pilot, screen):
                problems.setdefault(p.split(":")[0] + p[-30:], f"decision {made}: {p}")
            assert made < 3000, "the game did not end"
            made = await by_table(screen, rotating, made, made + EVERY)
        assert not problems, "\n".join(problems.values())
