"""A host that cheats, one chosen way at a time, built on the real TableHost.

Each attack is one of the ways an independent audit (issue 13) broke the LAN
promises; the tests in test_attacks.py check that honest peers now refuse or
name each of them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from coldwater.net import beacon
from coldwater.net import messages as m
from coldwater.net.session import TableHost
from coldwater.net.session.host.seedround import Seeding, SeedRound
from coldwater.net.session.host.shared import Remote
from coldwater.net.session.persist import pack_view, unpack_view
from coldwater.net.transport import Connection

ATTACKS = ("swap", "play-for", "grind", "fake-end", "false-view", "rewrite", "forge-final")


class HostileHost(TableHost):
    def __init__(self, *a: Any, attack: str, victim: int = 1, **kw: Any) -> None:
        super().__init__(*a, **kw)
        assert attack in ATTACKS, attack
        self.attack = attack
        self.victim = victim
        self.done = 0
        """How many times the attack was carried out."""
        # The table asks the host's relay for a remote seat's move (relay.py): the attack stands in front of it.
        self._honest_remote = self.relay.remote
        self.relay.remote = self._remote  # type: ignore[method-assign]
        if attack == "grind":
            # The seed rounds are the connections' too (a Commit goes there): both hold the grinding ones.
            self.seeding = self.connections.seeding = Grinding(self)
        self._honest_serve = self.connections.serve
        self.connections.serve = self._serve  # type: ignore[method-assign]

    # ---- moves -------------------------------------------------------------------
    async def _remote(self, seat: int, view: Any) -> Any:
        if seat == self.victim and self.attack == "play-for" and self.done < 1:
            self.done += 1
            return view.legal()[-1]  # the host's own choice, sent as if the seat had played it
        action = await self._honest_remote(seat, view)
        if seat == self.victim and self.attack == "swap" and self.done < 1:
            others = [a for a in view.legal() if a != action]
            if others:
                self.done += 1
                return others[0]  # another legal move, relayed with the seat's signature of the first
        return action

    # ---- what goes out -------------------------------------------------------------
    async def _serve(self, r: Remote, conn: Connection) -> None:
        send: Callable[[Any], None] = conn.send_nowait

        def tampered(msg: Any) -> None:
            out = self.tamper(r.seat, msg)
            if out is not None:
                send(out)

        conn.send_nowait = tampered  # type: ignore[method-assign]
        await self._honest_serve(r, conn)

    def tamper(self, seat: int, msg: Any) -> Any:
        if self.attack == "fake-end" and isinstance(msg, m.End):
            self.done += 1
            return msgspec.structs.replace(msg, digest=b"\x00" * 32)
        if self.attack == "false-view" and seat == self.victim and isinstance(msg, m.Step) and msg.reveal:
            # A sealed value whose reveal matches its commitment, in a view that holds another one.
            view = unpack_view(self.game, msg.view or b"", msg.ply)
            view.data.secret[seat] = view.data.secret[seat] % 3 + 1
            self.done += 1
            return msgspec.structs.replace(msg, view=pack_view(view))
        if (
            self.attack == "rewrite"
            and seat == self.victim
            and isinstance(msg, m.Step)
            and msg.ply >= 8
            and not self.done
            and self.table is not None
        ):
            # Instead of this step, a resync nobody asked for that rewrites ply 3 of the victim's record.
            self.done += 1
            steps = list(self.record.steps[2 : msg.ply])
            steps[0] = msgspec.structs.replace(steps[0], digest=b"\x11" * 32)
            return m.Sync(ply=msg.ply, view=pack_view(self.table.state.view(seat)), steps=steps)
        if self.attack == "forge-final" and isinstance(msg, m.Finals):
            self.done += 1
            return m.Finals(
                finals=[msgspec.structs.replace(f, digest=b"\x22" * 32) if f.seat != seat else f for f in msg.finals]
            )
        return msg


class Grinding(Seeding):
    """The seed rounds of a host grinding for a deal it likes: it runs whole rounds and, having seen every
    reveal, throws the seed away and starts again, silently (always "round 1")."""

    def __init__(self, host: HostileHost) -> None:
        super().__init__(
            host.record,
            host,
            host.tasks,
            host,
            host,
            relay=host.relay,
            fair_host=host.fair_host,
            filled=host.filled,
            auto_start=True,
        )
        self.hostile = host

    async def run(self) -> None:
        host = self.hostile
        while True:
            await host.tasks.wait(lambda: host.filled())
            rnd = SeedRound(sorted(host.remotes) + [host.host_seat], host.host_seat, beacon.Chain(host.host_seat).tip)
            self.round = rnd
            host.broadcast(m.CommitRequest())
            if not await host.tasks.wait(lambda: rnd.all_committed or not host.filled(), 5):
                raise RuntimeError("the peer stopped committing")
            host.broadcast(m.Commits(commits=rnd.commits, dealer=host.dealer.commitment))
            rnd.reveal_own()
            if not await host.tasks.wait(lambda: rnd.done or not host.filled(), 5):
                raise RuntimeError("the peer stopped revealing")
            self.round = None
            host.done += 1
