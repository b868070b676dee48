"""The clock of a fair-dealer table at its host: a seat out of time, a seat its own bot plays, a stalled round.

At a fair table only a seat's own process can play it (docs/fairplay.md), so the host's
clock cannot hand a slow seat to its bot as at a committed table: :class:`FairTimer`
tells everyone when a seat runs out of time, relays a seat's word that its own bot
plays it now (or that its person is back), and says when a round waits past every
allowance, the error that ends the game for the seats it waits on (fairhost.py runs it).
"""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING, Protocol

from ... import messages as m
from ...fairdeal.deck import FairDealError
from ..events import Problem
from ..failover import EX_HOST_WAIT, FAIR_RETURN_WAIT
from ..fairwire import STRIP_TIMEOUT
from ..turnclock import TurnClock, game_spent, idle_words, out_of_time_text
from .shared import Outbox, Remote, TableTerms

if TYPE_CHECKING:
    from ..fairtable import FairDriver
    from ..standin import StandIn

log = logging.getLogger("coldwater.net")

ACT_GRACE = 30.0
"""Seconds a connected seat's move may take at a fair table, once its bot is due to play it, before the
seat forfeits: past its move's time and its bank at a strict table, past another player's hand-over at a
normal one (turnclock.py). Its own app's bot plays it then, so only a seat that plays no move stalls."""


class FairTimerTable(Protocol):
    """What :class:`FairTimer` reads and sets of the host beyond its terms and clock."""

    @property
    def remotes(self) -> dict[int, Remote]: ...

    @property
    def host_name(self) -> str: ...

    @property
    def problems(self) -> list[str]: ...

    host_by_bot: bool
    """The host's own seat is played by its process's bot (told to everyone)."""


