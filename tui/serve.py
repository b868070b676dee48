"""`coldwater serve`: the app over SSH, for friends who have nothing but `ssh`.

Each SSH session gets its own `coldwater` process in its own pseudo-terminal.
A process per session is the simplest design that keeps sessions apart: a
crash, a hang or a runaway bot in one person's app cannot touch another's, and
the operating system reclaims everything when the session ends.

Who you are is the public key you connect with. Each key gets its own data
folder under the server's (saves, settings, records, LAN identity), so "resume
my game" is per key. Passwords are never accepted; `--allow` names the keys that
may play (authorized_keys format), and `--guests` lets any other key in too.

Why one module of ~880 lines: it is the whole server, in the order a connection meets
it (the configuration and keys, the `Server`'s authentication and limits, an `AppProcess`
in its pseudo-terminal, the SSH `_Session` that pipes between them); the tables the
server hosts for its sessions are in `servetables.py`.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import fcntl
import hashlib
import os
import select
import shlex
import shutil
import signal
import socket
import struct
import sys
import termios
import time
import warnings
from collections.abc import Callable, Coroutine, Mapping, Sequence
from pathlib import Path
from typing import Any

import msgspec

with warnings.catch_warnings():
    # asyncssh still names DSA (which cryptography deprecates) at import: ten lines of warnings on every
    # start, about a key type nobody can use here (the server's key is Ed25519; DSA logins are refused
    # by OpenSSH itself). Only that warning is silenced, and only during this import.
    warnings.filterwarnings("ignore", message="DSA is deprecated")
    import asyncssh

from coldwater.net.names import shown
from coldwater.net.play import paths
from coldwater.net.play.files import write_atomic
from coldwater.tui import servedata, servedeals, servenotify, servetables, serveturns

DEFAULT_PORT = 2222
NEEDS_TERMINAL = "coldwater needs a terminal: connect with `ssh -t` (a plain `ssh HOST` asks for one).\r\n"
TERMINAL_SETUP = b"\x1b[?1049h\x1b[?25l\x1b[?1000h\x1b[?1003h\x1b[?1015h\x1b[?1006h\x1b[?2004h\x1b[?1004h"
"""What the app (Textual) asks of a terminal when it starts: the alternate screen, no cursor, mouse
reporting, bracketed paste, focus events. A terminal that takes up a running app never saw it, so the
server sends it on every attach before the app redraws."""
TERMINAL_RESTORE = (
    b"\x1b[<u\x1b[?1000l\x1b[?1003l\x1b[?1015l\x1b[?1006l\x1b[?1016l\x1b[?2004l\x1b[?1004l\x1b[?1049l\x1b[?25h\x1b[?7h"
)
"""The undoing of it all (as the app does when it quits), sent before the server closes a session itself.
Line wrapping (``?7h``) too: Textual turns it off, and a shell left without it cuts every long line,
the server's own closing reason first."""
SHUTDOWN_REASON = "the server is shutting down; your games are kept, connect again when it is back"
"""Told to every terminal when the server stops (SIGTERM, SIGINT, SIGHUP)."""
SHUTDOWN_WAIT = 10.0
"""Seconds a stopping server waits for its apps to end and for their terminals to be given back."""
NO_SESSION_PER_KEY = 4
"""Connections of one key with no session (``ssh -N``) at once; more are closed."""
SESSION_GRACE = 5.0
"""Seconds after authentication a connection has to ask for its session before it counts as sessionless.
OpenSSH asks within milliseconds; counting at authentication shut the key's real logins out whenever
its ``ssh -N`` connections had filled the cap."""


