"""The table frame shared by every game: panes, keys that work whatever has focus,
undo, the done key, safe highlights, the filter and the log (live and rebuilt).

Played through the keyboard on Coldwater Crown (solo against two bots) at 80×24,
with assertions on the rendered screen text where a person would look."""

from __future__ import annotations

from typing import Any

from coldwater.tui.screens.resume import ResumeScreen
from coldwater.tui.screens.table import TableScreen
from coldwater.tui.widgets.choices import ChoiceList
from coldwater.tui.widgets.log import GameLog, LogPane

from .driver import start_game
from .frame_driver import my_turn, screen_text

SEATS = ["person", "bot:greedy", "bot:greedy"]


async def start(pilot: Any, seed: str = "41") -> TableScreen:
    await start_game(pilot, mode_key="s", game="crown", seats=SEATS, seed=seed)
    return await my_turn(pilot)


async def test_panes_and_scrolling_work_whatever_has_focus(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start(pilot)
        assert isinstance(app.focused, ChoiceList)
        footer = screen_text(pilot).splitlines()[-1]
        for words in ("e End turn", "Undo", "Board", "Log"):
            assert words in footer, footer
        # PgDn scrolls the board even though the choice list has focus.
        board = screen.query_one("#board-scroll")
        before = board.scroll_y
        await pilot.press("pagedown")
        await pilot.pause()
        assert board.scroll_y > before or board.max_scroll_y == 0  # (Crown's board may fit whole)
        assert isinstance(app.focused, ChoiceList)
        # F2: the board on the whole screen, every part of it one PgDn away.
        await pilot.press("f2")
        await pilot.pause()
        seen = screen_text(pilot)
        await pilot.press("pagedown")
        await pilot.pause()
        seen += screen_text(pilot)
        for part in ("Anglers", "Master Angler", "Mystery Weight", "Trophies", "Greedy bot 3"):
            assert part in seen, part
        await pilot.press("f2")  # the same key closes it
        await pilot.pause()
        assert screen.pane == "" and "Step 1" in screen_text(pilot)
        # F3: the whole log, full-screen, grouped under the players' names.
        await pilot.press("f3")
        await pilot.pause()
        text = screen_text(pilot)
        assert screen.query_one("#log-pane", LogPane).display
        assert "bait drawn" in text
        await pilot.press("escape")  # Esc closes a pane before it opens the menu
        await pilot.pause()
        assert app.screen is screen and screen.pane == ""


async def test_full_log_written_while_hidden_shows_at_its_width(make_app) -> None:
    # The hidden full log keeps new lines and writes them when it opens again: at
    # the pane's width, after the lines written before, and only once.
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start(pilot)
        pane = screen.query_one("#log-pane", LogPane)
        for _ in range(2):  # opened and closed once, so it has had a width before
            await pilot.press("f3")
            await pilot.pause()
        assert not pane.display
        screen.log_writer.entry("note", "first line while hidden, long enough to need sixty columns")
        screen.log_writer.entry("note", "second line while hidden")
        await pilot.press("f3")
        await pilot.pause()
        await pilot.pause()
        rows = screen_text(pilot).splitlines()
        first = next(n for n, row in enumerate(rows) if "first line while hidden, long enough" in row)
        assert "second line while hidden" in rows[first + 1]
        assert sum("second line while hidden" in row for row in rows) == 1
        assert pane.plain.endswith("second line while hidden")


async def test_undo_takes_back_a_decision_exactly(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start(pilot)
        digest = screen.table.state.digest()
        n = len(screen.table.record.entries)
        await pilot.press("1")  # place the Angler token: a decision without a draw after it
        screen = await my_turn(pilot)
        assert screen.table.state.digest() != digest
        if len(screen.table.record.entries) == n + 1:
            await pilot.press("ctrl+z")
            screen = await my_turn(pilot)
            assert screen.table.state.digest() == digest
            assert len(screen.table.record.entries) == n
            assert "Step 1" in screen_text(pilot)
            assert "(undone)" in screen.query_one("#log", GameLog).plain
        # Nothing of mine to take back now: refused, nothing changes.
        await pilot.press("ctrl+z")
        await pilot.pause()
        assert screen.table.state.digest() == digest


async def test_done_key_safe_highlight_and_filter(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start(pilot)
        choices = screen.query_one("#decision", ChoiceList)
        assert not choices.has_key("e")  # no done action in Step 1
        view = screen.current_view()
        assert not screen.words.is_done(view, choices.highlighted_value)
        # / filters by text; the keys stay with their choices.
        first = choices.values[0]
        key = choices.key_for(first)
        await pilot.press("slash", *"port")
        await pilot.pause()
        shown = screen_text(pilot)
        assert "Port" in shown and choices.option_count < len(choices.values)
        await pilot.press("escape")
        await pilot.pause()
        assert choices.key_for(first) == key and not choices.filter_text
        # Play on to Step 3 (end your turn): it has the fixed key e, and e ends the turn.
        for _ in range(40):
            screen = await my_turn(pilot)
            choices = screen.query_one("#decision", ChoiceList)
            if choices.has_key("e"):
                break
            keys = [k for k in "1234567890" if choices.has_key(k)]
            await pilot.press(keys[0])
        else:
            raise AssertionError("never reached the end of a turn")
        assert screen.words.is_done(screen.current_view(), choices.value_for_key("e"))
        assert choices.highlighted_value != choices.value_for_key("e")  # never the default
        ply = screen.table.state.ply
        await pilot.press("e")
        await pilot.pause()
        assert screen.table.state.ply > ply


async def test_log_is_rebuilt_on_resume_with_names(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start(pilot, seed="42")
        for _ in range(6):
            screen = await my_turn(pilot)
            choices = screen.query_one("#decision", ChoiceList)
            await pilot.press(next(k for k in "e1234567890" if choices.has_key(k)))
        screen = await my_turn(pilot)
        live = [e.text for e in screen.log_writer.book.entries if e.kind == "move"]
        assert live
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("l")  # leave
        await pilot.pause()
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("r")
        await pilot.pause()
        assert isinstance(app.screen, ResumeScreen)
        await pilot.press("1")
        screen = await my_turn(pilot)
        rebuilt = [e.text for e in screen.log_writer.book.entries if e.kind == "move"]
        assert rebuilt == live
        log = screen.query_one("#log", GameLog).plain
        assert "Greedy bot 2" in log and "Seat 2" not in log
        # The full log pane shows the whole game from its first move, as it did before.
        assert live[0] in screen.query_one("#log-pane", LogPane).plain
