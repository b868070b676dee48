"""A seat held for its player: rejoining after a crash, without depending on timing or multicast.

The namespace test that kills and restarts a peer once failed with "no table named
'Pond' found": the host's own seat won the game 60 ms after the kill, so the host
sent the end to the peers present, closed and withdrew its advertisement before the
restarted peer looked. These tests pin both halves of the fix on loopback:
the finished table waits for a seat that was away, and a restarted peer rejoins
its saved game at the saved host's address even when the name is not heard.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from coldwater.core.state import CHANCE, State
from coldwater.net import beacon, lan
from coldwater.net import fairplay as fp
from coldwater.net.identity import Identity
from coldwater.net.session import PresenceChanged, TableHost, TablePeer, bot_chooser
from coldwater.net.session.persist import load_peer_save
from coldwater.net.transport import Refusal

from ...toygame import GAME, Hold, Roll
from .peers import cautious, crash_at_ply

CONTRIBUTION = b"\x07" * 32
"""Every seat's seed contribution in these tests (patched in), so the dice are known in advance."""


def _greedy(view: State[Any, Any], seat: int) -> Any:
    d = view.data
    return Roll() if d.banked[seat] + d.pot < 15 else Hold()


SECRET = b"\x01" * 32
"""The dealer's secret in these tests (it deals the sealed cards; the dice are public draws)."""


class _FixedChain(beacon.Chain):
    """Beacon chains whose end values the test picks (and short: these games end early)."""

    ends: dict[int, bytes] = {}

    def __init__(self, seat: int, end: bytes | None = None, length: int = 64) -> None:
        super().__init__(seat, end if end is not None else self.ends.get(seat, bytes([seat + 9]) * 16), 64)


def _chains_where_the_host_wins_its_first_turn() -> None:
    """Chain ends under which seat 0, playing greedily and drawing the dice alone, wins before seat 1 moves."""
    for i in range(10_000):
        _FixedChain.ends[0] = i.to_bytes(16, "big")
        c0, c1 = _FixedChain(0), _FixedChain(1)
        joint = fp.joint_seed({0: fp.contribution(CONTRIBUTION, c0.tip), 1: fp.contribution(CONTRIBUTION, c1.tip)})
        dealer = fp.CommittedDealer(SECRET)
        dealer.start(joint)
        st = GAME.new(2, seed=fp.game_seed(joint))
        while st.current in (CHANCE, 0):
            if st.current == CHANCE and beacon.is_public_draw(st):
                st.apply(beacon.draw(st, joint, {0: c0.link(beacon.index_of(st.ply))}))  # seat 1 is away by then
            else:
                st.apply(dealer.outcome(st) if st.current == CHANCE else _greedy(st, 0))
        if st.is_over:
            return
    raise AssertionError("no such chain in 10 000 tries")


