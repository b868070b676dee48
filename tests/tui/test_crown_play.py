"""Coldwater Crown through the real app.

A whole game at each size (80×24 and 160×50): at a decision the rendered screen
text must show each public part of the table (the angler ring, the Shore/River/Lake
rows, the Master Angler row, Mystery Weight and Tag, the trophies left, your board,
every opponent, the standings line), or the board pane (F2) must show what the
table itself has no room for. The 80×24 game is played by keyboard at every
decision and checked at every one; the 160×50 game the same for its first 30
decisions, then on the table the screen drives (``Table.submit``) with every tenth
decision handed back to the screen to check and answer by key (keys cost a repaint
each, and the first game already pressed one for every decision). Other tests drive
the table through the screen's own API (``screen.choose``), which is much quicker
than pressing keys and checks the same screen code.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from coldwater.net.play.table import Seat, SeatKind, Table, list_saves
from coldwater.tui.catalog import Catalog
from coldwater.tui.games.crown.screen import CrownBoard, CrownTableScreen
from coldwater.tui.screens.handover import HandOverScreen
from coldwater.tui.screens.menu import MenuScreen
from coldwater.tui.screens.score import ScoreScreen
from coldwater.tui.screens.table import TableScreen
from coldwater.tui.widgets.choices import ChoiceList

from .driver import Pick, by_table, key, key_until, page_down, settle, start_game
from .frame_driver import screen_text

SEATS = ["person", "bot:greedy", "bot:random"]
BOTS = ["Greedy bot 2", "Random bot 3"]

PARTS: dict[str, str] = {
    "angler ring": r"⚓Port ?\[[^\]]*\]"
    + "".join(
        rf"(?=(.|\n)*({n}|{n[0] if n != 'Black' else 'K'})\[)"
        for n in ("Purple", "Green", "Blue", "Red", "Yellow", "Black")
    ),
    "Shore row": r"Shore PG",
    "River row": r"River KY",
    "Lake row": r"Lake  BR",
    "Master Angler row": r"Master Angler ",
    "Mystery Weight": r"Mystery Weight ",
    "Tag": r"Tag (●|not scored)",
    "trophies left": r"(Next:|Trophies left)",
    "your board": r"\(you\) token",
    "your fish": r"Fish \d+ ",
    "standings": r"Points you: \d+",
    **{bot: rf"{bot} (token|·)" for bot in BOTS},
}
"""Each public part of the table and a pattern that finds it in the screen's text."""

NEVER = re.compile(r"Master Angler card \d|card \d+ \(|Chance to play|legal spots|Seat \d")
"""Internal ids and jargon that must never reach the screen."""


def crown_catalog() -> Catalog:
    return Catalog(names=("crown",))


def missing(text: str) -> list[str]:
    return [name for name, pattern in PARTS.items() if not re.search(pattern, text)]


async def board_pane_text(pilot: Pilot[Any]) -> str:
    """Open the board pane with its key, read it page by page, close it with the same key."""
    screen = pilot.app.screen
    assert isinstance(screen, TableScreen)
    await key_until(pilot, "f2", lambda: screen.pane == "board")
    await settle(pilot)
    seen = screen_text(pilot)
    for _ in range(4):
        if not await page_down(pilot, screen):
            break
        seen += "\n" + screen_text(pilot)
    await key_until(pilot, "f2", lambda: screen.pane == "")
    await settle(pilot)
    return seen


async def decision(pilot: Pilot[Any], screen: TableScreen, limit: float = 60.0) -> bool:
    """Wait for the person's next decision (the list filled, no answer on its way); False at the end."""
    loop = asyncio.get_running_loop()
    end = loop.time() + limit
    while loop.time() < end:
        if pilot.app.screen is not screen:
            return False
        auto_pending = screen.answers.ply == screen.table.state.ply
        if screen.my_turn() and not screen.busy and not auto_pending:
            await settle(pilot)
            if screen.my_turn() and not screen.busy:
                return True
        await asyncio.sleep(0.002)
        await pilot._wait_for_screen()
    raise AssertionError("no decision came")


def crown_pick(screen: TableScreen) -> Pick:
    """The keyboard game's choices on the table itself: end the turn every third decision
    (or when that is all there is), else rotate through the others."""

    def pick(view: Any, legal: list[Any], made: int) -> Any:
        done = [a for a in legal if screen.words.is_done(view, a)]
        others = [a for a in legal if a not in done]
        if done and (made % 3 == 0 or not others):
            return done[0]
        return others[(made * 7 + 3) % len(others)]

    return pick


