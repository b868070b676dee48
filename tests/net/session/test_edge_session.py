"""Host authentication, one identity per process, and what the advert says, at real tables on loopback.

Attack 10 (an impostor table), 11's advert part (the table says it needs a passphrase)
and 14 (two processes, one identity).
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import pytest

from coldwater.net.discovery import Advertiser, Listing, mark_duplicates
from coldwater.net.identity import Identity
from coldwater.net.known_hosts import KnownHosts, KnownHostsError, normalise_fingerprint
from coldwater.net.lan import join_table
from coldwater.net.play.paths import DataFolderBusy, DataLock
from coldwater.net.session import TableHost, TablePeer, bot_chooser
from coldwater.net.transport import AlreadySeated, HostKeyMismatch, PassphraseNeeded

from ...toygame import GAME


async def _table(
    tmp: Path, name: str = "friday", passphrase: str | None = None, identity: Identity | None = None
) -> TableHost:
    host = TableHost(
        GAME,
        identity or Identity.generate(),
        name=name,
        seats=["host", "open", "open"],
        chooser=bot_chooser(GAME),
        bind="127.0.0.1",
        save_dir=tmp / f"host-{name}",
        passphrase=passphrase,
        auto_start=False,
    )
    await host.listen()
    return host


def _listing(host: TableHost, fp: str | None = None, **kw: object) -> Listing:
    return Listing(
        service=f"{host.name} [abcd]._coldwater._tcp.local.",
        table=host.name,
        game="toy",
        host="127.0.0.1",
        port=host.port,
        open_seats=2,
        v=2,
        content=GAME.content_hash,
        fingerprint=host.identity.fingerprint if fp is None else fp,
        **kw,
    )  # type: ignore[arg-type]


async def _join(target: str | Listing, tmp: Path, **kw: object) -> TablePeer:
    return await join_table(
        target,
        identity=kw.pop("identity", None) or Identity.generate(),  # type: ignore[arg-type]
        game=GAME,
        bind="127.0.0.1",
        save_dir=tmp / "me",
        **kw,
    )  # type: ignore[arg-type]


async def test_an_advert_whose_key_the_table_cannot_prove_is_refused(tmp_path: Path) -> None:
    """Attack 10: an impostor copies the real table's name and fingerprint into its own advert."""
    impostor = await _table(tmp_path)
    real_fp = Identity.generate().fingerprint
    try:
        with pytest.raises(HostKeyMismatch, match=f"advertised key {real_fp} but proved"):
            await _join(_listing(impostor, fp=real_fp), tmp_path)
        assert not any(r.key for r in impostor.remotes.values())  # nobody was seated
        peer = await _join(_listing(impostor), tmp_path)
        # The fingerprint shown is the one the channel proved.
        assert peer.host_fingerprint == impostor.identity.fingerprint
        await peer.close()
    finally:
        await impostor.close()


async def test_known_table_name_with_a_new_key_is_refused_until_pinned(tmp_path: Path) -> None:
    """Trust on first use: the second "friday" (another key) is refused, naming both keys; a pin lets it in."""
    real = await _table(tmp_path)
    peer = await _join(f"127.0.0.1:{real.port}", tmp_path)
    await peer.close()
    await real.close()
    known = KnownHosts(tmp_path / "me" / "known_hosts.json")
    assert known.keys_for("friday") == [real.identity.fingerprint]
    impostor = await _table(tmp_path)
    try:
        with pytest.raises(HostKeyMismatch) as e:
            await _join(f"127.0.0.1:{impostor.port}", tmp_path)
        text = str(e.value)
        assert real.identity.fingerprint in text and impostor.identity.fingerprint in text
        assert "--fingerprint" in text
        # A pin to some other key refuses too; the right pin joins, and the key is remembered.
        with pytest.raises(HostKeyMismatch, match="pinned"):
            await _join(f"127.0.0.1:{impostor.port}", tmp_path, fingerprint=real.identity.fingerprint)
        pin = impostor.identity.fingerprint.replace("-", "").upper()
        peer = await _join(f"127.0.0.1:{impostor.port}", tmp_path, fingerprint=pin)
        assert peer.host_fingerprint == impostor.identity.fingerprint
        await peer.close()
        assert set(KnownHosts(tmp_path / "me" / "known_hosts.json").keys_for("friday")) == {
            real.identity.fingerprint,
            impostor.identity.fingerprint,
        }
    finally:
        await impostor.close()


