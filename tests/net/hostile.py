"""A peer that plays its seat with the bot but also sends every kind of bad message.

Used in-process by test_hostile.py and as a process in the namespace tests
(``python -m tests.net.hostile HOST:PORT``). Each kind of bad input is sent
once; the host must refuse each with a logged reason, change nothing, and let
the game go on (the oversized frame makes it close the connection; this peer
then reconnects and resumes, which is the other half of the contract).
"""

from __future__ import annotations

import asyncio
import importlib
import json
import sys
from typing import Any

from coldwater.net import fairplay as fp
from coldwater.net import messages as m
from coldwater.net.identity import Identity
from coldwater.net.play.framing import MAX_FRAME
from coldwater.net.session import TablePeer, bot_chooser

KINDS = (
    "malformed",
    "unsigned",
    "forged",
    "tampered",
    "replayed",
    "stale",
    "illegal",
    "not-a-move",
    "host-only",
    "commit",
    "out-of-turn",
    "oversized",
)


class HostilePeer(TablePeer):
    def __init__(self, game: Any, identity: Identity, **kw: Any) -> None:
        super().__init__(game, identity, chooser=bot_chooser(game), **kw)
        self.sent: list[str] = []
        self._barrages = 0
        self.seen: set[str] = set()
        """Every action notation ever legal somewhere: a source of moves illegal now."""
        self.on_barrage: Any = None
        """Test hook: awaited before and after each barrage (to check the host's state)."""

    async def _handle(self, conn: Any, msg: m.Message) -> None:
        await super()._handle(conn, msg)
        if not isinstance(msg, m.Step):
            return
        st = self.state
        if st is None:
            return
        self.seen.update(str(a) for a in st.legal())
        # The host's own bot thinks slowly in these tests, so a move sent now surely
        # arrives while it is the host's turn, not ours.
        if "out-of-turn" not in self.sent and st.current == self.host_seat != self.seat and self.conn:
            self.conn.send_nowait(m.Act(ply=st.ply, action=str(st.legal()[0])))
            self.sent.append("out-of-turn")

    async def _move(self, view: Any) -> None:
        if self._barrages == 0 and self.conn is not None:
            self._barrages = 1
            if self.on_barrage:
                await self.on_barrage("before")
            self._barrage(view)
            await self.conn.drain()
            await asyncio.sleep(0.2)
            if self.on_barrage:
                await self.on_barrage("after")
            await super()._move(view)  # the real move, which the host must still accept
            # Last, because the host must close the connection on it; we then reconnect and resume.
            if self.conn is not None:
                self.conn.writer.write((MAX_FRAME + 1).to_bytes(4, "big") + b"\x00" * 64)
                self.sent.append("oversized")
            return
        await super()._move(view)

    def _barrage(self, view: Any) -> None:
        conn = self.conn
        assert conn is not None
        ch = conn.channel
        legal = view.legal()
        act = m.encode(m.Act(ply=view.ply, action=str(legal[0])))
        conn.send_raw(ch.seal(b"\xc1 not a message"))
        self.sent.append("malformed")
        # The channel authenticates every frame, so "unsigned" and "forged" live where a
        # signature proves something: a move without its seat's signature, or signed by someone else.
        conn.send_nowait(m.Act(ply=view.ply, action=str(legal[0])))
        self.sent.append("unsigned")
        stranger = Identity.generate()
        conn.send_nowait(
            m.Act(
                ply=view.ply,
                action=str(legal[0]),
                sig=stranger.sign(fp.act_message(self.record.joint, view.ply, self.seat, str(legal[0]))),
            )
        )
        self.sent.append("forged")
        frame = bytearray(ch.seal(act))
        frame[-1] ^= 0xFF
        conn.send_raw(bytes(frame))
        self.sent.append("tampered")
        ping = ch.seal(m.encode(m.Ping(t=1.0)))
        conn.send_raw(ping)
        conn.send_raw(ping)  # the same frame again
        conn.send_raw(ch.encrypt(m.encode(m.Ping(t=2.0)), counter=1))  # an old counter, freshly sealed
        self.sent.append("replayed")
        conn.send_nowait(m.Act(ply=view.ply - 1, action=str(legal[0])))
        self.sent.append("stale")
        now = {str(x) for x in legal}
        illegal = next((a for a in sorted(self.seen) if a not in now), None)
        if illegal is not None:
            conn.send_nowait(m.Act(ply=view.ply, action=illegal))
            self.sent.append("illegal")
        conn.send_nowait(m.Act(ply=view.ply, action="no-such-move 1 2"))
        self.sent.append("not-a-move")
        conn.send_nowait(m.End(dealer_secret=b"x", digest=b"0"))
        self.sent.append("host-only")
        conn.send_nowait(m.Commit(digest=b"\x00" * 32))
        self.sent.append("commit")


async def _main(argv: list[str]) -> int:
    target, *rest = argv
    module = rest[rest.index("--game-module") + 1] if "--game-module" in rest else None
    host, _, port = target.rpartition(":")
    from coldwater.core import games
    from coldwater.net.transport import Refusal, probe

    for _ in range(100):  # the host may still be starting
        try:
            game_name, _, _ = await probe(host, int(port))
            break
        except Refusal:
            await asyncio.sleep(0.2)
    else:
        raise SystemExit("hostile: no table at " + target)
    game = importlib.import_module(module).GAME if module else games.get(game_name)
    from coldwater.net.identity import load_or_create
    from coldwater.net.play import paths

    peer = HostilePeer(game, load_or_create(), name="hostile", save_dir=paths.data_dir() / "lan")
    await peer.join(host, int(port))
    res = await asyncio.wait_for(peer.run(), 120)
    print(
        json.dumps(
            {
                "role": "hostile",
                "digest": res.digest,
                "sent": peer.sent,
                "audit_ok": res.audit_ok,
                "scores": res.scores,
            },
            sort_keys=True,
        ),
        flush=True,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(asyncio.run(_main(sys.argv[1:])))
