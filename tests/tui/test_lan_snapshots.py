"""Snapshots of the LAN screens at 80×24: host form, join list, lobby with a peer seated.

Deterministic: fixed identities (so fixed fingerprints), a fixed loopback port,
listings fed to the join screen as the browser would (no multicast needed).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from coldwater import net
from coldwater.net.identity import Identity
from coldwater.tui.app import ColdwaterApp
from coldwater.tui.catalog import Catalog
from coldwater.tui.screens.lobby import LobbyScreen
from coldwater.tui.settings import Settings

from .driver import focus, set_cycler
from .test_lan_join import listing
from .test_lan_play import until

HOST_ID = Identity.from_bytes(bytes(range(32)))
PEER_ID = Identity.from_bytes(bytes(range(1, 33)))
PORT = 47391


def app(home: Path) -> ColdwaterApp:
    a = ColdwaterApp(strict=True, catalog=Catalog(names=("crown",)), settings=Settings(bot_delay=0.0))
    a.lan_options = {
        "bind": "127.0.0.1",
        "port": PORT,
        "advertise": False,  # type: ignore[attr-defined]
        "browse": False,
        "identity": HOST_ID,
        "save_dir": home / "lan",
    }
    return a


def test_host_form(snap_compare: Any, home: Path) -> None:
    async def run_before(pilot: Pilot[Any]) -> None:
        await pilot.press("o")
        await pilot.pause()
        await set_cycler(pilot, "#players", 3)
        await set_cycler(pilot, "#seat-2", "bot")

    assert snap_compare(app(home), terminal_size=(80, 24), run_before=run_before)


def test_join_list(snap_compare: Any, home: Path) -> None:
    async def run_before(pilot: Pilot[Any]) -> None:
        await pilot.press("j")
        await pilot.pause()
        pilot.app.screen.show_listings([listing("Pike Pond", 47001, 2), listing("Carp Lake", 47002, 0)])
        await pilot.pause()

    assert snap_compare(app(home), terminal_size=(80, 24), run_before=run_before)


def test_lobby(snap_compare: Any, home: Path) -> None:
    peers: list[Any] = []

    async def run_before(pilot: Pilot[Any]) -> None:
        await pilot.press("o")
        await pilot.pause()
        await set_cycler(pilot, "#players", 3)
        await set_cycler(pilot, "#seat-2", "bot")
        await focus(pilot, "#start")
        await pilot.press("enter")
        await until(lambda: isinstance(pilot.app.screen, LobbyScreen), 10, "the lobby")
        lobby = pilot.app.screen
        peer = await net.join_table(
            f"127.0.0.1:{PORT}", name="Bob", identity=PEER_ID, bind="127.0.0.1", save_dir=home / "peer"
        )
        peers.append(peer)
        await until(lambda: "Bob" in str(lobby.query_one("#lobby-seats").render()), 10, "Bob")
        lobby.party.send_chat("welcome, Bob")
        # The line comes back through the table's event stream: wait for it, not one pause.
        await until(lambda: "welcome, Bob" in str(lobby.query_one("#lobby-chat").render()), 10, "the chat line")
        lobby.query_one("#chat-input").focus()
        await pilot.pause()

    # The peer's sockets go with the snapshot's event loop.
    assert snap_compare(app(home), terminal_size=(80, 24), run_before=run_before)