async def test_a_listing_that_needs_a_passphrase_is_refused_without_one(tmp_path: Path) -> None:
    host = await _table(tmp_path, passphrase="herring")
    try:
        with pytest.raises(PassphraseNeeded, match="needs a passphrase"):
            await _join(_listing(host, needs_passphrase=True), tmp_path)
        # Even when the advert does not say so, the table itself refuses, with the same words.
        with pytest.raises(PassphraseNeeded, match="this table needs a passphrase"):
            await _join(_listing(host), tmp_path)
        peer = await _join(_listing(host, needs_passphrase=True), tmp_path, passphrase="herring")
        await peer.close()
    finally:
        await host.close()


async def test_a_second_live_connection_with_one_key_is_refused_not_a_reconnect(tmp_path: Path) -> None:
    """Attack 14: the same identity twice; the second is told why, the first keeps its seat."""
    host = await _table(tmp_path)
    me = Identity.generate()
    try:
        first = await _join(f"127.0.0.1:{host.port}", tmp_path, identity=me)
        playing = asyncio.ensure_future(first.run())  # reads its connection, so it answers pings
        await asyncio.sleep(0.1)
        seat = next(r for r in host.remotes.values() if r.key == me.public)
        held = seat.conn
        with pytest.raises(AlreadySeated, match="running twice with one data folder"):
            await join_table(
                f"127.0.0.1:{host.port}", identity=me, game=GAME, bind="127.0.0.1", save_dir=tmp_path / "twin"
            )
        assert seat.conn is held and held is not None and not held.closed
        assert first.conn is not None and not first.conn.closed
        # A real reconnect (the old connection is dead, not answering) still takes the seat back.
        playing.cancel()
        await asyncio.gather(playing, return_exceptions=True)
        first.conn.writer.transport.abort()
        again = await join_table(
            f"127.0.0.1:{host.port}", identity=me, game=GAME, bind="127.0.0.1", save_dir=tmp_path / "twin"
        )
        assert seat.conn is not held and again.seat == first.seat
        await again.close()
    finally:
        await host.close()


