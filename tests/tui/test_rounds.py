"""Turns and rounds in every game and mode (issue #30): solo games count them as
multiplayer ones do, in the record, the title, the log, the end screen, Resume and
the replay; the replay's running scores, own view, one list and footer; and the
keys (the filter's digits, the lobster question's missing default)."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from coldwater.core import games, record
from coldwater.core.clock import clocks
from coldwater.net.play import records
from coldwater.net.play.table import Seat, SeatKind, Table, count_turns, list_saves
from coldwater.tui.catalog import Catalog
from coldwater.tui.games.crown.screen import CrownTableScreen
from coldwater.tui.screens.replays import ReplayScreen
from coldwater.tui.screens.score import ScoreScreen
from coldwater.tui.screens.table import TableScreen
from coldwater.tui.widgets.chart import ScoreOverTime
from coldwater.tui.widgets.choices import ChoiceList
from coldwater.tui.widgets.log import LogPane

from .driver import by_table, key, key_until, settle
from .frame_driver import my_turn, screen_text

TITLE = re.compile(r"round \d+( of \d+)? · turn \d+")


def rotating(view: Any, legal: list[Any], made: int) -> Any:
    return legal[(made * 7 + 3) % len(legal)]


async def finish(pilot: Pilot[Any], screen: TableScreen) -> None:
    """Play the person's seat to the end on the table the screen drives."""
    made = 0
    loop = asyncio.get_running_loop()
    end = loop.time() + 240
    while not isinstance(pilot.app.screen, ScoreScreen):
        assert loop.time() < end, "the game did not end"
        if pilot.app.screen is screen and screen.my_turn() and not screen.busy:
            made = await by_table(screen, rotating, made, made + 25)
        await asyncio.sleep(0.002)
        await pilot._wait_for_screen()


async def test_practice_pond_has_rounds_everywhere(make_app, home: Path) -> None:
    app = make_app(Catalog(names=("crown",)))
    async with app.run_test(size=(80, 24)) as pilot:
        table = Table.new("crown", [Seat(SeatKind.PERSON, "Ada")], seed="pond", save_path=home / "saves" / "p.json")
        screen = CrownTableScreen(table)
        await app.push_screen(screen)
        await my_turn(pilot)
        await by_table(screen, rotating, 0, 12)
        await my_turn(pilot)
        status = str(screen.query_one("#status").render())
        assert TITLE.search(status), status
        clock = screen.status.clock()
        assert clock.round > 1 and clock.turn == 2 * clock.round - 1, clock  # your turn, then the silent player's
        assert f"round {clock.round} · turn {clock.turn}" in status
        # Resume counts the silent player's turns too.
        (info,) = [i for i in list_saves(home / "saves") if i.path.endswith("p.json")]
        assert info.turns == clock.turn
        # The full log: a heading per round and per turn, the silent player's by name.
        await key_until(pilot, "f3", lambda: screen.pane == "log")
        await settle(pilot)
        pane = screen.query_one("#log-pane", LogPane).plain
        assert "── Round 2 ──" in pane and "Silent player · turn 2" in pane and "Ada · turn 3" in pane, pane
        await key_until(pilot, "f3", lambda: screen.pane == "")

        await finish(pilot, screen)
        end = pilot.app.screen
        assert isinstance(end, ScoreScreen)
        await settle(pilot)
        await asyncio.sleep(0.3)
        await settle(pilot)
        (kept,) = list((home / "records").glob("*.json")) if (home / "records").is_dir() else [None]
        assert kept is not None
        rec = records.load(kept)
        assert rec.entries[-1].clock is not None and rec.entries[-1].clock.round > 5
        assert rec.meta.get("people") == "0"
        text = str(end.query_one("#milestones").render())
        lines = [ln for ln in text.splitlines() if ln.strip()]
        assert lines and not any(re.search(r"\s1: ", ln) for ln in lines), text  # never "1:" for the silent player
        assert any("Silent player:" in ln for ln in lines), text
        assert any(int(m[1]) > 1 for ln in lines if (m := re.search(r"round (\d+)", ln))), text
        chart = end.query_one("#score-over-time", ScoreOverTime)
        assert len(chart.rounds) > 5 and chart.labels[1] == "Silent player"  # "Score by round" has rounds

        # The replay of your own finished game: your own view, a turn per ↓, scores all along.
        await key_until(pilot, "p", lambda: isinstance(pilot.app.screen, ReplayScreen))
        replay = pilot.app.screen
        assert isinstance(replay, ReplayScreen)
        await settle(pilot)
        assert replay.view_index == 1 and replay.board_state()[1] == 0  # Ada's own view, not a spectator's
        tl = replay.timeline
        assert tl is not None
        seen = []
        for _ in range(6):
            await key_until(pilot, "down", lambda p=replay.pos: replay.pos != p)
            await settle(pilot)
            seen.append(tl.turn_at(replay.pos))
        assert seen == list(range(1, 7)), seen  # one turn a step: yours, the silent player's, ...
        mid = str(replay.query_one("#standings").render())
        assert re.search(r"Points: Ada \d+ · Silent player \d+ \(so far\)", mid), mid
        text = screen_text(pilot).splitlines()
        assert "round 3 · turn 6" in text[0], text[0]
        footer = text[-1]
        assert "Help" in footer and "Next turn" in footer, footer  # nothing cut at 80 columns