class FairTimer:
    """The clock of one fair table's host (``TableHost.fair_host.timer``)."""

    def __init__(self, out: Outbox, clock: TurnClock, terms: TableTerms, host: FairTimerTable) -> None:
        self.out = out
        self.clock = clock
        self.terms = terms
        self.host = host
        self.stand_in: StandIn | None = None
        """The person at the host's seat's turn timer (fairhost.py makes it when the game begins)."""
        self.strip_timeout = STRIP_TIMEOUT
        self.act_grace = ACT_GRACE
        self.return_wait = FAIR_RETURN_WAIT
        """Seconds an away seat has to come back before a round waiting on it ends the game."""
        self.ex_host = -1
        """After a failover: the seat of the host this one replaced (it has EX_HOST_WAIT to come back)."""
        self.handed: dict[int, tuple[int, float]] = {}
        """Seats another player handed to a bot, out of time: (ply, when). Past ACT_GRACE with no move
        from the seat's own process, a normal table's seat forfeits (stalled)."""
        self._told_out = -1
        """The ply at which a remote seat was last announced out of time (once a move)."""

    def out_of_time(self, seat: int) -> None:
        """At a normal table: the host's own person is out of time and keeps the seat; the others are told."""
        text = out_of_time_text(self.host.host_name, seat, self.terms.info.turn)
        log.warning("%s", text)
        self.out.broadcast(m.Notice(text=text))
        self.out.emit(Problem(text))

    def tell_out_of_time(self) -> None:
        """A present remote seat ran out of time at a normal table: everyone is told, once a move, by this
        host's clock (the seat's own process tells its person by its own)."""
        clock, now = self.clock, time.monotonic()
        if self.terms.info.strict or not clock.out(now) or self._told_out == clock.ply:
            return
        r = self.host.remotes.get(clock.seat)
        if r is None or not r.present or r.timed_out or r.by_bot:
            return
        self._told_out = clock.ply
        text = out_of_time_text(r.name, r.seat, self.terms.info.turn)
        log.warning("%s", text)
        self.out.broadcast(m.Notice(text=text), exclude=r.seat)
        self.out.emit(Problem(text))

    def seat_autoplay(self, seat: int, on: bool) -> None:
        """At a fair table: `seat`'s own process plays it with its bot now (`on`: its person did not move
        within the turn timer), or its person is back. Told to everyone, as for a timed-out seat."""
        r = self.host.remotes.get(seat)
        clock, turn = self.clock, self.terms.info.turn
        if r is not None:
            r.timed_out = on
            name, away = r.name, not r.present
            # This host's clock of the seat's move (the bot has not moved yet when its seat says so).
            idle = clock.elapsed(time.monotonic()) if clock.seat == seat else float(turn)
        else:
            self.host.host_by_bot = on
            name, away = self.host.host_name, False
            idle = self.stand_in.idle if self.stand_in is not None else float(turn)
        if on:
            words = idle_words(idle, turn, game_spent(clock, seat, time.monotonic()))
            text = f"{name} (seat {seat + 1}) {words}; their own app plays the seat until they return"
            self.host.problems.append(text)
        else:
            text = f"{name} (seat {seat + 1}) is back; their own app's bot stops playing the seat"
        log.warning("%s", text)
        self.out.broadcast(m.Notice(text=text), exclude=seat)  # the seat's own process said it to its person
        self.out.broadcast(m.Presence(seat=seat, away=away, by_bot=on))
        self.out.emit(Problem(text))
        self.out.lobby_changed()

    def stalled(self, drivers: list[FairDriver], quiet: float = 0.0) -> FairDealError | None:
        """The error that ends a round stalled past the timer at any seat played here (`drivers`; None: none
        is). `quiet`: seconds since the table last moved on."""
        for drv in drivers:
            w = drv.waiting
            if w is None or not w[1]:
                continue
            # A person may think as long as they like; a program's message is due at once,
            # and so is a move from a seat whose player is gone (once it had time to come back).
            gone = all(s in self.host.remotes and not self.host.remotes[s].present for s in w[1])
            wait = min(self.return_wait, EX_HOST_WAIT) if self.ex_host in w[1] else self.return_wait
            back_soon = gone and time.monotonic() - min(self.host.remotes[s].heard for s in w[1]) < wait
            turn = self.terms.info.turn
            if w[0][0] == "act" and not gone and turn > 0 and (why := self._act_due(w[1], quiet)):
                # The seat's own app plays it once its bot is due to; this one did not.
                return FairDealError(f"seat(s) {', '.join(str(s + 1) for s in w[1])} {why}", w[1])
            if (w[0][0] != "act" or gone) and not back_soon:
                (kind, ply, _), late = w
                return FairDealError(
                    f"seat(s) {', '.join(str(s + 1) for s in late)} did not send their {kind} for ply {ply} "
                    f"within {self.strip_timeout:.0f} s: no one else holds their layer, so the game "
                    "cannot go on without them and ends",
                    late,
                )
        return None

    def _act_due(self, seats: list[int], quiet: float) -> str:
        """Why the move awaited from `seats` (present) is overdue past every allowance ('' while it is not).
        A strict table: the move's time, the seat's bank and ACT_GRACE. A normal one: ACT_GRACE after
        another player handed the seat, out of time, to a bot; until then its person may think on."""
        clock, now, turn = self.clock, time.monotonic(), self.terms.info.turn
        if self.terms.info.strict:
            if clock.seat in seats:
                over = clock.over_by(now)
            else:  # (the clock has not seen this move start: counted from the table's last change)
                over = quiet - turn - max(clock.bank_left(now, s) for s in seats)
            if over < self.act_grace:
                return ""
            game = self.terms.info.game_time
            if game and clock.seat in seats and clock.game_left(now) <= 0:
                return (
                    f"used its whole time for the game ({game} s) and did not move within {self.act_grace:.0f} s more"
                )
            return (
                f"did not move within the turn timer ({turn} s), the time bank ({self.terms.info.bank} s) and "
                f"{self.act_grace:.0f} s more"
            )
        handed = [s for s in seats if s in self.handed and self.handed[s][0] == clock.ply]
        if not handed or now - min(self.handed[s][1] for s in handed) < self.act_grace:
            return ""
        return (
            f"ran out of time, was handed to a bot by another player and played no move within {self.act_grace:.0f} s"
        )
