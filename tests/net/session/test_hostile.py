"""A hostile peer at a loopback table: every bad message refused, nothing changed, the game goes on."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from coldwater.net.identity import Identity
from coldwater.net.session import TableHost, TablePeer, bot_chooser

from ...toygame import GAME, Hold, Roll
from ..hostile import KINDS, HostilePeer


async def test_every_kind_of_bad_message_is_refused_without_effect(tmp_path: Path) -> None:
    async def cautious(view: Any, seat: int) -> Any:
        # Banks at most 6 a turn, so the game cannot end before the hostile seat has moved;
        # slow, so a move sent during the host's turn is surely out of turn.
        await asyncio.sleep(0.2)
        return Hold() if view.data.pot > 0 else Roll()

    host = TableHost(
        GAME, Identity.generate(), name="t", seats=["host", "open", "open"], chooser=cautious, bind="127.0.0.1"
    )
    port = await host.listen()
    bad = HostilePeer(GAME, Identity.generate(), name="bad", bind="127.0.0.1")
    good = TablePeer(GAME, Identity.generate(), name="good", chooser=bot_chooser(GAME), bind="127.0.0.1")
    seen: dict[str, tuple[str, int]] = {}

    async def check(when: str) -> None:
        assert host.table is not None
        seen[when] = (host.table.state.digest(), len(host.refusals))
        if when == "after":
            # The host was waiting for our move: no bad message may have changed anything.
            assert seen["after"][0] == seen["before"][0]
            assert seen["after"][1] > seen["before"][1]

    bad.on_barrage = check

    async def go() -> None:
        htask = asyncio.ensure_future(host.run())
        await bad.join("127.0.0.1", port)
        await good.join("127.0.0.1", port)
        await asyncio.gather(htask, bad.run(), good.run())

    await asyncio.wait_for(go(), 60)
    assert set(bad.sent) == set(KINDS)
    text = "\n".join(host.refusals)
    for reason in (
        "malformed",
        "unsigned",
        "forged",
        "tampered",
        "replayed",
        "stale",
        "illegal",
        "not a move",
        "peers may not send",
        "no commitment is due",
        "out of turn",
        "announced",
    ):
        assert reason in text, (reason, text)
    assert host.result is not None and bad.result is not None and good.result is not None
    assert bad.result.digest == good.result.digest == host.result.digest
    assert good.result.audit_ok and bad.result.audit_ok
