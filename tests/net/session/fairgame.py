"""A whole fair-dealer game in one process: the real TableHost and TablePeers over the in-memory network.

The tests' one way to play a fair table (net/memlink.py: every message encoded and decoded as
on the wire, the host's own relay between the seats). What a test adds, it adds from outside:

- a **looker** called after every step of every process's driver (``FairDriver.looker``, the
  hook the memory probe uses), which may read that process's seat, keep a copy of it, or stop
  the game (:meth:`FairGame.stop`); what it raises is kept and raised once the game is over;
- a **tamperer** (:data:`Tamper`) for a seat played at a peer: a filter on the in-memory
  network (``MemoryNetwork(outgoing=…)``) that decodes each fair message the seat's process
  sends, lets the tamperer rewrite or withhold what is in it, and signs the result with that
  process's own key, as a dishonest program would (the seat's own copy stays the honest one);
- every process's end-of-game audit (:class:`~coldwater.net.fairdeal.gameaudit.FairAudit`), kept
  by seat (None: a seatless host's observer).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import msgspec

from coldwater.core.rng import Rng
from coldwater.core.state import Game, State
from coldwater.net import messages as m
from coldwater.net.fairdeal.gameaudit import FairAudit
from coldwater.net.fairdeal.seat import FairSeat
from coldwater.net.fairdeal.wire import KeyReveal, KeyShare, ShuffledDeck, Strip, Word
from coldwater.net.identity import Identity
from coldwater.net.memlink import MemoryNetwork
from coldwater.net.session import TableHost, TablePeer
from coldwater.net.session.fairtable import FairDriver
from coldwater.net.session.fairwire import STRIP_KINDS, fair_message

Tamper = Callable[[str, int, Any], Any]
"""(round, ply, what the seat sends) → what a dishonest seat sends instead (None: it withholds it).

Rounds: ``key`` (a KeyShare), ``pass`` (a ShuffledDeck), ``link`` (bytes), ``deal``, ``act`` and
``pass-on`` (each Strip of the round, one at a time), ``word`` (a Word), ``reveal`` (a KeyReveal)."""

Looker = Callable[["FairGame", FairDriver], None]

ROUNDS: dict[str, tuple[str, Any]] = {
    "key": ("key", KeyShare),
    "pass": ("pass", ShuffledDeck),
    "link": ("link", bytes),
    "deal": ("deal", Strip),
    "astrips": ("act", Strip),
    "word": ("word", Word),
    "pstrips": ("pass-on", Strip),
    "keyreveal": ("reveal", KeyReveal),
}
"""A fair message's kind → the tamperer's round, and what its body holds (a strip round: a list of them)."""

_enc = msgspec.msgpack.Encoder()


def joint(tag: str) -> bytes:
    return (tag.encode() * 32)[:32]


def bots_chooser(game: Game[Any, Any], bots: Sequence[str]) -> Any:
    """Seat s plays bot ``bots[s % len(bots)]`` (a mix plays shorter and more varied games than one bot)."""
    players = [game.bot(b) for b in bots]

    async def choose(view: State[Any, Any], seat: int) -> Any:
        bot = players[seat % len(players)]
        return await asyncio.to_thread(bot.choose, view, Rng(f"fair-game/{seat}/{view.ply}"))

    return choose


@dataclass
class FairGame:
    game: Game[Any, Any]
    net: MemoryNetwork
    host: TableHost
    peers: list[TablePeer]
    audits: dict[int | None, FairAudit] = field(default_factory=dict)
    """Every process's end-of-game audit, by seat (None: a seatless host's observer)."""
    failures: list[BaseException] = field(default_factory=list)
    """What a looker raised (raised again once the game is over)."""
    stopped: asyncio.Event = field(default_factory=asyncio.Event)
    host_task: asyncio.Future[Any] | None = None
    """The host's run (a test may cancel it: the host's process is gone)."""

    def drivers(self) -> dict[int | None, FairDriver]:
        """Every process's driver by seat: the host's seat, its bots', its observer (None), each peer's."""
        fh = self.host.fair_host
        out: dict[int | None, FairDriver] = {}
        for d in [*fh.local_drivers(), *(p.fair_peer.fair for p in self.peers)]:
            if d is not None:
                out[d.fs.seat] = d
        return out

    def seats(self) -> list[FairSeat]:
        """Every seat's FairSeat, by seat (each in its own process at a real table)."""
        return [d.fs for s, d in sorted((s, d) for s, d in self.drivers().items() if s is not None)]

    @property
    def observer(self) -> FairSeat | None:
        """A seatless host's observer (no key, no layer), if the host runs one."""
        w = self.host.fair_host.fair_watch
        return w.fs if w is not None else None

    def peer_of(self, seat: int) -> TablePeer:
        return next(p for p in self.peers if p.seat == seat)

    def stop(self) -> None:
        """End the game here (a looker has what it came for): every process is closed."""
        self.stopped.set()


