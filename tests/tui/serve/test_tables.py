"""The control path between a served app and `coldwater serve`, without SSH in the way.

Each test builds the server's table keeper with throwaway folders and talks to
it over a socket pair, exactly as a served app does; the key a request counts
as is the one the pair was attached with, whatever the request says.
"""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import struct
import subprocess
import sys
import time
from pathlib import Path

import pytest

from coldwater.tui import serve
from coldwater.tui.serve import applink, control, tables
from coldwater.tui.serve.control import CloseTable, Done, Failed, ListTables, Opened, OpenTable, Tables
from tests.tui.serve.keeper import ALICE, BOB, CAROL, link_for


def crown(name: str = "Pond", seats: list[str] | None = None, **kw: object) -> OpenTable:
    return OpenTable(game="crown", name=name, seats=seats or ["host", "open"], **kw)  # type: ignore[arg-type]


async def test_a_table_is_opened_for_the_key_of_the_channel(keeper: tables.ServerTables) -> None:
    alice, bob = link_for(keeper, ALICE), link_for(keeper, BOB)
    table = await alice.open_table(crown())
    assert table.owner == serve.key_fingerprint(ALICE) and table.yours and table.port > 0
    hosted = keeper.tables["Pond"]
    # Seat 1 is kept for the LAN identity of Alice's sessions, made by the server in her folder.
    assert hosted.host.reserved == {0: keeper.lan_identity(ALICE).fingerprint}
    assert hosted.host.identity.fingerprint == table.fingerprint
    # Bob sees it, as not his; only Alice may close it.
    (seen,) = await bob.tables()
    assert seen.name == "Pond" and not seen.yours and seen.open_seats == 2
    assert await bob.ask(CloseTable("Pond")) == Failed("only the key that opened a table may close it")
    assert await alice.ask(CloseTable("Pond")) == Done()
    assert await bob.ask(ListTables()) == Tables([])


async def test_served_tables_get_the_fair_dealer_wherever_it_deals(keeper: tables.ServerTables) -> None:
    """The server has no seat at its tables: it keeps the record from an observer, so no hidden value is
    ever in its process; a game the fair dealer does not deal keeps the committed dealer."""
    from coldwater.net.fairdeal.seat import WIRED

    alice = link_for(keeper, ALICE)
    await alice.open_table(crown("Fair"))
    assert keeper.tables["Fair"].host.info.dealer == "fair"
    await alice.open_table(OpenTable(game="fisheries", name="Nets", seats=["host", "open"]))
    assert "fisheries" not in WIRED and keeper.tables["Nets"].host.info.dealer == "committed"
    # The opener may choose the committed dealer (the host form's Dealer field), as any host may.
    await alice.ask(CloseTable("Nets"))
    await alice.open_table(crown("Dealt", dealer="committed"))
    assert keeper.tables["Dealt"].host.info.dealer == "committed"


async def test_a_seat_reserved_for_an_ssh_key_is_kept_for_its_lan_identity(keeper: tables.ServerTables) -> None:
    alice = link_for(keeper, ALICE)
    bob_fp = serve.key_fingerprint(BOB)
    lan_fp = "0123-4567-89ab-cdef"
    await alice.open_table(crown(seats=["host", f"reserved:{bob_fp.upper()}", f"reserved:{lan_fp}"]))
    host = keeper.tables["Pond"].host
    assert host.reserved[1] == keeper.lan_identity(BOB).fingerprint
    assert host.reserved[2] == lan_fp  # not an SSH key the server knows: a LAN player's fingerprint
    lobby = host.lobby()
    assert lobby[1].reserved == f"SSH key {bob_fp}" and lobby[2].reserved == lan_fp
    assert lobby[0].reserved == f"SSH key {serve.key_fingerprint(ALICE)}"