async def test_solo_records_count_turns_and_rounds() -> None:
    """The core's clock: Practice Pond's round is your turn and the silent player's; a solo
    Aquatica game's turns are all seat 0's and each is counted (each one a round)."""
    from coldwater.core.rng import Rng

    for name, options in (("crown", None), ("aquatica", {"module": "goals"})):
        g = games.get(name)
        s = g.new(1, seed="rounds", options=options)
        rec = record.start(g, s, options)
        bot, rng = g.bot("random"), Rng("r")
        states = [s.clone()]
        while not s.is_over:
            a = s.sample_chance() if s.current == -1 else bot.choose(s.view(0), rng.fork(s.ply))
            seat = s.current
            s.apply(a)
            record.append(rec, seat, a, s)
            states.append(s.clone())
        last = rec.entries[-1].clock
        assert last is not None and last.turn > 5, (name, last)
        if name == "crown":
            assert last.turn in (2 * last.round - 1, 2 * last.round)
            assert {c.party for c in clocks(states)} >= {0, 1}  # the silent player (party 1) has turns
        else:
            assert last.round == last.turn
        assert count_turns(rec.entries) == last.turn
        # A view counts the same: clocks come from public data.
        assert list(clocks(st.view(None) for st in states)) == list(clocks(states))


async def test_every_game_titles_round_and_turn(make_app, home: Path) -> None:
    cases = [
        ("crown", [Seat(SeatKind.PERSON, "Ada"), Seat(SeatKind.BOT, "Bot", "greedy")], None),
        ("crown", [Seat(SeatKind.PERSON, "Ada"), Seat(SeatKind.PERSON, "Bo")], None),
        ("fisheries", [Seat(SeatKind.PERSON, "Ada"), Seat(SeatKind.BOT, "Bot", "random")], None),
        ("aquatica", [Seat(SeatKind.PERSON, "Ada")], {"module": "goals"}),
        ("aquatica", [Seat(SeatKind.PERSON, "Ada")], {"module": "tribes", "solo_level": 2}),
        ("aquatica", [Seat(SeatKind.PERSON, "Ada"), Seat(SeatKind.BOT, "Bot", "random")], None),
    ]
    app = make_app(Catalog(names=("crown", "fisheries", "aquatica")))
    async with app.run_test(size=(80, 24)) as pilot:
        for name, seats, options in cases:
            table = Table.new(name, seats, seed="title", options=options, autosave=False)
            screen = app.catalog.table_screen(name)(table)
            await app.push_screen(screen)
            for _ in range(3):  # a few turns in, so a round or turn past the first shows
                await my_turn_or_handover(pilot, screen)
                await by_table(screen, rotating, 0, 6)
            await my_turn_or_handover(pilot, screen)
            status = str(screen.query_one("#status").render())
            assert TITLE.search(status), (name, options, status)
            assert screen.status.clock().turn > 1, (name, status)
            app.pop_screen()
            await settle(pilot)