async def test_a_game_that_ends_while_a_seat_is_away_waits_for_that_player(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(fp, "new_contribution", lambda: CONTRIBUTION)
    monkeypatch.setattr(beacon, "Chain", _FixedChain)
    _chains_where_the_host_wins_its_first_turn()
    away = asyncio.Event()

    async def host_seat(view: State[Any, Any], seat: int) -> Any:
        await away.wait()  # the host's seat plays only once peer a has gone
        return _greedy(view, seat)

    host = TableHost(GAME, Identity.generate(), name="t", seats=["host", "open"], bind="127.0.0.1", chooser=host_seat)
    host.dealer = fp.CommittedDealer(SECRET)
    host.ending.grace = 30.0  # bounds the test if the table did not wait as it should
    host.subscribe(lambda e: away.set() if isinstance(e, PresenceChanged) and e.away else None)
    port = await host.listen()
    a = TablePeer(GAME, Identity.generate(), name="a", chooser=bot_chooser(GAME), bind="127.0.0.1", save_dir=tmp_path)
    ht = asyncio.ensure_future(host.run())
    await a.join("127.0.0.1", port)
    at = asyncio.ensure_future(a.run())
    async with asyncio.timeout(10):
        while a.state is None:
            await asyncio.sleep(0.005)
    at.cancel()  # peer a's process dies as the game begins
    await asyncio.gather(at, return_exceptions=True)
    async with asyncio.timeout(10):
        while host.result is None:
            await asyncio.sleep(0.005)
    # The game is over while a is away; the table is still there for a.
    await asyncio.sleep(0.2)
    assert not ht.done() and host.server is not None
    save = load_peer_save(a.saves.path)  # type: ignore[arg-type]
    assert save is not None and len(save.steps) < host.result.plies
    a2 = TablePeer(GAME, a.identity, name="a", chooser=bot_chooser(GAME), bind="127.0.0.1", save_dir=tmp_path)
    await a2.join("127.0.0.1", port, resume=save)
    res = await asyncio.wait_for(a2.run(), 10)
    assert res.audit_ok and res.digest == host.result.digest, res.problems
    await asyncio.wait_for(ht, 10)  # and the table closes once a has the result, not after its grace
    assert not (tmp_path / "lan-peer-t.json").exists()  # a's finished game is no longer "to resume"


class _NothingHeard:
    """A TableBrowser on a network where multicast does not reach (or not in time)."""

    def __init__(self, *args: Any, **kw: Any) -> None:
        pass

    async def start(self) -> None:
        pass

    async def find(self, table: str, timeout: float = 10.0, *, settle: float = 0.0) -> list[Any]:
        return []

    async def close(self) -> None:
        pass


async def test_a_restarted_peer_rejoins_by_name_at_its_saved_host_without_multicast(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(lan, "TableBrowser", _NothingHeard)
    host = TableHost(GAME, Identity.generate(), name="Pond", seats=["host", "open"], bind="127.0.0.1", chooser=cautious)
    port = await host.listen()
    me = Identity.generate()
    slow = bot_chooser(GAME, think=0.01)
    ht = asyncio.ensure_future(host.run())
    a = await lan.join_table(
        f"127.0.0.1:{port}", identity=me, name="a", chooser=slow, game=GAME, bind="127.0.0.1", save_dir=tmp_path
    )
    at = asyncio.ensure_future(a.run())
    await crash_at_ply(a, at, 6)
    with pytest.raises(Refusal, match="no table named 'Lake'"):  # no save for it, and nothing heard
        await lan.join_table(
            "Lake", identity=me, chooser=slow, game=GAME, bind="127.0.0.1", save_dir=tmp_path, find_timeout=0.1
        )
    a2 = await lan.join_table(
        "Pond", identity=me, name="a", chooser=slow, game=GAME, bind="127.0.0.1", save_dir=tmp_path, find_timeout=0.1
    )
    assert a2.saves.save is not None and a2.seat == a.seat  # resumed, same seat
    await asyncio.wait_for(asyncio.gather(ht, a2.run()), 30)
    assert a2.result is not None and a2.result.audit_ok
    assert a2.result.digest == host.result.digest  # type: ignore[union-attr]


async def test_a_saved_host_now_hosting_another_table_is_not_rejoined(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(lan, "TableBrowser", _NothingHeard)
    first = TableHost(
        GAME, Identity.generate(), name="Pond", seats=["host", "open"], bind="127.0.0.1", chooser=cautious
    )
    port = await first.listen()
    me = Identity.generate()
    ht = asyncio.ensure_future(first.run())
    a = await lan.join_table(
        f"127.0.0.1:{port}", identity=me, chooser=cautious, game=GAME, bind="127.0.0.1", save_dir=tmp_path
    )
    at = asyncio.ensure_future(a.run())
    await crash_at_ply(a, at, 4)
    ht.cancel()
    await asyncio.gather(ht, return_exceptions=True)
    # Another table now listens where our saved game was hosted.
    other = TableHost(
        GAME,
        Identity.generate(),
        name="Lake",
        seats=["host", "open"],
        bind="127.0.0.1",
        port=port,
        chooser=cautious,
        auto_start=False,
    )
    await other.listen()
    try:
        with pytest.raises(Refusal, match="no table named 'Pond'"):
            await lan.join_table(
                "Pond", identity=me, chooser=cautious, game=GAME, bind="127.0.0.1", save_dir=tmp_path, find_timeout=0.1
            )
        assert other.open_seats == 1  # not seated at a table we did not ask for
    finally:
        await other.close()


async def test_a_restarted_peer_keeps_its_clock_and_the_banks_it_had(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 29, break 6: a seat that restarts comes back to the table's turn clock with the time banks as
    its save had them (a restart is no way to a fresh bank), not to no clock at all."""
    import msgspec

    monkeypatch.setattr(lan, "TableBrowser", _NothingHeard)
    host = TableHost(GAME, Identity.generate(), name="Pond", seats=["host", "open"], bind="127.0.0.1", chooser=cautious)
    host.set_turn_timer(30, bank=120)
    port = await host.listen()
    me = Identity.generate()
    slow = bot_chooser(GAME, think=0.01)
    ht = asyncio.ensure_future(host.run())
    a = await lan.join_table(
        f"127.0.0.1:{port}", identity=me, name="a", chooser=slow, game=GAME, bind="127.0.0.1", save_dir=tmp_path
    )
    at = asyncio.ensure_future(a.run())
    await crash_at_ply(a, at, 6)
    (path,) = [p for p in tmp_path.rglob("*.json") if load_peer_save(p) is not None]
    save = load_peer_save(path)
    assert save is not None and len(save.banks) == 2 and all(0 <= b <= 120 for b in save.banks), save.banks
    path.write_bytes(msgspec.json.encode(msgspec.structs.replace(save, banks=[55.5, 7.0])))  # time spent before
    a2 = await lan.join_table(
        "Pond", identity=me, name="a", chooser=slow, game=GAME, bind="127.0.0.1", save_dir=tmp_path, find_timeout=0.1
    )
    try:
        assert a2.saves.save is not None and a2.seat == a.seat
        assert a2.clock.turn == 30 and a2.clock.banks == [55.5, 7.0]
    finally:
        await a2.close()
        ht.cancel()
        await asyncio.gather(ht, return_exceptions=True)
        await host.close()
