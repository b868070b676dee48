"""The Aquatica table screen up close: the card behind the highlighted choice,
paying step by step, the form's options, help, and snapshots at 80×24 and 160×50.
"""

from __future__ import annotations

from typing import Any

import pytest
from textual.pilot import Pilot

from coldwater.core.aquatica import actions as A
from coldwater.tui.app import ColdwaterApp
from coldwater.tui.games.aquatica.board import AquaticaBoard
from coldwater.tui.games.aquatica.screen import AquaticaTableScreen
from coldwater.tui.screens.help import HelpScreen
from coldwater.tui.screens.newgame import NewGameScreen
from coldwater.tui.settings import Settings
from coldwater.tui.widgets.choices import ChoiceList
from coldwater.tui.widgets.form import Cycler

from .driver import start_game


async def ready(pilot: Pilot[Any]) -> AquaticaTableScreen:
    """Wait until the person at the keyboard has a decision on screen."""
    for _ in range(2000):
        screen = pilot.app.screen
        if isinstance(screen, AquaticaTableScreen) and screen.my_turn() and not screen.busy:
            await pilot.pause()
            return screen
        await pilot.pause(0.01)
    raise AssertionError("no decision came")


def details(screen: AquaticaTableScreen) -> str:
    """The frame's preview under the list: the card behind the highlighted choice."""
    return str(screen.query_one("#decision-preview").render())


async def choose_where(pilot: Pilot[Any], screen: AquaticaTableScreen, kind: type, pick: Any = None) -> Any:
    """Press the key of the first choice of `kind` (and matching `pick`)."""
    from .test_aquatica_play import key_of

    choices = screen.query_one("#decision", ChoiceList)
    for value in choices.values:
        if isinstance(value, kind) and (pick is None or pick(value)):
            await pilot.press(key_of(screen, value))
            return value
    raise AssertionError(f"no {kind.__name__} offered: {choices.values}")


async def test_form_offers_every_aquatica_option(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s")
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen)
        from .driver import set_cycler

        await set_cycler(pilot, "#game", "aquatica")
        opts = {getattr(c, "option_name", ""): c for c in app.screen.query(".option").results(Cycler) if c.display}
        assert set(opts) == {"module", "variable_goals", "kings", "solo_level"}
        assert [v for _, v in opts["module"].choices] == ["goals", "tribes"]
        assert [v for _, v in opts["kings"].choices] == ["basic", "advanced"]
        assert [v for _, v in opts["solo_level"].choices] == [None, 1, 2, 3, 4, 5, 6]
        assert opts["solo_level"].label == "Solo level"


