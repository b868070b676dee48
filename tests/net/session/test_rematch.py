"""A rematch after a LAN game: the host opens the same table again, the seats accept or decline.

Loopback, in process, with the real session classes: the seats stay connected after the end
(``linger``, as the app runs them), the host's offer reaches them, a yes seats each player
where they sat by the same key, a no (or leaving) frees the seat, and rematch messages out of
place are refused and counted like any other.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from coldwater import __version__
from coldwater.core import record
from coldwater.net import lan
from coldwater.net import messages as m
from coldwater.net.identity import Identity
from coldwater.net.session import (
    RematchAnswered,
    RematchOffered,
    TableHost,
    TablePeer,
    bot_chooser,
)
from coldwater.net.transport import Refusal

from ...toygame import GAME


def _host(seats: list[str], tmp: Path, **kw: Any) -> TableHost:
    kw.setdefault("chooser", bot_chooser(GAME))
    host = TableHost(GAME, Identity.generate(), name="Pike Pond", seats=seats, bind="127.0.0.1", save_dir=tmp, **kw)
    host.linger = True
    return host


def _peer(name: str, tmp: Path) -> TablePeer:
    peer = TablePeer(GAME, Identity.generate(), name=name, chooser=bot_chooser(GAME), bind="127.0.0.1", save_dir=tmp)
    peer.linger = True
    return peer


async def _until(cond: Callable[[], bool], timeout: float = 15) -> None:
    async with asyncio.timeout(timeout):
        while not cond():
            await asyncio.sleep(0.01)


async def _play_once(host: TableHost, peers: list[TablePeer]) -> None:
    port = await host.listen()
    htask = asyncio.ensure_future(host.run())
    for p in peers:
        await p.join("127.0.0.1", port)
    await asyncio.wait_for(asyncio.gather(htask, *(p.run() for p in peers)), 30)


async def test_the_host_offers_a_rematch_and_both_peers_sit_where_they_sat(tmp_path: Path) -> None:
    host = _host(["open", "host", "bot", "open"], tmp_path, options={"target": 8})
    bob, cat = _peer("Bob", tmp_path / "b"), _peer("Cat", tmp_path / "c")
    await _play_once(host, [bob, cat])
    assert host.result is not None and host.result.audit_ok
    first_digest = host.result.digest
    # A peer's end screen reads the whole game: rebuilt from its public record and the dealer's secret.
    rec = bob.full_record({"table": "Pike Pond"})
    assert rec is not None and rec.meta == {"app": f"coldwater {__version__}", "table": "Pike Pond"}
    assert record.replay(rec, GAME).digest() == first_digest
    assert host.table is not None and [e.action for e in rec.entries] == [e.action for e in host.table.record.entries]
    seats = {bob.seat, cat.seat}
    assert seats == {0, 3}
    # Lingering: the seats are still connected after the end, the table no longer listens.
    assert all(r.present for r in host.remotes.values()) and host.server is None
    offers: list[object] = []
    bob.subscribe(offers.append)
    cat.subscribe(offers.append)
    answers: list[RematchAnswered] = []
    host.subscribe(lambda e: answers.append(e) if isinstance(e, RematchAnswered) else None)

    new = await lan.open_rematch(host, advertise=False)
    try:
        assert new.kinds == ["open", "host", "bot", "open"]
        assert new.reserved == {bob.seat: bob.identity.fingerprint, cat.seat: cat.identity.fingerprint}
        assert new.info.options == host.info.options and new.info.name == "Pike Pond"
        await _until(lambda: sum(isinstance(e, RematchOffered) for e in offers) == 2)
        assert bob.rematch_port == cat.rematch_port == new.port
        # Cat joins first, though Bob sat first last time: the seats follow the keys, not the order.
        cat2 = await lan.join_rematch(cat)
        bob2 = await lan.join_rematch(bob)
        assert (bob2.seat, cat2.seat) == (bob.seat, cat.seat)
        assert bob2.host_fingerprint == host.identity.fingerprint
        await _until(lambda: len(answers) == 2)
        assert sorted((a.name, a.accept) for a in answers) == [("Bob", True), ("Cat", True)]
        await bob.close()
        await cat.close()
        await host.close()
        new.linger = cat2.linger = bob2.linger = False
        htask = asyncio.ensure_future(new.run())
        await asyncio.wait_for(asyncio.gather(htask, bob2.run(), cat2.run()), 30)
        assert new.result is not None and new.result.audit_ok
        assert bob2.result is not None and bob2.result.digest == new.result.digest
        assert new.record.joint != host.record.joint  # a new seed round, so (almost surely) another game
        assert new.result.digest != first_digest
        assert [s.kind for s in new.lobby()] == ["remote", "host", "bot", "remote"]
    finally:
        await new.close()


async def test_a_seat_that_declines_is_opened_and_one_that_leaves_counts_as_a_no(tmp_path: Path) -> None:
    host = _host(["host", "open", "open"], tmp_path, options={"target": 8})
    bob, cat = _peer("Bob", tmp_path / "b"), _peer("Cat", tmp_path / "c")
    await _play_once(host, [bob, cat])
    answers: list[RematchAnswered] = []
    host.subscribe(lambda e: answers.append(e) if isinstance(e, RematchAnswered) else None)
    new = await lan.open_rematch(host, advertise=False)
    try:
        await _until(lambda: bool(bob.rematch_port and cat.rematch_port))
        bob.answer_rematch(False)
        with pytest.raises(RuntimeError, match="already answered"):
            bob.answer_rematch(True)
        await cat.close()  # leaves without a word
        await _until(lambda: len(answers) == 2)
        by_name = {a.name: a for a in answers}
        assert not by_name["Bob"].accept and not by_name["Bob"].left
        assert not by_name["Cat"].accept and by_name["Cat"].left
        # The app frees a declined seat: a stranger may sit there now.
        new.rematch.open_seat(bob.seat)
        assert bob.seat not in new.reserved and cat.seat in new.reserved
        stranger = _peer("Dan", tmp_path / "d")
        await stranger.join("127.0.0.1", new.port)
        assert stranger.seat == bob.seat
        await stranger.close()
        with pytest.raises(Refusal, match="has not offered"):
            await lan.join_rematch(stranger)
    finally:
        await bob.close()
        await host.close()
        await new.close()


async def test_rematch_messages_out_of_place_are_refused_and_counted(tmp_path: Path) -> None:
    host = _host(["host", "open"], tmp_path, options={"target": 8})
    bob = _peer("Bob", tmp_path / "b")
    await _play_once(host, [bob])
    conn = host.remotes[bob.seat].conn
    assert conn is not None and bob.conn is not None
    # A reply with no offer made: refused, a strike against Bob's key, the table unchanged.
    bob.conn.send_nowait(m.RematchReply(accept=True))
    # A peer may not offer the host a rematch.
    bob.conn.send_nowait(m.Rematch(port=4000))
    await _until(lambda: host.strikes.get(bob.identity.public, 0) >= 2)
    assert any("no rematch was offered to this seat" in r for r in host.refusals)
    assert any("peers may not send this message" in r for r in host.refusals)
    assert host.rematch.answers == {}
    # The host's own misuse is refused in plain words.
    with pytest.raises(ValueError, match="no such port"):
        host.rematch.offer(0)
    # A host offering a nonsense port, or a second offer: the peer refuses it and stays put.
    conn.send_nowait(m.Rematch(port=70000))
    await _until(lambda: any("70000 is not a port" in p for p in bob.problems))
    assert bob.rematch_port == 0
    assert host.rematch.offer(4100) == [bob.seat]
    await _until(lambda: bob.rematch_port == 4100)
    with pytest.raises(RuntimeError, match="already offered"):
        host.rematch.offer(4200)
    conn.send_nowait(m.Rematch(port=4200))
    await _until(lambda: any("second rematch offer" in p for p in bob.problems))
    assert bob.rematch_port == 4100
    bob.answer_rematch(True)
    await _until(lambda: host.rematch.answers.get(bob.seat) is True)
    bob.conn.send_nowait(m.RematchReply(accept=False))  # changing its mind by the back door
    await _until(lambda: any("already answered the rematch" in r for r in host.refusals))
    assert host.rematch.answers[bob.seat] is True
    await bob.close()
    await host.close()


async def test_an_offer_during_the_game_is_refused_by_the_peer(tmp_path: Path) -> None:
    host = _host(["host", "open"], tmp_path, options={"target": 8})
    bob = _peer("Bob", tmp_path / "b")
    port = await host.listen()
    htask = asyncio.ensure_future(host.run())
    await bob.join("127.0.0.1", port)
    ptask = asyncio.ensure_future(bob.run())
    await _until(lambda: bob.state is not None)
    with pytest.raises(RuntimeError, match="once the game is over"):
        host.rematch.offer(4000)
    conn = host.remotes[bob.seat].conn
    assert conn is not None
    conn.send_nowait(m.Rematch(port=4000))  # a host sending it anyway
    await asyncio.wait_for(asyncio.gather(htask, ptask), 30)
    assert any("the game is not over" in p for p in bob.problems)
    assert bob.rematch_port == 0 and bob.result is not None and bob.result.audit_ok
    await bob.close()
    await host.close()
