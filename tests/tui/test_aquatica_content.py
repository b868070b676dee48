"""Your own Aquatica card data in the app: chosen in the new-game form, used at
the table, named in the table menu, remembered by the save and checked again on
resume and in replays (a file gone or changed is refused; the save is kept).
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

from coldwater.core.aquatica.game import GAME
from coldwater.net.play import records
from coldwater.net.play.files import read_content
from coldwater.net.play.table import ContentRef, Seat, SeatKind, Table
from coldwater.tui.games.aquatica import cards
from coldwater.tui.games.aquatica.board import AquaticaBoard
from coldwater.tui.screens.newgame import NewGameScreen
from coldwater.tui.screens.pause import PauseScreen
from coldwater.tui.screens.replays import ReplayScreen, ReplaysScreen
from coldwater.tui.screens.resume import ResumeScreen
from coldwater.tui.widgets.log import GameLog

from .driver import set_cycler, start_game
from .test_aquatica_screen import ready


def packaged(part: str) -> Any:
    return json.loads(resources.files("coldwater.core.aquatica").joinpath("data", f"{part}.json").read_text())


def own_content(folder: Path, *, coins: int = 5) -> Path:
    """A copy of the packaged data with King 1 renamed and paying `coins` coins."""
    folder.mkdir(parents=True, exist_ok=True)
    for part in ("characters", "kings", "locations", "mantas", "tribes", "goals"):
        raw = packaged(part)
        if part == "kings":
            raw["kings"][0]["name"] = "King Testwater"
            raw["kings"][0]["effects"][0] = {"op": "coins", "n": coins}
        (folder / f"{part}.json").write_text(json.dumps(raw, indent=1))
    return folder


def saves(home: Path) -> list[Path]:
    return sorted((home / "saves").glob("*.json")) if (home / "saves").is_dir() else []


async def test_own_card_data_is_used_named_saved_and_checked_on_resume(make_app, home: Path, tmp_path: Path) -> None:
    folder = own_content(tmp_path / "my-aquatica")
    mine = GAME.with_content(read_content(folder))
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await start_game(
            pilot, mode_key="s", game="aquatica", seats=["person", "bot:random"], seed="5", content=str(folder)
        )
        screen = await ready(pilot)
        # The game plays the chosen data: King 1 (seat 1's, basic Kings) as written in the file.
        assert screen.table.game.content_hash == mine.content_hash
        king = screen.deck.king_id(1)
        assert screen.deck.char_name[king] == "King Testwater"
        await pilot.press("f2")  # the whole sheet: the hand with every card's effects
        assert cards.char_line(screen.deck, king) in screen.query_one("#board", AquaticaBoard).plain
        await pilot.press("f2")
        assert "+5" in cards.char_line(screen.deck, king)
        log = screen.query_one("#log", GameLog).plain.splitlines()
        # once: the frame's on_mount runs once for the Aquatica screen (it used to run twice)
        assert log.count(f"Card data: your own, {folder} ({mine.content_hash[:8]})") == 1
        await pilot.press("escape")
        assert isinstance(app.screen, PauseScreen)
        note = str(app.screen.query_one("#pause-note").render())
        assert "your own" in note and mine.content_hash[:8] in note
        await pilot.press("l")
        await pilot.pause()

        [save] = saves(home)
        stored = json.loads(save.read_text())["content"]
        assert stored == {"path": str(folder), "hash": mine.content_hash}

        # Resume: the card data is loaded again and checked.
        await pilot.press("r")
        assert isinstance(app.screen, ResumeScreen)
        listed = app.screen.query_one("#saves").get_option("c0").prompt  # type: ignore[attr-defined]
        assert "own card data" in str(listed)
        await pilot.press("1")
        screen = await ready(pilot)
        assert screen.table.game.content_hash == mine.content_hash
        assert screen.deck.char_name[screen.deck.king_id(1)] == "King Testwater"
        await pilot.press("escape", "l")
        await pilot.pause()

        # The file changes: resuming is refused with the reason, and the save stays as it was.
        own_content(folder, coins=6)
        before = save.read_bytes()
        await pilot.press("r", "1")
        await pilot.pause()
        assert isinstance(app.screen, ResumeScreen)
        message = str(app.screen.query_one("#resume-message").render())
        assert "cannot be resumed" in message and "has changed" in message and "save is kept" in message
        assert save.read_bytes() == before and saves(home) == [save]
        assert not list(save.parent.glob("*.unreadable*"))


async def test_bad_card_data_is_reported_in_the_form_and_starts_nothing(make_app, home: Path, tmp_path: Path) -> None:
    folder = tmp_path / "broken"
    folder.mkdir()
    raw = packaged("kings")
    raw["kings"][2]["effects"].append({"op": "teleport"})
    (folder / "kings.json").write_text(json.dumps(raw))
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await start_game(
            pilot, mode_key="s", game="aquatica", seats=["person", "bot:random"], seed="5", content=str(folder)
        )
        assert isinstance(app.screen, NewGameScreen)
        error = str(app.screen.query_one("#form-error").render())
        assert error.startswith("Card data:") and "kings.json" in error and "teleport" in error
        assert saves(home) == []
        # A path that is not there says so.
        field = app.screen.query_one("#content-path")
        field.value = str(tmp_path / "nowhere")  # type: ignore[attr-defined]
        app.screen.submit()  # type: ignore[attr-defined]
        await pilot.pause()
        assert "no such file or folder" in str(app.screen.query_one("#form-error").render())
        assert saves(home) == []


async def test_the_field_is_offered_for_every_game(make_app) -> None:
    # Every engine loads a person's own card data (game.with_content), so every game offers it.
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s")
        await pilot.pause()
        for name in ("crown", "fisheries", "aquatica"):
            await set_cycler(pilot, "#game", name)
            assert app.screen.query_one("#content-row").display, name


async def test_replays_load_the_card_data_a_record_was_made_with(make_app, home: Path, tmp_path: Path) -> None:
    folder = own_content(tmp_path / "my-aquatica")
    mine = GAME.with_content(read_content(folder))
    t = Table.new(
        mine,
        [Seat(SeatKind.PERSON, "Ada"), Seat(SeatKind.BOT, "Bot", bot="random")],
        seed=3,
        autosave=False,
        content=ContentRef(str(folder), mine.content_hash),
    )
    while t.current == -1:
        t.apply(-1, t.state.sample_chance())
    records.save(t.record, home / "records" / "mine.json")
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("p")
        assert isinstance(app.screen, ReplaysScreen)
        await pilot.press("1")
        await pilot.pause()
        assert isinstance(app.screen, ReplayScreen)
        assert app.screen.game.content_hash == mine.content_hash and not app.screen.error
        await pilot.press("escape")
        await pilot.pause()
        (folder / "kings.json").unlink()
        await pilot.press("1")
        await pilot.pause()
        assert isinstance(app.screen, ReplaysScreen)
        message = str(app.screen.query_one("#replays-message").render())
        assert "Cannot replay mine.json" in message and "has changed" in message
