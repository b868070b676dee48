"""Drive the ordinary table screens for a LAN seat.

The table screen talks to a :class:`coldwater.net.play.table.Table`: ``state``,
``view(seat)``, ``current``, ``seats``, ``waiting_for_person``,
``person_seats()``, ``subscribe``, ``submit`` and ``step()``. At a LAN table the
game is driven by the net layer (the host's ``run()`` or the peer's connection),
so :class:`LanTable` exposes that same surface over a ``TableHost`` or a
``TablePeer``: ``submit`` goes to the host/peer, and ``step()`` does not play
anything itself, it waits until the net layer has applied the next action.

The host holds the full state but its screen only ever draws ``view(host_seat)``;
a peer holds only its own seat's view, and that is all it can show. A watcher
(:class:`~coldwater.net.session.TableWatcher`, seat -1) holds only the public
view: no seat is a person's here, so the screen is read-only.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import msgspec

from coldwater.core.errors import IllegalAction
from coldwater.core.notation import Action
from coldwater.core.record import GameRecord
from coldwater.core.state import CHANCE, State
from coldwater.net.names import shown_player
from coldwater.net.party import Party
from coldwater.net.play.emitter import Emitter
from coldwater.net.play.table import Applied, ContentRef, Event, GameOver, Seat, SeatKind
from coldwater.net.play.table import Listener as TableListener

if TYPE_CHECKING:
    from coldwater.net.session import Event as SessionEvent
    from coldwater.net.session import TableHost, TablePeer, TableWatcher


class LanTable:
    """A Table-shaped view of a LAN game for :class:`~coldwater.tui.screens.table.TableScreen`."""

    def __init__(self, party: Party) -> None:
        # A TableHost, a TablePeer or a TableWatcher: what only one of them has is reached
        # through `host` or `seated` (None for the others), so mypy checks every use.
        from coldwater.net.session import StepApplied, TableHost, TablePeer, TableWatcher

        self.party = party
        self.host: TableHost | None = party if isinstance(party, TableHost) else None
        self.seated: TablePeer | TableWatcher | None = party if isinstance(party, TablePeer | TableWatcher) else None
        self.player: TableHost | TablePeer | None = party if isinstance(party, TableHost | TablePeer) else None
        """The host or the seat's peer: one that plays a seat (a watcher plays none)."""
        self.peer: TablePeer | None = party if isinstance(party, TablePeer) else None
        self.is_host = self.host is not None
        self.game = party.game
        self.save_path: str | None = None  # the net layer keeps its own records
        self.record: GameRecord | None = None
        self.seat_record: GameRecord | None = None
        """A seat's record of the whole game, rebuilt at the end by the score screen (TablePeer.full_record)."""
        self.content: ContentRef | None = None  # a LAN game plays the packaged card data
        self._events: Emitter[Event] = Emitter(contain=False)  # as a local table: the screen is the listener
        self._changed = asyncio.Event()
        self._over_sent = False
        self._sent_ply = -1
        """The ply at which this seat sent its move (a peer waits for the table to apply it)."""
        # A fair-dealer table: the host holds only its own seat's view, like a peer (net/session/fairtable.py).
        host, seated = self.host, self.seated
        fair = host is not None and host.fair_host.fair is not None
        self._fair = fair
        self.my_seat: int
        self.seats: list[Seat]
        if host is not None and fair:
            self.my_seat = host.host_seat
            names = {s.seat: shown_player(s.name) for s in host.lobby()}
            n = self.state.players
            self.seats = [
                Seat(SeatKind.PERSON if i == self.my_seat else SeatKind.REMOTE, names.get(i) or f"Seat {i + 1}")
                for i in range(n)
            ]
            self._step_type = StepApplied
            self._unsub = party.subscribe(self._on_peer_event)
        elif host is not None:
            assert host.table is not None, "the host's game has not started"
            self.my_seat = host.host_seat
            self.seats = list(host.table.seats)
            self._unsub = host.table.subscribe(self._on_table_event)
        else:
            assert seated is not None  # a Party is one of the three
            self.my_seat = seated.seat
            names = {s.seat: shown_player(s.name) for s in seated.seats}  # from the host: escaped
            n = self.state.players
            self.seats = [
                Seat(SeatKind.PERSON if i == self.my_seat else SeatKind.REMOTE, names.get(i) or f"Seat {i + 1}")
                for i in range(n)
            ]
            self._step_type = StepApplied
            self._unsub = party.subscribe(self._on_peer_event)
        self.public_history: list[tuple[int, str, State[Any, Any]]] = []
        """A watcher's public views as it saw them: (seat, action, view after), from the first it held
        (ply 0 for one who came before the start); the end screen lays them out (no record replays them)."""
        if self.my_seat < 0 and not self.is_host:
            self.public_history.append((CHANCE, "", self.state.clone()))
        self._last: State[Any, Any] | None = self.view(self.my_seat)
        """This seat's view after the last step it heard of: the view the next step is described from."""
        if self.my_seat < 0 and not self.is_host and self.state.ply > 0:
            self.opening_note = f"You are watching from move {self.state.ply}: the log starts here."

    # ---- what the table screen reads ---------------------------------------------
    @property
    def state(self) -> State[Any, Any]:
        host = self.host
        if host is not None:
            if host.fair_host.fair is not None:
                return host.fair_host.fair.fs.view
            assert host.table is not None, "the host's game has not started"
            return host.table.state
        assert self.seated is not None and self.seated.state is not None, "the game has not started"
        return self.seated.state

    @property
    def current(self) -> int | None:
        return self.state.current

    @property
    def waiting_for_person(self) -> bool:
        if self.my_seat < 0:
            return False  # a watcher (seat -1 is also the chance marker: never "our" turn)
        return self.current is not None and self.current == self.my_seat and self.state.ply != self._sent_ply

    @property
    def bot_plays(self) -> bool:
        """This seat's person did not move within the turn timer, so its own process's bot plays it
        (a fair-dealer table: net/session/standin.py) until the person takes it back."""
        return self.player is not None and self.player.bot_plays

    @property
    def bot_idle(self) -> float:
        """While :attr:`bot_plays`: seconds the person had not moved when the bot took the seat."""
        return self.player.bot_idle if self.player is not None else 0.0

    @property
    def turn_timer(self) -> int:
        """The table's turn timer in seconds (0: none)."""
        info = self.party.info
        return info.turn if info is not None else 0

    def countdown(self) -> str:
        """The seat to move's clock as this process measures it ('0:42', 'bank 3:12', 'out of time';
        '' with no clock or no seat's move timed): every seat sees it in the title (docs/tui.md)."""
        return self.party.clock.text(time.monotonic())

    @property
    def can_hand_over(self) -> bool:
        """Another seat's move is out of time at a normal table, and this seat may hand it to a bot."""
        clock, info = self.party.clock, self.party.info
        if info is None or info.strict or self.my_seat < 0 or clock.seat == self.my_seat:
            return False
        return bool(clock.out(time.monotonic()))

    def hand_over(self) -> str | None:
        """Hand the seat to move, out of time, to a bot (docs/lan.md, "The turn clock"). Why not, or None."""
        clock = self.party.clock
        if not clock.running or self.my_seat < 0:
            return "no seat's move is being timed here"
        if self.host is not None:
            return self.host.seating.hand_over(clock.seat, by=self.my_seat)
        peer = self.peer
        return peer.lobby_view.hand_over(clock.seat) if peer is not None else "a watcher holds no seat"

    @property
    def hints_on(self) -> bool:
        """The host turned hints on for everyone at this table (its announced TableInfo)."""
        info = self.party.info
        return info.hints if info is not None else False

    def take_back(self) -> bool:
        """The person takes the seat back from the bot (False: the bot did not have it)."""
        return self.player is not None and self.player.take_back()

    def full_record(self, meta: dict[str, str] | None = None) -> GameRecord | None:
        """The whole game's record once the end's audit is done (host and seat); a watcher has none."""
        return self.player.full_record(meta) if self.player is not None else None

    # ---- what a local table has and a LAN one does not ------------------------------
    can_undo = False
    opening_note = ""
    """A line for the top of the log (a watcher who came in mid-game: the moves before are not in it)."""

    def undo(self) -> None:
        raise IllegalAction("There is no undo at a LAN table.")

    @property
    def lan_role(self) -> str:
        """ "host" (or "host-failover": another seat hosts on if this one leaves), "seat" or "watcher"."""
        if self.host is not None:
            return "host-failover" if self.host.info.failover else "host"
        return "seat" if self.my_seat >= 0 else "watcher"

    def person_seats(self) -> list[int]:
        return [self.my_seat] if self.my_seat >= 0 else []

    def view(self, seat: int | None) -> State[Any, Any]:
        # Whatever the screen asks, it only ever sees what this seat may see. A copy, as a local
        # Table's view is: a seat's state at a fair table is changed in place by each step, and the
        # log describes a step from the view taken before it (the live object would be the after).
        if self.is_host and not self._fair:
            return self.state.view(self.my_seat if self.my_seat >= 0 else None)
        return self.state.clone()

    def subscribe(self, listener: TableListener) -> Callable[[], None]:
        return self._events.subscribe(listener)

    def delete_save(self) -> None:
        pass

    # ---- acting ------------------------------------------------------------------
    def submit(self, action: Action) -> None:
        """This seat's move (IllegalAction if not allowed now)."""
        ply = self.state.ply
        self.party.submit(action)
        if self.state.ply == ply:
            self._sent_ply = ply  # sent; it is applied when the host's step comes back

    async def step(self) -> bool:
        """Wait until the net layer applies the next action; False when it is our turn or over."""
        if self.current is None or self.waiting_for_person:
            return False
        ply = self.state.ply
        while self.state.ply == ply and self.current is not None:
            self._changed.clear()
            try:
                # Events say when a step is applied; a resync replaces the state without
                # one, so look again now and then.
                await asyncio.wait_for(self._changed.wait(), 0.5)
            except TimeoutError:
                pass
        return True

    async def advance(self) -> None:
        while await self.step():
            pass

    def close(self) -> None:
        self._unsub()

    # ---- events ------------------------------------------------------------------
    def _on_table_event(self, event: Event) -> None:
        self._changed.set()
        if isinstance(event, Applied):
            self._emit_step(event, self.view(self.my_seat))
        else:
            self._events.emit(event)

    def _emit_step(self, event: Applied, after: State[Any, Any]) -> None:
        # Steps can come in a burst (a bot's turn, the draws after it) before the screen's drive
        # loop wakes: each is described from the view just before it, never one taken earlier.
        prev = self._last
        fits = prev is not None and after.ply == event.ply and prev.ply == event.ply - 1
        self._last = after
        self._events.emit(msgspec.structs.replace(event, before=prev if fits else None))

    def _on_peer_event(self, event: SessionEvent) -> None:
        if not isinstance(event, self._step_type):
            return
        self._changed.set()
        action = event.action or "(sealed)"
        st = self.state
        if self.public_history and event.ply == st.ply > self.public_history[-1][2].ply:
            # (A resync replays events for steps its view already holds: those are not new positions.)
            self.public_history.append((event.seat, action, st.clone()))
        self._emit_step(Applied(event.seat, action, "", event.ply), st.clone())
        if self.state.is_over and not self._over_sent:
            self._over_sent = True
            self._events.emit(GameOver(self.state.scores().outcome))
