"""The Join screen: the live list, joining by address into the lobby, errors said plainly.

Zeroconf needs multicast, which these tests do not assume (the namespace tests in
tests/net exercise real discovery as root). The list is therefore tested through
the browser's ``on_change`` callback, fed listings as a TableBrowser would; joining
uses a real table on 127.0.0.1.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import msgspec

from coldwater import net
from coldwater.core import games
from coldwater.net.discovery import Listing
from coldwater.net.identity import Identity
from coldwater.tui.screens.lan_join import LanJoinScreen
from coldwater.tui.screens.lobby import LobbyScreen
from coldwater.tui.widgets.choices import ChoiceList

from .test_lan_play import lan_app, until

CROWN = games.get("crown")


def listing(table: str, port: int, open_seats: int = 1) -> Listing:
    return Listing(
        service=f"{table} [abcd]._coldwater._tcp.local.",
        table=table,
        game="crown",
        host="127.0.0.1",
        port=port,
        open_seats=open_seats,
        v=net.PROTOCOL,
        content=CROWN.content_hash,
    )


async def open_join(pilot: Any) -> LanJoinScreen:
    await pilot.press("j")
    await pilot.pause()
    screen = pilot.app.screen
    assert isinstance(screen, LanJoinScreen)
    return screen


async def join_by_address(pilot: Any, port: int) -> None:
    """From the menu: the Join screen, the host's address typed by keys, Enter, and its lobby."""
    await open_join(pilot)
    await pilot.press(*f"127.0.0.1:{port}")
    await pilot.press("enter")
    await until(lambda: isinstance(pilot.app.screen, LobbyScreen), 10, "the lobby")


async def test_tables_appear_and_vanish(home: Path) -> None:
    async with lan_app(home).run_test(size=(80, 24)) as pilot:
        screen = await open_join(pilot)
        tables = screen.query_one("#tables", ChoiceList)
        assert not tables.display
        screen.show_listings([listing("Pike Pond", 4000, 2)])
        await pilot.pause()
        assert tables.display and tables.option_count == 1
        assert screen.focused is tables  # so that its keys (1, 2, …) pick a table, as the help says
        assert "Pike Pond" in str(tables.get_option_at_index(0).prompt)
        assert "2 open seats" in str(tables.get_option_at_index(0).prompt)
        screen.show_listings([listing("Pike Pond", 4000, 2), listing("Carp Lake", 4001, 0)])
        await pilot.pause()
        assert tables.option_count == 2
        screen.show_listings([listing("Carp Lake", 4001, 0)])  # Pike Pond closed
        await pilot.pause()
        assert tables.option_count == 1 and "Pike Pond" not in str(tables.get_option_at_index(0).prompt)
        screen.show_listings([])
        await pilot.pause()
        assert not tables.display
        assert screen.focused is screen.query_one("#address")


async def _host(home: Path, **kw: Any) -> Any:
    return await net.open_table(
        CROWN,
        name="Pike Pond",
        seats=["host", "open"],
        bind="127.0.0.1",
        advertise=False,
        identity=Identity.generate(),
        chooser=net.bot_chooser(CROWN),
        host_name="Ann",
        save_dir=home / "h",
        **kw,
    )


async def test_pick_listed_table_joins_into_lobby_and_ready(home: Path) -> None:
    host = await _host(home)
    task = asyncio.ensure_future(host.run())
    try:
        async with lan_app(home).run_test(size=(80, 24)) as pilot:
            screen = await open_join(pilot)
            screen.show_listings([listing("Pike Pond", host.port)])
            await pilot.pause()
            screen.query_one("#tables", ChoiceList).focus()
            await pilot.press("1")
            await until(lambda: isinstance(pilot.app.screen, LobbyScreen), 10, "the lobby")
            lobby = pilot.app.screen
            assert "Ann" in str(lobby.query_one("#lobby-seats").render())
            await pilot.press("ctrl+r")  # ready: the headless host then starts by itself
            await until(lambda: type(pilot.app.screen).__name__ != "LobbyScreen", 15, "the game")
            await pilot.press("escape")  # table menu: leave
            await pilot.pause()
    finally:
        task.cancel()
        await host.close()


