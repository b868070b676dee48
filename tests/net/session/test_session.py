"""Session behaviour on loopback: desync repair, the lobby API a UI uses, refusals, reconnects."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from coldwater.net import messages as m
from coldwater.net.identity import Identity
from coldwater.net.session import (
    ChatReceived,
    Finished,
    GameStarted,
    LobbyChanged,
    StepApplied,
    TableHost,
    TablePeer,
    bot_chooser,
)
from coldwater.net.session.persist import load_peer_save
from coldwater.net.transport import Refusal, connect

from ...toygame import GAME, Hold, Roll
from .peers import cautious, crash_at_ply


def _host(seats: list[str], **kw: Any) -> TableHost:
    kw.setdefault("chooser", bot_chooser(GAME))
    return TableHost(GAME, Identity.generate(), name="t", seats=seats, bind="127.0.0.1", **kw)


def _peer(**kw: Any) -> TablePeer:
    kw.setdefault("chooser", bot_chooser(GAME))
    return TablePeer(GAME, Identity.generate(), bind="127.0.0.1", **kw)


async def test_a_corrupted_peer_is_detected_reported_and_resynced() -> None:
    host = _host(["host", "open"])
    port = await host.listen()
    peer = _peer(name="p")
    corrupted = False

    def corrupt(ev: object) -> None:
        nonlocal corrupted
        st = peer.state
        if isinstance(ev, StepApplied) and ev.ply >= 6 and not corrupted and st is not None and st.current is not None:
            st.data.banked[0] += 7  # e.g. a bit flip, or an engine bug on this machine
            corrupted = True

    peer.subscribe(corrupt)

    async def go() -> None:
        t = asyncio.ensure_future(host.run())
        await peer.join("127.0.0.1", port)
        await asyncio.gather(t, peer.run())

    await asyncio.wait_for(go(), 30)
    assert corrupted and peer.checker.resyncs >= 1, (peer.problems, peer.record.steps[-3:])
    assert any("mismatch" in p for p in peer.problems)
    assert peer.result is not None and host.result is not None
    assert peer.result.digest == host.result.digest and peer.result.audit_ok


async def test_lobby_chat_ready_fingerprints_and_a_person_at_each_end() -> None:
    host = _host(["host", "open"], chooser=None, auto_start=False, host_name="Ann")
    port = await host.listen()
    peer = _peer(name="Bob", chooser=None)
    host_events: list[object] = []
    peer_events: list[object] = []
    host.subscribe(host_events.append)
    peer.subscribe(peer_events.append)
    htask = asyncio.ensure_future(host.run())
    await peer.join("127.0.0.1", port)
    ptask = asyncio.ensure_future(peer.run())

    async def until(cond: Any) -> None:
        async with asyncio.timeout(10):
            while not cond():
                await asyncio.sleep(0.01)

    await until(lambda: any(isinstance(e, LobbyChanged) and e.seats[1].kind == "remote" for e in peer_events))
    lobby = [e for e in peer_events if isinstance(e, LobbyChanged)][-1]
    assert lobby.seats[0].name == "Ann" and lobby.seats[0].fingerprint == host.identity.fingerprint
    assert lobby.seats[1].name == "Bob" and lobby.seats[1].fingerprint == peer.identity.fingerprint
    peer.send_chat("hello pond")
    await until(lambda: any(isinstance(e, ChatReceived) for e in host_events))
    assert [(e.seat, e.name, e.text) for e in host_events if isinstance(e, ChatReceived)] == [(1, "Bob", "hello pond")]
    host.send_chat("hi Bob")
    await until(lambda: any(isinstance(e, ChatReceived) for e in peer_events))
    peer.set_ready(True)
    await until(lambda: host.lobby()[1].ready)
    assert not host.started  # a person host starts the game by hand
    host.start_game()
    await until(lambda: any(isinstance(e, GameStarted) for e in peer_events))

    # Both seats are people: the test plays them through the same calls a UI makes.
    async with asyncio.timeout(30):
        while not ptask.done():
            t = host.table
            if t is not None and t.waiting_for_person and not t.state.is_over:
                host.submit(Hold() if t.state.data.pot >= 4 else Roll())
            st = peer.state
            if st is not None and st.current == peer.seat and peer.awaiting_person:
                peer.submit(Hold() if st.data.pot >= 4 else Roll())
            await asyncio.sleep(0.005)
    await htask
    fin = [e for e in peer_events if isinstance(e, Finished)]
    assert fin and fin[0].result.digest == host.result.digest  # type: ignore[union-attr]


async def test_a_full_table_and_a_started_game_refuse_strangers() -> None:
    host = _host(["host", "open"], auto_start=False)
    port = await host.listen()
    try:
        p1 = _peer()
        await p1.join("127.0.0.1", port)
        p2 = _peer()
        with pytest.raises(Refusal, match="full"):
            await p2.join("127.0.0.1", port)
        assert host.open_seats == 0
        await p1.close()
        async with asyncio.timeout(5):
            while host.open_seats != 1:  # leaving the lobby frees the seat
                await asyncio.sleep(0.01)
        await p2.close()
    finally:
        await host.close()


async def test_real_socket_handshake_names_both_versions() -> None:
    host = _host(["host", "open"])
    port = await host.listen()
    try:
        with pytest.raises(Refusal) as e:
            await connect("127.0.0.1", port, Identity.generate(), GAME.name, GAME.content_hash, version=m.PROTOCOL + 1)
        assert f"v{m.PROTOCOL}" in str(e.value) and f"v{m.PROTOCOL + 1}" in str(e.value)
        with pytest.raises(Refusal, match="content mismatch"):
            await connect("127.0.0.1", port, Identity.generate(), GAME.name, "f" * 64)
        assert host.open_seats == 1
    finally:
        await host.close()


async def test_a_dropped_peer_is_away_and_the_table_waits_then_resumes(tmp_path: Path) -> None:
    host = _host(["host", "open", "open"], chooser=cautious)
    port = await host.listen()
    slow = bot_chooser(GAME, think=0.01)
    a = _peer(name="a", chooser=slow, save_dir=tmp_path / "a")
    b = _peer(name="b", chooser=cautious)
    away: list[bool] = []
    host.subscribe(lambda e: away.append(e.away) if type(e).__name__ == "PresenceChanged" else None)
    ht = asyncio.ensure_future(host.run())
    await a.join("127.0.0.1", port)
    await b.join("127.0.0.1", port)
    at, bt = asyncio.ensure_future(a.run()), asyncio.ensure_future(b.run())
    # Peer a's process dies: its connection drops with no goodbye.
    await crash_at_ply(a, at, 8)
    async with asyncio.timeout(10):
        while True not in away:
            await asyncio.sleep(0.01)
    save = load_peer_save(a.saves.path)  # type: ignore[arg-type]
    assert save is not None and save.steps
    a2 = TablePeer(GAME, a.identity, name="a", chooser=slow, bind="127.0.0.1", save_dir=tmp_path / "a")
    await a2.join("127.0.0.1", port, resume=save)
    await asyncio.wait_for(asyncio.gather(ht, bt, a2.run()), 30)
    assert False in away[away.index(True) :]  # back again after being away
    assert a2.result is not None and b.result is not None
    assert a2.result.digest == b.result.digest == host.result.digest  # type: ignore[union-attr]


class _ChangesItsMind(TablePeer):
    """Reveals a different seed contribution from the one it committed to."""

    async def _handle(self, conn: Any, msg: m.Message) -> None:
        if isinstance(msg, m.Commits):
            conn.send_nowait(m.Reveal(value=b"\x01" * 32))
            return
        await super()._handle(conn, msg)


async def test_a_peer_whose_reveal_differs_is_named_and_sent_away() -> None:
    host = _host(["host", "open", "open"])
    port = await host.listen()
    notices: list[str] = []
    honest = _peer(name="honest")
    honest.subscribe(lambda e: notices.append(e.text) if type(e).__name__ == "Problem" else None)
    cheat = _ChangesItsMind(GAME, Identity.generate(), name="cheat", chooser=bot_chooser(GAME), bind="127.0.0.1")
    ht = asyncio.ensure_future(host.run())
    await honest.join("127.0.0.1", port)
    hrun = asyncio.ensure_future(honest.run())
    await cheat.join("127.0.0.1", port)
    with pytest.raises(Refusal):
        await asyncio.wait_for(cheat.run(), 10)
    assert host.cheaters and "cheat (seat 3" in host.cheaters[0] and cheat.identity.fingerprint in host.cheaters[0]
    assert not host.started and host.open_seats == 1
    # A fair player takes the seat and the game is played.
    fair = _peer(name="fair")
    await fair.join("127.0.0.1", port)
    await asyncio.wait_for(asyncio.gather(ht, hrun, fair.run()), 30)
    assert any("cheated" in n for n in notices)
    assert fair.result is not None and fair.result.digest == host.result.digest  # type: ignore[union-attr]


async def test_a_reserved_seat_waits_for_its_peer() -> None:
    friend, stranger = Identity.generate(), Identity.generate()
    host = _host(["host", f"reserved:{friend.fingerprint}"], auto_start=False)
    port = await host.listen()
    try:
        s = TablePeer(GAME, stranger, chooser=bot_chooser(GAME), bind="127.0.0.1")
        with pytest.raises(Refusal, match="reserved for other keys"):  # integ's 'serve' says why now
            await s.join("127.0.0.1", port)
        assert host.lobby()[1].reserved == friend.fingerprint
        f = TablePeer(GAME, friend, chooser=bot_chooser(GAME), bind="127.0.0.1")
        await f.join("127.0.0.1", port)
        assert f.seat == 1 and host.open_seats == 0
        await f.close()
        await s.close()
    finally:
        await host.close()


async def test_a_peer_that_lost_its_save_comes_back_by_identity_alone() -> None:
    host = _host(["host", "open"], chooser=cautious)
    port = await host.listen()
    slow = bot_chooser(GAME, think=0.01)
    a = _peer(name="a", chooser=slow)
    ht = asyncio.ensure_future(host.run())
    await a.join("127.0.0.1", port)
    at = asyncio.ensure_future(a.run())
    await crash_at_ply(a, at, 6)
    # Same identity, nothing else: the host resyncs it, fair-play data included (checked).
    a2 = TablePeer(GAME, a.identity, name="a", chooser=slow, bind="127.0.0.1")
    await a2.join("127.0.0.1", port)
    await asyncio.wait_for(asyncio.gather(ht, a2.run()), 30)
    assert a2.seat == 1 and a2.result is not None and a2.result.audit_ok, a2.problems
    assert a2.result.digest == host.result.digest  # type: ignore[union-attr]


async def test_a_host_that_steers_the_dice_is_caught_by_the_peer_at_once() -> None:
    from coldwater.net import fairplay as fp
    from coldwater.net.session.host.host import TableHost
    from coldwater.net.session.host.relay import Relay

    from ...toygame import Die

    class LoadedDice(Relay):  # the host's draws are its relay's (relay.py)
        async def chance(self, state: Any) -> Any:
            action = await super().chance(state)
            if isinstance(action, Die):  # legal, and the host's digests follow it; the links say otherwise
                self._draw = fp.Draw(Die(6), False)
                return Die(6)
            return action

    host = TableHost(GAME, Identity.generate(), name="t", seats=["host", "open"], bind="127.0.0.1", chooser=cautious)
    # The host's one relay, loaded: every phase that works with it (the seating, the seed rounds, the
    # connections) holds this very object.
    host.relay.__class__ = LoadedDice
    host.set_turn_timer(1, bank=0, strict=True)
    port = await host.listen()
    peer = _peer()
    ht = asyncio.ensure_future(host.run())
    await peer.join("127.0.0.1", port)
    await asyncio.wait_for(peer.run(), 30)
    ht.cancel()
    await asyncio.gather(ht, return_exceptions=True)
    assert peer.result is not None and not peer.result.audit_ok
    assert any("but the seats' links draw" in p for p in peer.result.problems), peer.problems


async def test_two_hosts_in_a_row_go_away_and_the_last_two_peers_finish() -> None:
    async def slow(view: Any, seat: int) -> Any:
        # People think: instant choosers could end the game between the polls below,
        # before the second host is cut off (seen once under load).
        await asyncio.sleep(0.02)
        return await cautious(view, seat)

    host = _host(["host", "open", "open", "open"], chooser=slow)
    port = await host.listen()
    peers = [_peer(name=f"p{i}", chooser=slow, reconnect_for=15) for i in range(3)]
    ht = asyncio.ensure_future(host.run())
    for p in peers:
        await p.join("127.0.0.1", port)
    tasks = [asyncio.ensure_future(p.run()) for p in peers]
    async with asyncio.timeout(20):
        while peers[2].state is None or peers[2].state.ply < 10:
            await asyncio.sleep(0.01)
    ht.cancel()  # the host goes away; seat 1 (the lowest remote) takes over
    await asyncio.gather(ht, return_exceptions=True)
    async with asyncio.timeout(20):
        while (
            peers[0].takeover is None
            or peers[0].takeover.table is None
            or peers[2].state is None
            or peers[2].state.ply < peers[0].takeover.table.state.ply
            or peers[0].takeover.table.state.ply < 12
        ):
            await asyncio.sleep(0.005)
    assert peers[0].takeover.table.state.current is not None  # still going: the second loss is mid-game
    tasks[0].cancel()  # and then the new host goes away too; seat 2 takes over
    await asyncio.gather(tasks[0], return_exceptions=True)
    await asyncio.wait_for(asyncio.gather(tasks[1], tasks[2]), 60)
    r1, r2 = peers[1].result, peers[2].result
    assert r1 is not None and r2 is not None and r1.digest == r2.digest
    assert r1.audit_ok and r2.audit_ok and peers[2].host_changes >= 2
