"""Snapshots of every screen at 80×24 and 160×50 (SVGs in ``__snapshots__``).

Deterministic by construction: fixed seeds, fixed seat names, a save file with a
fixed date, and no clock or path anywhere in the UI text. Update after an
intended change with ``pytest tests/tui/test_snapshots.py --snapshot-update``.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest
from textual.pilot import Pilot

from coldwater.core import games, record
from coldwater.net.play import records
from coldwater.net.play.table import SaveFile, Seat, SeatKind, Table
from coldwater.tui.app import ColdwaterApp
from coldwater.tui.catalog import Catalog
from coldwater.tui.screens.handover import HandOverScreen
from coldwater.tui.screens.score import ScoreScreen
from coldwater.tui.screens.table import TableScreen
from coldwater.tui.settings import Settings

SIZES = [(80, 24), (160, 50)]
FIXED_TIME = 1_790_000_000.0
"""Dates on screen (saves, records) are this moment, shown in UTC (see `utc`)."""


@pytest.fixture(autouse=True)
def utc(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Lists show local time; the snapshots are taken in UTC wherever they run."""
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


SEATS = [Seat(SeatKind.PERSON, "Ada"), Seat(SeatKind.BOT, "Greedy Gil", bot="greedy")]


def app() -> ColdwaterApp:
    return ColdwaterApp(strict=True, catalog=Catalog(names=("crown",)), settings=Settings(bot_delay=0.0))


async def settle(pilot: Pilot[Any]) -> None:
    """Wait (generously: CI machines can be busy) until bots and chance are done."""
    for _ in range(6000):
        screen = pilot.app.screen
        if not isinstance(screen, TableScreen) or not screen.busy:
            break
        await asyncio.sleep(0.005)
    await pilot.pause()


def crown_table(home: Path, seats: list[Seat] = SEATS, seed: str = "snap") -> Table:
    return Table.new("crown", seats, seed=seed, save_path=home / "saves" / "snap.json")


def finished_crown(seed: str = "7") -> Any:
    """A finished 2-player Crown state, played by random bots from the core alone.

    The random bot, not the greedy one: tuning the greedy bot must not move these
    snapshots (the engine pins its golden games on the random bot for the same reason).
    """
    game = games.get("crown")
    state = game.new(2, seed=seed)
    bots = [game.bot("random"), game.bot("random")]
    from coldwater.core.rng import Rng

    rng = Rng("snapshots")
    while not state.is_over:
        cur = state.current
        action = state.sample_chance() if cur < 0 else bots[cur].choose(state.view(cur), rng.fork(state.ply))
        state.apply(action)
    return game, state


Setup = Callable[[Pilot[Any], Path], Awaitable[None]]


async def _menu(pilot: Pilot[Any], home: Path) -> None:
    await pilot.pause()


async def _newgame(pilot: Pilot[Any], home: Path) -> None:
    await pilot.press("s")


async def _newgame_pond(pilot: Pilot[Any], home: Path) -> None:
    await pilot.press("s", "down", "left")


async def _table(pilot: Pilot[Any], home: Path) -> None:
    cls = pilot.app.catalog.table_screen("crown")
    await pilot.app.push_screen(cls(crown_table(home)))
    await settle(pilot)


async def _table_port(pilot: Pilot[Any], home: Path) -> None:
    await _table(pilot, home)
    await pilot.press("3")  # place on the Port: the Port choices
    await settle(pilot)


async def _handover(pilot: Pilot[Any], home: Path) -> None:
    seats = [Seat(SeatKind.PERSON, "Ada"), Seat(SeatKind.PERSON, "Bo")]
    cls = pilot.app.catalog.table_screen("crown")
    await pilot.app.push_screen(cls(crown_table(home, seats)))
    await settle(pilot)
    assert isinstance(pilot.app.screen, HandOverScreen)


async def _score(pilot: Pilot[Any], home: Path) -> None:
    game, state = finished_crown()
    await pilot.app.push_screen(ScoreScreen(game.title, state.scores(), ["Ada", "Bo"]))
    await pilot.pause()


async def _pause(pilot: Pilot[Any], home: Path) -> None:
    await _table(pilot, home)
    await pilot.press("escape")


def _write_saves(home: Path) -> None:
    table = crown_table(home)
    table.save()
    path = Path(str(table.save_path))
    save = msgspec.json.decode(path.read_bytes(), type=SaveFile)
    save.created = save.updated = FIXED_TIME  # a fixed date for the listing
    path.write_bytes(msgspec.json.encode(save))
    (home / "saves" / "broken.json").write_text("{ this is not json")
    (home / "saves" / "future.json").write_text('{"format": 99}')


async def _resume(pilot: Pilot[Any], home: Path) -> None:
    _write_saves(home)
    await pilot.press("r")


