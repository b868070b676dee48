"""Hints at the table (``h``; issue 31 item 2): the hard bot's best few choices, from the
worker, with how far behind the best each is and a reason in the game's words; Esc stops
the thinking, a move made meanwhile drops it, and a LAN table with hints off says so."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest

from coldwater.core.review import hint
from coldwater.net.play.table import Seat, SeatKind, Table
from coldwater.tui.catalog import Catalog
from coldwater.tui.screens.table import TableScreen, with_names
from coldwater.tui.widgets.hint import HintPanel
from tests.tui.test_crown_play import decision

GAMES = ["crown", "fisheries", "aquatica"]


async def until(cond: Any, within: float = 60.0) -> None:
    end = time.monotonic() + within
    while time.monotonic() < end:
        if cond():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("waited too long")


def solo(home: Path, game: str, seed: str = "hints") -> Table:
    seats = [Seat(SeatKind.PERSON, "Ann"), Seat(SeatKind.BOT, "Gil", bot="greedy")]
    return Table.new(game, seats, seed=seed, save_path=home / f"{game}.json")


@pytest.mark.parametrize("game", GAMES)
async def test_h_shows_the_best_choices_with_reasons_in_the_games_words(make_app: Any, home: Path, game: str) -> None:
    app = make_app(Catalog(names=(game,)))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.catalog.table_screen(game)(solo(home, game))
        await app.push_screen(screen)
        assert await decision(pilot, screen)
        view = screen.current_view()
        await pilot.press("h")
        panel = screen.query_one("#hint-panel", HintPanel)
        assert panel.display and "thinking" in panel.text and screen.hints.thinking
        assert not screen.query_one("#log").display  # the panel has the log's place
        await until(lambda: screen.hints.shown is not None)
        await pilot.pause()
        h = screen.hints.shown
        assert h is not None and 1 <= len(h.choices) <= 3
        assert h == hint(screen.table.game, view)  # the worker's answer is the core's
        text = panel.text
        words = screen.words
        # The game's own words for its score sheet, and the rival by name.
        terms = {t for t in words.HINT_TERMS.values() if t} | {"Gil ends"}
        named = 0
        for n, c in enumerate(h.choices):
            label = with_names(screen.label_of(view, screen.table.game.parse_action(c.action)), ["Ann", "Gil"])
            assert label in text
            if n:
                assert f"{c.behind:.1f} {words.HINT_UNIT} less" in text
            reason = words.hint_reason(h, n)
            assert reason and f"  {reason}" in text and c.action not in reason
            named += any(t in reason for t in terms)
        assert named >= 1, text  # at least one reason names what it gains, in the game's words
        # "best" only when the evaluator found the first clearly ahead; otherwise a close call.
        assert (" — best" in text) == h.clear, text
        assert h.clear or "close call" in text, text
        assert panel.border_title == f"Hint · {h.worlds} playouts a choice"
        if panel.more_below:  # at 80x24 a hint is longer than the panel: h again shows the rest
            assert panel.border_subtitle == "h more · Esc closes"
            y = panel.scroll_y
            await pilot.press("h")
            await pilot.pause()
            assert panel.scroll_y > y and screen.hints.shown is h  # paged, not asked again
        await pilot.press("escape")
        await pilot.pause()
        assert not panel.display and screen.query_one("#log").display
        assert app.screen is screen  # Esc closed the hint, not the table


async def test_escape_stops_the_thinking_and_no_late_hint_arrives(make_app: Any, home: Path) -> None:
    app = make_app(Catalog(names=("crown",)))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.catalog.table_screen("crown")(solo(home, "crown"))
        await app.push_screen(screen)
        assert await decision(pilot, screen)
        thinker = app.thinker
        assert thinker is not None
        screen.hints.depth = 200  # minutes of work: it is surely still thinking when Esc comes
        await pilot.press("h")
        await until(lambda: bool(thinker.hints_asked) and thinker.hints_asked[-1] in thinker._pending)
        pid = thinker.pid
        panel = screen.query_one("#hint-panel", HintPanel)
        assert panel.display and screen.hints.thinking
        await pilot.press("question_mark")  # keys stay live while it thinks
        await pilot.pause()
        assert app.screen is not screen
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is screen and screen.hints.thinking
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is screen and not panel.display and not screen.hints.active
        await until(lambda: "Stopped" in thinker.late, within=30)  # the worker stopped at its next world
        await asyncio.sleep(0.5)
        assert "Hinted" not in thinker.late and not thinker._pending and not panel.display
        assert thinker.pid == pid and not thinker.notices  # it stays up, without a fault
        screen.hints.depth = 1
        await pilot.press("h")  # and answers the next hint
        await until(lambda: screen.hints.shown is not None)
        assert panel.display


async def test_a_move_made_while_it_thinks_is_played_and_the_hint_dropped(make_app: Any, home: Path) -> None:
    app = make_app(Catalog(names=("crown",)))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.catalog.table_screen("crown")(solo(home, "crown"))
        await app.push_screen(screen)
        assert await decision(pilot, screen)
        thinker = app.thinker
        assert thinker is not None
        screen.hints.depth = 200
        await pilot.press("h")
        await until(lambda: bool(thinker.hints_asked) and thinker.hints_asked[-1] in thinker._pending)
        ply = screen.table.state.ply
        await pilot.press("1")
        await until(lambda: screen.table.state.ply > ply)
        assert not screen.hints.active and not screen.query_one("#hint-panel").display
        await until(lambda: "Stopped" in thinker.late, within=30)
        assert await decision(pilot, screen)  # the bot moved after, in the same worker; the game goes on
        assert "Hinted" not in thinker.late and not screen.query_one("#hint-panel").display


async def test_hotseat_gives_the_player_to_move_a_hint_from_their_view(make_app: Any, home: Path) -> None:
    seats = [Seat(SeatKind.PERSON, "Ann"), Seat(SeatKind.PERSON, "Bo")]
    table = Table.new("crown", seats, seed="hints-hot", save_path=home / "hot.json")
    app = make_app(Catalog(names=("crown",)))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.catalog.table_screen("crown")(table)
        await app.push_screen(screen)
        await pilot.pause()
        await pilot.press("enter")  # the hand-over screen
        assert await decision(pilot, screen)
        view = screen.current_view()
        await pilot.press("h")
        await until(lambda: screen.hints.shown is not None)
        h = screen.hints.shown
        assert h is not None and h.seat == screen.viewer and h == hint(table.game, view)


async def test_learn_to_play_gives_its_gentle_word_from_the_hint_engine_without_blocking(
    make_app: Any, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from coldwater.tui import tutor
    from coldwater.tui.coach import new_table
    from coldwater.tui.widgets.choices import ChoiceList
    from coldwater.tui.widgets.coach import CoachedTable, coached

    # Any choice the hint engine ranks below its best earns the word here (the measured
    # threshold is for people); which choice is weak is still the engine's to say.
    monkeypatch.setattr(tutor.book("crown"), "HINT_LOSS", -1e9)
    monkeypatch.setattr(tutor, "CONFIDENCE", -1e9)
    app = make_app(Catalog(names=("crown",)))
    async with app.run_test(size=(80, 24)) as pilot:
        game = app.catalog.get("crown")
        screen = coached(app.catalog.table_screen("crown"))(new_table(game))
        await app.push_screen(screen)
        assert isinstance(screen, CoachedTable) and isinstance(screen, TableScreen)
        while True:  # past the lessons' first decisions to one with a choice the engine ranks below its best
            assert await decision(pilot, screen)
            view = screen.current_view()
            best = hint(game, view).choices[0].action
            lst = screen.query_one("#decision", ChoiceList)
            weak = [v for v in lst.values if str(v) != best and lst.key_for(v) and not screen.words.is_done(view, v)]
            if weak:
                break
            await pilot.press("1" if lst.values else "e")
        ply = screen.table.state.ply
        await pilot.press(lst.key_for(weak[0]))
        await until(lambda: screen.table.state.ply > ply)  # the move is made at once, the word comes after
        await until(lambda: screen.gentle_words > 0)
        await pilot.pause()
        shown = screen.coach.shown
        assert shown is not None and shown.key == "word" and "looked stronger" in shown.text
        assert screen.query_one("#coach").display


async def test_h_typed_in_the_filter_box_filters_and_asks_nothing(make_app: Any, home: Path) -> None:
    from textual.widgets import Input

    app = make_app(Catalog(names=("crown",)))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.catalog.table_screen("crown")(solo(home, "crown"))
        await app.push_screen(screen)
        assert await decision(pilot, screen)
        await pilot.press("slash", "h")
        await pilot.pause()
        assert screen.query_one("#decision-filter", Input).value == "h"
        assert not screen.hints.active and not screen.query_one("#hint-panel").display


async def test_a_hint_at_a_learn_to_play_table_keeps_its_place_beside_the_lessons(make_app: Any, home: Path) -> None:
    from coldwater.tui.coach import new_table
    from coldwater.tui.widgets.coach import coached

    app = make_app(Catalog(names=("fisheries",)))
    async with app.run_test(size=(80, 24)) as pilot:
        game = app.catalog.get("fisheries")
        screen = coached(app.catalog.table_screen("fisheries"))(new_table(game))
        await app.push_screen(screen)
        assert await decision(pilot, screen)
        await pilot.press("X")  # lessons off: the coach panel goes, the log would come back
        await pilot.press("h")
        await until(lambda: screen.hints.shown is not None)
        screen.refresh_view()
        await pilot.pause()
        assert screen.query_one("#hint-panel").display and not screen.query_one("#log").display
        await pilot.press("escape")
        await pilot.pause()
        assert screen.query_one("#log").display and not screen.query_one("#hint-panel").display


def test_the_reason_names_what_differs_most_in_the_games_words() -> None:
    from coldwater.core import games
    from coldwater.core.review import Hint, HintChoice
    from coldwater.tui.games.fisheries.words import FisheriesWords

    cats = ("preservation cards", "helm icons", "islands", "fish left (tie-break, not points)")
    h = Hint(
        game="fisheries",
        seat=0,
        ply=9,
        digest="d",
        categories=cats,
        rival="Seat 2",
        worlds=16,
        choices=(
            HintChoice("a", 5.0, 0.0, 0.0, (10.0, 2.0, 3.0, 9.0), 10.0),
            HintChoice("b", 2.0, 3.0, 0.5, (8.0, 2.1, 3.0, 0.0), 11.0),
            HintChoice("c", 4.9, 0.1, 0.4, (10.0, 2.0, 3.1, 9.0), 10.0),
        ),
    )
    words = FisheriesWords(games.get("fisheries"), ["Ann", "Gil"])
    assert words.hint_reason(h, 0) == "+2.0 points from preservation cards; Gil ends 1.0 lower"
    assert words.hint_reason(h, 1) == "\u22122.0 points from preservation cards"
    assert words.hint_reason(h, 2) == "close to the best"  # nothing differs by 0.3 or more
    assert "fish left" not in words.hint_reason(h, 1)  # a tie-break count is never a reason
    assert words.hint_reason(h, 5) == ""
