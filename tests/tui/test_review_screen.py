"""The Review screen: the review runs in the bots' worker, keys stay answered, Esc stops it,
and each listed decision opens the replay there with the better choice shown."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest

from coldwater.core import games
from coldwater.core.grading import Moves
from coldwater.core.record import GameRecord
from coldwater.core.review import default_budget, review
from coldwater.core.simulate import simulate
from coldwater.net.play.thinker import Thinker
from coldwater.tui.catalog import Catalog
from coldwater.tui.screens.replays import ReplayScreen
from coldwater.tui.screens.review import ReviewScreen, entry_text
from coldwater.tui.screens.reviewreplay import CoachReplay


def game_record(name: str, entries: int | None, seed: str = "scr", bots: str = "random,greedy") -> GameRecord:
    res = next(simulate(games.get(name), 2, 1, seed, bot=bots, records=True))
    assert res.record is not None
    if entries is not None:
        res.record.entries = res.record.entries[:entries]
    return res.record


async def until(cond: Any, within: float = 120.0) -> None:
    end = time.monotonic() + within
    while time.monotonic() < end:
        if cond():
            return
        await asyncio.sleep(0.02)
    raise AssertionError("waited too long")


async def settled(pilot: Any, layout: Any, calm: int = 3, within: float = 60.0) -> None:
    """Wait until ``layout()`` returns the same value over ``calm`` refreshes in a row."""
    end = time.monotonic() + within
    last, same = None, 0
    while time.monotonic() < end:
        await pilot.pause(0.05)
        now = layout()
        same = same + 1 if now == last else 0
        last = now
        if same >= calm:
            return
    raise AssertionError(f"the layout kept changing for {within} s")


@pytest.mark.parametrize("entries", [40, 110])
async def test_the_worker_reviews_as_the_core_does(entries: int) -> None:
    # 40 entries: a few decisions, the worker alone; 110: enough that a helper process
    # judges every other decision (net/play/thinkshare.py) on a machine with two cores.
    game = games.get("crown")
    rec = game_record("crown", entries)
    seen: list[tuple[int, int]] = []
    thinker = Thinker()
    try:
        got = await thinker.review(game, None, rec, 0, progress=lambda d, n: seen.append((d, n)))
        assert thinker.pid is not None and not thinker.notices  # it was the worker, not a thread
    finally:
        await thinker.close()
    want = review(rec, game, 0, budget=default_budget(game), worst=10)
    assert got == want
    # Each decision, then the costliest confirmed: the count only rises, and ends at 100%.
    assert seen and seen[-1][0] == seen[-1][1] >= want.decisions
    # (Two at a time where a helper shares the decisions.)
    assert want.decisions in [d for d, _ in seen] and seen[0][0] in (1, 2)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)


async def test_review_screen_lists_and_opens_the_replay_there(make_app: Any, home: Path) -> None:
    game = games.get("crown")
    rec = game_record("crown", 150)
    app = make_app(Catalog(names=("crown",)))
    async with app.run_test(size=(80, 24)) as pilot:
        board = app.catalog.table_screen("crown").BOARD
        screen = ReviewScreen(rec, game, board, 0, others=False)
        await app.push_screen(screen)
        await until(lambda: screen.complete)
        assert not screen.error
        r = screen.result
        assert r is not None and r.worst, "this random seat's opening has costly decisions"
        await pilot.pause()
        summary = str(screen.query_one("#review-summary").render())
        assert f"behind in {r.decisions} decisions" in summary and "accuracy " in summary
        assert "You " in summary and "on skill you " in summary  # the seat's luck line, in second person
        worst = r.worst[0]
        moves = Moves(rec)
        text = entry_text(worst, ["random", "greedy"], "crown", 0, moves)
        assert f"round {worst.round}, turn {worst.turn}, move {moves.move(worst.ply)}: random " in text
        assert ". Better: " in text
        await pilot.press("1")
        await until(lambda: isinstance(app.screen, CoachReplay) and bool(app.screen.marked))
        replay = app.screen
        assert isinstance(replay, ReplayScreen)
        assert replay.pos == worst.ply and replay.view_index == 1
        title = str(replay.query_one("#decision-title").render())
        assert "Better:" in title and f"~{worst.loss:.1f} ± {worst.loss_se:.1f} points more" in title
        assert f"round {worst.round}, turn {worst.turn}, move {moves.move(worst.ply)}: here random " in title
        assert "Why: You would have " in title or "small gains all over" in title
        # The marks stay while this position is shown, go one step on, and come back.
        await pilot.press("right")
        await until(lambda: not replay.marked)
        await pilot.press("left")
        await until(lambda: bool(replay.marked))
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is screen
        # The graph: Tab to it, a point to the left, Enter opens the replay at that point.
        graph = screen.query_one("#review-graph")
        graph.focus()
        await pilot.press("home")
        await pilot.pause()
        first = graph.point  # type: ignore[attr-defined]
        assert first is not None and first.text in str(screen.query_one("#graph-note").render())
        await pilot.press("enter")
        await until(lambda: isinstance(app.screen, ReplayScreen))
        shown = app.screen
        assert isinstance(shown, ReplayScreen) and shown.pos in (first.ply, first.ply - 1)


async def test_keys_stay_answered_while_it_runs_and_escape_stops_it(make_app: Any, home: Path) -> None:
    game = games.get("crown")
    rec = game_record("crown", None, bots="greedy")  # a whole game: well over a few seconds
    app = make_app(Catalog(names=("crown",)))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = ReviewScreen(rec, game, None, 1)
        await app.push_screen(screen)
        thinker = app.thinker
        assert thinker is not None
        await until(lambda: screen.query_one("#review-progress").progress >= 1)  # type: ignore[attr-defined]
        for _ in range(3):  # Help opens and closes meanwhile: the UI thread is not the review's
            await pilot.press("question_mark")
            await pilot.pause()
            assert app.screen is not screen
            await pilot.press("escape")
            await pilot.pause()
            assert app.screen is screen
        done = screen.query_one("#review-progress").progress  # type: ignore[attr-defined]
        assert screen.result is None and done < screen.query_one("#review-progress").total  # type: ignore[attr-defined]
        pid = thinker.pid
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is not screen
        await until(lambda: not thinker._pending, within=30)  # the worker answered Stopped
        assert thinker.pid == pid and not thinker.notices  # and stays, without a fault
        again = await thinker.review(game, None, game_record("crown", 30), 0)
        assert again.decisions >= 0 and thinker.pid == pid


async def test_a_bad_record_is_said_on_screen(make_app: Any, home: Path) -> None:
    from coldwater.core.record import Entry

    game = games.get("crown")
    rec = game_record("crown", 20)
    rec.entries[5] = Entry(rec.entries[5].seat, rec.entries[5].action, "0" * 64)
    app = make_app(Catalog(names=("crown",)))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = ReviewScreen(rec, game, None, 0)
        await app.push_screen(screen)
        await until(lambda: bool(screen.error))
        await pilot.pause()
        assert "entry 6" in str(screen.query_one("#review-status").render())
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is not screen


@pytest.mark.parametrize("name", ["crown", "fisheries", "aquatica"])
def test_review_screen_snapshot(snap_compare: Any, home: Path, name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The finished review at 80×24, then at 200×60 (the bigger graph, the bot levels' figures)."""
    from coldwater.tui.app import ColdwaterApp
    from coldwater.tui.screens import review as review_screen
    from coldwater.tui.settings import Settings

    game = games.get(name)
    rec = game_record(name, {"crown": 60, "fisheries": 44, "aquatica": 100}[name])
    # The second size shows what the first computed: the same reviews and luck, judged once.
    reviews: dict[int, Any] = {}
    lucks: list[Any] = []
    judge, weigh = ReviewScreen._review, review_screen.luck_here

    async def review_once(screen: ReviewScreen, seat: int) -> Any:
        if seat not in reviews:
            reviews[seat] = await judge(screen, seat)
        return reviews[seat]

    async def luck_once(*args: Any) -> Any:
        if not lucks:
            lucks.append(await weigh(*args))
        return lucks[0]

    monkeypatch.setattr(ReviewScreen, "_review", review_once)
    monkeypatch.setattr(review_screen, "luck_here", luck_once)

    def shown(app: Any) -> Any:
        async def run_before(pilot: Any) -> None:
            board = app.catalog.table_screen(name).BOARD
            screen = ReviewScreen(rec, game, board, 0)
            await app.push_screen(screen)
            await until(lambda: screen.complete, within=600)
            lst = screen.query_one("#review-list")
            await until(lambda: not lst.display or (app.focused is lst and lst.highlighted is not None))  # type: ignore[attr-defined]
            # The list sizes itself to its wrapped lines and scrolls its highlight into view over a
            # few refreshes, and the graph redraws at its laid-out size; under load that takes longer
            # than any fixed sleep, so wait until the layout, then the drawing, stop changing.
            graph = screen.query_one("#review-graph")
            await settled(pilot, lambda: (lst.region, lst.virtual_size, lst.scroll_offset, graph.region))
            await settled(pilot, app.export_screenshot)

        return run_before

    for size in ((80, 24), (200, 60)):
        app = ColdwaterApp(catalog=Catalog(names=(name,)), settings=Settings(bot_delay=0.0))
        assert snap_compare(app, terminal_size=size, run_before=shown(app)), size
    assert sorted(reviews) == [0, 1] and len(lucks) == 1


