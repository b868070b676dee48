"""LAN play through the app, on loopback: host a Crown table from the form, a headless
peer (the net API, its seat played by the net layer's bot) joins, the lobby shows it
with its fingerprint, the host starts, and the host person plays to the end: by keyboard
for the first 20 decisions and every tenth after, the rest on the LAN table the screen drives.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from coldwater import net
from coldwater.net.identity import Identity
from coldwater.tui.app import ColdwaterApp
from coldwater.tui.catalog import Catalog
from coldwater.tui.screens.lan_host import LanHostScreen
from coldwater.tui.screens.lobby import LobbyScreen
from coldwater.tui.screens.score import ScoreScreen
from coldwater.tui.screens.table import TableScreen
from coldwater.tui.settings import Settings

from .driver import focus, play_sampled, set_cycler


def lan_app(home: Path, **lan: Any) -> ColdwaterApp:
    a = ColdwaterApp(strict=True, catalog=Catalog(names=("crown",)), settings=Settings(bot_delay=0.0))
    a.lan_options = {
        "bind": "127.0.0.1",
        "advertise": False,
        "browse": False,  # type: ignore[attr-defined]
        "identity": Identity.generate(),
        "save_dir": home / "lan-host",
        **lan,
    }
    return a


async def until(cond: Any, seconds: float = 20.0, what: str = "condition") -> None:
    for _ in range(int(seconds / 0.01)):
        if cond():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"timed out waiting for {what}")


async def open_crown_table(pilot: Any) -> LobbyScreen:
    await pilot.press("o")
    await pilot.pause()
    assert isinstance(pilot.app.screen, LanHostScreen)
    await set_cycler(pilot, "#players", 3)
    await set_cycler(pilot, "#seat-1", "open")
    await set_cycler(pilot, "#seat-2", "bot")
    await focus(pilot, "#start")
    await pilot.press("enter")
    await until(lambda: isinstance(pilot.app.screen, LobbyScreen), 10, "the lobby")
    return pilot.app.screen  # type: ignore[no-any-return]


async def test_host_from_app_peer_joins_play_to_the_end(home: Path) -> None:
    app = lan_app(home)
    peer_task: asyncio.Task[Any] | None = None
    peer: Any = None
    try:
        async with app.run_test(size=(100, 36)) as pilot:
            lobby = await open_crown_table(pilot)
            host = lobby.party
            assert [s.kind for s in host.lobby()] == ["host", "open", "bot"]
            game = host.game
            peer = await net.join_table(
                f"127.0.0.1:{host.port}",
                name="Bob",
                identity=Identity.generate(),
                chooser=net.bot_chooser(game),
                bind="127.0.0.1",
                save_dir=home / "lan-peer",
            )
            peer_task = asyncio.ensure_future(peer.run())
            seats = lobby.query_one("#lobby-seats")
            await until(
                lambda: (
                    "Bob" in str(seats.render())
                    and peer.identity.fingerprint in str(seats.render())
                    and "not ready" not in str(seats.render())
                ),
                10,
                "the peer in the lobby",
            )
            peer.send_chat("hello table")
            await until(lambda: "hello table" in str(lobby.query_one("#lobby-chat").render()), 10, "chat")
            await until(lambda: not lobby.query_one("#start").disabled, 10, "Start enabled")
            await pilot.press("ctrl+s")
            await until(lambda: isinstance(pilot.app.screen, TableScreen), 20, "the table screen")
            # The first 20 decisions by key, then every tenth (the rest on the LAN table the
            # screen drives): every key is a repaint, and the local games press one for each.
            made = await asyncio.wait_for(play_sampled(pilot), 180)  # a hang guard, not a speed test
            assert made > 25
            assert isinstance(pilot.app.screen, ScoreScreen)
            result = await asyncio.wait_for(peer_task, 20)
            assert result.audit_ok, result.problems
            await until(lambda: host.result is not None, 10, "the host's result")
            assert host.result.digest == result.digest
            # The fair dealer (Crown's default): the host's seat gets the whole game once every key is out.
            assert host.info.dealer == "fair" and host.table is None
            score = pilot.app.screen
            await until(lambda: score.record is not None, 20, "the whole game's record")
            assert len(list((home / "records").glob("crown-lan-*.json"))) == 1, "kept under Replays"
            await pilot.press("enter")  # score screen → lobby closes → menu
            await until(lambda: type(pilot.app.screen).__name__ == "MenuScreen", 10, "the menu")
    finally:
        if peer_task is not None and not peer_task.done():
            peer_task.cancel()
        if peer is not None:
            await peer.close()


async def test_app_opens_straight_into_the_lobby(home: Path, monkeypatch: Any) -> None:
    """`coldwater host crown --name ...` without --headless: the app starts in the lobby."""
    from coldwater.tui import cli

    opened: list[Any] = []

    def fake_run(self: ColdwaterApp) -> None:
        opened.append(self)

    monkeypatch.setattr(ColdwaterApp, "run", fake_run)
    assert (
        cli.main(["host", "crown", "--name", "Pike Pond", "--seats", "bot", "--bind", "127.0.0.1", "--no-advertise"])
        == 0
    )
    app = opened[0]
    assert app.lan_start is not None
    async with app.run_test(size=(80, 24)) as pilot:
        await until(lambda: isinstance(pilot.app.screen, LobbyScreen), 10, "the lobby")
        assert "Pike Pond" in str(pilot.app.screen.query_one(".page-title").render())
        assert not pilot.app.screen.query_one("#start").disabled  # host + bot: ready to start
        lobby = pilot.app.screen
        lobby._on_event(net.PresenceChanged(1, True))
        lobby._on_event(net.Problem("digest mismatch after ply 7; asking for a resync"))
        await pilot.pause()
        texts = [str(n.message) for n in pilot.app._notifications]
        assert any("away" in t for t in texts) and any("digest mismatch" in t for t in texts)
        await pilot.press("escape")
        await until(lambda: type(pilot.app.screen).__name__ == "MenuScreen", 10, "the menu")


async def test_lobby_failure_to_open_is_a_notice(home: Path) -> None:
    async def start() -> tuple[Any, bool]:
        raise net.Refusal("no table named 'Nowhere' found on the LAN (try HOST:PORT)")

    app = ColdwaterApp(
        strict=True, catalog=Catalog(names=("crown",)), settings=Settings(bot_delay=0.0), lan_start=start
    )
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.pause()
        assert type(pilot.app.screen).__name__ == "MenuScreen"
        assert any("Nowhere" in str(n.message) for n in pilot.app._notifications)
