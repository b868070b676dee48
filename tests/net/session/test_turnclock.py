"""The turn clock's figures (net/session/turnclock.py): a time per move, a bank per game that drains only
past it, the countdown text a title shows. Times are passed in, so nothing here sleeps."""

from __future__ import annotations

import asyncio
import math
import re
import time
from collections.abc import Callable
from typing import Any

import msgspec
import pytest

from coldwater.core import games
from coldwater.net import messages as m
from coldwater.net.identity import Identity
from coldwater.net.session import TableHost, TablePeer
from coldwater.net.session.turnclock import TurnClock, fmt

CROWN = games.get("crown")


def test_the_countdown_shows_the_moves_time_then_the_bank_then_out_of_time() -> None:
    c = TurnClock(60, 120, 3)
    c.at(4, 1, 1000.0)
    assert c.running and c.seat == 1
    assert c.text(1000.0) == "1:00"
    assert c.text(1017.4) == "0:43"  # rounded up: a clock that shows 0:00 is out
    assert c.move_left(1059.5) == pytest.approx(0.5) and c.text(1059.5) == "0:01"
    assert c.text(1060.0) == "bank 2:00"
    assert c.text(1100.0) == "bank 1:20" and c.bank_left(1100.0) == pytest.approx(80.0)
    assert not c.out(1179.9) and c.left(1179.9) == pytest.approx(0.1)
    assert c.out(1180.0) and c.text(1180.0) == "out of time"
    assert c.over_by(1190.0) == pytest.approx(10.0)


def test_the_bank_drains_only_past_the_moves_time_and_is_kept_across_moves() -> None:
    c = TurnClock(30, 100, 2)
    c.at(0, 0, 0.0)
    c.at(1, 1, 25.0)  # seat 1 moved in 25 s: within its 30, its bank untouched
    assert c.banks == [100.0, 100.0]
    c.at(2, 0, 25.0 + 70.0)  # seat 2 took 70 s: 40 past the move's time come out of its bank
    assert c.banks == [100.0, 60.0]
    c.at(3, None, 95.0 + 30.0)  # exactly the move's time: nothing spent; a draw is timed for nobody
    assert c.banks == [100.0, 60.0] and not c.running and c.text(200.0) == "" and math.isinf(c.left(200.0))
    c.at(4, 1, 300.0)
    # Seat 2's next move starts with the 60 s it has left: out after 30 + 60.
    assert c.left(300.0) == pytest.approx(90.0) and c.text(331.0) == "bank 0:59"
    assert not c.out(389.0) and c.out(390.0)
    c.at(5, 0, 500.0)
    assert c.banks[1] == 0.0  # never below nothing


def test_the_same_position_said_again_changes_nothing() -> None:
    c = TurnClock(10, 50, 2)
    c.at(7, 0, 100.0)
    c.at(7, 0, 180.0)  # the host's step and the seat's own round both say ply 7: one start, at the first
    assert c.since == 100.0 and c.left(180.0) == 0.0 and c.out(180.0)


def test_no_clock_and_a_bank_of_nothing() -> None:
    off = TurnClock(0, 300, 2)
    off.at(0, 0, 0.0)
    assert not off.running and not off.out(1e9) and off.text(1e9) == ""
    strict = TurnClock(5, 0, 2)
    strict.at(0, 1, 0.0)
    assert strict.text(4.5) == "0:01" and strict.out(5.0) and strict.text(5.0) == "out of time"
    with pytest.raises(ValueError):
        TurnClock(-1, 0, 2)


def test_the_figures_read_the_same_at_every_process_within_the_network_delay() -> None:
    """Each process starts a move when the position reaches it: a peer 0.2 s behind the host shows the
    same countdown 0.2 s later, so both say 'out of time' within that delay of each other."""
    host, peer = TurnClock(20, 40, 2), TurnClock(20, 40, 2)
    host.at(3, 1, 10.0)
    peer.at(3, 1, 10.2)
    for t in (11.0, 25.0, 40.0, 59.0):
        assert abs(host.left(t) - peer.left(t)) == pytest.approx(0.2)
    assert host.out(70.0) and not peer.out(70.0) and peer.out(70.2)