async def test_playing_a_card_walks_through_its_effects_with_details(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await start_game(pilot, mode_key="s", game="aquatica", seats=["person", "bot:random"], seed="5")
        screen = await ready(pilot)
        board = screen.query_one("#board", AquaticaBoard)
        # At 80×24 the table is the compact form: the Ocean's rows, your board, the Goals.
        for row in ("Recruit 0¢", "Top row", "Bottom", "Board ", "Mantas", "Goals"):
            assert row in board.plain, row
        assert "Your hand (7)" not in board.plain  # the choices list the hand: not twice
        await pilot.press("f2")  # the whole sheet, one key away
        assert "Your hand (7)" in board.plain and "The Ocean" in board.plain
        assert "Character row" in board.plain and "Goals (spots score" in board.plain
        await pilot.press("f2")
        assert "Recruit 0¢" in board.plain
        # the pre-selected choice is a Character to play; the preview shows the whole card
        assert "Effects in order" in details(screen)
        # Sea Horse: scout, +1 power, conquer, one decision at a time
        sea = await choose_where(pilot, screen, A.Play, lambda a: screen.deck.char_name[a.card] == "Sea Horse")
        screen = await ready(pilot)
        title = str(screen.query_one("#decision-title").render())
        assert "Sea Horse" in title and "▸scout" in title
        await choose_where(pilot, screen, A.Scout)
        screen = await ready(pilot)
        while screen.current_view().data.cutting:  # more than 4 in the bottom row: discard down to 4
            assert "Scout: discard from the bottom row" in str(screen.query_one("#decision-title").render())
            await choose_where(pilot, screen, A.Cut)
            screen = await ready(pilot)
        assert "Gathered: 0 coins · 1 power" in screen.query_one("#board", AquaticaBoard).plain
        values = screen.query_one("#decision", ChoiceList).values
        assert all(isinstance(v, (A.Conquer, A.Skip, A.Rival)) for v in values), values
        await pilot.press("down")
        assert "Depths" in details(screen) or "Depth" in details(screen)
        await choose_where(pilot, screen, A.Skip)
        screen = await ready(pilot)
        assert sea.card in screen.current_view().data.ps[0].discard
        assert "after the Main Action" in screen.query_one("#board", AquaticaBoard).plain


async def test_help_and_rules_for_the_screen(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await start_game(pilot, mode_key="s", game="aquatica", seats=["person", "bot:random"], seed="5")
        await ready(pilot)
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        assert "Aquatica" in AquaticaTableScreen.HELP and "Mantas: ●" in AquaticaTableScreen.HELP
        await pilot.press("escape")
        assert isinstance(app.screen, AquaticaTableScreen)
        from coldwater.tui.screens.rules import help_text

        assert "## Tribes module" in help_text("aquatica")


def _app() -> ColdwaterApp:
    return ColdwaterApp(strict=True, settings=Settings(bot_delay=0.0, theme="dark"))


async def _mid_game(pilot: Pilot[Any]) -> None:
    """A fixed game, a few purposeful choices in: the screen in the middle of a Main Action."""
    from .test_aquatica_play import sensible

    await start_game(
        pilot,
        mode_key="s",
        game="aquatica",
        seats=["person", "bot:random", "bot:random"],
        seed="12",
        options={"module": "tribes"},
    )
    for _ in range(9):
        screen = await ready(pilot)
        screen.choose(sensible(screen))
    await ready(pilot)


async def _ocean_pane(pilot: Pilot[Any]) -> None:
    await _mid_game(pilot)
    await pilot.press("O")
    await pilot.pause()


@pytest.mark.parametrize("size", [(80, 24), (120, 40), (200, 60)], ids=["80x24", "120x40", "200x60"])
def test_snapshot_table(snap_compare, size: tuple[int, int]) -> None:
    assert snap_compare(_app(), terminal_size=size, run_before=_mid_game)


def test_snapshot_ocean_pane_80x24(snap_compare) -> None:
    assert snap_compare(_app(), terminal_size=(80, 24), run_before=_ocean_pane)


def test_snapshot_solo_goals_wide(snap_compare) -> None:
    async def before(pilot: Pilot[Any]) -> None:
        await start_game(pilot, mode_key="s", game="aquatica", seats=["person"], seed="9", options={"module": "goals"})
        await ready(pilot)

    assert snap_compare(_app(), terminal_size=(160, 50), run_before=before)


async def test_every_footer_key_fits_at_80_columns_and_roomy_when_wide(make_app) -> None:
    """Three game panes make the footer long: at 80 columns it closes up so "? Help" still
    shows whole, and it opens out again when the terminal is wider."""
    from .screen_text import screen_text

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await start_game(pilot, mode_key="s", game="aquatica", seats=["person", "bot:random"], seed="5")
        await ready(pilot)
        footer = screen_text(app).splitlines()[-1]
        for shown in ("esc Menu", "e End turn", "f4 Ocean", "f6 Goals", "? Help"):
            assert shown in footer, footer
        await pilot.resize_terminal(130, 30)
        await pilot.pause()
        await pilot.pause()
        assert " esc Menu  e End turn " in screen_text(app).splitlines()[-1]
