"""A seat held for its player: rejoining after a crash, without depending on timing or multicast.

The namespace test that kills and restarts a peer once failed with "no table named
'Pond' found": the host's own seat won the game 60 ms after the kill, so the host
sent the end to the peers present, closed and withdrew its advertisement before the
restarted peer looked. These tests pin the fix on loopback: the finished table waits for a seat that
was away.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from coldwater.core.state import CHANCE, State
from coldwater.net import fairplay as fp
from coldwater.net.identity import Identity
from coldwater.net.session import PresenceChanged, TableHost, TablePeer, bot_chooser

from ..toygame import GAME, Hold, Roll

CONTRIBUTION = b"\x07" * 32
"""Every seat's seed contribution in these tests (patched in), so the dice are known in advance."""


def _greedy(view: State[Any, Any], seat: int) -> Any:
    d = view.data
    return Roll() if d.banked[seat] + d.pot < 15 else Hold()


def _secret_where_the_host_wins_its_first_turn(joint: bytes) -> bytes:
    """A dealer secret under which seat 0, playing greedily, wins before seat 1 ever moves."""
    for i in range(10_000):
        secret = i.to_bytes(32, "big")
        dealer = fp.CommittedDealer(secret)
        dealer.start(joint)
        st = GAME.new(2, seed=fp.game_seed(joint))
        while st.current in (CHANCE, 0):
            st.apply(dealer.outcome(st) if st.current == CHANCE else _greedy(st, 0))
        if st.is_over:
            return secret
    raise AssertionError("no such secret in 10 000 tries")


async def test_a_game_that_ends_while_a_seat_is_away_waits_for_that_player(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fp, "new_contribution", lambda: CONTRIBUTION)
    secret = _secret_where_the_host_wins_its_first_turn(fp.joint_seed({0: CONTRIBUTION, 1: CONTRIBUTION}))
    away = asyncio.Event()

    async def host_seat(view: State[Any, Any], seat: int) -> Any:
        await away.wait()  # the host's seat plays only once peer a has gone
        return _greedy(view, seat)

    host = TableHost(GAME, Identity.generate(), name="t", seats=["host", "open"], bind="127.0.0.1",
                     chooser=host_seat)
    host.dealer = fp.CommittedDealer(secret)
    host.end_grace = 30.0  # bounds the test if the table did not wait as it should
    host.subscribe(lambda e: away.set() if isinstance(e, PresenceChanged) and e.away else None)
    port = await host.listen()
    a = TablePeer(GAME, Identity.generate(), name="a", chooser=bot_chooser(GAME), bind="127.0.0.1",
                  save_dir=tmp_path)
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
    save = TablePeer.load_save(a.save_path)  # type: ignore[arg-type]
    assert save is not None and len(save.steps) < host.result.plies
    a2 = TablePeer(GAME, a.identity, name="a", chooser=bot_chooser(GAME), bind="127.0.0.1", save_dir=tmp_path)
    await a2.join("127.0.0.1", port, resume=save)
    res = await asyncio.wait_for(a2.run(), 10)
    assert res.audit_ok and res.digest == host.result.digest, res.problems
    await asyncio.wait_for(ht, 10)  # and the table closes once a has the result, not after its grace
    assert not (tmp_path / "lan-peer-t.json").exists()  # a's finished game is no longer "to resume"
