"""Host and peers as asyncio tasks on 127.0.0.1 playing whole games with bots (and the same over the in-memory
network, net/memlink.py)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from coldwater.net.identity import Identity
from coldwater.net.link import TCP, Network
from coldwater.net.memlink import MemoryLink, MemoryNetwork
from coldwater.net.session import TableHost, TablePeer, bot_chooser
from coldwater.net.transport import Refusal

from ...toygame import GAME
from ..games_available import get, registered


async def play(
    n_peers: int,
    tmp_path: Path,
    *,
    bots: int = 0,
    passphrase: str | None = None,
    game=GAME,
    timeout: float = 60,
    network: Network = TCP,
) -> tuple[TableHost, list[TablePeer]]:
    seats = ["host"] + ["open"] * n_peers + ["bot"] * bots
    host = TableHost(
        game,
        Identity.generate(),
        name="t1",
        seats=seats,
        passphrase=passphrase,
        chooser=bot_chooser(game),
        bind="127.0.0.1",
        save_dir=tmp_path / "host",
        network=network,
    )
    port = await host.listen()
    peers = [
        TablePeer(
            game,
            Identity.generate(),
            name=f"p{i}",
            passphrase=passphrase,
            chooser=bot_chooser(game),
            bind="127.0.0.1",
            save_dir=tmp_path / f"p{i}",
            network=network,
        )
        for i in range(n_peers)
    ]

    async def go() -> None:
        htask = asyncio.ensure_future(host.run())
        for p in peers:
            await p.join("127.0.0.1", port)
        await asyncio.gather(htask, *(p.run() for p in peers))

    await asyncio.wait_for(go(), timeout)
    return host, peers


@pytest.mark.parametrize("n", [1, 2, 3])
async def test_whole_toy_games_end_with_one_digest(n: int, tmp_path: Path) -> None:
    host, peers = await play(n, tmp_path)
    assert host.result is not None
    for p in peers:
        assert p.result is not None and p.result.audit_ok, p.problems
        assert p.result.digest == host.result.digest
        assert p.result.scores == host.result.scores
    assert {p.seat for p in peers} == set(range(1, n + 1))


async def test_bots_and_passphrase(tmp_path: Path) -> None:
    host, peers = await play(1, tmp_path, bots=2, passphrase="herring")
    assert peers[0].result is not None and peers[0].result.digest == host.result.digest  # type: ignore[union-attr]


async def test_wrong_passphrase_is_refused(tmp_path: Path) -> None:
    host = TableHost(
        GAME,
        Identity.generate(),
        name="t",
        seats=["host", "open"],
        passphrase="herring",
        chooser=bot_chooser(GAME),
        bind="127.0.0.1",
    )
    port = await host.listen()
    try:
        peer = TablePeer(GAME, Identity.generate(), passphrase="cod", chooser=bot_chooser(GAME), bind="127.0.0.1")
        with pytest.raises(Refusal, match="passphrase"):
            await peer.join("127.0.0.1", port)
        await peer.close()
        assert host.open_seats == 1
    finally:
        await host.close()


@pytest.mark.parametrize("name", registered())
async def test_every_registered_game_plays_whole_games_over_the_lan(name: str, tmp_path: Path) -> None:
    await _whole_game(name, tmp_path, TCP)


@pytest.mark.parametrize("name", registered())
async def test_every_registered_game_plays_whole_games_over_the_in_memory_network(name: str, tmp_path: Path) -> None:
    """The same host and seats with no socket: what they send crosses as encoded messages (net/memlink.py)."""
    net = MemoryNetwork()
    host = await _whole_game(name, tmp_path, net)
    assert host.traffic and all(isinstance(c, MemoryLink) for c in host.traffic)
    assert len(net.links) == len(host.traffic) and all(c.bytes_in > 0 for c in host.traffic)


async def _whole_game(name: str, tmp_path: Path, network: Network) -> TableHost:
    game = get(name)
    n = min(game.max_players, 3) - 1
    host, peers = await play(n, tmp_path, game=game, timeout=120, network=network)
    assert host.result is not None and host.result.plies > 20
    for p in peers:
        assert p.result is not None and p.result.audit_ok, p.problems
        assert p.result.digest == host.result.digest and p.checker.resyncs == 0
    # Public draws came from every seat's beacon link (each peer checked them and drew them itself).
    draws = [s for s in host.record.steps if s.links]
    assert draws and all(set(s.links) == {0, *(p.seat for p in peers)} for s in draws)
    assert all(p.record.book.last == host.record.book.last for p in peers)
    return host