class ServeConfig(msgspec.Struct, frozen=True, kw_only=True):
    """How a server runs; every limit has a default a small group of friends never meets."""

    port: int = DEFAULT_PORT
    bind: str = ""  # all interfaces: friends connect from their own machines
    host_key: Path | None = None  # default: <data>/ssh/host_key, made on first start
    allow: Path | None = None  # authorized_keys file; None: only guests (if allowed)
    guests: bool = False
    max_sessions: int = 32
    idle_timeout: float = 30 * 60.0  # seconds without a key press before a shown app closes
    keep_detached: float = 15 * 60.0  # seconds an app whose connection dropped waits for its key
    command: tuple[str, ...] = ()  # the program each session runs; default: this Python's coldwater
    table_bind: str = "0.0.0.0"  # where tables hosted by the server listen (LAN players join them there)
    advertise: bool = True  # announce the server's tables on the LAN (zeroconf)
    notify: str = ""  # a command run when a turn-based table's turn passes to a key (servenotify.py)


def key_fingerprint(public_blob: bytes) -> str:
    """A player's SSH key shown the way LAN identities are: four groups of four hex digits."""
    h = hashlib.sha256(b"coldwater-ssh\x00" + public_blob).hexdigest()[:16]
    return "-".join(h[i : i + 4] for i in range(0, 16, 4))


def openssh_fingerprint(public_blob: bytes) -> str:
    """`SHA256:...` as `ssh-keygen -l` and ssh's first-connection prompt print it."""
    digest = base64.b64encode(hashlib.sha256(public_blob).digest()).decode().rstrip("=")
    return f"SHA256:{digest}"


def _private_dir(path: Path) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    path.chmod(0o700)  # mkdir's mode is masked by umask, and parents get the default
    return path


PUBLIC_KEY_FILE = "ssh-key.pub"
"""The SSH public key (wire format) a player folder belongs to."""


def player_home(root: Path, public_blob: bytes) -> Path:
    """The data folder of the person holding this key: theirs alone, like a home directory."""
    _private_dir(root / "ssh")
    _private_dir(root / "ssh" / "players")
    home = _private_dir(root / "ssh" / "players" / hashlib.sha256(public_blob).hexdigest()[:32])
    key_file = home / PUBLIC_KEY_FILE
    if not key_file.exists():
        write_atomic(key_file, public_blob)  # so a seat can be reserved for a key that is not connected
    return home


def known_keys(root: Path) -> set[bytes]:
    """Every SSH key that has a player folder here."""
    players = root / "ssh" / "players"
    out: set[bytes] = set()
    for f in players.glob(f"*/{PUBLIC_KEY_FILE}") if players.exists() else []:
        with contextlib.suppress(OSError):
            out.add(f.read_bytes())
    return out


def load_host_key(path: Path) -> asyncssh.SSHKey:
    """The server's host key, generated once and kept (0600) so returning friends can trust it."""
    if path.exists():
        return asyncssh.read_private_key(str(path))
    key = asyncssh.generate_private_key("ssh-ed25519")
    write_atomic(path, key.export_private_key())  # owner-only from the start
    return key


def load_allowed(path: Path) -> set[bytes]:
    """Public key blobs from an authorized_keys file.

    A line that is not a key is an error naming the line: a typo must not
    silently lock a friend out (or, worse, look like an empty list).
    """
    try:
        text = path.read_text()
    except OSError as e:
        raise ValueError(f"cannot read the allowed keys in {path}: {e.strerror or e}") from e
    blobs: set[bytes] = set()
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        fields = line.split()
        # authorized_keys lines may start with options ("no-pty,from=... ssh-ed25519 AAAA... me").
        start = next((i for i, f in enumerate(fields) if f.startswith(("ssh-", "ecdsa-", "sk-"))), None)
        try:
            if start is None:
                raise asyncssh.KeyImportError("no key type")
            key = asyncssh.import_public_key(" ".join(fields[start:]))
        except (asyncssh.KeyImportError, ValueError) as e:
            raise ValueError(f"{path}, line {number}: not a public key ({e})") from e
        blobs.add(key.public_data)
    if not blobs:
        raise ValueError(f"{path} lists no keys")
    return blobs


def _set_winsize(fd: int, cols: int, rows: int) -> None:
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", max(rows, 1), max(cols, 1), 0, 0))


