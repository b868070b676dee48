"""The Fisheries table's cursor: previews, refusals with reasons, hours before sailing."""

from __future__ import annotations

from typing import Any

from textual.pilot import Pilot

from coldwater.tui.games.fisheries.screen import FisheriesTableScreen, UiCmd
from coldwater.tui.screens.help import HelpScreen
from coldwater.tui.widgets.choices import ChoiceList

from .fisheries_driver import keys_by_value
from .test_fisheries_snapshots import to_my_turn


def key_for(screen: FisheriesTableScreen, kind: str, arg: str | None = None) -> str:
    for key, value in keys_by_value(screen.query_one("#decision", ChoiceList)):
        if isinstance(value, UiCmd) and value.kind == kind and (arg is None or value.arg == arg):
            return key
    raise AssertionError(f"no {kind} {arg or ''} choice")


async def table(pilot: Pilot[Any]) -> FisheriesTableScreen:
    await to_my_turn(pilot)
    screen = pilot.app.screen
    assert isinstance(screen, FisheriesTableScreen)
    return screen


async def test_tile_cursor_refuses_with_reasons_and_sailing_shows_hours(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await table(pilot)
        state = screen.table.state
        ply, placed = state.ply, len(state.data.placed)
        await pilot.press(key_for(screen, "place", "I3"))
        assert screen.mode is not None and screen.mode.kind == "place"
        assert app.focused is screen.board
        overlay = screen.board.overlay
        assert overlay.ghost_ok and overlay.options  # starts on a legal spot; the others are marked
        await pilot.press(*["up"] * 8, *["left"] * 14)  # onto the shore in the corner
        overlay = screen.board.overlay
        assert not overlay.ghost_ok and overlay.message.startswith("✗")
        await pilot.press("enter")
        assert screen.table.state.ply == ply and screen.mode is not None  # nothing was committed
        assert screen.board.overlay.bad and "shore" in screen.board.overlay.message
        orient = screen.mode.orient
        await pilot.press("r")
        assert screen.mode.orient != orient
        await pilot.press("f", "n")
        assert screen.board.overlay.ghost_ok and screen.board.overlay.message.startswith("✓")
        cells = screen.mode.action(screen.ctx)
        await pilot.press("enter")
        for _ in range(200):
            if not screen.busy and screen.table.state.ply > ply:
                break
            await pilot.pause(0.01)
        d = screen.table.state.data
        assert len(d.placed) >= placed + 1
        assert [screen.ctx.names[c] for c in d.placed[placed].cells] == list(cells.cells)

        # Sailing: the hours of the path show before anything is committed.
        for _ in range(200):
            if not screen.busy and screen.my_turn() and screen.table.state.data.phase == "turn":
                break
            if screen.my_turn() and not screen.busy:
                keep = [k for k, v in keys_by_value(screen.query_one("#decision", ChoiceList)) if str(v) == "pass"]
                await pilot.press(keep[0])  # keep the lobster
            await pilot.pause(0.01)
        seat = screen.viewer
        hours = screen.table.state.data.time[seat]
        await pilot.press(key_for(screen, "sail"))
        m = screen.mode
        assert m is not None and m.frm >= 0
        await pilot.press("n")
        cell = screen.ctx.by_name[screen.board.overlay.message.split("→")[1].split(":")[0]]
        cost = m.costs[cell]
        assert f"{cost} hour" in screen.board.overlay.message and screen.board.overlay.path
        await pilot.press("escape")
        assert screen.mode is None and app.focused is screen.query_one("#decision")
        await pilot.press(key_for(screen, "sail"), "n", "enter")
        for _ in range(200):
            if not screen.busy and screen.my_turn():
                break
            await pilot.pause(0.01)
        d = screen.table.state.data
        assert cell in d.ships[seat] and d.time[seat] == hours - cost

        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        assert "Fisheries of Gloucester" in app.screen.under.HELP and "r / f" in app.screen.under.HELP_KEYS