async def _replays(pilot: Pilot[Any], home: Path) -> None:
    game, state = finished_crown()
    rec = _record_of(game, state)
    rec.meta["winner"] = "Ada" if state.scores().ranking[0] == 0 else "Bo"
    records.save(rec, home / "records" / "finished.json")
    os.utime(home / "records" / "finished.json", (FIXED_TIME, FIXED_TIME))  # the list shows the date
    await pilot.press("p")


def _record_of(game: Any, final: Any) -> record.GameRecord:
    # Rebuild the record by replaying the same bots (the core has no record of a bare state).
    from coldwater.core.rng import Rng

    state = game.new(2, seed="7")
    rec = record.start(game, state, None, meta={"seats": "Ada, Bo"})
    bots = [game.bot("random"), game.bot("random")]
    rng = Rng("snapshots")
    while not state.is_over:
        cur = state.current
        action = state.sample_chance() if cur < 0 else bots[cur].choose(state.view(cur), rng.fork(state.ply))
        state.apply(action)
        record.append(rec, cur, action, state)
    assert state.digest() == final.digest()
    return rec


async def _replay(pilot: Pilot[Any], home: Path) -> None:
    await _replays(pilot, home)
    await pilot.press("1")
    await pilot.pause()
    await pilot.press("end", "left", "left")


async def _score_full(pilot: Pilot[Any], home: Path) -> None:
    """The end of a game with its record at hand: chart, milestones, rematch."""
    game, state = finished_crown()
    rec = _record_of(game, state)
    table = Table(game, state, [Seat(SeatKind.PERSON, "Ada"), Seat(SeatKind.PERSON, "Bo")], rec)
    await pilot.app.push_screen(ScoreScreen(game.title, state.scores(), ["Ada", "Bo"], table=table))
    # The milestones are filled in after the first refresh, which makes the page taller;
    # page down only once they are there, and shoot where the smooth scroll stops.
    milestones = pilot.app.screen.query_one("#milestones")
    for _ in range(100):
        if str(milestones.render()).strip():
            break
        await pilot.pause(0.05)
    await pilot.pause()
    await pilot.press("pagedown")
    await pilot.wait_for_scheduled_animations()
    await pilot.pause()


async def _replay_goto(pilot: Pilot[Any], home: Path) -> None:
    await _replay(pilot, home)
    await pilot.press("g", "4", "2")


async def _resume_delete(pilot: Pilot[Any], home: Path) -> None:
    await _resume(pilot, home)
    await pilot.pause()
    await pilot.press("d")


async def _settings_key(pilot: Pilot[Any], home: Path) -> None:
    await pilot.press("t")
    await pilot.pause()
    await pilot.press("down", "down", "down", "enter")


async def _rules(pilot: Pilot[Any], home: Path) -> None:
    await pilot.press("u")


async def _settings(pilot: Pilot[Any], home: Path) -> None:
    await pilot.press("t")


async def _help(pilot: Pilot[Any], home: Path) -> None:
    await _table(pilot, home)
    await pilot.press("question_mark")


async def _lan(pilot: Pilot[Any], home: Path) -> None:
    await pilot.press("o")


SCREENS: dict[str, Setup] = {
    "menu": _menu,
    "newgame": _newgame,
    "newgame_pond": _newgame_pond,
    "table": _table,
    "table_port": _table_port,
    "handover": _handover,
    "score": _score,
    "pause": _pause,
    "resume": _resume,
    "replays": _replays,
    "replay": _replay,
    "rules": _rules,
    "settings": _settings,
    "help": _help,
    "lan": _lan,
    "score_full": _score_full,
    "replay_goto": _replay_goto,
    "resume_delete": _resume_delete,
    "settings_key": _settings_key,
}


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("name", list(SCREENS))
def test_screen(snap_compare: Any, home: Path, name: str, size: tuple[int, int]) -> None:
    (home / "saves").mkdir(parents=True, exist_ok=True)
    (home / "records").mkdir(parents=True, exist_ok=True)

    async def run_before(pilot: Pilot[Any]) -> None:
        await SCREENS[name](pilot, home)
        await pilot.pause()

    assert snap_compare(app(), terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("theme", ["light", "ansi"])
def test_table_in_other_themes(snap_compare: Any, home: Path, theme: str) -> None:
    (home / "saves").mkdir(parents=True, exist_ok=True)
    themed = ColdwaterApp(strict=True, theme=theme, catalog=Catalog(names=("crown",)), settings=Settings(bot_delay=0.0))

    async def run_before(pilot: Pilot[Any]) -> None:
        await _table(pilot, home)

    assert snap_compare(themed, terminal_size=(80, 24), run_before=run_before)


@pytest.mark.parametrize("size", [(60, 20), (79, 24)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_too_small_notice(snap_compare: Any, size: tuple[int, int]) -> None:
    assert snap_compare(app(), terminal_size=size)
