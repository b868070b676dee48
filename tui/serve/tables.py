"""The tables `coldwater serve` hosts for its sessions (`ServerTables`), and its answers on the control path.

A table opened from a session is the server's, not the app's (control.py says why): the server hosts
it as any LAN host would (``net.open_table``, on ``--table-bind``, advertised unless
``--no-advertise``), seats SSH keys at it by the LAN identity each key's app proves, keeps its result
(database.py, history.py), and offers its opener a rematch a while after it ends. Each app's control
socket is served here: every request is answered, in order, with one reply, and nothing an app asks
may stop the server. Turn-based tables and the deal of the day are kept by turns.py and deals.py and
reached through here.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec

from coldwater.tui.serve.control import (
    CloseTable,
    Done,
    Failed,
    History,
    ListTables,
    Opened,
    OpenTable,
    RematchTable,
    ReplayOf,
    Reply,
    Request,
    ServedTable,
    Tables,
    frame,
    read_frame,
    request_decoder,
)
from coldwater.tui.serve.turnwire import (
    DealBoards,
    DealList,
    DealPlay,
    ListTurnTables,
    OpenTurnTable,
    TurnMove,
    TurnOutOfTime,
    TurnRequest,
    TurnTables,
    TurnView,
)

if TYPE_CHECKING:
    from coldwater.core.state import Game
    from coldwater.net.identity import Identity
    from coldwater.net.session import Event, Result, TableHost
    from coldwater.tui.serve.database import GameResult, Store
    from coldwater.tui.serve.deals import Deals
    from coldwater.tui.serve.turns import TurnTablesKeeper

log = logging.getLogger("coldwater.serve")

TABLES_PER_KEY = 2
"""Open tables one key may have on the server at once (a table is a listening port and a task)."""
KEEP_ENDED = 300.0
"""Seconds a finished table (its seats still connected) waits for its opener to offer a rematch."""


def lan_identity_path(home: Path) -> Path:
    """Where the LAN identity of the key whose data folder is `home` is kept (its app proves it at tables)."""
    from coldwater.net.identity import KEY_FILE

    return home / KEY_FILE


class Hosted:
    """One table the server hosts, and whose key opened it."""

    def __init__(self, host: TableHost, owner: bytes, seat_keys: dict[int, str], *, locked: bool) -> None:
        self.host = host
        self.owner = owner
        self.locked = locked
        """The table asks for a passphrase."""
        self.ssh_seats = seat_keys
        """Seat → SSH key fingerprint, for seats reserved for an SSH key (shown in the lobby)."""
        self.task: asyncio.Task[Any] | None = None
        self.empty_since: float | None = None


class ServerTables:
    """The tables hosted by the server process, and the per-app control channels that open them.

    `home_of(blob)` is the data folder of the key (its LAN identity is there, made
    by the server before the app first starts), and `known_keys()` every SSH key
    the server can name: the allowed ones and those that have connected.
    """

    def __init__(
        self,
        root: Path,
        *,
        home_of: Callable[[bytes], Path],
        known_keys: Callable[[], set[bytes]],
        fingerprint_of: Callable[[bytes], str],
        bind: str = "0.0.0.0",
        advertise: bool = True,
        max_tables: int = 32,
        keep_empty: float = 15 * 60.0,
        say: Callable[[str], None] | None = None,
        store: Store | None = None,
        wall_clock: Callable[[], float] = time.time,
    ) -> None:
        self.root = root
        self.store = store
        """Where finished games are kept (database.py; None: nowhere, as in tests of the control path)."""
        self.wall_clock = wall_clock
        self.turns: TurnTablesKeeper | None = None
        """The turn-based tables (turns.py), when the server keeps them."""
        self.deals: Deals | None = None
        """The deal of the day (deals.py), played at turn-based tables."""
        self.home_of = home_of
        self.known_keys = known_keys
        self.fingerprint_of = fingerprint_of
        self.bind = bind
        self.advertise = advertise
        self.max_tables = max_tables
        self.keep_empty = keep_empty
        self.say = say or log.info
        """The server's log (a line per table opened, ended or closed)."""
        self.tables: dict[str, Hosted] = {}
        self.ended: dict[str, tuple[Hosted, float]] = {}
        """Finished tables whose seats are still connected, kept a while for a rematch (and when they ended)."""
        self.keep_ended = KEEP_ENDED
        self._identity: Identity | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self._opening = asyncio.Lock()

    # ---- who is who ----------------------------------------------------------------
    @property
    def identity(self) -> Identity:
        """The LAN identity every server table proves (made once, kept beside the host key)."""
        if self._identity is None:
            from coldwater.net.identity import load_or_create

            self._identity = load_or_create(self.root / "ssh" / "tables.key")
        return self._identity

    def lan_identity(self, blob: bytes) -> Identity:
        """The LAN identity the app of this SSH key uses (made here if the key never played yet)."""
        from coldwater.net.identity import load_or_create

        return load_or_create(lan_identity_path(self.home_of(blob)))

    def ssh_key_of(self, lan_public: bytes) -> str:
        """The SSH key fingerprint whose sessions use this LAN identity ("" for none the server knows)."""
        from coldwater.net.identity import load_or_create

        if not lan_public:
            return ""
        for blob in self.known_keys():
            path = lan_identity_path(self.home_of(blob))
            if path.exists():
                with contextlib.suppress(Exception):  # a damaged identity file names nobody
                    if load_or_create(path).public == lan_public:
                        return self.fingerprint_of(blob)
        return ""

    def key_by_fingerprint(self, fp: str) -> bytes | None:
        fp = fp.strip().lower()
        return next((b for b in self.known_keys() if self.fingerprint_of(b) == fp), None)

    # ---- control channels ------------------------------------------------------------
    def attach(self, blob: bytes, sock: socket.socket) -> None:
        """Serve the control socket of one app, whose key is `blob` (known from who started the app)."""
        self._spawn(self._serve(blob, sock))

    async def _serve(self, blob: bytes, sock: socket.socket) -> None:
        reader, writer = await asyncio.open_unix_connection(sock=sock)
        try:
            while True:
                try:
                    data = await read_frame(reader)
                except ValueError as e:
                    writer.write(frame(Failed(str(e))))
                    break
                if data is None:
                    break
                try:
                    request = request_decoder.decode(data)
                except msgspec.DecodeError as e:
                    reply: Reply = Failed(f"not a request: {e}")
                else:
                    try:
                        reply = await self.handle(blob, request)
                    except Exception as e:  # nothing an app asks may stop the server
                        log.exception("control request %s", type(request).__name__)
                        reply = Failed(f"the server could not do that: {e}")
                writer.write(frame(reply))
                await writer.drain()
        except ConnectionError:
            pass
        finally:
            writer.close()

    async def handle(self, blob: bytes, request: Request) -> Reply:
        """One request from the app of the key `blob`."""
        if isinstance(request, ListTables):
            return Tables(self.listing(blob))
        if isinstance(request, CloseTable):
            return await self.close_table(blob, request.name)
        if isinstance(request, RematchTable):
            async with self._opening:
                return await self.rematch(blob, request.name)
        if isinstance(request, History):
            return self.history(blob)
        if isinstance(
            request, OpenTurnTable | ListTurnTables | TurnView | TurnMove | TurnOutOfTime | DealList | DealPlay
        ):
            return await self.turn(blob, request)
        if isinstance(request, ReplayOf):
            return self.replay_of(blob, request.id)
        async with self._opening:
            return await self.open_table(blob, request)

    def listing(self, blob: bytes) -> list[ServedTable]:
        me = self.lan_identity(blob)
        mine, mine_fp = me.public, me.fingerprint
        out = []
        for h in sorted(self.tables.values(), key=lambda h: h.host.name.lower()):
            t = h.host
            if t.phase.value == "ended":
                continue
            seated = any(r.key == mine for r in t.remotes.values()) or mine_fp in t.reserved.values()
            if t.started and not seated:
                continue  # full and playing: nothing to join (spectators come later)
            out.append(self._describe(h, yours=seated))
        return out

    def _describe(self, h: Hosted, *, yours: bool) -> ServedTable:
        t = h.host
        return ServedTable(
            name=t.name,
            game=t.game.name,
            port=t.port,
            players=t.info.players,
            open_seats=t.open_seats,
            fingerprint=t.identity.fingerprint,
            content=t.game.content_hash,
            owner=self.fingerprint_of(h.owner),
            needs_passphrase=h.locked,
            started=t.started,
            yours=yours,
        )

    def _seats(self, blob: bytes, asked: list[str]) -> tuple[list[str], dict[int, str]] | str:
        """The form's seats as the LAN host names them, or why they cannot be."""
        from coldwater.net.known_hosts import normalise_fingerprint

        if asked.count("host") != 1 or asked[0] != "host":
            return "the first seat is yours (and only the first)"
        out = ["reserved:" + self.lan_identity(blob).fingerprint]
        ssh_seats: dict[int, str] = {0: self.fingerprint_of(blob)}
        for i, kind in enumerate(asked[1:], start=1):
            if kind in ("open", "bot"):
                out.append(kind)
                continue
            if not kind.startswith("reserved:") or not kind.split(":", 1)[1].strip():
                return f"seat {i + 1}: {kind!r} is not open, bot or reserved:FINGERPRINT"
            text = kind.split(":", 1)[1].strip()
            try:
                fp = normalise_fingerprint(text)
            except ValueError:
                return f"seat {i + 1}: {text!r} is not a key fingerprint (16 hex digits, e.g. ab12-cd34-ef56-7890)"
            key = self.key_by_fingerprint(fp)
            if key is not None:
                # An SSH key the server knows: the seat is for the LAN identity its sessions use.
                out.append("reserved:" + self.lan_identity(key).fingerprint)
                ssh_seats[i] = fp
            else:
                out.append("reserved:" + fp)  # a LAN player's key fingerprint
        return out, ssh_seats

    async def open_table(self, blob: bytes, req: OpenTable) -> Reply:
        from coldwater.core import games
        from coldwater.net.names import BadName, check_name

        try:  # the one name rule (net/names.py), as the form and `coldwater host` check it
            name = check_name(req.name)
        except BadName as e:
            return Failed(str(e))
        if name in self.tables:
            return Failed(f"a table named {name!r} is already open on this server; choose another name")
        if len(self.tables) >= self.max_tables:
            return Failed(f"this server hosts {self.max_tables} tables already; try again later")
        if sum(1 for h in self.tables.values() if h.owner == blob) >= TABLES_PER_KEY:
            return Failed(f"you have {TABLES_PER_KEY} tables open on this server already; close one first")
        try:
            game = games.get(req.game)
        except KeyError:
            return Failed(f"this server has no game {req.game!r}")
        seats = self._seats(blob, req.seats)
        if isinstance(seats, str):
            return Failed(seats)
        kinds, ssh_seats = seats
        host = await self._host(game, name, kinds, req, ssh_seats)
        if isinstance(host, str):
            return Failed(host)
        hosted = Hosted(host, blob, ssh_seats, locked=bool(req.passphrase))
        self.tables[name] = hosted
        hosted.task = self._spawn(self._run(hosted))
        self.say(f"table {name!r} ({game.name}) opened by {self.fingerprint_of(blob)} on port {host.port}")
        return Opened(self._describe(hosted, yours=True))

    async def _host(
        self, game: Game[Any, Any], name: str, kinds: list[str], req: OpenTable, ssh_seats: dict[int, str]
    ) -> TableHost | str:
        from coldwater import net

        try:
            host: TableHost = await net.open_table(
                game,
                name=name,
                seats=kinds,
                identity=self.identity,
                passphrase=req.passphrase or None,
                options=req.options or None,
                host_name="server",
                bind=self.bind,
                advertise=self.advertise,
                auto_start=True,  # no one sits at the host's seat: the game starts when every seat is ready
                save_dir=self.root / "ssh" / "tables",
                watchers=req.watchers,
                # The opener's choice, else the game's default: the fair dealer where it is wired (the server
                # has no seat; it keeps the record from a bot seat's view, or an observer's with no bot).
                dealer=req.dealer or net.default_dealer(game),
                turn_timer=req.turn,
                strict_clock=req.strict,
                hints=req.hints,
            )
        except Exception as e:  # bad options, a port: said plainly to the asker
            return f"cannot open the table: {e}"
        _label_ssh_seats(host, ssh_seats)
        host.linger = True  # the seats stay connected after the end, to be offered a rematch
        return host

    async def _run(self, hosted: Hosted) -> None:
        name = hosted.host.name
        try:
            result = await hosted.host.run()
            self.say(f"table {name!r} ended: {result.outcome}; {finals_line(hosted.host, result.digest)}")
            self.keep_result(hosted, result)
            if self.tables.get(name) is hosted and any(r.present for r in hosted.host.remotes.values()):
                self.ended[name] = (hosted, time.monotonic())  # for a rematch, a while
            else:
                await hosted.host.close()
        except asyncio.CancelledError:
            raise
        except Exception as e:
            self.say(f"table {name!r} stopped: {e}")
        finally:
            if self.tables.get(name) is hosted:
                del self.tables[name]

    async def turn(self, blob: bytes, request: TurnRequest) -> Reply:
        """A turn-based table request of the key `blob` (turns.py); a refusal changes nothing."""
        from coldwater.tui.serve.turns import TurnError

        if self.turns is None:
            return Failed("this server keeps no turn-based tables")
        me = self.fingerprint_of(blob)
        try:
            if isinstance(request, OpenTurnTable):
                return await self.turns.open(me, request)
            if isinstance(request, ListTurnTables):
                return TurnTables(self.turns.mine(me))
            if isinstance(request, TurnView):
                return self.turns.view(me, request.id)
            if isinstance(request, TurnOutOfTime):
                return await self.turns.out_of_time(me, request.id, request.ply, request.seat, request.choice)
            if isinstance(request, DealList | DealPlay):
                if self.deals is None:
                    return Failed("this server deals no deal of the day")
                if isinstance(request, DealList):
                    return DealBoards(self.deals.boards(me))
                return await self.deals.play(me, request.game)
            return await self.turns.move(me, request.id, request.ply, request.action)
        except TurnError as e:
            return Failed(str(e))

    def history(self, blob: bytes, limit: int = 200) -> Reply:
        """The key's finished games, newest first, with what each did to its rating (history.py)."""
        from coldwater.tui.serve import history

        if self.store is None:
            return Failed("this server keeps no history")
        return history.history(self.store, self.fingerprint_of(blob), limit)

    def replay_of(self, blob: bytes, game_id: int) -> Reply:
        """Write the record of a game the key played into its own records folder (history.py)."""
        from coldwater.tui.serve import history

        if self.store is None:
            return Failed("this server keeps no history")
        return history.replay_of(self.store, self.fingerprint_of(blob), self.home_of(blob), game_id)

    def keep_result(self, hosted: Hosted, result: Result) -> GameResult | None:
        """Keep a finished game in the server's database (and say so in the log if it cannot)."""
        if self.store is None:
            return None
        from coldwater.tui.serve import history

        kept = history.game_result(self, hosted, result)
        try:
            self.store.add_result(kept)
        except Exception as e:  # (sqlite3's, the disk's) the game is over either way; the log says it is not kept
            log.exception("keeping the result of %s", hosted.host.name)
            self.say(f"table {hosted.host.name!r}: its result could NOT be kept in the database: {e}")
            return None
        return kept

    async def rematch(self, blob: bytes, name: str) -> Reply:
        """The finished table `name` again, offered to its seats (``net.open_rematch``)."""
        from coldwater import net
        from coldwater.net.session import HostPhase, RematchAnswered

        kept = self.ended.get(name)
        hosted = kept[0] if kept is not None else None
        live = self.tables.get(name)
        if hosted is None and live is not None and live.host.phase is HostPhase.ENDED:
            hosted = live  # its last word (the seats' final digests) is still coming: open_rematch waits
        elif live is not None:
            return Failed(f"the table {name!r} on this server has not finished its game")
        if hosted is None:
            return Failed(f"no finished game at a table named {name!r} is waiting for a rematch")
        if hosted.owner != blob:
            return Failed("only the key that opened a table may offer its rematch")
        old = hosted.host
        try:
            new = await net.open_rematch(old, advertise=self.advertise)
        except (net.Refusal, OSError, ValueError, RuntimeError) as e:
            return Failed(f"cannot open the rematch: {e}")
        self.ended.pop(name, None)
        _label_ssh_seats(new, hosted.ssh_seats)
        new.linger = True
        again = Hosted(new, blob, hosted.ssh_seats, locked=hosted.locked)
        self.tables[name] = again
        again.task = self._spawn(self._run(again))

        def answered(ev: Event) -> None:
            if isinstance(ev, RematchAnswered) and not ev.accept:
                new.rematch.open_seat(ev.seat)  # nobody sits at the host's seat here to free it by hand

        old.subscribe(answered)
        self._spawn(self._retire(old, new))
        self.say(f"table {name!r} opened again for a rematch on port {new.port}")
        return Opened(self._describe(again, yours=True))

    async def _retire(self, old: TableHost, new: TableHost) -> None:
        """Close a finished table once its rematch has started (its seats' answers are in by then)."""
        with contextlib.suppress(asyncio.CancelledError):
            for _ in range(int(self.keep_ended)):
                if new.started or all(not r.present for r in old.remotes.values()):
                    break
                await asyncio.sleep(1.0)
        await old.close()

    async def close_table(self, blob: bytes, name: str) -> Reply:
        hosted = self.tables.get(name)
        if hosted is None:
            return Failed(f"no table named {name!r} is open on this server")
        if hosted.owner != blob:
            return Failed("only the key that opened a table may close it")
        if hosted.host.started:
            return Failed("the game has started; it ends when it is played out")
        await self._stop(hosted)
        return Done()

    async def _stop(self, hosted: Hosted) -> None:
        if self.tables.get(hosted.host.name) is hosted:
            del self.tables[hosted.host.name]
        if hosted.task is not None:
            hosted.task.cancel()
        with contextlib.suppress(Exception):
            await hosted.host.close()

    def reap(self, now: float | None = None) -> None:
        """Close lobby tables nobody has sat at for `keep_empty` seconds (a game keeps its table),
        and finished tables kept for a rematch that nobody asked for within `keep_ended`."""
        now = time.monotonic() if now is None else now
        for name, (hosted, ended_at) in list(self.ended.items()):
            if now - ended_at >= self.keep_ended or not any(r.present for r in hosted.host.remotes.values()):
                del self.ended[name]
                self._spawn(hosted.host.close())
        for hosted in list(self.tables.values()):
            t = hosted.host
            if t.started or any(r.present for r in t.remotes.values()):
                hosted.empty_since = None
            elif hosted.empty_since is None:
                hosted.empty_since = now
            elif now - hosted.empty_since >= self.keep_empty:
                self.say(f"table {t.name!r} closed: nobody sat at it for {self.keep_empty:.0f} s")
                self._spawn(self._stop(hosted))

    async def close(self) -> None:
        for hosted in list(self.tables.values()):
            await self._stop(hosted)
        for hosted, _ in list(self.ended.values()):
            with contextlib.suppress(Exception):
                await hosted.host.close()
        self.ended.clear()
        for task in list(self._tasks):
            task.cancel()

    def _spawn(self, work: Any) -> asyncio.Task[Any]:
        task: asyncio.Task[Any] = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task


def finals_line(host: TableHost, digest: str) -> str:
    """The table's final digest and each seat's own, signed by that seat (what every peer computed itself)."""
    seats = ", ".join(f"seat {f.seat + 1} {f.digest.hex()}" for _, f in sorted(host.finals.by_seat.items()))
    return f"digest {digest}; signed by the seats: {seats or 'none'}"


def _label_ssh_seats(host: TableHost, ssh_seats: dict[int, str]) -> None:
    """Show seats reserved for an SSH key by that key's fingerprint in everyone's lobby.

    The host matches the LAN identity behind the key; people only know the SSH
    fingerprint their own session shows them, so that is what the lobby names.
    """
    host.reserved_labels = {seat: f"SSH key {fp}" for seat, fp in ssh_seats.items()}