def test_the_game_time_counts_every_second_and_ends_a_seat_that_always_moves_in_time() -> None:
    """Issue 44, break 6: 2:59 a move on a 3:00 timer never touches the bank, but the game clock counts it."""
    c = TurnClock(180, 300, 3, game=600)
    t = 0.0
    for ply in range(0, 9, 3):  # seat 0 moves at 2:59 three times; seats 1 and 2 at once
        c.at(ply, 0, t)
        t += 179
        c.at(ply + 1, 1, t)
        c.at(ply + 2, 2, t)
    assert c.banks[0] == 300 and c.used[0] == 3 * 179
    c.at(9, 0, t)
    assert c.game_left(t) == 600 - 537 and c.left(t) == 63  # the game's time, not the move's 180 s
    assert not c.out(t + 62) and c.out(t + 63) and c.over_by(t + 70) == 7
    assert c.text(t + 10) == "game 0:53"
    assert TurnClock(180, 300, 3).game_left(0.0) == float("inf")  # 0: no such limit


def test_fmt() -> None:
    assert [fmt(x) for x in (0, -3, 0.01, 59.2, 60, 61, 3600)] == [
        "0:00",
        "0:00",
        "0:01",
        "1:00",
        "1:00",
        "1:01",
        "60:00",
    ]


# ---- issue 29, break 6: through the real net stack (loopback, as test_fairdeal_timer.py) -------------
# Two people at a table with no host seat (as `coldwater serve` opens them over SSH), both connected,
# both idle past the turn timer and their banks.


def _seatless(dealer: str, *, strict: bool, watchers: int = 0) -> TableHost:
    return TableHost(
        CROWN,
        Identity.generate(),
        name="idle",
        seats=["open", "open"],
        bind="127.0.0.1",
        dealer=dealer,
        watchers=watchers,
        turn_timer=1,
        time_bank=1,
        strict_clock=strict,
        auto_start=True,
    )


async def _until(cond: Callable[[], bool], timeout: float = 60.0) -> None:
    async with asyncio.timeout(timeout):
        while not cond():
            await asyncio.sleep(0.01)


async def _seated(host: TableHost) -> tuple[list[asyncio.Future[Any]], list[TablePeer]]:
    await host.listen()
    task = asyncio.ensure_future(host.run())
    people = [TablePeer(CROWN, Identity.generate(), name=n, bind="127.0.0.1") for n in ("Ann", "Bo")]
    for p in people:
        await p.join("127.0.0.1", port=host.port)
        p.set_ready()
    runs = [asyncio.ensure_future(p.run()) for p in people]
    await _until(lambda: any(p.awaiting_person for p in people))
    return [task, *runs], people


async def _leave(host: TableHost, people: list[TablePeer], running: list[asyncio.Future[Any]]) -> None:
    """Everyone leaves mid-game (the test looked at what it came for)."""
    for p in people:
        await p.close()
    await host.close()
    for t in running:
        t.cancel()
    # (A peer that lost its host tries to fail over; its cancelled run may take a moment to unwind.)
    await asyncio.wait(running, timeout=10)


def _botted(p: TablePeer) -> bool:
    """A bot plays `p`'s seat: its own app's (a fair table) or the host's (a committed one)."""
    return p.bot_plays


