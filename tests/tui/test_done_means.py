"""Issue #30's "Done means": every game and mode driven at 80×24 through the real app for
a number of decisions, by keys, and on every screen a person is asked something: no line
of the table ends cut ("…"), the highlighted choice is in view, and the title says the
round and turn."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from coldwater.net.play.table import Seat, SeatKind, Table
from coldwater.tui.catalog import Catalog
from coldwater.tui.screens.handover import HandOverScreen
from coldwater.tui.screens.score import ScoreScreen
from coldwater.tui.screens.table import TableScreen
from coldwater.tui.widgets.choices import ChoiceList

from .driver import key, press_choice, settle
from .frame_driver import screen_text
from .table_checks import clock_in_title, cut_lines, highlight_problem

pytestmark = pytest.mark.slow

# The names the new-game form gives: the longest a table is usually asked to show.
PERSON = Seat(SeatKind.PERSON, "Player 1")
BOT = Seat(SeatKind.BOT, "Greedy bot 2", bot="greedy")

MODES: dict[str, tuple[str, list[Seat], dict[str, Any]]] = {
    "crown-2p-bot": ("crown", [PERSON, BOT], {}),
    "crown-4-hotseat": ("crown", [Seat(SeatKind.PERSON, f"Player {n}") for n in range(1, 5)], {}),
    "practice-pond": ("crown", [PERSON], {}),
    "fisheries": ("fisheries", [PERSON, BOT], {}),
    "aquatica-goals": ("aquatica", [PERSON, BOT], {}),
    "aquatica-solo": ("aquatica", [PERSON], {}),
    "tribes-solo": ("aquatica", [PERSON], {"module": "tribes", "solo_level": 1}),
}

DECISIONS = 80


async def waiting(pilot: Pilot[Any]) -> TableScreen | ScoreScreen:
    """Past hand-over screens, until a person is asked something (or the game is over)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + 120
    while loop.time() < end:
        screen = pilot.app.screen
        if isinstance(screen, ScoreScreen):
            return screen
        if isinstance(screen, HandOverScreen):
            await key(pilot, "enter")
            await settle(pilot)
            continue
        if isinstance(screen, TableScreen) and screen.my_turn() and not screen.busy:
            choices = screen.query_one("#decision", ChoiceList)
            if choices.values and screen.answers.ply != screen.table.state.ply:
                await settle(pilot)
                return screen
        await asyncio.sleep(0.002)
        await pilot._wait_for_screen()
    raise AssertionError(f"nobody is asked anything on {pilot.app.screen!r}")


@pytest.mark.parametrize("mode", list(MODES))
async def test_every_table_at_80x24(make_app, home: Path, mode: str) -> None:
    game, seats, options = MODES[mode]
    app = make_app(Catalog(names=(game,)))
    async with app.run_test(size=(80, 24)) as pilot:
        save = home / "saves" / "d.json"
        table = Table.new(game, seats, seed=f"done {mode}", options=options or None, save_path=save)
        await app.push_screen(app.catalog.table_screen(game)(table))
        problems: list[str] = []
        for made in range(DECISIONS):
            screen = await waiting(pilot)
            if isinstance(screen, ScoreScreen):
                break
            where = f"{mode}, decision {made}"
            text = screen_text(pilot)
            for row in cut_lines(pilot, screen):
                problems.append(f"{where}: cut: {row.strip()!r}")
            problem = highlight_problem(pilot, screen)
            if problem:
                problems.append(f"{where}: {problem}")
            # Before the first turn (Aquatica's King draft) the title says "setting up" instead.
            setting_up = screen.status.clock().setup and "· setting up" in text.split("\n")[0]
            if not clock_in_title(screen) and not setting_up:
                problems.append(f"{where}: title {text.splitlines()[0].strip()!r}")
            if problems:
                raise AssertionError("\n".join(problems) + "\n" + text)
            choices = screen.query_one("#decision", ChoiceList)
            keys = [k for k in "1234567890abcdfghijklmnopqrstuvwxyz" if choices.has_key(k)]
            keys = [k for k in keys if choices.value_for_key(k) != "back"] or keys
            pick = keys[(made * 7 + 3) % len(keys)] if keys else "e"
            await press_choice(pilot, screen, pick, must=False)
        else:
            assert made == DECISIONS - 1