@pytest.mark.parametrize(
    ("size", "table_after"),
    [pytest.param((80, 24), None, id="80x24"), pytest.param((160, 50), 30, id="160x50")],
)
async def test_a_whole_game_by_keyboard_with_the_table_in_view(
    make_app, home: Path, size: tuple[int, int], table_after: int | None
) -> None:
    app = make_app(crown_catalog())
    async with app.run_test(size=size) as pilot:
        await start_game(pilot, mode_key="s", game="crown", seats=SEATS, seed="21")
        screen = app.screen
        assert isinstance(screen, CrownTableScreen)
        board = screen.query_one("#board", CrownBoard)
        made = 0
        checked_pane = False
        sample_every = 10
        while await decision(pilot, screen):
            if table_after is not None and made >= table_after and (made - table_after) % sample_every:
                upto = made + sample_every - (made - table_after) % sample_every
                made = await by_table(screen, crown_pick(screen), made, upto)
                assert made < 2000, "the game did not end"
                continue
            text = screen_text(pilot)
            assert not NEVER.search(text), NEVER.search(text)
            lost = missing(text)
            if lost or not checked_pane:
                checked_pane = True
                pane = await board_pane_text(pilot)
                assert not missing(pane), (missing(pane), pane)
                assert not NEVER.search(pane)
            if size[0] >= 120:
                assert not lost, (lost, text)  # a big terminal shows everything at once
            assert board.width_for_drawing() >= size[0] - 60  # the board takes the room the side column leaves
            choices = screen.query_one("#decision", ChoiceList)
            # The highlighted choice never spends tackle, discards bait or ends the turn.
            view = screen.current_view()
            value = choices.highlighted_value
            if value is not None:
                assert not screen.decision_words().is_costly(view, value) and not screen.words.is_done(view, value), (
                    value
                )
            keys = [k for k in "1234567890abcdfghijklmnopqrstuvwxyz" if choices.has_key(k)]
            if choices.has_key("e") and (made % 3 == 0 or not keys):
                pick = "e"  # the fixed done key ends the turn
            else:
                assert keys, "a decision with no choices"
                pick = keys[(made * 7 + 3) % len(keys)]
            generation = choices.generation
            await key(pilot, pick)
            for _ in range(5000):
                if choices.generation != generation or app.screen is not screen or screen.busy:
                    break
                await asyncio.sleep(0.001)
            made += 1
            assert made < 2000, "the game did not end"
        assert isinstance(app.screen, ScoreScreen)
        assert made > 40
        assert checked_pane  # the board pane's key was tried at least once
        scores = app.screen.scores
        assert scores.final and len(scores.totals) == 3
        await pilot.press("enter")
        assert isinstance(app.screen, MenuScreen)
    assert list_saves() == []
    assert len(list((home / "records").glob("*.json"))) == 1


# ---- through the screen's API ---------------------------------------------------------


async def answer(pilot: Pilot[Any], screen: TableScreen, n: int, handovers: list[str] | None = None) -> int:
    """Make `n` decisions (or play to the end) through ``screen.choose``; hand-overs with Enter."""
    made = 0
    app = pilot.app
    while made < n:
        if isinstance(app.screen, HandOverScreen):
            if handovers is not None:
                handovers.append(app.screen.player)
            await pilot.press("enter")
            continue
        if app.screen is not screen:
            return made
        if not await decision(pilot, screen):
            if isinstance(app.screen, HandOverScreen):
                continue
            return made
        choices = screen.query_one("#decision", ChoiceList)
        values = choices.values
        if not values:
            continue
        generation = choices.generation
        screen.choose(values[(made * 5 + 1) % len(values)])
        for _ in range(5000):
            if choices.generation != generation or app.screen is not screen or screen.busy:
                break
            await asyncio.sleep(0.001)
        made += 1
    for _ in range(5000):  # leave no move half-made behind when the test ends
        if not screen.busy:
            break
        await asyncio.sleep(0.002)
    await pilot.pause()
    return made


async def test_hotseat_hides_secrets_between_people(make_app, home: Path) -> None:
    app = make_app(crown_catalog())
    seats = [Seat(SeatKind.PERSON, "Ada"), Seat(SeatKind.PERSON, "Bo"), Seat(SeatKind.BOT, "Gil", bot="random")]
    async with app.run_test(size=(80, 24)) as pilot:
        screen = CrownTableScreen(Table.new("crown", seats, seed="31", save_path=home / "saves" / "h.json"))
        await app.push_screen(screen)
        await pilot.pause()
        assert isinstance(app.screen, HandOverScreen)
        assert screen.viewer is None  # nothing private drawn behind the hand-over
        assert "(you)" not in screen.query_one("#board", CrownBoard).text()
        handovers: list[str] = []
        await answer(pilot, screen, 20, handovers)
        assert handovers[:2] == ["Ada", "Bo"]


async def test_resume_rebuilds_the_board_and_log(make_app, home: Path) -> None:
    app = make_app(crown_catalog())
    async with app.run_test(size=(80, 24)) as pilot:
        await start_game(pilot, mode_key="s", game="crown", seats=["person", "bot:random"], seed="41")
        screen = app.screen
        assert isinstance(screen, TableScreen)
        await answer(pilot, screen, 20)
        ply, digest = screen.table.state.ply, screen.table.state.digest()
        await pilot.press("escape", "q")  # quit the whole app mid-game
    assert len(list_saves()) == 1

    app2 = make_app(crown_catalog())
    async with app2.run_test(size=(80, 24)) as pilot:
        await pilot.press("r")
        await pilot.press("1")
        await pilot.pause()
        resumed = app2.screen
        assert isinstance(resumed, CrownTableScreen)
        assert resumed.table.state.ply == ply and resumed.table.state.digest() == digest
        assert await decision(pilot, resumed)
        text = screen_text(pilot)
        for part in ("⚓Port", "Shore PG", "Master Angler", "Mystery Weight", "Random bot 2", "(you) token"):
            assert part in text, part
        assert any(e.kind == "move" for e in resumed.log_writer.book.entries)
        assert await answer(pilot, resumed, 5) == 5


async def test_practice_pond_says_what_the_silent_player_did(make_app, home: Path) -> None:
    app = make_app(crown_catalog())
    async with app.run_test(size=(100, 30)) as pilot:
        screen = CrownTableScreen(
            Table.new("crown", [Seat(SeatKind.PERSON, "Ada")], seed="pond", save_path=home / "saves" / "p.json")
        )
        await app.push_screen(screen)
        await answer(pilot, screen, 40)
        texts = [e.text for e in screen.log_writer.book.entries]
        assert any(t.startswith("Silent player draws") for t in texts), texts
        assert not any("Player 1: the silent player" in t for t in texts)
        assert "Silent player" in screen.query_one("#board", CrownBoard).text()
