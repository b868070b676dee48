"""The real host and seats over the in-memory network (net/memlink.py): the transport seam, no sockets."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from coldwater.net import messages as m
from coldwater.net.identity import Identity
from coldwater.net.memlink import MemoryNetwork, link_pair
from coldwater.net.session import TableHost, TablePeer, TableWatcher, bot_chooser
from coldwater.net.transport import PassphraseNeeded, Refusal, WrongPassphrase

from ..toygame import GAME


def _host(net: MemoryNetwork, seats: list[str], **kw: Any) -> TableHost:
    kw.setdefault("chooser", bot_chooser(GAME))
    return TableHost(GAME, Identity.generate(), name="t", seats=seats, network=net, **kw)


def _peer(net: MemoryNetwork, **kw: Any) -> TablePeer:
    kw.setdefault("chooser", bot_chooser(GAME))
    return TablePeer(GAME, Identity.generate(), network=net, **kw)


async def test_a_pair_carries_messages_in_order_and_ends_after_what_was_sent() -> None:
    a_key, b_key = Identity.generate().public, Identity.generate().public
    a, b = link_pair(a_key, b_key, "10.0.0.1", "10.0.0.2")
    assert a.peer_key == b_key and b.peer_key == a_key and a.peer_addr == "10.0.0.2"
    for i in range(3):
        a.send_nowait(m.Chat(text=f"c{i}", seat=0))
    assert b.unsent() == 0 and a.unsent() > 0
    await a.close()
    got = [await b.recv() for _ in range(4)]
    assert [x.text for x in got[:3] if isinstance(x, m.Chat)] == ["c0", "c1", "c2"]
    assert got[3] is None and b.closed
    assert a.bytes_out == b.bytes_in > 0
    a.send_nowait(m.Chat(text="late", seat=0))  # a closed link sends nothing, and does not raise
    assert a.bytes_out == b.bytes_in


async def test_a_side_that_stops_reading_is_cut_off_at_the_buffer_cap() -> None:
    a, b = link_pair(b"a" * 32, b"b" * 32, "x", "y")
    a.max_buffer = 1000
    while not a.closed:
        a.send_nowait(m.Chat(text="x" * 100, seat=0))
    assert "not reading" in a.close_reason and a.bytes_out < 2000


async def test_a_whole_game_with_a_watcher_over_the_in_memory_network() -> None:
    net = MemoryNetwork()
    host = _host(net, ["host", "open", "open"], watchers=1)
    port = await host.listen()
    peers = [_peer(net, name=f"p{i}") for i in range(2)]
    watcher = TableWatcher(GAME, Identity.generate(), network=net)

    async def go() -> None:
        t = asyncio.ensure_future(host.run())
        await watcher.join("127.0.0.1", port)
        wt = asyncio.ensure_future(watcher.run())
        for p in peers:
            await p.join("127.0.0.1", port)
        await asyncio.gather(t, *(p.run() for p in peers), wt)

    await asyncio.wait_for(go(), 60)
    assert host.result is not None and host.result.audit_ok, host.result
    assert all(p.result is not None and p.result.digest == host.result.digest for p in peers)
    assert watcher.steps and watcher.steps[-1].digest == host.record.steps[-1].digest
    assert len(net.links) == 3 and all(x.bytes_out > 0 for x in net.links)


async def test_the_handshake_terms_are_held_over_the_in_memory_network() -> None:
    net = MemoryNetwork()
    host = _host(net, ["host", "open"], passphrase="cold pond", auto_start=False)
    port = await host.listen()
    try:
        with pytest.raises(PassphraseNeeded):
            await _peer(net).join("127.0.0.1", port)
        with pytest.raises(WrongPassphrase):
            await _peer(net, passphrase="warm pond").join("127.0.0.1", port)
        with pytest.raises(Refusal, match="cannot reach"):
            await _peer(net, passphrase="cold pond").join("127.0.0.1", port + 100)
        assert not host.lobby()[1].name  # nobody was seated
        ok = _peer(net, passphrase="cold pond", name="Bob")
        await ok.join("127.0.0.1", port)
        async with asyncio.timeout(10):
            while host.lobby()[1].name != "Bob":
                await asyncio.sleep(0.01)
    finally:
        await host.close()


async def test_a_fair_dealer_table_over_the_in_memory_network() -> None:
    from coldwater.core import games

    crown = games.get("crown")
    net = MemoryNetwork()
    host = TableHost(
        crown,
        Identity.generate(),
        name="fair",
        seats=["host", "open", "open"],
        chooser=bot_chooser(crown),
        dealer="fair",
        watchers=0,
        network=net,
    )
    port = await host.listen()
    peers = [
        TablePeer(crown, Identity.generate(), name=f"p{i}", chooser=bot_chooser(crown), network=net) for i in range(2)
    ]

    async def go() -> None:
        t = asyncio.ensure_future(host.run())
        for p in peers:
            await p.join("127.0.0.1", port)
        await asyncio.gather(t, *(p.run() for p in peers))

    await asyncio.wait_for(go(), 300)
    assert host.result is not None and host.result.audit_ok, host.result
    assert all(p.result is not None and p.result.digest == host.result.digest and p.result.audit_ok for p in peers)
    assert sum(x.bytes_in + x.bytes_out for x in net.links) > 0


async def test_a_host_that_goes_away_is_replaced_by_its_seat_over_the_in_memory_network() -> None:
    """Failover without sockets: the seat's listener (its PeerFailover, a door closed until it hosts)
    opens on the in-memory network, and the game finishes under the new host."""
    from coldwater.core import games

    game = games.get("fisheries")  # one remote seat and no sealed values: no escrow to gather
    net = MemoryNetwork()
    think = bot_chooser(game, think=0.05)
    host = TableHost(game, Identity.generate(), name="f", seats=["host", "open"], chooser=think, network=net)
    peer = TablePeer(game, Identity.generate(), name="p", chooser=think, reconnect_for=15, network=net)
    port = await host.listen()
    ht = asyncio.ensure_future(host.run())
    await peer.join("127.0.0.1", port)
    assert ("127.0.0.1", peer.listen_port) in net.doors and peer.failover.terms() is None  # closed: not hosting
    pt = asyncio.ensure_future(peer.run())
    async with asyncio.timeout(30):
        while peer.state is None or peer.state.ply < 12:
            await asyncio.sleep(0.01)
    ht.cancel()
    await asyncio.gather(ht, return_exceptions=True)
    assert ("127.0.0.1", port) not in net.doors  # the old host's door closed with it
    res = await asyncio.wait_for(pt, 90)
    new = peer.takeover
    assert new is not None and peer.host_changes == 1 and res.audit_ok, (peer.problems, res)
    assert new.failover_ply >= 12 and peer.failover.terms() is not None
