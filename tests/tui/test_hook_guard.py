"""A game's table hook that fails: logged and replaced by the frame's fallback for a player,
raised in an app made strict (as every other test's app is), so a wording bug fails a test."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any, Never

import pytest

from coldwater.net.play.table import Seat, SeatKind, Table
from coldwater.tui.app import ColdwaterApp
from coldwater.tui.games.words import TableWords
from coldwater.tui.screens.table import TableScreen
from coldwater.tui.screens.table.guard import HookError, HookGuard
from coldwater.tui.settings import Settings
from coldwater.tui.widgets.choices import ChoiceList
from tests import toygame


class BrokenWords(TableWords[Any, Any, Never]):
    """Words for the toy game whose standings line and labels always fail."""

    def standings(self, view: Any, viewer: int | None) -> str:
        raise KeyError("no such seat")

    def label(self, view: Any, action: Any, viewer: int | None) -> str:
        raise IndexError("an action nobody worded")


class BrokenScreen(TableScreen[Any, Any, Never]):
    WORDS = BrokenWords


def toy_table(home: Path) -> Table:
    seats = [Seat(SeatKind.PERSON, "Ann"), Seat(SeatKind.BOT, "Bot", bot="random")]
    return Table.new(toygame.GAME, seats, seed="7", save_path=home / "toy.json")


async def test_a_failing_hook_is_logged_and_the_game_goes_on(home: Path, caplog: pytest.LogCaptureFixture) -> None:
    home.mkdir(parents=True, exist_ok=True)
    app = ColdwaterApp(settings=Settings(bot_delay=0.0), bot_process=False)  # as a player runs it
    caplog.set_level(logging.ERROR, logger="coldwater.tui")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = BrokenScreen(toy_table(home))
        app.push_screen(screen)
        for _ in range(50):
            await pilot.pause()
            if screen.my_turn() and screen.query_one("#decision", ChoiceList).values:
                break
        values = screen.query_one("#decision", ChoiceList).values
        assert [str(v) for v in values] == ["hold", "roll"]  # every legal choice is still offered
        labels = [screen.words.plain_label(screen.current_view(), v) for v in values]
        assert all(labels), labels  # ... under the engine's own words
        assert screen.guard.failures >= 3  # the standings line and both labels
    said = [r for r in caplog.records if r.name == "coldwater.tui"]
    assert any("standings" in r.getMessage() for r in said), [r.getMessage() for r in said]
    assert any("label" in r.getMessage() and r.exc_info is not None for r in said)


async def test_a_failing_hook_fails_the_test_in_a_strict_app(home: Path) -> None:
    home.mkdir(parents=True, exist_ok=True)
    app = ColdwaterApp(settings=Settings(bot_delay=0.0), bot_process=False, strict=True)
    with pytest.raises(HookError, match="toy table: .*failed"):
        async with app.run_test(size=(80, 24)) as pilot:
            app.push_screen(BrokenScreen(toy_table(home)))
            for _ in range(50):
                await pilot.pause()


def test_the_guard_gives_the_fallback_or_raises() -> None:
    def broken(n: int) -> str:
        raise ValueError(n)

    lenient = HookGuard("toy", strict=False)
    assert lenient.call("fallback", broken, 1) == "fallback"
    assert lenient.either(broken, str, 2) == "2"
    assert lenient.call("unused", str, 3) == "3"
    assert lenient.failures == 2
    with pytest.raises(HookError) as caught:
        HookGuard("toy", strict=True).call("fallback", broken, 4)
    assert isinstance(caught.value.__cause__, ValueError)
