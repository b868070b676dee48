"""Watching a LAN table from the app (issue 17): Watch from the Join screen, the lobby lists
the watchers, the ordinary table screen read-only with the board and the log updating live."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from coldwater import net
from coldwater.core import games
from coldwater.net.identity import Identity
from coldwater.tui.screens.lan_join import LanJoinScreen, listing_label, only_to_watch
from coldwater.tui.screens.lobby import LobbyScreen
from coldwater.tui.screens.table import TableScreen

from .driver import set_cycler
from .test_lan_join import listing
from .test_lan_play import lan_app, until

CROWN = games.get("crown")


async def _table(home: Path, think: float = 0.1, **kw: Any) -> Any:
    return await net.open_table(
        CROWN,
        name="Pike Pond",
        seats=["host", "bot"],
        bind="127.0.0.1",
        advertise=False,
        identity=Identity.generate(),
        chooser=net.bot_chooser(CROWN, think=think),
        host_name="Ann",
        save_dir=home / "h",
        auto_start=False,
        **kw,
    )


def _text(screen: Any, selector: str) -> str:
    return str(screen.query_one(selector).render())


async def test_watch_a_game_from_the_join_screen_at_80x24(home: Path) -> None:
    host = await _table(home)
    task = asyncio.ensure_future(host.run())
    try:
        async with lan_app(home).run_test(size=(80, 24)) as pilot:
            await pilot.press("j")
            await pilot.pause()
            screen = pilot.app.screen
            assert isinstance(screen, LanJoinScreen)
            await set_cycler(pilot, "#as", True)
            screen.query_one("#address").focus()
            await pilot.press(*f"127.0.0.1:{host.port}", "enter")
            await until(lambda: isinstance(pilot.app.screen, LobbyScreen), 10, "the lobby")
            lobby = pilot.app.screen
            assert lobby.watching and "Watching" in _text(lobby, ".page-title")
            await until(lambda: "Watching (1): Guest" in _text(lobby, "#lobby-watchers"), 10, "the watchers line")
            assert not lobby.query("#ready") and not lobby.query("#chat-input")
            assert host.watch.count == 1
            host.start_game()
            await until(lambda: isinstance(pilot.app.screen, TableScreen), 15, "the table")
            table = pilot.app.screen
            assert table.viewer is None and not table.my_turn()
            drawn: list[int] = []
            draw = table.update_board
            table.update_board = lambda view: (drawn.append(view.ply), draw(view))[1]  # type: ignore[method-assign]
            await until(lambda: len(table.log_writer.book.entries) >= 3, 30, "the log to fill")
            first_log = len(table.log_writer.book.entries)
            await until(lambda: len(table.log_writer.book.entries) > first_log + 3, 30, "more of the log")
            await until(lambda: len(set(drawn)) >= 3, 30, "the board redrawn as the game goes")
            assert drawn == sorted(drawn) and drawn[-1] > 0
            assert any(e.who == "Ann" for e in table.log_writer.book.entries)  # the seats by name
            assert not table.query_one("#decision").option_count  # nothing to choose: read-only
            # "…" while a chance outcome is on its way; then whose turn it is.
            await until(lambda: "is thinking" in _text(table, "#decision-title"), 10, "a player thinking")
            assert table.check_action("done", ()) is False  # no End-turn key (nor any choice key) to show
            await pilot.press("e")
            assert not host.refusals  # nothing was sent for it
            # Leave at any time: the table menu's Leave, and the table hears the watcher go.
            await pilot.press("escape")
            await pilot.pause()
            menu = pilot.app.screen
            assert type(menu).__name__ == "PauseScreen", type(menu).__name__
            await pilot.press("l")
            await until(lambda: host.watch.count == 0, 10, "the watcher to leave")
            assert not host.result  # the game goes on without the watcher
    finally:
        task.cancel()
        await host.close()


def test_listings_offer_watch_on_a_running_table_and_count_watchers() -> None:
    titles = {"crown": "Coldwater Crown"}
    running = listing("Pike Pond", 4000, 0)
    running = type(running)(**{**{f: getattr(running, f) for f in running.__struct_fields__}, "running": True})
    assert listing_label(running, titles) == "Pike Pond · Coldwater Crown · 127.0.0.1:4000 · playing"
    import msgspec

    watchable = msgspec.structs.replace(running, watchable=True, watchers=2)
    assert only_to_watch(watchable) and not only_to_watch(running)
    assert listing_label(watchable, titles).endswith("· playing · Watch · watching: 2")
    lobby = msgspec.structs.replace(listing("Carp Lake", 4001, 2), watchable=True, watchers=1)
    assert not only_to_watch(lobby) and listing_label(lobby, titles).endswith("· 2 open seats · watching: 1")
    # The clock shows where it surprises: strict (a bot plays at once) or none at all.
    assert listing_label(msgspec.structs.replace(lobby, turn=60, strict=True), titles).endswith("· strict clock")
    assert listing_label(msgspec.structs.replace(lobby, turn=0), titles).endswith("· no clock")
    assert listing_label(msgspec.structs.replace(lobby, turn=180), titles) == listing_label(lobby, titles)
    # Hints for every seat (the coach's, h) are the host's choice: said before anyone sits down.
    assert listing_label(msgspec.structs.replace(lobby, hints=True), titles).endswith("· hints on")
    assert "hints" not in listing_label(lobby, titles)


async def test_a_running_table_in_the_list_is_watched_when_chosen(home: Path) -> None:
    import msgspec

    host = await _table(home, think=0.3)  # slow enough that the game is still on when the app gets there
    host.seeding.auto_start = True
    task = asyncio.ensure_future(host.run())
    try:
        # The table's public position (at a fair table, Crown's default, the host holds no full state).
        await until(lambda: (s := host.watch.public_source()) is not None and s.ply > 8, 30, "the game to be on")
        async with lan_app(home).run_test(size=(80, 24)) as pilot:
            await pilot.press("j")
            await pilot.pause()
            screen = pilot.app.screen
            assert isinstance(screen, LanJoinScreen)
            running = msgspec.structs.replace(listing("Pike Pond", host.port, 0), running=True, watchable=True)
            screen.show_listings([running])
            await pilot.pause()
            tables = screen.query_one("#tables")
            assert "playing · Watch" in str(tables.get_option_at_index(0).prompt)
            tables.focus()
            await pilot.press("1")  # As is still "player": a running table can only be watched
            # In mid-game: straight through the lobby to the table, which stays (issue: the lobby's
            # first resume must not take it for the table having been left).
            await until(lambda: isinstance(pilot.app.screen, TableScreen), 15, "the table")
            table = pilot.app.screen
            await until(lambda: len(table.log_writer.book.entries) >= 3, 30, "the live log")
            assert table.log_writer.book.entries[0].text.startswith("You are watching from move ")
            assert isinstance(pilot.app.screen, TableScreen) and host.watch.count == 1
            lobby = next(s for s in pilot.app.screen_stack if isinstance(s, LobbyScreen))
            assert not lobby.session.closed
    finally:
        task.cancel()
        await host.close()


async def test_a_player_is_told_who_starts_and_stops_watching(home: Path) -> None:
    host = await net.open_table(
        CROWN,
        name="Pike Pond",
        seats=["host", "open"],
        bind="127.0.0.1",
        advertise=False,
        identity=Identity.generate(),
        chooser=net.bot_chooser(CROWN, think=0.1),
        host_name="Ann",
        save_dir=home / "h",
    )
    task = asyncio.ensure_future(host.run())
    watcher: Any = None
    try:
        async with lan_app(home).run_test(size=(80, 24)) as pilot:
            await pilot.press("j")
            await pilot.pause()
            pilot.app.screen.query_one("#address").focus()
            await pilot.press(*f"127.0.0.1:{host.port}", "enter")
            await until(lambda: isinstance(pilot.app.screen, LobbyScreen), 10, "the lobby")
            await pilot.press("ctrl+r")
            await until(lambda: isinstance(pilot.app.screen, TableScreen), 15, "the table")

            def said() -> list[str]:
                return [n.message for n in pilot.app._notifications]

            watcher = await net.watch_table(
                f"127.0.0.1:{host.port}", name="Kim", identity=Identity.generate(), save_dir=home / "w"
            )
            wtask = asyncio.ensure_future(watcher.run())
            await until(lambda: "Kim is watching the table" in said(), 10, "the notice of a new watcher")
            await watcher.close()
            await until(lambda: "Kim stopped watching" in said(), 10, "the notice of a watcher leaving")
            await asyncio.gather(wtask, return_exceptions=True)
    finally:
        task.cancel()
        await host.close()
