"""The host of a LAN table (:class:`TableHost`): the composition of its protocol's phases, its API, the run loop.

The host runs the game on a :class:`~coldwater.net.play.table.Table` whose remote
seats wait for the peers' moves and whose chance source is the fair-play
dealer. Every applied action goes out as a :class:`~messages.Step` in ply
order. Its life is a :class:`HostPhase`: lobby → seeding → playing → ended,
or, for a peer that takes over, gathering → playing → ended. Each phase is a class
of its own, built here and handed only what its constructor names (shared.py): the
table's record, this host as its outbox, the tasks, the clock, the table's terms, the
other phases it works with, and this host seen through the phase's own small protocol.
The phases are public attributes, and callers use them directly: ``seating`` (who sits
where), ``connections`` (the door and each seat's messages), ``seeding`` (the seed
rounds), ``relay`` (moves, steps and the committed table), ``beacons`` (public draws),
``fair_host`` (a fair-dealer table), ``ending`` and ``finals`` (the end), ``rematch``,
``watch`` (watchers) and ``took_over`` (after a failover).

What is left here is the table itself, which no phase owns: the seat list checked and
the state every phase shares (who sits where, the table's life, its terms), the run
loop, the app's API for this side (what a seat's peer has too: submit, the bot that
plays a slow person's seat, the records kept), and the outbox: broadcast, refusals and
strikes, blame and the lobby sent again.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec

from coldwater.core import record
from coldwater.core.errors import IllegalAction
from coldwater.core.notation import Action
from coldwater.core.state import Game

from ... import fairplay as fp
from ... import messages as m
from ...admission import Guard
from ...fairdeal.seat import WIRED
from ...identity import Identity
from ...link import TCP, Link, Listening, Network
from ...play.table import Table
from ..events import ChatReceived, Chooser, Emitter, Event, LobbyChanged, Problem, Result
from ..failover import Handover
from ..forfeit import VerdictRecord
from ..persist import HostTable
from ..record import TableRecord
from ..turnclock import GAME_TIME, TIME_BANK, TurnClock
from .beacons import Beacons
from .connections import HEARTBEAT as HEARTBEAT
from .connections import Connections
from .ending import END_GRACE as END_GRACE
from .ending import Ending, Finals
from .fairhost import FairHost
from .fairtimer import FairTimer
from .relay import Relay
from .rematch import RematchOffer
from .seating import JOIN_TIMEOUT as JOIN_TIMEOUT
from .seating import Seating, seat_list
from .seedround import MAX_ROUNDS as MAX_ROUNDS
from .seedround import ROUND_TIMEOUT as ROUND_TIMEOUT
from .seedround import Seeding
from .shared import HostPhase, Remote, Tasks
from .spectators import MAX_WATCHERS, WATCHERS, Spectators, advertise_watchers
from .takeover import Takeover, take_handover

if TYPE_CHECKING:
    from ...discovery import Advertiser

log = logging.getLogger("coldwater.net")

TURN_TIMER = 180
"""Default seconds a seat has for a move before a bot plays it until its player returns."""
STRIKES = 50
"""Refused messages one identity may send in a game, across reconnects, before it loses its seat."""
REFUSALS_KEPT = 500


def fp_pass_key(passphrase: str | None) -> bytes:
    from ...crypto import passphrase_key

    return passphrase_key(passphrase)


class TableHost(Emitter[Event]):
    """Hosts one table: lobby, fair play, the game, and the end-of-game audit.

    `seats` lists every seat's kind: ``"host"`` (this process's own seat,
    played by `chooser` or, with None, by a person through :meth:`submit`),
    ``"bot"`` (played here), ``"open"`` (a remote peer) or ``"reserved:<fingerprint>"``
    (a remote seat only the peer with that identity fingerprint may take).
    """

    def __init__(
        self,
        game: Game[Any, Any],
        identity: Identity,
        *,
        name: str,
        seats: list[str],
        options: object = None,
        passphrase: str | None = None,
        chooser: Chooser | None = None,
        host_name: str = "host",
        bind: str = "0.0.0.0",
        port: int = 0,
        save_dir: Path | None = None,
        auto_start: bool = True,
        listener_ready: Callable[[TableHost], Awaitable[None] | None] | None = None,
        pass_key: bytes | None = None,
        turn_timer: int = TURN_TIMER,
        watchers: int = WATCHERS,
        dealer: str = "committed",
        time_bank: int = TIME_BANK,
        strict_clock: bool = False,
        handover: Handover | None = None,
        game_time: int = GAME_TIME,
        network: Network = TCP,
    ) -> None:
        """`handover`: this host is a peer's that takes over after the old host went away
        (:meth:`from_handover` builds it); each piece of the host takes its part of it here."""
        super().__init__()
        if dealer not in ("committed", "fair"):
            raise ValueError(f"the dealer is 'committed' or 'fair', not {dealer!r}")
        if dealer == "fair" and game.name not in WIRED:
            raise ValueError(
                f"the fair dealer deals {', '.join(sorted(WIRED))} tables only ({game.title} keeps the committed "
                "dealer for now)"
            )
        if not 0 <= watchers <= MAX_WATCHERS:
            raise ValueError(f"a table admits from 0 to {MAX_WATCHERS} watchers, not {watchers}")
        if len(seats) < game.min_players or len(seats) > game.max_players:
            raise ValueError(f"{game.title} is for {game.min_players} to {game.max_players} players, not {len(seats)}")
        if seats.count("host") > 1 or any(
            k not in ("host", "bot", "open") and not k.startswith("reserved:") for k in seats
        ):
            raise ValueError("seats are 'host' (at most one), 'bot', 'open' or 'reserved:<fingerprint>'")
        self.reserved: dict[int, str] = {
            i: k.split(":", 1)[1].strip().lower() for i, k in enumerate(seats) if k.startswith("reserved:")
        }
        self.reserved_labels: dict[int, str] = {}
        """What the lobby says a reserved seat is for, where the fingerprint is not what people know it by
        (`coldwater serve`: the SSH key behind the LAN identity); the fingerprint elsewhere."""
        seats = ["open" if k.startswith("reserved:") else k for k in seats]
        self.game = game
        self.identity = identity
        self.network = network  # where the table's links come from: TCP, or in memory (link.py)
        self.name = name
        self.kinds = list(seats)
        self.options = msgspec.to_builtins(game.make_options(options))
        remote_count = sum(1 for k in seats if k == "open")
        self.info = m.TableInfo(
            game=game.name,
            name=name,
            players=len(seats),
            content=game.content_hash,
            options=self.options,
            turn=turn_timer,
            bank=time_bank,
            game_time=game_time,
            strict=strict_clock,
            # A fair table needs no escrow (no one holds the deal): one remote seat can take over.
            failover=remote_count >= (fp.MIN_HOLDERS if fp.has_sealed_values(game) and dealer != "fair" else 1),
            watch=watchers,
            dealer="fair" if dealer == "fair" else "committed",
        )
        self.host_seat = seats.index("host") if "host" in seats else -1
        self.clock = TurnClock(turn_timer, time_bank, len(seats), game_time)
        """The seat to move's time and every seat's bank, as this host measures them (turnclock.py)."""
        self.host_name = host_name
        self.chooser = chooser
        self.bind = bind
        self.port = port
        self.save_dir = save_dir
        self.remotes: dict[int, Remote] = {i: Remote(i) for i, k in enumerate(seats) if k == "open"}
        self.extra_bots: set[int] = set()
        """Seats that were remote (or the old host's) and are now played by a bot here."""
        self.server: Listening | None = None
        self.guard = (
            handover.guard
            if handover is not None and handover.guard is not None
            else Guard(notice=lambda text: self.emit(Problem(text)))
        )
        """Caps unfinished handshakes and throttles passphrase guesses (admission.Guard); after a failover,
        the guard of the listener that hands connections to this host."""
        self.advertiser: Advertiser | None = None
        """A discovery.Advertiser to withdraw when the table closes (set by :meth:`announcement`)."""
        self.external_listener = handover is not None
        """Connections come from a listener already bound elsewhere (a peer's, after a failover): no listen()."""
        self.phase = HostPhase.LOBBY
        self._closing = False
        """close() has begun: connections ending now are teardown, not peers going away."""
        self.table: Table | None = None
        self.dealer: fp.CommittedDealer = fp.CommittedDealer()
        self.record = TableRecord()
        """What the table agreed: the seed round, the seats' keys, the steps, the chains (record.py)."""
        self.tasks = Tasks()
        """The host's background tasks and the condition its phases wait on (shared.py)."""
        self._person_moved = asyncio.Event()
        self._seats_listener: list[Callable[[int], None]] = []
        self._listener_ready = listener_ready
        self.result: Result | None = None
        self.traffic: list[Link] = []
        """Every seated connection ever accepted (bytes on the wire, for benchmarks)."""
        self.cheaters: list[str] = []
        """Peers named for breaking the fair-play protocol."""
        self.refusals: deque[str] = deque(maxlen=REFUSALS_KEPT)
        """The latest refused messages and connections, with the reason (tests, the log pane)."""
        self.strikes: dict[bytes, int] = {}
        """Refused messages per identity, kept across reconnects."""
        self.banned: set[bytes] = set()
        """Identities sent away from this table's lobby (too many strikes)."""
        self.failover_ply = 0
        """After a failover: the last ply the old host dealt (blame for earlier plies is the old host's)."""
        self.problems: list[str] = []
        self.beacon_id = self.host_seat
        """The seat this host's links are filed under (-1 for a host with no seat)."""
        self.dealer_ok = True
        """False after a failover with no escrow (a game with no sealed values): no one holds the dealer's secret."""
        self.host_by_bot = False
        """At a fair-dealer table: this host's own seat is played by its process's bot (told to everyone)."""
        self.linger = False
        """Keep the seats' connections open after the end (the app: chat, a rematch offer) until close()."""
        if handover is not None:
            take_handover(self, self.record, self.clock, handover)
        # The phases, each handed what its constructor names and nothing more (shared.py, the module text).
        rec, out, tasks, clock = self.record, self, self.tasks, self.clock
        self.finals = Finals(rec, out, tasks, self)
        """The seats' signed final digests, gathered and relayed at the end (ending.py)."""
        timer = FairTimer(out, clock, self, self)
        self.fair_host = FairHost(
            rec, out, tasks, clock, self, self, timer=timer, finals=self.finals, handover=handover
        )
        """At a fair-dealer table, its rounds (fairhost.py): idle at a committed table."""
        self.beacons = Beacons(rec, out, tasks, self)
        """The seats' links for public draws (beacons.py)."""
        self.relay = Relay(rec, out, clock, self, self, beacons=self.beacons, fair_host=self.fair_host)
        """Moves and chance in ply order, each step broadcast; resyncs; the committed table (relay.py)."""
        self.ending = Ending(rec, out, tasks, self, self.finals, self)
        """The end of a committed game: the End, the audit after a takeover (ending.py)."""
        self.watch = Spectators(rec, out, self, self, fair_host=self.fair_host)
        """The people watching (spectators.py): the public view only, never a seat's secrets."""
        self.rematch = RematchOffer(out, tasks, self, watch=self.watch)
        """After the end: the same table offered again, and the seats' answers (rematch.py)."""
        self.seeding = Seeding(
            rec, out, tasks, self, self, relay=self.relay, fair_host=self.fair_host, filled=self.filled,
            auto_start=auto_start
        )  # fmt: skip
        """The seed rounds, then the game's start: the escrow shares, every seat's Begin (seedround.py)."""
        self.took_over = None if handover is None else Takeover(
            rec, out, tasks, self, self, handover, relay=self.relay, seeding=self.seeding
        )  # fmt: skip
        """After a failover: what this host gathers and rebuilds (takeover.py); None for the table's first host."""
        key = pass_key if pass_key is not None else fp_pass_key(passphrase)
        self.seating = Seating(
            out, clock, self, self, key, relay=self.relay, ending=self.ending, watch=self.watch, rematch=self.rematch,
            fair_host=self.fair_host, took_over=self.took_over
        )  # fmt: skip
        """Who sits where: admission, a seat leaving, hand-overs (seating.py)."""
        self.guard.seated = self.seating.seated_key
        self.connections = Connections(
            out, tasks, self, seating=self.seating, seeding=self.seeding, relay=self.relay, beacons=self.beacons,
            fair_host=self.fair_host, finals=self.finals, rematch=self.rematch
        )  # fmt: skip
        """The table's door and every seat's messages, each to the phase it is for (connections.py)."""
        self._stopped = False

    @classmethod
    def from_handover(
        cls,
        game: Game[Any, Any],
        identity: Identity,
        handover: Handover,
        *,
        chooser: Chooser | None = None,
        host_name: str,
        bind: str,
        port: int,
        save_dir: Path | None,
        pass_key: bytes,
        network: Network = TCP,
    ) -> TableHost:
        """The host a peer becomes after the old host went away (its seat is the host's), from what it
        hands over: its save, share, record and chain, or at a fair table its own seat's rounds."""
        table = handover.save.table
        return cls(
            game,
            identity,
            name=table.name,
            seats=handover.seat_kinds(),
            options=table.options,
            chooser=chooser,
            host_name=host_name,
            bind=bind,
            port=port,
            save_dir=save_dir,
            pass_key=pass_key,
            watchers=table.watch,
            dealer="fair" if handover.fair is not None else "committed",
            # The table's terms go on as the players agreed them: its clock, not this build's defaults.
            turn_timer=table.turn,
            time_bank=table.bank,
            strict_clock=table.strict,
            handover=handover,
            game_time=table.game_time,
            network=network,
        )

    # ---- public API ------------------------------------------------------------
    @property
    def started(self) -> bool:
        """The joint seed is set (or this host took over a game in progress)."""
        return self.phase in (HostPhase.GATHERING, HostPhase.PLAYING, HostPhase.ENDED)

    @property
    def closing(self) -> bool:
        """close() has begun: connections ending now are teardown, not peers going away."""
        return self._closing

    def filled(self) -> bool:
        """Every remote seat is taken by a present, ready peer (or played by a bot): a seed round needs it."""
        return all(r.by_bot or (r.key and r.present and r.ready) for r in self.remotes.values())

    @property
    def open_seats(self) -> int:
        """Remote seats no one holds (the advert's count)."""
        return sum(1 for r in self.remotes.values() if not r.key)

    def on_seats_changed(self, fn: Callable[[int], None]) -> None:
        """`fn(open_seats)` whenever the count changes (zeroconf TXT updates)."""
        self._seats_listener.append(fn)

    def announcement(self) -> Advertiser:
        """This table's mDNS advert from its terms (the opener's, or those a failover kept), kept up to
        date with its open seats and watchers; the caller starts it."""
        from ...discovery import Advertiser

        info = self.info
        adv = Advertiser(
            table=info.name,
            game=self.game.name,
            content=self.game.content_hash,
            port=self.port,
            fingerprint=self.identity.fingerprint,
            needs_passphrase=bool(self.seating.pass_key),
            addresses=None if self.bind in ("0.0.0.0", "") else [self.bind],
            dealer=info.dealer,
            seats=info.players,
            turn=info.turn,
            strict=info.strict,
            game_time=info.game_time,
            hints=info.hints,
        )
        self.on_seats_changed(adv.update_soon)
        advertise_watchers(self.watch, self, adv)
        self.advertiser = adv
        return adv

    def lobby(self) -> list[m.SeatInfo]:
        """Every seat as the peers are shown it (seating.seat_list)."""
        return seat_list(self, self)

    async def listen(self) -> int:
        """Start accepting peers; returns the port."""
        self.server = await self.network.listen(self.connections, self.bind, self.port, guard=self.guard)
        self.port = self.server.port
        return self.port

    def set_turn_timer(
        self, seconds: int, *, bank: int | None = None, strict: bool | None = None, game_time: int | None = None
    ) -> None:
        """Seconds a seat has for each move (0: no clock), its time bank for the game, whether the clock
        is strict and each seat's whole time for the game (None: unchanged); before the game starts (it
        travels in the table info)."""
        if seconds < 0 or (bank is not None and bank < 0) or (game_time is not None and game_time < 0):
            raise ValueError("the turn timer, the time bank and the game time are numbers of seconds, 0 for none")
        self.info = msgspec.structs.replace(
            self.info,
            turn=seconds,
            bank=self.info.bank if bank is None else bank,
            strict=self.info.strict if strict is None else strict,
            game_time=self.info.game_time if game_time is None else game_time,
        )
        # In place: the phases hold this clock (the game has not started, so nothing is charged yet).
        self.clock.turn, self.clock.game = self.info.turn, self.info.game_time
        self.clock.banks = [float(self.info.bank)] * self.info.players
        if self.advertiser is not None:
            self.advertiser.set_clock_soon(self.info.turn, self.info.strict, self.info.game_time)

    def start_game(self) -> None:
        """The host person presses Start (headless tables start by themselves)."""
        self.seeding.start_requested.set()
        self.tasks.wake()

    def send_chat(self, text: str) -> None:
        self.broadcast(m.Chat(text=text[:500], seat=self.host_seat))
        self.emit(ChatReceived(self.host_seat, self.host_name, text[:500]))

    # ---- the person at this host's seat of a fair table: as a seat's peer has them (LanTable) ----------
    @property
    def awaiting_person(self) -> bool:
        """At a fair-dealer table: a move is asked of the person at this host's seat (:meth:`submit`)."""
        return self.fair_host.stand_in is not None and self.fair_host.stand_in.awaiting

    @property
    def bot_plays(self) -> bool:
        """At a fair-dealer table: the person at this host's seat did not move in time, so this process's
        bot plays the seat until they come back (:meth:`submit` or :meth:`take_back`)."""
        return self.fair_host.stand_in is not None and self.fair_host.stand_in.playing

    @property
    def bot_idle(self) -> float:
        """While :attr:`bot_plays`: seconds the person had not moved when the bot took the seat."""
        return self.fair_host.stand_in.idle if self.fair_host.stand_in is not None else 0.0

    def take_back(self) -> bool:
        """The person at this host's seat takes it back from the bot (False: the bot did not have it)."""
        return self.fair_host.stand_in is not None and self.fair_host.stand_in.take_back()

    def submit(self, action: Action) -> None:
        """A move by the person at this host's own seat (IllegalAction if not allowed)."""
        if self.fair_host.record is not None:  # a fair-dealer table: the host's own view, like a peer's
            if self.fair_host.fair is None:
                raise IllegalAction("this host has no seat of its own at the table")
            if self.fair_host.stand_in is None:
                raise IllegalAction("a bot plays this host's seat")
            view = self.fair_host.fair.fs.view
            if view.current != self.host_seat:
                raise IllegalAction("it is not your turn")
            if not view.is_legal(action):
                raise IllegalAction(view.why_illegal(action))
            # (One submitted before the driver asked for it is kept for that ply; the person is back.)
            self.fair_host.stand_in.submit(view.ply, action)
            return
        if self.table is None:
            raise IllegalAction("the game has not started")
        self.table.submit(action)
        self._person_moved.set()

    async def run(self) -> Result:
        """Lobby → fair play → game → audit; returns the result. Listens first if needed."""
        if self.server is None and not self.external_listener:
            await self.listen()
        if self._listener_ready is not None:
            r = self._listener_ready(self)
            if r is not None:
                await r
        self.tasks.spawn(self.connections.heartbeat())
        if not self.info.failover:
            log.info("failover is off at this table: fewer than two remote seats to hold escrow shares")
        try:
            if self.fair_host.resuming:
                return await self.fair_host.run()
            if self.took_over is None:
                await self.seeding.run()
                if self.fair_host.record is not None:
                    return await self.fair_host.run()
            else:
                await self.took_over.resume()
            await self._play()
            return await self.ending.finish()
        finally:
            if self.linger and self.result is not None:
                # The seats stay connected until close(), and the watchers: a rematch offer reaches them too.
                await self.stop_listening(keep_watchers=True)
            else:
                await self.close()

    async def close(self) -> None:
        # Closing connections one by one must not tell the others that those peers are
        # away: they would then choose different new hosts.
        self._closing = True
        await self.stop_listening()
        await self.watch.close()  # (kept after the end by a lingering host, for a rematch offer)
        for r in self.remotes.values():
            if r.conn is not None:
                await r.conn.close()
        self.tasks.cancel()

    async def stop_listening(self, *, keep_watchers: bool = False) -> None:
        """Withdraw the advert, stop accepting, let the watchers go (unless `keep_watchers`: a
        rematch tells them where it listens, then lets them go); the seats' connections stay."""
        if self._stopped:
            return
        self._stopped = True
        if self.advertiser is not None:
            adv, self.advertiser = self.advertiser, None
            try:
                await adv.close()
            except Exception:  # withdrawing is best effort; the record expires anyway
                log.exception("withdrawing the table advertisement")
        if self.server is not None:
            self.server.close()
            self.server = None
        if not keep_watchers:
            await self.watch.close()
        if isinstance(self.table, HostTable):
            await self.table.close_saver()

    # ---- connections: broadcast, refusals and strikes, each seat's messages ----------
    def broadcast(self, msg: m.Message, *, exclude: int | None = None) -> None:
        for r in self.remotes.values():
            if r.present and r.seat != exclude:
                assert r.conn is not None
                r.conn.send_nowait(msg)
        self.watch.announce(msg)  # the public announcements (who is away, who was named) reach watchers

    def lobby_changed(self) -> None:
        seats = self.lobby()
        watchers = self.watch.infos()
        self.broadcast(m.Lobby(seats=seats, started=self.started, host_seat=self.host_seat, watchers=watchers))
        self.emit(LobbyChanged(seats, self.started, watchers))
        for fn in self._seats_listener:
            fn(self.open_seats)
        self.tasks.wake()

    def refuse(self, conn: Link | None, what: str, reason: str) -> None:
        who = conn.label if conn else "?"
        text = f"refused {what} from {who}: {reason}"
        self.refusals.append(text)
        n = 0
        if conn is not None:
            n = self.strikes[conn.peer_key] = self.strikes.get(conn.peer_key, 0) + 1
        # The log and the UI hear of the first refusals from an identity, then every 100th:
        # a flood must not become a flood of log lines.
        if n <= 10 or n % 100 == 0:
            log.warning("%s%s", text, f" ({n} refused from this identity)" if n > 10 else "")
            self.emit(Problem(text))
        if conn is None:
            return
        if n == STRIKES:
            self._strike_out(conn)
        elif n < STRIKES:
            conn.send_nowait(m.Notice(text=f"refused {what}: {reason}"))

    def _strike_out(self, conn: Link) -> None:
        """An identity kept sending refused messages: named, and its seat goes to a bot (or is freed)."""
        r = next((x for x in self.remotes.values() if x.key == conn.peer_key), None)
        text = (
            f"{r.name if r else conn.fingerprint} (seat {r.seat + 1 if r else '?'}, {conn.fingerprint}) "
            f"sent {STRIKES} refused messages and is sent away"
        )
        self.blame(text)
        conn.send_nowait(m.Refuse(reason=f"{STRIKES} refused messages; you are sent away from this table"))
        if r is not None and self.started and self.info.dealer == "fair":
            # No one else holds the seat's layer: it forfeits as a round waits on it, and stays away.
            self.banned.add(conn.peer_key)
            self.fair_host.forfeits.strike(
                r.seat, f"{r.name} (seat {r.seat + 1}) was struck out ({STRIKES} refused messages)"
            )
        elif r is not None and self.started:
            self.relay.give_to_bot(r)
        else:
            self.banned.add(conn.peer_key)
        self.tasks.spawn(conn.close())

    def blame(self, text: str) -> None:
        """Tell everyone who broke the rules (the cheaters list, every peer, the log)."""
        self.cheaters.append(text)
        self.problems.append(text)
        log.warning("%s", text)
        self.broadcast(m.Notice(text=text))
        self.emit(Problem(text))

    async def _play(self) -> None:
        t = self.table
        assert t is not None
        while not t.state.is_over:
            self._person_moved.clear()
            await t.advance()
            if t.waiting_for_person:
                await self._person_moved.wait()
        for r in self.remotes.values():
            if r.conn is not None:
                await r.conn.drain()

    def kept_record(self, meta: dict[str, str] | None = None) -> record.GameRecord | None:
        """The whole game to keep once it is over: the fair seat's audited replay, or a committed
        table's own record (every sealed value in it: the host dealt them)."""
        rec = self.full_record(meta)
        if rec is None and self.table is not None and self.result is not None and self.result.audit_ok:
            rec = self.table.record
            rec.meta.update(meta or {})
        return rec

    def verdict_record(self) -> VerdictRecord | None:
        """A game ended by forfeit, as this host keeps it (forfeit.VerdictRecord); None otherwise."""
        return self.fair_host.forfeits.verdict_record

    def full_record(self, meta: dict[str, str] | None = None) -> record.GameRecord | None:
        """At a fair-dealer table, the whole game as this host's seat's audit replayed it, once
        every key is out (None before then; a committed table's record is ``self.table.record``)."""
        return self.fair_host.full_record(meta)
