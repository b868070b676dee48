"""Whole Fisheries of Gloucester games at 160×50 and at 80×24; hotseat hand-overs for
the first days.

The 160×50 game is played by key presses, with the rendered screen checked at every
decision. The 80×24 game is played and checked the same way for its first 15
decisions, then on the table the screen drives (``Table.submit``) with every tenth
decision handed back to the screen to check and answer by key: the small screen is
still checked all through a game, at a fraction of the keys (each costs a repaint)."""

from __future__ import annotations

from pathlib import Path

import pytest

from coldwater.net.play.table import list_saves
from coldwater.tui.games.fisheries.board import FisheriesBoard
from coldwater.tui.games.fisheries.screen import FisheriesTableScreen
from coldwater.tui.screens.handover import HandOverScreen
from coldwater.tui.screens.menu import MenuScreen
from coldwater.tui.screens.replays import ReplayScreen
from coldwater.tui.screens.score import ScoreScreen

from .driver import start_game
from .fisheries_driver import Stats, play_fisheries


@pytest.mark.parametrize(
    ("size", "table_after"), [pytest.param((160, 50), None, id="160x50"), pytest.param((80, 24), 15, id="80x24")]
)
async def test_whole_game_against_the_greedy_bot(
    make_app, home: Path, size: tuple[int, int], table_after: int | None
) -> None:
    app = make_app()
    async with app.run_test(size=size) as pilot:
        await start_game(pilot, mode_key="s", game="fisheries", seats=["person", "bot:greedy"], seed="22")
        assert isinstance(app.screen, FisheriesTableScreen)
        table = app.screen.table
        stats = await play_fisheries(pilot, table_after=table_after)
        assert isinstance(app.screen, ScoreScreen)
        assert table.state.is_over and table.state.data.day == 6
        assert stats.cursor_placements >= 1
        if table_after is None:  # every decision by keys
            # Asked once: "!" kept the lobster for the rest of the game.
            assert stats.lobster_questions == 1
            assert stats.sails >= 1
            assert {"preserve", "fish", "ui:place", "end"} <= set(stats.tags)
            # A card's ship and tile icons go through the same cursor as a turn's sail and chart.
            # (A card's icon with one legal square answers itself since issue 45, so which of its
            # two cursors a game meets depends on the deal: at least one of them.)
            assert {("turn", "place"), ("turn", "pick")} <= stats.cursor_uses
            assert {("bonus", "place"), ("bonus", "pick")} & stats.cursor_uses
        scores = app.screen.scores
        assert scores.final and scores.categories[:3] == ("preservation cards", "helm icons", "islands")
        assert app.screen.labels == [s.name for s in table.seats]  # the score screen names the players
        assert scores.totals == tuple(sum(row[:3]) for row in scores.rows)  # the breakdown adds up
        await pilot.press("enter")
        assert isinstance(app.screen, MenuScreen)
        # The finished game replays with the same board widget.
        await pilot.press("p")
        await pilot.pause()
        await pilot.press("1")
        await pilot.pause()
        assert isinstance(app.screen, ReplayScreen)
        await pilot.press("end")
        await pilot.pause()
        board = app.screen.query_one("#board", FisheriesBoard)
        shown = board._view
        assert shown is not None and shown.is_over
        assert board.day_line(shown.data, long=False).plain.startswith("Game over")
    assert list_saves() == []
    assert len(list((home / "records").glob("*.json"))) == 1


async def test_hotseat_hands_over_between_two_people(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await start_game(pilot, mode_key="h", game="fisheries", seats=["person", "person"], seed="8")
        assert isinstance(app.screen, HandOverScreen)
        table = app.screen_stack[-2]
        assert isinstance(table, FisheriesTableScreen) and table.viewer is None
        stats = Stats()
        # Two days by keys (no screen checks: the 80×24 game above does them) are enough
        # to meet both people several times.
        await play_fisheries(pilot, stats, cursor_every=4, per_day=2, check=False, max_days=2)
        assert {"Player 1", "Player 2"} <= set(stats.handovers)
        assert stats.cursor_placements >= 1