@pytest.mark.parametrize(
    ("request_", "why"),
    [
        (crown(name=" "), "the table name is empty"),
        (crown(name="x" * 51), "the table name is 51 bytes long; at most 50 bytes"),
        (crown(name="🐟" * 20), "the table name is 80 bytes long; at most 50 bytes"),
        (crown(name="Pond\x1b]0;owned\x07"), "control or direction characters (\\x07 \\x1b)"),
        (crown(name="Pond\u202e"), "control or direction characters (\\u202e)"),
        (OpenTable(game="chess", name="Pond", seats=["host", "open"]), "no game 'chess'"),
        (crown(seats=["open", "host"]), "the first seat is yours"),
        (crown(seats=["host", "host"]), "the first seat is yours"),
        (crown(seats=["host", "robot"]), "seat 2: 'robot' is not open, bot or reserved"),
        (crown(seats=["host", "reserved:"]), "seat 2: 'reserved:' is not open"),
        (crown(seats=["host", "reserved:bob"]), "seat 2: 'bob' is not a key fingerprint"),
        (crown(seats=["host"] + ["open"] * 6), "cannot open the table: Coldwater Crown is for"),
        (crown(options={"nonsense": 1}), "cannot open the table: bad Coldwater Crown options"),
        (crown(watchers=-1), "cannot open the table: a table admits from 0 to 64 watchers"),
        (crown(watchers=65), "cannot open the table: a table admits from 0 to 64 watchers"),
        (crown(dealer="host"), "cannot open the table: the dealer is 'committed' or 'fair', not 'host'"),
        (crown(turn=-5), "cannot open the table: the turn timer is 0 (no clock) to 3600 seconds, not -5"),
        (
            OpenTable(game="fisheries", name="Pond", seats=["host", "open"], dealer="fair"),
            "cannot open the table: the fair dealer deals",
        ),
    ],
)
async def test_a_bad_request_is_refused_with_a_reason_and_opens_nothing(
    keeper: tables.ServerTables, request_: OpenTable, why: str
) -> None:
    reply = await link_for(keeper, ALICE).ask(request_)
    assert isinstance(reply, Failed) and why in reply.reason, reply
    assert not keeper.tables


async def test_the_opener_says_who_may_watch(keeper: tables.ServerTables, tmp_path: Path) -> None:
    """The host form's Watchers field holds for a table the server hosts, as for one an app hosts."""
    from coldwater import net
    from coldwater.net.session.watcher import NotAdmitted

    alice = link_for(keeper, ALICE)
    closed = await alice.open_table(crown("Closed", watchers=0))
    assert keeper.tables["Closed"].host.info.watch == 0
    with pytest.raises(NotAdmitted, match="does not admit watchers"):
        await net.watch_table(f"127.0.0.1:{closed.port}", fingerprint=closed.fingerprint, save_dir=tmp_path / "guest")
    await alice.open_table(crown("Open"))  # unsaid: as many as a LAN table admits
    assert keeper.tables["Open"].host.info.watch == 16


async def test_the_opener_sets_the_turn_timer(keeper: tables.ServerTables) -> None:
    """Issue 29, item 6: the SSH host form's Turn timer reaches the table the server hosts."""
    alice, bob = link_for(keeper, ALICE), link_for(keeper, BOB)
    await alice.open_table(crown("Slow", turn=600))
    await alice.open_table(crown("Free", turn=0))
    await bob.open_table(crown("Usual"))
    assert [keeper.tables[n].host.info.turn for n in ("Slow", "Free", "Usual")] == [600, 0, 180]


async def test_names_and_limits(keeper: tables.ServerTables) -> None:
    alice, bob, carol = link_for(keeper, ALICE), link_for(keeper, BOB), link_for(keeper, CAROL)
    assert isinstance(await alice.ask(crown("One")), Opened)
    reply = await bob.ask(crown("One"))
    assert isinstance(reply, Failed) and "already open" in reply.reason
    assert isinstance(await alice.ask(crown("Two")), Opened)
    reply = await alice.ask(crown("Three"))
    assert isinstance(reply, Failed) and f"{tables.TABLES_PER_KEY} tables open" in reply.reason
    assert isinstance(await bob.ask(crown("Three")), Opened)
    reply = await carol.ask(crown("Four"))
    assert isinstance(reply, Failed) and "hosts 3 tables already" in reply.reason
    assert isinstance(await carol.ask(CloseTable("Nope")), Failed)


