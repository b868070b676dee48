"""Watchers on loopback: the public view only, refused when they act, listed in the lobby (issue 17)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import msgspec
import pytest

from coldwater.net import fairplay as fp
from coldwater.net import messages as m
from coldwater.net.discovery import Advertiser, Listing
from coldwater.net.identity import Identity
from coldwater.net.session import (
    LobbyChanged,
    NotAdmitted,
    TableHost,
    TablePeer,
    TableWatcher,
    bot_chooser,
)
from coldwater.net.session.host.spectators import watcher_step
from coldwater.net.session.persist import unpack_view
from coldwater.net.transport import connect

from ...toygame import GAME, Roll
from ..games_available import get, registered

ALLOWED = (
    m.Watching,
    m.Lobby,
    m.Sync,
    m.Step,
    m.Over,
    m.Presence,
    m.Chat,
    m.Notice,
    m.Ping,
    m.Pong,
    m.Refuse,
    m.Rematch,
)
"""Everything a host may ever send a watcher (a Rematch only after the end: where the table
listens again). Begin (escrow shares), End (the dealer's secret), the seed round and
Welcome (a seat) are not among them."""


def _host(game: Any, seats: list[str], tmp: Path, **kw: Any) -> TableHost:
    kw.setdefault("chooser", bot_chooser(game))
    return TableHost(game, Identity.generate(), name="pond", seats=seats, bind="127.0.0.1", save_dir=tmp / "h", **kw)


def _peer(game: Any, tmp: Path, name: str, **kw: Any) -> TablePeer:
    kw.setdefault("chooser", bot_chooser(game))
    return TablePeer(game, Identity.generate(), name=name, bind="127.0.0.1", save_dir=tmp / name, **kw)


def _watcher(game: Any, name: str = "w", **kw: Any) -> TableWatcher:
    w = TableWatcher(game, Identity.generate(), name=name, **kw)
    w.keep_received = True
    return w


async def _until(cond: Any, timeout: float = 10) -> None:
    async with asyncio.timeout(timeout):
        while not cond():
            await asyncio.sleep(0.01)


def _public_digests(game: Any, host: TableHost) -> dict[int, bytes]:
    """Ply → digest of the public view at that ply, from the host's own full record."""
    start = game.new(host.info.players, seed=fp.game_seed(host.record.joint), options=host.options)
    out = {0: fp.public_digest(start)}
    for s in host.record.steps:
        out[s.ply] = s.digest
    return out


def _check_nothing_sealed(game: Any, w: TableWatcher, public: dict[int, bytes]) -> int:
    """Every message the watcher received: allowed, without secrets, every view the public one."""
    views = 0
    for msg in w.received:
        assert isinstance(msg, ALLOWED), f"a watcher was sent {type(msg).__name__}"
        steps: list[m.Step] = []
        packed: list[tuple[int, bytes]] = []
        if isinstance(msg, m.Sync):
            assert msg.fair is None, "a watcher was sent fair-play data"
            packed.append((msg.ply, msg.view))
            steps = list(msg.steps)
        elif isinstance(msg, m.Step):
            steps = [msg]
        elif isinstance(msg, m.Lobby):
            assert all(not s.addr and not s.port for s in msg.seats), "a watcher was sent the seats' addresses"
        for s in steps:
            assert s.reveal is None, f"ply {s.ply}: a watcher was sent a sealed value"
            if s.view is not None:
                packed.append((s.ply, s.view))
        for ply, data in packed:
            v = unpack_view(game, data, ply)
            # The view is public (redacting it again changes nothing) and is the public view at that ply.
            assert v.view(None).digest() == v.digest(), f"ply {ply}: a watcher was sent a private view"
            assert fp.public_digest(v) == public[ply], f"ply {ply}: not the table's public view"
            views += 1
    return views


@pytest.mark.parametrize("name", registered())
async def test_a_watcher_of_a_whole_game_holds_the_public_view_only(name: str, tmp_path: Path) -> None:
    game = get(name)
    n = min(game.max_players, 3) - 1
    host = _host(game, ["host"] + ["open"] * n, tmp_path, chooser=bot_chooser(game, think=0.002))
    port = await host.listen()
    peers = [_peer(game, tmp_path, f"p{i}") for i in range(n)]
    early = _watcher(game, "early")
    late = _watcher(game, "late")

    async def go() -> None:
        htask = asyncio.ensure_future(host.run())
        await early.join("127.0.0.1", port)
        wtask = asyncio.ensure_future(early.run())
        for p in peers:
            await p.join("127.0.0.1", port)
        ptasks = [asyncio.ensure_future(p.run()) for p in peers]
        await _until(lambda: host.table is not None and host.table.state.ply >= 30, 60)
        await late.join("127.0.0.1", port)  # in mid-game: a Sync, then the live steps
        await asyncio.gather(htask, wtask, late.run(), *ptasks)

    await asyncio.wait_for(go(), 120)
    assert host.result is not None and host.table is not None
    public = _public_digests(game, host)
    final = fp.public_digest(host.table.state)
    for w in (early, late):
        assert w.result is not None and w.result.audit_ok, w.problems
        assert w.state is not None and fp.public_digest(w.state) == final
        assert w.result.digest == final.hex() and w.result.scores == host.result.scores
        assert len(w.steps) == host.table.state.ply and w.resyncs == 0
        assert _check_nothing_sealed(game, w, public) > 0
        assert not any(isinstance(x, m.Step) and x.commit and x.view is None for x in w.received)
    for p in peers:
        assert p.result is not None and p.result.audit_ok and p.state is not None
        assert fp.public_digest(p.state) == final  # the seats and the watchers saw one game
    sealed = sum(1 for s in host.record.steps if s.action is None)
    assert name not in ("crown", "aquatica") or sealed > 0, "a game without one sealed outcome proves little"


async def test_the_host_may_refuse_watchers_or_cap_them(tmp_path: Path) -> None:
    closed = _host(GAME, ["host", "open"], tmp_path / "a", watchers=0, auto_start=False)
    capped = _host(GAME, ["host", "open"], tmp_path / "b", watchers=1, auto_start=False)
    try:
        p0 = await closed.listen()
        p1 = await capped.listen()
        with pytest.raises(NotAdmitted, match="does not admit watchers"):
            await _watcher(GAME).join("127.0.0.1", p0)
        first = _watcher(GAME, "first")
        await first.join("127.0.0.1", p1)
        with pytest.raises(NotAdmitted, match="already has 1 watcher,"):
            await _watcher(GAME, "second").join("127.0.0.1", p1)
        # A seated identity cannot also watch (its strikes and its seat would be muddled).
        peer = _peer(GAME, tmp_path, "p")
        await peer.join("127.0.0.1", p1)
        twin = TableWatcher(GAME, peer.identity)
        with pytest.raises(NotAdmitted, match="holds seat 2"):
            await twin.join("127.0.0.1", p1)
        assert capped.watch.count == 1 and capped.open_seats == 0 and closed.watch.count == 0
        assert any("does not admit watchers" in r for r in closed.refusals)
        await first.close()
        await _until(lambda: capped.watch.count == 0)
        await peer.close()
    finally:
        await closed.close()
        await capped.close()
    with pytest.raises(ValueError, match="watchers"):
        _host(GAME, ["host", "open"], tmp_path / "c", watchers=-1)


async def test_a_watcher_that_acts_is_refused_counted_and_changes_nothing(tmp_path: Path) -> None:
    # The host's seat is a person who does not move: the table waits, so nothing else changes it.
    host = _host(GAME, ["host", "open"], tmp_path, chooser=None, auto_start=False)
    port = await host.listen()
    peer = _peer(GAME, tmp_path, "p")
    w = _watcher(GAME)
    htask = asyncio.ensure_future(host.run())
    await peer.join("127.0.0.1", port)
    ptask = asyncio.ensure_future(peer.run())
    await w.join("127.0.0.1", port)
    wtask = asyncio.ensure_future(w.run())
    await _until(lambda: host.lobby()[1].ready)
    host.start_game()
    await _until(lambda: host.table is not None and host.table.waiting_for_person and w.state is not None)
    assert host.table is not None and w.conn is not None
    before = host.table.state.digest()
    ply = host.table.state.ply
    chats: list[object] = []
    peer.subscribe(lambda e: chats.append(e) if type(e).__name__ == "ChatReceived" else None)
    hostile: list[m.Message] = [
        m.Act(ply=ply, action=str(Roll())),
        m.Join(name="sneak"),
        m.Ready(),
        m.Chat(text="psst"),
        m.Commit(digest=b"x" * 32),
        m.Reveal(value=b"x" * 32),
        m.Final(seat=0, digest=b"x" * 32, sig=b"y" * 64),
        m.Watch(name="again"),
        m.Step(ply=ply + 1, seat=0, digest=b"z" * 32, action="roll"),
    ]
    for msg in hostile:
        w.conn.send_nowait(msg)
    key = w.identity.public
    await _until(lambda: host.strikes.get(key, 0) >= len(hostile))
    await asyncio.sleep(0.2)
    assert host.table.state.digest() == before and host.table.state.ply == ply and len(host.record.steps) == ply
    assert sum("a watcher only watches" in r for r in host.refusals) == len(hostile)
    assert not chats and w.result is None  # warned (Notices), still watching
    assert any("refused act" in p for p in w.problems)
    # What the host broadcasts to the seats reaches a watcher only if it is a public announcement.
    # (exclude=1: not to the real seat, whose game these would break.)
    host.broadcast(m.Notice(text="seat 2 is slow"), exclude=1)
    host.broadcast(m.Presence(seat=1, away=True, by_bot=True), exclude=1)
    host.broadcast(m.End(dealer_secret=b"s" * 32, digest=b"d" * 32), exclude=1)
    host.broadcast(m.Begin(reveals={}, seats=[], share=b"x" * 32), exclude=1)
    await _until(lambda: any(isinstance(x, m.Presence) and x.by_bot for x in w.received))
    assert any("seat 2 is slow" in p for p in w.problems)
    assert not any(isinstance(x, m.End | m.Begin) for x in w.received)
    # Keep at it and the watcher is sent away, and not let back.
    for _ in range(60):
        w.conn.send_nowait(m.Act(ply=ply, action="roll"))
    await asyncio.wait_for(wtask, 10)
    assert w.result is not None and "sent away" in w.result.outcome and not w.result.audit_ok
    assert key in host.banned
    again = TableWatcher(GAME, w.identity)
    with pytest.raises(NotAdmitted, match="sent away"):
        await again.join("127.0.0.1", port)
    # The game goes on for the seats.
    async with asyncio.timeout(30):
        while not ptask.done():
            t = host.table
            if t.waiting_for_person and not t.state.is_over:
                host.submit(t.state.legal()[0])
            await asyncio.sleep(0.005)
    await htask
    assert peer.result is not None and peer.result.audit_ok


async def test_malformed_and_hostile_watcher_frames_crash_nothing(tmp_path: Path) -> None:
    host = _host(GAME, ["host", "open"], tmp_path, chooser=bot_chooser(GAME, think=0.01))
    port = await host.listen()
    peer = _peer(GAME, tmp_path, "p", chooser=bot_chooser(GAME, think=0.01))
    htask = asyncio.ensure_future(host.run())
    await peer.join("127.0.0.1", port)
    ptask = asyncio.ensure_future(peer.run())
    # A raw watcher: the handshake, then a Watch with a name far too long, then junk.
    ident = Identity.generate()
    conn, _ = await connect("127.0.0.1", port, ident, GAME.name, GAME.content_hash)
    conn.send_nowait(m.Watch(name="\x1b[2J" + "W" * 5000, resume_ply=10**9))
    msg = await asyncio.wait_for(conn.recv(), 5)
    assert isinstance(msg, m.Watching)
    await _until(lambda: host.watch.count == 1)
    shown = host.watch.infos()[0].name
    assert len(shown) <= 40 and "\x1b" not in shown and shown.startswith("[2JWWW")
    conn.send_raw(b"\x00" * 64)  # not sealed by the channel: refused by the transport
    conn.send_nowait(m.Mismatch(ply=-5, digest=b""))
    for _ in range(20):
        conn.send_nowait(m.Mismatch(ply=10**9, digest=b"q"))  # a resync flood is rate-limited
    for _ in range(30):
        conn.send_nowait(m.Ping(t=1.0))
    await _until(lambda: any("too many resync" in r for r in host.refusals))
    await asyncio.wait_for(asyncio.gather(htask, ptask), 60)
    assert host.result is not None and peer.result is not None and peer.result.audit_ok
    assert peer.result.digest == host.result.digest
    await conn.close()
    # A connection whose first message is neither a Join nor a Watch is dropped like any stranger's.
    h2 = _host(GAME, ["host", "open"], tmp_path / "x", auto_start=False)
    p2 = await h2.listen()
    try:
        c2, _ = await connect("127.0.0.1", p2, Identity.generate(), GAME.name, GAME.content_hash)
        c2.send_nowait(m.Over(digest=b"", scores={}, outcome="x"))
        await _until(lambda: any("first message must be a join" in r for r in h2.refusals))
        await c2.close()
    finally:
        await h2.close()


async def test_watchers_are_listed_in_the_lobby_and_the_advert(tmp_path: Path) -> None:
    host = _host(GAME, ["host", "open"], tmp_path, auto_start=False)
    port = await host.listen()
    seen: list[LobbyChanged] = []
    peer = _peer(GAME, tmp_path, "p")
    try:
        await peer.join("127.0.0.1", port)
        peer.subscribe(lambda e: seen.append(e) if isinstance(e, LobbyChanged) else None)
        ptask = asyncio.ensure_future(peer.run())
        ann, bob = _watcher(GAME, "Ann"), _watcher(GAME, "Bob")
        await ann.join("127.0.0.1", port)
        await bob.join("127.0.0.1", port)
        wtasks = [asyncio.ensure_future(ann.run()), asyncio.ensure_future(bob.run())]
        await _until(lambda: bool(seen) and len(seen[-1].watchers) == 2)
        assert [x.name for x in seen[-1].watchers] == ["Ann", "Bob"]
        assert seen[-1].watchers[0].fingerprint == ann.identity.fingerprint
        assert [x.name for x in peer.watchers] == ["Ann", "Bob"]
        await _until(lambda: len(ann.watchers) == 2)
        assert {s.seat for s in ann.seats} == {0, 1}
        await bob.close()
        await _until(lambda: [x.name for x in seen[-1].watchers] == ["Ann"])
        ptask.cancel()
        for t in wtasks:
            t.cancel()
        await asyncio.gather(ptask, *wtasks, return_exceptions=True)
    finally:
        await peer.close()
        await host.close()
    # What the advert says, and how a listing reads it back.
    adv = Advertiser(table="pond", game="toy", content="c", port=1, addresses=["10.0.0.1"], watch=4)
    adv._watchers, adv._running = 2, True
    props = adv._make_info(0).properties
    assert props[b"w"] == b"2" and props[b"wa"] == b"1" and props[b"run"] == b"1"
    adv._watchers = 4
    assert adv._make_info(0).properties[b"wa"] == b"0"  # full of watchers
    none = Advertiser(table="pond", game="toy", content="c", port=1, addresses=["10.0.0.1"])
    assert none._make_info(1).properties[b"wa"] == b"0"


def test_a_step_for_watchers_is_built_from_public_fields_only() -> None:
    step = m.Step(
        ply=3,
        seat=-1,
        digest=b"d" * 32,
        commit=b"c" * 32,
        view=b"private",
        reveal=m.SealedReveal(action="fish 7", salt=b"s" * 16),
    )
    out = watcher_step(step, b"public")
    assert out.reveal is None and out.view == b"public" and out.commit == step.commit
    assert watcher_step(step).view is None
    listing = Listing(service="s", table="t", game="toy", host="h", port=1, open_seats=0, v=4, content="c", watchers=2)
    assert msgspec.structs.replace(listing, watchable=True).watchers == 2


async def test_coldwater_join_watch_headless_prints_the_moves_and_the_scores(tmp_path: Path) -> None:
    import json
    import os
    import sys

    host = _host(GAME, ["host", "bot"], tmp_path, auto_start=False, host_name="Ann")
    port = await host.listen()
    htask = asyncio.ensure_future(host.run())
    from coldwater.net.play.paths import DataLock

    env = {**os.environ, "COLDWATER_HOME": str(tmp_path / "home")}
    lock = DataLock(tmp_path / "home")  # the app plays elsewhere with this data folder: watching still works
    argv = ["-m", "coldwater.net.cli", "join", f"127.0.0.1:{port}", "--watch", "--headless"]
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        *argv,
        "--player-name",
        "Kim",
        "--game-module",
        "tests.toygame",
        "--timeout",
        "60",
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        await _until(lambda: host.watch.count == 1, 30)
        assert host.watch.infos()[0].name == "Kim"
        host.start_game()
        out, err = await asyncio.wait_for(proc.communicate(), 60)
    finally:
        if proc.returncode is None:
            proc.kill()
        lock.release()
    await asyncio.wait_for(htask, 30)
    assert proc.returncode == 0, err.decode()
    lines = out.decode().splitlines()
    assert lines[0].startswith("watching 'pond'")
    assert any(line.startswith("seats: 1 Ann") for line in lines)
    assert host.table is not None
    moves = [line for line in lines if line[:4].strip().isdigit()]
    assert len(moves) == host.table.state.ply  # one line per step, as they came
    assert any("final scores:" in line for line in lines)
    res = json.loads(lines[-1])
    assert res["role"] == "watcher" and host.result is not None and res["scores"] == host.result.scores
    assert res["digest"] == fp.public_digest(host.table.state).hex()
    # A watcher has no seat for a bot to play.
    bad = await asyncio.create_subprocess_exec(sys.executable, *argv, "--bot", env=env, stderr=asyncio.subprocess.PIPE)
    _, err = await asyncio.wait_for(bad.communicate(), 60)
    assert bad.returncode == 2 and b"--watch and --bot" in err


async def test_a_watcher_whose_link_breaks_comes_back_and_catches_up(tmp_path: Path) -> None:
    host = _host(GAME, ["host", "open"], tmp_path, chooser=bot_chooser(GAME, think=0.01))
    port = await host.listen()
    peer = _peer(GAME, tmp_path, "p", chooser=bot_chooser(GAME, think=0.01))
    w = _watcher(GAME)
    htask = asyncio.ensure_future(host.run())
    await peer.join("127.0.0.1", port)
    ptask = asyncio.ensure_future(peer.run())
    await w.join("127.0.0.1", port)
    wtask = asyncio.ensure_future(w.run())
    await _until(lambda: w.state is not None and w.state.ply >= 6)
    assert w.conn is not None
    first = w.conn
    first.writer.transport.abort()  # the link dies without a goodbye
    await _until(lambda: w.conn is not None and w.conn is not first and not w.conn.closed)
    await asyncio.wait_for(asyncio.gather(htask, ptask, wtask), 60)
    assert host.table is not None and w.result is not None and w.result.audit_ok, w.problems
    assert w.state is not None and fp.public_digest(w.state) == fp.public_digest(host.table.state)
    assert [s.ply for s in w.steps] == list(range(1, host.table.state.ply + 1))  # nothing lost, nothing twice


async def test_a_watcher_refuses_a_sealed_value_or_a_private_view_from_the_table() -> None:
    sent: list[m.Message] = []

    class Conn:
        def send_nowait(self, msg: m.Message) -> None:
            sent.append(msg)

    start = GAME.new(2, seed=b"s" * 16)
    w = _watcher(GAME)
    w.state = start.view(None)
    w.phase = type(w.phase).WATCHING
    bad = m.Step(
        ply=1,
        seat=-1,
        digest=fp.public_digest(start),
        commit=b"c" * 32,
        reveal=m.SealedReveal(action="x", salt=b"s"),
    )
    w._on_step(Conn(), bad)  # type: ignore[arg-type]
    assert any("sealed value" in p for p in w.problems) and isinstance(sent[-1], m.Mismatch)
    assert w.state.ply == 0
    # A seat's own view (its secret card) where the public view belongs: refused too.
    from coldwater.core.rng import Rng
    from coldwater.net.session.persist import pack_view

    full = start.clone()
    full.apply(full.sample_chance(Rng(b"r" * 16)))
    private = full.view(0)
    assert private.digest() != full.view(None).digest()  # seat 0 now holds a secret
    w.phase = type(w.phase).WATCHING
    w._on_step(Conn(), m.Step(ply=1, seat=-1, digest=fp.public_digest(full), commit=b"c" * 32, view=pack_view(private)))  # type: ignore[arg-type]
    assert any("not the public view" in p for p in w.problems) and w.state.ply == 0
    # The public view itself is taken.
    w.phase = type(w.phase).WATCHING
    w._on_step(
        Conn(), m.Step(ply=1, seat=-1, digest=fp.public_digest(full), commit=b"c" * 32, view=pack_view(full.view(None)))
    )  # type: ignore[arg-type]
    assert w.state.ply == 1 and w.state.digest() == full.view(None).digest()


async def test_a_lingering_watcher_is_told_of_the_rematch_and_watches_it(tmp_path: Path) -> None:
    """After the end the watcher stays (as the app runs it), hears where the host opened the table
    again, and watches the rematch at the same host key; the old table lets it go."""
    from coldwater import net

    host = _host(GAME, ["host", "open"], tmp_path, options={"target": 8})
    host.linger = True
    port = await host.listen()
    bob = _peer(GAME, tmp_path, "bob")
    bob.linger = True
    w = _watcher(GAME, "w")
    w.linger = True
    offers: list[int] = []
    w.subscribe(lambda e: offers.append(e.port) if isinstance(e, net.RematchOffered) else None)
    new: TableHost | None = None
    seen: TableWatcher | None = None
    try:
        htask = asyncio.ensure_future(host.run())
        await w.join("127.0.0.1", port)
        wtask = asyncio.ensure_future(w.run())
        await bob.join("127.0.0.1", port)
        btask = asyncio.ensure_future(bob.run())
        await asyncio.wait_for(asyncio.gather(htask, wtask, btask), 60)
        assert w.result is not None and w.result.audit_ok, w.problems
        # Still connected after the end: a host lingering for a rematch keeps its watchers.
        await asyncio.sleep(0.3)
        assert w.conn is not None and not w.conn.closed and host.watch.count == 1
        new = await net.open_rematch(host)
        await _until(lambda: bool(offers), 10)
        assert offers == [new.port] and w.rematch_port == new.port
        assert any(isinstance(x, m.Rematch) for x in w.received)
        await _until(lambda: w.conn is None or w.conn.closed, 10)  # the old table let it go
        seen = await net.watch_rematch(w)
        assert seen.host_fingerprint == w.host_fingerprint and seen.linger
        await _until(lambda: new.watch.count == 1, 10)
    finally:
        for x in (w, seen, bob):
            if x is not None:
                await x.close()
        if new is not None:
            await new.close()
        await host.close()


async def test_a_rematch_offer_pointing_at_another_table_is_not_watched(tmp_path: Path) -> None:
    """A hostile host "offers" a port where another table (another key) listens: the watcher follows
    only the key that hosted the game it watched, so it refuses to watch there."""
    from coldwater import net
    from coldwater.net.transport import HostKeyMismatch

    host = _host(GAME, ["host", "open"], tmp_path / "a", options={"target": 8})
    host.linger = True
    port = await host.listen()
    other = _host(GAME, ["host", "open"], tmp_path / "b", auto_start=False)
    other_port = await other.listen()
    bob = _peer(GAME, tmp_path, "bob")
    w = _watcher(GAME, "w")
    w.linger = True
    try:
        htask = asyncio.ensure_future(host.run())
        await w.join("127.0.0.1", port)
        wtask = asyncio.ensure_future(w.run())
        await bob.join("127.0.0.1", port)
        await asyncio.wait_for(asyncio.gather(htask, wtask, bob.run()), 60)
        await asyncio.sleep(0.3)
        assert host.watch.offer_rematch(other_port) == 1  # the other table's port, not a rematch of ours
        await _until(lambda: w.rematch_port == other_port, 10)
        with pytest.raises(HostKeyMismatch):
            await net.watch_rematch(w)
        assert other.watch.count == 0
    finally:
        await w.close()
        await bob.close()
        await other.close()
        await host.close()


async def test_a_watcher_refuses_a_rematch_offer_before_the_end_or_twice() -> None:
    w = _watcher(GAME)
    offers: list[object] = []
    w.subscribe(offers.append)
    w._on_rematch(m.Rematch(port=4000))  # the game is not over
    assert w.rematch_port == 0 and "not over" in w.problems[-1]
    w.result = net_result()
    w._on_rematch(m.Rematch(port=0))
    assert w.rematch_port == 0 and "not a port" in w.problems[-1]
    w._on_rematch(m.Rematch(port=4001))
    w._on_rematch(m.Rematch(port=4002))
    assert w.rematch_port == 4001 and "second" in w.problems[-1]
    assert [type(e).__name__ for e in offers].count("RematchOffered") == 1


def net_result() -> Any:
    from coldwater.net.session import Result

    return Result(game="toy", table="pond", seat=-1, scores={}, digest="", plies=0, outcome="", audit_ok=True)
