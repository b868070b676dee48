"""A seated peer that plays until the game starts, then stops reading and floods the host.

``python -m tests.net.session.flood HOST:PORT MODE SECONDS [--game-module M]``; MODE is
``mismatch`` (resync requests, each of which used to cost the host a full Sync),
``junk`` (moves that are not moves), ``chat``, or at a fair-dealer table ``signed`` (its own
seat's messages, genuinely signed, each with a fresh reference). Prints one JSON line: what it
sent and whether the host sent it away.
"""

from __future__ import annotations

import asyncio
import importlib
import json
import sys
import time
from typing import Any

from coldwater.net import messages as m
from coldwater.net.session import TablePeer, bot_chooser
from coldwater.net.session.fairwire import fair_message
from coldwater.net.transport import Connection, Refusal


class Flooder(TablePeer):
    def __init__(self, game: Any, identity: Any, *, mode: str, seconds: float, **kw: Any) -> None:
        super().__init__(game, identity, chooser=bot_chooser(game), **kw)
        self.mode, self.seconds, self.sent = mode, seconds, 0
        self.kicked = False
        """The host closed our connection before the flood was over."""

    def _one(self) -> m.Message:
        if self.mode == "signed":
            # At a fair-dealer table: a message of our own seat, genuinely signed, each with a fresh
            # reference (a pass of a deck that does not exist), as a modified client could send.
            assert self.fair_peer.fair is not None
            fs, self.n = self.fair_peer.fair.fs, getattr(self, "n", 0) + 1
            ref, body, d = f"deck/{self.n}", b"\x00" * 2048, self.fair_peer.fair.digest()
            sig = self.identity.sign(fair_message(fs.joint, "pass", fs.view.ply, ref, self.seat, body, d))
            return m.Fair(kind="pass", ply=fs.view.ply, seat=self.seat, body=body, sig=sig, ref=ref, digest=d)
        if self.mode == "mismatch":
            return m.Mismatch(ply=0, digest=b"\x00" * 32)
        if self.mode == "junk":
            return m.Act(ply=0, action="no-such-move")
        return m.Chat(text="x" * 500)

    async def _serve_messages(self, conn: Connection) -> None:
        while self.state is None:  # take part honestly until the game starts
            msg = await conn.recv()
            if msg is None:
                return
            await self._handle(conn, msg)
        end = time.monotonic() + self.seconds
        while time.monotonic() < end and not conn.closed:  # and from now on never read
            for _ in range(100):
                conn.send_nowait(self._one())
                self.sent += 1
            try:
                await asyncio.wait_for(conn.drain(), 1.0)
            except TimeoutError:
                pass
            await asyncio.sleep(0.005)
        self.kicked = conn.closed and time.monotonic() < end
        raise Refusal("flood over")


async def _main(argv: list[str]) -> int:
    target, mode, seconds, *rest = argv
    module = rest[rest.index("--game-module") + 1] if "--game-module" in rest else None
    host, _, port = target.rpartition(":")
    from coldwater.core import games
    from coldwater.net.identity import Identity
    from coldwater.net.transport import probe

    for _ in range(100):  # the host may still be starting
        try:
            game_name, _, _ = await probe(host, int(port))
            break
        except Refusal:
            await asyncio.sleep(0.2)
    else:
        raise SystemExit("flood: no table at " + target)
    game = importlib.import_module(module).GAME if module else games.get(game_name)
    peer = Flooder(game, Identity.generate(), mode=mode, seconds=float(seconds), name="flood")
    await peer.join(host, int(port))
    try:
        await asyncio.wait_for(peer.run(), float(seconds) + 60)
    except Refusal:
        pass
    closed_by_host = peer.kicked
    print(
        json.dumps(
            {
                "role": "flood",
                "mode": mode,
                "sent": peer.sent,
                "closed_by_host": closed_by_host,
                "problems": peer.problems[-3:],
            }
        ),
        flush=True,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(asyncio.run(_main(sys.argv[1:])))