def _tamperer(g: FairGame, tamper: dict[int, Tamper]) -> Callable[[bytes, m.Message], m.Message | None]:
    """The network's filter: a tampered seat's own messages, as its process sends them (the host's relay
    of them, and every other message, pass as they are)."""

    def outgoing(sender: bytes, msg: m.Message) -> m.Message | None:
        if not isinstance(msg, m.Fair) or msg.seat not in tamper or msg.kind not in ROUNDS:
            return msg
        p = next((p for p in g.peers if p.identity.public == sender), None)
        if p is None or p.seat != msg.seat or p.fair_peer.fair is None:
            return msg
        return _rewrite(msg, tamper[msg.seat], p.identity, p.fair_peer.fair.fs.joint)

    return outgoing


def _rewrite(msg: m.Fair, t: Tamper, identity: Identity, table_joint: bytes) -> m.Fair | None:
    round_, kind = ROUNDS[msg.kind]
    if msg.kind in STRIP_KINDS:
        strips = msgspec.msgpack.decode(msg.body, type=list[Strip])
        kept = [x for x in (t(round_, msg.ply, s) for s in strips) if x is not None]
        if strips and not kept:
            return None  # every strip withheld: the message is not sent
        body = _enc.encode(kept)
    elif kind is bytes:
        new = t(round_, msg.ply, msg.body)
        if new is None:
            return None
        body = new
    else:
        new = t(round_, msg.ply, msgspec.msgpack.decode(msg.body, type=kind))
        if new is None:
            return None
        body = _enc.encode(new)
    if body == msg.body:
        return msg
    signed = fair_message(table_joint, msg.kind, msg.ply, msg.ref, msg.seat, body, msg.digest)
    return msgspec.structs.replace(msg, body=body, sig=identity.sign(signed))


def _hook_drivers(g: FairGame, looker: Looker | None) -> None:
    """On every driver as it is made (each process's `begin`): keep its audit, and call the looker after its steps."""

    def hook(drv: FairDriver) -> None:
        audit = drv.audit

        async def kept(reveals: Any) -> FairAudit:
            rep = await audit(reveals)
            g.audits[drv.fs.seat] = rep
            return rep

        drv.audit = kept  # type: ignore[method-assign]
        if looker is not None:

            def look() -> None:
                if g.failures:
                    return
                try:
                    looker(g, drv)
                except BaseException as e:  # (pytest's own failures too) kept, and raised after the game
                    g.failures.append(e)
                    g.stop()

            drv.looker = look

    def wrap(proc: Any, drivers: Callable[[], list[FairDriver | None]]) -> None:
        orig = proc.begin

        def begin(*a: Any) -> None:
            orig(*a)
            for d in drivers():
                if d is not None:
                    hook(d)

        proc.begin = begin

    fh = g.host.fair_host
    wrap(fh, lambda: list(fh.local_drivers()))
    for p in g.peers:
        wrap(p.fair_peer, lambda p=p: [p.fair_peer.fair])  # type: ignore[misc]


async def play_fair(
    game: Game[Any, Any],
    seats: int | list[str],
    *,
    options: Any = None,
    bots: Sequence[str] = ("greedy", "random"),
    tamper: dict[int, Tamper] | None = None,
    looker: Looker | None = None,
    strip_timeout: float | None = None,
    prepare: Callable[[FairGame], None] | None = None,
    peer_kw: dict[str, Any] | None = None,
    timeout: float = 400.0,
) -> FairGame:
    """A whole game at a fair table (`seats` as TableHost takes them; a number: the host's seat and the
    rest open), played to its end or until a looker stops it. Every seat's bot is from `bots`."""
    kinds = seats if isinstance(seats, list) else ["host"] + ["open"] * (seats - 1)
    for s in tamper or {}:
        assert kinds[s] == "open", "a tampered seat is played at a peer (its own process's link)"
    net = MemoryNetwork()
    choose = bots_chooser(game, bots)
    host = TableHost(
        game,
        Identity.generate(),
        name="fair",
        seats=kinds,
        chooser=choose,
        dealer="fair",
        watchers=0,
        options=options,
        network=net,
    )
    if strip_timeout is not None:
        host.fair_host.timer.strip_timeout = strip_timeout
    peers = [
        TablePeer(game, Identity.generate(), name=f"p{i}", chooser=choose, network=net, **(peer_kw or {}))
        for i in range(kinds.count("open"))
    ]
    g = FairGame(game, net, host, peers)
    if tamper:
        net.outgoing = _tamperer(g, tamper)  # (read by each link as it is made: every link is made below)
    _hook_drivers(g, looker)
    if prepare is not None:
        prepare(g)
    port = await host.listen()
    task = g.host_task = asyncio.ensure_future(host.run())
    for p in peers:
        await p.join("127.0.0.1", port)
    runs = asyncio.ensure_future(asyncio.gather(task, *(p.run() for p in peers), return_exceptions=True))
    stop = asyncio.ensure_future(g.stopped.wait())
    try:
        await asyncio.wait_for(asyncio.wait([runs, stop], return_when=asyncio.FIRST_COMPLETED), timeout)
    finally:
        stop.cancel()
        if not runs.done():
            runs.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await runs
            for d in g.drivers().values():
                d.close()
            await host.close()
            for p in peers:
                await p.close()
    if g.failures:
        raise g.failures[0]
    if not g.stopped.is_set():
        # (A host a test made go away ends cancelled; the seats' runs carry on without it.)
        errors = [
            r for r in runs.result() if isinstance(r, BaseException) and not isinstance(r, asyncio.CancelledError)
        ]
        assert not errors, errors
    return g