async def test_garbage_on_the_channel_is_answered_and_the_server_lives(keeper: tables.ServerTables) -> None:
    ours, theirs = socket.socketpair()
    keeper.attach(ALICE, ours)
    reader, writer = await asyncio.open_unix_connection(sock=theirs)
    writer.write(struct.pack(">I", 3) + b"\xc1\xc1\xc1")  # not MessagePack
    await writer.drain()
    (size,) = struct.unpack(">I", await reader.readexactly(4))
    assert b"not a request" in await reader.readexactly(size)
    writer.write(struct.pack(">I", control.MAX_FRAME + 1))  # too big: answered, then hung up
    await writer.drain()
    (size,) = struct.unpack(">I", await reader.readexactly(4))
    assert b"control frame" in await reader.readexactly(size)
    assert await reader.read() == b""
    writer.close()
    # Another app's channel is untouched.
    assert await link_for(keeper, BOB).ask(ListTables()) == Tables([])


async def test_an_empty_lobby_is_closed_after_a_while(keeper: tables.ServerTables) -> None:
    await link_for(keeper, ALICE).open_table(crown())
    keeper.reap(now=1000.0)
    keeper.reap(now=1000.0 + keeper.keep_empty - 1)
    assert "Pond" in keeper.tables
    keeper.reap(now=1000.0 + keeper.keep_empty)
    await asyncio.sleep(0.1)
    assert not keeper.tables


