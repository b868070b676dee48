"""Shared moves of the in-process LAN tests: a cautious player, a peer that crashes."""

from __future__ import annotations

import asyncio
from typing import Any

from coldwater.net.session import TablePeer

from ...toygame import Hold, Roll


async def cautious(view: Any, seat: int) -> Any:
    """Banks at most 6 a turn: the game cannot end while another seat is away for a turn."""
    await asyncio.sleep(0.005)
    return Hold() if view.data.pot > 0 else Roll()


async def crash_at_ply(peer: TablePeer, task: asyncio.Future[Any], ply: int) -> None:
    """Let `peer` play until the game reaches `ply`, then kill its task: no goodbye is sent."""
    async with asyncio.timeout(20):
        while peer.state is None or peer.state.ply < ply:
            await asyncio.sleep(0.01)
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)