async def test_the_end_screen_reviews_the_seat_played_here(make_app: Any, home: Path) -> None:
    from coldwater.net.play.table import Seat, SeatKind, Table
    from coldwater.tui.screens.score import ScoreScreen

    # Two bot seats play the game out; the record says seat 2 was played at this keyboard.
    seats = [Seat(SeatKind.BOT, "Ann", bot="greedy"), Seat(SeatKind.BOT, "Bea", bot="random")]
    table = Table.new("fisheries", seats, seed="end", save_path=home / "saves" / "f.json", meta={"people": "1"})
    await table.advance()
    assert table.state.is_over and table.record is not None
    app = make_app(Catalog(names=("fisheries",)))
    async with app.run_test(size=(80, 24)) as pilot:
        end = ScoreScreen(table.game.title, table.state.scores(), ["Ann", "Bea"], table=table)
        await app.push_screen(end)
        await pilot.pause()
        assert "v  review" in str(end.query_one("#score-actions").render())
        await pilot.press("v")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReviewScreen) and screen.seat == 1 and screen.rec is table.record
        await pilot.press("escape")  # stops it at once
        await pilot.pause()
        assert app.screen is end


async def test_v_reviews_in_a_replay_as_at_the_end(make_app: Any, home: Path) -> None:
    """Issue 45: a replay reviewed on r (the end screen's rematch, the menu's resume) and v changed
    whose view; v reviews on both screens now, and w changes the view."""
    from coldwater.net.play import records
    from coldwater.net.play.table import Seat, SeatKind, Table

    seats = [Seat(SeatKind.BOT, "Ann", bot="greedy"), Seat(SeatKind.BOT, "Bea", bot="random")]
    table = Table.new("fisheries", seats, seed="end", meta={"people": "1"})
    await table.advance()
    assert table.state.is_over and table.record is not None
    records.save(table.record, home / "records" / "f.json")
    app = make_app(Catalog(names=("fisheries",)))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("p")
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        replay = app.screen
        assert isinstance(replay, ReplayScreen)
        view = replay.view_index
        await pilot.press("w")
        await pilot.pause()
        assert replay.view_index != view
        await pilot.press("v")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReviewScreen) and screen.rec.game == "fisheries"
        await pilot.press("escape")  # stops it at once
        await pilot.pause()
        assert app.screen is replay


async def test_the_graph_reads_without_colour(make_app: Any, home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Under NO_COLOR and a plain TERM the lines are told apart by their seat numbers, and the
    line under the graph says whose each is."""
    from tests.tui.screen_text import screen_text

    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("TERM", "xterm")
    game = games.get("fisheries")
    rec = game_record("fisheries", 44)
    app = make_app(Catalog(names=("fisheries",)))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = ReviewScreen(rec, game, None, 0)
        await app.push_screen(screen)
        await until(lambda: screen.complete, within=600)
        await pilot.pause()
        assert app.no_color
        note = str(screen.query_one("#graph-note").render())
        assert "lines: 1 random, 2 greedy" in note
        rows = screen_text(app).splitlines()
        plot = [r for r in rows if "┤" in r or "│" in r]
        assert any("100%" in r for r in plot) and any("0%" in r for r in plot)
        body = "".join(r.split("┤", 1)[-1] for r in plot)
        assert "1" in body and "2" in body, "each seat's line is drawn with its number"
        assert all(
            r in str(screen.query_one("#review-summary").render()) for r in ("random: accuracy", "greedy: accuracy")
        )
