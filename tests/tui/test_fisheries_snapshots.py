"""Snapshots of the Fisheries table (deterministic seed) at 80×24, 120×40, 160×50 and 200×60.

Update after an intended change of the drawing with
``pytest tests/tui/test_fisheries_snapshots.py --snapshot-update`` and look at
the SVGs before committing them.
"""

from __future__ import annotations

from typing import Any

from textual.pilot import Pilot

from coldwater.tui.games.fisheries.screen import FisheriesTableScreen

from .driver import start_game


async def to_my_turn(pilot: Pilot[Any]) -> None:
    await start_game(pilot, mode_key="s", game="fisheries", seats=["person", "bot:greedy"], seed="7")
    for _ in range(500):
        screen = pilot.app.screen
        if isinstance(screen, FisheriesTableScreen) and screen.my_turn() and not screen.busy:
            break
        await pilot.pause(0.01)
    await pilot.pause()


async def placing_a_tile(pilot: Pilot[Any]) -> None:
    await to_my_turn(pilot)
    await pilot.press("1", "right", "down")  # the 1-square tile; the cursor off its first legal spot


async def sailing(pilot: Pilot[Any]) -> None:
    await to_my_turn(pilot)
    screen = pilot.app.screen
    assert isinstance(screen, FisheriesTableScreen)
    choices = screen.query_one("#decision")
    key = next(k for k, oid in choices._keys.items() if getattr(choices._values[oid], "kind", "") == "sail")
    await pilot.press(key, "n")


def test_table_80x24(snap_compare, make_app) -> None:
    assert snap_compare(make_app(), terminal_size=(80, 24), run_before=to_my_turn)


def test_tile_cursor_80x24(snap_compare, make_app) -> None:
    assert snap_compare(make_app(), terminal_size=(80, 24), run_before=placing_a_tile)


def test_table_160x50_sailing(snap_compare, make_app) -> None:
    assert snap_compare(make_app(), terminal_size=(160, 50), run_before=sailing)


def test_table_120x40(snap_compare, make_app) -> None:
    assert snap_compare(make_app(), terminal_size=(120, 40), run_before=to_my_turn)


def test_table_200x60_sailing(snap_compare, make_app) -> None:
    assert snap_compare(make_app(), terminal_size=(200, 60), run_before=sailing)
