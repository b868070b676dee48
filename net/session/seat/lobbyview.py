"""The table's company as a seat sees it: who sits where, who is away or played by a bot, chat, hand-overs.

The host's :class:`~messages.Lobby` names the seats (the host's key shown as its channel proved
it, never as the message claims), a :class:`~messages.Presence` says a seat went away, came back
or is played by the host's bot, and a :class:`~messages.HandOver` says another player handed our
seat, out of time, to a bot. This seat keeps the list, tells the app, and checks what concerns
its own seat against its own clock (docs/lan.md, "The turn clock"). The host's side is
``host/seating.py``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

import msgspec

from ... import messages as m
from ..events import ChatReceived, LobbyChanged, PresenceChanged
from ..turnclock import SLACK, fmt
from .shared import Outbox, PeerPhase

if TYPE_CHECKING:
    from coldwater.core.state import State

    from ...link import Link
    from ..standin import StandIn
    from ..turnclock import TurnClock
    from .fairpeer import FairPeer
    from .peersave import PeerSaves


class LobbySeat(Protocol):
    """What the lobby's messages read and write of the seat, beside the clock and the phases."""

    seat: int
    seats: list[m.SeatInfo]
    host_seat: int
    host_fingerprint: str
    """The key the host proved in the handshake ("" before it)."""
    watchers: list[m.WatcherInfo]
    botted: set[int]
    """Seats the host announced as played by its bot."""
    stand_in: StandIn | None
    problems: list[str]
    conn: Link | None
    state: State[Any, Any] | None
    phase: PeerPhase


class LobbyView:
    """The seats and watchers as this seat knows them, and hand-overs both ways (``TablePeer.lobby_view``)."""

    def __init__(self, out: Outbox, clock: TurnClock, fair_peer: FairPeer, saves: PeerSaves, seat: LobbySeat) -> None:
        self.out = out
        self.clock = clock
        self.fair_peer = fair_peer
        """At a fair table only this seat's own process plays it: the host's bot never does."""
        self.saves = saves
        """The seat's save, which keeps the seats as they are."""
        self.me = seat
        self.botted_idle = 0.0
        """Seconds our person had not moved when the host's bot last took our seat, by our own clock."""

    def on_lobby(self, msg: m.Lobby) -> None:
        c = self.me
        c.seats = _proved_host(
            msg.seats,
            msg.host_seat,
            c.host_fingerprint,
            lambda t: None if t in c.problems else self.out.problem(t),
        )
        c.host_seat = msg.host_seat
        c.watchers = list(msg.watchers)
        self.saves.update_seats()
        self.out.emit(LobbyChanged(msg.seats, msg.started, c.watchers))

    def on_chat(self, msg: m.Chat) -> None:
        name = next((s.name for s in self.me.seats if s.seat == msg.seat), f"Seat {msg.seat + 1}")
        self.out.emit(ChatReceived(msg.seat, name, msg.text))

    def on_presence(self, msg: m.Presence) -> None:
        c, clock = self.me, self.clock
        for i, s in enumerate(c.seats):
            if s.seat == msg.seat:
                c.seats[i] = msgspec.structs.replace(s, away=msg.away)
        if msg.by_bot:
            c.botted.add(msg.seat)
            if self.fair_peer.fair is None:
                self.out.problem(f"seat {msg.seat + 1} is played by the host's bot now")
                now = time.monotonic()
                if msg.seat == c.seat:
                    self.botted_idle = clock.elapsed(now) if clock.seat == c.seat else float(clock.turn)
                if msg.seat == c.seat and clock.seat == c.seat and clock.left(now) > SLACK:
                    # Our own clock is the authority on our time: not evidence (clocks differ), but seen.
                    self.out.problem(f"the host gave our seat to its bot with {fmt(clock.left(now))} left on our clock")
            # (At a fair table only the seat's own process can play it: the host's Notice says so.)
        else:
            c.botted.discard(msg.seat)
        self.saves.update_seats()
        self.out.emit(PresenceChanged(msg.seat, msg.away))

    def hand_over(self, seat: int) -> str | None:
        """Ask the table to hand `seat`, out of time by our clock, to a bot (the host checks its own).
        Returns why not (None: asked)."""
        c, clock = self.me, self.clock
        if c.conn is None or c.state is None or c.phase is not PeerPhase.PLAYING:
            return "no game is being played here now"
        if seat == c.seat:
            return "your own seat is handed over by the other players"
        now = time.monotonic()
        if not clock.running or clock.seat != seat:
            return f"seat {seat + 1}'s move is not being timed"
        if not clock.out(now):
            return f"seat {seat + 1} still has {fmt(clock.left(now))}"
        self.out.send(m.HandOver(seat=seat, ply=clock.ply))
        return None

    def on_hand_over(self, msg: m.HandOver) -> None:
        """The host says another player handed our seat, out of time, to a bot: our own bot takes it if
        our own clock agrees (a fair table; at a committed one the host's bot plays and Presence says so)."""
        c, st = self.me, self.me.stand_in
        if msg.seat != c.seat or st is None:
            self.out.problem(f"refused a hand-over of seat {msg.seat + 1} from the table: not ours to play")
            return
        left = self.clock.left(time.monotonic()) if self.clock.seat == c.seat else 0.0
        if left > SLACK:
            self.out.problem(
                f"the table hands our seat to a bot, but our clock shows {fmt(left)} left: we keep it (the "
                "host's haste is the host's)"
            )
            return
        who = next((s.name for s in c.seats if s.seat == msg.by), "the host") if msg.by >= 0 else "the host"
        if st.hand_over():
            self.out.problem(f"you were out of time and {who} handed your seat to a bot")


def _proved_host(
    seats: list[m.SeatInfo], host_seat: int, proved: str, problem: Callable[[str], None]
) -> list[m.SeatInfo]:
    """The lobby's seats with the host's fingerprint as its channel proved it (shown, never the claim)."""
    out: list[m.SeatInfo] = []
    for s in seats:
        if s.seat == host_seat and proved and s.fingerprint != proved:
            problem(f"the host's lobby names its key {s.fingerprint or 'none'}, but it proved {proved}")
            s = msgspec.structs.replace(s, fingerprint=proved)
        out.append(s)
    return out