class AppProcess:
    """One person's running app in its own pty; it outlives the SSH session showing it.

    When a connection drops, the app keeps running detached (a game goes on, a
    LAN table it hosts stays open) and the same key's next connection sits back
    down at it, as `tmux attach` would. Output while detached is read and
    dropped, so the app never blocks on a full terminal.
    """

    def __init__(self, server: Server, key_blob: bytes, child: asyncio.subprocess.Process, master: int) -> None:
        self.server = server
        self.key_blob = key_blob
        self.child = child
        self.master = master
        self.session: _Session | None = None
        self.attached_before = False
        self.last_input = time.monotonic()
        self.detached_at: float | None = None
        self._reading = False
        self.last_output = time.monotonic()
        self.closed_why = ""
        """Why the server ended this app (idle, nobody came back), told to the terminal showing it."""
        self.rest = servenotify.Rest()
        """Where the app's output stream is: a notice goes in only between two of its sequences."""
        self.notice = b""
        """A your-turn notice waiting for the stream to be at rest (servenotify.py)."""
        self.ended = asyncio.Event()
        """Set once the app has ended and its last output (and the server's word) went to its terminal."""

    @property
    def who(self) -> str:
        return key_fingerprint(self.key_blob)

    @property
    def running(self) -> bool:
        return self.child.returncode is None

    def attach(self, session: _Session) -> None:
        old, self.session = self.session, session
        if old is not None and old is not session:
            old.taken_over()
        self.detached_at = None
        self.last_input = time.monotonic()
        if old is not None or self.attached_before:
            self._send(TERMINAL_SETUP)  # a new terminal: set it up as the app did its first
        self.attached_before = True
        self._read(True)
        cols, rows = session.size
        # A returning terminal is blank: a size change makes the app draw everything again.
        self.resize(cols, rows + 1 if rows < 500 else rows - 1)
        asyncio.get_running_loop().call_later(0.2, self.resize, *session.size)

    def detach(self) -> None:
        self.session = None
        self.detached_at = time.monotonic()
        self._read(True)

    def write(self, data: bytes) -> None:
        self.last_input = time.monotonic()
        with contextlib.suppress(OSError):
            os.write(self.master, data)

    def resize(self, cols: int, rows: int) -> None:
        if not self.running:
            return
        with contextlib.suppress(OSError):
            _set_winsize(self.master, cols, rows)
        # The pty is not the app's controlling terminal, so the kernel sends no
        # SIGWINCH by itself: tell the app's process group.
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.child.pid, signal.SIGWINCH)

    def _read(self, on: bool) -> None:
        loop = asyncio.get_running_loop()
        if on and not self._reading and self.running:
            loop.add_reader(self.master, self._pump)
            self._reading = True
        elif not on and self._reading:
            loop.remove_reader(self.master)
            self._reading = False

    def pause(self) -> None:
        # The client reads slower than the app draws: stop reading until it catches up
        # (the app then waits on its terminal, which is what a slow terminal means).
        if self.session is not None:
            self._read(False)

    def resume(self) -> None:
        self._read(True)

    def _pump(self) -> None:
        try:
            data = os.read(self.master, 65536)
        except BlockingIOError:
            return
        except OSError:  # EIO: the app closed its terminal
            self._read(False)
            return
        self._send(data)

    def _send(self, data: bytes) -> None:
        if data:
            self.last_output = time.monotonic()
            self.rest.feed(data)
        if data and self.session is not None and self.session.chan is not None:
            with contextlib.suppress(Exception):  # the connection may be closing under us
                self.session.chan.write(data)
        if self.notice and self.rest.at_rest:
            self._tell()

    def tell(self, title: str, body: str) -> bool:
        """A desktop notice and a bell in the terminal showing this app (False: none shows it). Written
        at once if the app's output is between two sequences, else as soon as it is."""
        session = self.session
        if session is None or session.chan is None:
            return False
        self.notice = servenotify.notice(title, body, session.term or "")
        if self.rest.at_rest:
            self._tell()
        return True

    def _tell(self) -> None:
        notice, self.notice = self.notice, b""
        if self.session is not None and self.session.chan is not None:
            with contextlib.suppress(Exception):
                self.session.chan.write(notice)

    async def run(self) -> None:
        """Wait for the app to end, then end the session showing it (if any)."""
        try:
            await self._run()
        finally:
            self.ended.set()

    async def _run(self) -> None:
        status = await self.child.wait()
        self._read(False)
        while self._more():  # what the app drew last still reaches the person
            try:
                data = os.read(self.master, 65536)
            except OSError:  # EIO: nothing more
                break
            if not data:
                break
            self._send(data)
        with contextlib.suppress(OSError):
            os.close(self.master)
        if self in self.server.apps:
            self.server.apps.remove(self)
        self.server.log(f"app for {self.who} ended ({status})")
        session = self.session
        if session is not None and session.chan is not None:
            if self.closed_why:  # the server ended it: give the terminal back, and say why
                self._send(TERMINAL_RESTORE + f"[coldwater: {self.closed_why}]\r\n".encode())
            with contextlib.suppress(Exception):
                session.chan.exit(max(status, 0))

    def _more(self) -> bool:
        ready, _, _ = select.select([self.master], [], [], 0)
        return bool(ready)

    def stop(self, why: str = "") -> None:
        if not self.running:
            return
        self.closed_why = self.closed_why or why
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.child.pid, signal.SIGHUP)
        child = self.child

        async def _reap() -> None:
            try:
                await asyncio.wait_for(child.wait(), 3.0)
            except TimeoutError:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(child.pid, signal.SIGKILL)

        self.server.spawn(_reap())


