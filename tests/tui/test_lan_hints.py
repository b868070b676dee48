"""Hints at a LAN table (issue 31 item 2): only where the host turned them on for everyone.

Off (the default): ``h`` says plainly that the host has hints off, and nothing changes.
On: the lobby says so at every seat, ``h`` gives the hint, and the game's record keeps it.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from coldwater import net
from coldwater.net.identity import Identity
from coldwater.tui.screens.lobby import HINTS_ON, LobbyScreen
from coldwater.tui.screens.score import ScoreScreen
from coldwater.tui.screens.table import TableScreen

from .driver import focus, play_sampled, set_cycler
from .test_crown_play import decision
from .test_lan_play import lan_app, until


async def host_with_peer(pilot: Any, home: Path, hints: bool) -> tuple[LobbyScreen, Any, asyncio.Task[Any]]:
    """A 2-seat Crown table hosted from the form (Hints as given), a headless bot peer joined and ready."""
    from coldwater.tui.screens.lan_host import LanHostScreen

    await pilot.press("o")
    await pilot.pause()
    assert isinstance(pilot.app.screen, LanHostScreen)
    await set_cycler(pilot, "#players", 2)
    await set_cycler(pilot, "#seat-1", "open")
    await set_cycler(pilot, "#hints", hints)
    await focus(pilot, "#start")
    await pilot.press("enter")
    await until(lambda: isinstance(pilot.app.screen, LobbyScreen), 10, "the lobby")
    lobby = pilot.app.screen
    assert isinstance(lobby, LobbyScreen)
    host = lobby.party
    peer = await net.join_table(
        f"127.0.0.1:{host.port}",
        name="Bob",
        identity=Identity.generate(),
        chooser=net.bot_chooser(host.game),
        bind="127.0.0.1",
        save_dir=home / "lan-peer",
    )
    task = asyncio.ensure_future(peer.run())
    await until(lambda: not lobby.query_one("#start").disabled, 15, "Start enabled")
    return lobby, peer, task


async def test_h_at_a_lan_table_with_hints_off_says_so_and_changes_nothing(home: Path) -> None:
    app = lan_app(home)
    peer: Any = None
    task: asyncio.Task[Any] | None = None
    try:
        async with app.run_test(size=(100, 36)) as pilot:
            lobby, peer, task = await host_with_peer(pilot, home, hints=False)
            assert not lobby.query("#lobby-hints") and not lobby.party.info.hints
            await pilot.press("ctrl+s")
            await until(lambda: isinstance(pilot.app.screen, TableScreen), 20, "the table screen")
            screen = pilot.app.screen
            assert isinstance(screen, TableScreen)
            assert await decision(pilot, screen)
            ply = screen.table.state.ply
            items = screen.query_one("#decision").values  # type: ignore[attr-defined]
            await pilot.press("h")
            await pilot.pause()
            said = [str(n.message) for n in app._notifications]
            assert any("host has hints off" in s for s in said), said
            assert not screen.hints.active and not screen.query_one("#hint-panel").display
            assert screen.table.state.ply == ply and screen.query_one("#decision").values == items  # type: ignore[attr-defined]
            assert app.thinker is None or not app.thinker.hints_asked  # nothing was asked of the worker
    finally:
        if task is not None and not task.done():
            task.cancel()
        if peer is not None:
            await peer.close()


async def test_hints_on_the_lobby_says_so_h_answers_and_the_record_keeps_it(home: Path) -> None:
    app = lan_app(home)
    peer: Any = None
    task: asyncio.Task[Any] | None = None
    try:
        async with app.run_test(size=(100, 36)) as pilot:
            lobby, peer, task = await host_with_peer(pilot, home, hints=True)
            assert HINTS_ON in str(lobby.query_one("#lobby-hints").render())
            assert peer.info is not None and peer.info.hints  # every seat is told, in the table's info
            await pilot.press("ctrl+s")
            await until(lambda: isinstance(pilot.app.screen, TableScreen), 20, "the table screen")
            screen = pilot.app.screen
            assert isinstance(screen, TableScreen)
            assert await decision(pilot, screen)
            await pilot.press("h")
            await until(lambda: screen.hints.shown is not None, 60, "the hint")
            h = screen.hints.shown
            assert h is not None and h.seat == screen.viewer and 1 <= len(h.choices) <= 3
            await pilot.press("escape")
            made = await asyncio.wait_for(play_sampled(pilot), 240)  # a hang guard, not a speed test
            assert made > 10 and isinstance(pilot.app.screen, ScoreScreen)
            score = pilot.app.screen
            await until(lambda: score.record is not None, 30, "the whole game's record")
            (kept,) = list((home / "records").glob("crown-lan-*.json"))
            assert json.loads(kept.read_text())["meta"]["hints"] == "on"
    finally:
        if task is not None and not task.done():
            task.cancel()
        if peer is not None:
            await peer.close()


async def test_the_net_layer_and_the_command_line_announce_hints(tmp_path: Path) -> None:
    import msgspec

    from coldwater.net import messages as m
    from coldwater.net.cli import host_parser

    assert host_parser().parse_args(["--name", "t", "--hints"]).hints is True
    assert host_parser().parse_args(["--name", "t"]).hints is False
    host = await net.open_table(
        "crown", name="t", seats=["host", "open"], bind="127.0.0.1", advertise=False, save_dir=tmp_path, hints=True
    )
    try:
        assert host.info.hints
        wire = msgspec.msgpack.decode(msgspec.msgpack.encode(host.info), type=m.TableInfo)
        assert wire.hints  # what a joining seat is told
    finally:
        await host.close()
    off = m.TableInfo(game="crown", name="t", players=2, content="x")
    assert b"hints" not in msgspec.msgpack.encode(off)  # off is the default, left off the wire as before
