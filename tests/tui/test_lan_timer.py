"""The turn timer at a fair LAN table, seen from the table screen at 80×24: when the person does not
move in time their own app's bot plays the seat, the screen says so and names the key that takes the
seat back, and that key does (net/session/standin.py; tests/net/session/test_fairdeal_timer.py for the table)."""

from __future__ import annotations

import re
import threading
from pathlib import Path
from typing import Any

from coldwater.core.notation import Action
from coldwater.core.rng import Rng
from coldwater.core.state import State
from coldwater.tui.app import ColdwaterApp
from coldwater.tui.screens.lobby import LobbyScreen
from coldwater.tui.screens.table import TableScreen

from .test_lan_play import until


class _StuckBot:
    """A bot that thinks until the test ends, so the game waits while the screen is looked at."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.release = threading.Event()

    def choose(self, view: State[Any, Any], rng: Rng) -> Action:
        self.release.wait(30)
        result: Action = self.bot.choose(view, rng)
        return result


async def test_the_table_screen_says_a_bot_plays_the_seat_and_ctrl_t_takes_it_back(
    home: Path, monkeypatch: Any
) -> None:
    from coldwater.tui import cli

    opened: list[ColdwaterApp] = []
    monkeypatch.setattr(ColdwaterApp, "run", lambda self: opened.append(self))
    argv = [
        "host",
        "crown",
        "--name",
        "Slow Pond",
        "--seats",
        "bot",
        "--turn-timer",
        "1",
        "--time-bank",
        "0",
        "--strict-clock",
    ]
    assert cli.main([*argv, "--bind", "127.0.0.1", "--no-advertise"]) == 0
    app = opened[0]
    stuck: _StuckBot | None = None
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(lambda: isinstance(pilot.app.screen, LobbyScreen), 10, "the lobby")
            host = pilot.app.screen.party
            assert host.info.dealer == "fair" and host.info.turn == 1
            await pilot.press("ctrl+s")
            await until(lambda: host.fair_host.stand_in is not None, 20, "the game to start")
            stuck = _StuckBot(host.fair_host.stand_in.bot)
            host.fair_host.stand_in.bot = stuck
            await until(lambda: isinstance(pilot.app.screen, TableScreen), 20, "the table screen")
            screen = pilot.app.screen
            # The key is shown exactly while the bot has the seat (on a busy machine the 1 s timer can
            # run out before this first look; after Ctrl+T below the seat is the person's for sure).
            assert screen.check_action("take_back", ()) == host.bot_plays
            # Nobody presses anything: after the turn timer the app's own bot has the seat, and says so.
            await until(lambda: host.bot_plays, 20, "the turn timer to run out")
            # The time the person really went without a move (the nearest second), beside the move's timer.
            line = re.compile(r"You did not move for 0:0[1-9]: a bot plays your seat\. Ctrl\+T takes it back\.")
            await until(lambda: bool(line.search(str(screen.query_one("#status").render()))), 5, "the line")
            assert screen.check_action("take_back", ())
            assert any(s.seat == host.host_seat and s.bot for s in host.lobby())
            # A question with one answer does not answer itself while the bot has the seat: that would
            # be a move "by the person", taking the seat back for somebody who is not there.
            view = screen.table.state
            assert not screen.answers.try_now(view, view.legal()[:1])
            await pilot.pause()
            assert host.bot_plays
            await pilot.press("ctrl+t")
            await pilot.pause()
            assert not host.bot_plays
            assert "a bot plays your seat" not in str(screen.query_one("#status").render())
            assert not screen.check_action("take_back", ())
            # The table was told (the host's own seat: the host says so to everyone, and to its own log).
            notes = [str(n.message) for n in app._notifications]
            assert any(
                "(seat 1) did not move for 0:0" in t and "(0:01 a move); their own app plays the seat" in t
                for t in notes
            ), notes
            assert any("(seat 1) is back" in t for t in notes), notes
    finally:
        if stuck is not None:
            stuck.release.set()


async def test_the_title_counts_down_the_seat_to_moves_time_at_80_columns(home: Path, monkeypatch: Any) -> None:
    """Issue 29, break 6: the seat to move's clock is in the title, no key away, within 80 columns; at a
    normal table a person out of time keeps the seat (the title says so, no bot plays it)."""
    from coldwater.tui import cli

    opened: list[ColdwaterApp] = []
    monkeypatch.setattr(ColdwaterApp, "run", lambda self: opened.append(self))
    argv = ["host", "crown", "--name", "Clock Pond", "--seats", "bot", "--turn-timer", "3", "--time-bank", "2"]
    assert cli.main([*argv, "--bind", "127.0.0.1", "--no-advertise"]) == 0
    app = opened[0]
    async with app.run_test(size=(80, 24)) as pilot:
        await until(lambda: isinstance(pilot.app.screen, LobbyScreen), 10, "the lobby")
        host = pilot.app.screen.party
        assert host.info.turn == 3 and host.info.bank == 2 and not host.info.strict
        await pilot.press("ctrl+s")
        await until(lambda: isinstance(pilot.app.screen, TableScreen), 20, "the table screen")
        screen = pilot.app.screen
        await until(lambda: host.awaiting_person, 20, "the host's turn")

        def title() -> str:
            return str(screen.query_one("#status").render())

        def shown() -> str:
            # What the 80-column title row shows (a longer title is cut at the right edge).
            return title()[: screen.query_one("#status").size.width]

        await until(lambda: re.search(r"\(0:0[1-3]\)", shown()) is not None, 5, "the move's countdown")
        await until(lambda: "(bank 0:0" in shown(), 6, "the bank draining")
        await until(lambda: "(out of time)" in shown(), 6, "out of time")
        assert screen.query_one("#status").size.width <= 80
        await pilot.pause(1.5)
        # A normal clock: the person thinking past their time keeps the seat; their own app's bot waits.
        assert host.awaiting_person and not host.bot_plays and "(out of time)" in shown()
        assert not screen.check_action("hand_over", ())  # (one's own seat is the others' to hand over)
        notes = [str(n.message) for n in app._notifications]
        assert not any("their own app plays the seat" in t for t in notes), notes