async def my_turn_or_handover(pilot: Pilot[Any], screen: TableScreen) -> None:
    from coldwater.tui.screens.handover import HandOverScreen

    for _ in range(5000):
        if isinstance(pilot.app.screen, HandOverScreen):
            await pilot.press("enter")
            continue
        if pilot.app.screen is screen and screen.my_turn() and not screen.busy:
            await settle(pilot)
            return
        await asyncio.sleep(0.002)
        await pilot._wait_for_screen()
    raise AssertionError("no turn came")


async def test_digits_typed_in_the_filter_filter_and_choose_nothing(make_app, home: Path) -> None:
    """Issue 45: "a4" typed in the filter chose item 4; a digit is text there (squares, prices)."""
    app = make_app(Catalog(names=("crown",)))
    async with app.run_test(size=(80, 24)) as pilot:
        seats = [Seat(SeatKind.PERSON, "Ada"), Seat(SeatKind.BOT, "Bot", "random")]
        screen = CrownTableScreen(Table.new("crown", seats, seed="filter", autosave=False))
        await app.push_screen(screen)
        await my_turn(pilot)
        choices = screen.query_one("#decision", ChoiceList)
        await key_until(pilot, "slash", lambda: screen.query_one("#decision-filter").display)
        box = screen.query_one("#decision-filter")
        chosen: list[Any] = []
        screen.choose = lambda value: chosen.append(value)  # type: ignore[method-assign]
        ply = screen.table.state.ply
        for ch in "a4":
            await key(pilot, ch)
        await settle(pilot)
        assert chosen == [] and screen.table.state.ply == ply
        assert getattr(box, "value", "") == "a4"
        assert choices.filter_text == "a4"


async def test_the_lobster_question_highlights_keep_and_e_keeps_it(make_app, home: Path) -> None:
    """Keeping the lobster ends the turn: it is on e, like every end of turn, and it is the
    highlighted answer (the turn goes on as it would have, issue 45); discarding it spends
    it, is never highlighted, and "!" will not make it the answer for the game."""
    from coldwater.core.fisheries.actions import Pass
    from coldwater.tui.games.fisheries.screen import FisheriesTableScreen

    app = make_app(Catalog(names=("fisheries",)))
    async with app.run_test(size=(80, 24)) as pilot:
        seats = [Seat(SeatKind.PERSON, "Ada"), Seat(SeatKind.BOT, "Bot", "random")]
        screen = FisheriesTableScreen(Table.new("fisheries", seats, seed="lobster", autosave=False))
        await app.push_screen(screen)
        t = screen.table
        for _ in range(400):
            await my_turn(pilot)
            view = t.view(t.current)
            if view.data.phase == "lobster" and any(str(a) == "lobster" for a in view.legal()):
                break
            legal = view.legal()
            pick = next((a for a in legal if str(a).startswith("chart")), legal[0])
            await by_table(screen, lambda v, lg, m, p=pick: p if p in lg else lg[0], 0, 1)
        else:
            raise AssertionError("no lobster question came")
        await settle(pilot)
        choices = screen.query_one("#decision", ChoiceList)
        assert choices.highlighted_value == Pass(), choices.highlighted_value
        assert choices.key_for(Pass()) == "e"
        discard = next(v for v in choices.values if str(v) == "lobster")
        choices.highlighted = choices.get_option_index(f"c{choices.values.index(discard)}")
        ply = t.state.ply
        await key(pilot, "exclamation_mark")
        await settle(pilot)
        assert t.state.ply == ply and "lobster" not in screen.answers.always  # refused, said why
        await key_until(pilot, "e", lambda: t.state.ply > ply)
        assert t.record.entries[ply].action == "pass"