class Server:
    """Owns the listening socket, the running apps, the limits and the per-key folders."""

    def __init__(
        self, config: ServeConfig, *, root: Path | None = None, log: Callable[[str], None] | None = None
    ) -> None:
        self.config = config
        self.root = root or paths.data_dir()
        self.allowed: set[bytes] = load_allowed(config.allow) if config.allow else set()
        self.host_key = load_host_key(config.host_key or _private_dir(self.root / "ssh") / "host_key")
        self.log = log or (lambda line: print(line, file=sys.stderr, flush=True))
        self._acceptor: asyncssh.SSHAcceptor | None = None
        self._reaper: asyncio.Task[None] | None = None
        self.apps: list[AppProcess] = []
        self.no_session: dict[bytes, list[Any]] = {}
        """Per key, its connections that asked for no session in SESSION_GRACE (capped: NO_SESSION_PER_KEY)."""
        self.session_grace = SESSION_GRACE
        self.conns: set[asyncssh.SSHServerConnection] = set()
        """Every SSH connection open now (a stopping server waits for them to end, then closes the rest)."""
        self.with_session: set[asyncssh.SSHServerConnection] = set()
        """The open connections that asked for a session (a stopping server lets them end by themselves)."""
        self._tasks: set[asyncio.Task[None]] = set()
        self.starting = asyncio.Lock()  # starting a process takes milliseconds; one at a time is fine
        self.store = servedata.Store(servedata.db_path(self.root))
        """The server's database: keys that connected, finished games (servedata.py)."""
        self.tables = servetables.ServerTables(
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
        self.tables.turns = serveturns.TurnTablesKeeper(
            self.store,
            known_keys=lambda: {key_fingerprint(b) for b in self.allowed | known_keys(self.root)},
            wall_clock=time.time,
            say=lambda line: self.log(line),
            on_turn=self.turn_notice,
        )
        # The day's deal differs from server to server: its seed starts with a name of this host key.
        server_id = hashlib.sha256(self.host_key.public_data).hexdigest()[:8]
        self.tables.deals = servedeals.Deals(self.tables.turns, self.store, server_id)

    def turn_notice(self, player: str, table: serveturns.Turns) -> None:
        """It is now `player`'s turn at `table`: a notice in their terminal if their app is on screen, and
        the host's hook (--notify) if there is one."""
        app = next((a for a in self.apps if a.who == player and a.running), None)
        if app is not None:
            app.tell("coldwater", f"your turn at {table.name} ({table.game.title})")
        if self.config.notify:
            self.spawn(servenotify.run_hook(self.config.notify, player, table.name, table.game.name, self.log))

    def no_session_gone(self, conn: Any) -> None:
        """`conn` asked for a session, or closed: it no longer counts against its key's cap."""
        key: bytes | None = getattr(conn, "key_blob", None)
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
            servetables.KEY_ENV: key_fingerprint(blob),
            servetables.OPENSSH_KEY_ENV: openssh_fingerprint(blob),
            servetables.FD_ENV: str(theirs.fileno()),
            **{k: v for k, v in client_env.items() if k in ("COLORTERM", "NO_COLOR")},
        }
        master, slave = os.openpty()
        try:
            _set_winsize(master, *size)
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
        server = self

        class _Conn(asyncssh.SSHServer):
            def __init__(self) -> None:
                self.key_blob: bytes | None = None
                self.conn: asyncssh.SSHServerConnection | None = None
                self.has_session = False
                self.grace: asyncio.TimerHandle | None = None

            def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
                self.conn = conn
                server.conns.add(conn)

            def connection_lost(self, exc: Exception | None) -> None:
                if self.conn is not None:
                    server.conns.discard(self.conn)
                    server.with_session.discard(self.conn)
                if self.grace is not None:
                    self.grace.cancel()
                server.no_session_gone(self)

            def auth_completed(self) -> None:
                # `ssh -N` (or a client that never asks for a session) holds a connection and a
                # task here for nothing: a few per key at once, and a further one is closed. It is
                # counted only once it had its time to ask for a session (SESSION_GRACE), so a real
                # login of a key whose cap is full is never taken for one more `ssh -N`.
                self.grace = asyncio.get_running_loop().call_later(server.session_grace, self.count_bare)

            def count_bare(self) -> None:
                assert self.key_blob is not None and self.conn is not None
                if self.has_session or self.conn not in server.conns:
                    return
                bare = server.no_session.setdefault(self.key_blob, [])
                if len(bare) >= NO_SESSION_PER_KEY:
                    server.log(
                        f"closed a connection of {key_fingerprint(self.key_blob)}: "
                        f"{len(bare)} of its connections already have no session"
                    )
                    self.conn.close()
                    return
                bare.append(self)

            def begin_auth(self, username: str) -> bool:
                return True  # every connection must authenticate with a key

            def password_auth_supported(self) -> bool:
                return False

            def kbdint_auth_supported(self) -> bool:
                return False

            def public_key_auth_supported(self) -> bool:
                return True

            def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
                blob = key.public_data
                if server.admits_key(blob):
                    self.key_blob = blob
                    return True
                server.log(f"refused key {openssh_fingerprint(blob)} (not on the allowed list; no guests)")
                return False

            def session_requested(self) -> asyncssh.SSHServerSession[bytes]:
                assert self.key_blob is not None  # sessions come only after authentication
                self.has_session = True
                if self.conn is not None:
                    server.with_session.add(self.conn)
                server.no_session_gone(self)
                return _Session(server, self.key_blob)

        self._acceptor = await asyncssh.create_server(
            _Conn,
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


class _Session(asyncssh.SSHServerSession[bytes]):
    """One SSH session: it shows one app, new or left running by this key before."""

    def __init__(self, server: Server, key_blob: bytes) -> None:
        self.server = server
        self.key_blob = key_blob
        self.chan: asyncssh.SSHServerChannel[bytes] | None = None
        self.term: str | None = None
        self.size = (80, 24)
        self.command: str | None = None
        self.app: AppProcess | None = None

    # asyncssh session callbacks ------------------------------------------------------
    def connection_made(self, chan: asyncssh.SSHServerChannel[bytes]) -> None:
        self.chan = chan

    def pty_requested(
        self, term_type: str, term_size: tuple[int, int, int, int], term_modes: Mapping[int, int]
    ) -> bool:
        self.term = term_type
        if term_size[0] and term_size[1]:
            self.size = (term_size[0], term_size[1])
        return True

    def shell_requested(self) -> bool:
        return True

    def exec_requested(self, command: str) -> bool:
        self.command = command.strip()  # answered in session_started
        return True

    def subsystem_requested(self, subsystem: str) -> bool:
        return False

    def session_started(self) -> None:
        # A session that is refused outright is answered here, before any other callback can run.
        assert self.chan is not None
        if self.term is None:
            self._finish(NEEDS_TERMINAL, 1)
        elif self.command:
            asked = shown(self.command, limit=200)  # (echoed: escaped, as any text from elsewhere)
            self._finish(f"coldwater serves only its app; `{asked}` is not a command here.\r\n", 1)
        else:
            self.server.spawn(self._start())

    def data_received(self, data: bytes, datatype: int | None) -> None:
        if self.app is not None:
            self.app.write(data)

    def terminal_size_changed(self, width: int, height: int, pixwidth: int, pixheight: int) -> None:
        self.size = (width, height)
        if self.app is not None:
            self.app.resize(width, height)

    def eof_received(self) -> bool:
        # Stay half open: `ssh host cmd </dev/null` sends EOF at once, and closing then raced the
        # refusal (its text and exit status were lost, and the client waited). The app ends the channel.
        return True

    def break_received(self, msec: int) -> bool:
        return False

    def signal_received(self, signal_name: str) -> None:
        return None

    def soft_eof_received(self) -> None:
        return None

    def pause_writing(self) -> None:
        if self.app is not None:
            self.app.pause()

    def resume_writing(self) -> None:
        if self.app is not None:
            self.app.resume()

    def connection_lost(self, exc: Exception | None) -> None:
        app, self.app = self.app, None
        if app is not None and app.session is self and app.running:
            app.detach()
            self.server.log(f"app for {app.who} left running; the same key returns to it")

    # the session's life ------------------------------------------------------------
    def _finish(self, text: str, status: int) -> None:
        assert self.chan is not None
        with contextlib.suppress(Exception):
            self.chan.write(text.encode())
            self.chan.write_eof()
        with contextlib.suppress(Exception):
            self.chan.exit(status)

    def taken_over(self) -> None:
        """Another connection with this key took the app: say so here and close."""
        self.app = None
        self._finish(
            TERMINAL_RESTORE.decode() + "[coldwater: your game was taken up by a newer connection with your key]\r\n", 0
        )

    async def _start(self) -> None:
        assert self.chan is not None and self.term is not None  # (refusals were answered at the start)
        async with self.server.starting:  # two connections of one key must not start two apps
            app = self.server.app_of(self.key_blob)
            if app is None:
                refusal = self.server.refusal()
                if refusal is not None:
                    self._finish(refusal + "\r\n", 1)
                    return
                try:
                    app = await self.server.launch(self.key_blob, self.term, self.size, self._client_env())
                except OSError as e:
                    self._finish(f"coldwater could not start: {e}\r\n", 1)
                    return
            else:
                self.server.log(f"app for {app.who} taken up again")
        if self.chan.is_closing():
            if app.session is None:
                app.detach()  # the connection went while the app started; it waits for the key
            return
        self.app = app
        app.attach(self)

    def _client_env(self) -> dict[str, str]:
        assert self.chan is not None
        try:
            return {str(k): str(v) for k, v in self.chan.get_environment().items()}
        except Exception:
            return {}


def parse_args(argv: Sequence[str]) -> ServeConfig:
    import argparse

    p = argparse.ArgumentParser(
        prog="coldwater serve",
        description="Serve the app over SSH: friends connect with `ssh -p PORT play@HOST`; their key is who they are.",
    )
    p.add_argument("--port", type=int, default=DEFAULT_PORT)
    p.add_argument("--bind", default="", help="address to listen on (default: every interface)")
    p.add_argument(
        "--host-key", type=Path, help="the server's private host key (default: made once in the data folder)"
    )
    p.add_argument("--allow", type=Path, metavar="KEYS_FILE", help="keys that may play, in authorized_keys format")
    p.add_argument("--guests", action="store_true", help="let in any other key too, as a guest")
    p.add_argument("--max-sessions", type=int, default=32)
    p.add_argument(
        "--table-bind",
        default="0.0.0.0",
        metavar="ADDR",
        help="where tables opened by SSH players listen, for LAN players to join (default: every interface)",
    )
    p.add_argument("--no-advertise", action="store_true", help="do not announce the server's tables on the LAN")
    p.add_argument("--idle-minutes", type=float, default=30.0, help="close a session after this long without a key")
    p.add_argument(
        "--keep-minutes",
        type=float,
        default=15.0,
        help="keep an app whose connection dropped this long for its key to return",
    )
    p.add_argument(
        "--backup",
        type=Path,
        metavar="FILE",
        help="copy the server's database to FILE and exit (safe while the server runs; docs/ssh.md)",
    )
    p.add_argument(
        "--notify",
        default="",
        metavar="CMD",
        help="run CMD with a player's key fingerprint and a table's name when it becomes their turn there",
    )
    p.add_argument("--ratings", action="store_true", help="print every key's rating per game on this server and exit")
    a = p.parse_args(list(argv))
    if a.allow is None and not a.guests:
        p.error("nobody could connect: name the keys that may play with --allow KEYS_FILE, or pass --guests")
    if not 0 <= a.port < 65536:
        p.error("--port must be between 1 and 65535 (0: any free port)")
    if a.max_sessions < 1:
        p.error("--max-sessions must be at least 1")
    if a.idle_minutes <= 0 or a.keep_minutes <= 0:
        p.error("--idle-minutes and --keep-minutes must be more than 0")
    if a.notify:
        try:
            words = shlex.split(a.notify)
        except ValueError as e:
            p.error(f"--notify: {e}")
        if not words or shutil.which(words[0]) is None:
            p.error(f"--notify: no command {words[0] if words else a.notify!r} here (give its path)")
    return ServeConfig(
        port=a.port,
        bind=a.bind,
        host_key=a.host_key,
        allow=a.allow,
        guests=a.guests,
        max_sessions=a.max_sessions,
        idle_timeout=a.idle_minutes * 60,
        keep_detached=a.keep_minutes * 60,
        table_bind=a.table_bind,
        advertise=not a.no_advertise,
        notify=a.notify,
    )


async def serve_forever(config: ServeConfig) -> None:
    server = Server(config)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    # Before the first connection can be made: a stop from then on is a clean one (whoever read the
    # "listening" line may stop the server at once).
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):  # SIGHUP: the terminal it ran in closed
        loop.add_signal_handler(sig, stop.set)
    port = await server.start()
    try:
        where = config.bind or "every interface"
        print(f"coldwater serve: listening on {where}, port {port}", flush=True)
        print(f"host key fingerprint: {server.host_fingerprint} (friends see it on first connect)", flush=True)
        print(f"connect with: ssh -p {port} play@THIS-HOST", flush=True)
        await stop.wait()
    finally:
        print("coldwater serve: stopping; every session is told so and given its terminal back", flush=True)
        await server.close(SHUTDOWN_REASON)


def main(argv: Sequence[str]) -> int:
    from coldwater.tui import serveadmin

    if (admin := serveadmin.command(argv)) is not None:
        return admin  # --backup, --ratings: the host's commands on the server's data, no server started
    try:
        config = parse_args(argv)
        asyncio.run(serve_forever(config))
    except ValueError as e:
        print(f"coldwater serve: {e}", file=sys.stderr)
        return 2
    except servedata.StoreError as e:
        print(f"coldwater serve: {e}", file=sys.stderr)
        return 1
    except OSError as e:
        print(f"coldwater serve: cannot listen: {e}", file=sys.stderr)
        return 1
    return 0