@pytest.mark.parametrize("dealer", ["fair", "committed"])
async def test_6_two_connected_people_idle_past_their_time_keep_their_seats(dealer: str) -> None:
    host = _seatless(dealer, strict=False)
    running, people = await _seated(host)
    try:
        mover = next(p for p in people if p.awaiting_person)
        other = next(p for p in people if p is not mover)
        assert mover.state is not None
        ply = mover.state.ply
        # 1 s a move and 1 s of bank: out of time after 2 s. Wait well past it: nobody's bot moves.
        await _until(lambda: host.clock.out(time.monotonic()) and other.clock.out(time.monotonic()), 10)
        await asyncio.sleep(3.0)
        assert mover.state.ply == ply and mover.awaiting_person
        assert not any(_botted(p) for p in people) and not host.remotes[mover.seat].timed_out
        now = time.monotonic()
        assert mover.clock.text(now) == other.clock.text(now) == host.clock.text(now) == "out of time"
        # Everyone is told, once; the seat itself hears what it may do.
        said = f"{mover.name} (seat {mover.seat + 1}) is out of time"
        assert [t for t in other.problems if said in t] == [
            f"table says: {said} (1 s a move and the time bank spent); the other players may hand the seat to a bot"
        ], other.problems
        assert any("you are out of time" in t for t in mover.problems), mover.problems
        # The seat itself cannot hand itself over; the other player can.
        assert mover.lobby_view.hand_over(mover.seat) is not None
        assert other.lobby_view.hand_over(mover.seat) is None
        await _until(lambda: mover.state is not None and mover.state.ply > ply, 20)
        assert _botted(mover) and not _botted(other)
        assert all(p.botted == {mover.seat} for p in people), [p.botted for p in people]
        handed = f"{mover.name} (seat {mover.seat + 1}) is out of time; {other.name} hands the seat to a bot"
        assert any(handed in t for t in host.problems), host.problems
        assert not [x for x in host.refusals if "handover" in x], host.refusals
    finally:
        await _leave(host, people, running)


@pytest.mark.parametrize("dealer", ["fair", "committed"])
async def test_6_with_a_strict_clock_a_bot_plays_the_idle_seat_at_once(dealer: str) -> None:
    host = _seatless(dealer, strict=True)
    assert host.info.strict
    running, people = await _seated(host)
    try:
        mover = next(p for p in people if p.awaiting_person)
        assert mover.state is not None and mover.info is not None and mover.info.strict
        ply = mover.state.ply
        await _until(lambda: _botted(mover), 15)
        await _until(lambda: mover.state is not None and mover.state.ply > ply, 15)
        assert not any("may hand the seat to a bot" in t for t in host.problems), host.problems
    finally:
        await _leave(host, people, running)


async def test_6_a_hand_over_before_the_time_is_out_is_refused_and_changes_nothing() -> None:
    host = _seatless("committed", strict=False)
    host.set_turn_timer(30, bank=30)
    running, people = await _seated(host)
    try:
        mover = next(p for p in people if p.awaiting_person)
        other = next(p for p in people if p is not mover)
        assert mover.state is not None
        ply = mover.state.ply
        assert (other.lobby_view.hand_over(mover.seat) or "").startswith(f"seat {mover.seat + 1} still has")
        # A modified client asks anyway: the host's own clock decides, and only says why not.
        assert other.conn is not None
        other.conn.send_nowait(m.HandOver(seat=mover.seat, ply=ply))
        await _until(lambda: any("not handed to a bot" in t for t in other.problems), 10)
        why = host.seating.hand_over(mover.seat, by=other.seat) or ""
        assert re.fullmatch(rf"seat {mover.seat + 1} is not out of time: it has (1:00|0:[45]\d) left", why), why
        assert mover.awaiting_person and mover.state.ply == ply and not _botted(mover)
        assert not host.remotes[mover.seat].timed_out
    finally:
        await _leave(host, people, running)


def test_a_table_info_with_a_clock_no_process_could_keep_is_refused_on_the_wire() -> None:
    """Every seat and watcher builds its clock from the host's TableInfo: a negative timer or bank (or a
    table of no seats) fails to decode as a malformed message, before any clock is made of it."""
    import msgspec

    from coldwater.net import messages as m

    good = m.TableInfo(game="crown", name="t", players=2, content="c", turn=60, bank=300)
    assert msgspec.msgpack.decode(msgspec.msgpack.encode(good), type=m.TableInfo) == good
    for bad in ({"turn": -1}, {"bank": -5}, {"players": 0}, {"turn": 10**9}):
        raw = msgspec.msgpack.encode({**msgspec.structs.asdict(good), **bad})
        with pytest.raises(msgspec.ValidationError):
            msgspec.msgpack.decode(raw, type=m.TableInfo)