def test_the_data_folder_is_locked_to_one_process(tmp_path: Path) -> None:
    with DataLock(tmp_path):
        with pytest.raises(DataFolderBusy, match=f"pid {os.getpid()}.*COLDWATER_HOME"):
            DataLock(tmp_path)
        # A second process says so and exits, before it does anything at the table.
        out = subprocess.run(
            [sys.executable, "-m", "coldwater.net.cli", "join", "127.0.0.1:9", "--headless", "--bot"],
            env={**os.environ, "COLDWATER_HOME": str(tmp_path)},
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert out.returncode == 1 and "another coldwater process" in out.stderr
    with DataLock(tmp_path):  # released: the next process gets it
        pass


def test_known_hosts_file_damage_is_an_error_not_a_fresh_start(tmp_path: Path) -> None:
    p = tmp_path / "known_hosts.json"
    k = KnownHosts(p)
    k.remember("friday", "aaaa-bbbb-cccc-dddd")
    k.remember("friday", "aaaa-bbbb-cccc-dddd")
    assert KnownHosts(p).keys_for("friday") == ["aaaa-bbbb-cccc-dddd"]
    KnownHosts(p).check("friday", "aaaa-bbbb-cccc-dddd")
    KnownHosts(p).check("saturday", "1111-2222-3333-4444")  # first use
    with pytest.raises(HostKeyMismatch):
        KnownHosts(p).check("friday", "1111-2222-3333-4444")
    p.write_text("{not json")
    with pytest.raises(KnownHostsError, match="damaged"):
        KnownHosts(p)
    assert p.read_text() == "{not json"  # left for the person to look at


def test_fingerprints_are_read_in_any_spelling_and_junk_is_refused() -> None:
    assert normalise_fingerprint("AB12CD34EF567890") == "ab12-cd34-ef56-7890"
    assert normalise_fingerprint(" ab12-cd34-ef56-7890 ") == "ab12-cd34-ef56-7890"
    for junk in ("", "ab12", "zz12-cd34-ef56-7890", "ab12-cd34-ef56-7890-0000"):
        with pytest.raises(ValueError, match="not a table fingerprint"):
            normalise_fingerprint(junk)


def test_listings_mark_shared_names_and_the_advert_says_passphrase() -> None:
    def lst(table: str, fp: str) -> Listing:
        return Listing(
            service=f"{table} [{fp[:4]}]._coldwater._tcp.local.",
            table=table,
            game="toy",
            host="10.0.0.1",
            port=1,
            open_seats=1,
            v=2,
            content="c",
            fingerprint=fp,
        )

    out = mark_duplicates([lst("friday", "bbbb"), lst("monday", "cccc"), lst("friday", "aaaa")])
    assert [(t.table, t.fingerprint, t.duplicate) for t in out] == [
        ("friday", "aaaa", True),
        ("friday", "bbbb", True),
        ("monday", "cccc", False),
    ]
    adv = Advertiser(
        table="t", game="toy", content="c", port=1, fingerprint="f", addresses=["10.0.0.1"], needs_passphrase=True
    )
    assert adv._make_info(1).properties[b"pw"] == b"1"
    adv2 = Advertiser(table="t", game="toy", content="c", port=1, addresses=["10.0.0.1"])
    assert adv2._make_info(1).properties[b"pw"] == b"0"


async def test_handshakes_that_never_join_are_capped_too(tmp_path: Path) -> None:
    """A stranger who completes handshakes and then says nothing holds no more places than an idle one."""
    from coldwater.net.transport import Refusal, connect

    host = await _table(tmp_path)
    held = []
    try:
        for _ in range(40):
            try:
                conn, _ = await connect(
                    "127.0.0.1",
                    host.port,
                    Identity.generate(),
                    "toy",
                    GAME.content_hash,
                    local_addr="127.0.0.7",
                    timeout=2.0,
                )
                held.append(conn)
            except Refusal:
                pass
        await asyncio.sleep(0.1)
        assert host.guard.pending <= host.guard.per_address
        assert sum(1 for c in held if not c.closed and not c.writer.is_closing()) <= host.guard.per_address + 1
        peer = await _join(f"127.0.0.1:{host.port}", tmp_path)  # another address is not held up
        assert peer.seat >= 0
        await peer.close()
    finally:
        for c in held:
            await c.close()
        await host.close()


def test_a_failover_host_from_our_own_saved_game_is_not_taken_for_an_impostor(tmp_path: Path) -> None:
    """After a failover the table name is hosted by a peer we played with: its key is in our save."""
    from coldwater.net.lan import host_check

    old, new, stranger = Identity.generate(), Identity.generate(), Identity.generate()
    known = KnownHosts(tmp_path / "known_hosts.json")
    known.remember("friday", old.fingerprint)
    check = host_check("", None, known, {new.fingerprint})
    check("friday", old.public)
    check("friday", new.public)
    with pytest.raises(HostKeyMismatch, match="impostor"):
        check("friday", stranger.public)


def test_the_lobby_shows_the_key_the_host_proved_not_the_one_it_claims() -> None:
    from coldwater.net import messages as m
    from coldwater.net.session.seat.lobbyview import _proved_host

    said: list[str] = []
    seats = [
        m.SeatInfo(seat=0, kind="host", name="H", fingerprint="aaaa-aaaa-aaaa-aaaa"),
        m.SeatInfo(seat=1, kind="remote", name="P", fingerprint="bbbb-bbbb-bbbb-bbbb"),
    ]
    out = _proved_host(seats, 0, "cccc-cccc-cccc-cccc", said.append)
    assert [s.fingerprint for s in out] == ["cccc-cccc-cccc-cccc", "bbbb-bbbb-bbbb-bbbb"]
    assert said and "aaaa-aaaa-aaaa-aaaa" in said[0] and "cccc-cccc-cccc-cccc" in said[0]
    said.clear()
    assert _proved_host(out, 0, "cccc-cccc-cccc-cccc", said.append) == out and not said