async def test_join_errors_are_sentences(home: Path) -> None:
    host = await _host(home, passphrase="trout season")
    task = asyncio.ensure_future(host.run())
    try:
        async with lan_app(home).run_test(size=(80, 24)) as pilot:
            screen = await open_join(pilot)
            error = screen.query_one("#join-error")
            await pilot.press(*f"127.0.0.1:{host.port}")
            await pilot.press("enter")
            await until(lambda: "Refused" in str(error.render()), 15, "a refusal")
            assert "passphrase" in str(error.render()).lower()
            assert isinstance(pilot.app.screen, LanJoinScreen)
            # Nobody listens there.
            screen.query_one("#address").value = "127.0.0.1:1"
            screen.query_one("#address").focus()
            await pilot.press("enter")
            await until(
                lambda: (
                    "Cannot reach" in str(error.render())
                    or ("Refused" in str(error.render()) and "passphrase" not in str(error.render()).lower())
                ),
                15,
                "unreachable",
            )
            screen.query_one("#address").value = "nonsense"
            await pilot.press("enter")
            await until(lambda: "not an address" in str(error.render()), 5, "bad address")
            assert isinstance(pilot.app.screen, LanJoinScreen)
    finally:
        task.cancel()
        await host.close()


async def test_peer_plays_its_seat_by_keys_to_the_end(home: Path) -> None:
    from coldwater.tui.screens.score import ScoreScreen
    from coldwater.tui.screens.table import TableScreen

    from .driver import play_sampled

    host = await _host(home)
    task = asyncio.ensure_future(host.run())
    try:
        async with lan_app(home).run_test(size=(100, 36)) as pilot:
            await join_by_address(pilot, host.port)
            await pilot.press("ctrl+r")
            await until(lambda: isinstance(pilot.app.screen, TableScreen), 15, "the table")
            # Crown's default, the fair dealer: every process shuffles and strips, so a ply takes longer.
            # The first decisions by keys, then every tenth (the others straight on the peer's table):
            # test_crown_play.py plays a whole Crown game by keys.
            made = await asyncio.wait_for(play_sampled(pilot), 180)
            assert made > 5
            score = pilot.app.screen
            assert isinstance(score, ScoreScreen)
            result = await asyncio.wait_for(task, 20)
            assert result.plies > 0
            # Every key is out at the end: the whole game, every fish in it, is this seat's to replay.
            await until(lambda: score.record is not None, 20, "the whole game's record")
            assert score.record is not None and len(score.record.entries) == result.plies
            assert len(list((home / "records").glob("crown-lan-*.json"))) == 1, "kept under Replays"
            await until(lambda: "p  open the replay" in str(score.query_one("#score-actions").render()), 10, "p")
    finally:
        task.cancel()
        await host.close()


def test_the_list_and_the_lobby_say_who_deals_and_which_bots_the_host_runs() -> None:
    from coldwater.tui.screens.lan_join import listing_label
    from coldwater.tui.screens.lobby import dealer_line

    base = listing("Pike Pond", 4000)
    titles = {"crown": "Coldwater Crown"}
    assert "fair dealer" in listing_label(msgspec.structs.replace(base, dealer="fair"), titles)
    assert "host deals" in listing_label(msgspec.structs.replace(base, dealer="committed"), titles)
    said = listing_label(base, titles)  # an advert that does not say (an older version)
    assert "fair dealer" not in said and "host deals" not in said
    seats = [
        net.SeatInfo(seat=0, kind="host", name="Ann"),
        net.SeatInfo(seat=1, kind="bot", name="random bot (run by the host)"),
        net.SeatInfo(seat=2, kind="remote", name="Bob"),
    ]
    fair = dealer_line("fair", CROWN, seats)
    assert "no computer, the host's included" in fair and "Seat 2 is a bot run by the host" in fair
    assert "bot" not in dealer_line("fair", CROWN, seats[::2])
    assert dealer_line("committed", CROWN, seats).startswith("Committed dealer")
    assert dealer_line("committed", games.get("fisheries"), []).startswith("Public draws")


async def test_the_lobby_says_who_left_and_came_back_but_not_a_bot_taking_a_seat(home: Path) -> None:
    """Presence also tells when a bot starts or stops playing a seat (the turn timer): that is no news
    of anyone leaving or coming back, so it is not announced as "... is back"."""
    from coldwater.net.session import PresenceChanged

    host = await _host(home)
    task = asyncio.ensure_future(host.run())
    try:
        async with lan_app(home).run_test(size=(80, 24)) as pilot:
            await join_by_address(pilot, host.port)
            lobby = pilot.app.screen
            assert isinstance(lobby, LobbyScreen)

            def said() -> list[str]:
                return [str(n.message) for n in pilot.app._notifications if "Ann" in str(n.message)]

            lobby._on_event(PresenceChanged(0, False))  # a bot stops playing Ann's seat: she never left
            await pilot.pause()
            assert said() == []
            lobby._on_event(PresenceChanged(0, True))
            lobby._on_event(PresenceChanged(0, True))  # (said again, with a bot now playing the seat)
            lobby._on_event(PresenceChanged(0, False))
            await pilot.pause()
            assert said() == ["Ann is away; the table waits", "Ann is back"], list(pilot.app._notifications)
    finally:
        task.cancel()
        await host.close()