async def test_6_a_watcher_sees_the_same_countdown_as_the_seats() -> None:
    """A watcher's title counts down too: its own clock, from the public positions it sees."""
    from coldwater.net.session import TableWatcher

    host = _seatless("committed", strict=False, watchers=1)
    await host.listen()
    w = TableWatcher(CROWN, Identity.generate(), name="Kim")
    await w.join("127.0.0.1", host.port)
    wrun = asyncio.ensure_future(w.run())
    await _until(lambda: host.watch.count == 1, 10)
    task = asyncio.ensure_future(host.run())
    people = [TablePeer(CROWN, Identity.generate(), name=n, bind="127.0.0.1") for n in ("Ann", "Bo")]
    for p in people:
        await p.join("127.0.0.1", port=host.port)
        p.set_ready()
    runs = [asyncio.ensure_future(p.run()) for p in people]
    try:
        await _until(lambda: any(p.awaiting_person for p in people))
        mover = next(p for p in people if p.awaiting_person)
        await _until(lambda: w.clock.running and w.clock.seat == mover.seat, 10)
        assert (w.clock.turn, w.clock.banks) == (1, [1.0, 1.0])
        await _until(lambda: mover.clock.out(time.monotonic()), 10)
        await _until(lambda: w.clock.text(time.monotonic()) == "out of time", 5)
    finally:
        await w.close()
        wrun.cancel()
        await _leave(host, people, [task, *runs])


@pytest.mark.parametrize("dealer", ["committed", "fair"])
async def test_a_seat_that_takes_over_keeps_the_tables_clock_hints_and_banks(dealer: str) -> None:
    """The new host after a failover announces the terms the players agreed (turn timer, bank, strict,
    hints), not its build's defaults, and each seat's bank as this peer last measured it."""
    from coldwater.net.session import bot_chooser

    host = TableHost(
        CROWN,
        Identity.generate(),
        name="terms",
        seats=["host", "open", "open"],
        bind="127.0.0.1",
        chooser=bot_chooser(CROWN),
        dealer=dealer,
        turn_timer=40,
        time_bank=90,
        strict_clock=True,
    )
    host.info.hints = True  # as net.lan.host_table sets it
    await host.listen()
    ht = asyncio.ensure_future(host.run())
    peers = [
        TablePeer(CROWN, Identity.generate(), name=n, bind="127.0.0.1", chooser=bot_chooser(CROWN), reconnect_for=15)
        for n in ("Ann", "Bo")
    ]
    for p in peers:
        await p.join("127.0.0.1", port=host.port)
        p.set_ready()
    runs = [asyncio.ensure_future(p.run()) for p in peers]
    try:
        await _until(lambda: all(p.state is not None and p.state.ply >= 4 for p in peers))
        ht.cancel()  # the host goes away; seat 2 (the lowest remote) takes over
        await asyncio.gather(ht, return_exceptions=True)
        await _until(lambda: peers[0].takeover is not None, 30)
        new = peers[0].takeover
        assert new is not None
        assert (new.info.turn, new.info.bank, new.info.strict, new.info.hints) == (40, 90, True, True)
        assert new.clock.turn == 40 and len(new.clock.banks) == 3
        assert all(0.0 <= b <= 90.0 for b in new.clock.banks)
    finally:
        for p in peers:
            await p.close()
        for t in runs:
            t.cancel()
        await asyncio.wait(runs, timeout=10)


def test_the_game_time_is_in_the_advert_and_the_lobby() -> None:
    from coldwater.net.discovery import Advertiser
    from coldwater.tui.screens.lobby import clock_line

    adv = Advertiser(table="t", game="crown", content="c", port=1, addresses=["127.0.0.1"], turn=180, game_time=5400)
    assert adv._make_info(1).properties[b"gt"] == b"5400"
    info = m.TableInfo(game="crown", name="t", players=3, content="c", turn=180, bank=300, game_time=5400)
    line = clock_line(info)
    assert "90 min a game" in line and len(line) <= 80, line
    with pytest.raises(m.BadMessage):  # a hostile host's game time past a week is refused on the wire
        m.decode(m.encode(m.Welcome(seat=1, table=msgspec.structs.replace(info, game_time=10**9))))
