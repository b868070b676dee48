"""The drill on your own labelled mistakes (issue 48 item 5), played by keys: from the Review
screen, the end screen and the menu; the better choice passes, the mistake is refused, and
then t tries again, s shows the solution, n skips."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

from coldwater.core import games, grading
from coldwater.core.record import GameRecord
from coldwater.core.review import ReviewBudget, SeatReview, hint, review
from coldwater.core.simulate import simulate
from coldwater.tui import drillstore
from coldwater.tui.catalog import Catalog
from coldwater.tui.screens.drill import FAIL, PASS, DrillScreen, drill_items, judge
from coldwater.tui.widgets.choices import ChoiceList

QUICK = ReviewBudget(worlds=4, min_worlds=4, width=3, measure=6, confirm=8, confirm_top=4)


def reviewed() -> tuple[GameRecord, SeatReview]:
    game = games.get("crown")
    rec = next(simulate(game, 2, 1, "scr", bot="random,greedy", records=True)).record
    assert rec is not None
    rec.entries = rec.entries[:150]
    return rec, review(rec, game, 0, budget=QUICK)


async def until(cond: Any, within: float = 120.0) -> None:
    end = time.monotonic() + within
    while time.monotonic() < end:
        if cond():
            return
        await asyncio.sleep(0.02)
    raise AssertionError("waited too long")


def test_the_engine_s_own_choice_passes_and_the_mistake_is_refused() -> None:
    rec, r = reviewed()
    items = drill_items(rec, games.get("crown"), r)
    assert len(items) >= 2, "this random seat made labelled mistakes"
    assert all(grading.LABELS.count(it.mistake.label) for it in items)
    it = items[0]
    assert judge(it, it.mistake.best)[0] == PASS
    verdict, why = judge(it, it.mistake.chosen)
    assert verdict == FAIL and "the choice made in the game" in why
    # A third choice is the evaluator's to judge: its own first choice at this position passes.
    top = hint(games.get("crown"), it.view, seed="drill").choices[0].action
    assert judge(it, top)[0] == PASS


def _key(screen: DrillScreen, value: str) -> str:
    return screen.query_one("#drill-choices", ChoiceList).key_for(value)


async def test_the_drill_by_keys(make_app: Any, home: Path) -> None:
    rec, r = reviewed()
    game = games.get("crown")
    items = drill_items(rec, game, r)
    app = make_app(Catalog(names=("crown",)))
    async with app.run_test(size=(80, 24)) as pilot:
        board = app.catalog.table_screen("crown").BOARD
        words = app.catalog.table_screen("crown").WORDS
        screen = DrillScreen(items, lambda _name: board, lambda _name: words)
        await app.push_screen(screen)
        await pilot.pause()
        title = str(screen.query_one("#drill-title").render())
        assert title.startswith(f"Drill · 1 of {len(items)} · ") and items[0].where in title
        # The choices read as at the table (to the seat choosing), not as the log tells them.
        labels = [str(item.label) for item, _ in screen.query_one("#drill-choices", ChoiceList)._items]
        told = {items[0].view.describe(a) for a in items[0].view.legal()}
        assert labels and not told & set(labels), labels
        me = items[0].names[items[0].seat]
        assert not any(lbl.startswith(me) for lbl in labels), labels
        # The better choice passes.
        await pilot.press(_key(screen, items[0].mistake.best))
        await until(lambda: screen.verdict == PASS)
        await pilot.press("n")
        await pilot.pause()
        assert screen.index == 1 and screen.verdict == ""
        # The planted mistake (the choice made in the game) is refused: try again, see the solution.
        await pilot.press(_key(screen, items[1].mistake.chosen))
        await until(lambda: screen.verdict == FAIL)
        verdict = str(screen.query_one("#drill-verdict").render())
        assert "t: try again" in verdict and "s: see the solution" in verdict
        assert not screen.query_one("#drill-choices").display
        await pilot.press("t")
        await pilot.pause()
        assert screen.verdict == "" and screen.query_one("#drill-choices").display
        await pilot.press(_key(screen, items[1].mistake.chosen))
        await until(lambda: screen.verdict == FAIL)
        await pilot.press("s")
        await pilot.pause()
        best = words(game, list(items[1].names)).label(
            items[1].view, game.parse_action(items[1].mistake.best), items[1].seat
        )
        assert f"The solution: {best}." in str(screen.query_one("#drill-verdict").render())
        for _ in items[2:]:
            await pilot.press("n")
            await pilot.pause()
        await pilot.press("n")
        await pilot.pause()
        assert screen.item is None
        assert f"Drill done: 1 of {len(items)} passed" in str(screen.query_one("#drill-verdict").render())
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is not screen


async def test_the_menu_drills_the_mistakes_of_reviewed_games(make_app: Any, home: Path) -> None:
    app = make_app(Catalog(names=("crown",)))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("x")  # nothing reviewed yet: said, and the menu stays
        await pilot.pause()
        assert not isinstance(app.screen, DrillScreen)
        rec, r = reviewed()
        drillstore.remember(rec, r)
        await pilot.press("x")
        await until(lambda: isinstance(app.screen, DrillScreen))
        screen = app.screen
        assert isinstance(screen, DrillScreen)
        assert len(screen.items) == len(drillstore.mistakes_of(r)) >= 2
        await pilot.press(_key(screen, screen.items[0].mistake.best))
        await until(lambda: screen.verdict == PASS)


def test_the_store_keeps_the_newest_games_once_each(home: Path) -> None:
    rec, r = reviewed()
    drillstore.remember(rec, r)
    drillstore.remember(rec, r)  # the same game again replaces its entry
    assert len(drillstore.load().games) == 1
    Path(drillstore.path()).write_text("{not json")
    assert drillstore.load().games == []  # set aside, and the drill starts empty


async def test_k_on_the_end_screen_reviews_then_drills(make_app: Any, home: Path) -> None:
    from coldwater.net.play.table import Seat, SeatKind, Table
    from coldwater.tui.screens.review import ReviewScreen
    from coldwater.tui.screens.score import ScoreScreen

    seats = [Seat(SeatKind.BOT, "Ann", bot="random"), Seat(SeatKind.BOT, "Bea", bot="greedy")]
    table = Table.new("fisheries", seats, seed="end", save_path=home / "saves" / "f.json", meta={"people": "1"})
    await table.advance()
    app = make_app(Catalog(names=("fisheries",)))
    async with app.run_test(size=(80, 24)) as pilot:
        end = ScoreScreen(table.game.title, table.state.scores(), ["Ann", "Bea"], table=table)
        await app.push_screen(end)
        await pilot.pause()
        assert "x  drill" in str(end.query_one("#score-actions").render())
        await pilot.press("x")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReviewScreen) and screen.drill and screen.seat == 1
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is end