def test_outside_serve_there_is_no_link(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(control.FD_ENV, raising=False)
    monkeypatch.delenv(control.KEY_ENV, raising=False)
    assert applink.link() is None and applink.served_key() == ""


def test_where_the_servers_tables_listen_is_an_option() -> None:
    cfg = serve.parse_args(["--guests", "--table-bind", "127.0.0.1", "--no-advertise"])
    assert cfg.table_bind == "127.0.0.1" and not cfg.advertise
    cfg = serve.parse_args(["--guests"])
    assert cfg.table_bind == "0.0.0.0" and cfg.advertise


async def test_the_opener_asks_for_a_rematch_and_the_server_offers_it_to_every_seat(
    keeper: tables.ServerTables, tmp_path: Path
) -> None:
    from coldwater import net
    from coldwater.core import games
    from coldwater.net.identity import Identity
    from coldwater.net.session import TablePeer, bot_chooser

    alice, bob = link_for(keeper, ALICE), link_for(keeper, BOB)
    game = games.get("crown")
    table = await alice.open_table(crown(seats=["host", "open"]))
    # Alice's app sits at her seat with her LAN identity; Bob is a LAN player. Both linger, as apps do.
    seats = [
        TablePeer(game, keeper.lan_identity(ALICE), name="Alice", chooser=bot_chooser(game), bind="127.0.0.1"),
        TablePeer(game, Identity.generate(), name="Bob", chooser=bot_chooser(game), bind="127.0.0.1"),
    ]
    new_seats: list[TablePeer] = []
    try:
        for p in seats:
            p.linger = True
            p.save_dir = tmp_path / p.name
            await p.join("127.0.0.1", table.port)
        results = await asyncio.wait_for(asyncio.gather(*(p.run() for p in seats)), 120)
        assert all(r.audit_ok for r in results)
        for _ in range(200):  # the server's host returns from run() a moment after the seats
            if "Pond" in keeper.ended:
                break
            await asyncio.sleep(0.05)
        assert "Pond" in keeper.ended and "Pond" not in keeper.tables
        # The server's database keeps the game: Alice named by her SSH key, Bob (a LAN player) by none.
        assert keeper.store is not None
        (kept,) = keeper.store.results()
        assert (kept.table, kept.game, kept.digest, kept.plies) == (
            "Pond",
            "crown",
            results[0].digest,
            results[0].plies,
        )
        assert [(s.seat, s.player, s.bot) for s in kept.seats] == [
            (0, serve.key_fingerprint(ALICE), False),
            (1, "", False),
        ]
        assert sorted(s.place for s in kept.seats) == [1, 2] and kept.agreed, kept
        assert [s.score for s in kept.seats] == [results[0].scores["Seat 1"], results[0].scores["Seat 2"]]
        assert keeper.store.results(player=serve.key_fingerprint(ALICE)) == [kept]
        assert await alice.ask(ListTables()) == Tables([])  # a finished table is not listed to join
        # Only the opener may ask, and only for a finished table of that name.
        assert await bob.ask(control.RematchTable("Pond")) == Failed(
            "only the key that opened a table may offer its rematch"
        )
        reply = await alice.ask(control.RematchTable("Carp"))
        assert isinstance(reply, Failed) and "no finished game" in reply.reason
        reply = await alice.ask(control.RematchTable("Pond"))
        assert isinstance(reply, Opened) and reply.table.name == "Pond" and reply.table.yours
        new = keeper.tables["Pond"].host
        assert new.reserved == {0: keeper.lan_identity(ALICE).fingerprint, 1: seats[1].identity.fingerprint}
        for _ in range(200):
            if all(p.rematch_port == new.port for p in seats):
                break
            await asyncio.sleep(0.05)
        assert all(p.rematch_port == new.port for p in seats)
        # Bob says no: nobody is at the host's seat to free his, so the server does.
        seats[1].answer_rematch(False)
        for _ in range(200):
            if 1 not in new.reserved:
                break
            await asyncio.sleep(0.05)
        assert new.reserved == {0: keeper.lan_identity(ALICE).fingerprint}
        new_seats.append(await net.join_rematch(seats[0]))
        assert new_seats[0].seat == 0
        again = await alice.ask(control.RematchTable("Pond"))
        assert isinstance(again, Failed) and "has not finished" in again.reason
    finally:
        for p in seats + new_seats:
            await p.close()


ORPHAN_APP = """
import os, signal, subprocess, sys, time
signal.signal(signal.SIGHUP, signal.SIG_IGN)  # as under `nohup coldwater serve`: exec keeps it ignored
child = subprocess.Popen([sys.executable, "-c", "from coldwater.tui.serve.applink import die_with_server\\n"
                          "die_with_server()\\nimport time\\nprint('up', flush=True)\\ntime.sleep(60)"],
                         env={**os.environ, "%s": "99"}, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
child.stdout.readline()
print(child.pid, flush=True)
os._exit(0)  # the server dies without stopping its app
"""


@pytest.mark.skipif(sys.platform != "linux", reason="the parent-death signal is Linux's prctl")
def test_a_served_app_ends_with_its_server_even_if_sighup_was_ignored() -> None:
    """An orphaned app would hold its key's data folder (and read a closed terminal) for ever."""
    out = subprocess.run(
        [sys.executable, "-c", ORPHAN_APP % control.FD_ENV], capture_output=True, text=True, timeout=30, check=True
    )
    pid = int(out.stdout.split()[-1])
    stat = Path(f"/proc/{pid}/stat")
    for _ in range(100):
        try:
            if stat.read_text().rsplit(")", 1)[1].split()[0] in ("Z", "X"):
                return  # dead, not yet reaped by whoever adopted it
        except (FileNotFoundError, ProcessLookupError):
            return
        time.sleep(0.05)
    os.kill(pid, signal.SIGKILL)
    pytest.fail("the served app outlived its server")


async def test_a_cancelled_request_neither_breaks_the_link_nor_hands_its_reply_to_the_next(
    keeper: tables.ServerTables,
) -> None:
    """A screen's worker may be cancelled at any await of a request (replaced, or its screen closed):
    the next request still gets its own reply, at every point the cancellation can come."""
    link = link_for(keeper, ALICE)
    for steps in range(12):
        pending = asyncio.ensure_future(link.ask(control.History()))
        for _ in range(steps):
            await asyncio.sleep(0)
        pending.cancel()
        assert isinstance(await link.ask(ListTables()), Tables), steps
    assert isinstance(await link.ask(control.History()), control.HistoryReply)
