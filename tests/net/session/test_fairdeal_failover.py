"""Failover at a fair-dealer table, in one process on loopback (issue 14; docs/fairplay.md).

The host dies with no goodbye (its sockets reset, as at ``kill -9``) between
rounds or halfway through a deal (one peer got a seat's strips, the other did
not). A peer takes over with nothing handed to it: it keeps its own seat's rounds
and relays every message it holds. The old host's seat comes back from the save
its process wrote (its key and pass secrets were on disk before they were used)
and joins the new host as a peer. Every seat ends with the same final digest and
every deck passes the end-of-game audit.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from coldwater.core import games
from coldwater.net import messages as m
from coldwater.net.identity import Identity
from coldwater.net.session import TableHost, TablePeer, bot_chooser
from coldwater.net.session.persist import load_peer_save

CROWN = games.get("crown")
AQUATICA = games.get("aquatica")
KILL_AT = 60
"""The ply after which the host dies (mid-game: setup done, fish and tackle dealt)."""


def _die(host: TableHost, task: asyncio.Future[Any]) -> None:
    """The host process is gone at once: every socket reset, nothing more sent, nothing more written."""
    host.fair_host.send = lambda msg: None  # type: ignore[method-assign]
    if host.fair_host.fair is not None:
        host.fair_host.fair.send = lambda msg: None
        host.fair_host.fair.secret_sent = lambda: None
        host.fair_host.fair.close()
    if host.server is not None:
        host.server.close()
        host.server = None
    for r in host.remotes.values():
        if r.conn is not None:
            r.conn.writer.transport.abort()
    task.cancel()


async def _failover_game(
    tmp_path: Path, players: int, when: str, game: Any = CROWN, options: Any = None
) -> tuple[list[Any], dict[str, Any]]:
    ident = Identity.generate()
    host = TableHost(
        game,
        ident,
        name="fair-fo",
        seats=["host"] + ["open"] * (players - 1),
        options=options,
        bind="127.0.0.1",
        chooser=bot_chooser(game),
        dealer="fair",
        watchers=0,
        save_dir=tmp_path / "host",
    )
    assert host.info.failover, "a fair table fails over with any remote seat: no one holds the deal"
    port = await host.listen()
    peers = [
        TablePeer(
            game,
            Identity.generate(),
            name=f"p{i}",
            bind="127.0.0.1",
            chooser=bot_chooser(game),
            save_dir=tmp_path / f"peer{i}",
            reconnect_for=15.0,
        )
        for i in range(1, players)
    ]
    task = asyncio.ensure_future(host.run())
    seen: dict[str, Any] = {}
    original = host.fair_host.on_fair

    def on_fair(r: Any, conn: Any, msg: m.Fair) -> None:
        drv = host.fair_host.fair
        if "killed" in seen or drv is None or drv.fs.view.ply < KILL_AT:
            original(r, conn, msg)
            return
        if when == "mid-deal" and msg.kind == "deal" and len(peers) >= 2:
            # Relay this seat's strips to one other peer only, then die: a deal half done.
            others = [x for x in host.remotes.values() if x.seat != msg.seat and x.present]
            assert others[0].conn is not None
            others[0].conn.send_nowait(msg)
            seen.update(killed=drv.fs.view.ply, kind=msg.kind, by=msg.seat, to=others[0].seat)
            _die(host, task)
            return
        original(r, conn, msg)

    def stepped_then_die() -> None:
        inner()
        drv = host.fair_host.fair
        if when == "between" and "killed" not in seen and drv is not None and drv.fs.view.ply >= KILL_AT:
            seen.update(killed=drv.fs.view.ply)
            _die(host, task)

    host.fair_host.on_fair = on_fair  # type: ignore[method-assign]
    begin = host.fair_host.begin

    def fair_begin(*a: Any) -> None:
        nonlocal inner
        begin(*a)
        assert host.fair_host.fair is not None
        inner = host.fair_host.fair.stepped
        host.fair_host.fair.stepped = stepped_then_die

    inner: Any = None
    host.fair_host.begin = fair_begin  # type: ignore[method-assign]
    for p in peers:
        await p.join("127.0.0.1", port)
    runs = [asyncio.ensure_future(p.run()) for p in peers]
    while "killed" not in seen:
        assert not task.done() or task.cancelled(), "the game ended before the host could die"
        await asyncio.sleep(0.01)
    # The old host's seat comes back from its save once a peer hosts the table.
    save_path = host.fair_host.save_path
    assert save_path is not None and save_path.exists(), "the host's own seat was saved"
    for _ in range(3000):
        if peers[0].takeover is not None:
            break
        await asyncio.sleep(0.01)
    new_host = peers[0].takeover
    assert new_host is not None, "the lowest remote seat took over"
    sv = load_peer_save(save_path)
    assert sv is not None and sv.fair and sv.seat == 0
    back = TablePeer(
        game, ident, name="old-host", bind="127.0.0.1", chooser=bot_chooser(game), save_dir=tmp_path / "host"
    )
    await back.join("127.0.0.1", peers[0].listen_port, resume=sv)
    assert back.fair_peer.fair is not None and back.fair_peer.fair.fs.seat == 0
    seen["restored_at"] = back.fair_peer.fair.fs.view.ply
    runs.append(asyncio.ensure_future(back.run()))
    await asyncio.wait_for(asyncio.gather(*runs, return_exceptions=True), 240)
    seen["peers"] = peers
    return [*peers, back], seen


@pytest.mark.parametrize(
    ("game", "players", "when", "options"),
    [
        (CROWN, 3, "mid-deal", None),
        (CROWN, 2, "between", None),
        (AQUATICA, 3, "mid-deal", {"kings": "advanced"}),
    ],
    ids=["crown-3-mid-deal", "crown-2-between", "aquatica-3-mid-deal"],
)
async def test_the_host_dies_and_the_fair_game_finishes_under_a_new_host(
    tmp_path: Path, game: Any, players: int, when: str, options: Any
) -> None:
    procs, seen = await _failover_game(tmp_path, players, when, game, options)
    results = [p.result for p in procs]
    for p in procs:
        assert p.result is not None and p.result.audit_ok, (p.result, p.problems)
    assert len({r.digest for r in results if r is not None}) == 1, results
    assert len({str(r.scores) for r in results if r is not None}) == 1
    assert {r.seat for r in results if r is not None} == set(range(players))
    assert all(r is not None and r.plies > seen["killed"] for r in results), "the game went on past the failover"
    assert all(p.host_changes >= 1 for p in seen["peers"])
    assert seen["restored_at"] <= seen["killed"] + 2
    if when == "mid-deal":
        assert seen["kind"] == "deal"
    # Nothing to come back to: every save of the finished game is gone.
    assert not list(tmp_path.glob("*/lan-peer-*.json")), list(tmp_path.glob("*/lan-peer-*.json"))


async def test_a_peer_process_that_dies_comes_back_from_its_save_and_the_game_finishes(tmp_path: Path) -> None:
    """Not the host this time: a peer's process dies mid-game and is started again from its save."""
    host = TableHost(
        CROWN,
        Identity.generate(),
        name="fair-back",
        seats=["host", "open", "open"],
        bind="127.0.0.1",
        chooser=bot_chooser(CROWN),
        dealer="fair",
        watchers=0,
    )
    port = await host.listen()
    ident = Identity.generate()
    peers = [
        TablePeer(CROWN, i, name=f"p{n}", bind="127.0.0.1", chooser=bot_chooser(CROWN), save_dir=tmp_path / f"p{n}")
        for n, i in enumerate([ident, Identity.generate()])
    ]
    task = asyncio.ensure_future(host.run())
    for p in peers:
        await p.join("127.0.0.1", port)
    runs = [asyncio.ensure_future(p.run()) for p in peers]
    victim = peers[0]
    while victim.fair_peer.fair is None or victim.fair_peer.fair.fs.view.ply < KILL_AT:
        await asyncio.sleep(0.01)
    died_at = victim.fair_peer.fair.fs.view.ply
    assert victim.conn is not None and victim.saves.path is not None
    victim.saves.saver.flush()  # what the kernel had when it died (the save is at most 0.25 s old anyway)
    victim.conn.writer.transport.abort()
    victim.fair_peer.fair.send = lambda msg: None
    victim.fair_peer.fair.close()
    runs[0].cancel()
    await asyncio.sleep(0.3)
    sv = load_peer_save(victim.saves.path)
    assert sv is not None and sv.fair and not sv.view, "a fair seat saves its transcript, never its view"
    back = TablePeer(CROWN, ident, name="p0", bind="127.0.0.1", chooser=bot_chooser(CROWN), save_dir=tmp_path / "p0")
    await back.join("127.0.0.1", port, resume=sv)
    assert back.fair_peer.fair is not None and back.fair_peer.fair.fs.view.ply <= died_at
    await asyncio.wait_for(asyncio.gather(task, runs[1], back.run(), return_exceptions=True), 240)
    assert host.result is not None and host.result.audit_ok, host.result
    for p in (peers[1], back):
        assert p.result is not None and p.result.audit_ok and p.result.digest == host.result.digest, p.problems
    assert back.result is not None and back.result.seat == victim.seat
