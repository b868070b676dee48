"""The app's behaviour around the games: themes, help, sizes, saves, secrets."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import msgspec
import pytest

from coldwater.core import games
from coldwater.core.rng import Rng
from coldwater.net.play.table import Seat, SeatKind, Table
from coldwater.tui.app import ColdwaterApp
from coldwater.tui.catalog import Catalog
from coldwater.tui.screens.handover import HandOverScreen
from coldwater.tui.screens.help import HelpScreen
from coldwater.tui.screens.menu import MenuScreen
from coldwater.tui.screens.resume import ResumeScreen
from coldwater.tui.screens.settings import SettingsScreen
from coldwater.tui.screens.table import TableScreen
from coldwater.tui.screens.toosmall import TooSmallScreen
from coldwater.tui.settings import Settings
from coldwater.tui.widgets.choices import ChoiceList


def test_no_color_picks_the_ansi_theme(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    assert ColdwaterApp(strict=True, settings=Settings()).theme == "coldwater-ansi"


@pytest.mark.parametrize(
    "short, full",
    [("dark", "coldwater-dark"), ("light", "coldwater-light"), ("ansi", "coldwater-ansi"), (None, "coldwater-dark")],
)
def test_theme_names(short: str | None, full: str) -> None:
    assert ColdwaterApp(strict=True, theme=short, settings=Settings()).theme == full


async def test_theme_change_is_kept(make_app, home: Path) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("t")
        assert isinstance(app.screen, SettingsScreen)
        await pilot.press("right")
        assert app.theme == "coldwater-light"
    saved = msgspec.json.decode((home / "settings.json").read_bytes())
    assert saved["theme"] == "light"


async def test_question_mark_opens_help_for_the_screen(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        assert isinstance(app.screen.under, MenuScreen)
        await pilot.press("escape")
        assert isinstance(app.screen, MenuScreen)


async def test_too_small_notice_comes_and_goes(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, TooSmallScreen)
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen)


async def test_a_corrupt_save_is_reported_and_set_aside(make_app, home: Path) -> None:
    saves = home / "saves"
    saves.mkdir(parents=True)
    (saves / "broken.json").write_text("{ not json")
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("r")
        assert isinstance(app.screen, ResumeScreen)
        await pilot.press("1")
        await pilot.pause()
        message = str(app.screen.query_one("#resume-message").render())
        assert "not a coldwater save" in message
        assert isinstance(app.screen, ResumeScreen)
    assert not (saves / "broken.json").exists()
    assert (saves / "broken.json.unreadable").exists()


def _greedy_until(table: Table, stop: Any) -> None:
    """Play every seat with the greedy bot (chance from the seed) until `stop(state)`."""
    game = table.game
    bot = game.bot("greedy")
    rng = Rng("tui-tests")
    while not stop(table.state):
        cur = table.state.current
        assert cur is not None
        action = (
            table.state.sample_chance() if cur < 0 else bot.choose(table.state.view(cur), rng.fork(table.state.ply))
        )
        table.apply(cur, action)


def _text(widget: Any) -> str:
    from rich.console import Console

    console = Console(width=100, record=True, file=open("/dev/null", "w"))
    console.print(widget.shown)
    return console.export_text()


async def test_board_shows_only_the_viewers_secrets(make_app, home: Path) -> None:
    seats = [Seat(SeatKind.PERSON, "Ada"), Seat(SeatKind.PERSON, "Bo")]
    table = Table.new("crown", seats, seed="secrets", save_path=home / "s.json")
    _greedy_until(table, lambda s: all(len(p.fish) >= 2 for p in s.data.parties[:2]) and s.current == 0)
    app = make_app(Catalog(names=("crown",)))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.catalog.table_screen("crown")(table)
        await app.push_screen(screen)
        await pilot.pause()
        assert isinstance(app.screen, HandOverScreen)  # hotseat: nothing shown yet
        assert screen.viewer is None
        hidden = _text(screen.query_one("#board"))
        assert "(you)" not in hidden and not re.search(r"\d●", hidden)  # no own board, no weights and tags
        await pilot.press("enter")
        await pilot.pause()
        assert screen.viewer == 0
        shown = _text(screen.query_one("#board"))
        assert "Ada (you)" in shown
        t = games.get("crown").tables
        mine = [f for f in table.state.data.parties[0].fish]
        for f in mine:  # the owner's fish with weight and tag colour ("Pike 7●", or "Pike  7 lb  ●red 9:12")
            assert re.search(rf"{t.fish_name(f.species)}\s+{t.weight[f.card]}( lb)?\s*●", shown), f
        # Bo's fish have no weights in Ada's view, so none can be drawn.
        assert all(f.card is None for f in table.view(0).data.parties[1].fish)


async def test_contest_preselects_the_heaviest_fish(make_app, home: Path) -> None:
    seats = [Seat(SeatKind.PERSON, "Ada"), Seat(SeatKind.BOT, "Gil", bot="greedy")]
    table = Table.new("crown", seats, seed="contest-2", save_path=home / "c.json")
    found = False

    def at_contest(s: Any) -> bool:
        return s.is_over or (s.current == 0 and any(str(a).startswith("submit") for a in s.legal()))

    for seed in ("contest-2", "contest-3", "contest-4", "contest-5"):
        table = Table.new("crown", seats, seed=seed, save_path=home / f"{seed}.json")
        _greedy_until(table, at_contest)
        if not table.state.is_over:
            found = True
            break
    if not found:
        pytest.skip("no seed reached a contest choice for the person")
    app = make_app(Catalog(names=("crown",)))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.catalog.table_screen("crown")(table)
        await app.push_screen(screen)
        await pilot.pause()
        decision = screen.query_one("#decision", ChoiceList)
        option = decision.highlighted_option
        assert option is not None and option.id is not None
        chosen = decision._values[option.id]
        t = games.get("crown").tables
        weights = {}
        for a in table.state.legal():
            cards = sorted(
                (f.card for f in table.state.data.parties[0].fish if f.species == a.species),
                key=lambda c: (-t.weight[c], t.time[c]),
            )
            weights[a] = t.weight[cards[a.rank - 1]]
        assert weights[chosen] == max(weights.values())
        await asyncio.sleep(0)


@pytest.mark.parametrize("theme", ["dark", "light", "ansi"])
@pytest.mark.parametrize("no_color", [False, True])
async def test_every_theme_loads_every_stylesheet(monkeypatch: pytest.MonkeyPatch, theme: str, no_color: bool) -> None:
    if no_color:
        monkeypatch.setenv("NO_COLOR", "1")
    app = ColdwaterApp(strict=True, theme=theme, catalog=Catalog(names=("crown",)), settings=Settings(bot_delay=0.0))
    async with app.run_test(size=(80, 24)) as pilot:
        for key in ("s", "escape", "u", "escape", "t", "escape", "question_mark", "escape"):
            await pilot.press(key)
        assert isinstance(app.screen, MenuScreen)
        await pilot.press("s", "ctrl+s")
        for _ in range(1500):  # generous: a busy machine may take seconds
            if isinstance(app.screen, TableScreen) and app.screen.my_turn():
                break
            await pilot.pause(0.02)
        assert isinstance(app.screen, TableScreen) and app.screen.my_turn()


async def test_rules_show_the_engines_rulings(make_app) -> None:
    app = make_app(Catalog(names=("crown",)))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("u")
        await pilot.pause()
        screen = app.screen
        text = screen.text_for("crown")  # type: ignore[attr-defined]
        for ruling in games.get("crown").rulings:
            assert ruling.topic in text


async def test_a_game_without_rulings_declares_none_and_its_rules_have_no_such_part(make_app) -> None:
    """``Game.rulings`` is part of every game (none by default): the rules screen reads it, never guesses."""
    from tests import toygame

    assert toygame.GAME.rulings == ()
    bare = [name for name in games.names() if not games.get(name).rulings]
    app = make_app(Catalog(names=("crown",)))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("u")
        await pilot.pause()
        screen = app.screen
        assert "## Rulings" in screen.text_for("crown")  # type: ignore[attr-defined]
        for name in bare:
            assert "## Rulings" not in screen.text_for(name)  # type: ignore[attr-defined]
        assert "## Rulings" not in screen.text_for("keys")  # type: ignore[attr-defined]
