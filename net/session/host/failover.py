"""Host failover: what a new host gathers before play resumes, and how peers pick it.

When the host goes away, every remaining peer computes the same candidate
list from the seat list they all received (the lowest present remote seat
first). The chosen peer becomes a :class:`~.host.TableHost` built from its own
save; the others join it with their escrow shares and records, which a
:class:`FailoverGather` collects until the dealer's secret can be rebuilt (a
game with no sealed values has no secret: the new host waits a moment for the
records and goes on drawing in public with its own beacon chain).

**At a fair-dealer table** (docs/fairplay.md) there is no secret to gather: the new
host keeps its own :class:`~.fairtable.FairDriver` and relays every message it holds
(a :class:`Handover` with its driver). Every seat's layer is still needed for
every card, the old host's included, so the old host's seat must come back: its
process writes its seat's save (:func:`fair_peer_save`, the secrets before they are
used) and, restarted, joins the new host as a peer (``coldwater join TABLE``). The
new host waits for it (``FAIR_RETURN_WAIT``) as for any away seat.

A peer that becomes the host describes what it hands over in one :class:`Handover`;
:meth:`~.host.TableHost.from_handover` builds the host from it, each of the host's
pieces taking its part at construction, and :class:`Takeover` is the host side of the
failover (what it gathers, then the position rebuilt), reached through
:class:`~.hostcore.HostCore`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final

import msgspec

from coldwater.core import record

from ... import beacon
from ... import fairplay as fp
from ... import messages as m
from ..persist import PeerSave, SavedSeat, public_step, with_fair
from .hostcore import HostPhase

if TYPE_CHECKING:
    from ...admission import Guard
    from ..fairtable import FairDriver
    from .hostcore import HostCore

FAIR_SAVE_EVERY: Final = 0.25
"""Seconds between writes of a fair seat's save as the game goes (its secrets are written at once): a seat
restarted from an older save catches up from the messages the host relays, so a write per step would
only cost time (the whole transcript, a few hundred KB by the end)."""
FAIR_RETURN_WAIT: Final = 120.0
EX_HOST_WAIT: Final = 15.0
"""After a failover, seconds the old host's seat has to come back before a round waiting on it ends the
game by its forfeit: it was silent long enough already to be replaced (frozen, or cut off for good)."""
"""Seconds a fair table waits for an away seat to come back (its process restarted from its save,
the old host's after a failover) before the game ends naming it: no one else holds its layer."""
GATHER_GRACE: Final = 8.0
"""Seconds a new host with no escrow to rebuild waits for the other peers' records before play resumes."""


@dataclass(frozen=True)
class Handover:
    """What a peer hands the host it becomes after the old host went away (built by the peer, taken by
    :meth:`~.host.TableHost.from_handover`). Its listener, already bound to the port it advertised, hands
    new connections to that host."""

    save: PeerSave
    """The peer's save: the table, the seats and their keys, the seed round's commitments and reveals."""
    share: bytes = b""
    """Its escrow share of the dealer's secret (a committed table with sealed values)."""
    steps: list[m.Step] = field(default_factory=list)
    """Every step it applied."""
    chain: beacon.Chain | None = None
    """Its beacon chain (a committed table: the new host's contribution to every public draw)."""
    fair: FairDriver | None = None
    """At a fair-dealer table: its own seat's rounds, which go on as they were (None: a committed table)."""
    on_step: Callable[[], None] | None = None
    """At a fair-dealer table: what the peer still does after each step of its driver (before the host's part)."""
    guard: Guard | None = None
    """Its listener's guard: one count of unfinished handshakes per socket (None: the host makes its own)."""

    @property
    def seat(self) -> int:
        """Our seat, the new host's."""
        return self.save.seat

    def seat_kinds(self) -> list[str]:
        """The seat kinds of the new host's table: at a fair table every other seat comes back as a remote
        one (the old host's too: its layer is needed for every card); else as :func:`kinds_for_new_host`."""
        if self.fair is not None:
            return ["host" if s.seat == self.seat else "open" for s in self.save.seats]
        return kinds_for_new_host(self.save, self.seat)


class FailoverGather:
    """Every remote peer's share and steps, offered as they rejoin the new host."""

    def __init__(
        self, save: PeerSave, own_seat: int, own_share: bytes, own_steps: list[m.Step], on_change: Callable[[], None]
    ) -> None:
        self.save = save
        self.own_seat = own_seat
        self.shares: dict[int, bytes] = {own_seat: own_share}
        self.steps: dict[int, list[m.Step]] = {own_seat: own_steps}
        self._on_change = on_change

    def offer(self, seat: int, join: m.Join) -> None:
        if join.share:
            self.shares[seat] = join.share
        self.steps[seat] = list(join.steps)
        self._on_change()

    def ready(self) -> bool:
        need = {s.seat for s in self.save.seats if s.kind == "remote" and s.seat != self.save.host_seat}
        return need <= set(self.shares)

    def all_offered(self) -> bool:
        """Every other remote peer has rejoined with its record (what a new host with no escrow waits for)."""
        need = {s.seat for s in self.save.seats if s.kind == "remote" and s.seat != self.save.host_seat}
        return need <= set(self.steps)

    def best_steps(self) -> list[m.Step]:
        """The longest record among the peers that agrees with ours (a peer may have seen one step more)."""
        mine = self.steps[self.own_seat]
        best = mine
        for st in self.steps.values():
            if len(st) > len(best) and [s.digest for s in st[: len(mine)]] == [s.digest for s in mine]:
                best = st
        return [public_step(s) for s in best]


class Takeover:
    """The host side of a failover (``TableHost.took_over``): at a committed table it gathers the
    peers' escrow shares and records as they rejoin (:class:`FailoverGather`), then rebuilds the
    position and play resumes (:meth:`resume`). A fair table's takeover gathers nothing: its rounds
    go on in :class:`~.fairhost.FairHost`, which took the driver from the handover."""

    def __init__(self, host: HostCore, handover: Handover) -> None:
        self.host = host
        self.handover = handover
        self.gather: FailoverGather | None = (
            None
            if handover.fair is not None
            else FailoverGather(handover.save, handover.seat, handover.share, list(handover.steps), host.wake)
        )

    def offer(self, seat: int, join: m.Join) -> None:
        """A peer rejoined while this host gathers: its share and record."""
        assert self.gather is not None
        self.gather.offer(seat, join)

    async def resume(self) -> None:
        """Rebuild the dealer's secret (if the game has one) and the position from the gathered records,
        then play on from there, with fresh escrow shares for the peers now at the table."""
        host, fo = self.host, self.gather
        assert fo is not None
        secret: bytes | None = None
        if fp.has_sealed_values(host.game):
            await host.wait(lambda: fo.ready(), None)
            secret = fp.combine_shares(fo.shares.values())
            if fp.dealer_commitment(secret) != fo.save.dealer_commit:
                raise fp.FairPlayError("the escrow shares do not rebuild the dealer's committed secret", ["dealer"])
            host.dealer = fp.CommittedDealer(secret)
        else:
            # Every draw is public: no secret to rebuild, only the peers' records to wait for a while.
            await host.wait(lambda: fo.all_offered(), GATHER_GRACE)
            host.dealer_ok = False
        host.dealer.start(host.joint)
        if host.chain is None:
            raise fp.FairPlayError("this peer's save holds no beacon chain: it cannot draw in public as the host")
        book = beacon.Book(fp.tips(host.reveals))
        steps = fo.best_steps()
        state0 = host.game.new(host.info.players, seed=fp.game_seed(host.joint), options=host.options)
        rec = record.start(host.game, state0, host.options, meta={"table": host.name})
        try:
            state = fp.rebuild(
                host.game,
                host.info.players,
                host.options,
                host.joint,
                secret,
                steps,
                on_apply=lambda seat, a, s: record.append(rec, seat, a, s),
                keys=host.seat_keys,
                book=book,
            )
        except fp.FairPlayError as e:
            # The record was dealt by the old host: a record that does not rebuild is its doing.
            raise fp.FairPlayError(f"the old host's record does not check out: {e}", ["dealer"]) from None
        host.book = book
        host.steps = [public_step(s) for s in steps]
        host.failover_ply = len(host.steps)
        host.make_table(state, rec)
        host.phase = HostPhase.PLAYING
        # Fresh escrow shares of the same secret for the peers now at this table, so the
        # game survives this host going away too.
        host.seeding.split_escrow()
        for r in host.remotes.values():
            if r.present:
                host.relay.sync(r, 0, fair=True)
        host.lobby_changed()


def candidates(seats: list[m.SeatInfo], host_seat: int) -> list[m.SeatInfo]:
    """Remote peers that may host, lowest seat first (every peer computes the same list)."""
    return sorted((s for s in seats if s.kind == "remote" and s.seat != host_seat and not s.away), key=lambda s: s.seat)


def kinds_for_new_host(save: PeerSave, me: int) -> list[str]:
    """The seat kinds of the table a peer hosts after a failover: itself, the remote peers, bots."""
    kinds: list[str] = []
    for s in save.seats:
        if s.seat == me:
            kinds.append("host")
        elif s.kind == "remote" and s.seat != save.host_seat:
            kinds.append("open")
        else:
            kinds.append("bot")
    return kinds


def fair_peer_save(
    info: m.TableInfo,
    drv: FairDriver,
    *,
    host_seat: int,
    seats: list[m.SeatInfo],
    reveals: dict[int, bytes],
    commits: dict[int, bytes],
    listen_port: int,
    host_addr: str = "",
    host_port: int = 0,
) -> PeerSave:
    """A fair-dealer seat's save: its ``FairSave`` and what it needs to rejoin or host (no view: the
    restore replays the transcript). The host's own seat writes one too, to come back as a peer."""
    fs = drv.fs
    fair = fs.save()  # (a seat's: an observer keeps none)
    save = PeerSave(
        table=info,
        seat=fair.seat,
        host_addr=host_addr,
        host_port=host_port,
        host_seat=host_seat,
        joint=fs.joint,
        dealer_commit=b"",
        share=b"",
        seats=[SavedSeat(seat=s.seat, kind=s.kind, name=s.name, addr=s.addr, port=s.port, away=s.away) for s in seats],
        keys=dict(drv.keys),
        commits=dict(commits),
        reveals=dict(reveals),
        listen_port=listen_port,
        chain=fair.chain_end,
        fair_sent=drv.recent_own(),
    )
    return with_fair(save, msgspec.msgpack.encode(fair))
