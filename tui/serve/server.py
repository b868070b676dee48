"""The server (`Server`): the listening socket, the running apps, the limits and the per-key folders.

It listens (connection.py authenticates each connection and counts its sessions), starts one app per
key in its own pseudo-terminal (process.py) for the session that shows it (session.py), reaps apps
idle too long or left with nobody coming back, and keeps the tables it hosts for its sessions
(tables.py, turns.py, deals.py) and its database (database.py). A stop tells every terminal why and
gives it back before the connections close.
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import socket
import sys
import time
from collections.abc import Callable, Coroutine, Mapping
from pathlib import Path
from typing import Any

from coldwater.net.play import paths
from coldwater.tui.serve import control, database, deals, notify, turns
from coldwater.tui.serve.config import ServeConfig
from coldwater.tui.serve.connection import SESSION_GRACE, Connection
from coldwater.tui.serve.keys import (
    key_fingerprint,
    known_keys,
    load_allowed,
    load_host_key,
    openssh_fingerprint,
    player_home,
    private_dir,
)
from coldwater.tui.serve.process import AppProcess, set_winsize
from coldwater.tui.serve.sshlib import asyncssh
from coldwater.tui.serve.tables import ServerTables

SHUTDOWN_REASON = "the server is shutting down; your games are kept, connect again when it is back"
"""Told to every terminal when the server stops (SIGTERM, SIGINT, SIGHUP)."""
SHUTDOWN_WAIT = 10.0
"""Seconds a stopping server waits for its apps to end and for their terminals to be given back."""


class Server:
    """Owns the listening socket, the running apps, the limits and the per-key folders."""

    def __init__(
        self, config: ServeConfig, *, root: Path | None = None, log: Callable[[str], None] | None = None
    ) -> None:
        self.config = config
        self.root = root or paths.data_dir()
        self.allowed: set[bytes] = load_allowed(config.allow) if config.allow else set()
        self.host_key = load_host_key(config.host_key or private_dir(self.root / "ssh") / "host_key")
        self.log = log or (lambda line: print(line, file=sys.stderr, flush=True))
        self._acceptor: asyncssh.SSHAcceptor | None = None
        self._reaper: asyncio.Task[None] | None = None
        self.apps: list[AppProcess] = []
        self.no_session: dict[bytes, list[Connection]] = {}
        """Per key, its connections that asked for no session in SESSION_GRACE (capped: NO_SESSION_PER_KEY)."""
        self.session_grace = SESSION_GRACE
        self.conns: set[asyncssh.SSHServerConnection] = set()
        """Every SSH connection open now (a stopping server waits for them to end, then closes the rest)."""
        self.with_session: set[asyncssh.SSHServerConnection] = set()
        """The open connections that asked for a session (a stopping server lets them end by themselves)."""
        self._tasks: set[asyncio.Task[None]] = set()
        self.starting = asyncio.Lock()  # starting a process takes milliseconds; one at a time is fine
        self.store = database.Store(database.db_path(self.root))
        """The server's database: keys that connected, finished games (database.py)."""
        self.tables = ServerTables(
            self.root,
            home_of=lambda blob: player_home(self.root, blob),
            known_keys=lambda: self.allowed | known_keys(self.root),
            fingerprint_of=key_fingerprint,
            bind=config.table_bind,
            advertise=config.advertise,
            max_tables=config.max_sessions,
            keep_empty=config.keep_detached,
            say=lambda line: self.log(line),
            store=self.store,
        )
        self.tables.turns = turns.TurnTablesKeeper(
            self.store,
            known_keys=lambda: {key_fingerprint(b) for b in self.allowed | known_keys(self.root)},
            wall_clock=time.time,
            say=lambda line: self.log(line),
            on_turn=self.turn_notice,
        )
        # The day's deal differs from server to server: its seed starts with a name of this host key.
        server_id = hashlib.sha256(self.host_key.public_data).hexdigest()[:8]
        self.tables.deals = deals.Deals(self.tables.turns, self.store, server_id)

    def turn_notice(self, player: str, table: turns.Turns) -> None:
        """It is now `player`'s turn at `table`: a notice in their terminal if their app is on screen, and
        the host's hook (--notify) if there is one."""
        app = next((a for a in self.apps if a.who == player and a.running), None)
        if app is not None:
            app.tell("coldwater", f"your turn at {table.name} ({table.game.title})")
        if self.config.notify:
            self.spawn(notify.run_hook(self.config.notify, player, table.name, table.game.name, self.log))

    def no_session_gone(self, conn: Connection) -> None:
        """`conn` asked for a session, or closed: it no longer counts against its key's cap."""
        key = conn.key_blob
        if key is None or conn not in self.no_session.get(key, []):
            return
        self.no_session[key].remove(conn)
        if not self.no_session[key]:
            del self.no_session[key]

    def spawn(self, work: Coroutine[Any, Any, None]) -> None:
        """Run `work` as a task the server holds on to (the loop keeps only weak references)."""
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    @property
    def host_fingerprint(self) -> str:
        return openssh_fingerprint(self.host_key.public_data)

    def admits_key(self, blob: bytes) -> bool:
        return blob in self.allowed or self.config.guests

    def refusal(self) -> str | None:
        """None when another app may start, else the reason it may not."""
        if len(self.apps) >= self.config.max_sessions:
            return f"The server is full ({self.config.max_sessions} sessions). Try again later."
        return None

    def app_of(self, blob: bytes) -> AppProcess | None:
        """This key's running app, shown or left. A key is one identity (one data
        folder, locked by the app), so a key has at most one."""
        return next((a for a in self.apps if a.key_blob == blob and a.running), None)

    def command(self) -> list[str]:
        # The app reads the client's TERM, COLORTERM and NO_COLOR itself (tui/termcaps.py).
        return list(self.config.command) or [sys.executable, "-m", "coldwater.tui.cli"]

    async def launch(self, blob: bytes, term: str, size: tuple[int, int], client_env: Mapping[str, str]) -> AppProcess:
        """Start the app for this key in a new pty (raises OSError if it cannot start)."""
        home = player_home(self.root, blob)
        self.store.saw_key(key_fingerprint(blob), blob, time.time())
        # The LAN identity exists before the app does, so the server and the app never both make one.
        self.tables.lan_identity(blob)
        # The control path: one end of a socket pair for the app, the other served here for this key.
        ours, theirs = socket.socketpair()
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": str(home),
            "LANG": client_env.get("LANG", "C.UTF-8"),
            "TERM": term,
            "COLDWATER_HOME": str(home),
            control.KEY_ENV: key_fingerprint(blob),
            control.OPENSSH_KEY_ENV: openssh_fingerprint(blob),
            control.FD_ENV: str(theirs.fileno()),
            **{k: v for k, v in client_env.items() if k in ("COLORTERM", "NO_COLOR")},
        }
        master, slave = os.openpty()
        try:
            set_winsize(master, *size)
            os.set_blocking(master, False)
            child = await asyncio.create_subprocess_exec(
                *self.command(),
                stdin=slave,
                stdout=slave,
                stderr=slave,
                env=env,
                cwd=str(home),
                start_new_session=True,
                close_fds=True,
                pass_fds=(theirs.fileno(),),
            )
        except OSError:
            os.close(master)
            ours.close()
            raise
        finally:
            os.close(slave)
            theirs.close()
        self.tables.attach(blob, ours)
        app = AppProcess(self, blob, child, master)
        self.apps.append(app)
        self.spawn(app.run())
        self.log(f"app for {app.who} started (pid {child.pid})")
        return app

    async def _reap(self) -> None:
        """Close apps idle too long while shown, and left apps nobody came back to."""
        idle, keep = self.config.idle_timeout, self.config.keep_detached
        while True:
            await asyncio.sleep(min(idle, keep, 5.0))
            now = time.monotonic()
            for app in list(self.apps):
                # Idle: no key pressed and nothing drawn. A watcher (or a player waiting on the
                # others) presses nothing for a long time, but the moves keep its screen drawing.
                quiet = now - max(app.last_input, app.last_output)
                if app.session is not None and quiet >= idle:
                    self.log(f"app for {app.who} closed after {idle:.0f} s without a key")
                    app.stop(f"closed after {idle / 60:g} minutes with no key pressed and nothing new to show")
                elif app.detached_at is not None and now - app.detached_at >= keep:
                    self.log(f"app for {app.who} closed: nobody came back for {keep:.0f} s")
                    app.stop()
            self.tables.reap(now)
            if self.tables.turns is not None:
                try:
                    await self.tables.turns.tick()  # moves out of time: the bot plays them
                except Exception as e:  # a bot or the disk failing must not stop the reaper
                    self.log(f"turn-based tables: {e}")

    async def start(self) -> int:
        """Listen; returns the port (useful with port 0 in tests)."""
        self._acceptor = await asyncssh.create_server(
            lambda: Connection(self),
            self.config.bind,
            self.config.port,
            server_host_keys=[self.host_key],
            encoding=None,
            line_editor=False,
            allow_scp=False,
            agent_forwarding=False,
            x11_forwarding=False,
            login_timeout=30,
            keepalive_interval=30,
        )
        if self.tables.turns is not None:
            await self.tables.turns.resume()  # every turn-based table as it was kept
        self._reaper = asyncio.get_running_loop().create_task(self._reap())
        sockets = self._acceptor.sockets
        return int(sockets[0].getsockname()[1]) if sockets else self.config.port

    async def close(self, why: str = SHUTDOWN_REASON) -> None:
        """Stop: no new connection; every app ended, its terminal given back and told `why`; then
        every connection closed. Waits (up to SHUTDOWN_WAIT) for the apps' last words to be written and
        for the clients to leave on their own, since closing a connection under them drops what is
        still queued for their terminal."""
        if self._acceptor is not None:
            self._acceptor.close()
        if self._reaper is not None:
            self._reaper.cancel()
        apps = list(self.apps)
        for app in apps:
            app.stop(why)
        deadline = time.monotonic() + SHUTDOWN_WAIT
        await _until(lambda: all(a.ended.is_set() for a in apps), deadline)
        await self.tables.close()
        # A client told its exit status closes its connection itself; `ssh -N` and the like never do.
        await _until(lambda: not self.conns & self.with_session, deadline)
        for conn in list(self.conns):
            conn.close()
        await _until(lambda: not self.conns, time.monotonic() + 2.0)
        if self._acceptor is not None:
            await self._acceptor.wait_closed()
        self.store.close()


async def _until(done: Callable[[], bool], deadline: float) -> None:
    """Wait until `done()` or the deadline (`time.monotonic()`), checking often."""
    while not done() and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
